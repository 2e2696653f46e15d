"""The checks of a game's payoff (`payoff of p: …`, `shared payoff: …`): its type, and that a
zero-sum payoff can differ between seats. Called by the checker, whose scopes and reports it uses."""

from __future__ import annotations

from . import ast

# the checker's names of the two types a payoff involves (lang/check.py)
_NUMBER, _PLAYER = "number", "player"


def check_payoff(checker) -> None:
    """Checks `checker.sym.payoff`, if the game declares one."""
    d: ast.PayoffDecl = checker.sym.payoff
    if d is None:
        return
    checker.scopes = [{}]
    if d.var is not None:
        checker.bind(d.var, _PLAYER, d.span)
    checker.expect(d.value, (_NUMBER,), "a payoff")
    if d.zero_sum and not checker.scopes[0][d.var].used:
        checker.error("E036", f"a zero-sum payoff must differ between seats, but this one never names `{d.var}`",
                      d.value.span,
                      help="every seat would get the same value, and they add up to zero only if it is 0: "
                           "name the seat (`chips(p) - start`), or drop `, zero sum` "
                           "(`shared payoff: …` is one payoff the players share)")
