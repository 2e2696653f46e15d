"""The state's chance (runtime/rng.py): a shuffle and a draw give exactly what `random.Random(seed)`
gives, so that seeded games never change however the shuffle is written."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as hs

from cardlang.runtime import rng


def _python_shuffle(pile: list, seed: int) -> int:
    r = random.Random(seed)
    r.shuffle(pile)
    return r.getrandbits(64)


@settings(max_examples=300, deadline=None)
@given(n=hs.integers(0, 140), seed=hs.integers(0, (1 << 64) - 1))
def test_a_shuffle_is_python_s_shuffle_from_the_same_seed(n, seed):
    mine, python = list(range(n)), list(range(n))
    assert rng.shuffle(mine, seed) == _python_shuffle(python, seed)
    assert mine == python


def test_a_long_pile_is_shuffled_as_python_does_and_its_plan_is_not_kept():
    for n in (1025, 1500):
        mine, python = list(range(n)), list(range(n))
        assert rng.shuffle(mine, 7) == _python_shuffle(python, 7)
        assert mine == python
        assert n not in rng._PLANS


@settings(max_examples=200, deadline=None)
@given(n=hs.integers(1, 5000), seed=hs.integers(0, (1 << 64) - 1))
def test_a_draw_is_python_s_randrange_from_the_same_seed(n, seed):
    r = random.Random(seed)
    assert rng.randbelow(n, seed) == (r.randrange(n), r.getrandbits(64))
