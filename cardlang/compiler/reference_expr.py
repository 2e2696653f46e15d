"""The reference interpreter's expressions: one plain method per IR expression node.

Evaluation order is part of the meaning (a `random` draw changes the state's chance): operands are
worked out left to right unless a node's docstring in `compiler.ir` says otherwise.
"""

from __future__ import annotations

import operator

from . import ir
from ..lang.check import BOOL, CARD, CARDS, HANDVALUE, ZONE, ZONES
from ..lang.check_melds import NEEDS_COMBINATIONS as CLIMBING
from ..runtime import budget, card_sets, effects, melds, pots, steps
from ..runtime import groups as zone_groups
from ..runtime.log import embed
from ..runtime.zones import first_in

_COMPARE = {"==": operator.eq, "!=": operator.ne, "<": operator.lt, ">": operator.gt, "<=": operator.le,
            ">=": operator.ge}


class Evaluator:
    """Evaluates IR expressions over a state laid out by `layout` (None: expressions known before
    the game has a deck, such as a deck's condition)."""

    def __init__(self, layout, program=None):
        self.layout = layout
        self.program = program  # for showing values in texts (`ProgramBase.value_text`)
        self.deck = layout.deck if layout is not None else None
        self.methods = {}

    def eval(self, st, e: ir.Expr):
        """The value of `e` in state `st`."""
        method = self.methods.get(type(e))
        if method is None:
            method = self.methods[type(e)] = getattr(self, "e_" + type(e).__name__)
        return method(st, e)

    # ------------------------------------------------------------ values and places
    def e_Const(self, st, e: ir.Const):
        return e.value

    def e_Slot(self, st, e: ir.Slot):
        return st.v[e.slot]

    def e_PlayerVar(self, st, e: ir.PlayerVar):
        return st.v[e.base + self.eval(st, e.player)]

    def e_PlayerZone(self, st, e: ir.PlayerZone):
        who = self.eval(st, e.player)
        if e.many:
            return tuple(e.base + p for p in who)
        return e.base + who

    def e_PileZone(self, st, e: ir.PileZone):
        k = self.eval(st, e.index)
        if not 1 <= k <= e.count:
            steps.no_such_pile(k, e.family, e.count, e.span)
        return e.base + k - 1

    def e_GroupOf(self, st, e: ir.GroupOf):
        return zone_groups.group_of(st, e.slot, e.zones, self.eval(st, e.card))

    def e_FaceUp(self, st, e: ir.FaceUp):
        c = self.eval(st, e.card)
        return c is not None and st.known[c] == self.layout.all

    def e_PositionOf(self, st, e: ir.PositionOf):
        c = self.eval(st, e.card)
        cards = self.eval(st, e.cards)
        return cards.index(c) + 1 if c is not None and c in cards else 0

    def e_Range(self, st, e: ir.Range):
        return effects.number_range(self.eval(st, e.low), self.eval(st, e.high), e.span)

    def e_ZoneCards(self, st, e: ir.ZoneCards):
        return tuple(st.zones[self.eval(st, e.zone)])

    def e_Maybe(self, st, e: ir.Maybe):
        x = self.eval(st, e.value)
        return () if x is None else (x,)

    def e_Tuple(self, st, e: ir.Tuple):
        return tuple(self.eval(st, item) for item in e.items)

    def e_Index(self, st, e: ir.Index):
        items = self.eval(st, e.seq)
        i = self.eval(st, e.index)
        if not 1 <= i <= len(items):
            effects.no_such_item(i, len(items), e.span)
        return items[i - 1]

    # ------------------------------------------------------------------- operators
    def e_Negate(self, st, e: ir.Negate):
        return -self.eval(st, e.operand)

    def e_Not(self, st, e: ir.Not):
        return not self.eval(st, e.operand)

    def e_And(self, st, e: ir.And):
        return self.eval(st, e.left) and self.eval(st, e.right)

    def e_Or(self, st, e: ir.Or):
        return self.eval(st, e.left) or self.eval(st, e.right)

    def e_Conditional(self, st, e: ir.Conditional):
        return self.eval(st, e.then) if self.eval(st, e.cond) else self.eval(st, e.otherwise)

    def e_Arith(self, st, e: ir.Arith):
        if e.op in ("/", "%"):
            d = self.eval(st, e.right)  # the divisor first, as the compiled engine does
            if d == 0:
                effects.divide_by_zero(e.span)
            a = self.eval(st, e.left)
            return a // d if e.op == "/" else a % d
        a, b = self.eval(st, e.left), self.eval(st, e.right)
        value = a + b if e.op == "+" else a - b if e.op == "-" else a * b
        if e.op == "*" or not (ir.constant(e.left) or ir.constant(e.right)):  # (the run budget of numbers)
            if not -budget.MAX_NUMBER <= value <= budget.MAX_NUMBER:
                budget.number_too_big(value, e.span)
        return value

    def e_Compare(self, st, e: ir.Compare):
        a = self.eval(st, e.left)
        return _COMPARE[e.op](a, self.eval(st, e.right))

    def e_Concat(self, st, e: ir.Concat):
        a = tuple(self.eval(st, e.left))
        value = a + tuple(self.eval(st, e.right))
        if len(value) > budget.MAX_ITEMS:  # (the run budget of lists)
            budget.list_too_long(value, e.span)
        return value

    def e_JoinText(self, st, e: ir.JoinText):
        a = self.eval(st, e.left)
        value = a + self.eval(st, e.right)  # each carries its own cards (`log.embed`)
        if len(value) > budget.MAX_TEXT:  # (the run budget of texts)
            budget.text_too_long(value, e.span)
        return value

    def e_In(self, st, e: ir.In):
        item = self.eval(st, e.item)
        return item in self.eval(st, e.seq)

    def e_Except(self, st, e: ir.Except):
        q = self.eval(st, e.seq)
        if not q:
            return ()
        other = self.eval(st, e.other)
        if e.many:
            other = set(other)
            return tuple(x for x in q if x not in other)
        return tuple(x for x in q if x != other)

    def _table(self, name):
        return self.deck.card_rank if name == "rank" else self.deck.card_suit if name == "suit" else self.deck.card_face

    def e_Is(self, st, e: ir.Is):
        value = self.eval(st, e.value)
        if e.table is None:
            same = value == self.eval(st, e.pattern)
        else:  # a card's rank or suit: none has neither
            same = value is not None and self._table(e.table)[value] == self.eval(st, e.pattern)
        return not same if e.negate else same

    def e_Has(self, st, e: ir.Has):
        test = self.eval(st, e.pattern)
        cards = self.eval(st, e.cards)
        if e.table is None:
            return test in cards
        table = self._table(e.table)
        return any(table[c] == test for c in cards)

    # ----------------------------------------------------------------------- seats
    def e_Neighbour(self, st, e: ir.Neighbour):
        p = self.eval(st, e.player)
        if p is None:
            steps.no_neighbour(e.span)
        n = self.layout.players
        step = -e.step if e.reverse is not None and st.v[e.reverse] else e.step  # (play reversed)
        around = tuple((p + step * i) % n for i in range(1, n + 1))  # p last
        return first_in(st, around)

    def e_Players(self, st, e: ir.Players):
        stop = self.eval(st, e.stop) if e.stop is not None else None  # the end first, as compiled
        start = self.eval(st, e.start) if e.start is not None else 0
        out = []
        ring = self.layout.ring
        if e.reverse is not None and st.v[e.reverse]:  # play reversed: every seat from s the other way
            n, step = self.layout.players, self.layout.step
            ring = tuple(tuple((s - step * i) % n for i in range(n)) for s in range(n))
        for q in ring[start]:
            if st.active[q]:
                out.append(q)
            if e.stop is not None and q == stop:
                break
        return tuple(out)

    def e_EndCards(self, st, e: ir.EndCards):
        q = self.eval(st, e.seq)
        if e.count is None:
            if not q:
                return None
            first = e.top == e.players  # players: the top is the first; cards: the top is the last
            return q[0] if first else q[-1]
        k = self.eval(st, e.count)
        if k < 0:
            effects.negative_end(e.top, k, e.span)
        if e.players:
            return tuple(q[:k]) if e.top else tuple(q[-k:][::-1]) if k else ()
        return tuple(q[::-1][:k]) if e.top else tuple(q[:k])

    # ------------------------------------------------------------------ aggregates
    def e_Aggregate(self, st, e: ir.Aggregate):
        kind, v = e.kind, st.v
        total, values, chosen, score = 0, [], None, None
        for x in self.eval(st, e.seq):
            v[e.slot] = x
            if e.where is not None and not self.eval(st, e.where):
                continue
            if kind == "any":
                return True
            if kind == "count":
                total += 1
            elif kind == "sum":
                total += self.eval(st, e.body)
            elif kind == "select":
                values.append(x)
            elif kind in ("min", "max"):
                values.append(self.eval(st, e.body))
            else:  # highest, lowest: the first of the best
                value = self.eval(st, e.body)
                if chosen is None or (value > score if kind == "highest" else value < score):
                    chosen, score = x, value
        if kind == "any":
            return False
        if kind in ("count", "sum"):
            return total
        if kind == "select":
            return tuple(values)
        if kind in ("min", "max"):
            if not values:
                effects.aggregate_empty(kind, e.span)
            return min(values) if kind == "min" else max(values)
        return chosen

    # ------------------------------------------------------------------ functions
    def e_OrderOf(self, st, e: ir.OrderOf):
        c = self.eval(st, e.card)
        return 0 if c is None else self.layout.orders[e.order][c]

    def e_RankPoints(self, st, e: ir.RankPoints):
        c = self.eval(st, e.card)
        return 0 if c is None else e.table[c]

    def e_HandValue(self, st, e: ir.HandValue):
        hand = self.eval(st, e.cards)
        if not 5 <= len(hand) <= 10:
            effects.poker_hand_size(len(hand), e.span)
        ranking, codes = self.layout.rankings[e.ranking]
        evaluate = ranking.evaluate_value if hasattr(ranking, "evaluate_value") else ranking.evaluate
        return int(evaluate([codes[c] for c in hand]))

    def e_PotValue(self, st, e: ir.PotValue):
        return pots.READERS[e.what](st, e.pot, *[self.eval(st, a) for a in e.args])

    def e_Combination(self, st, e: ir.Combination):
        args = [self.eval(st, a) for a in e.args]
        if e.name in CLIMBING:  # a climbing game's combinations (runtime/climbing.py)
            return getattr(self.layout.combos, e.name)(*args)
        table = self.layout.orders[e.table] if e.table is not None else None
        try:
            return melds.combination(e.name, self.layout.melds, self.deck, table, *args)
        except melds.MeldError as err:
            effects.meld_refused(err, e.span)

    def e_TeamTable(self, st, e: ir.TeamTable):
        k = self.eval(st, e.index)
        if k is None:
            return () if e.what == "members" else None
        return e.table[k]

    def e_DefineCall(self, st, e: ir.DefineCall):
        for slot, arg in zip(e.slots, e.args):
            st.v[slot] = self.eval(st, arg)
        return self.eval(st, e.body)

    def e_Builtin(self, st, e: ir.Builtin):
        name = e.name
        args = [self.eval(st, a) for a in e.args]
        if name == "count":
            return len(args[0])
        if name == "random":
            return steps.draw(st, tuple(args[0]), e.span)
        if name == "suit":
            c = args[0]
            return None if c is None or self.deck.card_suit[c] < 0 else self.deck.card_suit[c]  # a joker has none
        if name == "rank":
            return None if args[0] is None else self.deck.card_rank[args[0]]
        if name == "colour":  # a card's colour: its suit's, none for a suitless card or a suit without one
            c = args[0]
            return None if c is None else self.deck.suit_colours().get(self.deck.card_suit[c])
        if name == "suit_colour":  # (the lowering's own: `colour(s)` of a suit)
            return self.deck.suit_colours().get(args[0])
        if name == "card_subset":  # (the lowering's own: the cards a set's value stands for)
            return card_sets.subset(args[0], args[1], args[2])
        if name == "abs":
            return abs(args[0])
        if name == "min":
            return min(args[0], args[1])
        if name == "max":
            return max(args[0], args[1])
        if name == "sum":
            return sum(args[0])
        if name == "any":
            return len(args[0]) > 0
        if name == "seat":
            if args[0] is None:
                effects.seat_of_none(e.span)
            return args[0] + 1  # (as `seats[k]` counts: 1 for P0)
        raise AssertionError(name)  # pragma: no cover

    # ----------------------------------------------------------------------- texts
    def e_Text(self, st, e: ir.Text):
        value = embed(*self.render(st, e))  # a text as a value carries its cards (a text may show it)
        if len(value) > budget.MAX_TEXT:  # (the run budget of texts)
            budget.text_too_long(value, e.span)
        return value

    def e_BestScorers(self, st, e: ir.BestScorers):
        scores = {}
        sitting = st.v[e.sitting] or () if e.sitting is not None else ()
        for q in range(self.layout.players):
            if e.everyone or st.active[q] or q in sitting:
                st.v[e.slot] = q
                scores[q] = self.eval(st, e.value)
        if not scores:
            return ()
        best = (min if e.lowest else max)(scores.values())
        return tuple(q for q, v in scores.items() if v == best)

    def render(self, st, t: ir.Text, values=None) -> tuple:
        """(the text with a card mark for each card shown, the cards marked); `values`: its `{…}`
        parts already worked out (`parts`), else they are worked out here, in order."""
        if values is None:
            values = self.parts(st, t)
        values = iter(values)
        out, cards = [], []
        for part in t.parts:
            if isinstance(part, str):
                out.append(part)
            else:
                out.append(self.program.text_part(st, next(values), part.type, cards, t.ranking))
        return "".join(out), tuple(cards)

    def parts(self, st, t: ir.Text) -> list:
        """The values of a text's `{…}` parts, in order (what can break a rule in a text)."""
        return [self.eval(st, part.expr) for part in t.parts if not isinstance(part, str)]
