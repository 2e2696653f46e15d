"""Choices made at once (`each player p in seats chooses at once …`): scenario tests.

The engine presents one as successive turns, one for each seat in order (as OpenSpiel's turn-based
simultaneous wrapper does); nothing the game shows changes until the last seat has chosen, the log
line of a pick reads `P0 chooses in secret` to the others, no seat's view, screen, bot decision or
adapter output depends on another's pending pick, a pick moved face down from a public hand is
unknown to the others, and a pending round survives a clone and a save. The parallel API steps all
the seats of such a choice at once.
"""

from __future__ import annotations

import random

import pytest
from click.testing import CliRunner

import cardlang
from cardlang import openspiel, pettingzoo
from cardlang.cli import main
from cardlang.play.bots import make_bot
from cardlang.runtime.actions import value_of
from scenario import ENGINES, path

GOOF = path("examples/goofspiel.cards")
PASS = path("examples/open_pass.cards")
PRIZES = ["3 of clubs", "A of clubs", "5 of clubs"]  # the first prizes turned


def goofspiel(players=3, engine="compiled", **options):
    return cardlang.load(GOOF, players, {"cards": 5, **options}, engine=engine)


def bid(state, name: str):
    """Plays the current chooser's bid of the card `name` (`3s`)."""
    state.apply(f"bid {state.game.deck.label_of(state.game.card(name))}")



@pytest.mark.parametrize("engine", ENGINES)
def test_each_chooser_decides_in_turn_and_the_bids_are_played_out_together(engine):
    g = goofspiel(engine=engine)
    st = g.new_initial_state(seed=1, stack=PRIZES)
    assert st.zone("prize") == ["3c"]
    before = [z[:] for z in st.zones]
    assert st.current_player == 0
    bid(st, "5s")
    assert st.current_player == 1 and st.zones == before  # nothing shows before all have chosen
    bid(st, "5h")
    assert st.current_player == 2 and st.zones == before
    bid(st, "4d")
    # 5 ties with 5: the three is discarded, nobody scores; the next prize is turned, the bids are out
    assert st.var("points") == [0, 0, 0]
    assert st.zone("prize") == ["Ac"] and "3c" in st.zone("out")
    assert st.current_player == 0
    bid(st, "As")
    bid(st, "2h")
    bid(st, "3d")
    assert st.var("points") == [0, 0, 1] and st.zone("won", 2) == ["Ac"]


@pytest.mark.parametrize("engine", ENGINES)
def test_the_log_line_of_a_pick_names_it_only_to_its_chooser(engine):
    st = goofspiel(engine=engine).new_initial_state(seed=1, stack=PRIZES)
    start = len(st.transcript(1))
    bid(st, "3s")
    label = st.game.deck.label_of(st.game.card("3s"))
    assert st.transcript(0)[-1] == f"P0 chooses bid {label}"
    assert st.transcript(None)[-1] == f"P0 chooses bid {label}"
    for seat in (1, 2, [1, 2], [0, 1]):
        assert st.transcript(seat)[-1] == "P0 chooses in secret"
    assert all(label not in line for line in st.transcript(1)[start:])  # (the hands were shown face up before)
    bid(st, "Ah")
    bid(st, "Ad")
    # once played out, the bids show to everyone (face up), the lines of the picks stay as they were
    assert any(label in line for line in st.transcript(1)[start:])
    assert "P0 chooses in secret" in st.transcript(1)


def twins(g, first: str, second: str):
    """Two states of one deal that differ only in P0's pending bid."""
    a, b = (g.new_initial_state(seed=4, stack=PRIZES) for _ in range(2))
    bid(a, first)
    bid(b, second)
    return a, b


def plain(x):
    """`x` with every numpy array (the research tables hold some) as a list, to compare with `==`."""
    if hasattr(x, "tolist"):
        return x.tolist()
    if isinstance(x, dict):
        return {k: plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [plain(v) for v in x]
    return x


def shown_to(state, seat) -> list:
    """Everything seat `seat` is given: its view and what is built from it."""
    view = state.view(seat)
    env = pettingzoo.CardsEnv(GOOF, state.game.players, cards=5)
    env._state, env._views = state, {}
    obs = env.observe(env.possible_agents[seat])
    return plain([view.fingerprint(), state.transcript(seat), state.observation(seat), view.observation(), view.table(),
            [(a.id, a.label) for a in view.legal_actions()],
            [(a.id, a.label) for a in state.legal_actions()] if state.current_player == seat else None,
            {k: v.tolist() for k, v in obs.items()},
            openspiel.seat_string(state.view(seat, past=False), "", False),
            openspiel.seat_string(state.view(seat, past=False), "", True)])


@pytest.mark.parametrize("engine", ENGINES)
def test_no_seat_learns_another_seats_pending_pick(engine):
    g = goofspiel(engine=engine)
    a, b = twins(g, "2s", "5s")
    assert a.var("points") == b.var("points") and a.zones == b.zones
    for seat in (1, 2):
        assert shown_to(a, seat) == shown_to(b, seat), f"P{seat} tells the bids apart"
    assert shown_to(a, 0) != shown_to(b, 0)  # P0 knows its own bid
    # and the bots of the seat to decide choose alike
    for name in ("random", "greedy:6", "ismcts:12"):
        assert make_bot(name, seed=3).choose(a.view(1)) == make_bot(name, seed=3).choose(b.view(1)), name
    # the same after P1 has chosen too, for P2
    bid(a, "3h")
    bid(b, "3h")
    assert shown_to(a, 2) == shown_to(b, 2)


def test_a_determinized_world_draws_the_others_pending_picks_among_their_bids():
    g = goofspiel()
    st = g.new_initial_state(seed=4, stack=PRIZES)
    bid(st, "2s")
    mine = g.program.at_once[next(iter(g.program.at_once))]
    seen = set()
    view = st.view(1)
    for k in range(60):
        world = view.determinize(random.Random(k))
        assert world.current_player == 1
        picks = world.v[mine.picks_slot]
        assert len(picks) == 1 and value_of(picks[0]) in [g.card(c) for c in ("As", "2s", "3s", "4s", "5s")]
        seen.add(picks[0])
    assert len(seen) > 2  # drawn, not the real bid
    drawn = {st.determinize(1, random.Random(k)).v[mine.picks_slot] for k in range(60)}
    assert len(drawn) > 2 and all(len(p) == 1 for p in drawn)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_card_moved_face_down_from_a_hand_everyone_sees_is_unknown_to_the_others(engine):
    g = cardlang.load(PASS, 3, engine=engine)
    st = g.new_initial_state(seed=2)
    hand0 = [g.card(c) for c in st.zone("hand", 0)]
    assert all(st.knows(seat, c) for c in hand0 for seat in range(3))  # the hands lie face up
    passed = hand0[0]
    st.apply(st.legal_action_ids()[0])  # P0 passes its first card
    assert all(st.knows(seat, passed) for seat in range(3))  # pending: nothing has moved yet
    st.apply(st.legal_action_ids()[0])
    st.apply(st.legal_action_ids()[0])
    assert st.zone("passing", 0) == [g.card_name(passed)]
    assert st.knows(0, passed) and not st.knows(1, passed) and not st.knows(2, passed)
    assert st.observation(1)["zones"]["passing"][0] == [None] and st.observation(0)["zones"]["passing"][0] != [None]
    for _ in range(3):  # the second pass; then the passes are taken up, face up, by the left neighbour
        st.apply(st.legal_action_ids()[0])
    assert passed in st.zones[g.program.zone_families["hand"][0] + 1]
    assert all(st.knows(seat, passed) for seat in range(3))


@pytest.mark.parametrize("engine", ENGINES)
def test_a_pending_round_survives_clone_and_save(engine):
    g = goofspiel(engine=engine)
    st = g.new_initial_state(seed=6, stack=PRIZES)
    bid(st, "4s")
    bid(st, "2h")
    again = cardlang.State.from_json(g, st.to_json())
    copy = st.clone()
    for other in (again, copy):
        assert other.pending == st.pending and other.v == st.v and other.zones == st.zones
        assert other.transcript(2) == st.transcript(2) and other.transcript(0) == st.transcript(0)
    for s in (st, again, copy):
        bid(s, "5d")
    assert again.var("points") == st.var("points") == copy.var("points") == [0, 0, 3]


def test_the_openspiel_adapter_and_the_aec_env_present_the_choice_as_turns():
    game = openspiel.load_game(GOOF, players=2, cards=3)
    states = []
    for pick in (0, -1):  # P0 bids its lowest card, or its highest
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
        assert state.current_player() == 0
        state.apply_action(state.legal_actions()[pick])
        assert state.current_player() == 1
        states.append(state)
    a, b = states
    assert a.legal_actions() == b.legal_actions()
    assert a.information_state_string(1) == b.information_state_string(1)
    assert a.observation_string(1) == b.observation_string(1)
    assert a.observation_tensor(1) == b.observation_tensor(1)
    assert a.information_state_string(0) != b.information_state_string(0)
    env = pettingzoo.env(GOOF, players=3, cards=3)
    env.reset(seed=1)
    order = []
    for _ in range(3):
        order.append(env.agent_selection)
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(mask.nonzero()[0][0]))
    assert order == ["player_0", "player_1", "player_2"]


@pytest.mark.parametrize("relative", ["examples/goofspiel.cards", "examples/open_pass.cards", "examples/kuhn_poker.cards"])
def test_the_parallel_api_test_passes(relative):
    from pettingzoo.test import parallel_api_test
    players = 2 if "kuhn" in relative else 3
    parallel_api_test(pettingzoo.parallel_env(path(relative), players=players), num_cycles=400)


def test_a_parallel_step_plays_every_seat_of_a_choice_made_at_once():
    env = pettingzoo.parallel_env(GOOF, players=3, cards=4)
    obs, infos = env.reset(seed=3)
    assert all(info["acting"] for info in infos.values())
    assert all(o["action_mask"].sum() == 4 for o in obs.values())  # every seat its four bids
    actions = {a: int(o["action_mask"].nonzero()[0][-1]) for a, o in obs.items()}
    obs, rewards, terminations, truncations, infos = env.step(actions)
    assert len(env._state.zone("out")) == 4  # three bids and a tied prize: one turn played
    assert all(o["action_mask"].sum() == 3 for o in obs.values())
    while env.agents:
        obs, rewards, terminations, truncations, infos = env.step(
            {a: int(o["action_mask"].nonzero()[0][0]) for a, o in obs.items()})
    assert all(terminations.values()) and sum(rewards.values()) == 0
    shown = pettingzoo.parallel_env(GOOF, players=2, render_mode="ansi", cards=3)
    shown.reset(seed=2)
    assert "prize" in shown.render()


def test_the_parallel_api_steps_a_game_without_choices_made_at_once_one_agent_at_a_time():
    env = pettingzoo.parallel_env(path("examples/kuhn_poker.cards"), players=2)
    obs, infos = env.reset(seed=1)
    acting = [a for a, i in infos.items() if i["acting"]]
    assert len(acting) == 1
    idle = [a for a in env.agents if a not in acting][0]
    assert obs[idle]["action_mask"].sum() == 0


def test_hotseat_hands_the_terminal_over_between_the_seats_of_a_choice_made_at_once():
    answers = ["", "1", "", "1", "q", "n"]
    result = CliRunner().invoke(main, ["play", GOOF, "--players", "2", "--set", "cards=3", "--seed", "1",
                                       "--hotseat"], input="".join(a + "\n" for a in answers))
    assert result.exit_code == 0, result.output
    out = result.output
    blocks = out.split("Pass the terminal to ")
    assert len(blocks) >= 3
    # P1's screen, after P0 bid, says only that P0 chose, never which card
    p1 = blocks[2]
    assert "P0 chooses in secret" in p1
    assert "P0 chooses bid" not in p1


def test_the_editor_knows_the_chooser_name_of_a_choice_made_at_once():
    from cardlang.tools.analysis import analyse, references
    text = open(GOOF).read()
    lines = text.splitlines()
    line = next(k for k, t in enumerate(lines) if "chooses at once" in t) + 1
    column = lines[line - 1].index("player p") + len("player ") + 1
    found = [(s.line, s.column) for s in references(analyse(text, GOOF), line, column)]
    assert found == [(line, column), (line, lines[line - 1].index("hand(p)") + 6), (line + 1, lines[line].index("bid(p)") + 5)]
