"""Random playouts over every game and example: they end, conserve cards, and replay identically."""

import glob
import json
import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardlang.runtime.pots import chips_in_play
from scenario import ROOT, game, random_course

FILES = sorted(
    os.path.relpath(p, ROOT)
    for folder in ("games", "examples")
    for p in glob.glob(os.path.join(ROOT, folder, "*.cards"))
)
GAMES_PER_COUNT = 200


def player_counts(relative):
    low, high = _range(relative)
    return sorted({low, (low + high) // 2, high})


def _range(relative):
    from cardlang.load import check_file
    from scenario import path

    symbols, _ = check_file(path(relative))
    return symbols.players


def assert_cards_conserved(state):
    deck = state.game.deck.size
    seen = [0] * deck
    for z, cards in enumerate(state.zones):
        for c in cards:
            seen[c] += 1
            assert state.loc[c] == z
    assert seen == [1] * deck, "a card is in no zone or in two"


def chips(state) -> list:
    """The chips of each pot's game in play (stacks and pot: runtime/pots.py), which never change."""
    return [chips_in_play(state, spec) for spec in state.game.program.layout.pots.values()]


def play_out(state, rng, check_every_step=True, limit=200_000):
    actions = []
    at_start = chips(state)
    while not state.is_terminal():
        legal = state.legal_action_ids()
        a = legal[rng.randrange(len(legal))]
        state.apply(a)
        actions.append(a)
        if check_every_step:
            assert_cards_conserved(state)
            assert chips(state) == at_start, "chips were made or lost"
        assert len(actions) < limit, "the game did not end"
    return actions


CASES = [(f, n) for f in FILES for n in player_counts(f)]


@pytest.mark.parametrize("relative,players", CASES, ids=[f"{os.path.basename(f)}-{n}p" for f, n in CASES])
def test_random_playouts_end_and_conserve_cards(relative, players):
    g = game(relative, players)
    for seed in range(GAMES_PER_COUNT):
        rng = random.Random(seed)
        state = g.new_initial_state(seed=seed, log=False)
        assert_cards_conserved(state)
        at_start = chips(state)
        play_out(state, rng, check_every_step=seed < 40)
        assert_cards_conserved(state)
        assert chips(state) == at_start
        returns = state.returns()  # (a game that says it is zero-sum and is not stops with a rule error here)
        assert len(returns) == players
        if g.utility == "zero_sum":
            assert sum(returns) == 0
        elif g.utility == "identical":
            assert len(set(returns)) == 1


@pytest.mark.parametrize("relative", FILES, ids=[os.path.basename(f) for f in FILES])
def test_clone_and_json_play_on_identically(relative):
    low, high = _range(relative)
    g = game(relative, low)
    for seed in range(20):
        state = random_course(g, seed, 1, 40)
        twin = state.clone()
        saved = type(state).from_json(g, json.loads(json.dumps(state.to_json())))
        assert saved.history == state.history
        assert (saved.known, saved.facts) == (twin.known, twin.facts) == (state.known, state.facts)  # (runtime/facts.py)
        tail = play_out(state, random.Random(seed + 1000), check_every_step=False)
        for other in (twin, saved):
            for a in tail:
                other.apply(a)
            assert other.is_terminal()
            assert other.returns() == state.returns()
            assert other.transcript() == state.transcript()
            assert other.zones == state.zones
            assert (other.known, other.facts) == (state.known, state.facts)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_any_seed_and_any_legal_moves_end_the_game(data):
    relative = data.draw(st.sampled_from(FILES))
    low, high = _range(relative)
    players = data.draw(st.integers(low, high))
    seed = data.draw(st.integers(0, 2**32 - 1))
    # one draw for every move, whatever the game's length (a draw per move overruns hypothesis)
    moves = random.Random(data.draw(st.integers(0, 2**32 - 1), label="moves"))
    state = game(relative, players).new_initial_state(seed=seed, log=False)
    steps = 0
    while not state.is_terminal():
        legal = state.legal_action_ids()
        state.apply(legal[moves.randrange(len(legal))])
        steps += 1
        assert steps < 200_000
    assert_cards_conserved(state)
