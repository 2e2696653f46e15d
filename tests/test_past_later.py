"""A seeded state without a log keeps each round's first decision as the way to make it again
(`runtime.past.Later`), made when a view first reads it: it must be the state a copy taken then is,
and every view must be the one a state that copies it gives."""

import random
from pathlib import Path

import pytest

import cardlang
from cardlang.runtime.past import Later, kept

ROOT = Path(__file__).resolve().parent.parent
CASES = [("games/ascenseur.cards", 4), ("examples/follow_suit.cards", 3)]
FIELDS = ("pc", "stack", "v", "zones", "loc", "known", "facts", "among", "active", "rng", "_pending", "terminal",
          "winner_seats", "stacks", "draws", "seed", "round", "history", "checkpoint", "quiet", "log")


@pytest.mark.parametrize("path,players", CASES)
def test_a_round_first_decision_made_again_is_the_copy_taken_then(path, players, engine):
    g = cardlang.load(str(ROOT / path), players=players, engine=engine)
    for seed in range(3):
        rng = random.Random(seed)
        st = g.new_initial_state(seed=seed, log=False)
        copies = {}  # round -> a copy taken at its first decision, as `record` took it before
        lazy = 0
        while not st.terminal:
            if st.round not in copies:
                snap = st.clone(history=False)
                snap.checkpoint = False
                copies[st.round] = snap
            st.apply(rng.choice(st.legal_action_ids()))
            cp = st.checkpoint
            if st.terminal:
                break
            lazy += type(cp[1]) is Later
            if rng.random() < 0.1:  # (now and then a view reads it; else the next one starts further back)
                made, want = kept(cp), copies[cp[0]]
                for name in FIELDS:
                    assert getattr(made, name) == getattr(want, name), (seed, len(st.history), name)
        assert lazy > 0, "a seeded state without a log makes its rounds' first decisions again"


@pytest.mark.parametrize("path,players", CASES)
def test_views_of_a_state_that_makes_its_past_again_are_those_of_one_that_copies_it(path, players, engine):
    g = cardlang.load(str(ROOT / path), players=players, engine=engine)
    for seed in range(2):
        rng = random.Random(seed)
        lazy = g.new_initial_state(seed=seed, log=False)
        eager = g.new_initial_state(seed=seed, log=False)
        eager.seed = None  # (a state without a seed copies each round's first decision: `past._later`)
        n = 0
        while not lazy.terminal:
            if n % 5 == 3:
                seat = lazy.current_player
                assert lazy.view(seat) == eager.view(seat)
                assert lazy.view((seat + 1) % players) == eager.view((seat + 1) % players)
            a = rng.choice(lazy.legal_action_ids())
            lazy.apply(a)
            eager.apply(a)
            n += 1
