"""A choice of a set of cards (`a set cs of 2 to 4 cards from hand(p) where …`): its values, one int
each, and the sets they stand for.

The value of a set is its rank in a fixed numbering of the subsets of the source's places: the
source (a zone, bottom first, or a list of cards) holds at most `MAX_SOURCE` cards, place i being
its i-th card from 0; the sets of `low` places come first, then those of `low + 1`, …; the sets of
one size are numbered by the combinatorial number system (places p0 < p1 < … < pk-1 make
C(p0, 1) + C(p1, 2) + … + C(pk-1, k)). So a set of 1 to 16 cards of 16 places has a value below
2^16, which an action id holds; `width(low, high)` is how many values there are, the research
adapters' run of indices. A value names places, not cards: it says which of the cards lying there
now, and a set is worked out from the source as it is when the choice is made.

`sets(cards, low, high)` goes through the sets lazily, smallest first and, within a size, in the
order of `itertools.combinations` (by place): a filter tried on each is all that is kept, nothing
is built for the sets it refuses (benchmarks/bench_card_sets.py).
"""

from __future__ import annotations

from itertools import combinations
from math import comb

from ..lang.vocabulary import MAX_SET_SOURCE as MAX_SOURCE  # the most cards a set is chosen from: a value keeps in 16 bits
from .basics import RuleError

_OFFSETS = {(low, k): sum(comb(MAX_SOURCE, j) for j in range(low, k)) for low in range(1, MAX_SOURCE + 1)
            for k in range(low, MAX_SOURCE + 1)}


# _PLACE[i][p]: what place p adds to the value of a set in which it is the (i+1)-th place, C(p, i + 1)
_PLACE = tuple(tuple(comb(p, i + 1) for p in range(MAX_SOURCE)) for i in range(MAX_SOURCE))


def width(low: int, high: int) -> int:
    """How many values a choice of `low` to `high` cards has: every set of those sizes of 16 places."""
    return sum(comb(MAX_SOURCE, k) for k in range(low, high + 1))


def value_of(places: tuple, low: int) -> int:
    """The value of the set of `places` (increasing) in a choice of `low` cards or more."""
    return _OFFSETS[(low, len(places))] + sum(comb(p, i + 1) for i, p in enumerate(places))


def places_of(value: int, low: int) -> tuple:
    """The places (increasing) a value stands for, in a choice of `low` cards or more."""
    k = low
    while k < MAX_SOURCE and value >= _OFFSETS[(low, k + 1)]:
        k += 1
    rest, out = value - _OFFSETS[(low, k)], []
    for i in range(k, 0, -1):  # the largest place first: the largest p with C(p, i) <= rest
        p = i - 1
        while comb(p + 1, i) <= rest:
            p += 1
        out.append(p)
        rest -= comb(p, i)
    return tuple(reversed(out))


def checked(cards, span=None) -> tuple:
    """The source of a choice of a set as a tuple, or a rule error when it holds more than 16 cards."""
    cards = tuple(cards)
    if len(cards) > MAX_SOURCE:
        raise RuleError(f"a set of cards is chosen from at most {MAX_SOURCE} cards, not {len(cards)}", span)
    return cards


def sets(cards: tuple, low: int, high: int):
    """Each set of `low` to `high` cards of `cards` (at most 16), lazily: (its value, its cards)."""
    for k in range(low, min(high, len(cards)) + 1):
        offset = _OFFSETS[(low, k)]
        adds = _PLACE[:k]
        for places in combinations(range(len(cards)), k):
            yield offset + sum(map(tuple.__getitem__, adds, places)), tuple(map(cards.__getitem__, places))


def subset(cards: tuple, value: int, low: int) -> tuple:
    """The cards a value stands for among `cards` (the source as it was when the choice was made)."""
    return tuple(cards[p] for p in places_of(value, low))


_COUNTS = {2: "pair of", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}


def words(deck, cards: tuple, mark, combos=None) -> str:
    """The label of a set as a person says it: cards of one rank by their count and rank, then the
    cards (`pair of 7s: 7♠, 7♥`, `three Ks: …`), other sets by their cards (`3♣, 4♣`); `mark(i)` stands
    for the i-th card (each seat reads the cards it knows). In a game with `combinations`
    (`combos`, a `runtime.climbing.ClimbRule`), a combination by its kind: `run 3-7: …`, `bomb of 9s: …`."""
    shown = ", ".join(mark(i) for i in range(len(cards)))  # (as a text shows cards: `{cs}`)
    said = combos.words(cards) if combos is not None else None
    if said is not None:
        return f"{said}: {shown}"
    ranks = {deck.card_rank[c] for c in cards}
    if len(cards) >= 2 and len(ranks) == 1 and len(cards) in _COUNTS:
        return f"{_COUNTS[len(cards)]} {deck.rank_name(cards[0])}s: {shown}"
    return shown
