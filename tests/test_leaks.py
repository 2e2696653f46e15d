"""The generic leak test: nothing a seat is shown depends on the cards hidden from it.

Over every file of games/, examples/, tests/check/valid/ and tests/check/leaky/ (files whose score
or labels depend on hidden cards, which `check` rightly warns about) that has hidden zones: at random
mid-game states (seeded), the cards seat k does not know are dealt again in a way that fits the
round's past play (`SeatView.sample`, which replays the round by place in the new deal, so the
twin's own log is written again from the round's first decision), and for seat k the view (labels
included), `transcript(k)`, the rendered play screen, the web table's message (`web`, byte for
byte) and each bot's decision with the same seed must be the same in both, and so must everything the research adapters (PettingZoo, Gymnasium,
OpenSpiel) give that seat. OpenSpiel's tensors, whose information state holds the game's decisions,
are checked on OpenSpiel's own states: the same course with two hidden cards exchanged. The explicit
findings of issue 13 follow.
"""

import contextlib
import glob
import io
import itertools
import os
import random

import pytest

from functools import lru_cache

from cardlang import gymnasium, openspiel, pettingzoo
from cardlang.runtime.view import ChoiceCount
from rich.console import Console

from cardlang.play.table_view import Layout, Style, actions_list, render_table
from cardlang.load import check_file
from cardlang.play.bots import BOTS, decide, make_bot
from cardlang.play.chance import decides
from cardlang.web.protocol import encode, seat_view, spectator_view
from scenario import ROOT, game, path, permute_hidden

FILES = sorted(os.path.relpath(p, ROOT) for folder in ("games", "examples", os.path.join("tests", "check", "valid"), os.path.join("tests", "check", "leaky"))
               for p in glob.glob(os.path.join(ROOT, folder, "*.cards")))
# numbers and players picked at once, shown or kept secret, replayed in a view's past or drawn again
FILES += [os.path.join("tests", "engine", name) for name in ("sealed_numbers.cards", "at_once_kinds.cards")]
# structures on the table (issue 28 item 4): a row of piles chosen by number, melds read as groups
FILES += [os.path.join("tests", "engine", name) for name in ("pile_family.cards", "meld_groups.cards")]
# melds kept as the groups they were laid in (`lay`, `group of`: issue 28 item 4)
FILES += [os.path.join("tests", "engine", "laid_groups.cards")]


def _has_hidden_zones(relative) -> bool:
    symbols, _ = check_file(path(relative))
    return any(visibility != "public" for _, visibility, _ in symbols.zones.values())


def _decides(relative) -> bool:
    return decides(check_file(path(relative))[0])


# a game nobody decides (examples/war.cards) has no mid-game state: it is over before anyone is
# shown anything, and `play` shows it from the view every seat shares (tests/test_chance.py)
HIDDEN = [f for f in FILES if _has_hidden_zones(f) and _decides(f)]
# every bot of the registry (a new bot is in the leak test as it is registered), with a small budget
SMALL_BUDGETS = {"greedy": 6, "ismcts": 12}
BOT_NAMES = tuple(f"{b}:{SMALL_BUDGETS[b]}" if b in SMALL_BUDGETS else b for b in BOTS)
SEEDS = 4
MORE_SEEDS = 12  # the most seeds tried for three twins that fit (see the test below)


def screen(state_or_view_obs, game_, seat, labels) -> str:
    """The play screen of `seat` (the table and its actions), as plain text."""
    console = Console(file=io.StringIO(), width=110, color_system=None, force_terminal=False)
    console.print(render_table(state_or_view_obs, Layout.of(game_), Style(), events=state_or_view_obs["log"][-8:],
                               viewer=seat))
    if labels:
        console.print(actions_list(labels, Style()))
    return console.file.getvalue()


def web(state, seat) -> str:
    """What the web table sends seat `seat` (None: a spectator) of `state`: its `view` message, as bytes
    go on the wire (docs/web.md)."""
    if seat is None:
        return encode(spectator_view(state, 0))
    return encode(seat_view(state, seat, 0, {"undo": False}))


def mid_game_states(g, seed, count=3):
    """`count` states at random points of one seeded random game (with their logs)."""
    def played(stops):
        rng = random.Random(seed)
        state = g.new_initial_state(seed=seed)
        out, moves = [], 0
        while not state.is_terminal() and moves < 80:
            if moves in stops:
                out.append(state.clone())
            legal = state.legal_action_ids()
            state.apply(legal[rng.randrange(len(legal))])
            moves += 1
        return out, moves
    _, length = played(())
    return played(set(random.Random(-seed).sample(range(length), min(count, length))))[0]


def twins(relative, players, seeds=range(SEEDS)):
    """(state, seat, twin) for seats of mid-game states, the twin re-dealt to fit the seat's view."""
    g = game(relative, players)
    for seed in seeds:
        for i, state in enumerate(mid_game_states(g, seed)):
            for seat in sorted({state.current_player, (state.current_player + 1 + i) % players}):
                twin, fits = state.view(seat).sample(random.Random(seed * 31 + seat), history=True)
                yield state, seat, twin, fits


@lru_cache(maxsize=None)
def _environments(relative, players):
    return (pettingzoo.CardsEnv(path(relative), players), gymnasium.CardsEnv(path(relative), 0, "random", players))


@lru_cache(maxsize=None)
def _rendering(relative, players, mode):
    """The environments of every API with render mode `mode`: (PettingZoo AEC, parallel, Gymnasium)."""
    return (pettingzoo.CardsEnv(path(relative), players, render_mode=mode),
            pettingzoo.CardsParallelEnv(path(relative), players, render_mode=mode),
            gymnasium.CardsEnv(path(relative), 0, "random", players, render_mode=mode))


# what `adapters_show` gives, in its order
ADAPTER_PARTS = ("PettingZoo", "Gymnasium", "Gymnasium mask", "OpenSpiel observation string",
                 "OpenSpiel information-state string", "PettingZoo parallel", "Gymnasium render ansi",
                 "Gymnasium render human", "PettingZoo render ansi", "PettingZoo render human",
                 "PettingZoo parallel render ansi", "PettingZoo parallel render human")


def adapters_show(relative, players, state, seat) -> list:
    """Everything the research adapters give seat `seat` of `state` (`ADAPTER_PARTS`): PettingZoo's
    observation and mask in the AEC and the parallel API, Gymnasium's, OpenSpiel's observation and
    information-state strings (its tensors are checked on OpenSpiel's states: test_infosets.py, and
    below), and the text table each API renders for the seat (`render_mode` "ansi", returned, and
    "human", printed: Gymnasium's always, PettingZoo's, which shows the seat to play, when that is
    the seat)."""
    pz, gym = _environments(relative, players)
    pz._state, pz._views = state, {}
    shown = {k: v.tolist() for k, v in pz.observe(pz.possible_agents[seat]).items()}
    gym._state, gym.seat = state, seat
    obs, info = gym._observe()
    view = state.view(seat, past=False)
    out = [shown, {k: v.tolist() for k, v in obs.items()}, info["action_mask"].tolist(),
           openspiel.seat_string(view, "", False), openspiel.seat_string(view, "", True)]
    par = _rendering(relative, players, "ansi")[1]
    par._state, par.agents = state, par.possible_agents[:]
    agent = par.possible_agents[seat]
    out.append(({k: v.tolist() for k, v in par._observe()[agent].items()}, par._infos()[agent]))
    to_play = state.current_player if not state.is_terminal() else 0
    rendering = {mode: _rendering(relative, players, mode) for mode in ("ansi", "human")}
    for mode, (aec, par, gym) in rendering.items():
        gym._state, gym.seat = state, seat
        out.append(_rendered(gym))
    for k in (0, 1):  # the AEC env, then the parallel one
        for mode, envs in rendering.items():
            envs[k]._state = state
            out.append(_rendered(envs[k]) if to_play == seat else None)
    return out


def _rendered(env) -> str:
    """What `env.render()` gives: its text ("ansi"), or what it prints ("human")."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        text = env.render()
    return text if env.render_mode == "ansi" else printed.getvalue()


def _players(relative):
    low, high = check_file(path(relative))[0].players
    return sorted({low, min(high, low + 1)})


CASES = [(f, n) for f in HIDDEN for n in _players(f)]


@pytest.mark.parametrize("relative,players", CASES, ids=[f"{os.path.basename(f)}-{n}p" for f, n in CASES])
def test_a_seat_sees_the_same_whatever_the_cards_hidden_from_it(relative, players):
    tried = differs = 0
    # (more seeds only where the first deals left fewer than three twins that fit: a game where
    # most rounds' pasts cannot be dealt again, as a one-seat solitaire with its tableau face down)
    more = (twin for seed in range(SEEDS, MORE_SEEDS) if tried < 3 for twin in twins(relative, players, [seed]))
    for state, seat, twin, fits in itertools.chain(twins(relative, players), more):
        if not fits:
            continue  # the round's past could not be dealt again (see SeatView): nothing to compare
        tried += 1
        differs += twin.zones != state.zones
        view, seen = state.view(seat), twin.view(seat)
        assert seen == view, f"P{seat}'s view differs"
        assert twin.transcript(seat) == state.transcript(seat)
        labels = [a.label for a in state.legal_actions()] if state.current_player == seat else []
        twin_labels = [a.label for a in twin.legal_actions()] if twin.current_player == seat else []
        assert twin_labels == labels
        assert (screen(twin.observation(seat), twin.game, seat, twin_labels)
                == screen(state.observation(seat), state.game, seat, labels))
        assert (screen(seen.observation(), twin.game, seat, labels)
                == screen(view.observation(), state.game, seat, labels))
        assert ChoiceCount(twin, seat).legal_action_ids() == ChoiceCount(state, seat).legal_action_ids()
        if state.current_player == seat:
            for name in BOT_NAMES:
                assert make_bot(name, seed=5).choose(seen) == make_bot(name, seed=5).choose(view), name
        assert adapters_show(relative, players, twin, seat) == adapters_show(relative, players, state, seat)
        assert web(twin, seat) == web(state, seat), "the web table's message"
    assert tried >= 3, f"only {tried} twins fitted the past"
    assert differs > 0, "the twins must really differ in hidden cards"


def test_the_leak_test_covers_files_with_choices_among_hidden_cards_and_hidden_scores():
    assert "tests/check/leaky/hidden_take.cards".replace("/", os.sep) in HIDDEN
    assert "examples/follow_suit.cards".replace("/", os.sep) in HIDDEN
    # partnerships: a partner's hand is hidden from the partner like any other seat's
    assert "examples/spades.cards".replace("/", os.sep) in HIDDEN
    assert "examples/contract_auction.cards".replace("/", os.sep) in HIDDEN


# --------------------------------------------------------------------- issue 13, finding 1
TAKE = "tests/check/leaky/hidden_take.cards"


def test_a_choice_among_cards_the_chooser_does_not_know_is_labelled_by_place_everywhere():
    g = game(TAKE, 3)
    state = g.new_initial_state(seed=3)
    neighbour = [g.card_name(c) for c in state.zones[g.program.zone_families["hand"][0] + 1]]
    expected = [f"take a card from P1's hand, {i} of 3" for i in (1, 2, 3)]
    assert [a.label for a in state.legal_actions()] == expected
    assert state.observation(0)["legal_actions"] == expected
    assert [a.label for a in state.view(0).legal_actions()] == expected
    # the same ids as before: alternative 0, the card's id
    assert [a.id for a in state.legal_actions()] == [g.card(n) for n in neighbour]
    text = screen(state.view(0).observation(), g, 0, expected)
    assert "1 of 3" in text
    state.apply(state.legal_actions()[1])
    # the log line: the hand for P2, who does not know the card (nor see where in P1's hand it lay:
    # issue 26, docs/knowledge.md "One of these"); the card for P0, who holds it now, and for P1, who held it
    assert state.transcript(2)[-1] == "P0 chooses take a card from P1's hand"
    taken = g.deck.label_of(g.card(neighbour[1]))
    for seat in (0, 1, None):
        assert state.transcript(seat)[-1] == f"P0 chooses take {taken}"
    everything = " ".join(state.transcript(0) + [screen(state.observation(0), g, 0, [])])
    # the card taken is now P0's own: the two left behind never appear on P0's screen or transcript
    left = [n for n in neighbour if n != neighbour[1]]
    assert not any(g.deck.label_of(g.card(n)) in everything for n in left)
    # P0 now holds the card and reads its own choices with their cards again
    assert all("a card from" not in a.label for a in state.legal_actions())


def test_a_card_the_chooser_knows_keeps_its_label():
    state = game("games/counter_bluff.cards", 2).new_initial_state(seed=1)
    assert all(a.label.startswith("lay ") and "a card from" not in a.label for a in state.legal_actions()
               if a.label != "pass")


# --------------------------------------------------------------------- issue 13, finding 2
def _random_states(relative, players, count, seed):
    g = game(relative, players)
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        state = g.new_initial_state(seed=rng.randrange(1 << 30))
        for _ in range(rng.randrange(0, 6)):
            legal = state.legal_action_ids()
            state.apply(legal[rng.randrange(len(legal))])
        if not state.is_terminal() and len(state.legal_action_ids()) > 1:
            out.append(state)
    return out


def test_ismcts_decides_the_same_on_twins_that_differ_only_in_hidden_cards_when_the_score_is_hidden():
    """Issue 13 measured ismcts:30 choosing differently on 21 of 30 such twins (its baseline was the
    real state's scores); from views, all 30 agree, and the twins do differ in their scores."""
    score_differs = 0
    for state in _random_states(TAKE, 3, 30, seed=13):
        seat = state.current_player
        twin, fits = state.view(seat).sample(random.Random(7), history=True)
        assert fits
        score_differs += twin.scores() != state.scores()
        view, seen = state.view(seat), twin.view(seat)
        assert seen == view
        mine = make_bot("ismcts:30", seed=3).choose(view)
        assert make_bot("ismcts:30", seed=3).choose(seen) == mine
        # played in each state, the decision is the same place's card
        assert decide(make_bot("ismcts:30", seed=3), twin) == view.action_in(twin, mine)
        assert decide(make_bot("ismcts:30", seed=3), state) == view.action_in(state, mine)
    assert score_differs >= 10


def test_a_bot_is_given_a_view_and_refuses_the_state():
    state = game(TAKE, 3).new_initial_state(seed=1)
    for name in BOT_NAMES:
        with pytest.raises(TypeError, match="view"):
            make_bot(name).choose(state)
    view = state.view(state.current_player)
    assert not hasattr(view, "zones") and not hasattr(view, "state")
    hidden = [c for c in range(len(state.known)) if not state.known[c] & 1]
    twin, _ = view.sample(random.Random(1), history=True)
    assert twin.view(0) == view and any(twin.zones[z] != state.zones[z] for z in range(len(state.zones)))
    assert hidden


# --------------------------------------------------------------------- finer knowledge (issue 16.5)
HINTS = "examples/hints.cards"


def _fitting_twin(state, seat: int, rng: random.Random):
    """A copy of `state` whose cards unknown to `seat` are dealt again among their places so that each
    fits what `seat` was told of its place (found by rejection, not by the engine's own deal:
    `scenario.permute_hidden`); None if no other deal that fits turns up."""
    twin = permute_hidden(state, seat, rng, tries=2000)
    return None if twin.zones == state.zones else twin


def _told_states(players: int):
    """Mid-game states of hints.cards in which the seat to play has been told something of its hand."""
    g = game(HINTS, players)
    hand = g.program.zone_families["hand"][0]
    out = []
    for seed in range(40):
        rng = random.Random(seed)
        state = g.new_initial_state(seed=seed)
        while not state.is_terminal():
            p = state.current_player
            if any(g.program.facts.of(state, c, p) for c in state.zones[hand + p]) and rng.random() < 0.3:
                out.append(state.clone())
                break
            legal = state.legal_action_ids()
            tells = [a for a in legal if a >> 16 >= 2]
            state.apply((tells or legal)[rng.randrange(len(tells or legal))] if rng.random() < 0.6
                        else legal[rng.randrange(len(legal))])
    return out


@pytest.mark.parametrize("players", [2, 3])
def test_twins_that_differ_only_in_cards_that_fit_what_a_seat_was_told_look_alike(players):
    tried = 0
    for k, state in enumerate(_told_states(players)):
        seat = state.current_player
        twin = _fitting_twin(state, seat, random.Random(k))
        if twin is None:
            continue
        tried += 1
        assert twin.zones != state.zones
        view, seen = state.view(seat), twin.view(seat)
        assert seen == view
        assert twin.transcript(seat) == state.transcript(seat)
        labels = [a.label for a in state.legal_actions()]
        assert [a.label for a in twin.legal_actions()] == labels
        assert (screen(seen.observation(), twin.game, seat, labels)
                == screen(view.observation(), state.game, seat, labels))
        assert "you were told" in screen(view.observation(), state.game, seat, labels)
        for name in BOT_NAMES:
            assert make_bot(name, seed=5).choose(seen) == make_bot(name, seed=5).choose(view), name
        assert adapters_show(HINTS, players, twin, seat) == adapters_show(HINTS, players, state, seat)
    assert tried >= 5


@pytest.mark.parametrize("players", [2, 4])
def test_a_seat_is_never_shown_its_own_hand_facing_away(players):
    g = game(HINTS, players)
    hand = g.program.zone_families["hand"][0]
    for seed in range(6):
        rng = random.Random(seed)
        state = g.new_initial_state(seed=seed)
        while not state.is_terminal():
            for seat in range(players):
                own = state.zones[hand + seat]
                assert not any(state.knows(seat, c) for c in own)
                assert state.observation(seat)["zones"]["hand"][seat] == [None] * len(own)
                t = state.view(seat, past=False).table()
                assert not set(t.cards.tolist()) & set(own)
                assert all(x is not None for q in range(players) if q != seat
                           for x in state.observation(seat)["zones"]["hand"][q])
            p = state.current_player
            for a in state.view(p).legal_actions():  # his own cards only by their place
                assert "play" not in a.label and "discard" not in a.label or "a card from" in a.label
            legal = state.legal_action_ids()
            state.apply(legal[rng.randrange(len(legal))])


# ------------------------------------------------------------- OpenSpiel's tensors (issue 17)
# OpenSpiel's states carry their history (every chance outcome and decision): the twins are the
# same course with two cards the seat does not know exchanged in every shuffle's outcome, every card
# dealt from a pile shuffled lazily and every choice of a card. Where the seat reads the same information-state string in both, it must be
# given the same information-state and observation tensors.
TENSOR_FILES = [f for f in HIDDEN if f.replace(os.sep, "/") in
                {"examples/kuhn_poker.cards", "examples/follow_suit.cards", "examples/high_card_chips.cards",
                 "games/red_dog.cards", "tests/check/leaky/hidden_take.cards", "games/counter_bluff.cards"}]


def _exchanged(g, moves, a, b):
    """The OpenSpiel state of `moves` played with cards `a` and `b` exchanged wherever a move names
    a card (a shuffle's outcome, a card chosen); None where a move is then not legal."""
    encoder = g.encoder
    swap = {a: b, b: a}
    state = g.new_initial_state()
    for m in moves:
        if state.is_chance_node():
            if state._core.event[0] in ("shuffle", "card"):  # (a card of a lazy pile dealt: also a card)
                m = swap.get(m, m)
            if m not in dict(state.chance_outcomes()):
                return None
        else:
            _, _, start, _, kind = encoder.alternatives[encoder._run_of[m]]
            if kind == "card":
                m = start + swap.get(m - start, m - start)
            if m not in state.legal_actions():
                return None
        state.apply_action(m)
    return state


def random_course(g, rng, stops: int):
    """An OpenSpiel state reached from the start by chance as its odds say and random decisions,
    stopped before the `stops`-th decision (or at the end)."""
    state = g.new_initial_state()
    while not state.is_terminal() and stops:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(outcomes, probs)[0])
            continue
        stops -= 1
        if stops:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


def _tensor_twins(relative, games=16):
    """(twins compared, twins whose cards differ, twins given other tensors) over `games` random
    OpenSpiel courses of a file."""
    players = check_file(path(relative))[0].players[0]
    g = openspiel.load_game(path(relative), players=players)
    rng = random.Random(17)
    compared = differs = mismatched = 0
    for _ in range(games):
        state = random_course(g, rng, rng.randrange(1, 10))
        if state.is_terminal():
            continue
        for seat in range(players):
            known = set(state._core.table_view(seat).table().cards.tolist())
            unknown = [c for c in range(g.cards.deck.size) if c not in known]
            # the cards chosen so far that the seat does not know first: where a leak would show
            chosen = [d.card for d in state._core.decisions if d.card in unknown]
            for _ in range(6 if len(unknown) > 1 else 0):
                a, b = rng.sample(unknown, 2)
                if chosen and rng.random() < 0.5:
                    a = rng.choice(chosen)
                    b = rng.choice([c for c in unknown if c != a])
                twin = _exchanged(g, state.history(), a, b)
                if twin is None or twin.information_state_string(seat) != state.information_state_string(seat):
                    continue
                compared += 1
                differs += twin._core.st.zones != state._core.st.zones
                mismatched += (twin.information_state_tensor(seat) != state.information_state_tensor(seat)
                               or twin.observation_tensor(seat) != state.observation_tensor(seat)
                               or twin.observation_string(seat) != state.observation_string(seat))
    return compared, differs, mismatched


@pytest.mark.parametrize("relative", TENSOR_FILES, ids=[os.path.basename(f) for f in TENSOR_FILES])
def test_openspiel_tensors_are_the_same_for_states_a_seat_cannot_tell_apart(relative):
    compared, differs, mismatched = _tensor_twins(relative)
    assert mismatched == 0
    assert compared >= 5, f"only {compared} twins"
    assert differs > 0, "the twins must really differ in cards hidden from the seat"


def test_the_tensor_twins_catch_a_history_that_shows_every_card_chosen(leaky_history):
    """The check above is not blind: a history block that shows another seat's face-down card is
    caught on Counter-Bluff, whose players lay their cards face down."""
    assert _tensor_twins("games/counter_bluff.cards")[2] > 0
