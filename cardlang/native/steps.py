"""The native engine's runtime steps: moving, dealing and swapping cards over the native state.

The state (see `native/emit.py`): `Z[z, :ZN[z]]` the cards of zone z, bottom first; `LOC[c]` the
zone of card c. Each step does what `runtime/zones.py` and the reference's `s_Deal`,
`s_SwapZones`, `s_SwapCards` do to the cards (a quiet run keeps no knowledge); each returns 0, or 1
where the reference meets a rule error (the caller then stops the run, which is played again on the
compiled engine, so the error reads as it does there).

The steps allocate nothing and say `_nrt=False` (no reference counting of their array arguments),
but `filter_out`, whose scratch arrays need it (`_nrt=True`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .rng import MASK, N, _below, _next_word


@njit(cache=True, _nrt=False)
def take_out(Z, ZN, LOC, c):
    """Takes card c out of its zone, the cards above it moving down; 1 if it is not there."""
    if c < 0 or c >= LOC.shape[0]:
        return 1
    z = LOC[c]
    m = ZN[z]
    j = -1
    for i in range(m):
        if Z[z, i] == c:
            j = i
            break
    if j < 0:
        return 1
    for i in range(j, m - 1):
        Z[z, i] = Z[z, i + 1]
    ZN[z] = m - 1
    return 0


@njit(cache=True, _nrt=True)
def filter_out(Z, ZN, LOC, cards, n):
    """Takes the n cards out of their piles, each pile filtered once; 1 for a card named twice (the
    runtime would then move it twice: the compiled engine plays that game)."""
    ncards = LOC.shape[0]
    gone = np.zeros(ncards, dtype=np.bool_)
    piles = np.zeros(ZN.shape[0], dtype=np.bool_)
    for i in range(n):
        c = cards[i]
        if c < 0 or c >= ncards or gone[c]:
            return 1
        gone[c] = True
        piles[LOC[c]] = True
    for z in range(ZN.shape[0]):
        if piles[z]:
            k = 0
            for i in range(ZN[z]):
                c = Z[z, i]
                if not gone[c]:
                    Z[z, k] = c
                    k += 1
            ZN[z] = k
    return 0


@njit(cache=True, _nrt=False)
def move(Z, ZN, LOC, cards, n, dest, bottom):
    """`runtime.zones.move_cards`: the n cards out of wherever they are, on top of (or under) `dest`."""
    if dest < 0 or dest >= ZN.shape[0]:
        return 1
    if n <= 4:  # a few cards: each taken out of its pile
        for i in range(n):
            if take_out(Z, ZN, LOC, cards[i]):
                return 1
    elif filter_out(Z, ZN, LOC, cards, n):  # more: each pile they leave is filtered once
        return 1
    m = ZN[dest]
    if m + n > Z.shape[1]:
        return 1
    if bottom:  # (the cards reversed, under the others: `target[:0] = moving[::-1]`)
        for i in range(m - 1, -1, -1):
            Z[dest, i + n] = Z[dest, i]
        for i in range(n):
            Z[dest, i] = cards[n - 1 - i]
    else:
        for i in range(n):
            Z[dest, m + i] = cards[i]
    ZN[dest] = m + n
    for i in range(n):
        LOC[cards[i]] = dest
    return 0


@njit(cache=True, _nrt=False, forceinline=True)
def put_card(Z, ZN, LOC, c, dest, bottom):
    """The second half of `move_card`: card c, already out of its pile, put on top of `dest` (under
    it with `bottom`); 1 where `dest` is full."""
    m = ZN[dest]
    if m + 1 > Z.shape[1]:
        return 1
    if bottom:
        for i in range(m - 1, -1, -1):
            Z[dest, i + 1] = Z[dest, i]
        Z[dest, 0] = c
    else:
        Z[dest, m] = c
    ZN[dest] = m + 1
    LOC[c] = dest
    return 0


@njit(cache=True, _nrt=False, forceinline=True)
def move_card(Z, ZN, LOC, c, dest, bottom):
    """`move(Z, ZN, LOC, [c], 1, dest, bottom)` for one card, written where it is called (inlined by
    LLVM: no scratch row, no call; switch `card_moves`): 1 where `move` fails."""
    if dest < 0 or dest >= ZN.shape[0] or c < 0 or c >= LOC.shape[0]:
        return 1
    z = LOC[c]  # (`take_out`)
    m = ZN[z]
    j = -1
    for i in range(m):
        if Z[z, i] == c:
            j = i
            break
    if j < 0:
        return 1
    for i in range(j, m - 1):
        Z[z, i] = Z[z, i + 1]
    ZN[z] = m - 1
    return put_card(Z, ZN, LOC, c, dest, bottom)


@njit(cache=True, _nrt=False, forceinline=True)
def move_card_compact(Z, ZN, LOC, c, dest, bottom):
    """`move_card`, the card taken out of its pile in one pass that keeps every other card (each
    written one place down once c is passed), with no exit at the card (a mispredicted branch a
    move; switch `compact_moves`): the same piles, the same failures."""
    if dest < 0 or dest >= ZN.shape[0] or c < 0 or c >= LOC.shape[0]:
        return 1
    z = LOC[c]
    m = ZN[z]
    k = 0
    for i in range(m):  # (a card is in one pile once: k ends at m - 1, or at m when c is not there)
        x = Z[z, i]
        Z[z, k] = x
        k += x != c
    if k == m:
        return 1
    ZN[z] = k
    return put_card(Z, ZN, LOC, c, dest, bottom)


@njit(cache=True, _nrt=False)
def move_deck(Z, ZN, LOC, cards, n, dest, bottom):
    """`move(Z, ZN, LOC, cards, n, dest, bottom)` when `cards` are every card of the deck, each once
    (switch `deck_moves`): every pile left empty, the cards alone in `dest` (reversed: under)."""
    if dest < 0 or dest >= ZN.shape[0]:
        return 1
    for z in range(ZN.shape[0]):
        ZN[z] = 0
    for i in range(n):
        c = cards[n - 1 - i] if bottom else cards[i]
        Z[dest, i] = c
        LOC[c] = dest
    ZN[dest] = n
    return 0


@njit(cache=True, _nrt=False)
def move_zone(Z, ZN, LOC, src, dest, bottom):
    """`move(Z, ZN, LOC, <a copy of zone src's cards>, ZN[src], dest, bottom)`: all the cards of zone
    src on top of (or under, reversed) `dest`; onto itself, the zone keeps its order (or is reversed
    under: `target[:0] = moving[::-1]` of an emptied zone)."""
    return move_zone_inline(Z, ZN, LOC, src, dest, bottom)


@njit(cache=True, _nrt=False, forceinline=True)
def move_zone_inline(Z, ZN, LOC, src, dest, bottom):
    """`move_zone`, written where it is called (inlined by LLVM: no call; switch `inline_zone_moves`)."""
    if dest < 0 or dest >= ZN.shape[0]:
        return 1
    n = ZN[src]
    if src == dest:
        if bottom:
            for i in range(n // 2):
                x = Z[src, i]
                Z[src, i] = Z[src, n - 1 - i]
                Z[src, n - 1 - i] = x
        return 0
    m = ZN[dest]
    if m + n > Z.shape[1]:
        return 1
    if bottom:
        for i in range(m - 1, -1, -1):
            Z[dest, i + n] = Z[dest, i]
        for i in range(n):
            Z[dest, i] = Z[src, n - 1 - i]
    else:
        for i in range(n):
            Z[dest, m + i] = Z[src, i]
    for i in range(n):
        LOC[Z[src, i]] = dest
    ZN[dest] = m + n
    ZN[src] = 0
    return 0


@njit(cache=True, _nrt=False)
def deal(Z, ZN, LOC, n, src, targets, nt):
    """`deal n from src to targets`: n rounds of one card from the top of src to each target."""
    for _ in range(n):
        for t in range(nt):
            z = targets[t]
            m = ZN[src] - 1
            c = Z[src, m]
            ZN[src] = m
            k = ZN[z]
            Z[z, k] = c
            ZN[z] = k + 1
            LOC[c] = z
    return 0


@njit(cache=True, _nrt=False)
def swap_zones(Z, ZN, LOC, a, b):
    """`swap a with b`: the two zones exchange their cards."""
    m = max(ZN[a], ZN[b])
    for i in range(m):
        x = Z[a, i]
        Z[a, i] = Z[b, i]
        Z[b, i] = x
    na = ZN[a]
    ZN[a] = ZN[b]
    ZN[b] = na
    for i in range(ZN[a]):
        LOC[Z[a, i]] = a
    for i in range(ZN[b]):
        LOC[Z[b, i]] = b
    return 0


@njit(cache=True, _nrt=False)
def swap_cards(Z, ZN, LOC, a, b):
    """`swap card a with card b`: they exchange their places."""
    za, zb = LOC[a], LOC[b]
    ia = ib = -1
    for i in range(ZN[za]):
        if Z[za, i] == a:
            ia = i
            break
    for i in range(ZN[zb]):
        if Z[zb, i] == b:
            ib = i
            break
    if ia < 0 or ib < 0:
        return 1
    Z[za, ia] = b
    Z[zb, ib] = a
    LOC[a] = zb
    LOC[b] = za
    return 0


@njit(cache=True, _nrt=False)
def pick(MT, mode, p, count):
    """The index a seat's random bot draws among `count` legal actions: mode 0, seat p's own
    generator as `RandomBot` draws (`randrange`, `runtime.playout.seat_playout`); mode 1, one
    generator's `random()` as `random_playout` draws (`int(random() * count)`)."""
    if mode == 0:
        return _below(MT[p], count)
    mt = MT[0]
    a = _next_word(mt) >> 5
    b = _next_word(mt) >> 6
    return int((a * 67108864.0 + b) * (1.0 / 9007199254740992.0) * count)


BIT_LENGTHS = np.array([int(n).bit_length() for n in range(256)], dtype=np.int64)


@njit(cache=True, _nrt=False, forceinline=True)
def pick_inline(MT, mode, p, count):
    """`pick`, written where it is called (inlined by LLVM, with the generator's word), the bit count
    of `count` read from a table below 256 (not a loop whose end the processor mispredicts; switch
    `bot_draws`): the same draws."""
    if mode == 0:
        mt = MT[p]
        if count >= 256:
            return _below(mt, count)
        k = BIT_LENGTHS[count]
        r = _next_word(mt) >> (32 - k)
        while r >= count:
            r = _next_word(mt) >> (32 - k)
        return r
    mt = MT[0]
    a = _next_word(mt) >> 5
    b = _next_word(mt) >> 6
    return int((a * 67108864.0 + b) * (1.0 / 9007199254740992.0) * count)


# ---------------------------------------------------------------- the bots' generators, seeded fast
def _first_words():
    """`init_genrand(19650218)`, the words every `init_by_array` starts from (worked out once)."""
    import numpy as np

    mt = np.empty(N, dtype=np.int64)
    mt[0] = 19650218
    for i in range(1, N):
        mt[i] = (1812433253 * (int(mt[i - 1]) ^ (int(mt[i - 1]) >> 30)) + i) & MASK
    return mt


FIRST_WORDS = _first_words()


@njit(cache=True, _nrt=False)
def reseed(mt, seed):
    """Seeds generator `mt` (N + 1 words) as `random.Random(seed)` is (`rng.seeded`, without
    allocating): a seat's bot's, at a game's start."""
    k0 = seed & MASK
    k1 = (seed >> 32) & MASK
    length = 2 if k1 != 0 else 1
    for i in range(N):
        mt[i] = FIRST_WORDS[i]
    prev = mt[0]
    i, j = 1, 0
    for _ in range(N):
        key = k0 if j == 0 else k1
        cur = ((mt[i] ^ ((prev ^ (prev >> 30)) * 1664525)) + key + j) & MASK
        mt[i] = cur
        prev = cur
        i += 1
        j += 1
        if i >= N:
            mt[0] = cur
            i = 1
        if j >= length:
            j = 0
    for _ in range(N - 1):
        cur = ((mt[i] ^ ((prev ^ (prev >> 30)) * 1566083941)) - i) & MASK
        mt[i] = cur
        prev = cur
        i += 1
        if i >= N:
            mt[0] = cur
            i = 1
    mt[0] = 0x80000000
    mt[N] = N


@njit(cache=True, _nrt=False)
def reseed_rows(MT, rows, seeds, count):
    """`reseed(MT[rows[k]], seeds[k])` for k < count, in one pass: each seeding is a chain of 1247
    dependent steps (a multiply each), so the rows' chains are interleaved, step by step, for the
    processor to run side by side (a game seeds each seat's bot at its start)."""
    for k in range(count):
        MT[rows[k], 0] = FIRST_WORDS[0]
    for i in range(1, N):  # init_by_array's first loop: key word j = (i - 1) % length, plus j
        fw = FIRST_WORDS[i]
        for k in range(count):
            r, s = rows[k], seeds[k]
            k1 = (s >> 32) & MASK
            key = (k1 + 1 if k1 != 0 else s & MASK) if (i - 1) & 1 else s & MASK
            prev = MT[r, i - 1]
            MT[r, i] = ((fw ^ ((prev ^ (prev >> 30)) * 1664525)) + key) & MASK
    for k in range(count):  # its N-th step, at word 1 again (j = (N - 1) % length)
        r, s = rows[k], seeds[k]
        k1 = (s >> 32) & MASK
        prev = MT[r, N - 1]
        MT[r, 0] = prev
        MT[r, 1] = ((MT[r, 1] ^ ((prev ^ (prev >> 30)) * 1664525)) + (k1 + 1 if k1 != 0 else s & MASK)) & MASK
    for i in range(2, N):  # the second loop
        for k in range(count):
            r = rows[k]
            prev = MT[r, i - 1]
            MT[r, i] = ((MT[r, i] ^ ((prev ^ (prev >> 30)) * 1566083941)) - i) & MASK
    for k in range(count):  # its last step, at word 1 again
        r = rows[k]
        prev = MT[r, N - 1]
        MT[r, 1] = ((MT[r, 1] ^ ((prev ^ (prev >> 30)) * 1566083941)) - 1) & MASK
        MT[r, 0] = 0x80000000
        MT[r, N] = N


@njit(cache=True, _nrt=False)
def reseed_quads(MT, rows, seeds, count):
    """`reseed_rows`, four rows at a time with each chain's last word held in a register
    (`_reseed4`), not stored and read back from the row a step (switch `register_seeding`)."""
    for b in range(0, count, 4):
        last = min(b + 4, count) - 1  # (a block of fewer rows seeds its last row more than once: the same words)
        i1, i2, i3 = min(b + 1, last), min(b + 2, last), min(b + 3, last)
        _reseed4(MT, rows[b], rows[i1], rows[i2], rows[i3], seeds[b], seeds[i1], seeds[i2], seeds[i3])


@njit(cache=True, _nrt=False, forceinline=True)
def _key_words(s):
    """A seed's key word at init_by_array's even steps, and at its odd ones (j = 1 for a seed of two
    32-bit words, plus j; the one word again for a seed of one)."""
    k0 = s & MASK
    k1 = (s >> 32) & MASK
    return k0, (k1 + 1 if k1 != 0 else k0)


@njit(cache=True, _nrt=False)
def _reseed4(MT, r0, r1, r2, r3, s0, s1, s2, s3):
    """`reseed(MT[r], s)` of four rows side by side, as `reseed_rows` steps them."""
    a0, b0 = _key_words(s0)
    a1, b1 = _key_words(s1)
    a2, b2 = _key_words(s2)
    a3, b3 = _key_words(s3)
    p0 = p1 = p2 = p3 = FIRST_WORDS[0]
    MT[r0, 0] = MT[r1, 0] = MT[r2, 0] = MT[r3, 0] = p0
    for i in range(1, N):  # init_by_array's first loop
        fw = FIRST_WORDS[i]
        odd = (i - 1) & 1
        p0 = ((fw ^ ((p0 ^ (p0 >> 30)) * 1664525)) + (b0 if odd else a0)) & MASK
        p1 = ((fw ^ ((p1 ^ (p1 >> 30)) * 1664525)) + (b1 if odd else a1)) & MASK
        p2 = ((fw ^ ((p2 ^ (p2 >> 30)) * 1664525)) + (b2 if odd else a2)) & MASK
        p3 = ((fw ^ ((p3 ^ (p3 >> 30)) * 1664525)) + (b3 if odd else a3)) & MASK
        MT[r0, i] = p0
        MT[r1, i] = p1
        MT[r2, i] = p2
        MT[r3, i] = p3
    MT[r0, 0], MT[r1, 0], MT[r2, 0], MT[r3, 0] = p0, p1, p2, p3  # its N-th step, at word 1 again
    p0 = ((MT[r0, 1] ^ ((p0 ^ (p0 >> 30)) * 1664525)) + b0) & MASK
    p1 = ((MT[r1, 1] ^ ((p1 ^ (p1 >> 30)) * 1664525)) + b1) & MASK
    p2 = ((MT[r2, 1] ^ ((p2 ^ (p2 >> 30)) * 1664525)) + b2) & MASK
    p3 = ((MT[r3, 1] ^ ((p3 ^ (p3 >> 30)) * 1664525)) + b3) & MASK
    MT[r0, 1], MT[r1, 1], MT[r2, 1], MT[r3, 1] = p0, p1, p2, p3
    for i in range(2, N):  # the second loop
        p0 = ((MT[r0, i] ^ ((p0 ^ (p0 >> 30)) * 1566083941)) - i) & MASK
        p1 = ((MT[r1, i] ^ ((p1 ^ (p1 >> 30)) * 1566083941)) - i) & MASK
        p2 = ((MT[r2, i] ^ ((p2 ^ (p2 >> 30)) * 1566083941)) - i) & MASK
        p3 = ((MT[r3, i] ^ ((p3 ^ (p3 >> 30)) * 1566083941)) - i) & MASK
        MT[r0, i] = p0
        MT[r1, i] = p1
        MT[r2, i] = p2
        MT[r3, i] = p3
    # its last step, at word 1 again (each worked out before any is stored: a row seeded twice)
    p0 = ((MT[r0, 1] ^ ((p0 ^ (p0 >> 30)) * 1566083941)) - 1) & MASK
    p1 = ((MT[r1, 1] ^ ((p1 ^ (p1 >> 30)) * 1566083941)) - 1) & MASK
    p2 = ((MT[r2, 1] ^ ((p2 ^ (p2 >> 30)) * 1566083941)) - 1) & MASK
    p3 = ((MT[r3, 1] ^ ((p3 ^ (p3 >> 30)) * 1566083941)) - 1) & MASK
    MT[r0, 1], MT[r1, 1], MT[r2, 1], MT[r3, 1] = p0, p1, p2, p3
    for r in (r0, r1, r2, r3):
        MT[r, 0] = 0x80000000
        MT[r, N] = N


@njit(cache=True, _nrt=False)
def seed_into(mt, seed):
    """Generator `mt` seeded as `random.Random(seed)` (a bot's)."""
    reseed(mt, seed)


@njit(cache=True, _nrt=False)
def next_places(P, k, n):
    """The places `P[:k]` (increasing, of n) made the next set of k places in the order of
    `itertools.combinations` (`runtime.card_sets.sets`); False after the last."""
    i = k - 1
    while i >= 0 and P[i] == n - k + i:
        i -= 1
    if i < 0:
        return False
    P[i] += 1
    for j in range(i + 1, k):
        P[j] = P[j - 1] + 1
    return True


@njit(cache=True, _nrt=False)
def set_cards(src, n, value, low, offsets, comb, out):
    """`runtime.card_sets.subset`: the cards of `src[:n]` that set value `value` (of a choice of `low`
    cards or more) stands for, into `out`; their count, or -1 for a place past the source.
    `offsets[k]` is the first value of the sets of k cards, `comb[i, p]` is C(p, i)."""
    top = offsets.shape[0] - 1
    k = low
    while k < top and value >= offsets[k + 1]:
        k += 1
    rest = value - offsets[k]
    for i in range(k, 0, -1):  # the largest place first: the largest p with C(p, i) <= rest
        p = i - 1
        while comb[i, p + 1] <= rest:
            p += 1
        if p >= n:
            return -1
        out[i - 1] = src[p]
        rest -= comb[i, p]
    return k
