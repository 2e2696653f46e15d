"""A game's payoff as the reference interpreter runs it (`runtime.payoffs.PayoffRule`), from the
IR's `Payoff` (the emitter builds its own from the same node: emit/program.py)."""

from __future__ import annotations

from typing import Callable, Optional

from ..runtime.payoffs import PayoffRule
from . import ir


def payoff_rule(payoff: Optional[ir.Payoff], evaluate: Callable) -> Optional[PayoffRule]:
    """The runtime form of the IR's payoff, its value worked out by `evaluate(state, expr)`."""
    if payoff is None:
        return None
    value = payoff.value
    return PayoffRule(payoff.slot, lambda st: evaluate(st, value), payoff.zero_sum, payoff.shared, payoff.span)
