"""Choosing a player (`a player q from … where … as "…"`) and sitting out for the rest of a round
(`p sits out`): labels name the player; `players`, `next of` and `players from` skip a seat that sits
out until the next round brings it back; `eliminate` stays for good, also for a seat sitting out."""

import json
import random

import pytest

import cardlang
from cardlang.play.bots import decide, make_bot
from scenario import ENGINES, path

LAST = "examples/last_one_standing.cards"

def load(relative, players, engine, **options):
    return cardlang.load(path(relative), players=players, options=options, engine=engine)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_player_is_chosen_by_name_and_the_loser_sits_out(engine):
    g = load(LAST, 4, engine)
    # one card each from the top, P0 first: P0 7♠, P1 7♣, P2 Q♠, P3 5♥
    state = g.new_initial_state(seed=0, stack=["7s", "7c", "Qs", "5h"])
    assert [a.label for a in state.legal_actions()] == ["challenge P1", "challenge P2", "challenge P3"]
    assert [a & 0xFFFF for a in state.legal_action_ids()] == [1, 2, 3]  # the seat is the action's value
    state.apply("challenge P1")  # a tie: the challenger sits out
    assert state.active == [False, True, True, True]
    assert state.current_player == 1  # `next of P0` skips nobody: P1
    assert [a.label for a in state.legal_actions()] == ["challenge P2", "challenge P3"]  # not P0
    state.apply("challenge P3")  # P1's 7♣ beats P3's 5♥
    assert state.active == [False, True, True, False]
    assert state.current_player == 2  # next of P1
    state.apply("challenge P1")  # P2's Q♠ beats P1
    assert state.var("points") == [0, 0, 1, 0]
    assert "P3 sits out the rest of the round" in state.transcript()
    # the next round brings everyone back, and P1 starts it
    assert state.active == [True, True, True, True]
    assert state.current_player == 1
    assert [a.label for a in state.legal_actions()] == ["challenge P0", "challenge P2", "challenge P3"]


SITTING = """game "Out for a round"
players 3..4
deck standard
var rounds = 0
per player var turns = 0
round:
    add 1 to rounds
    if rounds == 1:
        seats[2] sits out
        announce "playing: {players}; after P0: {next of seats[1]}; from P2: {players from seats[3]}"
    if rounds == 2:
        announce "back: {players}"
        seats[2] sits out
        eliminate seats[2]
    if rounds == 3:
        announce "still out: {players}"
        end game
    for each p in players:
        add 1 to turns(p)
"""


@pytest.mark.parametrize("engine", ENGINES)
def test_players_next_of_and_players_from_skip_a_seat_that_sits_out(tmp_path, engine):
    rules = tmp_path / "out.cards"
    rules.write_text(SITTING)
    state = cardlang.load(str(rules), players=4, engine=engine).new_initial_state(seed=0)
    lines = state.transcript()
    assert "playing: P0, P2, P3; after P0: P2; from P2: P2, P3, P0" in lines
    assert "back: P0, P1, P2, P3" in lines  # the next round brought P1 back
    assert "still out: P0, P2, P3" in lines  # eliminated while sitting out: for good
    assert state.var("turns") == [2, 0, 2, 2]  # (the third round ends the game first)
    assert state.active == [True, False, True, True]


def test_bots_views_and_saves_handle_a_choice_of_a_player():
    g = load(LAST, 5, "compiled")
    state = g.new_initial_state(seed=4)
    k = 0
    while not state.is_terminal() and k < 12:
        bot = make_bot("ismcts:20" if state.current_player == 0 else "greedy:4", seed=k)
        state.apply(decide(bot, state))
        k += 1
    view = state.view(state.current_player) if not state.is_terminal() else None
    if view is not None:
        assert [a.label for a in view.legal_actions()] == [a.label for a in state.legal_actions()]
    saved = type(state).from_json(g, json.loads(json.dumps(state.to_json())))
    assert saved.history == state.history and saved.active == state.active
    assert saved.transcript() == state.transcript()


@pytest.mark.parametrize("engine", ENGINES)
def test_random_games_end_with_one_winner_of_the_target(engine):
    g = load(LAST, 3, engine, target=2)
    for seed in range(20):
        rng = random.Random(seed)
        state = g.new_initial_state(seed=seed, log=False)
        while not state.is_terminal():
            legal = state.legal_action_ids()
            state.apply(legal[rng.randrange(len(legal))])
        points = state.var("points")
        assert max(points) == 2 and state.winners() == tuple(s for s, v in enumerate(points) if v == 2)


# ---------------------------------------------------------------------- direction and seats
TURNABOUT = "examples/turnabout.cards"


@pytest.mark.parametrize("engine", ENGINES)
def test_reverse_direction_turns_next_of_and_players_from_the_other_way(engine):
    state = load(TURNABOUT, 4, engine).new_initial_state(seed=3)
    for move in ["pass", "reverse", "pass", "reverse", "pass", "pass"]:
        state.apply(move)
    lines = [line for line in state.transcript() if " plays; " in line]
    assert lines == [
        "P0 plays; order P0, P1, P2, P3; then P1",
        "P1 plays; order P1, P2, P3, P0; then P2",
        "P0 plays; order P0, P3, P2, P1; then P3",  # P1 reversed play: back to P0, then P3
        "P3 plays; order P3, P2, P1, P0; then P2",
        "P0 plays; order P0, P1, P2, P3; then P1",  # P3 reversed it again
        "P1 plays; order P1, P2, P3, P0; then P2",
    ]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_list_option_gives_each_seat_its_stack(engine):
    assert load(TURNABOUT, 3, engine).new_initial_state(seed=0).var("chips") == [5, 6, 7]
    g = load(TURNABOUT, 4, engine, stacks="10,20,30,40")
    state = g.new_initial_state(seed=0)
    assert state.var("chips") == [10, 20, 30, 40]  # seat(P0) is 1: `stacks[seat(p)]`
    assert g.options["stacks"] == (10, 20, 30, 40)
    saved = state.to_json()
    assert saved["options"] == {"stacks": "10,20,30,40"}  # as `--set` takes it
    again = type(state).from_json(load(TURNABOUT, 4, engine, **saved["options"]), json.loads(json.dumps(saved)))
    assert again.var("chips") == [10, 20, 30, 40]


@pytest.mark.parametrize("raw,message", [
    ("1,x", "option `stacks` is a list of whole numbers, not `1,x`"),
    ("5,500", "the items of option `stacks` must be from 1 to 100, not 500"),
    ("", "option `stacks` is a list of 1 to 1,000 whole numbers (`5,6,7,8,9`), not "),
])
def test_a_bad_list_option_is_one_clear_line(raw, message):
    with pytest.raises(cardlang.CardlangError) as caught:
        load(TURNABOUT, 3, "reference", stacks=raw)
    assert caught.value.message == message


def test_too_few_stacks_for_the_seats_is_a_rule_error():
    with pytest.raises(cardlang.RuleError) as caught:
        load(TURNABOUT, 4, "reference", stacks="10,20").new_initial_state(seed=0)
    assert caught.value.message == "item 3 of a list of 2 (items count from 1)"


@pytest.mark.parametrize("relative", [LAST, TURNABOUT, "examples/fewest_hearts.cards"])
def test_the_fast_engine_runs_these_rules_itself(relative):
    program = load(relative, 3, "compiled").program
    assert type(program).__module__ == "cardlang.compiler.emit.program"
