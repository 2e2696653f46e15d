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
from .stmt import END_GAME
from .writer import FAIL

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
        self.lowered, self.optimisations = lowered, optimisations  # (for the rollout module: `native/resume.py`)
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


def playouts(game, n: int, seed: int = 0, bots=None, state=None, stop_round: Optional[int] = None) -> dict:
    """n random-bot games natively, as `cardlang simulate` plays seeds seed … seed + n - 1: arrays
    `returns` (n × players), `decisions` and `rounds` (n), and `fallback`, the games the native run
    handed to the compiled engine (played there: the same games).

    `bots` says how the seats draw: None or "random", seat s of game i from its own generator seeded
    `(seed + i) * 1009 + s` (simulate's random bots, `seat_playout`); "shared", one generator for
    every seat seeded `(seed + i) * 1009` (`random_playout`, the search bots' rollouts); or a
    function `bots(i)` giving game i's seat seeds (scripted seat generators: seat s draws
    `randrange(count)` from `random.Random(bots(i)[s])`).
    With `state` (a compiled-engine state at a decision, e.g. a determinized world), each game is
    played on from it instead of from the start (`native/resume.py`), its chance drawn from
    `random.Random(seed + i)`, until the end or round `stop_round`; `returns` are then zeros for a
    game stopped before its end, and `progress` holds what the search bots judge it by."""
    if state is not None:
        return _playouts_from(game, state, n, seed, bots, stop_round)
    native = getattr(game, "native", None)
    players = game.players
    returns = np.zeros((n, players))
    decisions = np.zeros(n, dtype=np.int64)
    rounds = np.zeros(n, dtype=np.int64)
    fallback = []
    shared = bots == "shared"
    for i in range(n):
        s = seed + i
        seats = _seat_seeds(bots, i, s, players)
        out = native.game(s, seats, 1 if shared else 0) if native is not None else None
        if out is None:
            out = _compiled_game(game, s, seats, shared)
            fallback.append(s)
        returns[i] = out["returns"]
        decisions[i] = out["decisions"]
        rounds[i] = out["rounds"]
    return {"returns": returns, "decisions": decisions, "rounds": rounds, "fallback": fallback}


def _seat_seeds(bots, i: int, s: int, players: int) -> list:
    """The seat seeds of game i (seed s) as `playouts`' `bots` says."""
    if bots is None or bots in ("random", "shared"):
        return [s * 1009 + k for k in range(players)]
    if callable(bots):
        seats = [int(x) for x in bots(i)]
        if len(seats) != players:
            raise ValueError(f"bots({i}) gave {len(seats)} seat seeds for {players} players")
        return seats
    raise ValueError(f"bots is None, \"random\", \"shared\" or a function of the game's number, not {bots!r}")


def _playouts_from(game, state, n: int, seed: int, bots, stop_round) -> dict:
    """`playouts` from a state (see there): natively when the state can resume, else compiled."""
    import random

    from ..runtime.playout import quiet, random_playout, seat_playout
    from .resume import CannotResume, convert, rollouts_for

    players = game.players
    shared = bots == "shared"
    seats = np.array([_seat_seeds(bots, i, seed + i, players) for i in range(n)], dtype=np.int64)
    chances = [random.Random(seed + i).getrandbits(64) for i in range(n)]
    try:
        native = rollouts_for(game)
        world = convert(native, state)
    except CannotResume as e:
        native, why = None, str(e)
    out = None
    if native is not None:
        out = native.rollouts(world, [c - (1 << 64) if c >= 1 << 63 else c for c in chances], seats,
                              1 if shared else 0, stop_round)
    returns, scores, progress = np.zeros((n, players)), np.zeros((n, players)), np.zeros((n, players))
    decisions, rounds = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
    ended = np.zeros(n, dtype=np.bool_)
    fallback = []
    for i in range(n):
        if out is not None and int(out["status"][i]) != FAIL:
            ended[i] = int(out["status"][i]) == END_GAME
            returns[i], scores[i], progress[i] = out["returns"][i], out["scores"][i], out["progress"][i]
            decisions[i] = out["decisions"][i] - len(state.history)
            rounds[i] = out["round"][i]
            continue
        st = quiet(state.clone())
        st.rng = chances[i]
        if shared:
            decisions[i] = random_playout(st, random.Random(int(seats[i, 0])), stop_round)
        else:
            decisions[i] = seat_playout(st, [random.Random(int(x)) for x in seats[i]], stop_round)
        ended[i] = st.terminal
        payoffs = st.game.program.payoffs(st)  # (what a search bot judges a playout by: `bots._progress`)
        returns[i], scores[i] = st.returns(), st.scores() if st.terminal else 0
        progress[i] = st.scores() if payoffs is None else payoffs
        rounds[i] = st.round
        fallback.append(i)
    result = {"returns": returns, "scores": scores, "progress": progress, "decisions": decisions,
              "rounds": rounds, "ended": ended, "fallback": fallback}
    if native is None:
        result["note"] = why
    return result


def _compiled_game(game, seed: int, bots, shared: bool = False) -> dict:
    """One random-bot game on the compiled engine (as `seat_playout` plays it, or `random_playout`
    with `shared`)."""
    import random

    from ..runtime.playout import quiet, random_playout, seat_playout

    st = quiet(game.new_initial_state(seed=seed, log=False))
    first = st.current_player
    if shared:
        decisions = random_playout(st, random.Random(bots[0]))
    else:
        decisions = seat_playout(st, [random.Random(b) for b in bots])
    return {"winners": list(st.winners()), "scores": st.scores(), "returns": st.returns(),
            "decisions": decisions, "rounds": st.round, "first": first if first >= 0 else 0}
