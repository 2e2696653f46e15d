"""Game-agnostic poker hand evaluation driven by a *ranking*.

A :class:`Ranking` says which hand categories exist and in which order
(vocabulary: ``high_card``, ``pair``, ``two_pair``, ``three_of_a_kind``,
``straight``, ``flush``, ``full_house``, ``four_of_a_kind``,
``straight_flush``, ``five_of_a_kind``) and whether the ace may play low in a
straight (A-2-3-4-5).  ``ranking.evaluate(cards)`` returns the value of the
best five-card hand that can be made from 5 to 10 cards.  Ties inside a
category are broken by ranks as in poker (the ranks of the groups first, then
the kickers)::

    >>> from cardlang.poker import Ranking
    >>> std = Ranking.standard()
    >>> v = std.evaluate(["As", "Ks", "Qs", "Js", "Ts", "2c", "2d"])
    >>> v.category, std.describe(v)
    ('straight_flush', 'straight flush')
    >>> no_flush = Ranking.from_categories(
    ...     ["straight_flush", "four_of_a_kind", "full_house", "three_of_a_kind",
    ...      "straight", "two_pair", "pair"])
    >>> no_flush.evaluate(["As", "9s", "7s", "4s", "2s"]).category
    'high_card'

Values
------
A value is an ``int``: higher is better, equal hands get equal values, and
values of the same ranking are totally ordered.  Layout:
``level << 24 | category << 20 | tiebreak`` where ``level`` is the category's
position from the bottom in this ranking (0 is always "no combination", i.e.
high card, even if the ranking does not list ``high_card``), ``category`` is
the category's index in :data:`CATEGORIES` (so a value names its category by
itself), and ``tiebreak`` packs up to five rank indexes, four bits each, most
significant first.  Values stay below 2**28: small, single-digit ints.
Values of different rankings must not be compared with each other.

``ranking.evaluate(cards)`` returns a :class:`HandValue`, an ``int`` subclass
with a ``.category`` attribute.  The instances are created once, when the
ranking is built, and its lookup tables hold them directly, so returning them
costs nothing per call (measured: within noise, 1-3%, of the plain-int path).
``ranking.evaluate_value(codes)`` is the same evaluation over twin tables of
exact ``int`` objects, the cheapest to sort and hash (``list.sort`` has a fast
path for exact ints only); use it in bulk simulations.  Both accept ids and
card strings.  ``ranking.category_of(value)`` and ``ranking.describe(value)``
work on either.

Cards and codes
---------------
The fast entry points take *codes*: ``code = rank_index * 4 + suit_index``,
where ``rank_index`` is the card's position 0..12 in the ranking's rank order
(0 is the lowest rank, 12 the highest, the one that plays low when
``ace_low_straight`` is set: the low straight is ranks 12, 0, 1, 2, 3) and
``suit_index`` is 0..3.  For the standard 52-card deck (ranks 2 3 4 5 6 7 8 9
10 J Q K A, suits c d h s) the code of a card equals its runtime card id, so
ids are passed as they are; :func:`card_id` gives the id of ``"As"`` etc.
Other decks are mapped by the engine: e.g. a 32-card deck (7 .. A) uses rank
indexes 5..12, so that the ace keeps index 12.

Card strings are accepted too, by the same functions: two characters
(``"As"``, ``"Td"``, ``"7h"``, ``"2c"``; ``"10h"`` as well; rank letters and
suit letters in either case; the suit symbols ♣♦♥♠ too).  Codes may repeat
(several decks shuffled together): that is how ``five_of_a_kind`` or a flush
containing a pair can happen.

How it is fast (pure Python)
----------------------------
Each card maps, by one list index, to an integer weight ``11**rank_index << 16
| 1 << 4*suit_index``; the weights of the hand are added (inline for 5, 6 and
7 cards, ``sum(map(...))`` for 8 to 10).  The high part of the sum is a
base-11 rank-count vector -- a key of the rank multiset, unique for up to 10
cards -- and the low 16 bits are four suit counters, biased to start at 3 so
that bit 3 of a counter is set exactly when that suit has five or more cards.
If no suit has five cards, the answer is one dict lookup keyed by the rank
multiset.  That dict is filled when the ranking is built, for every rank
multiset of 5, 6 and 7 cards (75 140 of them): 5-card ones are classified
directly, bigger ones take the best of the multisets with one card fewer.
When a suit has five or more cards, a second sum gives that suit's 13-bit
rank mask and an 8192-entry table gives the best hand of those suited ranks;
the answer is the better of that and the rank-multiset value (a 5-card hand
never loses value by being suited, so this is exactly the best hand).  Card
strings, 8 to 10 cards seen for the first time, repeated cards inside a long
suit and invalid input take a slower general path, which validates and
memoises 8-10 card results in the same dict.  Building a ranking takes about
0.2 s.  Measured on the benchmark machine (``benchmarks/bench_poker.py``):
about 2.7 million 5-card and 1.7 million 7-card evaluations per second,
against 1.6 million and 90 000 for treys.
"""

from __future__ import annotations

from itertools import chain, combinations, combinations_with_replacement
from operator import itemgetter
from typing import Iterable, Sequence

__all__ = [
    "CATEGORIES",
    "STANDARD_CATEGORIES",
    "HandValue",
    "Ranking",
    "card_id",
    "card_str",
]

#: The fixed vocabulary of category names, from lowest to highest in standard poker (five of a
#: kind is above a straight flush when used); `check` reads it without loading the evaluator.
from ..lang.vocabulary import CATEGORIES  # noqa: E402

#: The usual nine categories, highest first (the order taken by
#: :meth:`Ranking.from_categories`).
STANDARD_CATEGORIES: tuple[str, ...] = tuple(reversed(CATEGORIES[:-1]))
_CATEGORY_INDEX = {name: i for i, name in enumerate(CATEGORIES)}

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "cdhs"

_LEVEL_SHIFT = 24          # value = level << 24 | category << 20 | tiebreak
_CATEGORY_SHIFT = 20       # tiebreak: 5 ranks x 4 bits
_NUM_RANKS = 13
_BASE = 11                 # rank-count digit base: counts up to 10 never carry
_MAX_CARDS = 10
_MIN_CARDS = 5
_SUIT_BIAS = 0x3333        # each 4-bit suit counter starts at 3 ...
_FLUSH_BITS = 0x8888       # ... so bit 3 is set iff the suit has >= 5 cards
_PRECOMPUTED_SIZES = (6, 7)  # multisets of 5 cards and of these sizes are in the table
_MEMO_LIMIT = 250_000      # cap on 8-10 card entries memoised per ranking (~40 MB)

_RANK_POW = [_BASE**r for r in range(_NUM_RANKS)]


# --------------------------------------------------------------------------
# Cards
# --------------------------------------------------------------------------

def _card_aliases() -> dict[object, int]:
    """Map every accepted spelling of a standard card (and every id) to its code."""
    rank_spellings: list[list[str]] = []
    for ch in RANK_CHARS:
        spellings = {ch, ch.lower()}
        if ch == "T":
            spellings.add("10")
        rank_spellings.append(sorted(spellings))
    suit_spellings = [
        ["c", "C", "\u2663", "\u2667"],
        ["d", "D", "\u2666", "\u2662"],
        ["h", "H", "\u2665", "\u2661"],
        ["s", "S", "\u2660", "\u2664"],
    ]
    table: dict[object, int] = {}
    for r, rs in enumerate(rank_spellings):
        for s, ss in enumerate(suit_spellings):
            code = r * 4 + s
            table[code] = code
            for a in rs:
                for b in ss:
                    table[a + b] = code
    return table


_CODE_OF: dict[object, int] = _card_aliases()


def card_id(card: str) -> int:
    """Return the runtime id of a standard 52-card deck card, e.g. ``card_id("As") == 51``.

    ``card_id = rank_index * 4 + suit_index`` with ranks 2..A as 0..12 and
    suits c, d, h, s as 0..3; ``"10h"`` and ``"Th"`` are the same card.
    Raises ``ValueError`` for anything else.
    """
    if isinstance(card, str):
        code = _CODE_OF.get(card.strip())
        if code is not None:
            return code
    raise ValueError(f"not a card of the standard deck: {card!r}")


def card_str(code: int) -> str:
    """Return the two-character name of a standard card id (inverse of :func:`card_id`)."""
    if not isinstance(code, int) or not 0 <= code < 52:
        raise ValueError(f"not a standard card id: {code!r}")
    return RANK_CHARS[code >> 2] + SUIT_CHARS[code & 3]


def _to_code(card: object) -> int:
    """Return the code of an id or card string, or raise ``ValueError``."""
    try:
        code = _CODE_OF.get(card)
    except TypeError:  # unhashable
        code = None
    if code is None:
        raise ValueError(
            f"not a card: {card!r} (expected a code 0..51 or a string such as 'As', '10h')"
        )
    return code


# --------------------------------------------------------------------------
# Values
# --------------------------------------------------------------------------

class HandValue(int):
    """The value of a hand: an ``int`` (higher is better) with a ``.category`` name.

    Instances are created once per distinct value when a ranking is built and
    shared afterwards.  The category is read from the value's own bits, so an
    instance holds nothing but the number (no ``__dict__``; it pickles as
    one).  Arithmetic gives plain ints; ``json.dumps`` writes the number;
    comparisons are those of ``int``.
    """

    __slots__ = ()

    @property
    def category(self) -> str:
        """The category's name, e.g. ``"full_house"``."""
        return CATEGORIES[(self >> _CATEGORY_SHIFT) & 15]


# --------------------------------------------------------------------------
# Rankings
# --------------------------------------------------------------------------

def _pack(ranks: Sequence[int]) -> int:
    """Pack up to five rank indexes into a tiebreak, most significant first."""
    tb = 0
    for i, r in enumerate(ranks):
        tb |= r << (4 * (4 - i))
    return tb


class Ranking:
    """A poker hand ranking: which categories exist, their order, ace-low straights.

    Build one with :meth:`standard` or :meth:`from_categories` (both cached,
    so a game that loads twice builds its tables once).  Calling the class
    directly always builds fresh tables (about 0.2 s).

    Public attributes: ``categories`` (names, highest first, as given),
    ``ace_low_straight``, and the methods :meth:`evaluate`,
    :meth:`evaluate_value`, :meth:`category_of`, :meth:`describe`.
    """

    _cache: dict[tuple[tuple[str, ...], bool], "Ranking"] = {}

    def __init__(self, categories: Iterable[str], ace_low_straight: bool = True):
        names = tuple(categories)
        _check_categories(names)
        self.categories: tuple[str, ...] = names
        self.ace_low_straight: bool = bool(ace_low_straight)
        # Level 0 is always "no combination"; listed categories above it.
        listed = [n for n in reversed(names) if n != "high_card"]
        self._level_names: tuple[str, ...] = ("high_card", *listed)
        self._level_of: dict[str, int] = {n: i for i, n in enumerate(self._level_names)}
        # Highest first, for classification: the first one a hand satisfies wins.
        self._order: tuple[str, ...] = tuple(reversed(self._level_names))
        self._build()

    # -- construction -----------------------------------------------------

    @classmethod
    def standard(cls) -> "Ranking":
        """Return the usual nine-category ranking (A-2-3-4-5 is a straight)."""
        return cls.from_categories(STANDARD_CATEGORIES, ace_low_straight=True)

    @classmethod
    def from_categories(cls, names: Iterable[str], ace_low_straight: bool = True) -> "Ranking":
        """Return the ranking with these categories, listed highest first, in snake case.

        Categories left out do not exist: a hand of that shape scores as the
        best listed category it still satisfies (a flush without ``flush``
        scores by its ranks, as high card unless it holds more).  Hands with no
        listed combination rank below every listed category, whether or not
        ``high_card`` is listed (if listed it must come last).  With
        ``ace_low_straight`` the top rank also plays below the lowest, so
        A-2-3-4-5 is a straight (the lowest one).
        """
        key = (tuple(names), bool(ace_low_straight))
        ranking = cls._cache.get(key)
        if ranking is None:
            ranking = cls(key[0], key[1])
            cls._cache[key] = ranking
        return ranking

    def __reduce__(self):
        """Pickle (and copy) by definition: the tables hold closures and are rebuilt, or taken from the cache."""
        return (Ranking.from_categories, (self.categories, self.ace_low_straight))

    def __repr__(self) -> str:
        return (
            f"Ranking.from_categories({list(self.categories)!r}, "
            f"ace_low_straight={self.ace_low_straight!r})"
        )

    # -- the public evaluation API (replaced per instance by fast closures) --

    def evaluate(self, cards: Sequence[object]) -> HandValue:
        """Return the value of the best 5-card hand in ``cards`` (5 to 10 cards).

        ``cards`` is a list or tuple of codes/ids or card strings (other
        iterables work, on the slow path); repeats are allowed.  The result
        is a :class:`HandValue` (an ``int`` with ``.category``).  Raises
        ``ValueError`` for fewer than 5 or more than 10 cards or an unknown
        card.
        """
        return self.evaluate(cards)  # pragma: no cover - shadowed in __init__

    def evaluate_value(self, codes: Sequence[object]) -> int:
        """Like :meth:`evaluate` but return a plain ``int`` (exact type)."""
        return self.evaluate_value(codes)  # pragma: no cover - shadowed in __init__

    def category_of(self, value: int) -> str:
        """Return the category name of a value produced by this ranking."""
        try:
            name = CATEGORIES[(value >> _CATEGORY_SHIFT) & 15]
            if value < 0 or self._level_names[value >> _LEVEL_SHIFT] != name:
                raise IndexError
            return name
        except (IndexError, TypeError):
            raise ValueError(f"not a hand value of this ranking: {value!r}") from None

    def ranks_of(self, value: int) -> tuple[int, ...]:
        """Return the five rank indexes (0..12) of the hand behind ``value``, best group first.

        E.g. a full house of kings over sevens gives ``(11, 11, 11, 5, 5)``; a
        wheel gives ``(3, 2, 1, 0, 12)``.
        """
        category = self.category_of(value)
        tb = value & ((1 << _CATEGORY_SHIFT) - 1)
        digits = [(tb >> (4 * (4 - i))) & 15 for i in range(5)]
        if category in ("straight", "straight_flush"):
            high = digits[0]
            if high == 3:  # only the wheel ends on a 5
                return (3, 2, 1, 0, 12)
            return tuple(range(high, high - 5, -1))
        shape = _SHAPES[category]
        out: list[int] = []
        for size, r in zip(shape, digits):
            out.extend([r] * size)
        return tuple(out)

    def describe(self, value: int, detail: bool = False, rank_names: Sequence[str] | None = None) -> str:
        """Return a human label for a value: ``"full house"``.

        With ``detail=True`` the five ranks follow, e.g. ``"full house: K K K 7 7"``;
        ``rank_names`` (13 labels, lowest first) replaces ``2 .. A``.
        """
        label = self.category_of(value).replace("_", " ")
        if not detail:
            return label
        names = rank_names or ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
        return label + ": " + " ".join(names[r] for r in self.ranks_of(value))

    # -- the tables -------------------------------------------------------

    def _best(self, counts: Sequence[int], suited: bool) -> int:
        """Value of the best 5-card hand in a multiset of ranks (5 or more cards).

        ``counts[r]`` is the number of cards of rank index ``r``; ``suited``
        says all the cards are of one suit (so any five of them are a flush).
        For each category, highest first, the best reading is built greedily:
        the highest ranks that can form its groups, then the highest remaining
        cards as kickers; group ranks come first in the tiebreak, so greedy is
        optimal.  The first category the cards satisfy gives the value.

        Used to build the tables and on the slow path, never per hot call.
        """
        desc: list[int] = []       # every card's rank, highest first
        ranks_with: list[list[int]] = [[], [], [], [], [], []]  # [n]: ranks with >= n cards
        mask = 0                    # ranks present
        for r in range(_NUM_RANKS - 1, -1, -1):
            c = counts[r]
            if c:
                desc += [r] * c
                mask |= 1 << r
                for n in range(2, min(c, 5) + 1):
                    ranks_with[n].append(r)
        straight_high = None
        for high in range(_NUM_RANKS - 1, 3, -1):
            if (mask >> (high - 4)) & 0b11111 == 0b11111:
                straight_high = high
                break
        else:
            if self.ace_low_straight and mask & 0x100F == 0x100F:  # A, 2, 3, 4, 5
                straight_high = 3  # the wheel: its top card is the 5

        def kickers(k: int, *used: int) -> list[int]:
            """The k highest cards left once the cards of the groups are taken out."""
            left = list(desc)
            for r in used:
                left.remove(r)
            return left[:k]

        for name in self._order:
            tb = None
            if name == "five_of_a_kind":
                if ranks_with[5]:
                    tb = (ranks_with[5][0],)
            elif name == "straight_flush":
                if suited and straight_high is not None:
                    tb = (straight_high,)
            elif name == "four_of_a_kind":
                if ranks_with[4]:
                    q = ranks_with[4][0]
                    tb = (q, *kickers(1, q, q, q, q))
            elif name == "full_house":
                # Trips and a pair of a *different* rank.  If any full house
                # exists, one exists with the highest trips.
                if ranks_with[3]:
                    t = ranks_with[3][0]
                    pairs = [r for r in ranks_with[2] if r != t]
                    if pairs:
                        tb = (t, pairs[0])
            elif name == "flush":
                if suited:
                    tb = desc[:5]
            elif name == "straight":
                if straight_high is not None:
                    tb = (straight_high,)
            elif name == "three_of_a_kind":
                if ranks_with[3]:
                    t = ranks_with[3][0]
                    tb = (t, *kickers(2, t, t, t))
            elif name == "two_pair":
                if len(ranks_with[2]) >= 2:
                    hi, lo = ranks_with[2][0], ranks_with[2][1]
                    tb = (hi, lo, *kickers(1, hi, hi, lo, lo))
            elif name == "pair":
                if ranks_with[2]:
                    p = ranks_with[2][0]
                    tb = (p, *kickers(3, p, p))
            elif name == "high_card":
                tb = desc[:5]
            if tb is not None:
                return (
                    (self._level_of[name] << _LEVEL_SHIFT)
                    | (_CATEGORY_INDEX[name] << _CATEGORY_SHIFT)
                    | _pack(tb)
                )
        return _pack(desc[:5])  # level 0: no listed combination

    def _build(self) -> None:
        """Precompute the lookup tables and install the fast evaluation closures."""
        pow_ = _RANK_POW
        best = self._best

        # Non-flush values keyed by rank multiset (base-11 count vector).
        nf: dict[int, int] = {}
        for combo in combinations_with_replacement(range(_NUM_RANKS), 5):
            counts = [0] * _NUM_RANKS
            for r in combo:
                counts[r] += 1
            nf[sum(pow_[r] for r in combo)] = best(counts, False)
        # Bigger multisets: the best of the multisets with one card fewer.
        # Every (smaller multiset, added rank) pair is written into a dict in
        # increasing order of the smaller one's value, so the last write to
        # a key -- the one that stays -- is the maximum.  All of it runs in C
        # (map, zip, chain, dict), several times faster than a Python loop:
        # zip(*columns) interleaves key+p for the 13 ranks p key by key, and
        # zip(*[values] * 13) repeats each value 13 times alongside.
        smaller = nf
        for _size in _PRECOMPUTED_SIZES:
            items = sorted(smaller.items(), key=itemgetter(1))
            keys = [k for k, _ in items]
            values = [v for _, v in items]
            bigger = dict(zip(
                chain.from_iterable(zip(*[map(p.__add__, keys) for p in pow_])),
                chain.from_iterable(zip(*[values] * len(pow_))),
            ))
            nf.update(bigger)
            smaller = bigger

        # Suited values keyed by 13-bit rank mask (distinct suited ranks):
        # 5 ranks classified directly, more ranks the best of the masks with
        # one rank fewer, pushed up the same way as above.
        fl: list[int | None] = [None] * (1 << _NUM_RANKS)
        level = {}
        for combo in combinations(range(_NUM_RANKS), 5):
            counts = [0] * _NUM_RANKS
            for r in combo:
                counts[r] = 1
            level[sum(1 << r for r in combo)] = best(counts, True)
        bits = [1 << r for r in range(_NUM_RANKS)]
        while level:
            for m, v in level.items():
                fl[m] = v
            items = sorted(level.items(), key=itemgetter(1))
            level = dict((m | b, v) for m, v in items for b in bits if not m & b)

        # One shared HandValue per distinct value.
        hv: dict[int, HandValue] = {}
        for v in set(nf.values()).union(x for x in fl if x is not None):
            hv[v] = HandValue(v)
        nf_hv = {k: hv[v] for k, v in nf.items()}
        fl_hv = [None if x is None else hv[x] for x in fl]

        self._nf, self._fl, self._hv = nf, fl, hv
        self._memo_room = _MEMO_LIMIT
        self._nf_hv, self._fl_hv = nf_hv, fl_hv
        self.evaluate_value = _make_evaluator(nf, fl, self._general_value)
        self.evaluate_value.__doc__ = Ranking.evaluate_value.__doc__
        self.evaluate = _make_evaluator(nf_hv, fl_hv, self._general_hand_value)
        self.evaluate.__doc__ = Ranking.evaluate.__doc__

    # -- the slow, complete path -----------------------------------------

    def _hand_value(self, v: int) -> HandValue:
        """The shared HandValue for an int value."""
        h = self._hv.get(v)
        if h is None:
            h = self._hv[v] = HandValue(v)
        return h

    def _general_value(self, cards: Sequence[object]) -> int:
        """Validate and evaluate any hand of 5 to 10 cards (the slow path)."""
        if isinstance(cards, (str, bytes)):
            raise ValueError(f"expected a sequence of cards, got the string {cards!r}")
        codes = [_to_code(c) for c in cards]
        n = len(codes)
        if not _MIN_CARDS <= n <= _MAX_CARDS:
            raise ValueError(f"a hand has {_MIN_CARDS} to {_MAX_CARDS} cards, got {n}")
        if any(type(c) is not int for c in cards):
            # Card strings: now that they are codes, the fast path applies.
            return self.evaluate_value(codes)
        counts = [0] * _NUM_RANKS
        for c in codes:
            counts[c >> 2] += 1
        key = sum(_RANK_POW[c >> 2] for c in codes)
        value = self._nf.get(key)
        if value is None:
            value = self._best(counts, False)
            if self._memo_room > 0:  # bounded: 8-10 card multisets are many
                self._memo_room -= 1
                self._nf[key] = value
                self._nf_hv[key] = self._hand_value(value)
        for s in range(4):
            suited = [c >> 2 for c in codes if c & 3 == s]
            if len(suited) < 5:
                continue
            if len(set(suited)) == len(suited):
                v = self._fl[sum(1 << r for r in suited)]
            else:  # repeated cards in a suit (several decks)
                suited_counts = [0] * _NUM_RANKS
                for r in suited:
                    suited_counts[r] += 1
                v = self._best(suited_counts, True)
            if v > value:
                value = v
        return value

    def _general_hand_value(self, cards: Sequence[object]) -> HandValue:
        """Slow path returning the shared HandValue."""
        return self._hand_value(self._general_value(cards))


_SHAPES: dict[str, tuple[int, ...]] = {
    "high_card": (1, 1, 1, 1, 1),
    "pair": (2, 1, 1, 1),
    "two_pair": (2, 2, 1),
    "three_of_a_kind": (3, 1, 1),
    "flush": (1, 1, 1, 1, 1),
    "full_house": (3, 2),
    "four_of_a_kind": (4, 1),
    "five_of_a_kind": (5,),
}


def _check_categories(names: tuple[str, ...]) -> None:
    """Raise ``ValueError`` unless ``names`` is a valid category list (highest first)."""
    for n in names:
        if n not in CATEGORIES:
            raise ValueError(f"unknown hand category {n!r}; known: {', '.join(CATEGORIES)}")
    if len(set(names)) != len(names):
        raise ValueError(f"hand category listed twice in {list(names)!r}")
    if "high_card" in names and names[-1] != "high_card":
        raise ValueError("high_card, if listed, must be the lowest (last) category")


# Per-card weights of the fast path, indexed by code: the rank-count digit
# above bit 16, the suit counter below.  A list, not a dict: indexing a list
# by a small int is the cheapest lookup there is.  Indexes 52..103 hold None
# so that a negative code (which would silently wrap around) or a code past
# the deck fails (None + int is a TypeError) and goes to the validating path.
_WEIGHT: list[int | None] = [
    (_RANK_POW[code >> 2] << 16) | (1 << (4 * (code & 3))) for code in range(52)
] + [None] * 52
# The same with the suit-counter bias added: used for the first card, so the
# bias costs no extra addition.
_WEIGHT_BIASED: list[int | None] = [
    None if w is None else w + _SUIT_BIAS for w in _WEIGHT
]
# Per-suit rank bits (0 for cards of other suits), for the rare flush path.
_SUIT_BITS: list[list[int]] = [
    [(1 << (code >> 2)) if code & 3 == s else 0 for code in range(52)] for s in range(4)
]


def _make_evaluator(nf, fl, general):
    """Build the fast evaluation closure over one pair of tables.

    Everything the hot path touches is a default argument (a local), so it
    does no global or attribute lookups.  5, 6 and 7 cards are unpacked and
    added inline, which measured about 30% faster than ``sum(map(...))``
    (no map object, no per-item call); other sizes use ``sum(map(...))``.
    """
    weight = _WEIGHT.__getitem__
    suit_bits = [t.__getitem__ for t in _SUIT_BITS]

    def flush_path(cards, k):
        """A suit has >= 5 cards: best of the multiset value and each long suit's."""
        best = nf[k >> 16]
        for s in range(4):
            counter = (k >> (4 * s)) & 15
            if counter & 8:
                m = sum(map(suit_bits[s], cards))
                if m.bit_count() != counter - 3:  # repeated suited cards
                    return general(cards)
                v = fl[m]
                if v > best:
                    best = v
        return best

    def evaluate(cards, _nf=nf, W=_WEIGHT, B=_WEIGHT_BIASED, _len=len, _flush_path=flush_path):
        try:
            n = _len(cards)
            if n == 5:
                a, b, c, d, e = cards
                k = B[a] + W[b] + W[c] + W[d] + W[e]
            elif n == 7:
                a, b, c, d, e, f, g = cards
                k = B[a] + W[b] + W[c] + W[d] + W[e] + W[f] + W[g]
            elif n == 6:
                a, b, c, d, e, f = cards
                k = B[a] + W[b] + W[c] + W[d] + W[e] + W[f]
            elif n <= 10:
                k = sum(map(weight, cards), 0x3333)  # _SUIT_BIAS
            else:
                # Too many cards; also, 11 copies of a rank would carry into
                # the next rank's digit and could alias a real key.
                return general(cards)
            # 0x8888 is _FLUSH_BITS (a literal: no global lookup).
            if k & 0x8888:
                return _flush_path(cards, k)
            return _nf[k >> 16]
        except (KeyError, TypeError, IndexError):
            # Not in the table (8-10 cards seen for the first time, fewer than
            # 5 cards), card strings, or not a card at all: the general path
            # validates, computes and memoises.
            return general(cards)

    return evaluate
