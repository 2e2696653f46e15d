"""Melds and combinations: the best arrangement of cards into sets and runs, lay-offs, counting.

A :class:`MeldRule` is built once per game from its `melds` declaration: sets (at least
`set_min` cards of one rank), runs (at least `run_min` cards of one suit whose ranks are
consecutive in a rank order, the ace placed by a declared rule) and the points each card counts
as deadwood. ``rule.arrange(cards)`` gives the best arrangement: the melded cards whose points add
up to the most (so that what is left, the deadwood, is worth the least); among arrangements worth
the same, the one melding the set of card ids with the largest ``sum(1 << id)``, so that the
result is one well-defined set whatever the algorithm.

How it is fast: runs lie inside one suit, so given which cards go to sets, each suit is a
separate problem on a rank mask. ``_suit_best(mask)`` (memoised, one table shared by every suit
since points depend on the rank only) gives the best runs of one suit. Sets couple the suits:
for each rank with enough cards, the arrangement tries leaving out of its set each subset of the
cards that could be in a run (the others are always better in the set than left over), and looks
the suits up for each combination. Random ten-card hands take a few microseconds
(``benchmarks/bench_melds.py``); results are memoised by hand.

The counting functions (``count_subsets``, ``count_pairs``, ``count_runs``, ``longest_suit``)
count combinations inside a set of cards as counting games score them.
"""

from __future__ import annotations

import functools
from array import array
from itertools import combinations

from .basics import RuleError
from .log import CARD_REF, MARK_END

__all__ = ["MeldRule", "MeldError", "combination", "count_subsets", "count_pairs",
           "count_runs", "longest_suit", "laid_groups"]

MAX_COMBINATIONS = 4096  # set choices tried for one arrangement: beyond, a rule error (bounded time)
_MEMO_LIMIT = 200_000  # arrangements and suit tables memoised per rule before the memo is cleared


# `deadwood`'s tables by (suit width, runs, run and set minimums, points by rank), shared by the
# rules of a process (every load of a game builds the same ones: about 10 ms each)
_TABLES: dict = {}


class MeldError(Exception):
    """Cards too many to arrange in bounded time (the engines turn it into a rule error)."""


class MeldRule:
    """Sets, runs and deadwood points over one deck (see the module's docstring)."""

    def __init__(self, card_rank, card_suit, nranks: int, nsuits: int, points, set_min=None,
                 run_min=None, run_order=(), ace=None, ace_rank=None):
        """`run_order`: rank indexes, lowest first; `ace`: None (the order as written), "low",
        "high", "both" (either end, not through) or "around" (runs wrap past it)."""
        self.card_rank, self.card_suit, self.nsuits = card_rank, card_suit, nsuits
        self.points = points
        self.set_min, self.run_min = set_min, run_min
        # value of a rank (points are by rank; a card of any suit of that rank counts the same)
        self.rank_points = [0] * (nranks + 1)
        for c, r in enumerate(card_rank):
            if card_suit[c] >= 0:
                self.rank_points[r] = points[c]
        self.runs = _runs(run_order, run_min, ace, ace_rank) if run_min else frozenset()
        self._seqs = _run_seqs(run_order, ace, ace_rank) if run_min else []  # (to lay a run out in order)
        self.runs_with: dict = {}
        for run in self.runs:
            m = run
            while m:
                bit = m & -m
                self.runs_with.setdefault(bit, []).append(run)
                m ^= bit
        # a card can be in a run when one of the shortest runs through its rank is there
        shortest = self.shortest_runs = [run for run in self.runs if run.bit_count() == run_min]
        self.short_runs_with = {bit: [run for run in shortest if run & bit] for bit in self.runs_with}
        self.run_value = {run: self._mask_points(run) for run in self.runs}
        self._suit_memo: dict = {0: (0, 0, (), 0, 0, 0)}
        self._memo: dict = {}
        self._spread_memo: dict = {}
        self.bit = tuple(1 << c for c in range(len(card_rank)))
        # the fast path packs a hand into one int: a 16-bit rank mask per suit, then a 4-bit count
        # per rank, biased so that bit 3 of a count is set exactly when the rank can make a set
        nr = nranks + 1
        # (and needs ids `rank * nsuits + suit` and points by rank, as every deck of the language has)
        self._fast = (nr <= 16 and nsuits <= 8 and (not set_min or set_min <= 8)
                      and all(card_rank[c] * nsuits + card_suit[c] == c and points[c] == self.rank_points[card_rank[c]]
                              if card_suit[c] >= 0 else points[c] == 0 for c in range(len(card_rank))))
        self._flag_ranks: dict = {}
        self._suits = tuple(range(nsuits))
        if self._fast:
            base = 16 * nsuits
            self._count_base = base
            # then a count of jokers and a count of cards, so that a card given twice shows (a
            # carry loses a bit) and a hand's key says how many cards it has
            self._joker_base = base + 4 * nr
            self._count_shift = self._joker_base + 20
            self._suit_region = (1 << base) - 1
            joker_mask = (1 << 20) - 1
            self._jokers = lambda key: key >> self._joker_base & joker_mask
            one = 1 << self._count_shift
            self._packed = tuple((1 << (card_suit[c] * 16 + card_rank[c]) | 1 << (base + 4 * card_rank[c]) | one)
                                 if card_suit[c] >= 0 else 1 << self._joker_base | one
                                 for c in range(len(card_rank)))
            bias = 8 - set_min if set_min else 0
            self._bias = sum(bias << (base + 4 * r) for r in range(nr))
            self._set_flags = sum(8 << (base + 4 * r) for r in range(nr)) if set_min else 0
        # `deadwood`'s own path, for four suits without jokers: a hand packs into one small int (13
        # bits a suit for the standard deck), and a table by suit mask gives the deadwood of each
        # suit alone (its points less its best runs'); see `deadwood`
        width = max(card_rank, default=0) + 1
        self._four = (self._fast and nsuits == 4 and all(s >= 0 for s in card_suit)
                      and (set_min or 0) <= 4 and width <= 16)
        if self._four:
            self._width, self._wmask = width, (1 << width) - 1
            self._bitof = {c: 1 << (card_suit[c] * width + card_rank[c]) for c in range(len(card_rank))}
            self._build_tables()  # (at load, once a process for each kind of meld: see `_TABLES`)
        else:
            self._tables = None

    def _mask_points(self, mask: int) -> int:
        total, r = 0, 0
        while mask:
            if mask & 1:
                total += self.rank_points[r]
            mask >>= 1
            r += 1
        return total

    def _suit_best(self, mask: int):
        """(value, melded rank mask, runs, the melded cards' ids in the first suit, the points of
        the whole mask, the ranks of the mask that some run inside it holds) of the best runs
        inside one suit's rank mask (shift the ids left by a suit's index for that suit)."""
        memo = self._suit_memo
        hit = memo.get(mask)
        if hit is not None:
            return hit
        low = mask & -mask
        best = self._suit_best(mask ^ low)
        bv, bm = best[0], best[1]
        for run in self.runs_with.get(low, ()):
            if run & mask == run:
                v, m, rs = self._suit_best(mask & ~run)[:3]
                v += self.run_value[run]
                if v > bv or (v == bv and m | run > bm):
                    best, bv, bm = (v, m | run, rs + (run,), 0), v, m | run
        best = best[:3] + (self._spread(best[1]), self._mask_points(mask), self._runnable(mask))
        if len(memo) > _MEMO_LIMIT:
            memo.clear()
            memo[0] = (0, 0, (), 0, 0, 0)
        memo[mask] = best
        return best

    def arrange(self, cards) -> tuple:
        """The best arrangement of `cards` (ids) into melds: (value, idmask, sets, runs, total),
        the melded points, `sum(1 << id)` of the melded cards, the sets as tuples of card ids, the
        runs as (suit, the rank masks of its runs) for each suit that has runs, and the points of
        all the cards."""
        memo = self._memo
        if self._fast:
            key = sum(map(self._packed.__getitem__, cards))
            # a key names one hand when no rank count can overflow its 4 bits (15 cards at most)
            hit = memo.get(key) if len(cards) < 16 else None
            if hit is not None:
                return hit
            if (key & self._suit_region).bit_count() + self._jokers(key) != len(cards):
                return self.arrange(tuple(dict.fromkeys(cards)))  # a card given twice counts once
            hit = memo.get(key)
            if hit is not None:
                return hit
            if (key + self._bias) & self._set_flags:
                best = self._arrange_packed(key + self._bias, len(cards))
            else:  # no rank makes a set: the suits are separate problems (inline: the common case)
                value = idmask = total = 0
                runs = []
                suit_memo = self._suit_memo
                for s in self._suits:
                    mask = key >> (s << 4) & 0xFFFF
                    if mask:
                        e = suit_memo.get(mask) or self._suit_best(mask)
                        total += e[4]
                        if e[1]:
                            value += e[0]
                            idmask |= e[3] << s
                            runs.append((s, e[2]))
                best = (value, idmask, (), tuple(runs), total)
        else:
            key = sum(map(self.bit.__getitem__, cards))  # the cards' id mask
            if key.bit_count() != len(cards):
                return self.arrange(tuple(dict.fromkeys(cards)))
            hit = memo.get(key)
            if hit is not None:
                return hit
            best = self._arrange(cards)
        if len(best) == 4:  # the hand's own points, for `deadwood`
            best += (sum(map(self.points.__getitem__, cards)),)
        if len(memo) > _MEMO_LIMIT:
            memo.clear()
        memo[key] = best
        return best

    def _best_runs(self, masks, value: int, idmask: int, sets) -> tuple:
        """The arrangement of `sets` (worth `value`, ids `idmask`) and the best runs of what is left
        of each suit (`masks`)."""
        runs = []
        memo = self._suit_memo
        for s, mask in enumerate(masks):
            if mask:
                e = memo.get(mask) or self._suit_best(mask)
                if e[1]:
                    value += e[0]
                    idmask |= e[3] << s
                    runs.append((s, e[2]))
        return (value, idmask, tuple(sets), tuple(runs))

    def _ranks_of(self, flags: int) -> tuple:
        """The ranks whose count bit is set in `flags` (the ranks that can make a set)."""
        out = self._flag_ranks.get(flags)
        if out is None:
            base = self._count_base
            out = self._flag_ranks[flags] = tuple(r for r in range(17) if flags >> (base + 4 * r + 3) & 1)
        return out

    def _arrange_packed(self, packed: int, ncards: int) -> tuple:
        """`arrange` over a hand packed as suit masks and biased rank counts (see `__init__`)."""
        ns = self.nsuits
        masks = [packed >> (16 * s) & 0xFFFF for s in range(ns)]
        flags = packed & self._set_flags
        if not flags:  # no rank makes a set: the suits are separate problems
            return self._best_runs(masks, 0, 0, ())
        value, idmask, sets, options = 0, 0, [], []
        for r in self._ranks_of(flags):
            bit = 1 << r
            suits = [s for s in range(ns) if masks[s] & bit]
            memo = self._suit_memo
            loose = [s for s in suits if (memo.get(masks[s]) or self._suit_best(masks[s]))[5] & bit]
            if not loose:  # no card of the rank can be in a run: the whole set it is
                for s in suits:
                    masks[s] ^= bit
                value += len(suits) * self.rank_points[r]
                idmask |= sum(1 << (r * ns + s) for s in suits)
                sets.append(tuple(r * ns + s for s in suits))
                continue
            choices = [(r, kept) for k in range(len(loose) + 1) for out in combinations(loose, k)
                       for kept in [tuple(s for s in suits if s not in out)] if len(kept) >= self.set_min]
            options.append(choices + [(r, ())])
        if not options:
            return self._best_runs(masks, value, idmask, sets)
        total = 1
        for choices in options:
            total *= len(choices)
        if total > MAX_COMBINATIONS:
            raise MeldError(f"{ncards} cards have too many ways to be arranged into melds")
        best = None
        for combo in _product(options):
            ms, v, ids, chosen = list(masks), value, idmask, list(sets)
            for r, kept in combo:
                if kept:
                    bit = 1 << r
                    for s in kept:
                        ms[s] ^= bit
                        ids |= 1 << (r * ns + s)
                    v += len(kept) * self.rank_points[r]
                    chosen.append(tuple(r * ns + s for s in kept))
            cand = self._best_runs(ms, v, ids, chosen)
            if best is None or cand[0] > best[0] or (cand[0] == best[0] and cand[1] > best[1]):
                best = cand
        return best

    def _arrange(self, cards) -> tuple:
        nsuits, card_rank, card_suit = self.nsuits, self.card_rank, self.card_suit
        suit_masks = [0] * nsuits
        by_rank: dict = {}
        for c in cards:
            s = card_suit[c]
            if s < 0:
                continue  # a joker is never in a meld
            r = card_rank[c]
            suit_masks[s] |= 1 << r
            by_rank.setdefault(r, []).append(c)
        # for each rank that can make a set: the choices of cards kept out of it (for runs)
        options = []
        if self.set_min:
            for r, group in by_rank.items():
                if len(group) < self.set_min:
                    continue
                bit = 1 << r
                loose = [c for c in group if self._in_some_run(bit, suit_masks[card_suit[c]])]
                if not loose:  # no card of the rank can be in a run: the whole set it is
                    options.append((r, [tuple(sorted(group))]))
                    continue
                choices = []
                for k in range(len(loose) + 1):
                    for out in combinations(loose, k):
                        kept = [c for c in group if c not in out]
                        if len(kept) >= self.set_min:
                            choices.append(tuple(sorted(kept)))
                choices.append(())  # no set of this rank
                options.append((r, choices))
        total = 1
        for _, choices in options:
            total *= len(choices)
            if total > MAX_COMBINATIONS:
                raise MeldError(f"{len(cards)} cards have too many ways to be arranged into melds")
        best = None
        for sets in _product([choices for _, choices in options]):
            masks = list(suit_masks)
            value, idmask = 0, 0
            for meld in sets:
                for c in meld:
                    masks[card_suit[c]] &= ~(1 << card_rank[c])
                    idmask |= 1 << c
                    value += self.points[c]
            runs = []
            for s in range(nsuits):
                if masks[s]:
                    v, m, rs, ids = self._suit_best(masks[s])[:4]
                    if m:
                        value += v
                        idmask |= ids << s
                        runs.append((s, rs))
            if best is None or value > best[0] or (value == best[0] and idmask > best[1]):
                best = (value, idmask, tuple(m for m in sets if m), tuple(runs))
        return best

    def _runnable(self, mask: int) -> int:
        """The ranks of a suit's mask that are in some run inside it."""
        out = 0
        for run in self.shortest_runs:
            if run & mask == run:
                out |= run
        return out

    def _in_some_run(self, bit: int, suit_mask: int) -> bool:
        for run in self.short_runs_with.get(bit, ()):
            if run & suit_mask == run:
                return True
        return False

    def _spread(self, rank_mask: int) -> int:
        """`sum(1 << id)` of the cards of the first suit whose ranks are in `rank_mask` (shift it
        left by a suit's index for that suit)."""
        out = self._spread_memo.get(rank_mask)
        if out is None:
            out, r, n, m = 0, 0, self.nsuits, rank_mask
            while m:
                if m & 1:
                    out |= 1 << (r * n)
                m >>= 1
                r += 1
            if len(self._spread_memo) > _MEMO_LIMIT:
                self._spread_memo.clear()
            self._spread_memo[rank_mask] = out
        return out

    def groups(self, cards) -> tuple:
        """The melds of the best arrangement of `cards`, each a tuple of card ids: a set's cards in
        the order of `cards`, a run's from its lowest rank up (as the run reads, past the ace when
        runs wrap); the melds in the order of their first card in `cards`."""
        cards = tuple(dict.fromkeys(cards))
        _, idmask, sets, runs = self.arrange(cards)[:4]
        place = {c: i for i, c in enumerate(cards)}
        out = [tuple(sorted(meld, key=place.__getitem__)) for meld in sets]
        used = {c for meld in sets for c in meld}
        for suit, masks in runs:
            for mask in masks:
                meld = []
                for r in self._run_ranks(mask):
                    c = next(c for c in cards if c not in used and idmask >> c & 1
                             and self.card_suit[c] == suit and self.card_rank[c] == r)
                    used.add(c)
                    meld.append(c)
                out.append(tuple(meld))
        return tuple(sorted(out, key=lambda meld: min(place[c] for c in meld)))

    def _run_ranks(self, mask: int) -> list:
        """The ranks of a run's mask in the order the run reads."""
        n = mask.bit_count()
        for seq, wrap in self._seqs:
            at = [i for i, r in enumerate(seq) if mask >> r & 1]
            if len(at) != n:
                continue
            if at[-1] - at[0] + 1 == n:
                return [seq[i] for i in at]
            if wrap:  # the run goes past the end of the sequence: it starts after its gap
                start = next(i for i in at if (i - 1) % len(seq) not in at)
                return [seq[(start + k) % len(seq)] for k in range(n)]
        raise AssertionError(mask)  # pragma: no cover (every run is a window of a sequence)

    def melded(self, cards) -> tuple:
        """The cards of `cards` (in their order) in its best arrangement."""
        idmask = self.arrange(cards)[1]
        return tuple(c for c in cards if idmask >> c & 1)

    def deadwood(self, cards, span=None) -> int:
        """The points of the cards its best arrangement leaves out of melds. With `span` (where the
        rules call it), too many cards is a `RuleError` there rather than a `MeldError`, so that
        the emitted engine calls this method itself."""
        tables = self._tables  # (None without the four-suit path: see `__init__`)
        if tables is None:
            try:
                arrangement = self.arrange(cards)
            except MeldError as e:
                if span is None:
                    raise
                raise RuleError(str(e), span) from None
            return arrangement[4] - arrangement[0]
        # value only (the least deadwood is one number whichever arrangement reaches it); the
        # hand packs into one int, `width` bits a suit (a dict's bound lookup maps fastest)
        bit_of, w, w2, w3, m, n, dead = tables
        key = sum(map(bit_of, cards))
        if key.bit_count() != len(cards):  # a carry: a card given twice, which counts once
            return self.deadwood(tuple(dict.fromkeys(cards)), span)
        a, b, c, d = key & m, key >> w & m, key >> w2 & m, key >> w3
        # the ranks with at least `set_min` cards, from the four suit masks
        if n == 3:
            sets = a & b & (c | d) | c & d & (a | b)
        elif not n:
            sets = 0
        elif n == 2:
            sets = (a | b) & (c | d) | a & b | c & d
        else:
            sets = a & b & c & d
        if not sets:  # the suits are separate problems: one table lookup each
            return dead[a] + dead[b] + dead[c] + dead[d]
        if not sets & (sets - 1):
            # one rank can make a set (most such hands): each set it can make, or none, whichever
            # card a run could take (for three cards: the set or nothing), the suits then alone
            r = sets.bit_length() - 1
            best = None
            for x in self._own_choices[self._pattern[key >> r & self._spread4]]:
                k = key - (x << r)
                got = dead[k & m] + dead[k >> w & m] + dead[k >> w2 & m] + dead[k >> w3]
                if best is None or got < best:
                    best = got
            return best
        # (no memo: a few lookups cost less than one in a large dict, away from the caches)
        try:
            return self._deadwood_with_sets(key, (a, b, c, d), sets, len(cards))
        except MeldError as e:
            if span is None:
                raise
            raise RuleError(str(e), span) from None

    def deadwood_function(self, span, distinct: bool = False):
        """`deadwood(cards)` for one call site of the emitted engine, too many cards a `RuleError` at
        `span`: with three-card sets over four suits, a closure over the tables (no attribute or
        method lookup a call), else the method bound to `span`. `distinct`: the cards are a zone's,
        never one card twice, so the call does not check for it."""
        tables = self._tables
        if tables is None or tables[5] != 3:
            return functools.partial(self.deadwood, span=span)
        bit_of, w, w2, w3, m, _, dead = tables
        # the sets a single rank can make, by its cards as a number (see `_build_tables`), without
        # "no set" (which the search starts from): for the rare hands with two ranks that can
        own = {v: tuple(x for x in self._own_choices[p] if x) for v, p in self._pattern.items()}
        spread, slow = self._spread4, self.deadwood

        # (the tables are defaults, so locals: a closure's cells read more slowly; the suits are
        # read off the packed hand by shifts, and the ranks with three cards or more off the suits)
        def deadwood(cards, bit_of=bit_of, m=m, dead=dead, w=w, w2=w2, half=(1 << w2) - 1):
            key = sum(map(bit_of, cards))
            if not distinct and key.bit_count() != len(cards):  # a card given twice
                return slow(cards, span)
            ab, cd = key & half, key >> w2  # (two suits each: small ints, quicker to take apart)
            a = ab & m
            b = ab >> w
            c = cd & m
            d = cd >> w
            sets = a & b & (c | d) | c & d & (a | b)
            if not sets:  # three hands in four: the suits are separate problems
                return dead[a] + dead[b] + dead[c] + dead[d]
            best = dead[a] + dead[b] + dead[c] + dead[d]
            low = sets & -sets
            if low == sets:
                # one rank can make sets (most of the others): its set of all its cards, or (four
                # of them) of all but one, or none; a suit without the rank is unchanged by `& ~`
                out = ~sets
                got = dead[a & out] + dead[b & out] + dead[c & out] + dead[d & out]
                if a & b & c & d:  # four: leaving one card of suit x out adds dead[x] - dead[x & out]
                    got += min(0, dead[a] - dead[a & out], dead[b] - dead[b & out],
                               dead[c] - dead[c & out], dead[d] - dead[d & out])
                return got if got < best else best
            return _two_ranks(key, sets, low, best, cards)

        def _two_ranks(key, sets, low, best, cards):
            rest = sets ^ low
            if rest & (rest - 1):
                return slow(cards, span)  # three ranks or more: the choices of `arrange`, bounded
            # two ranks: each set of one (or none) with each set of the other (or none); every
            # set a rank can make is tried, a superset of the choices that can be best
            r, q = low.bit_length() - 1, rest.bit_length() - 1
            ys = (0,) + own[key >> q & spread]
            for x in (0,) + own[key >> r & spread]:
                kx = key - (x << r)
                for y in ys:
                    k = kx - (y << q)
                    got = dead[k & m] + dead[k >> w & m] + dead[k >> w2 & m] + dead[k >> w3]
                    if got < best:
                        best = got
            return best
        return deadwood

    def _build_tables(self) -> tuple:
        """`deadwood`'s tables by suit mask: the deadwood of one suit alone (its points less its best
        runs'), and the ranks of the mask that some run inside it holds. A mask's best runs leave
        its lowest rank out or meld it in a run that starts there (a run inside the mask through its
        lowest rank has it as its own lowest)."""
        cache_key = (self._width, self.runs, self.run_min, self.set_min, tuple(self.rank_points[:self._width]))
        hit = _TABLES.get(cache_key)
        if hit is not None:
            self._loose, self._spread4, self._pattern, self._choices, self._dead = hit
            self._own_choices = [self._choices[held << 4 | held] for held in range(16)]
            self._tables = (self._bitof.__getitem__, self._width, 2 * self._width, 3 * self._width, self._wmask,
                        self.set_min or 0, self._dead)
            return self._tables
        size = 1 << self._width
        starting: dict = {}
        for run in self.runs:
            starting.setdefault(run & -run, []).append((run, self.run_value[run], run.bit_count() == self.run_min))
        best, points, loose = [0] * size, [0] * size, [0] * size
        rank_of = {1 << r: r for r in range(self._width)}
        for mask in range(1, size):
            low = mask & -mask
            rest = mask ^ low
            v, held = best[rest], loose[rest]
            for run, value, shortest in starting.get(low, ()):
                if run & mask == run:
                    if best[mask ^ run] + value > v:
                        v = best[mask ^ run] + value
                    if shortest:
                        held |= run
            best[mask], loose[mask] = v, held
            points[mask] = points[rest] + self.rank_points[rank_of[low]]
        self._loose = array("H", loose) if self._width <= 16 else loose  # (16 KB, not 64)
        # a rank's cards as a number: bit `s * width` for a card of suit s (shift it by the rank);
        # `_pattern` turns one into the 4-bit pattern of its suits, and `_choices[held << 4 | free]`
        # gives the sets a rank held in the suits `held` may make when a run could take the cards
        # of `free`, as such numbers: every set without a subset of `free`, then no set (0)
        spread = [sum(1 << (s * self._width) for s in range(4) if p >> s & 1) for p in range(16)]
        self._spread4 = spread[15]
        self._pattern = {spread[p]: p for p in range(16)}
        need = self.set_min or 0
        self._choices = [[spread[held & ~out] for out in range(16) if out & ~free == 0 and out & held == out
                          and (held & ~out).bit_count() >= need] + [0] if free & ~held == 0 else []
                         for held in range(16) for free in range(16)]
        dead = [p - v for p, v in zip(points, best)]
        # as bytes where they fit: 8 KB for the standard deck, which stays in the processor's
        # caches between the engine's other work (a list of 8192 takes 64 KB); indexing bytes
        # gives the same ints
        self._dead = bytes(dead) if max(dead) < 256 else dead
        self._own_choices = [self._choices[held << 4 | held] for held in range(16)]  # (every card free)
        if len(_TABLES) >= 16:
            _TABLES.clear()
        _TABLES[cache_key] = (self._loose, self._spread4, self._pattern, self._choices, self._dead)
        self._tables = (self._bitof.__getitem__, self._width, 2 * self._width, 3 * self._width, self._wmask,
                        self.set_min or 0, self._dead)
        return self._tables

    def _deadwood_with_sets(self, key: int, masks: tuple, sets: int, ncards: int) -> int:
        """The least deadwood of a packed hand (`masks`, its four suit masks) when the ranks of
        `sets` can make sets: each such rank tries its set without each subset of the cards a run
        could take (the others are always better in the set), as `_arrange_packed` does; a choice
        is a number taken off the packed hand (the set's cards), the suits then looked up alone."""
        dead, loose, w, m = self._dead, self._loose, self._width, self._wmask
        pattern, choices, spread = self._pattern, self._choices, self._spread4
        runnable = loose[masks[0]] | loose[masks[1]] << w | loose[masks[2]] << 2 * w | loose[masks[3]] << 3 * w
        options = []
        total = 1
        while sets:
            bit = sets & -sets
            sets ^= bit
            r = bit.bit_length() - 1
            held = pattern[key >> r & spread]
            free = pattern[runnable >> r & spread]
            if not free:  # no card of the rank can be in a run: the whole set it is
                key -= bit * choices[held << 4][0]
                continue
            options.append([bit * x for x in choices[held << 4 | free]])
            total *= len(options[-1])
        if total > MAX_COMBINATIONS:
            raise MeldError(f"{ncards} cards have too many ways to be arranged into melds")
        if len(options) < 2:  # the common case: one rank whose set a run could break into
            best = None
            for x in options[0] if options else (0,):
                k = key - x
                got = dead[k & m] + dead[k >> w & m] + dead[k >> 2 * w & m] + dead[k >> 3 * w]
                if best is None or got < best:
                    best = got
            return best
        best = None
        for combo in _product(options):
            k = key - sum(combo)
            got = dead[k & m] + dead[k >> w & m] + dead[k >> 2 * w & m] + dead[k >> 3 * w]
            if best is None or got < best:
                best = got
        return best

    def layoffs(self, cards, onto) -> tuple:
        """The cards of `cards` that can be laid off onto the melds of `onto`'s best arrangement:
        a card of a set's rank, or a card of a run's suit that extends it, alone or through other
        cards of `cards` laid off before it."""
        sets, runs = self.arrange(onto)[2:4]
        card_rank, card_suit = self.card_rank, self.card_suit
        onto_set = set(onto)
        free = [c for c in dict.fromkeys(cards) if c not in onto_set and card_suit[c] >= 0]
        set_ranks = {card_rank[m[0]] for m in sets}
        out = {c for c in free if card_rank[c] in set_ranks}
        by_suit: dict = {}
        for c in free:
            by_suit.setdefault(card_suit[c], {})[1 << card_rank[c]] = c
        for s, run in ((s, run) for s, rs in runs for run in rs):
            loose = by_suit.get(s)
            grown = True
            while loose and grown:
                grown = False
                for bit, c in list(loose.items()):
                    if run | bit in self.runs:
                        run |= bit
                        out.add(c)
                        del loose[bit]
                        grown = True
        return tuple(c for c in cards if c in out)


def _product(lists):
    """Every choice of one item from each list (one empty choice when there are no lists)."""
    out = [()]
    for items in lists:
        out = [prefix + (x,) for prefix in out for x in items]
    return out


def _run_seqs(order, ace, ace_rank) -> list:
    """The sequences of ranks runs are windows of, each with whether it wraps past its end."""
    seqs = []
    base = [r for r in order if ace is None or r != ace_rank]
    if ace in (None,):
        seqs.append((base, False))
    elif ace == "low":
        seqs.append(([ace_rank] + base, False))
    elif ace == "high":
        seqs.append((base + [ace_rank], False))
    elif ace == "both":
        seqs += [([ace_rank] + base, False), (base + [ace_rank], False)]
    else:  # around: runs wrap past the ace, from the top of the order to its bottom
        seqs.append((base + [ace_rank], True))
    return seqs


def _runs(order, run_min: int, ace, ace_rank) -> frozenset:
    """Every run as a rank mask: windows of at least `run_min` consecutive ranks of `order`."""
    out = set()
    for seq, wrap in _run_seqs(order, ace, ace_rank):
        n = len(seq)
        for start in range(n if wrap else max(0, n - run_min + 1)):
            mask = 0
            for length in range(1, n + 1 if wrap else n - start + 1):
                mask |= 1 << seq[(start + length - 1) % n]
                if length >= run_min:
                    out.add(mask)
    return frozenset(out)


def combination(name: str, rule, deck, table, *args):
    """The value of the language's function `name` (`melded`, `melds`, `deadwood`, `layoffs`, `subsets`,
    `pairs`, `runs`, `run_cards`, `longest_suit`; `groups`: `melds` of a zone of groups) over `args`;
    `rule` is the game's MeldRule, `table` the card table (an order or values) an argument names.
    Raises MeldError."""
    if name == "melded":
        return rule.melded(args[0])
    if name == "groups":  # `melds(z)` of a zone of groups: its groups as laid (runtime/groups.py)
        return laid_groups_text(rule, args[0], args[1])
    if name == "melds":  # a text that keeps its cards (shown to each seat as it knows them)
        return " | ".join(" ".join(f"{CARD_REF}{c}{MARK_END}" for c in meld) for meld in rule.groups(args[0]))
    if name == "deadwood":
        return rule.deadwood(args[0])
    if name == "layoffs":
        return rule.layoffs(args[0], args[1])
    if name == "subsets":
        return count_subsets(args[0], table, args[1])
    if name == "pairs":
        return count_pairs(args[0], deck.card_rank, deck.card_suit)
    if name in ("runs", "run_cards"):
        return count_runs(args[0], table, name == "run_cards")
    if name == "longest_suit":
        return longest_suit(args[0], deck.card_suit)
    raise AssertionError(name)  # pragma: no cover


def laid_groups(rule, cards, tags) -> tuple:
    """The groups of `cards` (a zone of groups' cards, bottom first; `tags`: each card's group number,
    runtime/groups.py), in the order they were laid: each group's cards in the zone's order, or,
    when the group is one meld, as the meld reads (a run from its lowest rank up, as `melds` reads it)."""
    by_group: dict = {}
    for c in cards:
        by_group.setdefault(tags[c] if tags is not None else 0, []).append(c)
    out = []
    for number in sorted(by_group):
        group = tuple(by_group[number])
        if rule is not None and len(group) > 1:
            try:
                reading = rule.groups(group)
            except MeldError:  # (more cards than one meld can be: they read as laid)
                reading = ()
            if len(reading) == 1 and len(reading[0]) == len(group):
                group = reading[0]
        out.append(group)
    return tuple(out)


def laid_groups_text(rule, cards, tags) -> str:
    """`melds(z)` of a zone of groups: its groups as laid, ` | ` between them, as a text that keeps
    its cards (each seat reads those it knows)."""
    return " | ".join(" ".join(f"{CARD_REF}{c}{MARK_END}" for c in group) for group in laid_groups(rule, cards, tags))


def count_subsets(cards, values, total: int) -> int:
    """How many subsets of `cards` have `values[card]` adding up to `total`."""
    if total < 0:
        return 0
    ways = [1] + [0] * total
    for c in cards:
        v = values[c]
        if v < 0:
            raise MeldError("`subsets` adds up values of 0 or more")
        if v == 0:
            ways = [w * 2 for w in ways]
            continue
        for s in range(total, v - 1, -1):
            if ways[s - v]:
                ways[s] += ways[s - v]
    return ways[total]


def count_pairs(cards, card_rank, card_suit) -> int:
    """How many pairs of cards of one rank `cards` holds (jokers are of no rank)."""
    counts: dict = {}
    for c in cards:
        if card_suit[c] >= 0:
            counts[card_rank[c]] = counts.get(card_rank[c], 0) + 1
    return sum(k * (k - 1) // 2 for k in counts.values())


def count_runs(cards, positions, length_weighted: bool = False) -> int:
    """How many runs `cards` holds: sets of 3 or more cards of consecutive positions in an order
    (`positions[card]`, 0 for a rank outside it), one card a position, each as long as it can be
    (a longer run through the same positions leaves no shorter one). With `length_weighted`, each
    run counts its cards (what counting games score)."""
    counts: dict = {}
    for c in cards:
        p = positions[c]
        if p:
            counts[p] = counts.get(p, 0) + 1
    total = 0
    for p in sorted(counts):
        if p - 1 in counts:
            continue  # not the start of a stretch
        length, ways = 0, 1
        while p + length in counts:
            ways *= counts[p + length]
            length += 1
        if length >= 3:
            total += ways * (length if length_weighted else 1)
    return total


def longest_suit(cards, card_suit) -> int:
    """The number of cards of the suit `cards` holds most of (0 for none; jokers have no suit)."""
    counts: dict = {}
    for c in cards:
        s = card_suit[c]
        if s >= 0:
            counts[s] = counts.get(s, 0) + 1
    return max(counts.values(), default=0)
