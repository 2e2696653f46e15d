"""The end of a game with partnerships (`teams …`) by team, for `cardlang play` and `cardlang replay`:
each team once, its players, its score and payoff, and which team won.

Everything comes from the runtime API (`State.scores()`, `returns()`, `winners()` and the game's
`teams`), never from the log's text.
"""

from __future__ import annotations

from typing import NamedTuple, Optional, Sequence


class TeamResult(NamedTuple):
    """One team at the end of the game."""

    number: int  # 1 for the team of P0, as `simulate`'s team table counts
    seats: tuple  # its players, in seat order
    score: tuple  # its players' scores, in seat order (one value for all under `score of team t`)
    payoff: Optional[tuple]  # its players' payoffs, or None when the game declares no score apart
    won: bool  # every player of the team is among the winners


def team_results(game, scores: Sequence, returns: Optional[Sequence], winners: Sequence[int]) -> list:
    """One `TeamResult` a team of `game` (none without partnerships), from the final scores, the
    returns (None: not shown) and the winning seats."""
    won = set(winners)
    return [TeamResult(k + 1, tuple(seats), tuple(scores[s] for s in seats),
                       tuple(returns[s] for s in seats) if returns is not None else None,
                       bool(won) and set(seats) <= won)
            for k, seats in enumerate(game.teams)]


def final_teams(game, state) -> list:
    """The teams of a finished game; the payoffs only where the game declares both a score and a
    payoff (without a score the scores are the payoffs)."""
    shows_payoff = game.symbols.score is not None and game.symbols.payoff is not None
    return team_results(game, state.scores(), state.returns() if shows_payoff else None, state.winners())


def team_name(t: TeamResult) -> str:
    """`T1 (P0 & P2)`."""
    return f"T{t.number} ({' & '.join(f'P{s}' for s in t.seats)})"


def team_value(t: TeamResult, values: tuple) -> str:
    """A team's score or payoff: one number when its players share it, else each player's."""
    if len(set(values)) == 1:
        return str(number(values[0]))
    return ", ".join(f"P{s} {number(v)}" for s, v in zip(t.seats, values))


def winning(results: Sequence[TeamResult], winners: Sequence[int]) -> list:
    """Who won, by team: `["T1 (P0 & P2)"]`, one entry a team for a win shared between teams, and
    the players who won without their whole team by name (`P0`); empty when nobody won."""
    teams = [t for t in results if t.won]
    covered = {s for t in teams for s in t.seats}
    return [team_name(t) for t in teams] + [f"P{s}" for s in winners if s not in covered]


def number(v):
    """A float that is a whole number written without its `.0`."""
    return int(v) if isinstance(v, float) and v.is_integer() else v
