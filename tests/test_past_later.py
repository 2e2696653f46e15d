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


def _walked(cp, most):
    """`past._kept` as a walk of the whole chain, each link counted (no count kept on a `Later`)."""
    n = 0
    while cp and cp[1] is not None and n < most:
        n += 1
        cp = cp[3]
    return n


@pytest.mark.parametrize("most", [3, 8])
def test_the_count_kept_on_a_later_is_the_chain_walked(monkeypatch, most):
    """`record` keeps on each `Later` it makes how many rounds' first decisions its checkpoint chains
    (so that a round walks no chain): it is the chain walked link by link, and the chain, once it
    holds `MAX_PAST_ROUNDS` copies, is cut back (`_compact`: the last round's and the game's first)
    and never grows past that (a round a decision, no chance, no log: every link but the game's
    first decision a `Later`)."""
    from cardlang.runtime import past
    monkeypatch.setattr(past, "MAX_PAST_ROUNDS", most)
    g = cardlang.load(str(ROOT / "tests/hostile_runtime/endless_rounds.cards"), players=2)
    st = g.new_initial_state(seed=1, log=False)
    counts, lazy = [], 0
    for i in range(4 * most):
        st.apply(st.legal_action_ids()[i % 2])
        cp = st.checkpoint
        lazy += type(cp[1]) is Later
        counts.append(past._kept(cp))
        assert counts[-1] == _walked(cp, most), i
        if type(cp[1]) is Later:
            assert cp[1].kept == _walked(cp, most), i
        assert _walked(cp, 10 ** 9) <= most, i  # (the whole chain, not only as far as `_kept` counts)
    assert lazy > most and max(counts) == most and counts[-1] == most  # (cut back once full, bounded since)


def test_a_checkpoint_set_in_a_round_is_recorded_from_at_the_next_decision():
    """`resume` asks `record` once a round (`State._past_round`); a checkpoint set on the state in the
    middle of a round (a world given a cut's mark, a state given its past again) is asked about at
    the next decision, as each decision asked before: the round's first decision kept again then."""
    g = cardlang.load(str(ROOT / "games/ascenseur.cards"), players=4)
    rng = random.Random(3)
    st = g.new_initial_state(seed=3, log=False)
    for _ in range(6):  # (into the first round's decisions: recorded once already)
        st.apply(rng.choice(st.legal_action_ids()))
    first = st.checkpoint
    assert first[0] == st.round and first[2] == 0
    for cp in (None, (-1, None, 0, None), False):
        st.checkpoint = cp
        at = len(st.history)
        st.apply(rng.choice(st.legal_action_ids()))
        if cp is False:
            assert st.checkpoint is False  # (no past kept: never recorded)
        else:
            assert st.checkpoint[0] == st.round and st.checkpoint[2] == at and st.checkpoint is not first
