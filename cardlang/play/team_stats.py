"""The team table of `simulate` for a game with partnerships (`teams …`): a game won by a team
counts once for that team, not once for each of its players."""

from __future__ import annotations

from typing import Sequence


def team_entries(teams: Sequence[tuple], results: list, entry) -> list:
    """One entry a team: its seats, its wins (games whose winners are all of it), its mean score
    and payoff (its players' mean, which a team score or payoff makes theirs alike); `entry(wins,
    scores, returns)` is the seat table's own statistics."""
    out = []
    for k, seats in enumerate(teams):
        wins = sum(1 for r in results if r["winners"] and set(r["winners"]) <= set(seats))
        scores = [sum(r["scores"][s] for s in seats) / len(seats) for r in results]
        returns = [sum(r["returns"][s] for s in seats) / len(seats) for r in results]
        out.append({"team": k + 1, "seats": list(seats), **entry(wins, scores, returns)})
    return out


def team_ties(teams: Sequence[tuple], results: list) -> dict:
    """Games won by players of several teams (shared between teams), and games nobody won."""
    def teams_of(r) -> set:
        return {k for k, seats in enumerate(teams) for w in r["winners"] if w in seats}
    return {"shared_wins": sum(1 for r in results if len(teams_of(r)) > 1),
            "no_winner": sum(1 for r in results if not r["winners"])}
