"""A game's native program: whole random-bot games in machine code, and the batch API for research.

`native_program(lowered)` gives a `NativeProgram` (or raises `NativeUnsupported`, or ImportError
without numba); `fallback_line(...)` is the one line a command prints when it runs on the compiled
engine instead. `playouts(game, n, seed)` plays n games natively and returns arrays.
"""

from __future__ import annotations

import time
from typing import Optional

import numpy as np

from .cache import load_module
from .emit import native_module
from .kinds import NativeUnsupported
from .options import ALL_ON, Optimisations

SEED_LIMIT = 1 << 63  # seeds natively seeded: a non-negative int64 (the chance's and the bots' `random.Random(seed)`)


def fallback_line(why) -> str:
    """The one line that says a game runs on the compiled engine, and why."""
    if isinstance(why, NativeUnsupported):
        return (f"native engine: {why.construct} at rules line {why.line} is not supported yet; "
                "running on the compiled engine")
    return f"native engine: {why}; running on the compiled engine"


class NativeProgram:
    """One game's native module: `game(seed, seat_seeds)` plays a whole game as `simulate`'s random
    bots do (seat s drawing from `random.Random(seat_seeds[s])`)."""

    def __init__(self, lowered, optimisations: Optimisations = ALL_ON):
        t0 = time.perf_counter()
        self.source, self.tables = native_module(lowered, optimisations)
        self.module = load_module(self.source)
        self.players = lowered.layout.players
        self.has_score = lowered.ir.score is not None  # (without one, the scores are the returns)
        self.generate_seconds = time.perf_counter() - t0
        t0 = time.perf_counter()
        self._play = self.module.play
        self._play(0, np.zeros(self.players, dtype=np.int64), 0, self.tables)  # compiled now, or loaded from the cache
        self.start_seconds = time.perf_counter() - t0
        self.cached = bool(getattr(self._play, "stats", None) and self._play.stats.cache_hits)
        self.stopped_at = 0  # the rule line where the last run that stopped stopped

    def last_line(self) -> int:
        """The rule line where the last run that stopped met its error (or native limit)."""
        return self.stopped_at

    def game(self, seed: int, seat_seeds, mode: int = 0) -> Optional[dict]:
        """One whole game: {winners, scores, returns, decisions, rounds, first}, or None when the run
        met a rule error or a native limit (the caller then plays it on the compiled engine, which
        gives the same game and says the error as it does)."""
        if not 0 <= seed < SEED_LIMIT or any(not 0 <= s < SEED_LIMIT for s in seat_seeds):
            return None
        g, ret = self._play(seed, np.asarray(seat_seeds, dtype=np.int64), mode, self.tables)
        if g[5] != 1:
            self.stopped_at = int(g[7])
            return None
        n = self.players
        gl = g.tolist()
        returns = ret.tolist()
        return {"winners": gl[9:9 + gl[8]], "scores": gl[9 + n:9 + 2 * n] if self.has_score else returns,
                "returns": returns,
                "decisions": gl[2], "rounds": gl[1], "first": gl[4] if gl[4] >= 0 else 0}


def native_program(lowered, optimisations: Optimisations = ALL_ON) -> NativeProgram:
    """The native program of a lowered game (NativeUnsupported, or ImportError without numba), with
    the optimisations switched as `optimisations` says (all on by default)."""
    return NativeProgram(lowered, optimisations)


def playouts(game, n: int, seed: int = 0) -> dict:
    """n random-bot games natively, as `cardlang simulate` plays seeds seed … seed + n - 1 (bot s of
    game i seeded `(seed + i) * 1009 + s`): arrays `returns` (n × players), `decisions` and `rounds`
    (n), and `fallback`, the seeds the native run handed to the compiled engine (played there)."""
    native = getattr(game, "native", None)
    players = game.players
    returns = np.zeros((n, players))
    decisions = np.zeros(n, dtype=np.int64)
    rounds = np.zeros(n, dtype=np.int64)
    fallback = []
    for i in range(n):
        s = seed + i
        bots = [s * 1009 + k for k in range(players)]
        out = native.game(s, bots) if native is not None else None
        if out is None:
            out = _compiled_game(game, s, bots)
            fallback.append(s)
        returns[i] = out["returns"]
        decisions[i] = out["decisions"]
        rounds[i] = out["rounds"]
    return {"returns": returns, "decisions": decisions, "rounds": rounds, "fallback": fallback}


def _compiled_game(game, seed: int, bots) -> dict:
    """One random-bot game on the compiled engine (as `seat_playout` plays it)."""
    import random

    from ..runtime.playout import quiet, seat_playout

    st = quiet(game.new_initial_state(seed=seed, log=False))
    first = st.current_player
    decisions = seat_playout(st, [random.Random(b) for b in bots])
    return {"winners": list(st.winners()), "scores": st.scores(), "returns": st.returns(),
            "decisions": decisions, "rounds": st.round, "first": first if first >= 0 else 0}
