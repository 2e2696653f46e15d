"""CPython's Mersenne Twister for numba: the same draws as `cardlang.runtime.rng`, in machine code.

A seeded game must give the same outcome on every engine, so the native engine cannot use numba's
own generator (`np.random`): it draws exactly what `random.Random(seed)` draws. `seeded(seed)`
expands a state's 64-bit chance into a generator as CPython's `random.seed(int)` does
(`init_by_array` over the seed's 32-bit words, least significant first); `getrandbits`, `shuffle`
and `randbelow` follow `_randommodule.c` and `random.py` (`_randbelow_with_getrandbits`) step by step.
Words are kept in int64 and masked to 32 bits, so no product overflows (the largest multiplier is
below 2**31, a word below 2**32).

The generator is one int64 array of N + 1: the N words and, last, the index of the next word.

The functions that allocate nothing say `_nrt=False` (no reference counting of their array
arguments: they are the hottest calls of a native run).
"""

from __future__ import annotations

import numpy as np
from numba import njit

N, M = 624, 397
MASK = 0xFFFFFFFF
UPPER, LOWER = 0x80000000, 0x7FFFFFFF
MATRIX_A = 0x9908B0DF


@njit(cache=True, _nrt=False)
def _init_genrand(mt, s):
    mt[0] = s & MASK
    for i in range(1, N):
        mt[i] = (1812433253 * (mt[i - 1] ^ (mt[i - 1] >> 30)) + i) & MASK
    mt[N] = N


@njit(cache=True)
def seeded(seed):
    """A generator seeded as `random.Random(seed)` is, for a seed of 0 to 2**64 - 1."""
    mt = np.empty(N + 1, dtype=np.int64)
    # the key: the seed's 32-bit words, least significant first; at least one word (0 gives [0])
    key = np.zeros(2, dtype=np.int64)
    key[0] = seed & MASK
    key[1] = (seed >> 32) & MASK
    length = 2 if key[1] != 0 else 1
    _init_genrand(mt, 19650218)
    i, j = 1, 0
    for _ in range(max(N, length)):
        mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525)) + key[j] + j) & MASK
        i += 1
        j += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
        if j >= length:
            j = 0
    for _ in range(N - 1):
        mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941)) - i) & MASK
        i += 1
        if i >= N:
            mt[0] = mt[N - 1]
            i = 1
    mt[0] = 0x80000000
    return mt


@njit(cache=True, _nrt=False)
def _twist(mt):
    """The N words regenerated (`genrand_uint32`'s three loops: no index wraps, no division)."""
    for kk in range(N - M):
        y = (mt[kk] & UPPER) | (mt[kk + 1] & LOWER)
        mt[kk] = mt[kk + M] ^ (y >> 1) ^ (MATRIX_A if y & 1 else 0)
    for kk in range(N - M, N - 1):
        y = (mt[kk] & UPPER) | (mt[kk + 1] & LOWER)
        mt[kk] = mt[kk + M - N] ^ (y >> 1) ^ (MATRIX_A if y & 1 else 0)
    y = (mt[N - 1] & UPPER) | (mt[0] & LOWER)
    mt[N - 1] = mt[M - 1] ^ (y >> 1) ^ (MATRIX_A if y & 1 else 0)
    mt[N] = 0


@njit(cache=True, _nrt=False, forceinline=True)
def _next_word(mt):
    """`genrand_uint32`: the next 32-bit word, regenerating the N words when they are used up
    (inlined where it is called: a bot's draw is a few instructions; the twist is a call)."""
    if mt[N] >= N:
        _twist(mt)
    y = mt[mt[N]]
    mt[N] += 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y & MASK


LAZY = -N  # mt[N] of a generator just seeded whose first twist is left to its draws (`lazy_word`)


@njit(cache=True, _nrt=False, forceinline=True)
def lazy_word(mt):
    """`_next_word` of a generator whose twist is done word by word as its words are drawn (mt[N] from
    LAZY up to -1: the next word, not twisted yet, is mt[N] + N; from 0, `_next_word`).

    Word kk of a twist reads old words kk, kk + 1 and kk + M (below N - M) or the new word kk + M - N
    (drawn already), and word N - 1 reads new words 0 and M - 1: so twisting each word in place as it
    is drawn gives the twist's words, and a draw of a few dozen words does not twist all N."""
    p = mt[N]
    if p >= 0:
        return _next_word(mt)
    kk = p + N
    if kk < N - M:
        y = (mt[kk] & UPPER) | (mt[kk + 1] & LOWER)
        mt[kk] = mt[kk + M] ^ (y >> 1) ^ (MATRIX_A if y & 1 else 0)
    elif kk < N - 1:
        y = (mt[kk] & UPPER) | (mt[kk + 1] & LOWER)
        mt[kk] = mt[kk + M - N] ^ (y >> 1) ^ (MATRIX_A if y & 1 else 0)
    else:
        y = (mt[N - 1] & UPPER) | (mt[0] & LOWER)
        mt[N - 1] = mt[M - 1] ^ (y >> 1) ^ (MATRIX_A if y & 1 else 0)
    mt[N] = p + 1 if p + 1 < 0 else N  # (after word N - 1, a generator whose N words are used)
    y = mt[kk]
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y & MASK


@njit(cache=True, _nrt=False)
def lazy_bits(mt, k):
    """`getrandbits` of a lazily twisted generator (`lazy_word`)."""
    if k == 0:
        return 0
    if k <= 32:
        return lazy_word(mt) >> (32 - k)
    low = lazy_word(mt)
    high = lazy_word(mt) >> (64 - k)
    return low | (high << 32)


@njit(cache=True, _nrt=False, forceinline=True)
def getrandbits(mt, k):
    """`Random.getrandbits(k)` for 0 <= k <= 64 (as an int64 holding the bits: 64 bits wrap)."""
    if k == 0:
        return 0
    if k <= 32:
        return _next_word(mt) >> (32 - k)
    low = _next_word(mt)
    high = _next_word(mt) >> (64 - k)
    return low | (high << 32)


@njit(cache=True, _nrt=False, forceinline=True)
def _bit_length(n):
    k = 0
    while n:
        n >>= 1
        k += 1
    return k


@njit(cache=True, _nrt=False, forceinline=True)
def _below(mt, n):
    """`Random._randbelow(n)` for n >= 1: k bits until a draw is below n."""
    k = _bit_length(n)
    r = getrandbits(mt, k)
    while r >= n:
        r = getrandbits(mt, k)
    return r


@njit(cache=True, _nrt=False)
def lazy_below(mt, n):
    """`_below` of a lazily twisted generator (`lazy_word`)."""
    k = _bit_length(n)
    r = lazy_bits(mt, k)
    while r >= n:
        r = lazy_bits(mt, k)
    return r


@njit(cache=True)
def shuffle(pile, seed):
    """Shuffles `pile` in place as `random.Random(seed).shuffle(pile)` does; returns the next seed
    (the generator's next 64 bits, as an int64: the bits of `runtime.rng.shuffle`'s answer)."""
    mt = seeded(seed)
    for i in range(len(pile) - 1, 0, -1):
        j = _below(mt, i + 1)
        pile[i], pile[j] = pile[j], pile[i]
    return getrandbits(mt, 64)


@njit(cache=True)
def randbelow(n, seed):
    """(`random.Random(seed).randrange(n)`, the next seed as an int64), for n >= 1."""
    mt = seeded(seed)
    r = _below(mt, n)
    return r, getrandbits(mt, 64)
