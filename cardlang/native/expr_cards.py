"""The native emitter's card expressions: a card operand, its order and points, and the kernels'
hand values, combinations and melds (`native/poker.py`, `native/melds.py`, `native/climbing.py`).

A mixin of `native.expr.ExprEmitter` (it uses its `i`, `s`, `tmp`, `buffer` and the emitter's
`kernel_table`, `const`, `layout`): kept apart because these methods are the ones that build the
kernels' tables from the deck, so the expression module reads as the walk over the IR and this one
as the bridge to the card kernels.
"""

from __future__ import annotations

import numpy as np

from .climbing import KINDS as CLIMB_KINDS, rule_tables as climb_tables
from .kinds import NONE, refuse
from .melds import arrangement_table, deadwood_table
from .poker import ranking_table
from .writer import Seq

MAX_SUBSET_TOTAL = 1 << 20  # `subsets` to a total past it stops the run (its count table is that long)


class CardExprs:
    """Card expressions (mixed into `native.expr.ExprEmitter`)."""

    def card(self, w, e) -> str:
        """A card-kind operand: none, or a card of the deck (anything else stops the run)."""
        c = self.i(w, e)
        w.fail_if(f"{c} != {NONE} and ({c} < 0 or {c} >= {self.layout.deck.size})", e)
        return c

    def i_OrderOf(self, w, e):
        c = self.card(w, e.card)
        table = self.const(f"K_order_{len(self.consts)}", self.layout.orders[e.order])
        return self.tmp(w, f"0 if {c} == {NONE} else {table}[{c}]")

    def i_RankPoints(self, w, e):
        c = self.card(w, e.card)
        table = self.const(f"K_points_{len(self.consts)}", e.table)
        return self.tmp(w, f"0 if {c} == {NONE} else {table}[{c}]")

    def _cards(self, w, e) -> Seq:
        """A list of cards for a kernel: each a card of the deck (anything else stops the run)."""
        q = self.s(w, e)
        j = w.fresh("j")
        with w.block(f"for {j} in range({q.n})"):
            w.fail_outside(q.at(j), self.layout.deck.size, e)
        return q

    def _deck_table(self, what: str) -> str:
        deck = self.layout.deck
        values = deck.card_rank if what == "rank" else deck.card_suit
        return self.kernel_table(("deck", what), lambda: np.asarray(values, dtype=np.int64))

    def i_HandValue(self, w, e):
        q = self._cards(w, e.cards)
        ranking, codes = self.layout.rankings[e.ranking]
        table = self.kernel_table(("ranking", e.ranking), lambda: ranking_table(ranking, codes))
        x = self.tmp(w, f"hand_value({q.whole()}, {q.n}, {table})")
        w.fail_if(f"{x} < 0", e)  # (5 to 10 cards: the engines' `poker_hand_size` error)
        return x

    def i_Combination(self, w, e):
        """`subsets`, `pairs`, `runs`, `run_cards`, `longest_suit` (`kinds.COUNTING`) by the kernels
        of `native/melds.py`; a refusal of the runtime (MeldError) stops the run."""
        q = self._cards(w, e.args[0])
        name = e.name
        if name in ("beats", "kind"):
            return self._climb(w, e, q)
        if name == "deadwood":
            x = self.tmp(w, f"deadwood({q.whole()}, {q.n}, {self._meld_table(e, deadwood_table)})")
            w.fail_if(f"{x} < 0", e)  # (more set choices than the runtime tries: its MeldError)
            return x
        if name == "pairs":
            return self.tmp(w, f"count_pairs({q.whole()}, {q.n}, {self._deck_table('rank')}, "
                               f"{self._deck_table('suit')})")
        if name == "longest_suit":
            return self.tmp(w, f"longest_suit({q.whole()}, {q.n}, {self._deck_table('suit')})")
        order = self.layout.orders[e.table]
        table = self.kernel_table(("order", e.table), lambda: np.asarray(order, dtype=np.int64))
        if name in ("runs", "run_cards"):
            return self.tmp(w, f"count_runs({q.whole()}, {q.n}, {table}, {name == 'run_cards'})")
        total = self.i(w, e.args[1])
        self.not_none(w, total, e)
        w.fail_if(f"{total} > {MAX_SUBSET_TOTAL}", e)  # (a count table that large: the compiled engine)
        x = self.tmp(w, f"count_subsets({q.whole()}, {q.n}, {table}, {total})")
        w.fail_if(f"{x} < 0", e)  # (a value below 0, or more cards than an int64 count holds)
        return x

    def _climb(self, w, e, q: Seq) -> str:
        """`beats(cards, laid)` (1 or 0), `kind(cards)` (the number of its text, none for no
        combination): `runtime/climbing.py`'s rule by the kernels of `native/climbing.py`."""
        rule = self.layout.combos
        height = self.kernel_table(("climb", "height"), lambda: climb_tables(rule)[0])
        table = self.kernel_table(("climb", "rule"), lambda: climb_tables(rule)[1])
        if e.name == "beats":
            laid = self._cards(w, e.args[1])
            return self.tmp(w, f"climb_beats({q.whole()}, {q.n}, {laid.whole()}, {laid.n}, {height}, {table})")
        kind = w.fresh("k")
        w.line(f"{kind}, _, _ = climb_of({q.whole()}, {q.n}, {height}, {table})")
        names = self.const("K_kinds", tuple(self.text_id(k) for k in CLIMB_KINDS))
        return self.tmp(w, f"{NONE} if {kind} < 0 else {names}[{kind}]")

    def _meld_table(self, e, build) -> str:
        """The kernel table `build(layout.melds)` (refused, naming why, for a rule it cannot hold)."""
        try:
            return self.kernel_table((build.__name__,), lambda: build(self.layout.melds))
        except NotImplementedError as why:
            raise refuse(f"melds (`{e.name}`: {why})", e) from None

    def s_Combination(self, w, e):
        """`melded`, `layoffs` by the kernels of `native/melds.py` (at most 63 card ids: a mask)."""
        if self.layout.deck.size > 63:
            raise refuse(f"melds (`{e.name}`) over a deck of more than 63 cards", e)
        q = self._cards(w, e.args[0])
        if e.name == "layoffs":
            onto = self._cards(w, e.args[1])
        table = self._meld_table(e, arrangement_table)
        out = self.buffer(w)
        if e.name in ("melded", "melds"):  # (`melds` is a text of the same arrangement)
            w.line(f"{out.n} = melded({q.whole()}, {q.n}, {table}, {out.whole()})")
        else:
            w.line(f"{out.n} = layoffs({q.whole()}, {q.n}, {onto.whole()}, {onto.n}, {table}, {out.whole()})")
        w.fail_if(f"{out.n} < 0", e)  # (more set choices than the runtime tries: its MeldError)
        return out

    def fx_Combination(self, w, e):
        """`melds(cards)` (a text) is worked out for its MeldError only: the cards' arrangement."""
        self.s_Combination(w, e)
