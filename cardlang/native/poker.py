"""Poker hand values in machine code: the same ints as `cardlang.runtime.poker.Ranking.evaluate_value`.

Array conventions (what the native emitter passes):

- a hand is an int array of card ids (ids of the layout's `Deck`, as in every zone) and a count
  `n`: the hand is `cards[:n]`, 5 to 10 cards, copies allowed (several decks shuffled together);
- a ranking is one int32 array, `table = ranking_table(ranking, codes)`, built once in Python from
  the layout's `layout.rankings[name]`, which is the pair `(Ranking, codes)`: `codes[id]` is the
  evaluator's code `rank_index * 4 + suit` of a card (see `compiler/layout.py`);
- `hand_value(cards, n, table)` is the value `ranking.evaluate_value([codes[c] for c in hand])`
  gives (`level << 24 | category << 20 | tiebreak`, see `runtime/poker.py`), or -1 when `n` is
  not 5 to 10 (the engines' rule error `effects.poker_hand_size`, which the caller raises).
  Card ids are not checked: they are a zone's, so ids of the deck.

How it stays equal to the runtime: the table holds the runtime ranking's own lookup tables, read
once: the value of every rank multiset of 5, 6 and 7 cards (the runtime's `_nf`, here indexed by
the multiset's place in colex order instead of a base-11 key, which has no dense form) and the
value of every suited rank mask (`_fl`). What the runtime computes rather than looks up -- 8 to 10
cards, and a suit holding one rank twice -- runs through `_best`, the runtime's greedy
classification, written here for numba. So a hand takes the runtime's own path, step for step:
the multiset's value, then for each suit of five cards or more the better of that and the suit's.

The runtime supports no wild cards (the checker refuses jokers and suitless cards in a ranked
deck: `lang/decks.ranking_problem`); `ranking_table` refuses, naming it, anything its tables
cannot hold (an object that is not a `Ranking`, a code outside the 52 of 13 ranks and 4 suits).
"""

from __future__ import annotations

from math import comb

import numpy as np
from numba import njit

from ..runtime.poker import CATEGORIES, Ranking

_NUM_RANKS = 13
_BASE = 11  # the runtime's base-11 rank-count keys

# the header of a table: where its parts start (offsets into the same array)
H_ACE_LOW = 0  # 1: A-2-3-4-5 is a straight
H_NORDER = 1  # how many categories the classification tries
H_NCODES = 2  # how many card ids `codes` covers (the deck's size)
H_CODES = 3  # offset of codes[id]
H_NF = 4  # offsets of the 5-, 6- and 7-card multiset values (3 slots)
H_FL = 7  # offset of the 8192 suited-mask values (-1: fewer than five ranks)
H_ORDER = 8  # 10 slots: the category indexes, highest first (-1 after the last)
H_LEVEL = 18  # 10 slots: the level of each category index (-1: not in the ranking)
HEADER = 28

# category indexes (positions in CATEGORIES: the value's category bits)
_C = {name: i for i, name in enumerate(CATEGORIES)}
HIGH_CARD, PAIR, TWO_PAIR, TRIPS = _C["high_card"], _C["pair"], _C["two_pair"], _C["three_of_a_kind"]
STRAIGHT, FLUSH, FULL_HOUSE = _C["straight"], _C["flush"], _C["full_house"]
QUADS, STRAIGHT_FLUSH, FIVE = _C["four_of_a_kind"], _C["straight_flush"], _C["five_of_a_kind"]

# BINOM[n, k] = C(n, k), for the colex index of a multiset (n < 20, k <= 7)
BINOM = np.array([[comb(n, k) for k in range(8)] for n in range(20)], dtype=np.int64)
_SIZES = (5, 6, 7)  # multisets the runtime's dict holds for every ranking


def multiset_count(size: int) -> int:
    """How many multisets of `size` ranks of 13 there are (the length of that part of the table)."""
    return comb(size + _NUM_RANKS - 1, size)


def ranking_table(ranking, codes) -> np.ndarray:
    """The int32 table `hand_value` reads for a runtime `Ranking` and the layout's `codes`
    (card id -> `rank_index * 4 + suit`). Raises NotImplementedError naming what it cannot hold."""
    if not isinstance(ranking, Ranking):
        raise NotImplementedError(f"native poker values: {type(ranking).__name__} is not a runtime poker Ranking")
    codes = [int(c) for c in codes]
    bad = [c for c in codes if not 0 <= c < 4 * _NUM_RANKS]
    if bad:
        raise NotImplementedError(f"native poker values: card code {bad[0]} is outside the 13 ranks and 4 suits "
                                  "the evaluator knows")
    parts = {size: np.full(multiset_count(size), -1, dtype=np.int64) for size in _SIZES}
    for key, value in ranking._nf.items():  # the runtime's own values (and its memo of 8-10 cards, not used)
        counts, k = [], key
        for _ in range(_NUM_RANKS):
            counts.append(k % _BASE)
            k //= _BASE
        size = sum(counts)
        if size in parts:
            parts[size][_index_of_counts(counts)] = value
    for size, part in parts.items():
        if (part < 0).any():  # pragma: no cover - the runtime fills every multiset of these sizes
            raise NotImplementedError(f"native poker values: the ranking has no value for some {size}-card hands")
    fl = np.array([-1 if v is None else v for v in ranking._fl], dtype=np.int64)
    order = [_C[name] for name in ranking._order]
    level = [-1] * len(CATEGORIES)
    for name, lv in ranking._level_of.items():
        level[_C[name]] = lv
    header = [0] * HEADER
    header[H_ACE_LOW] = int(ranking.ace_low_straight)
    header[H_NORDER] = len(order)
    header[H_NCODES] = len(codes)
    header[H_ORDER:H_ORDER + 10] = order + [-1] * (10 - len(order))
    header[H_LEVEL:H_LEVEL + 10] = level
    pieces = [np.array(header, dtype=np.int64), np.array(codes, dtype=np.int64)]
    at = HEADER + len(codes)
    header[H_CODES] = HEADER
    for i, size in enumerate(_SIZES):
        header[H_NF + i] = at
        pieces.append(parts[size])
        at += len(parts[size])
    header[H_FL] = at
    pieces.append(fl)
    pieces[0] = np.array(header, dtype=np.int64)
    table = np.concatenate(pieces)
    assert table.max() < 2**31
    return table.astype(np.int32)


def _index_of_counts(counts) -> int:
    """The colex index of a rank multiset (Python twin of `_multiset_index`, for building)."""
    i, idx = 0, 0
    for r, c in enumerate(counts):
        for _ in range(c):
            idx += comb(r + i, i + 1)
            i += 1
    return idx


@njit(cache=True)
def _multiset_index(counts):
    """The multiset's place among those of its size: ranks r0 <= r1 <= ... as the distinct numbers
    r_i + i (stars and bars), ranked in colex order."""
    i = 0
    idx = 0
    for r in range(13):
        for _ in range(counts[r]):
            idx += BINOM[r + i, i + 1]
            i += 1
    return idx


@njit(cache=True)
def _pack(tb, k):
    """Up to five rank indexes into a tiebreak, most significant first (the runtime's `_pack`)."""
    out = 0
    for i in range(k):
        out |= tb[i] << (4 * (4 - i))
    return out


@njit(cache=True)
def _kickers(desc, ndesc, used, nused, tb, at, k):
    """Write into tb[at:] the k highest cards of desc left once the `used` ranks (one card each
    entry) are taken out; return the new length of tb."""
    rem = np.zeros(13, dtype=np.int64)
    for i in range(nused):
        rem[used[i]] += 1
    for i in range(ndesc):
        if at >= 5 or k == 0:
            break
        r = desc[i]
        if rem[r] > 0:
            rem[r] -= 1
            continue
        tb[at] = r
        at += 1
        k -= 1
    return at


@njit(cache=True)
def best(counts, suited, table):
    """The runtime's `Ranking._best`: the value of the best five cards of a rank multiset (5 or more
    cards), the categories tried highest first, each read greedily."""
    desc = np.empty(10, dtype=np.int64)
    nd = 0
    ranks_with = np.empty((6, 13), dtype=np.int64)  # [n]: ranks with at least n cards, highest first
    nwith = np.zeros(6, dtype=np.int64)
    mask = 0
    for r in range(12, -1, -1):
        c = counts[r]
        if c:
            for _ in range(c):
                if nd < 10:
                    desc[nd] = r
                nd += 1
            mask |= 1 << r
            for n in range(2, min(c, 5) + 1):
                ranks_with[n, nwith[n]] = r
                nwith[n] += 1
    nd = min(nd, 10)
    straight_high = -1
    for high in range(12, 3, -1):
        if (mask >> (high - 4)) & 0b11111 == 0b11111:
            straight_high = high
            break
    if straight_high < 0 and table[H_ACE_LOW] and mask & 0x100F == 0x100F:
        straight_high = 3  # the wheel: its top card is the 5
    tb = np.empty(5, dtype=np.int64)
    used = np.empty(4, dtype=np.int64)
    for i in range(table[H_NORDER]):
        cat = table[H_ORDER + i]
        k = -1  # the tiebreak's length when the category applies
        if cat == FIVE:
            if nwith[5]:
                tb[0] = ranks_with[5, 0]
                k = 1
        elif cat == STRAIGHT_FLUSH:
            if suited and straight_high >= 0:
                tb[0] = straight_high
                k = 1
        elif cat == QUADS:
            if nwith[4]:
                q = ranks_with[4, 0]
                tb[0] = q
                used[:4] = q
                k = _kickers(desc, nd, used, 4, tb, 1, 1)
        elif cat == FULL_HOUSE:
            if nwith[3]:
                t = ranks_with[3, 0]
                for j in range(nwith[2]):
                    if ranks_with[2, j] != t:
                        tb[0] = t
                        tb[1] = ranks_with[2, j]
                        k = 2
                        break
        elif cat == FLUSH:
            if suited:
                k = min(nd, 5)
                tb[:k] = desc[:k]
        elif cat == STRAIGHT:
            if straight_high >= 0:
                tb[0] = straight_high
                k = 1
        elif cat == TRIPS:
            if nwith[3]:
                t = ranks_with[3, 0]
                tb[0] = t
                used[:3] = t
                k = _kickers(desc, nd, used, 3, tb, 1, 2)
        elif cat == TWO_PAIR:
            if nwith[2] >= 2:
                hi = ranks_with[2, 0]
                lo = ranks_with[2, 1]
                tb[0] = hi
                tb[1] = lo
                used[0] = hi
                used[1] = hi
                used[2] = lo
                used[3] = lo
                k = _kickers(desc, nd, used, 4, tb, 2, 1)
        elif cat == PAIR:
            if nwith[2]:
                p = ranks_with[2, 0]
                tb[0] = p
                used[:2] = p
                k = _kickers(desc, nd, used, 2, tb, 1, 3)
        elif cat == HIGH_CARD:
            k = min(nd, 5)
            tb[:k] = desc[:k]
        if k >= 0:
            return (table[H_LEVEL + cat] << 24) | (cat << 20) | _pack(tb, k)
    k = min(nd, 5)
    tb[:k] = desc[:k]
    return _pack(tb, k)  # level 0: no listed combination


@njit(cache=True)
def hand_value(cards, n, table):
    """The value of the best five cards of `cards[:n]` (5 to 10 card ids), as the runtime's
    `evaluate_value` gives it; -1 when n is not 5 to 10."""
    if n < 5 or n > 10:
        return -1
    counts = np.zeros(13, dtype=np.int64)
    in_suit = np.zeros(4, dtype=np.int64)
    base = table[H_CODES]
    for i in range(n):
        code = table[base + cards[i]]
        counts[code >> 2] += 1
        in_suit[code & 3] += 1
    if n <= 7:
        value = np.int64(table[table[H_NF + n - 5] + _multiset_index(counts)])
    else:
        value = best(counts, False, table)
    for s in range(4):
        if in_suit[s] < 5:
            continue
        suited = np.zeros(13, dtype=np.int64)
        m = 0
        repeated = False
        for i in range(n):
            code = table[base + cards[i]]
            if code & 3 == s:
                r = code >> 2
                suited[r] += 1
                if m >> r & 1:
                    repeated = True
                m |= 1 << r
        if repeated:  # a rank twice in the suit (several decks): computed, as the runtime does
            v = best(suited, True, table)
        else:
            v = np.int64(table[table[H_FL] + m])
        if v > value:
            value = v
    return value
