"""Lowering of a choice (a part of `Lowerer`, which mixes this class in): `choose`'s alternatives.

Each alternative lowers to one or more `ir.Alternative`s: a pile (`and a pile k from column`) or a
second value (`and a strain s`) to one alternative for each pile or value in order, so an action id
names both; a set of cards (`a set cs of 2 to 4 cards`) to a numbered value; a choice made at once
to plain nodes (`lower_at_once`). Kept apart from `lower.py` because these alternatives are the
biggest single statement's lowering, and read as one piece.
"""

from __future__ import annotations

import attrs

from ..lang import ast, statements
from ..lang.check import CARD, CARDS, NUMBER, PLAYER, RANK, SUIT
from . import ir
from .lower_at_once import lower_at_once


class ChoiceLowering:
    """The `Lowerer`'s methods for `choose` and its alternatives."""

    def s_Choose(self, st: ast.Choose):
        if st.at_once is not None:  # each seat in turn, then the picks played out: `lower_at_once`
            return lower_at_once(self, st)
        player = self.expr(st.player)
        alts = []
        for alt in st.alternatives:
            if alt.pile is not None:
                alts.extend(self._restart_passes(alt, self._pile_alternatives(alt)))
                continue
            if alt.second is not None:
                alts.extend(self._restart_passes(alt, self._second_alternatives(alt)))
                continue
            if alt.kind == "set":
                alts.extend(self._restart_passes(alt, [self._set_alternative(alt)]))
                continue
            slot = self.slot(CARD if alt.kind == "card" else None, alt.var) if alt.var is not None else None
            self.scopes.append({alt.var: slot} if alt.var else {})
            source = None
            if alt.kind == "card":
                source = self.cards(alt.source)
            elif alt.kind == "number":
                source = self.expr(alt.source)
            elif alt.kind == "player":
                source = self.seq(alt.source)
            high = self.expr(alt.high) if alt.high is not None else None
            if alt.kind == "value":
                source, high = self._value_domain(alt.vtype, alt.source, alt.span)
            where = self.expr(alt.where) if alt.where is not None else None
            label = self.text(alt.label) if alt.label is not None else None
            if label is None and alt.kind == "value":  # the value by its name: `7`, `hearts`, `notrump`
                label = ir.Text(alt.span, (ir.TextPart(ir.Slot(alt.span, slot), alt.vtype),), None)
            pure = alt.label is None or all(isinstance(part, str) or (isinstance(part, ast.Name) and part.name == alt.var)
                                            for part in alt.label.parts)
            body = self.block(alt.body)
            self.scopes.pop()
            alts.extend(self._restart_passes(alt, [ir.Alternative(alt.span, alt.kind, slot, source, high, where,
                                                                  label, pure, body)]))
        # numbered after the choices nested in its alternatives, as the compiled engine numbers them
        choice = ir.Choose(st.span, len(self.choices), player, tuple(alts))
        self.choices.append(choice)
        return choice

    def _pile_alternatives(self, alt: ast.Alternative) -> list:
        """`a card c from S and a pile k from column`: one card alternative for each pile k, in order,
        so an action id is `(first + k - 1) << 16 | card` and names both (the label says `to column(k)`).
        In the filter and the label `k` is the constant k; the body sets `k`'s slot first."""
        pile, out = alt.pile, []
        slot, pile_slot = self.slot(CARD, alt.var), self.slot(name=pile.var)
        for k in range(1, self.sym.zone_counts[pile.family] + 1):
            self.scopes.append({alt.var: slot, pile.var: ir.Const(pile.span, k)})
            source = self.cards(alt.source)
            where = self.expr(alt.where) if alt.where is not None else None
            if alt.label is not None:
                label = self.text(alt.label)
            else:
                label = ir.Text(alt.span, (ir.TextPart(ir.Slot(alt.span, slot), CARD), f" to {pile.family}({k})"), None)
            pure = alt.label is None or all(isinstance(part, str) or (isinstance(part, ast.Name)
                                                                      and part.name in (alt.var, pile.var))
                                            for part in alt.label.parts)
            self.scopes[-1][pile.var] = pile_slot
            body = (ir.Assign(pile.span, ir.SlotTarget(pile_slot), ir.Const(pile.span, k)),) + self.block(alt.body)
            self.scopes.pop()
            out.append(ir.Alternative(alt.span, "card", slot, source, None, where, label, pure, body))
        return out

    def _value_domain(self, vtype: str, source, span) -> tuple:
        """(what a choice of a value of `vtype` offers, the largest value it may offer or None): the
        list written after `from`, else every rank (suit, declared value) in order."""
        n = self._domain_size(vtype)
        if source is not None:
            return self.seq(source), (ir.Const(span, n - 1) if n else None)
        return ir.Const(span, tuple(range(n))), ir.Const(span, n - 1)

    def _domain_size(self, vtype: str) -> int:
        """How many values of `vtype` there are: ranks (with named ones), suits, a declared list's names; 0
        for numbers (as many as a list holds)."""
        if vtype == RANK:
            return len(self.deck.ranks)
        if vtype == SUIT:
            return len(self.deck.suits)
        if vtype in self.sym.named_values:
            return len(self.sym.named_values[vtype].items)
        return 0

    def _set_alternative(self, alt: ast.Alternative) -> ir.Alternative:
        """`a set cs of 2 to 4 cards from Z where …`: the value (a numbered set of places of the source,
        runtime/card_sets.py) in one slot; the source as offered and the set's cards in two others.
        The filter and the label read the set's cards (the engine puts each set there in turn); the
        body first works them out from the value. Without `as`, the label reads as a person says it
        (`runtime.card_sets.words`: `pair of 7s: 7♠, 7♥`)."""
        low, high = alt.sizes
        value, cards, source_slot = self.slot(), self.slot(CARDS), self.slot(CARDS)
        self.scopes.append({alt.var: cards})
        source = self.cards(alt.source)
        where = self.expr(alt.where) if alt.where is not None else None
        label = self.text(alt.label) if alt.label is not None else None  # (None: as a person says it, runtime)
        work_out = ir.Builtin(alt.span, "card_subset", (ir.Slot(alt.span, source_slot), ir.Slot(alt.span, value),
                                                        ir.Const(alt.span, low)))
        body = (ir.Assign(alt.span, ir.SlotTarget(cards), work_out),) + self.block(alt.body)
        self.scopes.pop()
        return ir.Alternative(alt.span, "set", value, source, ir.Const(alt.span, high), where, label, False, body,
                              (cards, source_slot, low))

    def _second_alternatives(self, alt: ast.Alternative) -> list:
        """`a number level from 1 to 7 and a strain s`: one alternative of the first thing for each
        value j of the second, in order, so that an action id is `(first + j) << 16 | first value` and
        names both. In the filter and the label the second is the constant j; the body sets its slot
        first. Without `as`, the label names both: `3 notrump`, `P1 7`."""
        second, out = alt.second, []
        slot, second_slot = self.slot(), self.slot()
        for j in range(self._domain_size(second.vtype)):
            self.scopes.append({alt.var: slot, second.var: ir.Const(second.span, j)})
            if alt.kind == "number":
                source, high = self.expr(alt.source), self.expr(alt.high)
            else:
                source, high = self.seq(alt.source), None
            where = self.expr(alt.where) if alt.where is not None else None
            first_type = NUMBER if alt.kind == "number" else PLAYER
            if alt.label is not None:
                label = self.text(alt.label)
            else:
                label = ir.Text(alt.span, (ir.TextPart(ir.Slot(alt.span, slot), first_type), " ",
                                           ir.TextPart(ir.Const(second.span, j), second.vtype)), None)
            pure = alt.label is None or all(isinstance(part, str) or (isinstance(part, ast.Name)
                                                                      and part.name in (alt.var, second.var))
                                            for part in alt.label.parts)
            self.scopes[-1][second.var] = second_slot
            body = (ir.Assign(second.span, ir.SlotTarget(second_slot), ir.Const(second.span, j)),) + self.block(alt.body)
            self.scopes.pop()
            out.append(ir.Alternative(alt.span, alt.kind, slot, source, high, where, label, pure, body))
        return out

    def _restart_passes(self, alt: ast.Alternative, lowered: list) -> list:
        """The alternatives lowered from `alt`, each starting the passes in a row again first when the
        game counts passes and `alt`'s body says no `passes` (a decision that is no pass)."""
        if self.passes is None:
            return lowered
        seen: set = set()

        def says(stmts) -> bool:  # (through the phases the body plays, each looked into once)
            for st in stmts:
                if isinstance(st, ast.Passes) or any(says(b) for b in statements.child_blocks(st)):
                    return True
                if isinstance(st, ast.CallPhase) and st.name in self.sym.phases and st.name not in seen:
                    seen.add(st.name)
                    if says(self.sym.phases[st.name].body):
                        return True
            return False
        if says(alt.body):
            return lowered
        reset = ir.Assign(alt.span, ir.SlotTarget(self.passes), ir.Const(alt.span, 0))
        return [attrs.evolve(a, body=(reset,) + tuple(a.body)) for a in lowered]
