"""Bots decide from what their seat knows: determinization, the no-peeking test, budgets by name."""

import random

import pytest

from cardlang.play.bots import BOTS, BotNameError, GreedyBot, ISMCTSBot, decide, make_bot, parse_bot
from cardlang.runtime.actions import Pending, alt_of, value_of, with_value
from scenario import game

GAMES = [("games/coucou.cards", 5), ("games/counter_bluff.cards", 2), ("games/ascenseur.cards", 4),
         ("examples/coin_flip.cards", 2), ("examples/rigged.cards", 3)]


def states_along_a_game(relative, players, seed, limit=40):
    """The decision points of one random game (at most `limit`), each a state of its own."""
    rng = random.Random(seed)
    state = game(relative, players).new_initial_state(seed=seed, log=False)
    out = []
    while not state.is_terminal() and len(out) < limit:
        out.append(state.clone())
        legal = state.legal_action_ids()
        state.apply(legal[rng.randrange(len(legal))])
    return out


def hidden_twin(state, seat, rng):
    """A state that differs from `state` only in cards `seat` does not know, built independently of
    `State.determinize`: the unknown cards trade places, and what belongs to a place (who knows the
    card there, a card variable naming it, a pending action on it) follows the card."""
    twin = state.clone()
    unknown = [c for c in range(len(state.known)) if not state.known[c] >> seat & 1]
    moved = unknown[:]
    rng.shuffle(moved)
    new_of = dict(zip(unknown, moved))
    for z, pile in enumerate(twin.zones):
        twin.zones[z] = [new_of.get(c, c) for c in pile]
        for c in twin.zones[z]:
            twin.loc[c] = z
    for c in unknown:
        twin.known[new_of[c]] = state.known[c]
    if state.among is not None:  # what seats track of a place stays with it (runtime/among.py)
        twin.among = {new_of.get(c, c): v for c, v in state.among.items()}
    program = state.game.program
    for slot in program.card_slots:
        if twin.v[slot] is not None:
            twin.v[slot] = new_of.get(twin.v[slot], twin.v[slot])
    for slot in program.cards_slots:
        if twin.v[slot]:
            twin.v[slot] = tuple(new_of.get(c, c) for c in twin.v[slot])
    index, player, legal = twin.pending
    alts = program.chooses[index].alts
    twin.pending = Pending(index, player, tuple(with_value(a, new_of.get(value_of(a), value_of(a)))
                                                if alts[alt_of(a)].kind == "card" else a for a in legal))
    return twin


def without_log(observation):
    return {k: v for k, v in observation.items() if k != "log"}


# ------------------------------------------------------------------------------ determinize
@pytest.mark.parametrize("relative,players", GAMES)
def test_determinize_keeps_everything_the_seat_sees(relative, players):
    for seed in range(3):
        for state in states_along_a_game(relative, players, seed):
            for seat in range(players):
                det = state.determinize(seat, random.Random(seed * 7 + seat))
                assert without_log(det.observation(seat)) == without_log(state.observation(seat))
                assert [len(z) for z in det.zones] == [len(z) for z in state.zones]
                assert sorted(c for z in det.zones for c in z) == list(range(state.game.deck.size))
                for z, pile in enumerate(det.zones):
                    for i, c in enumerate(pile):
                        assert det.loc[c] == z
                        assert det.known[c] == state.known[state.zones[z][i]], "knowledge stays with the place"
                        if state.known[state.zones[z][i]] >> seat & 1:
                            assert c == state.zones[z][i], "a card the seat knows does not move"
                if state.current_player == seat:
                    assert det.legal_action_ids() == state.legal_action_ids()


@pytest.mark.parametrize("relative,players", GAMES)
def test_determinize_depends_only_on_what_the_seat_knows(relative, players):
    differs = 0
    for seed in range(3):
        for state in states_along_a_game(relative, players, seed):
            for seat in range(players):
                twin = hidden_twin(state, seat, random.Random(seed + 100 * seat))
                differs += twin.zones != state.zones
                a, b = state.determinize(seat, random.Random(5)), twin.determinize(seat, random.Random(5))
                assert (a.zones, a.known, a.loc, a.v, a.pending, a.rng) == (b.zones, b.known, b.loc, b.v, b.pending, b.rng)
    assert differs > 0, "the twins must really differ in hidden cards"


def test_determinize_deals_hidden_cards_anew_and_keeps_card_variables_with_their_places():
    moved = 0
    for state in states_along_a_game("games/coucou.cards", 5, seed=2, limit=30):
        program = state.game.program
        for seat in range(5):
            det = state.determinize(seat, random.Random(seat))
            moved += det.zones != state.zones
            for slot in program.card_slots:
                c = state.v[slot]
                if c is None:
                    continue
                z = state.loc[c]
                assert det.v[slot] == det.zones[z][state.zones[z].index(c)]
    assert moved > 0


def test_a_determinized_copy_foresees_no_future_shuffle_and_plays_to_the_end():
    state = game("games/ascenseur.cards", 4).new_initial_state(seed=3, log=False)
    nexts = set()
    for k in range(5):
        det = state.determinize(state.current_player, random.Random(k))
        assert det.rng != state.rng and det.stacks is None and det.draws is None
        rng = random.Random(k)
        while not det.is_terminal():
            legal = det.legal_action_ids()
            det.apply(legal[rng.randrange(len(legal))])
        nexts.add(tuple(det.returns()))
    assert nexts


def test_the_round_counter_counts_rounds():
    state = game("games/coucou.cards", 5).new_initial_state(seed=1, log=False)
    assert state.round == 1  # the first round has started: the dealer keeps a card
    rng = random.Random(1)
    seen = [state.round]
    while not state.is_terminal():
        legal = state.legal_action_ids()
        state.apply(legal[rng.randrange(len(legal))])
        seen.append(state.round)
    assert seen == sorted(seen) and seen[-1] > 5
    assert all(b - a <= 1 for a, b in zip(seen, seen[1:]))


# ------------------------------------------------------------------------------- no peeking
NO_PEEK_CASES = [(relative, players, bot) for relative, players in GAMES[:3]
                 for bot in ("random", "greedy:12", "ismcts:25")]


@pytest.mark.parametrize("relative,players,bot", NO_PEEK_CASES)
def test_a_bot_decides_the_same_whatever_the_cards_hidden_from_it(relative, players, bot):
    tried = 0
    for seed in range(2):
        for state in states_along_a_game(relative, players, seed, limit=25)[::3]:
            seat = state.current_player
            twin = hidden_twin(state, seat, random.Random(seed))
            if twin.zones == state.zones:
                continue
            assert twin.legal_action_ids() == state.legal_action_ids()
            assert twin.view(seat) == state.view(seat)  # what the bot is given
            assert decide(make_bot(bot, seed=9), state) == decide(make_bot(bot, seed=9), twin)
            tried += 1
    assert tried >= 3


class PeekingBot:
    """A cheat: it plays the legal action whose number matches the sum of every card's place."""

    def __init__(self, seed=0):
        pass

    def choose(self, state):
        legal = state.legal_action_ids()
        return legal[sum(i * c for z in state.zones for i, c in enumerate(z)) % len(legal)]


def test_the_no_peeking_check_catches_a_bot_that_reads_hidden_cards():
    caught = 0
    for state in states_along_a_game("games/counter_bluff.cards", 2, seed=0, limit=25):
        seat = state.current_player
        twin = hidden_twin(state, seat, random.Random(1))
        if len(state.legal_action_ids()) > 1:
            caught += PeekingBot().choose(state) != PeekingBot().choose(twin)
    assert caught > 0


def test_ismcts_cannot_guess_a_hidden_coin():
    """A bot that saw the hidden card would win every coin flip; an honest one wins about half."""
    from cardlang.play.simulate import simulate

    stats = simulate(game("examples/coin_flip.cards", 2), 200, seed=1, bots=["ismcts:20", "random"])
    low, high = stats["seats"][0]["win_rate_ci95"]
    assert low < 0.5 < high


# ------------------------------------------------------------------------------ by name
def test_bots_by_name_with_budgets():
    assert set(BOTS) == {"random", "greedy", "ismcts"}
    assert parse_bot("ismcts:200") == ("ismcts", "200")
    assert parse_bot("random") == ("random", None)
    bot = make_bot("ismcts:200", seed=1)
    assert isinstance(bot, ISMCTSBot) and bot.budget.iterations == 200 and bot.budget.seconds is None
    timed = make_bot("greedy:0.25s")
    assert isinstance(timed, GreedyBot) and timed.budget.seconds == 0.25
    assert make_bot("ismcts").budget.iterations == ISMCTSBot.DEFAULT_BUDGET
    with pytest.raises(KeyError, match="unknown bot `clever`"):
        make_bot("clever")
    for bad in ("ismcts:0", "ismcts:lots", "greedy:-1s", "greedy:fast s"):
        with pytest.raises(BotNameError, match="budget"):
            make_bot(bad)
    assert issubclass(BotNameError, KeyError) and issubclass(BotNameError, ValueError)


def test_a_time_budget_still_returns_a_legal_action():
    state = game("games/counter_bluff.cards", 2).new_initial_state(seed=4, log=False)
    for name in ("greedy:0.05s", "ismcts:0.05s"):
        assert decide(make_bot(name, seed=1), state) in state.legal_action_ids()


@pytest.mark.parametrize("bot", ["random", "greedy:8", "ismcts:16"])
def test_bots_play_every_example_game_to_the_end(bot):
    for relative, players in GAMES[3:]:
        state = game(relative, players).new_initial_state(seed=2, log=False)
        bots = [make_bot(bot, seed=s) for s in range(players)]
        while not state.is_terminal():
            state.apply(decide(bots[state.current_player], state))
        assert len(state.returns()) == players
