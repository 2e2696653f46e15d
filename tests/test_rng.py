"""The state's chance (runtime/rng.py): SplitMix64, a shuffle as Fisher-Yates whose j's are the
mixed-radix digits of a draw per chunk, and the old Mersenne Twister kept for games made before it."""

from __future__ import annotations

import functools
import itertools
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as hs

from cardlang.runtime import rng

SEEDS = hs.integers(0, (1 << 64) - 1)
MOD = 1 << 64


def splitmix(s: int) -> tuple:
    """(output, next state): SplitMix64 as its authors write it (Steele, Lea, Flood 2014; Vigna)."""
    s = (s + 0x9E3779B97F4A7C15) % MOD
    z = s
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % MOD
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % MOD
    return z ^ (z >> 31), s


def spec_shuffle(pile: list, seed: int) -> int:
    """The shuffle as the design says it, written plainly: bounds n..2 grouped greedily while their
    product is below 2**60; per chunk draw z until z < (2**64 // P) * P; digits of z % P in order."""
    bounds = list(range(len(pile), 1, -1))
    chunks, cur = [], []
    for b in bounds:
        if cur and (eval_product(cur) * b >= 1 << 60):
            chunks.append(cur)
            cur = []
        cur.append(b)
    if cur:
        chunks.append(cur)
    s = seed
    for chunk in chunks:
        p = eval_product(chunk)
        while True:
            z, s = splitmix(s)
            if z < (MOD // p) * p:
                break
        r = z % p
        for b in chunk:
            r, j = divmod(r, b)
            i = b - 1
            pile[i], pile[j] = pile[j], pile[i]
    return s


def eval_product(xs):
    out = 1
    for x in xs:
        out *= x
    return out


def test_splitmix_gives_its_published_outputs():
    """SplitMix64 from state 1234567: the outputs of the reference C code (Vigna's splitmix64.c)."""
    s, outs = 1234567, []
    for _ in range(5):
        z, s = splitmix(s)
        outs.append(z)
    assert outs == [6457827717110365317, 3203168211198807973, 9817491932198370423, 4593380528125082431,
                    16408922859458223821]
    assert rng.mix((1234567 + rng.GAMMA) % MOD) == outs[0]


@settings(max_examples=300, deadline=None)
@given(n=hs.integers(0, 300), seed=SEEDS)
def test_a_shuffle_is_the_designs_shuffle(n, seed):
    mine, spec = list(range(n)), list(range(n))
    assert rng.shuffle(mine, seed) == spec_shuffle(spec, seed)
    assert mine == spec


@settings(max_examples=300, deadline=None)
@given(n=hs.integers(0, 420), seed=SEEDS)
def test_a_shuffle_written_out_is_the_designs_shuffle(n, seed):
    """A pile length shuffled often has its shuffle written out as straight-line Python
    (`rng._written`): the same draws, the same swaps, the same next chance as the design's."""
    mine, spec = list(range(n)), list(range(n))
    assert _written(n)(mine, seed) == spec_shuffle(spec, seed)
    assert mine == spec


@functools.lru_cache(maxsize=None)
def _written(n: int):
    return rng._write(n)  # (whatever `rng._written` keeps)


def test_a_shuffle_is_written_out_after_some_shuffles_of_its_length_and_few_are(monkeypatch):
    """Writing a shuffle out costs as much as many shuffles: a length is written out once it was
    shuffled `_WRITE_AFTER` times, never a pile shorter than `_WRITTEN_FEWEST` or longer than
    `_WRITTEN_MOST`, and at most `_KEPT` lengths (the loop for the others)."""
    monkeypatch.setattr(rng, "_WRITTEN", {})
    monkeypatch.setattr(rng, "_SEEN", {})
    for k in range(rng._WRITE_AFTER):
        assert 52 not in rng._WRITTEN
        rng.shuffle(list(range(52)), k)
    assert 52 in rng._WRITTEN and rng._WRITTEN[52] is not rng._looped
    for n in (rng._WRITTEN_FEWEST - 1, rng._WRITTEN_MOST + 1):
        for k in range(rng._WRITE_AFTER + 1):
            rng.shuffle(list(range(n)), k)
        assert n not in rng._WRITTEN
    for n in range(60, 60 + 2 * rng._KEPT):
        for k in range(rng._WRITE_AFTER):
            rng.shuffle(list(range(n)), k)
    assert len(rng._WRITTEN) == rng._KEPT


def test_a_long_pile_is_shuffled_as_designed_and_its_plan_is_not_kept():
    for n in (1025, 1500):
        mine, spec = list(range(n)), list(range(n))
        assert rng.shuffle(mine, 7) == spec_shuffle(spec, 7)
        assert mine == spec
        assert n not in rng._PLANS


def test_a_52_card_shuffle_is_four_chunks_each_below_the_cap():
    plan = rng._plan(52)
    assert len(plan) == 4
    assert [b for _, _, steps in plan for _, b in steps] == list(range(52, 1, -1))
    for product, limit, steps in plan:
        assert product == eval_product([b for _, b in steps]) < rng.CAP
        assert limit == (MOD // product) * product


@settings(max_examples=200, deadline=None)
@given(n=hs.integers(1, 1 << 64), seed=SEEDS)
def test_a_draw_is_one_chunk_of_its_bound(n, seed):
    s = seed
    while True:
        z, s = splitmix(s)
        if z < (MOD // n) * n:
            break
    assert rng.randbelow(n, seed) == (z % n, s)


def test_a_game_s_first_chance_is_splitmix_of_its_seed():
    for seed in (0, 1, 7, 2**63 - 1):
        assert rng.first_chance(seed) == splitmix(seed)[0]
    assert rng.first_chance(-1) == splitmix(MOD - 1)[0]  # (any int: its low 64 bits)


def chi_square(counts: Counter, cells: list, total: int) -> float:
    expected = total / len(cells)
    return sum((counts[c] - expected) ** 2 / expected for c in cells)


def test_a_five_card_shuffle_is_uniform():
    """60,000 shuffles of 5 cards, each from the chance the last one left: the 120 orders come up
    evenly (chi-square, 119 degrees of freedom: 220 has a chance near 1e-8 for a uniform shuffle;
    fixed seed, so the test is not flaky) and each card in each place a fifth of the time."""
    total, s = 60_000, rng.first_chance(2026)
    orders, places = Counter(), Counter()
    for _ in range(total):
        pile = list(range(5))
        s = rng.shuffle(pile, s)
        orders[tuple(pile)] += 1
        places.update(enumerate(pile))
    assert chi_square(orders, list(itertools.permutations(range(5))), total) < 220
    assert chi_square(places, list(itertools.product(range(5), range(5))), total * 5) < 80  # (16 df; ~1e-10)


def test_a_52_card_shuffle_puts_each_card_anywhere_evenly():
    """Where card 0 and card 51 end after 26,000 shuffles of 52 cards (51 degrees of freedom each:
    130 has a chance near 1e-8)."""
    total, s = 26_000, rng.first_chance(52)
    first, last = Counter(), Counter()
    for _ in range(total):
        pile = list(range(52))
        s = rng.shuffle(pile, s)
        first[pile.index(0)] += 1
        last[pile.index(51)] += 1
    assert chi_square(first, list(range(52)), total) < 130
    assert chi_square(last, list(range(52)), total) < 130


def test_draws_below_a_bound_are_uniform():
    total, s, counts = 30_000, rng.first_chance(3), Counter()
    for _ in range(total):
        r, s = rng.randbelow(7, s)
        counts[r] += 1
    assert chi_square(counts, list(range(7)), total) < 45  # (6 df: a chance near 1e-7)


# ---------------------------------------------------------------- the old generator, for old games
def _python_shuffle(pile: list, seed: int) -> int:
    r = random.Random(seed)
    r.shuffle(pile)
    return r.getrandbits(64)


@settings(max_examples=300, deadline=None)
@given(n=hs.integers(0, 140), seed=SEEDS)
def test_an_old_game_s_shuffle_is_python_s_shuffle_from_the_same_seed(n, seed):
    mine, python = list(range(n)), list(range(n))
    after = rng.Mersenne(seed).shuffle(mine, 0)
    assert after == rng.Mersenne(_python_shuffle(python, seed))
    assert mine == python


@settings(max_examples=200, deadline=None)
@given(n=hs.integers(1, 5000), seed=SEEDS)
def test_an_old_game_s_draw_is_python_s_randrange_from_the_same_seed(n, seed):
    r = random.Random(seed)
    value, after = rng.Mersenne(seed).randbelow(n)
    assert (value, after) == (r.randrange(n), rng.Mersenne(r.getrandbits(64)))


def test_an_old_game_starts_from_python_s_first_64_bits_and_draws_through_the_source():
    chance = rng.legacy(12)
    assert chance == rng.Mersenne(random.Random(12).getrandbits(64))
    pile = list(range(10))
    assert rng.shuffle(pile, chance) == chance.shuffle(list(range(10)), 3)
    assert rng.replay_chance(chance, 12) == chance and rng.replay_chance(5, 12) is None
