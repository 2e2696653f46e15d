"""The slots of a program's local values that may hold cards (`round_locals`), read by the
engines (a round empties them) and by a view (`view.SeatView._settled`)."""

from __future__ import annotations


def round_locals(program) -> tuple:
    """The slots of the local values that may hold a card or cards (a `let`, a loop's or a choice's
    variable), which a new round empties (`None`, as the game began). No rule reads them across
    rounds (a local lives in its block), but a view would: one set in an earlier round names a card
    shuffled since, and where it lies now no seat saw (a world played again from the start holds
    another card there: issue 26, `runtime.past.CHANCE_PAST`). Read from the lowered program, so
    that the reference interpreter and the generated code empty the same slots."""
    ir_program, layout = program.ir, program.layout
    declared = set(layout.card_slots) | set(layout.cards_slots)
    if ir_program.sitting_slot is not None:
        declared.add(ir_program.sitting_slot)
    for a in ir_program.at_once:
        declared.update((a.seats_slot, a.picks_slot))
    return tuple(sorted({*ir_program.card_slots, *ir_program.cards_slots} - declared))
