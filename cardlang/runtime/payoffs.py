"""What each seat gets at the end of a game (`State.returns()`), whichever engine runs it.

Without a payoff declaration a winner gets 1.0 and every other seat 0.0. `payoff of p: …` gives
each seat its value; `shared payoff: …` gives every seat the one value (a cooperative game). A game
that says `, zero sum` is held to it: payoffs that do not add up to 0 are a rule error at the end.
"""

from __future__ import annotations

from typing import Callable, Optional

from .basics import RuleError


class PayoffRule:
    """A program's payoff as both engines run it: the slot that holds the seat (None when shared),
    `value(state)`, the game's word on its sum, and the place of the declaration."""

    __slots__ = ("slot", "value", "zero_sum", "shared", "span")

    def __init__(self, slot: Optional[int], value: Callable, zero_sum: bool, shared: bool, span):
        self.slot, self.value, self.zero_sum, self.shared, self.span = slot, value, zero_sum, shared, span


def payoffs_now(rule: PayoffRule, st, n: int) -> list:
    """Each seat's payoff as the declaration gives it in the state as it stands (bots judge
    unfinished playouts by it; `returns` asks only at the end)."""
    if rule.shared:
        return [rule.value(st)] * n
    out = []
    for seat in range(n):
        st.v[rule.slot] = seat
        out.append(rule.value(st))
    return out


def final_returns(rule: Optional[PayoffRule], st, n: int) -> list:
    """The returns of a finished game: its payoffs as floats, or 1.0 a winner and 0.0 the others."""
    if rule is None:
        return [1.0 if s in st.winner_seats else 0.0 for s in range(n)]
    values = payoffs_now(rule, st, n)
    if rule.zero_sum and sum(values) != 0:
        shown = ", ".join(f"P{s} {v}" for s, v in enumerate(values))
        raise RuleError(f"the game says its payoffs add up to zero, but they add up to {sum(values)} ({shown})",
                        rule.span)
    return [float(v) for v in values]


def utility(rule: Optional[PayoffRule]) -> str:
    """How the seats' returns relate (OpenSpiel's words): "zero_sum", "identical" or "general_sum"."""
    if rule is None:
        return "general_sum"  # (1 each winner: a tie or no winner changes the sum)
    return "zero_sum" if rule.zero_sum else "identical" if rule.shared else "general_sum"
