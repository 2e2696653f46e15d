"""The native engine's generator draws exactly what `cardlang.runtime.rng` draws (issue 29: a
seeded game gives the same outcome on every engine), for any 64-bit seed and any pile or bound."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardlang.runtime import rng

np = pytest.importorskip("numpy")
pytest.importorskip("numba", reason="the native engine's extra (cardlang[native]) is not installed")
from cardlang.native import rng as native  # noqa: E402

SEEDS = st.integers(min_value=0, max_value=2**64 - 1)


def as_int64(seed: int) -> int:
    """A state's 64-bit chance as the native engine holds it (an int64 with the same bits)."""
    return seed - 2**64 if seed >= 2**63 else seed


def as_uint64(value: int) -> int:
    return int(value) & (2**64 - 1)


@pytest.mark.parametrize("seed", [0, 1, 2**32 - 1, 2**32, 2**63 - 1, 2**63, 2**64 - 1])
def test_the_seed_expands_as_cpython_expands_it(seed):
    """Seeds of one and of two 32-bit words, and the words' edges, give CPython's words."""
    mine, theirs = native.seeded(as_int64(seed)), random.Random(seed)
    assert [as_uint64(native.getrandbits(mine, 32)) for _ in range(700)] == [theirs.getrandbits(32) for _ in range(700)]


@settings(max_examples=60, deadline=None)
@given(SEEDS, st.lists(st.integers(min_value=0, max_value=64), max_size=40))
def test_getrandbits_of_every_width(seed, widths):
    mine, theirs = native.seeded(as_int64(seed)), random.Random(seed)
    assert [as_uint64(native.getrandbits(mine, k)) for k in widths] == [theirs.getrandbits(k) for k in widths]


@settings(max_examples=80, deadline=None)
@given(SEEDS, st.integers(min_value=0, max_value=200))
def test_shuffle_and_next_seed(seed, n):
    pile = list(range(n))
    expected_next = rng.shuffle(pile, seed)
    mine = np.arange(n, dtype=np.int64)
    assert as_uint64(native.shuffle(mine, as_int64(seed))) == expected_next
    assert mine.tolist() == pile


@settings(max_examples=80, deadline=None)
@given(SEEDS, st.integers(min_value=1, max_value=2**40))
def test_randbelow_and_next_seed(seed, n):
    value, after = native.randbelow(n, as_int64(seed))
    assert (int(value), as_uint64(after)) == rng.randbelow(n, seed)


# ------------------------------------------- the first twist done word by word (switch `lazy_twist`)
from cardlang.native import steps  # noqa: E402


def lazy_generator(seed: int):
    """A native generator seeded from `seed`, its first twist left to its draws (`rng.lazy_word`)."""
    mt = np.zeros(native.N + 1, dtype=np.int64)
    steps.reseed(mt, as_int64(seed))
    mt[native.N] = native.LAZY
    return mt


@settings(max_examples=40, deadline=None)
@given(SEEDS, st.integers(min_value=0, max_value=1400))
def test_lazily_twisted_words_are_cpythons(seed, count):
    """Words drawn one by one through the first twist, past it (word N - 1 reads twisted words 0 and
    M - 1) and into the next full twist: CPython's words, for seeds of one and two 32-bit words."""
    mt, theirs = lazy_generator(seed), random.Random(seed)
    assert [as_uint64(native.lazy_word(mt)) for _ in range(count)] == [theirs.getrandbits(32) for _ in range(count)]


@settings(max_examples=60, deadline=None)
@given(SEEDS, st.lists(st.integers(min_value=0, max_value=64), max_size=40))
def test_lazy_getrandbits_of_every_width(seed, widths):
    mt, theirs = lazy_generator(seed), random.Random(seed)
    assert [as_uint64(native.lazy_bits(mt, k)) for k in widths] == [theirs.getrandbits(k) for k in widths]


@settings(max_examples=80, deadline=None)
@given(SEEDS, st.integers(min_value=0, max_value=700))
def test_lazy_chance_shuffle_and_next_seed(seed, n):
    """`steps.chance_shuffle_lazy` is `rng.shuffle`, piles short and long (past 624 draws: the
    next full twist)."""
    pile = list(range(n))
    expected_next = rng.shuffle(pile, seed)
    mine, mt = np.arange(n, dtype=np.int64), np.zeros(native.N + 1, dtype=np.int64)
    assert as_uint64(steps.chance_shuffle_lazy(mine, as_int64(seed), mt)) == expected_next
    assert mine.tolist() == pile


@settings(max_examples=80, deadline=None)
@given(SEEDS, st.integers(min_value=1, max_value=2**40))
def test_lazy_chance_below_and_first_chance(seed, n):
    mt = np.zeros(native.N + 1, dtype=np.int64)
    value, after = steps.chance_below_lazy(n, as_int64(seed), mt)
    assert (int(value), as_uint64(after)) == rng.randbelow(n, seed)
    assert as_uint64(steps.first_chance(mt, as_int64(seed))) == random.Random(seed).getrandbits(64)


@settings(max_examples=60, deadline=None)
@given(st.lists(SEEDS, min_size=1, max_size=6), st.data())
def test_seeding_rows_in_one_pass_is_seeding_each(seeds, data):
    """`steps.reseed_rows` (switch `interleaved_seeding`) leaves each row as `reseed` of its seed:
    seeds of one and of two 32-bit words side by side, rows in any order."""
    rows = data.draw(st.permutations(range(len(seeds))))
    MT = np.zeros((len(seeds), native.N + 1), dtype=np.int64)
    steps.reseed_rows(MT, np.array(rows, dtype=np.int64), np.array([as_int64(s) for s in seeds], dtype=np.int64),
                      len(seeds))
    for r, seed in zip(rows, seeds):
        mine, theirs = MT[r], random.Random(seed)
        assert [as_uint64(native.getrandbits(mine, 32)) for _ in range(630)] == [theirs.getrandbits(32) for _ in range(630)]
