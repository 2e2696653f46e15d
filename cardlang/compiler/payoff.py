"""A game's payoff as a program runs it (`runtime.payoffs.PayoffRule`), from the IR's `Payoff`.

The reference interpreter evaluates it as it evaluates everything. The compiled engine evaluates
the same IR with the reference evaluator (`attach_payoff`): a payoff is asked for only at the end
of a game or of a bot's playout, never in the inner loop, so the plain evaluator costs little.
"""

from __future__ import annotations

from typing import Callable, Optional

from ..runtime.payoffs import PayoffRule
from . import ir
from .lower import Lowerer
from .reference_expr import Evaluator


def payoff_rule(payoff: Optional[ir.Payoff], evaluate: Callable) -> Optional[PayoffRule]:
    """The runtime form of the IR's payoff, its value worked out by `evaluate(state, expr)`."""
    if payoff is None:
        return None
    value = payoff.value
    return PayoffRule(payoff.slot, lambda st: evaluate(st, value), payoff.zero_sum, payoff.shared, payoff.span)


def attach_payoff(program, symbols, players: int, options: dict) -> None:
    """Gives a compiled program the game's payoff: lowered over its layout, in slots after its own."""
    if symbols.payoff is None:
        return
    lowerer = Lowerer(symbols, players, options, program.layout)
    lowerer.nslots = program.nslots
    lowerer.card_slots, lowerer.cards_slots = list(program.card_slots), list(program.cards_slots)
    payoff = lowerer.payoff()
    program.nslots = lowerer.nslots
    program.card_slots, program.cards_slots = tuple(lowerer.card_slots), tuple(lowerer.cards_slots)
    program.payoff = payoff_rule(payoff, Evaluator(program.layout, program).eval)
