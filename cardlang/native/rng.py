"""The native engine's generators: the game's chance (SplitMix64, as `cardlang.runtime.rng` draws
it) and the bots' (CPython's Mersenne Twister, as `random.Random(seed)` draws), in machine code.

A seeded game must give the same outcome on every engine, so the native engine cannot use numba's
own generator (`np.random`).

**The chance** (`first_chance`, `chance_shuffle`, `chance_below`) is `runtime/rng.py`'s, bit for bit,
in uint64 arithmetic (it wraps as `mod 2**64` does): the state's 64-bit chance (an int64 in `G[0]`,
the same bits) steps by `GAMMA`, each output is `mix` of it, a shuffle draws its Fisher-Yates j's as
mixed-radix digits of a draw per chunk of bounds whose product stays below `CAP`.

**The bots' draws** (`seeded`, `getrandbits`, `_below`) follow `_randommodule.c` and `random.py`
(`_randbelow_with_getrandbits`) step by step: `seeded(seed)` expands a seed into a generator as
CPython's `random.seed(int)` does (`init_by_array` over the seed's 32-bit words, least significant
first). Words are kept in int64 and masked to 32 bits, so no product overflows (the largest
multiplier is below 2**31, a word below 2**32). A generator is one int64 array of N + 1: the N
words and, last, the index of the next word.

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


# ---------------------------------------------------------------- the game's chance: SplitMix64
GAMMA = np.uint64(0x9E3779B97F4A7C15)
M1, M2 = np.uint64(0xBF58476D1CE4E5B9), np.uint64(0x94D049BB133111EB)
ALL = np.uint64(0xFFFFFFFFFFFFFFFF)
CAP = np.uint64(1 << 60)  # a chunk's product stays below (`runtime.rng.CAP`)
LOW32 = np.uint64(0xFFFFFFFF)
S27, S28, S30, S31, S32 = np.uint64(27), np.uint64(28), np.uint64(30), np.uint64(31), np.uint64(32)


@njit(cache=True, _nrt=False, forceinline=True)
def mix(z):
    """SplitMix64's finalizer (`runtime.rng.mix`), uint64 to uint64."""
    z = (z ^ (z >> S30)) * M1
    z = (z ^ (z >> S27)) * M2
    return z ^ (z >> S31)


@njit(cache=True, _nrt=False)
def first_chance(seed):
    """A new game's chance from its seed (an int64 of 0 to 2**63 - 1): `runtime.rng.first_chance`."""
    return np.int64(mix(np.uint64(seed) + GAMMA))


@njit(cache=True, _nrt=False, forceinline=True)
def _fits(product, b):
    """product * b < CAP, for product < CAP and 0 < b < 2**28, without overflowing: product split
    at bit 32 (its high part times b at least 2**28 means at least 2**60)."""
    high = (product >> S32) * b
    if high >> S28:
        return False
    return (high << S32) + (product & LOW32) * b < CAP


@njit(cache=True, _nrt=False, forceinline=True)
def _draw(s, bound):
    """(a draw z uniform in 0..bound - 1 as uint64, the chance after it) from chance s (uint64): steps
    until mix(s) is below the largest multiple of bound up to 2**64 (none over it when bound divides
    2**64: then 2**64 mod bound, `over`, is 0)."""
    over = (ALL % bound + np.uint64(1)) % bound
    top = ALL - over
    while True:
        s += GAMMA
        z = mix(s)
        if z <= top:
            return z % bound, s


@njit(cache=True, _nrt=False, forceinline=True)
def _chunk(i, s):
    """A shuffle's next chunk from position i down: (k, the chunk's draw, the next state s), the
    chunk's bounds being i + 1, i, ..., k + 1 (their product kept below the draw's limit)."""
    product = np.uint64(i + 1)
    k = i - 1
    while k > 0 and _fits(product, np.uint64(k + 1)):
        product *= np.uint64(k + 1)
        k -= 1
    r, s = _draw(s, product)
    return k, r, s


@njit(cache=True, _nrt=False)
def chance_shuffle(pile, seed):
    """`runtime.rng.shuffle(pile, seed)`: the pile shuffled in place, the next chance (an int64)."""
    s = np.uint64(seed)
    i = len(pile) - 1
    while i > 0:
        k, r, s = _chunk(i, s)  # (a chunk: the bounds i + 1, i, ... k + 1 while their product fits)
        while i > k:  # (the digits, bound i + 1 first)
            b = np.uint64(i + 1)
            j = np.int64(r % b)
            r = r // b
            x = pile[i]
            pile[i] = pile[j]
            pile[j] = x
            i -= 1
    return np.int64(s)


@njit(cache=True, _nrt=False)
def chance_shuffle_pairs(pile, seed):
    """`chance_shuffle`, a chunk's digits taken two at a time (switch `paired_digits`): with bounds
    b, c, the draw r's digits r % b and (r // b) % c, and the rest r // (b * c), worked out from r
    side by side (the same numbers): the chain of dependent divisions is half as long."""
    s = np.uint64(seed)
    i = len(pile) - 1
    while i > 0:
        k, r, s = _chunk(i, s)
        while i > k:
            b = np.uint64(i + 1)
            if i - 1 > k:  # (two bounds of the chunk left: their product divides the chunk's)
                c = np.uint64(i)
                q = r // b
                rest = r // (b * c)
                j = np.int64(r - q * b)
                x = pile[i]
                pile[i] = pile[j]
                pile[j] = x
                j = np.int64(q - rest * c)
                x = pile[i - 1]
                pile[i - 1] = pile[j]
                pile[j] = x
                r = rest
                i -= 2
                continue
            j = np.int64(r % b)
            r = r // b
            x = pile[i]
            pile[i] = pile[j]
            pile[j] = x
            i -= 1
    return np.int64(s)


@njit(cache=True, _nrt=False)
def chance_below(n, seed):
    """`runtime.rng.randbelow(n, seed)` for n >= 1: (the draw, the next chance), as int64s."""
    r, s = _draw(np.uint64(seed), np.uint64(n))
    return np.int64(r), np.int64(s)
