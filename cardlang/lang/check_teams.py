"""The checks of partnerships: the `teams` declaration (E044), the team expressions (`partner of p`,
`team of p`, `teams`: E045 without teams, E046 for a partner outside teams of two), per-team
variables (E047 when given a player) and a team's score and payoff.

Kept apart from `check.py` so the checker's core stays small; each function takes the `Checker`.
`team_seats` is also what the layout builds its team tables from.
"""

from __future__ import annotations

from typing import Optional

from . import ast
from .types import PLAYER, TEAM, TEAMS

TEAM_WORDS = "`teams of 2 across` or `teams: 1 3, 2 4`"


def team_seats(d: ast.TeamsDecl, players: int) -> Optional[tuple]:
    """The seats of each team (seat 0 is P0) at `players` seats, or None when the declaration does
    not split them into two teams or more, each seat in one."""
    if d.size is not None:
        if d.size < 1 or players % d.size or players // d.size < 2:
            return None
        count = players // d.size
        return tuple(tuple(range(k, players, count)) for k in range(count))
    teams = tuple(tuple(s - 1 for s in seats) for seats, _ in d.seats)
    flat = sorted(s for t in teams for s in t)
    return teams if flat == list(range(players)) and len(teams) >= 2 else None


def collect(checker, d: ast.TeamsDecl) -> None:
    """Records the `teams` declaration (one a game: E011 for a second)."""
    if checker.sym.teams is not None:
        checker.error("E011", "the file declares `teams` twice", d.span,
                      help=f"the first is at line {checker.sym.teams.span.line}")
        return
    checker.sym.teams = d


def validate(checker) -> None:
    """E044: the teams must split every allowed player count into teams, each seat in one."""
    d = checker.sym.teams
    if d is None:
        for sym in checker.sym.tvars.values():
            _need_teams(checker, "`per team var`", sym.decl.span)
        return
    low, high = checker.sym.players
    for n in range(low, high + 1):
        if team_seats(d, n) is not None:
            continue
        if d.size is not None:
            why = (f"{n} players cannot sit in teams of {d.size}" if d.size < 1 or n % d.size
                   else f"{n} players in teams of {d.size} are one team, not a partnership")
            checker.error("E044", f"`teams of {d.size} across` does not divide the players: {why}", d.span,
                          help=f"allow only counts that teams of {d.size} divide into two teams or more "
                               f"(`players {2 * max(d.size, 1)}`)")
        else:
            checker.error("E044", f"the teams listed do not seat {n} players: each seat from 1 to {n} must be "
                                  "in exactly one team", d.span,
                          help="list every seat once, with a fixed player count: `players 4` and "
                               "`teams: 1 3, 2 4`")
        return


def check_seat_payoff(checker) -> None:
    """W006: with teams, a payoff by seat can pay partners differently (called after the payoff is checked)."""
    d = checker.sym.payoff
    if checker.sym.teams is None or d is None or d.var is None or d.team:
        return
    checker.warn("W006", f"the players play in teams, but this payoff is by seat: partners may get different "
                         f"payoffs", d.span,
                 help=f"pay each team, and both partners alike: `payoff of team t: …`; or drop `teams` if "
                      "everyone plays for himself")


def _need_teams(checker, what: str, span) -> bool:
    """E045 when the game declares no teams; whether it does."""
    if checker.sym.teams is None:
        checker.error("E045", f"{what} needs teams, but the game declares none", span,
                      help=f"declare the partnerships: {TEAM_WORDS}")
        return False
    return True


def expr_type(checker, e) -> str:
    """The type of `partner of p`, `team of p` or `teams`."""
    if isinstance(e, ast.Teams):
        _need_teams(checker, "`teams`", e.span)
        return TEAMS
    word = "partner" if isinstance(e, ast.PartnerOf) else "team"
    checker.expect(e.player, (PLAYER,), f"`{word} of` needs a player; this")
    if _need_teams(checker, f"`{word} of`", e.span) and word == "partner":
        sizes = _sizes(checker)
        if sizes and sizes != {2}:
            checker.error("E046", "`partner of` names the other player of a team of two, but these teams have "
                                  + " or ".join(str(s) for s in sorted(sizes)) + " players", e.span,
                          help="go through the team instead: `for each q in team of p where q != p`")
    return TEAM if word == "team" else PLAYER


def _sizes(checker) -> set:
    """The team sizes of every allowed player count (empty when the declaration is wrong: E044)."""
    d, (low, high) = checker.sym.teams, checker.sym.players
    out = set()
    for n in range(low, high + 1):
        seats = team_seats(d, n)
        if seats is not None:
            out.update(len(t) for t in seats)
    return out


def declare_var(checker, d: ast.VarDecl, symbol_cls) -> None:
    """`per team var …`: one value per team, used as `name(t)` (E045 without teams)."""
    sym = symbol_cls("tvar", "any", d, d.name_span)
    checker.sym.tvars[d.name] = sym
    checker._declare(d.name, sym, d.name_span)


def var_key(checker, name: str, key: ast.Expr) -> None:
    """The team that `name(…)` of a per-team variable reads or writes (E047 for a player)."""
    t = checker.type_of(key)
    if t == PLAYER:
        checker.error("E047", f"`{name}` is a per-team variable: it takes a team, not a player", key.span,
                      help=f"name the player's team: `{name}(team of …)`")
    elif t not in (TEAM, "any", "none"):
        checker.expect(key, (TEAM,), f"the team of `{name}(…)`")


def check_decl_var(checker, d) -> str:
    """The type of the name a score or payoff declaration binds: a team for `… of team t`."""
    if d.team:
        _need_teams(checker, f"`{'score' if isinstance(d, ast.ScoreDecl) else 'payoff'} of team`", d.span)
        return TEAM
    return PLAYER
