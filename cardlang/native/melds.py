"""Melds in machine code: the same numbers and cards as `cardlang.runtime.melds`.

Array conventions (what the native emitter passes):

- a set of cards is an int array of card ids (ids of the layout's `Deck`) and a count `n`: the
  cards are `cards[:n]`;
- the deck's tables as int arrays indexed by card id: `card_rank` and `card_suit` (`Deck.card_rank`,
  `Deck.card_suit`; a suit of -1 is a suitless card, a joker), and a card table (an order or a
  `values` table of the layout, `layout.orders[name]`: card id -> position or value);
- a function giving cards writes them into an int array `out` the caller provides (room for n
  cards) and returns how many;
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
where the runtime raises its MeldError. Other rules are refused by `deadwood_table`, naming why
(and a card worth less than 0 points, which the runtime's tables cannot hold either).

`melded(cards, n, table, out)` and `layoffs(cards, n, onto, m, table, out)` are `MeldRule.melded`
and `MeldRule.layoffs` for the same rules, over `table = arrangement_table(rule)`: the best runs of
every suit mask read from the rule's own `_suit_best` (its tie-breaks with them), the set choices
of `_arrange_packed` tried in the runtime's order, the first best kept on a tie, the runs grown by
laid-off cards in the runtime's order. The melded cards are an int64 mask of ids: at most 63.

Functions that allocate scratch arrays say `_nrt=True`: they keep numba's reference counting when a
generated function that calls them is compiled without it (`native/options.py`).
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
from numba import njit

from ..runtime.melds import MAX_COMBINATIONS

NEGATIVE_VALUE = -1  # `subsets` met a value below 0: the runtime's MeldError ("adds up values of 0 or more")
TOO_MANY = -2  # `subsets` over more than MAX_SUBSET_CARDS cards: the count could pass int64
MAX_SUBSET_CARDS = 62  # at most 2**62 subsets: every count fits an int64
TOO_MANY_WAYS = -1  # `deadwood` has more set choices than the runtime tries (its MeldError)


@njit(cache=True, _nrt=True)
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


@njit(cache=True, _nrt=True)
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


@njit(cache=True, _nrt=True)
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


@njit(cache=True, _nrt=True)
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
    if any(p < 0 for p in rule.rank_points):
        # (results below 0 are the kernels' refusals; the runtime itself fails to build these tables)
        raise NotImplementedError("native deadwood: a card worth less than 0 points")
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


@njit(cache=True, _nrt=True)
def _suits_dead(table, a, b, c, d):
    dead = table[D_DEAD]
    return table[dead + a] + table[dead + b] + table[dead + c] + table[dead + d]


@njit(cache=True, _nrt=True)
def _without(masks, bit, kept):
    """The four suit masks less the cards of rank `bit` in the suits of the pattern `kept`."""
    return ((masks[0] & ~bit) if kept & 1 else masks[0], (masks[1] & ~bit) if kept & 2 else masks[1],
            (masks[2] & ~bit) if kept & 4 else masks[2], (masks[3] & ~bit) if kept & 8 else masks[3])


@njit(cache=True, _nrt=True)
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


@njit(cache=True, _nrt=True)
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


# ------------------------------------------------------------------ the arrangement: melded, layoffs
# the header of an arrangement table: where its parts start (offsets into the same array)
A_WIDTH = 0  # bits a suit mask (the ranks)
A_SETMIN = 1  # cards a set needs (0: no sets)
A_LIMIT = 2  # the runtime's MAX_COMBINATIONS when the table was built
A_CARDS = 3  # offset of each card's bit: suit * width + rank
A_POINTS = 4  # offset of the points of each rank
A_VALUE = 5  # offset of value[mask]: the points of the best runs of one suit's mask
A_MELDED = 6  # offset of melded[mask]: the ranks those runs hold
A_IDS = 7  # offset of ids[mask]: `sum(1 << id)` of those cards in the first suit (shift by the suit)
A_RUNNABLE = 8  # offset of runnable[mask]: the ranks of the mask some shortest run inside it holds
A_ISRUN = 9  # offset of is_run[mask]: 1 when the mask is a run of the rule
A_RUNS = 10  # offset of 2**width + 1 offsets into the runs of each mask's best, in the runtime's order
A_OUTS = 11  # offset of 17 offsets into the cards a set may leave out, by the pattern of the free suits
A_HEADER = 12


def arrangement_table(rule) -> np.ndarray:
    """The int64 table `melded` and `layoffs` read for a runtime `MeldRule`: the best runs of every
    suit mask, read once from the rule's own `_suit_best` (ties broken as it breaks them). Raises
    NotImplementedError naming what it cannot hold (the rules without the four-suit tables, a
    deck of more than 63 cards: the melded cards are an int64 mask of card ids)."""
    deadwood_table(rule)  # (the same refusals)
    if len(rule.card_rank) > 63:
        raise NotImplementedError("native melds: a deck of more than 63 cards (the melded cards are a mask of ids)")
    w = rule._width
    size = 1 << w
    value, melded, ids, runnable, offsets, runs = [], [], [], [], [0], []
    for mask in range(size):
        v, m, rs, spread, _points, held = rule._suit_best(mask)
        value.append(v)
        melded.append(m)
        ids.append(spread if m else 0)
        runnable.append(held)
        runs.extend(rs if m else ())
        offsets.append(len(runs))
    is_run = [0] * size
    for run in rule.runs:
        is_run[run] = 1
    # the suits a set of a rank leaves out, by the pattern of its suits a run could take (`loose`):
    # every subset of them, fewest first, in the order of itertools.combinations (the runtime's)
    outs_offsets, outs = [0], []
    for free in range(16):
        suits = [s for s in range(4) if free >> s & 1]
        for k in range(len(suits) + 1):
            for out in combinations(suits, k):
                outs.append(sum(1 << s for s in out))
        outs_offsets.append(len(outs))
    header = np.zeros(A_HEADER, dtype=np.int64)
    header[A_WIDTH], header[A_SETMIN], header[A_LIMIT] = w, rule.set_min or 0, MAX_COMBINATIONS
    parts, at = [header], A_HEADER
    points = [rule.rank_points[r] if r < len(rule.rank_points) else 0 for r in range(w)]
    bits = [rule.card_suit[c] * w + rule.card_rank[c] for c in range(len(rule.card_rank))]
    for slot, part in ((A_CARDS, bits), (A_POINTS, points), (A_VALUE, value), (A_MELDED, melded), (A_IDS, ids),
                       (A_RUNNABLE, runnable), (A_ISRUN, is_run), (A_RUNS, offsets), (A_OUTS, outs_offsets)):
        header[slot] = at
        parts.append(np.array(part, dtype=np.int64))
        at += len(part)
    first_run = at
    parts.append(np.array(runs, dtype=np.int64))
    first_out = at + len(runs)
    parts.append(np.array(outs, dtype=np.int64))
    table = np.concatenate(parts)
    table[header[A_RUNS]:header[A_RUNS] + len(offsets)] += first_run  # (offsets made absolute)
    table[header[A_OUTS]:header[A_OUTS] + len(outs_offsets)] += first_out
    return table


@njit(cache=True, _nrt=True)
def _best_runs(table, m0, m1, m2, m3, value, idmask):
    """The arrangement's value and melded ids once each suit's best runs are added (`_best_runs`)."""
    masks = (m0, m1, m2, m3)
    for s in range(4):
        mask = masks[s]
        if mask and table[table[A_MELDED] + mask]:
            value += table[table[A_VALUE] + mask]
            idmask |= table[table[A_IDS] + mask] << s
    return value, idmask


@njit(cache=True, _nrt=True)
def arrange(cards, n, table):
    """The runtime's `MeldRule.arrange` of `cards[:n]` (a card given twice counts once), as
    (value, idmask, set ranks, the four suit masks left to the runs): the points melded, `sum(1 <<
    id)` of the melded cards, the mask of the ranks that make sets; value TOO_MANY_WAYS where the
    runtime raises its MeldError. Among arrangements worth the same, the one with the largest
    idmask, the first met on a tie, the candidates met in the runtime's order."""
    w = table[A_WIDTH]
    need = table[A_SETMIN]
    at = table[A_CARDS]
    masks = np.zeros(4, dtype=np.int64)
    for i in range(n):
        bit = table[at + cards[i]]
        s = bit // w
        masks[s] |= np.int64(1) << (bit - s * w)
    value = 0
    idmask = 0
    setranks = 0
    # for each rank with choices: where its choices are (kept suit patterns, "no set" last)
    opt_rank = np.empty(w, dtype=np.int64)
    opt_kept = np.empty((w, 17), dtype=np.int64)
    opt_size = np.empty(w, dtype=np.int64)
    nopt = 0
    total = 1
    if need > 0:
        for r in range(w):
            bit = np.int64(1) << r
            held = 0
            for s in range(4):
                if masks[s] & bit:
                    held |= 1 << s
            if _popcount(held) < need:
                continue
            free = 0  # the suits whose card of the rank a run inside the suit (as it is now) could take
            for s in range(4):
                if held >> s & 1 and table[table[A_RUNNABLE] + masks[s]] & bit:
                    free |= 1 << s
            if free == 0:  # the whole set it is
                for s in range(4):
                    if held >> s & 1:
                        masks[s] ^= bit
                        idmask |= np.int64(1) << (r * 4 + s)
                value += _popcount(held) * table[table[A_POINTS] + r]
                setranks |= bit
                continue
            k = 0
            for j in range(table[table[A_OUTS] + free], table[table[A_OUTS] + free + 1]):
                kept = held & ~table[j]
                if _popcount(kept) >= need:
                    opt_kept[nopt, k] = kept
                    k += 1
            opt_kept[nopt, k] = 0  # no set of this rank
            opt_rank[nopt] = r
            opt_size[nopt] = k + 1
            total *= k + 1
            nopt += 1
    if nopt == 0:
        v, ids = _best_runs(table, masks[0], masks[1], masks[2], masks[3], value, idmask)
        return v, ids, setranks, masks[0], masks[1], masks[2], masks[3]
    if total > table[A_LIMIT]:
        return TOO_MANY_WAYS, 0, 0, 0, 0, 0, 0
    # every combination, the first rank's choice varying slowest (the runtime's `_product`)
    digit = np.zeros(nopt, dtype=np.int64)
    ms = np.empty(4, dtype=np.int64)
    best_v, best_ids, best_sets = -1, 0, 0
    b0 = b1 = b2 = b3 = 0
    for _ in range(total):
        ms[:] = masks
        v, ids, sets = value, idmask, setranks
        for j in range(nopt):
            kept = opt_kept[j, digit[j]]
            if kept:
                r = opt_rank[j]
                for s in range(4):
                    if kept >> s & 1:
                        ms[s] ^= np.int64(1) << r
                        ids |= np.int64(1) << (r * 4 + s)
                v += _popcount(kept) * table[table[A_POINTS] + r]
                sets |= np.int64(1) << r
        v, ids = _best_runs(table, ms[0], ms[1], ms[2], ms[3], v, ids)
        if best_v < 0 or v > best_v or (v == best_v and ids > best_ids):
            best_v, best_ids, best_sets = v, ids, sets
            b0, b1, b2, b3 = ms[0], ms[1], ms[2], ms[3]
        j = nopt - 1
        while j >= 0:
            digit[j] += 1
            if digit[j] < opt_size[j]:
                break
            digit[j] = 0
            j -= 1
    return best_v, best_ids, best_sets, b0, b1, b2, b3


@njit(cache=True, _nrt=True)
def _popcount(x):
    c = 0
    while x:
        x &= x - 1
        c += 1
    return c


@njit(cache=True, _nrt=True)
def melded(cards, n, table, out):
    """The cards of `cards[:n]`, in their order, in their best arrangement (`melded`), written to
    `out`; returns how many, or TOO_MANY_WAYS where the runtime raises its MeldError."""
    value, idmask = arrange(cards, n, table)[:2]
    if value == TOO_MANY_WAYS:
        return TOO_MANY_WAYS
    k = 0
    for i in range(n):
        if idmask >> cards[i] & 1:
            out[k] = cards[i]
            k += 1
    return k


@njit(cache=True, _nrt=True)
def layoffs(cards, n, onto, m, table, out):
    """The cards of `cards[:n]` that can be laid off onto the melds of `onto[:m]`'s best
    arrangement (`layoffs`): a card of a set's rank, or a card of a run's suit that extends it,
    alone or through cards laid off before it, the runs grown in the runtime's order. Writes them
    to `out` in their order; returns how many, or TOO_MANY_WAYS (the runtime's MeldError)."""
    value, _, setranks, o0, o1, o2, o3 = arrange(onto, m, table)
    if value == TOO_MANY_WAYS:
        return TOO_MANY_WAYS
    w = table[A_WIDTH]
    at = table[A_CARDS]
    ncards = table[A_POINTS] - at
    in_onto = np.zeros(ncards, dtype=np.bool_)
    for i in range(m):
        in_onto[onto[i]] = True
    # the free cards, each once, in the order first met, by suit (the runtime's `by_suit` dicts)
    seen = np.zeros(ncards, dtype=np.bool_)
    laid = np.zeros(ncards, dtype=np.bool_)
    loose = np.empty((4, n), dtype=np.int64)
    nloose = np.zeros(4, dtype=np.int64)
    for i in range(n):
        c = cards[i]
        if seen[c] or in_onto[c]:
            continue
        seen[c] = True
        bit = table[at + c]
        s = bit // w
        r = bit - s * w
        if setranks >> r & 1:
            laid[c] = True
        loose[s, nloose[s]] = c
        nloose[s] += 1
    left = np.ones((4, n), dtype=np.bool_)  # still in the suit's dict
    masks = (o0, o1, o2, o3)
    for s in range(4):
        mask = masks[s]
        if not mask or not table[table[A_MELDED] + mask]:
            continue
        for j in range(table[table[A_RUNS] + mask], table[table[A_RUNS] + mask + 1]):
            run = table[j]
            remaining = 0
            for q in range(nloose[s]):
                remaining += left[s, q]
            grown = True
            while remaining and grown:
                grown = False
                for q in range(nloose[s]):
                    if not left[s, q]:
                        continue
                    c = loose[s, q]
                    bit = np.int64(1) << (table[at + c] - s * w)
                    if table[table[A_ISRUN] + (run | bit)]:
                        run |= bit
                        laid[c] = True
                        left[s, q] = False
                        remaining -= 1
                        grown = True
    k = 0
    for i in range(n):
        if laid[cards[i]]:
            out[k] = cards[i]
            k += 1
    return k
