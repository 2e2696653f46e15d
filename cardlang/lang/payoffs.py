"""The checks of a game's payoff (`payoff of p: …`, `shared payoff: …`) and of a score that decides
who wins (`score of p: …, lowest wins`): their types, and that they can differ between seats. Called by the checker, whose scopes and reports it uses."""

from __future__ import annotations

from . import ast, check_teams

# the checker's names of the two types a payoff involves (lang/check.py)
_NUMBER, _PLAYER = "number", "player"


def check_payoff(checker) -> None:
    """Checks `checker.sym.payoff`, if the game declares one."""
    d: ast.PayoffDecl = checker.sym.payoff
    if d is None:
        return
    checker.scopes = [{}]
    if d.var is not None:
        checker.bind(d.var, check_teams.check_decl_var(checker, d), d.span)
    checker.expect(d.value, (_NUMBER,), "a payoff")
    check_teams.check_seat_payoff(checker)
    if d.zero_sum and not checker.scopes[0][d.var].used:
        checker.error("E036", f"a zero-sum payoff must differ between seats, but this one never names `{d.var}`",
                      d.value.span,
                      help="every seat would get the same value, and they add up to zero only if it is 0: "
                           "name the seat (`chips(p) - start`), or drop `, zero sum` "
                           "(`shared payoff: …` is one payoff the players share)")


def check_score_order(checker) -> None:
    """`score of p: …, lowest wins` (or `highest wins`) must be able to tell the seats apart (called
    just after the score is checked, in its scope)."""
    d: ast.ScoreDecl = checker.sym.score
    if d.order is not None and not checker.scopes[0][d.var].used:
        checker.error("E036", f"a score that decides who wins must differ between seats, but this one never "
                              f"names `{d.var}`", d.value.span,
                      help=f"every seat would tie and win every game: name the seat (`total({d.var})`), or "
                           f"drop `, {d.order} wins`")

