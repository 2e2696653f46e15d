"""Lowering of pots and betting (a part of `Lowerer`, which mixes this class in).

A betting round is no new kind of decision: it lowers to a `PotRule` that starts the round (blinds,
first to act) and a `While` someone is to act, around one `Choose` of the player to act with four
alternatives in this order (`runtime.pots.FOLD` … `RAISE`): "fold", "check", "call" (options, each
legal by the pot's rules) and "raise to" a number from the lowest to the highest raise-to. Both
engines run it as they run any loop with a choice.
"""

from __future__ import annotations

from ..lang import ast
from ..runtime import pots
from . import ir

NUMBER = "number"


class PotLowering:
    """The `Lowerer`'s methods for `put`, `bets on`, `pay` and a pot's values."""

    def pot_inits(self) -> list:
        """(slot, per player, initial value) of every pot's slots, as `Program.var_inits` holds them."""
        out = []
        for spec in self.layout.pots.values():
            span = self.sym.pots[spec.name].span
            out += [(slot, per_player, ir.Const(span, init)) for slot, per_player, init in spec.slots()]
        return out

    def pot_value(self, span, name: str, what: str, *args) -> ir.PotValue:
        """What the pot `name` reads (`runtime.pots.READERS[what]`) over `args`."""
        return ir.PotValue(span, self.layout.pots[name], what, tuple(args))

    def s_PutIn(self, st: ast.PutIn):
        amount = self.expr(st.amount)  # worked out first, as it is written first
        return ir.PotRule(st.span, self.layout.pots[st.pot], "put", (amount, self.expr(st.player)))

    def s_Betting(self, st: ast.Betting):
        span, spec = st.span, self.layout.pots[st.pot]

        def opt(e):
            return self.expr(e) if e is not None else ir.Const(span, None)

        blinds = self.expr(st.blinds) if st.blinds is not None else ir.Const(span, ())
        start = ir.PotRule(span, spec, "start", (self.expr(st.first), blinds, opt(st.minimum), opt(st.fixed), opt(st.cap)))

        def act(kind: int, amount: ir.Expr) -> tuple:
            return (ir.PotRule(span, spec, "act", (ir.Const(span, kind), amount)),)

        alts = [ir.Alternative(span, "option", None, None, None, ir.PotValue(span, spec, word, ()),
                               ir.Text(span, (word,), None), True, act(kind, ir.Const(span, 0)))
                for kind, word in ((k, pots.DECISIONS[k]) for k in (pots.FOLD, pots.CHECK, pots.CALL))]
        amount = self.slot(NUMBER, "raise_to")
        label = ir.Text(span, ("raise to ", ir.TextPart(ir.Slot(span, amount), NUMBER)), None)
        alts.append(ir.Alternative(span, "number", amount, ir.PotValue(span, spec, "raise_low", ()),
                                   ir.PotValue(span, spec, "raise_high", ()), None, label, True,
                                   act(pots.RAISE, ir.Slot(span, amount))))
        choice = ir.Choose(span, len(self.choices), ir.PotValue(span, spec, "actor", ()), tuple(alts))
        self.choices.append(choice)
        return (start, ir.While(span, ir.PotValue(span, spec, "betting", ()), (choice,), False))

    def s_Award(self, st: ast.Award):
        d = self.sym.pots[st.pot]
        anchor = None
        if d.odd is not None:  # the declaration's expression sees the globals only
            scopes, self.scopes = self.scopes, self.scopes[:1]
            anchor = self.expr(d.odd)
            self.scopes = scopes
        slot = self.slot(name=st.var)
        self.scopes.append({st.var: slot})
        value = self.expr(st.value)
        self.scopes.pop()
        return ir.PotAward(st.span, self.layout.pots[st.pot], anchor, slot, value, st.lowest)
