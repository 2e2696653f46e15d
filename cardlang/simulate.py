"""Many seeded games with bots in every seat, and the statistics a designer reads."""

from __future__ import annotations

import time
from typing import Callable, Optional, Sequence

from .bots import make_bot
from .engine import Game


def play_one(game: Game, seed: int, bots: Sequence[str]) -> dict:
    """One game from `seed` with the named bot in each seat: winners, scores, decisions."""
    state = game.new_initial_state(seed=seed, log=False)
    players = [make_bot(bots[s % len(bots)], seed=seed * 1009 + s) for s in range(game.players)]
    decisions = 0
    while not state.is_terminal():
        seat = state.current_player
        state.apply(players[seat].choose(state))
        decisions += 1
    return {"winners": list(state.winners()), "scores": state.scores(), "decisions": decisions}


def simulate(game: Game, games: int, seed: int = 0, bots: Sequence[str] = ("random",),
             progress: Optional[Callable[[int], None]] = None) -> dict:
    """Plays `games` games (seeds seed, seed+1, …) and gathers per-seat statistics."""
    n = game.players
    wins = [0] * n
    decisions = 0
    start = time.perf_counter()
    for i in range(games):
        result = play_one(game, seed + i, bots)
        for w in result["winners"]:
            wins[w] += 1
        decisions += result["decisions"]
        if progress is not None:
            progress(i + 1)
    elapsed = max(time.perf_counter() - start, 1e-9)
    return {
        "game": game.title,
        "players": n,
        "games": games,
        "seats": [{"seat": s, "wins": wins[s], "win_rate": wins[s] / games if games else 0.0} for s in range(n)],
        "mean_decisions": decisions / games if games else 0.0,
        "games_per_second": games / elapsed,
    }
