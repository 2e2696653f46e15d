"""Benchmark the playout paths (issue 12's speed targets), in CPU time, ratios within one run.

In one process, alternating run by run so that all see the same machine load:

- `reference`: `benchmarks/reference/ascenseur.py`, random Ascenseur at 4 players, plain Python;
- `api loop`: `legal_action_ids()` + `apply()` per decision, `log=False`;
- `in-engine`: whole games inside the runtime, `runtime.playout.seat_playout` on quiet states (what
  `simulate`'s random bots play; the search bots' rollouts use `random_playout`, the same loop);
- `simulate`: `cardlang.play.simulate.simulate(game, N, jobs=1)` with its defaults (coverage and
  action counts), decisions per CPU second of the run.

Then, in fresh processes (CPU time of the child and its workers, and wall time): `cardlang simulate
FILE -n 200 --jobs 1` of a small game, start-up included; and `cardlang simulate games/ascenseur.cards
-n 5000` with `--jobs 1` and `--jobs 2`. On a shared machine the wall time of `--jobs 2` says little:
its CPU time says what two idle cores would give (the speed-up printed is jobs-1 CPU over the
busier worker's share, `cpu(jobs 2) / 2`, start-up included).

With `--turns N`, the in-process paths only, in N short turns (`--turn-seconds`) alternated path
by path: the median of each turn's ratio to the hand-written turn just before it, with its
quartiles. On this shared machine a rate moves by 10-20% within a minute; turns a third of a
second long, paired, see the same machine, and the median says what a typical moment gives.

    python benchmarks/bench_playouts.py [--seconds 2] [--repeat 3] [--games 2000] [--jobs-games 5000]
                                        [--small examples/coin_flip.cards] [--skip-jobs] [--json]
    python benchmarks/bench_playouts.py --turns 20 [--turn-seconds 0.3]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Optional

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

import cardlang  # noqa: E402
from cardlang.play.simulate import simulate  # noqa: E402
try:  # (absent before issue 12: the benchmark then measures the other paths, for the "before" figures)
    from cardlang.runtime.playout import quiet, seat_playout  # noqa: E402
except ImportError:  # pragma: no cover
    seat_playout = None
from bench_engine import _run_for, interpreted_player, reference_player  # noqa: E402
from reference import ascenseur as ref_ascenseur  # noqa: E402

GAME, PLAYERS = "games/ascenseur.cards", 4


def _rate(play, seconds: float) -> float:
    """Decisions per CPU second of `play(i)` (which returns its decisions), for about `seconds`."""
    _, decisions, elapsed = _run_for(play, seconds, None)
    return decisions / elapsed


def players(game) -> dict:
    """`play(i)` for each path measured in process (the first two are `bench_engine`'s)."""
    def in_engine(i: int) -> int:
        st = quiet(game.new_initial_state(seed=i, log=False))
        return seat_playout(st, [random.Random(i * 1009 + s) for s in range(PLAYERS)])

    out = {"reference": reference_player(ref_ascenseur.play_game, PLAYERS), "api loop": interpreted_player(game),
           "in-engine": in_engine}
    if seat_playout is None:
        del out["in-engine"]
    return out


def simulate_rate(game, games: int) -> float:
    """Decisions per CPU second of an in-process `simulate` of `games` games (coverage, action counts)."""
    gc.collect()
    t0 = time.process_time()
    stats = simulate(game, games, seed=0)
    elapsed = time.process_time() - t0
    return stats["mean_decisions"] * stats["games"] / elapsed


def cli(args: list, bytecode: bool = False, env: Optional[dict] = None) -> tuple:
    """(wall seconds, CPU seconds of the command and its workers) of `cardlang ARGS` in a fresh process;
    with `bytecode`, without `PYTHONDONTWRITEBYTECODE` (as an installed package starts: see
    `bench_startup.py`), else in this process's environment (or in `env`)."""
    env = dict(os.environ if env is None else env)
    if bytecode:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "cardlang.cli", *args], cwd=ROOT, check=True, env=env,
                   stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def by_turns(game, turns: int, seconds: float) -> dict:
    """Each path's rate in `turns` alternated turns: the median ratio to the hand-written program
    of the same turn, with its quartiles."""
    paths = players(game)
    for play in paths.values():  # (ops compile)
        _rate(play, 0.2)
    rates: dict = {name: [] for name in paths}
    for _ in range(turns):
        for name, play in paths.items():
            rates[name].append(_rate(play, seconds))
    out = {}
    for name in paths:
        if name != "reference":
            ratios = [r / b for r, b in zip(rates[name], rates["reference"])]
            q1, _, q3 = statistics.quantiles(ratios, n=4)
            out[f"{name} / reference"] = {"median": statistics.median(ratios), "quartiles": [q1, q3]}
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per in-process measurement")
    ap.add_argument("--repeat", type=int, default=3, help="measurements per figure, the best kept")
    ap.add_argument("--games", type=int, default=2000, help="games of the in-process simulate")
    ap.add_argument("--jobs-games", type=int, default=5000, help="Ascenseur games of the --jobs comparison")
    ap.add_argument("--small", default="examples/coin_flip.cards", help="the small game of the start-up figure")
    ap.add_argument("--skip-jobs", action="store_true", help="leave out the --jobs 1 / --jobs 2 comparison")
    ap.add_argument("--json", action="store_true", help="print JSON instead of text")
    ap.add_argument("--turns", type=int, help="alternated short turns instead (in-process paths only)")
    ap.add_argument("--turn-seconds", type=float, default=0.3, help="CPU seconds of a turn")
    args = ap.parse_args(argv)
    os.chdir(ROOT)
    game = cardlang.load(GAME, players=PLAYERS)
    if args.turns:
        out = by_turns(game, args.turns, args.turn_seconds)
        if args.json:
            print(json.dumps(out, indent=2))
            return 0
        for name, r in out.items():
            print(f"{name:<24} median {r['median']:.3f} (quartiles {r['quartiles'][0]:.3f}-{r['quartiles'][1]:.3f}) "
                  f"over {args.turns} turns")
        return 0
    paths = players(game)
    best = {name: 0.0 for name in paths}
    best["simulate"] = 0.0
    for _ in range(args.repeat):
        for name, play in paths.items():
            best[name] = max(best[name], _rate(play, args.seconds))
        best["simulate"] = max(best["simulate"], simulate_rate(game, args.games))
    ratios = {"api loop / reference": best["api loop"] / best["reference"],
              "simulate / reference": best["simulate"] / best["reference"]}
    if "in-engine" in best:
        ratios["in-engine / reference"] = best["in-engine"] / best["reference"]
        ratios["simulate / in-engine"] = best["simulate"] / best["in-engine"]
    out = {"decisions_per_cpu_s": best, "ratios": ratios}
    small = [cli(["simulate", args.small, "-n", "200", "--jobs", "1"]) for _ in range(args.repeat)]
    out["small_200_games"] = {"file": args.small, "wall_s": min(w for w, _ in small),
                              "cpu_s": min(c for _, c in small)}
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):  # the same with the bytecode cache an installation has
        cli(["simulate", args.small, "-n", "1", "--jobs", "1"], bytecode=True)  # (writes it)
        small = [cli(["simulate", args.small, "-n", "200", "--jobs", "1"], bytecode=True) for _ in range(args.repeat)]
        out["small_200_games_bytecode"] = {"file": args.small, "wall_s": min(w for w, _ in small),
                                           "cpu_s": min(c for _, c in small)}
    if not args.skip_jobs:
        n = str(args.jobs_games)
        one = cli(["simulate", GAME, "--players", str(PLAYERS), "-n", n, "--jobs", "1"])
        two = cli(["simulate", GAME, "--players", str(PLAYERS), "-n", n, "--jobs", "2"])
        out["jobs"] = {"games": args.jobs_games, "jobs1_wall_s": one[0], "jobs1_cpu_s": one[1],
                       "jobs2_wall_s": two[0], "jobs2_cpu_s": two[1],
                       "speedup_wall": one[0] / two[0], "speedup_on_idle_cores": one[1] / (two[1] / 2)}
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    for name, rate in best.items():
        print(f"{name:<10} {rate:>12,.0f} decisions per CPU second")
    for name, r in out["ratios"].items():
        print(f"{name:<24} {r:.2f}")
    s = out["small_200_games"]
    print(f"cardlang simulate {s['file']} -n 200 --jobs 1: {s['wall_s']:.2f} s wall, {s['cpu_s']:.2f} s CPU")
    if "small_200_games_bytecode" in out:
        s = out["small_200_games_bytecode"]
        print(f"  the same with a bytecode cache (PYTHONDONTWRITEBYTECODE unset): {s['wall_s']:.2f} s wall, "
              f"{s['cpu_s']:.2f} s CPU")
    if "jobs" in out:
        j = out["jobs"]
        print(f"{j['games']} Ascenseur games: --jobs 1 {j['jobs1_wall_s']:.1f} s wall, {j['jobs1_cpu_s']:.1f} s CPU; "
              f"--jobs 2 {j['jobs2_wall_s']:.1f} s wall, {j['jobs2_cpu_s']:.1f} s CPU; speed-up {j['speedup_wall']:.2f} "
              f"(wall), {j['speedup_on_idle_cores']:.2f} (CPU: on two idle cores)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
