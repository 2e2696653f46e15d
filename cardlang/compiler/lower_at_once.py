"""Lowering a choice made at once (`each player p in seats chooses at once …`) to plain IR nodes.

    seats := seats                      (worked out once, in order)
    picks := []
    for each p in seats:                a `Choose` per seat; its bodies only keep the action:
        p chooses …: picks := picks + [alternative << 16 | value]; the pick's variable := none
    k := 0
    for each p in seats:                then each pick is played out, in the order of the seats
        k := k + 1; a := picks[k]
        if a / 65536 == 0: c := a % 65536; <body of alternative 0> …

Nothing the game can see changes while the seats choose, so every seat chooses from the same
state and none can learn of the others' picks from it; the runtime masks the rest (the log line
of a pick, the picks' slot and the past actions in other seats' views: `runtime.at_once`). In a
pick's body, `move … face down` is followed by `Conceal`: the moved cards become known only to the
chooser and to those who see the zone they went to.
"""

from __future__ import annotations

import attrs

from ..lang import ast
from ..lang.types import CARDS, PLAYER
from ..runtime.actions import VALUE_BITS
from . import ir


def lower_at_once(lw, st: ast.Choose) -> tuple:
    """The statements a choice made at once lowers to (see the module's docstring)."""
    together, span = st.at_once, st.span
    seats_slot, picks_slot = lw.slot(name="at_once_seats"), lw.slot(name="at_once_picks")
    k_slot, a_slot = lw.slot(name="at_once_seat"), lw.slot(name="at_once_pick")
    p_slot = lw.slot(PLAYER, "at_once_player")
    lw.scopes.append({together.var: p_slot})
    seats = lw.seq(together.seats)
    chosen = lw.s_Choose(attrs.evolve(st, at_once=None))  # the alternatives with their own bodies
    lw.scopes.pop()

    def const(x):
        return ir.Const(span, x)

    def slot(s):
        return ir.Slot(span, s)

    keep, play = [], []
    for j, alt in enumerate(chosen.alternatives):
        action = const(j << VALUE_BITS) if alt.slot is None else ir.Arith(span, "+", const(j << VALUE_BITS), slot(alt.slot))
        body = (ir.Assign(span, ir.SlotTarget(picks_slot), ir.Concat(span, slot(picks_slot), ir.Tuple(span, (action,)))),)
        if alt.slot is not None:  # (the seats after him choose in a state that holds nothing of his pick)
            body += (ir.Assign(span, ir.SlotTarget(alt.slot), const(None)),)
        keep.append(attrs.evolve(alt, body=body))
        test = ir.Compare(span, "==", ir.Arith(span, "/", slot(a_slot), const(1 << VALUE_BITS)), const(j))
        value = () if alt.slot is None else (
            ir.Assign(span, ir.SlotTarget(alt.slot), ir.Arith(span, "%", slot(a_slot), const(1 << VALUE_BITS))),)
        play.append((test, value + _concealing(lw, alt.body, slot(p_slot))))
    choose = attrs.evolve(chosen, alternatives=tuple(keep))
    lw.choices[chosen.index] = choose
    shown = tuple(shows(lw.layout, alt) for alt in chosen.alternatives)
    lw.at_once.append(ir.AtOnce(chosen.index, seats_slot, picks_slot, p_slot, shown, a_slot))
    return (
        ir.Assign(span, ir.SlotTarget(seats_slot), ir.Concat(span, const(()), seats)),
        ir.Assign(span, ir.SlotTarget(picks_slot), const(())),
        ir.ForEach(span, p_slot, lw.slot(name="at_once_seats_items"), slot(seats_slot), None, (choose,)),
        ir.Assign(span, ir.SlotTarget(k_slot), const(0)),
        ir.ForEach(span, p_slot, lw.slot(name="at_once_seats_items"), slot(seats_slot), None, (
            ir.Increase(span, ir.SlotTarget(k_slot), const(1)),
            ir.Assign(span, ir.SlotTarget(a_slot), ir.Index(span, slot(picks_slot), slot(k_slot))),
            ir.If(span, tuple(play), ()),
        )),
    )


def shows(layout, alt: ir.Alternative) -> bool:
    """Whether the body of a number or player alternative shows every seat the pick as it is once
    played out: a statement of the body itself (not inside an `if` or a loop) sets a declared
    variable (every seat sees those) to the pick. A view then replays the pick as it was
    (`runtime.at_once.hidden_step`), as it replays a card picked at once that it knows by then."""
    if alt.kind not in ("number", "player", "value") or alt.slot is None:
        return False
    declared = {slot for slot, _ in layout.var_slots.values()}
    for st in alt.body:
        if isinstance(st, ir.Assign) and isinstance(st.value, ir.Slot) and st.value.slot == alt.slot:
            target = st.target
            if isinstance(target, ir.PlayerVarTarget) or (isinstance(target, ir.SlotTarget) and target.slot in declared):
                return True
    return False


def _concealing(lw, body: tuple, player: ir.Expr) -> tuple:
    """`body` with each `move … face down` in it (at any depth of its own blocks) followed by a
    `Conceal` of the cards it moved, kept in a slot of their own."""
    out = []
    for st in body:
        if isinstance(st, ir.Move) and st.face == "down":
            held = lw.slot(CARDS)
            moved = ir.Slot(st.span, held)
            out += [ir.Assign(st.span, ir.SlotTarget(held), ir.Concat(st.span, ir.Const(st.span, ()), st.cards)),
                    attrs.evolve(st, cards=moved), ir.Conceal(st.span, moved, player)]
        elif isinstance(st, ir.If):
            out.append(attrs.evolve(st, branches=tuple((c, _concealing(lw, b, player)) for c, b in st.branches),
                                    orelse=_concealing(lw, st.orelse, player)))
        elif isinstance(st, (ir.ForEach, ir.Repeat, ir.While)):
            out.append(attrs.evolve(st, body=_concealing(lw, st.body, player)))
        else:
            out.append(st)
    return tuple(out)
