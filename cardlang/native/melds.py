"""Melds' counting functions and deadwood in machine code: the same numbers as `cardlang.runtime.melds`.

Array conventions (what the native emitter passes):

- a set of cards is an int array of card ids (ids of the layout's `Deck`) and a count `n`: the
  cards are `cards[:n]`;
- the deck's tables as int arrays indexed by card id: `card_rank` and `card_suit` (`Deck.card_rank`,
  `Deck.card_suit`; a suit of -1 is a suitless card, a joker), and a card table (an order or a
  `values` table of the layout, `layout.orders[name]`: card id -> position or value);
- a result below 0 is a refusal the caller turns into the runtime's error (see each function).

`count_subsets`, `count_pairs`, `count_runs` and `longest_suit` are the runtime's functions of the
same names (the language's `subsets`, `pairs`, `runs` / `run_cards` and `longest_suit`), written
for numba: no dict, fixed arrays instead.

`deadwood(cards, n, table)` is `MeldRule.deadwood` (the language's `deadwood`) for the rules the
runtime values by its four-suit tables (four suits, no jokers, sets of at most 4 cards, at most 16
ranks: `MeldRule._four`, e.g. examples/knock_rummy.cards's declaration over the standard deck;
not a deck with copies or jokers): `table =
deadwood_table(rule)`, built once in Python from the layout's `layout.melds`, holds the runtime
rule's own tables (each suit mask's deadwood alone, the ranks some run could take, the sets a
rank may make), and the kernel makes the runtime's choices in the same order, TOO_MANY_WAYS
where the runtime raises its MeldError. Other rules are refused by `deadwood_table`, naming why.
`melded` and `layoffs` (which cards: the arrangement itself, with its tie-break by card ids) are
not here.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..runtime.melds import MAX_COMBINATIONS

NEGATIVE_VALUE = -1  # `subsets` met a value below 0: the runtime's MeldError ("adds up values of 0 or more")
TOO_MANY = -2  # `subsets` over more than MAX_SUBSET_CARDS cards: the count could pass int64
MAX_SUBSET_CARDS = 62  # at most 2**62 subsets: every count fits an int64
TOO_MANY_WAYS = -1  # `deadwood` has more set choices than the runtime tries (its MeldError)


@njit(cache=True)
def count_subsets(cards, n, values, total):
    """How many subsets of `cards[:n]` have `values[card]` adding up to `total` (`subsets`);
    NEGATIVE_VALUE for a card whose value is below 0, TOO_MANY past MAX_SUBSET_CARDS cards."""
    if total < 0:
        return 0
    if n > MAX_SUBSET_CARDS:
        return TOO_MANY
    ways = np.zeros(total + 1, dtype=np.int64)
    ways[0] = 1
    for i in range(n):
        v = values[cards[i]]
        if v < 0:
            return NEGATIVE_VALUE
        if v == 0:
            for s in range(total + 1):
                ways[s] *= 2
            continue
        for s in range(total, v - 1, -1):
            ways[s] += ways[s - v]
    return ways[total]


@njit(cache=True)
def count_pairs(cards, n, card_rank, card_suit):
    """How many pairs of cards of one rank `cards[:n]` holds, jokers (suit -1) left out (`pairs`)."""
    top = 0
    for i in range(n):
        if card_rank[cards[i]] > top:
            top = card_rank[cards[i]]
    counts = np.zeros(top + 1, dtype=np.int64)
    for i in range(n):
        c = cards[i]
        if card_suit[c] >= 0:
            counts[card_rank[c]] += 1
    total = 0
    for k in counts:
        total += k * (k - 1) // 2
    return total


@njit(cache=True)
def count_runs(cards, n, positions, length_weighted):
    """How many runs `cards[:n]` holds: 3 or more cards of consecutive `positions[card]` (0: outside
    the order; a `values` table may hold negative ones), one card a position, each as long as it
    can be; with `length_weighted` each run counts its cards (`runs`, `run_cards`)."""
    lo, hi, seen = 0, 0, False
    for i in range(n):
        p = positions[cards[i]]
        if p != 0:
            if not seen or p < lo:
                lo = p
            if not seen or p > hi:
                hi = p
            seen = True
    if not seen:
        return 0
    # counts[p - lo] for lo <= p <= hi, one more slot so that a stretch always ends on a zero
    # (position 0, inside when lo < 0 < hi, never counts: a stretch breaks there as in the runtime)
    counts = np.zeros(hi - lo + 2, dtype=np.int64)
    for i in range(n):
        p = positions[cards[i]]
        if p != 0:
            counts[p - lo] += 1
    total = 0
    at = 0
    while at <= hi - lo:
        if counts[at] == 0:
            at += 1
            continue
        length = 0
        ways = 1
        while counts[at + length]:
            ways *= counts[at + length]
            length += 1
        if length >= 3:
            total += ways * (length if length_weighted else 1)
        at += length
    return total


@njit(cache=True)
def longest_suit(cards, n, card_suit):
    """The number of cards of the suit `cards[:n]` holds most of, 0 for none (`longest_suit`)."""
    top = -1
    for i in range(n):
        if card_suit[cards[i]] > top:
            top = card_suit[cards[i]]
    if top < 0:
        return 0
    counts = np.zeros(top + 1, dtype=np.int64)
    for i in range(n):
        s = card_suit[cards[i]]
        if s >= 0:
            counts[s] += 1
    return counts.max()


# the header of a deadwood table: where its parts start (offsets into the same array)
D_WIDTH = 0  # bits a suit mask (the ranks)
D_SETMIN = 1  # cards a set needs (0: no sets)
D_NCARDS = 2  # the deck's size
D_CARDS = 3  # offset of each card's bit: suit * width + rank
D_DEAD = 4  # offset of dead[mask]: a suit mask's points less its best runs'
D_LOOSE = 5  # offset of loose[mask]: the ranks of the mask that some run inside it holds
D_CHOICES = 6  # offset of 257 offsets into the choice lists, by held << 4 | free
D_LIMIT = 7  # the runtime's MAX_COMBINATIONS, read when the table is built (in the table, not a
# global of this module: numba's cache of `deadwood` would keep an old global's value)
D_HEADER = 8


def deadwood_table(rule) -> np.ndarray:
    """The int64 table `deadwood` reads for a runtime `MeldRule` (the layout's `layout.melds`).
    Raises NotImplementedError naming what it cannot hold (the rules without the runtime's
    four-suit tables)."""
    if rule is None:
        raise NotImplementedError("native deadwood: the game declares no `melds`")
    if not getattr(rule, "_four", False) or rule._tables is None:
        raise NotImplementedError("native deadwood: only a deck of four suits, no jokers, sets of at most 4 cards "
                                  "and at most 16 ranks (the runtime's four-suit tables)")
    w = rule._width
    size = 1 << w
    dead = np.array(list(rule._dead), dtype=np.int64)
    loose = np.array(list(rule._loose), dtype=np.int64)
    assert len(dead) == len(loose) == size
    # each choice list as 4-bit suit patterns (the suits whose cards the set keeps), 0 for no set,
    # in the runtime's order: its lists hold the same as numbers of `spread` bits
    pattern = rule._pattern
    lists = [[pattern[x] if x else 0 for x in choices] for choices in rule._choices]
    offsets, data = [0], []
    for items in lists:
        data.extend(items)
        offsets.append(len(data))
    bits = [rule.card_suit[c] * w + rule.card_rank[c] for c in range(len(rule.card_rank))]
    header = np.zeros(D_HEADER, dtype=np.int64)
    header[D_WIDTH], header[D_SETMIN], header[D_NCARDS] = w, rule.set_min or 0, len(bits)
    header[D_LIMIT] = MAX_COMBINATIONS
    at = D_HEADER
    parts = [header]
    for slot, part in ((D_CARDS, bits), (D_DEAD, dead), (D_LOOSE, loose), (D_CHOICES, offsets)):
        header[slot] = at
        parts.append(np.array(part, dtype=np.int64))
        at += len(part)
    parts.append(np.array(data, dtype=np.int64))
    table = np.concatenate(parts)  # (the header's offsets were filled in above, before this copy)
    # the choice lists start after the offsets: make the offsets absolute
    first = header[D_CHOICES] + len(offsets)
    table[header[D_CHOICES]:first] += first
    return table


@njit(cache=True)
def _suits_dead(table, a, b, c, d):
    dead = table[D_DEAD]
    return table[dead + a] + table[dead + b] + table[dead + c] + table[dead + d]


@njit(cache=True)
def _without(masks, bit, kept):
    """The four suit masks less the cards of rank `bit` in the suits of the pattern `kept`."""
    return ((masks[0] & ~bit) if kept & 1 else masks[0], (masks[1] & ~bit) if kept & 2 else masks[1],
            (masks[2] & ~bit) if kept & 4 else masks[2], (masks[3] & ~bit) if kept & 8 else masks[3])


@njit(cache=True)
def deadwood(cards, n, table):
    """The points of the cards of `cards[:n]` the best arrangement leaves out of melds, as the
    runtime's `MeldRule.deadwood` gives it (a card given twice counts once); TOO_MANY_WAYS where
    the runtime raises its MeldError."""
    w = table[D_WIDTH]
    need = table[D_SETMIN]
    at = table[D_CARDS]
    m0 = m1 = m2 = m3 = 0
    for i in range(n):
        bit = table[at + cards[i]]
        s = bit // w
        r = np.int64(1) << (bit - s * w)
        if s == 0:
            m0 |= r
        elif s == 1:
            m1 |= r
        elif s == 2:
            m2 |= r
        else:
            m3 |= r
    a, b, c, d = m0, m1, m2, m3
    # the ranks with at least `need` cards (as the runtime reads them: 4 or more for 1, never met)
    if need == 3:
        sets = a & b & (c | d) | c & d & (a | b)
    elif need == 0:
        sets = 0
    elif need == 2:
        sets = (a | b) & (c | d) | a & b | c & d
    else:
        sets = a & b & c & d
    if sets == 0:
        return _suits_dead(table, a, b, c, d)
    choices = table[D_CHOICES]
    if sets & (sets - 1) == 0:
        # one rank: each set its cards can make (every card free) or none
        r = 0
        while not (sets >> r) & 1:
            r += 1
        held = (a >> r & 1) | (b >> r & 1) << 1 | (c >> r & 1) << 2 | (d >> r & 1) << 3
        k = held << 4 | held
        best = -1
        for j in range(table[choices + k], table[choices + k + 1]):
            x, y, z, t = _without((a, b, c, d), sets, table[j])
            got = _suits_dead(table, x, y, z, t)
            if best < 0 or got < best:
                best = got
        return best
    return _with_sets(table, (a, b, c, d), sets)


@njit(cache=True)
def _with_sets(table, masks, sets):
    """The runtime's `_deadwood_with_sets`: each rank that can make a set keeps its whole set when
    no run could take one of its cards, else tries the choices for the cards a run could take;
    the least deadwood over every combination of choices."""
    w = table[D_WIDTH]
    loose = table[D_LOOSE]
    choices = table[D_CHOICES]
    runnable = (table[loose + masks[0]], table[loose + masks[1]], table[loose + masks[2]], table[loose + masks[3]])
    ranks = np.empty(w, dtype=np.int64)  # the ranks with choices, and where their lists are
    starts = np.empty(w, dtype=np.int64)
    sizes = np.empty(w, dtype=np.int64)
    nopt = 0
    total = 1
    for r in range(w):
        bit = np.int64(1) << r
        if not sets & bit:
            continue
        held = (masks[0] >> r & 1) | (masks[1] >> r & 1) << 1 | (masks[2] >> r & 1) << 2 | (masks[3] >> r & 1) << 3
        free = ((runnable[0] >> r & 1) | (runnable[1] >> r & 1) << 1 | (runnable[2] >> r & 1) << 2
                | (runnable[3] >> r & 1) << 3)
        if free == 0:  # no card of the rank can be in a run: the whole set it is
            masks = _without(masks, bit, table[table[choices + (held << 4)]])
            continue
        k = held << 4 | free
        ranks[nopt] = r
        starts[nopt] = table[choices + k]
        sizes[nopt] = table[choices + k + 1] - table[choices + k]
        total *= sizes[nopt]
        nopt += 1
    if total > table[D_LIMIT]:
        return TOO_MANY_WAYS
    # every combination of one choice a rank, in mixed radix
    digit = np.zeros(max(nopt, 1), dtype=np.int64)
    best = -1
    for _ in range(total):
        x = masks
        for j in range(nopt):
            x = _without(x, np.int64(1) << ranks[j], table[starts[j] + digit[j]])
        got = _suits_dead(table, x[0], x[1], x[2], x[3])
        if best < 0 or got < best:
            best = got
        j = 0
        while j < nopt:
            digit[j] += 1
            if digit[j] < sizes[j]:
                break
            digit[j] = 0
            j += 1
    return best
