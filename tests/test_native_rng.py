"""The native engine's generators draw exactly what the other engines draw (issue 29: a seeded game
gives the same outcome on every engine): the game's chance (SplitMix64) as `cardlang.runtime.rng`
draws it, and the bots' (CPython's Mersenne Twister) as `random.Random(seed)` does, for any 64-bit
seed and any pile or bound."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardlang.runtime import rng

np = pytest.importorskip("numpy")
pytest.importorskip("numba", reason="the native engine's extra (cardlang[native]) is not installed")
from cardlang.native import rng as native  # noqa: E402
from cardlang.native import steps  # noqa: E402

SEEDS = st.integers(min_value=0, max_value=2**64 - 1)


def as_int64(seed: int) -> int:
    """A state's 64-bit chance as the native engine holds it (an int64 with the same bits)."""
    return seed - 2**64 if seed >= 2**63 else seed


def as_uint64(value: int) -> int:
    return int(value) & (2**64 - 1)


# ---------------------------------------------------------------- the game's chance: SplitMix64
@settings(max_examples=200, deadline=None)
@given(SEEDS, st.integers(min_value=0, max_value=700))
def test_chance_shuffle_and_next_chance(seed, n):
    """`rng.chance_shuffle` is `runtime.rng.shuffle`, piles short and long (one chunk, many)."""
    pile = list(range(n))
    expected_next = rng.shuffle(pile, seed)
    mine = np.arange(n, dtype=np.int64)
    assert as_uint64(native.chance_shuffle(mine, as_int64(seed))) == expected_next
    assert mine.tolist() == pile
    paired = np.arange(n, dtype=np.int64)  # (switch `paired_digits`)
    assert as_uint64(native.chance_shuffle_pairs(paired, as_int64(seed))) == expected_next
    assert paired.tolist() == pile


@settings(max_examples=200, deadline=None)
@given(SEEDS, st.one_of(st.integers(min_value=1, max_value=2**40), st.integers(min_value=1, max_value=2**63 - 1),
                        st.sampled_from([1, 2, 2**32, 2**62, 2**63 - 1, 3 << 61])))
def test_chance_below_and_next_chance(seed, n):
    """`rng.chance_below` is `runtime.rng.randbelow`, bounds small and large (a bound that divides
    2**64 rejects nothing; a large one rejects often)."""
    value, after = native.chance_below(n, as_int64(seed))
    assert (int(value), as_uint64(after)) == rng.randbelow(n, seed)


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=0, max_value=2**63 - 1))
def test_first_chance(seed):
    assert as_uint64(native.first_chance(seed)) == rng.first_chance(seed)


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=1, max_value=(1 << 60) - 1), st.integers(min_value=1, max_value=(1 << 28) - 1))
def test_a_chunk_fits_exactly_when_its_product_is_below_the_cap(product, bound):
    """`rng._fits` (no 128-bit product in numba) decides as Python's exact product does."""
    assert native._fits(np.uint64(product), np.uint64(bound)) == (product * bound < rng.CAP)


def test_the_chunks_fit_at_their_edges():
    """Products just below and at the cap, and bounds whose product crosses it by one."""
    cap = 1 << 60
    for product, bound in [(cap - 1, 1), (cap // 2, 2), (cap // 2 - 1, 2), ((cap - 1) // 3, 3), (1 << 32, 1 << 27),
                           ((1 << 32) + 1, 1 << 27), ((1 << 33) - 1, (1 << 27) + 1), (cap - 1, (1 << 28) - 1)]:
        assert native._fits(np.uint64(product), np.uint64(bound)) == (product * bound < cap)


# ---------------------------------------------------------------- the bots' generators: Mersenne Twister
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


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=2**63 - 1), st.lists(st.integers(min_value=1, max_value=2**40), max_size=30))
def test_a_bots_draws_are_randrange(seed, bounds):
    """A seat's bot (`steps.pick`, mode 0: `rng._below`) draws what `random.Random(seed).randrange` draws."""
    mt = np.zeros(native.N + 1, dtype=np.int64)
    steps.seed_into(mt, seed)
    theirs = random.Random(seed)
    assert [int(native._below(mt, n)) for n in bounds] == [theirs.randrange(n) for n in bounds]


@settings(max_examples=60, deadline=None)
@given(st.lists(SEEDS, min_size=1, max_size=6), st.data())
def test_seeding_rows_in_one_pass_is_seeding_each(seeds, data):
    """`steps.reseed_rows` (switch `interleaved_seeding`: the bots' generators) leaves each row as
    `reseed` of its seed: seeds of one and of two 32-bit words side by side, rows in any order."""
    rows = data.draw(st.permutations(range(len(seeds))))
    MT = np.zeros((len(seeds), native.N + 1), dtype=np.int64)
    steps.reseed_rows(MT, np.array(rows, dtype=np.int64), np.array([as_int64(s) for s in seeds], dtype=np.int64),
                      len(seeds))
    for r, seed in zip(rows, seeds):
        mine, theirs = MT[r], random.Random(seed)
        assert [as_uint64(native.getrandbits(mine, 32)) for _ in range(630)] == [theirs.getrandbits(32) for _ in range(630)]


@settings(max_examples=60, deadline=None)
@given(st.lists(SEEDS, min_size=1, max_size=9), st.data())
def test_seeding_rows_four_at_a_time_is_seeding_each(seeds, data):
    """`steps.reseed_quads` (switch `register_seeding`) leaves each row as `reseed` of its seed: blocks
    of four rows and a last block of fewer, seeds of one and of two 32-bit words, rows in any order."""
    rows = data.draw(st.permutations(range(len(seeds))))
    MT = np.zeros((len(seeds), native.N + 1), dtype=np.int64)
    steps.reseed_quads(MT, np.array(rows, dtype=np.int64), np.array([as_int64(s) for s in seeds], dtype=np.int64),
                       len(seeds))
    for r, seed in zip(rows, seeds):
        mine, theirs = MT[r], random.Random(seed)
        assert [as_uint64(native.getrandbits(mine, 32)) for _ in range(630)] == [theirs.getrandbits(32) for _ in range(630)]
