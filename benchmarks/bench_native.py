"""Benchmark the native engine (issue 29): random 4-player Ascenseur against plain Python.

In one process, alternating run by run (best of `--repeat`), in decisions per CPU second
(`time.process_time`, start-up left out: the game is loaded and compiled before any timing):

- `native`: whole games through `game.native.game` (the machine code and its Python call);
- `simulate`: `play.simulate.simulate(game, …, jobs=1)` on the game loaded with `engine="native"`,
  what `cardlang simulate --engine native --jobs 1` runs (statistics included);
- `compiled`: the compiled engine's quiet whole-game random playouts (`seat_playout`), as
  `cardlang simulate` plays random bots;
- `reference`: the plain-Python program `benchmarks/reference/ascenseur.py`, as bench_engine.py
  drives it.

Then, each in a fresh process: the first compile (an empty cache directory of its own) and the
cached start-up (the same directory again), as `cardlang.load(..., engine="native")` and the first
game, with the process's peak memory (a `--jobs` worker's).

    python benchmarks/bench_native.py [--seconds 3] [--repeat 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

import cardlang  # noqa: E402
from bench_engine import _run_for, reference_player  # noqa: E402
from reference import ascenseur as ref_ascenseur  # noqa: E402

GAME, PLAYERS = str(ROOT / "games" / "ascenseur.cards"), 4


SIMULATE_BATCH = 20  # games a call of `simulate` in the `simulate` figure


def _rate(play, seconds: float, per_call: int = 1) -> tuple:
    """Calls `play(i)` (returning its decisions) for `seconds` of CPU: (games/s, decisions/s)."""
    calls, decisions, elapsed = _run_for(play, seconds, None)
    return calls * per_call / elapsed, decisions / elapsed


def players(game):
    from cardlang.play.simulate import simulate
    from cardlang.runtime.playout import quiet, seat_playout

    native = game.native

    def play_native(i):
        return native.game(i, [i * 1009 + s for s in range(PLAYERS)])["decisions"]

    def play_simulate(i, batch=SIMULATE_BATCH):
        stats = simulate(game, batch, seed=i * batch, jobs=1)
        return int(round(stats["mean_decisions"] * stats["games"]))

    def play_compiled(i):
        st = quiet(compiled.new_initial_state(seed=i, log=False))
        return seat_playout(st, [random.Random(i * 1009 + s) for s in range(PLAYERS)])

    compiled = cardlang.load(GAME, players=PLAYERS)
    return {"native": play_native, "simulate": play_simulate, "compiled": play_compiled,
            "reference": reference_player(ref_ascenseur.play_game, PLAYERS)}


_START = """
import json, resource, sys, time
t0, c0 = time.perf_counter(), time.process_time()
import cardlang
game = cardlang.load({game!r}, players={players}, engine="native")
total, cpu = time.perf_counter() - t0, time.process_time() - c0
n = game.native
print(json.dumps({{"seconds": total, "cpu": cpu, "native_start": n.start_seconds, "generate": n.generate_seconds,
                  "cached": n.cached, "max_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}}))
"""


def start_up(cache: str) -> dict:
    env = dict(os.environ, CARDLANG_CACHE=cache, PYTHONPATH=str(ROOT))
    out = subprocess.run([sys.executable, "-c", _START.format(game=GAME, players=PLAYERS)], env=env, cwd=ROOT,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _shuffle_seconds(times: int = 20000) -> float:
    """CPU seconds of one native shuffle of 52 cards from a 64-bit chance (SplitMix64,
    `native/rng.py: chance_shuffle`), as the engine shuffles."""
    import numpy as np
    from numba import njit

    from cardlang.native.rng import chance_shuffle

    @njit
    def shuffles(pile, mt, times):
        seed = 1
        for _ in range(times):
            seed = chance_shuffle(pile, seed)
        return seed

    mt, pile = np.zeros(625, dtype=np.int64), np.arange(52, dtype=np.int64)
    shuffles(pile, mt, 1)
    t0 = time.process_time()
    shuffles(pile, mt, times)
    return (time.process_time() - t0) / times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    game = cardlang.load(GAME, players=PLAYERS, engine="native")
    if game.native is None:
        raise SystemExit(game.native_note)
    plays = players(game)
    best = {name: (0.0, 0.0) for name in plays}
    for _ in range(args.repeat):  # alternate, so that every engine sees the same machine load
        for name, play in plays.items():
            per_call = SIMULATE_BATCH if name == "simulate" else 1
            best[name] = max(best[name], _rate(play, args.seconds, per_call), key=lambda r: r[1])
    with tempfile.TemporaryDirectory(prefix="cardlang-native-bench-") as cache:
        first = start_up(cache)
        cached = start_up(cache)
    ref = best["reference"][1]
    shuffle_us = _shuffle_seconds() * 1e6
    rounds = sum(game.native.game(i, [i * 1009 + s for s in range(PLAYERS)])["rounds"] for i in range(50)) / 50
    row = {"decisions_per_s": {k: v[1] for k, v in best.items()}, "games_per_s": {k: v[0] for k, v in best.items()},
           "ratio_native": best["native"][1] / ref, "ratio_simulate": best["simulate"][1] / ref,
           "ratio_compiled": best["compiled"][1] / ref, "first_compile": first, "cached_start": cached,
           "load_average": os.getloadavg()[0], "shuffle_us": shuffle_us, "rounds": rounds,
           "shuffle_share": shuffle_us * 1e-6 * rounds * best["native"][0]}
    if args.json:
        print(json.dumps(row))
        return
    print(f"random 4-player Ascenseur, decisions per CPU second (best of {args.repeat} × {args.seconds:g} s):")
    for name, (games, decisions) in best.items():
        print(f"  {name:10} {decisions:12,.0f} decisions/s  {games:9,.1f} games/s  "
              f"{decisions / ref:5.2f}× plain Python")
    print(f"chance: one shuffle of 52 cards {row['shuffle_us']:.1f} µs; "
          f"{row['rounds']:.1f} rounds a game: {row['shuffle_share']:.0%} of a native game's time")
    print(f"first compile (fresh cache, new process): load {first['seconds']:.1f} s, {first['cpu']:.1f} s CPU "
          f"(numba {first['native_start']:.1f} s, code generated in {first['generate']:.2f} s), "
          f"peak memory {first['max_rss_mb']:.0f} MB")
    print(f"cached start-up (new process): load {cached['seconds']:.2f} s, {cached['cpu']:.2f} s CPU (machine code loaded in "
          f"{cached['native_start']:.2f} s), peak memory {cached['max_rss_mb']:.0f} MB")
    print(f"load average at the end: {row['load_average']:.1f}")


if __name__ == "__main__":
    main()
