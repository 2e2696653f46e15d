"""Expressions: one method per IR expression node, `x_<Node>(w, e)`, giving a Python expression.

A method builds its expression from its children's (each in parentheses) and never looks inside
one. Python works operands out left to right, as the IR's meaning asks; where a node says
otherwise (`/` works out the divisor first) the expression is ordered so (a conditional expression
works out its test first). A node that needs statements (an aggregate's loop, a define without
pasting) becomes a helper function of the unit, taking the locals that hold slots as parameters.
Temporaries are walrus locals with fresh names, never inside a comprehension.
"""

from __future__ import annotations

from .. import ir
from ...lang.check_melds import NEEDS_COMBINATIONS as CLIMBING
from ...runtime import budget, card_sets, effects, pots, steps
from ...runtime import groups as zone_groups
from ...runtime.zones import first_in, still_in
from . import helpers
from . import seats
from .code import Name, Number
from .texts import quiet, renderer
from ...runtime.log import embed


class ExprEmitter:
    """Writes IR expressions as Python expressions over the state `s` and its slots `v`."""

    def __init__(self, program, ns, options, run):
        self.program = program
        self.layout = program.layout
        self.ns = ns
        self.options = options  # the switches (`options.Options`), as chosen for this emitter
        self.run = run  # the kind of run its units are written for (`options.Run`)
        deck = self.layout.deck
        self.ranks = deck.card_rank
        self.suits = deck.card_suit
        self.suit_of = tuple(None if x < 0 else x for x in deck.card_suit)  # a joker has no suit
        self.suit_colours = deck.suit_colours()
        self.card_colour = tuple(self.suit_colours.get(x) for x in deck.card_suit)
        self._texts: dict = {}
        self.never_none = program.never_none  # slots that always hold a card (`compiler/ir_facts.py`)

    def card(self, w, e: ir.Expr):
        """(the expression of a card, whether it is never none)."""
        return self.x(w, e), isinstance(e, ir.Slot) and e.slot in self.never_none

    def x(self, w, e: ir.Expr) -> str:
        """The Python expression for `e`."""
        return getattr(self, "x_" + type(e).__name__)(w, e)

    def view(self, w, e: ir.Expr) -> str:
        """`e` for a reader that changes nothing while it reads: a zone's list itself, uncopied."""
        if isinstance(e, ir.ZoneCards):
            return f"{w.of_state('zones')}[{self.x(w, e.zone)}]"
        return self.x(w, e)

    def c(self, value, name: str | None = None) -> str:
        """The name bound for a constant (`Namespace.bind`), `name` saying what it is."""
        return self.ns.bind(value, name)

    # ------------------------------------------------------------ values and places
    def x_Const(self, w, e: ir.Const):
        return self.c(e.value)

    def x_Slot(self, w, e: ir.Slot):
        return w.read(e.slot)

    def x_PlayerVar(self, w, e: ir.PlayerVar):
        return f"v[{w.index(e.base)} + {self.x(w, e.player)}]"

    def x_PlayerZone(self, w, e: ir.PlayerZone):
        if e.many:
            return f"{self.c(_offsets)}({e.base}, {self.x(w, e.player)})"
        return f"({e.base} + {self.x(w, e.player)})"

    def x_PileZone(self, w, e: ir.PileZone):
        k = w.fresh()
        return (f"({e.base - 1} + {k} if 1 <= ({k} := {self.x(w, e.index)}) <= {e.count} "
                f"else {self.c(steps.no_such_pile)}({k}, {self.c(e.family)}, {e.count}, {self.c(e.span)}))")

    def x_GroupOf(self, w, e: ir.GroupOf):
        return f"{self.c(zone_groups.group_of)}(s, {e.slot}, {self.c(e.zones, 'group_zones')}, ({self.x(w, e.card)}))"

    def x_FaceUp(self, w, e: ir.FaceUp):
        c = w.fresh()
        return f"(({c} := {self.x(w, e.card)}) is not None and {w.of_state('known')}[{c}] == {self.layout.all})"

    def x_PositionOf(self, w, e: ir.PositionOf):
        return f"{self.c(helpers.position_of)}({self.x(w, e.card)}, {self.view(w, e.cards)})"

    def x_Range(self, w, e: ir.Range):
        return f"{self.c(effects.number_range)}({self.x(w, e.low)}, {self.x(w, e.high)}, {self.c(e.span)})"

    def x_ZoneCards(self, w, e: ir.ZoneCards):
        return f"tuple({w.of_state('zones')}[{self.x(w, e.zone)}])"

    def x_Maybe(self, w, e: ir.Maybe):
        t = w.fresh()
        return f"(() if ({t} := {self.x(w, e.value)}) is None else ({t},))"

    def x_Tuple(self, w, e: ir.Tuple):
        return "(" + "".join(f"{self.x(w, i)}, " for i in e.items) + ")"

    def x_Index(self, w, e: ir.Index):
        return f"{self.c(helpers.index)}({self.x(w, e.seq)}, {self.x(w, e.index)}, {self.c(e.span)})"

    # ------------------------------------------------------------------- operators
    def _infix(self, w, left: ir.Expr, op: str, right: ir.Expr) -> str:
        """`left op right` (left worked out first), in parentheses: the shape of every binary operator."""
        return f"({self.x(w, left)} {op} {self.x(w, right)})"

    def x_Negate(self, w, e: ir.Negate):
        return f"(-{self.x(w, e.operand)})"

    def x_Not(self, w, e: ir.Not):
        return f"(not {self.x(w, e.operand)})"

    def x_And(self, w, e: ir.And):
        return self._infix(w, e.left, "and", e.right)

    def x_Or(self, w, e: ir.Or):
        return self._infix(w, e.left, "or", e.right)

    def x_Conditional(self, w, e: ir.Conditional):
        return f"({self.x(w, e.then)} if {self.x(w, e.cond)} else {self.x(w, e.otherwise)})"

    def x_Arith(self, w, e: ir.Arith):
        if e.op in ("/", "%"):
            d = w.fresh()
            op = "//" if e.op == "/" else "%"
            # the test, which works out the divisor, comes first; then the dividend
            return (f"({self.x(w, e.left)} {op} {d} if ({d} := {self.x(w, e.right)}) != 0 "
                    f"else {self.c(helpers.divide_by_zero)}({self.c(e.span)}))")
        value = self._infix(w, e.left, e.op, e.right)
        if e.op != "*" and (ir.constant(e.left) or ir.constant(e.right)):  # (as `ir.constant` says)
            return value
        return self.bounded(w, value, e.span)

    def bounded(self, w, value: str, span) -> str:
        """The number `value` (an expression), or the rule error of the run budget of numbers."""
        r, m = w.fresh(), budget.MAX_NUMBER  # (the bound a literal: a constant of the code, no lookup)
        return f"({r} if -{m} <= ({r} := {value}) <= {m} else {self.c(budget.number_too_big)}({r}, {self.c(span)}))"

    def x_Compare(self, w, e: ir.Compare):
        return self._infix(w, e.left, e.op, e.right)

    def x_Concat(self, w, e: ir.Concat):
        r = w.fresh()
        return (f"({r} if len({r} := tuple({self.x(w, e.left)}) + tuple({self.x(w, e.right)})) <= "
                f"{budget.MAX_ITEMS} else {self.c(budget.list_too_long)}({r}, {self.c(e.span)}))")

    def x_In(self, w, e: ir.In):
        return f"({self.x(w, e.item)} in {self.view(w, e.seq)})"

    def x_Except(self, w, e: ir.Except):
        q = w.fresh()
        fn = helpers.except_many if e.many else helpers.except_one
        return f"({self.c(fn)}({q}, {self.x(w, e.other)}) if ({q} := {self.x(w, e.seq)}) else ())"

    def _table(self, name):
        """The table `Is`/`Has` read by card id: its rank, its suit, or its face (a card literal's)."""
        return self.ranks if name == "rank" else self.suits if name == "suit" else self.layout.deck.card_face

    def x_Is(self, w, e: ir.Is):
        equal = "!=" if e.negate else "=="
        if e.table is not None:
            value, sure = self.card(w, e.value)
            if sure:
                return f"({self.c(self._table(e.table))}[{value}] {equal} {self.x(w, e.pattern)})"
        else:
            value = self.x(w, e.value)
            if isinstance(e.pattern, ir.Const) and e.pattern.value is None:  # identity says the same, faster
                return f"({value} is {'not ' if e.negate else ''}None)"
            return f"({value} {equal} {self.x(w, e.pattern)})"
        t, table = w.fresh("_c"), self.c(self._table(e.table))
        none = f"({t} := {value}) is None or" if e.negate else f"({t} := {value}) is not None and"
        return f"({none} {table}[{t}] {equal} {self.x(w, e.pattern)})"

    def x_Has(self, w, e: ir.Has):
        test = self.x(w, e.pattern)
        if e.table is None:
            return f"({test} in {self.view(w, e.cards)})"
        get = self.c(self._table(e.table).__getitem__)
        return f"({test} in map({get}, {self.view(w, e.cards)}))"  # the same == tests, in C

    # ----------------------------------------------------------------------- seats
    def x_Neighbour(self, w, e: ir.Neighbour):
        n = self.layout.players
        around = self.c(tuple(tuple((p + e.step * i) % n for i in range(1, n + 1)) for p in range(n)))
        if e.reverse is not None:  # `next of` in a game that may reverse play: the other way while it is
            back = self.c(tuple(tuple((p - e.step * i) % n for i in range(1, n + 1)) for p in range(n)))
            around = f"({back} if {w.read(e.reverse)} else {around})"
        p = self.x(w, e.player)
        if isinstance(p, Number):  # (a seat written in: never none)
            return f"({around}[{p}][0] if {w.everyone()} else {self.c(first_in)}(s, {around}[{p}]))"
        if not isinstance(p, Name):
            q = w.fresh("_p")
            p, first = q, f"({q} := {p})"
        else:
            first = p
        # with nobody out (the usual case) the neighbour is the first seat around; none has none
        return (f"({self.c(steps.no_neighbour)}({self.c(e.span)}) if {first} is None else {around}[{p}][0] "
                f"if {w.everyone()} else {self.c(first_in)}(s, {around}[{p}]))")

    def x_Players(self, w, e: ir.Players):
        ring = self.c(self.layout.ring, 'ring')
        if e.reverse is not None:  # a game that may reverse play: every seat from s the other way while it is
            n, step = self.layout.players, self.layout.step
            back = self.c(tuple(tuple((s - step * i) % n for i in range(n)) for s in range(n)))
            ring = f"({back} if {w.read(e.reverse)} else {ring})"
        start = self.x(w, e.start) if e.start is not None else "0"
        if e.stop is None:  # nobody out (the usual case): the ring itself
            return f"({ring}[{start}] if {w.everyone()} else {self.c(still_in)}(s, {ring}[{start}]))"
        stop = self.x(w, e.stop)
        return f"{self.c(helpers.players_to)}(s, {ring}, {stop}, {start})"

    def x_EndCards(self, w, e: ir.EndCards):
        seq = self.view(w, e.seq)
        if e.count is None:
            q = w.fresh("_q")
            first = e.top == e.players  # players: the top is the first; cards: the top is the last
            return f"({q}[{'0' if first else '-1'}] if ({q} := {seq}) else None)"
        return (f"{self.c(helpers.end_cards)}({seq}, {self.x(w, e.count)}, {e.top}, {e.players}, "
                f"{self.c(e.span)})")

    # ------------------------------------------------------------------ aggregates
    def x_Aggregate(self, w, e: ir.Aggregate):
        def write(h, name):
            h.define(name, w.params())
            with h.indent():
                h.line("v = s.v")
                self._aggregate(h, e)
        return w.shared_helper(("aggregate", id(e)), "_agg", write)

    def _aggregate(self, h, e: ir.Aggregate, into=None) -> None:
        """The loop of an aggregate: the body of its helper function, which returns the value; or,
        with `into`, lines in place that leave the value in the local `into` (`Options.inline`)."""
        kind, x = e.kind, h.local_for(e.slot)
        best = kind in ("highest", "lowest")
        if into is None:
            acc = {"count": "total", "sum": "total", "select": "out", "min": "values", "max": "values"}.get(kind, "chosen")
            score, value = "score", "value"
        else:
            acc, score, value = into, h.fresh("_s"), h.fresh("_w")
        start = {"any": None if into is None else "False", "count": "0", "sum": "0", "select": "[]",
                 "min": "[]", "max": "[]"}.get(kind, f"{score} = None")
        if start:
            h.line(f"{acc} = {start}")
        h.line(f"for {x} in {self.view(h, e.seq)}:")
        with h.indent():
            with h.bound(e.slot, x, self.options.paste):
                if e.where is not None:
                    h.line(f"if not ({self.x(h, e.where)}):")
                    h.line("    continue")
                if kind == "any":
                    h.line("return True" if into is None else f"{acc} = True")
                    if into is not None:
                        h.line("break")
                elif kind == "count":
                    h.line(f"{acc} += 1")
                elif kind == "sum":
                    h.line(f"{acc} += {self.first(h, e.body)}")
                elif kind == "select":
                    h.line(f"{acc}.append({x})")
                elif kind in ("min", "max"):
                    h.line(f"{acc}.append({self.first(h, e.body)})")
                else:  # highest, lowest: the first of the best
                    h.line(f"{value} = {self.first(h, e.body)}")
                    h.line(f"if {acc} is None or {value} {'>' if kind == 'highest' else '<'} {score}:")
                    h.line(f"    {acc}, {score} = {x}, {value}")
        if kind in ("min", "max"):
            h.line(f"if not {acc}:")
            h.line(f"    {self.c(helpers.aggregate_empty)}({kind!r}, {self.c(e.span)})")
        result = {"any": "False", "select": f"tuple({acc})", "min": f"min({acc})", "max": f"max({acc})"}.get(kind, acc)
        if into is None:
            h.line(f"return {result}")
        elif kind in ("select", "min", "max"):  # (what the loop gathered, made the value)
            h.line(f"{acc} = {result}")

    def first(self, w, e: ir.Expr) -> str:
        """`e` where it is the first thing a statement works out: with `Options.inline`, an
        aggregate is written in place as its loop and a pasted define's arguments as lines, before
        the line that uses the value (nothing is worked out before them, so the order holds)."""
        if not self.options.inline or not self._in_place(e):
            return self.x(w, e)
        if isinstance(e, ir.Aggregate):
            into = w.fresh("_r")
            self._aggregate(w, e, into)
            return into
        if isinstance(e, (ir.And, ir.Or)):  # the right side worked out only as Python's `and`/`or` would
            r = w.fresh("_r")
            w.line(f"{r} = {self.first(w, e.left)}")
            w.line(f"if {'' if isinstance(e, ir.And) else 'not '}{r}:")
            with w.indent():
                w.line(f"{r} = {self.first(w, e.right)}")
            return r
        if isinstance(e, ir.Not):
            return f"(not {self.first(w, e.operand)})"
        if isinstance(e, ir.Has):  # (a Python loop, faster than `in map(table.__getitem__, …)`)
            test, r, c = w.fresh(), w.fresh("_r"), w.fresh("_c")
            w.line(f"{test} = {self.x(w, e.pattern)}")
            w.line(f"{r} = False")
            w.line(f"for {c} in {self.view(w, e.cards)}:")
            w.line(f"    if {self.c(self._table(e.table))}[{c}] == {test}:")
            w.line(f"        {r} = True")
            w.line("        break")
            return r
        if isinstance(e, ir.DefineCall) and self.options.paste:
            return self._pasted(w, e, lambda local, code: w.line(f"{local} = {code}"), self.first)
        return self.x(w, e)  # pragma: no cover - `_in_place` names every node above

    def items(self, w, e: ir.Expr) -> str:
        """The items of `e` as a tuple a loop goes over (`first`): seats and a zone's cards are one
        already (`x_Players`, `x_ZoneCards`), anything else is made one."""
        if isinstance(e, (ir.Players, ir.ZoneCards)):
            return self.first(w, e)
        return f"tuple({self.first(w, e)})"

    def _pasted(self, w, e, hold, write):
        """A pasted define's body as `write(w, body)` writes it (`x` or `first`), each argument worked
        out once, in turn, into a local that `hold(local, code)` sets (a line, or a walrus); a
        constant or a slot is read where the body uses it (nothing in an expression writes a slot)."""
        held = {}
        for slot, arg in zip(e.slots, e.args):
            if isinstance(arg, ir.Slot):  # (the caller's slot, as the caller reads it: a local, or its slot)
                outer = w.frame.slots.get(arg.slot)
                held[slot] = arg.slot if outer is None else outer
            elif isinstance(arg, ir.Const):
                held[slot] = self.x(w, arg)
            else:
                local = w.local_for(slot, "_a")
                hold(local, self.x(w, arg))
                held[slot] = local
        saved = w.frame
        with w.fresh_frame():  # the body sees its parameters and the globals only
            w.frame.slots.update(held)
            body = write(w, e.body)
        w.frame = saved
        return body

    def _in_place(self, e) -> bool:
        """Whether `first` writes lines for `e`: an aggregate, a card table's `has`, a pasted
        define, or `and`, `or`, `not` over one of them."""
        if isinstance(e, ir.Aggregate) or (isinstance(e, ir.Has) and e.table is not None):
            return True
        if isinstance(e, ir.DefineCall):
            return self.options.paste
        if isinstance(e, (ir.And, ir.Or)):
            return self._in_place(e.left) or self._in_place(e.right)
        return isinstance(e, ir.Not) and self._in_place(e.operand)

    # ------------------------------------------------------------------ functions
    def _of_card(self, w, card: ir.Expr, table, of_none: str) -> str:
        """`table[card]` of a card by id, `of_none` for none (not tested when the card is never none)."""
        card, sure = self.card(w, card)
        table = self.c(table)
        if sure:
            return f"{table}[{card}]"
        if isinstance(card, Name):  # (read twice: nothing to work out)
            return f"({of_none} if {card} is None else {table}[{card}])"
        t = w.fresh("_c")
        return f"({of_none} if ({t} := {card}) is None else {table}[{t}])"

    def x_OrderOf(self, w, e: ir.OrderOf):
        return self._of_card(w, e.card, self.layout.orders[e.order], "0")

    def x_RankPoints(self, w, e: ir.RankPoints):
        return self._of_card(w, e.card, e.table, "0")

    def x_HandValue(self, w, e: ir.HandValue):
        ranking, codes = self.layout.rankings[e.ranking]
        evaluate = ranking.evaluate_value if hasattr(ranking, "evaluate_value") else ranking.evaluate
        return (f"{self.c(helpers.hand_value)}({self.x(w, e.cards)}, {self.c(evaluate)}, {self.c(codes)}, "
                f"{self.c(e.span)})")

    def x_PotValue(self, w, e: ir.PotValue):
        args = "".join(f", {self.x(w, a)}" for a in e.args)
        return f"{self.c(pots.READERS[e.what])}(s, {self.c(e.pot)}{args})"

    def x_Combination(self, w, e: ir.Combination):
        # (the functions only read their cards: a zone's own list goes in, not a copy of it)
        args = ", ".join(f"{w.of_state('zones')}[{self.x(w, a.zone)}]" if isinstance(a, ir.ZoneCards) else self.x(w, a)
                         for a in e.args)
        if e.name in CLIMBING:  # a climbing game's combinations: the rule's own method (runtime/climbing.py)
            return f"{self.c(getattr(self.layout.combos, e.name))}({args})"
        if e.name == "deadwood":  # the common call: a function of the rule's for this call site
            distinct = isinstance(e.args[0], ir.ZoneCards)  # a zone never holds a card twice
            return f"{self.c(self.layout.melds.deadwood_function(e.span, distinct))}({args})"
        table = self.layout.orders[e.table] if e.table is not None else None
        return f"{self.c(helpers.meld_function(e.name, self.layout.melds, self.layout.deck, table, e.span))}({args})"

    def x_TeamTable(self, w, e: ir.TeamTable):
        t = w.fresh()
        empty = "()" if e.what == "members" else "None"
        return f"({empty} if ({t} := {self.x(w, e.index)}) is None else {self.c(e.table)}[{t}])"

    def x_DefineCall(self, w, e: ir.DefineCall):
        if not self.options.paste:  # each argument into its parameter's slot, in a helper, then the body
            def write(h, name):
                h.define(name, w.params())
                with h.indent():
                    h.line("v = s.v")
                    for slot, arg in zip(e.slots, e.args):
                        h.line(f"{h.place(slot)} = {self.x(h, arg)}")
                    with h.fresh_frame():
                        h.line(f"return {self.x(h, e.body)}")
            return w.shared_helper(("define", id(e)), "_def", write)
        # pasted: each argument worked out once, in turn, into a local the body reads; a constant
        # or a slot is read where the body uses it (nothing in an expression writes a caller's slot)
        sets = []
        body = self._pasted(w, e, lambda local, code: sets.append(f"({local} := {code})"), self.x)
        if not sets:
            return f"({body})"
        return "(" + ", ".join(sets + [body]) + ")[-1]"

    def x_Builtin(self, w, e: ir.Builtin):
        name = e.name
        if name == "count":
            return f"len({self.view(w, e.args[0])})"
        if name == "random":
            return f"{self.c(steps.draw)}(s, tuple({self.x(w, e.args[0])}), {self.c(e.span)})"
        if name in ("suit", "rank"):
            return self._of_card(w, e.args[0], self.suit_of if name == "suit" else self.ranks, "None")
        if name == "colour":
            return self._of_card(w, e.args[0], self.card_colour, "None")
        if name == "suit_colour":  # (a suit is an index or none: neither is a key of a suit without a colour)
            return f"{self.c(self.suit_colours)}.get({self.x(w, e.args[0])})"
        if name == "abs":
            return f"abs({self.x(w, e.args[0])})"
        if name in ("min", "max"):
            return f"{name}({self.x(w, e.args[0])}, {self.x(w, e.args[1])})"
        if name == "sum":
            return f"sum({self.x(w, e.args[0])})"
        if name == "any":
            return f"(len({self.view(w, e.args[0])}) > 0)"
        if name == "seat":
            return f"{self.c(seats.seat_number)}({self.x(w, e.args[0])}, {self.c(e.span)})"
        if name == "card_subset":  # (the lowering's own: the cards a set's value stands for)
            return f"{self.c(card_sets.subset)}({self.x(w, e.args[0])}, {self.x(w, e.args[1])}, {self.x(w, e.args[2])})"
        raise AssertionError(name)  # pragma: no cover - the checker knows every builtin

    def x_BestScorers(self, w, e: ir.BestScorers):
        score = self.program.em.compile_expr(e.value)  # (its own function: it reads the seat from its slot)
        return (f"{self.c(seats.best_scorers)}(s, {w.index(e.slot)}, {self.c(score)}, {e.lowest}, "
                f"{self.c(e.sitting)}, {e.everyone})")

    # ----------------------------------------------------------------------- texts
    def text(self, w, t: ir.Text, values=None) -> str:
        """The expression (text with card marks, the cards marked) of a text; `values`: the
        expressions of its `{…}` parts, already worked out (`parts`), else worked out here."""
        if all(isinstance(part, str) for part in t.parts):
            return self.c(("".join(t.parts), ()))
        render = self._texts.get(id(t))
        if render is None:
            render = self._texts[id(t)] = renderer(self.program, t)
        if values is None:
            values = [self.x(w, part.expr) for part in t.parts if not isinstance(part, str)]
        return f"{self.c(render)}(s, ({''.join(f'{v}, ' for v in values)}))"

    def parts(self, w, t: ir.Text) -> list:
        """A line working out each `{…}` part of a text that can break a rule or draw, into a local;
        the expressions of all its parts (one that breaks nothing, draws nothing and writes nothing,
        a constant, a slot, a define's text of them (`texts.quiet`), is worked out where it is used,
        only when the text is)."""
        out, names, values = [], [], []
        for part in t.parts:
            if isinstance(part, str):
                continue
            if quiet(part.expr, self.layout, self.options.paste):
                out.append(self.x(w, part.expr))
                continue
            names.append(w.fresh("_t"))
            values.append(self.x(w, part.expr))
            out.append(names[-1])
        if names:  # (one line, in order: a chained op's budget is counted in lines, `Emitter.goto`)
            w.line(f"{', '.join(names)}, = {', '.join(values)},")
        return out

    def x_Text(self, w, e: ir.Text):
        if all(isinstance(part, str) for part in e.parts):
            return self.c("".join(e.parts))
        return self._short(w, f"{self.c(embed)}(*{self.text(w, e)})", e.span)  # a text as a value carries its cards

    def x_JoinText(self, w, e: ir.JoinText):
        return self._short(w, f"({self.x(w, e.left)} + {self.x(w, e.right)})", e.span)

    def _short(self, w, value: str, span) -> str:
        """The text `value` (an expression), or the rule error of the run budget of texts."""
        r = w.fresh()
        return f"({r} if len({r} := {value}) <= {budget.MAX_TEXT} else {self.c(budget.text_too_long)}({r}, {self.c(span)}))"


def _offsets(base, seats):
    """The zone ids `base + p` of each seat p."""
    return tuple([base + p for p in seats])

