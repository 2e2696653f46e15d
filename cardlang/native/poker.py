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

# COLEX[(r * 11 + i) * 11 + c]: what c cards of rank r, the first of them at place i of the ranks
# sorted lowest first, add to the multiset's colex index (see `_multiset_index`)
COLEX = np.array([sum(comb(r + i + j, i + j + 1) for j in range(c))
                  for r in range(13) for i in range(11) for c in range(11)], dtype=np.int64)
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
def _multiset_index(packed):
    """The multiset's place among those of its size: ranks r0 <= r1 <= ... as the distinct numbers
    r_i + i (stars and bars), ranked in colex order: the sum of C(r_i + i, i + 1). `packed`: 4 bits
    of count a rank, rank 0 lowest. (One table read a rank, no inner loop: measured 11 ns a 5-card
    hand against 41 ns adding binomials one card at a time.)"""
    i = 0
    idx = 0
    for r in range(13):
        c = (packed >> (4 * r)) & 15
        idx += COLEX[(r * 11 + i) * 11 + c]
        i += c
    return idx


@njit(cache=True)
def _take(packed, out_rank, out, k, tb, at):
    """The tiebreak `tb` with the k highest cards of the packed multiset written from its place `at`,
    `out[j]` cards of rank `out_rank[j]` taken out first (the cards of the groups): the runtime's
    `kickers` and `desc[:5]`, packed as `_pack` packs them, most significant first."""
    for r in range(12, -1, -1):
        if k == 0 or at >= 5:
            break
        c = (packed >> (4 * r)) & 15
        for j in range(2):
            if out_rank[j] == r:
                c -= out[j]
        while c > 0 and k > 0 and at < 5:
            tb |= r << (4 * (4 - at))
            at += 1
            k -= 1
            c -= 1
    return tb


@njit(cache=True)
def best(packed, suited, table):
    """The runtime's `Ranking._best`: the value of the best five cards of a rank multiset of 5 or
    more cards (`packed`: 4 bits of count a rank, rank 0 lowest), the categories tried highest
    first, each read greedily. Makes no array: the groups the categories need are the highest
    rank with five, four, three cards and the two highest with two (`ranks_with[n][0]` and
    `ranks_with[2][:2]` there), and the kickers are read off the counts."""
    top5 = top4 = top3 = pair1 = pair2 = -1
    mask = 0
    for r in range(12, -1, -1):
        c = (packed >> (4 * r)) & 15
        if c:
            mask |= 1 << r
            if c >= 5 and top5 < 0:
                top5 = r
            if c >= 4 and top4 < 0:
                top4 = r
            if c >= 3 and top3 < 0:
                top3 = r
            if c >= 2:
                if pair1 < 0:
                    pair1 = r
                elif pair2 < 0:
                    pair2 = r
    straight_high = -1
    for high in range(12, 3, -1):
        if (mask >> (high - 4)) & 0b11111 == 0b11111:
            straight_high = high
            break
    if straight_high < 0 and table[H_ACE_LOW] and mask & 0x100F == 0x100F:
        straight_high = 3  # the wheel: its top card is the 5
    none = (-1, -1)
    for i in range(table[H_NORDER]):
        cat = table[H_ORDER + i]
        tb = -1  # the tiebreak, when the category applies
        if cat == FIVE:
            if top5 >= 0:
                tb = top5 << 16
        elif cat == STRAIGHT_FLUSH:
            if suited and straight_high >= 0:
                tb = straight_high << 16
        elif cat == QUADS:
            if top4 >= 0:
                tb = _take(packed, (top4, -1), (4, 0), 1, top4 << 16, 1)
        elif cat == FULL_HOUSE:
            # trips and a pair of another rank: the first rank with two cards that is not the trips'
            if top3 >= 0:
                other = pair1 if pair1 != top3 else pair2
                if other >= 0:
                    tb = top3 << 16 | other << 12
        elif cat == FLUSH:
            if suited:
                tb = _take(packed, none, (0, 0), 5, 0, 0)
        elif cat == STRAIGHT:
            if straight_high >= 0:
                tb = straight_high << 16
        elif cat == TRIPS:
            if top3 >= 0:
                tb = _take(packed, (top3, -1), (3, 0), 2, top3 << 16, 1)
        elif cat == TWO_PAIR:
            if pair2 >= 0:
                tb = _take(packed, (pair1, pair2), (2, 2), 1, pair1 << 16 | pair2 << 12, 2)
        elif cat == PAIR:
            if pair1 >= 0:
                tb = _take(packed, (pair1, -1), (2, 0), 3, pair1 << 16, 1)
        elif cat == HIGH_CARD:
            tb = _take(packed, none, (0, 0), 5, 0, 0)
        if tb >= 0:
            return (np.int64(table[H_LEVEL + cat]) << 24) | (cat << 20) | tb
    return _take(packed, none, (0, 0), 5, 0, 0)  # level 0: no listed combination


@njit(cache=True)
def hand_value(cards, n, table):
    """The value of the best five cards of `cards[:n]` (5 to 10 card ids), as the runtime's
    `evaluate_value` gives it; -1 when n is not 5 to 10."""
    if n < 5 or n > 10:
        return -1
    # (no array is made on the common path: the counts are packed into ints, 4 bits a rank or suit,
    # which 10 cards never overflow)
    ranks = 0
    suits = 0
    base = table[H_CODES]
    for i in range(n):
        code = table[base + cards[i]]
        ranks += 1 << (4 * (code >> 2))
        suits += 1 << (4 * (code & 3))
    if n <= 7:
        value = np.int64(table[table[H_NF + n - 5] + _multiset_index(ranks)])
    else:
        value = best(ranks, False, table)
    for s in range(4):
        if (suits >> (4 * s)) & 15 < 5:
            continue
        m = 0
        repeated = False
        for i in range(n):
            code = table[base + cards[i]]
            if code & 3 == s:
                bit = 1 << (code >> 2)
                if m & bit:
                    repeated = True
                m |= bit
        if repeated:  # a rank twice in the suit (several decks): computed, as the runtime does
            suited = 0
            for i in range(n):
                code = table[base + cards[i]]
                if code & 3 == s:
                    suited += 1 << (4 * (code >> 2))
            v = best(suited, True, table)
        else:
            v = np.int64(table[table[H_FL] + m])
        if v > value:
            value = v
    return value
