"""The native emitter's expressions: one method per IR expression node, as `reference_expr` has.

`i(w, e)` writes the statements that work out an int-kind expression and gives a name (or a
literal) holding it; `s(w, e)` gives a `Seq` for a sequence; `fx(w, e)` works one out only for
what it may draw or break (a text in a quiet run). Operands are worked out in the reference's order
(`compiler/ir.py`); where the reference meets a rule error (a none where a number is needed, an
item out of a list, a number past the native range) the code stops the run (`Writer.fail`).
The card kernels' expressions are in `expr_cards.py` and the calls of a `define` in
`expr_defines.py` (mixins of `ExprEmitter`).
"""

from __future__ import annotations

from math import comb
from typing import Optional

from ..runtime import card_sets
from ..runtime.effects import MAX_RANGE
from .expr_cards import CardExprs
from .expr_defines import DefineCalls
from .kinds import INT, NONE, SEQ, refuse, text_of
from .writer import Seq

BIG = 1 << 62  # a number at or past it stops the run (the compiled engine then plays the game)
SQRT = 3037000499  # operands of `*` past it stop the run (no int64 product overflows)

_OPS = {"==": "==", "!=": "!=", "<": "<", ">": ">", "<=": "<=", ">=": ">="}


class ExprEmitter(CardExprs, DefineCalls):
    """Expressions (mixed into `native.emit.Emitter`, which holds the layout and constants)."""

    # ------------------------------------------------------------------ entry points
    def i(self, w, e) -> str:
        if self.kinds.expr(e) != INT:
            raise refuse(f"a {self.kinds.expr(e)} used as a value", e)
        return getattr(self, "i_" + type(e).__name__)(w, e)

    def s(self, w, e) -> Seq:
        if self.kinds.expr(e) != SEQ:
            raise refuse(f"a {self.kinds.expr(e)} used as a list", e)
        return getattr(self, "s_" + type(e).__name__)(w, e)

    def fx(self, w, e) -> None:
        """Works `e` out for its draws and rule errors only."""
        kind = self.kinds.expr(e)
        if kind == INT:
            self.i(w, e)
        elif kind == SEQ:
            self.s(w, e)
        else:
            getattr(self, "fx_" + type(e).__name__)(w, e)

    def tmp(self, w, value: str, prefix: str = "t") -> str:
        name = w.fresh(prefix)
        w.line(f"{name} = {value}")
        return name

    def buffer(self, w) -> Seq:
        """A fresh scratch row of `B` (one per place in the code: a value is used before its place
        is worked out again) and its length, 0."""
        k = self.sites
        self.sites += 1
        n = w.fresh("n")
        w.line(f"{n} = 0")
        return Seq("B", n, False, k)

    def push(self, w, out: Seq, value: str, node) -> None:
        """Appends `value` to the scratch row `out` (a list past the row stops the run)."""
        w.fail_if(f"{out.n} >= {self.legal_cap if out.arr == 'LG' else self.cap}", node)
        w.line(f"{out.at(f'{out.n}')} = {value}")
        w.line(f"{out.n} += 1")

    def copy(self, w, q: Seq, node) -> Seq:
        """`q` in a scratch row of its own (before a step changes the state it is a view of)."""
        out = self.buffer(w)
        j = w.fresh("j")
        with w.block(f"for {j} in range({q.n})"):
            w.line(f"{out.at(f'{j}')} = {q.at(f'{j}')}")
        w.line(f"{out.n} = {q.n}")
        return out

    def not_none(self, w, x: str, node) -> None:
        w.fail_if(f"{x} == {NONE}", node)

    # ------------------------------------------------------------------ values and places
    def i_Const(self, w, e):
        v = e.value
        if isinstance(v, str):
            return str(self.text_id(v))
        return str(NONE) if v is None else str(int(v))

    def i_Text(self, w, e):  # (a text without parts: `kinds.plain_text`)
        return str(self.text_id(text_of(e)))

    def text_id(self, text: str) -> int:
        """The number of a constant text (equal texts, equal numbers)."""
        return self.texts.setdefault(text, len(self.texts))

    def s_Const(self, w, e):
        values = tuple(NONE if x is None else int(x) for x in e.value)
        table = self.const("K_list", values + (0,))  # (a module-level table, read only: a view)
        return Seq(table, str(len(values)), True)

    def i_Slot(self, w, e):
        return self.tmp(w, f"V[{e.slot}]")

    def s_Slot(self, w, e):
        return Seq("TV", self.tmp(w, f"TN[{e.slot}]", "n"), True, e.slot)

    def _pslot(self, w, base, player) -> str:
        p = self.i(w, player)
        self.not_none(w, p, player)
        k = self.tmp(w, f"{base} + {p}")
        w.fail_outside(k, self.nslots, player)  # (a slot of no variable)
        return k

    def i_PlayerVar(self, w, e):
        return self.tmp(w, f"V[{self._pslot(w, e.base, e.player)}]")

    def s_PlayerVar(self, w, e):
        k = self._pslot(w, e.base, e.player)
        return Seq("TV", self.tmp(w, f"TN[{k}]", "n"), True, k)

    def i_PlayerZone(self, w, e):
        p = self.i(w, e.player)
        w.fail_outside(p, self.n, e)
        return self.tmp(w, f"{e.base} + {p}")

    def s_PlayerZone(self, w, e):
        q = self.s(w, e.player)
        out = self.buffer(w)
        j = w.fresh("j")
        with w.block(f"for {j} in range({q.n})"):
            w.fail_outside(q.at(f'{j}'), self.n, e)
            self.push(w, out, f"{e.base} + {q.at(f'{j}')}", e)
        return out

    def i_PileZone(self, w, e):
        k = self.i(w, e.index)
        w.fail_if(f"{k} < 1 or {k} > {e.count}", e)
        return self.tmp(w, f"{e.base} + {k} - 1")

    def i_PositionOf(self, w, e):
        c = self.i(w, e.card)
        q = self.s(w, e.cards)
        out = self.tmp(w, "0")
        j = w.fresh("j")
        with w.block(f"if {c} != {NONE}"):
            with w.block(f"for {j} in range({q.n})"):
                with w.block(f"if {q.at(f'{j}')} == {c}"):
                    w.line(f"{out} = {j} + 1")
                    w.line("break")
        return out

    def i_FaceUp(self, w, e):
        """`c is face up`: every seat knows c (`KN`, kept when a rule reads it; false for none)."""
        c = self.i(w, e.card)
        out = self.tmp(w, "0")
        with w.block(f"if {c} != {NONE}"):
            w.fail_outside(c, self.layout.deck.size, e)
            w.line(f"{out} = 1 if KN[{c}] == {self.layout.all} else 0")
        return out

    # ------------------------------------------------------------------- pots (`runtime.pots.READERS`)
    def i_PotValue(self, w, e):
        pot, what = e.pot, e.what
        s = pot.base + 4 * pot.n
        if what == "total":
            return self.tmp(w, f"V[{pot.base}:{pot.base + pot.n}].sum()")
        if what == "contribution":
            p = self.i(w, e.args[0])
            w.fail_outside(p, pot.n, e)
            return self.tmp(w, f"V[{pot.base} + {p}]")
        if what == "betting":
            return self.tmp(w, f"1 if V[{s + 3}] != {NONE} else 0")
        if what == "actor":
            return self.tmp(w, f"V[{s + 3}]")
        column = {"fold": 0, "check": 1, "call": 2, "raise_low": 3, "raise_high": 4}.get(what)
        if column is None:
            raise refuse(f"the pot's value `{what}`", e)
        return self.tmp(w, f"TV[{s + 6}, {column}]")

    def s_PotValue(self, w, e):  # (`contenders`: active seats that have not folded, in seat order)
        pot = e.pot
        out = self.buffer(w)
        p = w.fresh("p")
        with w.block(f"for {p} in range({pot.n})"):
            with w.block(f"if ACT[{p}] and V[{pot.base + 2 * pot.n} + {p}] == 0"):
                self.push(w, out, p, e)
        return out

    def s_Range(self, w, e):
        """`lo..hi` (`effects.number_range`); a range past a scratch row stops the run."""
        lo, hi = self.i(w, e.low), self.i(w, e.high)
        w.fail_if(f"{lo} == {NONE} or {hi} == {NONE} or {hi} - {lo} >= {MAX_RANGE}", e)
        out = self.buffer(w)
        x = w.fresh("x")
        with w.block(f"for {x} in range({lo}, {hi} + 1)"):
            self.push(w, out, x, e)
        return out

    def s_ZoneCards(self, w, e):
        z = self.i(w, e.zone)
        w.fail_outside(z, self.nzones, e)
        return Seq("Z", self.tmp(w, f"ZN[{z}]", "n"), True, z)

    def s_Maybe(self, w, e):
        x = self.i(w, e.value)
        out = self.buffer(w)
        with w.block(f"if {x} != {NONE}"):
            w.line(f"{out.at(f'0')} = {x}")
            w.line(f"{out.n} = 1")
        return out

    def s_Tuple(self, w, e):
        values = [self.i(w, item) for item in e.items]
        out = self.buffer(w)
        for x in values:
            self.push(w, out, x, e)
        return out

    def i_Index(self, w, e):
        q = self.s(w, e.seq)
        k = self.i(w, e.index)
        w.fail_if(f"{k} < 1 or {k} > {q.n}", e)
        return self.tmp(w, f"{q.at(f'{k} - 1')}")

    # ------------------------------------------------------------------- operators
    def i_Negate(self, w, e):
        x = self.i(w, e.operand)
        self.not_none(w, x, e)
        return self.tmp(w, f"-{x}")

    def skip_unless(self, w, where) -> None:
        """In a loop over items (`for each`, an aggregate), the item in its slot: the next item unless
        `where` (a loop's filter, or None) holds of this one."""
        if where is not None:
            c = self.i(w, where)
            with w.block(f"if not {self.truth(c)}"):
                w.line("continue")

    def truth(self, x: str) -> str:
        """Python's truth of an int-kind value (none is false)."""
        return f"({x} != 0 and {x} != {NONE})"

    def i_Not(self, w, e):
        x = self.i(w, e.operand)
        return self.tmp(w, f"0 if {self.truth(x)} else 1")

    def i_And(self, w, e):
        out = self.tmp(w, self.i(w, e.left))
        with w.block(f"if {self.truth(out)}"):
            w.line(f"{out} = {self.i(w, e.right)}")
        return out

    def i_Or(self, w, e):
        out = self.tmp(w, self.i(w, e.left))
        with w.block(f"if not {self.truth(out)}"):
            w.line(f"{out} = {self.i(w, e.right)}")
        return out

    def i_Conditional(self, w, e):
        c = self.i(w, e.cond)
        out = w.fresh()
        with w.block(f"if {self.truth(c)}"):
            w.line(f"{out} = {self.i(w, e.then)}")
        with w.block("else"):
            w.line(f"{out} = {self.i(w, e.otherwise)}")
        return out

    def s_Conditional(self, w, e):
        c = self.i(w, e.cond)
        out = self.buffer(w)
        for head, side in ((f"if {self.truth(c)}", e.then), ("else", e.otherwise)):
            with w.block(head):
                q = self.s(w, side)
                j = w.fresh("j")
                with w.block(f"for {j} in range({q.n})"):
                    w.line(f"{out.at(f'{j}')} = {q.at(f'{j}')}")
                w.line(f"{out.n} = {q.n}")
        return out

    def fx_Conditional(self, w, e):
        c = self.i(w, e.cond)
        with w.block(f"if {self.truth(c)}"):
            self.fx(w, e.then)
        with w.block("else"):
            self.fx(w, e.otherwise)

    def i_Arith(self, w, e):
        if e.op in ("/", "%"):
            d = self.i(w, e.right)  # the divisor first
            w.fail_if(f"{d} == 0 or {d} == {NONE}", e)
            a = self.i(w, e.left)
            self.not_none(w, a, e)
            return self.tmp(w, f"{a} // {d}" if e.op == "/" else f"{a} % {d}")
        a, b = self.i(w, e.left), self.i(w, e.right)
        w.fail_if(f"{a} == {NONE} or {b} == {NONE}", e)
        if e.op == "*":
            w.fail_if(f"abs({a}) > {SQRT} or abs({b}) > {SQRT}", e)
            return self.tmp(w, f"{a} * {b}")
        out = self.tmp(w, f"{a} {e.op} {b}")
        w.fail_if(f"{out} >= {BIG} or {out} <= -{BIG}", e)
        return out

    def i_Compare(self, w, e):
        if e.op not in ("==", "!=") and (self.kinds.texty(e.left) or self.kinds.texty(e.right)):
            raise refuse("an order between texts", e)
        a = self.i(w, e.left)
        b = self.i(w, e.right)
        if e.op not in ("==", "!="):  # (an order between none and a value is a rule error)
            w.fail_if(f"{a} == {NONE} or {b} == {NONE}", e)
        return self.tmp(w, f"1 if {a} {_OPS[e.op]} {b} else 0")

    def s_Concat(self, w, e):
        a = self.s(w, e.left)
        b = self.s(w, e.right)
        out = self.buffer(w)
        for q in (a, b):
            j = w.fresh("j")
            with w.block(f"for {j} in range({q.n})"):
                self.push(w, out, f"{q.at(f'{j}')}", e)
        return out

    def i_In(self, w, e):
        x = self.i(w, e.item)
        q = self.s(w, e.seq)
        return self._member(w, x, q)

    def _member(self, w, x: str, q: Seq, table: Optional[str] = None) -> str:
        """1 if some item of `q` (its entry in `table`, when given) is `x`, else 0."""
        out = self.tmp(w, "0")
        j = w.fresh("j")
        with w.block(f"for {j} in range({q.n})"):
            item = q.at(f"{j}") if table is None else f"{table}[{q.at(f'{j}')}]"
            if self.opt.branchless_has and q.arr == "Z":  # (a zone's cards: every read in bounds)
                w.line(f"{out} |= np.int64({item} == {x})")
            else:
                with w.block(f"if {item} == {x}"):
                    w.line(f"{out} = 1")
                    w.line("break")
        return out

    def s_Except(self, w, e):
        q = self.s(w, e.seq)
        out = self.buffer(w)
        with w.block(f"if {q.n} > 0"):
            j = w.fresh("j")
            if e.many:
                o = self.s(w, e.other)
                with w.block(f"for {j} in range({q.n})"):
                    x = self.tmp(w, f"{q.at(f'{j}')}")
                    with w.block(f"if {self._member(w, x, o)} == 0"):
                        self.push(w, out, x, e)
            else:
                o = self.i(w, e.other)
                with w.block(f"for {j} in range({q.n})"):
                    with w.block(f"if {q.at(f'{j}')} != {o}"):
                        self.push(w, out, f"{q.at(f'{j}')}", e)
        return out

    def _table(self, name: str) -> str:
        deck = self.layout.deck
        values = {"rank": deck.card_rank, "suit": deck.card_suit, "face": deck.card_face}[name]
        return self.const(f"K_{name}", values)

    def i_Is(self, w, e):
        x = self.card(w, e.value) if e.table is not None else self.i(w, e.value)
        pat = self.i(w, e.pattern)
        if e.table is None:
            same = f"{x} == {pat}"
        else:
            same = f"{x} != {NONE} and {self._table(e.table)}[{x}] == {pat}"
        return self.tmp(w, f"0 if {same} else 1" if e.negate else f"1 if {same} else 0")

    def i_Has(self, w, e):
        pat = self.i(w, e.pattern)
        q = self.s(w, e.cards)
        return self._member(w, pat, q, None if e.table is None else self._table(e.table))

    # ----------------------------------------------------------------------- seats
    def i_Neighbour(self, w, e):
        p = self.i(w, e.player)
        self.not_none(w, p, e)
        step = self.tmp(w, str(e.step))
        if e.reverse is not None:
            with w.block(f"if {self.truth(f'V[{e.reverse}]')}"):
                w.line(f"{step} = -{e.step}")
        out = self.tmp(w, p)
        k, q = w.fresh("k"), w.fresh("q")
        with w.block(f"for {k} in range(1, {self.n} + 1)"):
            w.line(f"{q} = ({p} + {step} * {k}) % {self.n}")
            with w.block(f"if ACT[{q}]"):
                w.line(f"{out} = {q}")
                w.line("break")
        return out

    def s_Players(self, w, e):
        stop = self.i(w, e.stop) if e.stop is not None else None  # the end first
        start = self.i(w, e.start) if e.start is not None else "0"
        w.fail_outside(start, self.n, e)
        ring = self.const("K_ring", self.layout.ring, 2)
        if e.reverse is not None:
            n, step = self.layout.players, self.layout.step
            back = self.const("K_ring_back", tuple(tuple((s - step * i) % n for i in range(n)) for s in range(n)), 2)
            ring = self.tmp(w, f"{back} if {self.truth(f'V[{e.reverse}]')} else {ring}")
        out = self.buffer(w)
        k, q = w.fresh("k"), w.fresh("q")
        with w.block(f"for {k} in range({self.n})"):
            w.line(f"{q} = {ring}[{start}, {k}]")
            with w.block(f"if ACT[{q}]"):
                w.line(f"{out.at(f'{out.n}')} = {q}")
                w.line(f"{out.n} += 1")
            if stop is not None:
                with w.block(f"if {q} == {stop}"):
                    w.line("break")
        return out

    def i_EndCards(self, w, e):
        q = self.s(w, e.seq)
        first = e.top == e.players  # players: the top is the first; cards: the top is the last
        at = q.at("0" if first else f"{q.n} - 1")
        return self.tmp(w, f"{NONE} if {q.n} == 0 else {at}")

    def s_EndCards(self, w, e):
        q = self.s(w, e.seq)
        k = self.i(w, e.count)
        w.fail_if(f"{k} < 0", e)
        m = self.tmp(w, f"min({k}, {q.n})")
        out = self.buffer(w)
        j = w.fresh("j")
        # players: the first k (top) or the last k, last first; cards: the last k, last first (top), or the first k
        from_end = (not e.players and e.top) or (e.players and not e.top)
        with w.block(f"for {j} in range({m})"):
            w.line(f"{out.at(f'{j}')} = {q.at(f'{q.n} - 1 - {j}')}" if from_end else f"{out.at(f'{j}')} = {q.at(f'{j}')}")
        w.line(f"{out.n} = {m}")
        return out

    # ------------------------------------------------------------------ aggregates
    def _aggregate(self, w, e, out_seq=None):
        kind = e.kind
        q = self.s(w, e.seq)
        total = self.tmp(w, "0")  # any, count, sum: the answer; highest/lowest: the item chosen
        best = self.tmp(w, "0")
        found = self.tmp(w, "0")
        if kind in ("highest", "lowest"):
            w.line(f"{total} = {NONE}")
        j = w.fresh("j")
        with w.block(f"for {j} in range({q.n})"):
            w.line(f"V[{e.slot}] = {q.at(f'{j}')}")
            self.skip_unless(w, e.where)
            if kind == "any":
                w.line(f"{total} = 1")
                w.line("break")
            elif kind == "count":
                w.line(f"{total} += 1")
            elif kind == "sum":
                x = self.i(w, e.body)
                self.not_none(w, x, e)
                w.line(f"{total} += {x}")
                w.fail_if(f"{total} >= {BIG} or {total} <= -{BIG}", e)
            elif kind == "select":
                self.push(w, out_seq, f"{q.at(f'{j}')}", e)
            else:
                x = self.i(w, e.body)
                if kind in ("min", "max", "highest", "lowest"):
                    self.not_none(w, x, e)  # (values compared: none cannot be)
                better = "<" if kind in ("min", "lowest") else ">"
                with w.block(f"if {found} == 0 or {x} {better} {best}"):
                    w.line(f"{best} = {x}")
                    if kind in ("highest", "lowest"):
                        w.line(f"{total} = {q.at(f'{j}')}")
                w.line(f"{found} = 1")
        if kind in ("min", "max"):
            w.fail_if(f"{found} == 0", e)
            return best
        return total

    def i_Aggregate(self, w, e):
        return self._aggregate(w, e)

    def s_Aggregate(self, w, e):
        out = self.buffer(w)
        self._aggregate(w, e, out)
        return out

    def s_BestScorers(self, w, e):
        scores = self.buffer(w)  # scores[q] for each seat in play (NONE for the others)
        best = self.tmp(w, "0")
        found = self.tmp(w, "0")
        q = w.fresh("q")
        with w.block(f"for {q} in range({self.n})"):
            w.line(f"{scores.at(f'{q}')} = {NONE}")
            inn = f"ACT[{q}]"
            if e.sitting is not None:
                inn += f" or {self._member(w, q, Seq('TV', f'TN[{e.sitting}]', True, e.sitting))}"
            with w.block(f"if {inn}"):
                w.line(f"V[{e.slot}] = {q}")
                x = self.i(w, e.value)
                self.not_none(w, x, e)
                w.line(f"{scores.at(f'{q}')} = {x}")
                with w.block(f"if {found} == 0 or {x} {'<' if e.lowest else '>'} {best}"):
                    w.line(f"{best} = {x}")
                w.line(f"{found} = 1")
        out = self.buffer(w)
        with w.block(f"if {found}"):
            with w.block(f"for {q} in range({self.n})"):
                with w.block(f"if {scores.at(f'{q}')} != {NONE} and {scores.at(f'{q}')} == {best}"):
                    self.push(w, out, q, e)
        return out

    # ------------------------------------------------------------------ functions
    def i_TeamTable(self, w, e):
        k = self.i(w, e.index)
        w.fail_if(f"{k} != {NONE} and ({k} < 0 or {k} >= {len(e.table)})", e)
        values = tuple(NONE if x is None else x for x in e.table)
        table = self.const(f"K_team_{len(self.consts)}", values)
        return self.tmp(w, f"{NONE} if {k} == {NONE} else {table}[{k}]")

    def s_TeamTable(self, w, e):
        k = self.i(w, e.index)
        out = self.buffer(w)
        for idx, members in enumerate(e.table):
            with w.block(f"if {k} == {idx}"):
                for x in members:
                    self.push(w, out, str(x), e)
        return out

    def i_Builtin(self, w, e):
        name = e.name
        if name in ("count", "sum", "any", "random"):
            q = self.s(w, e.args[0])
            if name == "count":
                return q.n
            if name == "any":
                return self.tmp(w, f"1 if {q.n} > 0 else 0")
            if name == "sum":
                total = self.tmp(w, "0")
                j = w.fresh("j")
                with w.block(f"for {j} in range({q.n})"):
                    self.not_none(w, f"{q.at(f'{j}')}", e)
                    w.line(f"{total} += {q.at(f'{j}')}")
                    w.fail_if(f"{total} >= {BIG} or {total} <= -{BIG}", e)
                return total
            w.fail_if(f"{q.n} == 0", e)  # `random` of nothing
            k = w.fresh("k")
            w.line(f"{k}, G[0] = chance_below({q.n}, G[0])")
            return self.tmp(w, f"{q.at(f'{k}')}")
        args = [self.card(w, a) if name in ("suit", "rank", "colour") else self.i(w, a) for a in e.args]
        if name == "suit":
            suit = self._table("suit")
            return self.tmp(w, f"{NONE} if {args[0]} == {NONE} or {suit}[{args[0]}] < 0 else {suit}[{args[0]}]")
        if name == "rank":
            return self.tmp(w, f"{NONE} if {args[0]} == {NONE} else {self._table('rank')}[{args[0]}]")
        if name in ("colour", "suit_colour"):  # "red"/"black" by their text numbers, as the constants `red`, `black`
            return self._colour(w, name, args[0])
        if name == "seat":
            self.not_none(w, args[0], e)
            return self.tmp(w, f"{args[0]} + 1")
        if name in ("abs", "min", "max"):
            for a in args:
                self.not_none(w, a, e)
            return self.tmp(w, f"{name}({', '.join(args)})")
        raise refuse(f"the built-in `{name}`", e)

    def _colour(self, w, name: str, x: str) -> str:
        """A card's (`colour`) or a suit's (`suit_colour`) colour: the number of its text, none for a
        suitless card, a suit without a colour, or none (`Deck.suit_colours`)."""
        deck = self.layout.deck
        colours = deck.suit_colours()
        if name == "colour":
            values = tuple(self.text_id(colours[s]) if s in colours else NONE for s in deck.card_suit)
            table = self.const("K_colour", values)
            return self.tmp(w, f"{NONE} if {x} == {NONE} else {table}[{x}]")
        values = tuple(self.text_id(colours[s]) if s in colours else NONE for s in range(len(deck.suits)))
        table = self.const("K_suit_colour", values + (NONE,))  # (never empty: a deck without suits)
        return self.tmp(w, f"{NONE} if {x} < 0 or {x} >= {len(deck.suits)} else {table}[{x}]")

    def s_Builtin(self, w, e):
        """`card_subset(source, value, low)` (the lowering's own): the cards a set's value stands
        for among the source as offered (`runtime.card_sets.subset`)."""
        if e.name != "card_subset":
            raise refuse(f"the built-in `{e.name}` as a list", e)
        src = self.s(w, e.args[0])
        value = self.i(w, e.args[1])
        low = e.args[2].value
        out = self.buffer(w)
        w.line(f"{out.n} = set_cards({src.whole()}, {src.n}, {value}, {low}, {self.set_offsets(low)}, "
               f"{self.set_comb()}, {out.whole()})")
        w.fail_if(f"{out.n} < 0", e)
        return out

    def set_offsets(self, low: int) -> str:
        """The table of the first value of the sets of k cards (k from `low`; 0 below) of a choice of
        `low` cards or more (`runtime.card_sets._OFFSETS`)."""
        values = tuple(card_sets.value_of(tuple(range(k)), low) if k >= low else 0
                       for k in range(card_sets.MAX_SOURCE + 1))
        return self.const("K_set_offsets", values)

    def set_comb(self) -> str:
        """`K[i, p]` = C(p, i), for the places of a set (`runtime.card_sets`)."""
        m = card_sets.MAX_SOURCE + 2
        return self.const("K_comb", tuple(tuple(comb(p, i) for p in range(m)) for i in range(m)), 2)

    # ----------------------------------------------------------------------- texts
    def fx_Const(self, w, e):
        pass

    def fx_Text(self, w, e):
        for part in e.parts:
            if not isinstance(part, str):
                self.fx(w, part.expr)

    def fx_JoinText(self, w, e):
        self.fx(w, e.left)
        self.fx(w, e.right)

    def fx_Slot(self, w, e):
        pass

    def fx_PlayerVar(self, w, e):
        self._pslot(w, e.base, e.player)

    def __getattr__(self, name):
        if name.startswith(("i_", "s_", "fx_")) and name[name.index("_") + 1:][:1].isupper():
            node = name[name.index("_") + 1:]

            def refused(w, e):
                raise refuse(f"{node} as a {'value' if name[0] == 'i' else 'list' if name[0] == 's' else 'text'}", e)
            return refused
        raise AttributeError(name)
