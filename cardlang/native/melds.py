"""The counting functions of melds in machine code: the same numbers as `cardlang.runtime.melds`.

Array conventions (what the native emitter passes):

- a set of cards is an int array of card ids (ids of the layout's `Deck`) and a count `n`: the
  cards are `cards[:n]`;
- the deck's tables as int arrays indexed by card id: `card_rank` and `card_suit` (`Deck.card_rank`,
  `Deck.card_suit`; a suit of -1 is a suitless card, a joker), and a card table (an order or a
  `values` table of the layout, `layout.orders[name]`: card id -> position or value);
- a result below 0 is a refusal the caller turns into the runtime's error (see each function).

`count_subsets`, `count_pairs`, `count_runs` and `longest_suit` are the runtime's functions of the
same names (the language's `subsets`, `pairs`, `runs` / `run_cards` and `longest_suit`), written
for numba: no dict, fixed arrays instead. The arrangement functions (`melded`, `deadwood`,
`layoffs`) depend on a `MeldRule`'s memoised search and are not here.
"""

from __future__ import annotations

import numpy as np
from numba import njit

NEGATIVE_VALUE = -1  # `subsets` met a value below 0: the runtime's MeldError ("adds up values of 0 or more")
TOO_MANY = -2  # `subsets` over more than MAX_SUBSET_CARDS cards: the count could pass int64
MAX_SUBSET_CARDS = 62  # at most 2**62 subsets: every count fits an int64


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
