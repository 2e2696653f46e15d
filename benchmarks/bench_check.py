"""How long `cardlang check games/ examples/` takes from a cold start (a new Python process each time).

    python benchmarks/bench_check.py            # 10 runs
    python benchmarks/bench_check.py -n 20 --budget 1.0

Each run starts `python -m cardlang.cli check -q games examples` in a subprocess and measures its
wall-clock time and the CPU time it used (user + system). On a busy machine the wall-clock time
grows with the load while the CPU time does not; both are printed. "grammar cached" is the usual
case (Lark keeps the parser tables in the temp folder); "no grammar cache" gives each run an empty
temp folder, as on the very first run. A benchmark, not a test: `--budget` only sets the exit status.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_once(env: dict) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "cardlang.cli", "check", "-q", "games", "examples"],
                          cwd=ROOT, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        sys.exit(f"cardlang check failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def measure(runs: int, fresh_cache: bool) -> tuple[list, list]:
    walls, cpus = [], []
    for _ in range(runs):
        env = dict(os.environ, NO_COLOR="1")
        with tempfile.TemporaryDirectory() as tmp:
            if fresh_cache:  # (the parser is kept in the user's cache folder, else under TMPDIR)
                env["TMPDIR"] = env["XDG_CACHE_HOME"] = tmp
            wall, cpu = run_once(env)
        walls.append(wall)
        cpus.append(cpu)
    return walls, cpus


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", "--runs", type=int, default=10)
    ap.add_argument("--budget", type=float, default=1.0, help="seconds the cached cold start should stay under")
    args = ap.parse_args()
    files = sorted(ROOT.glob("games/**/*.cards")) + sorted(ROOT.glob("examples/**/*.cards"))
    size = sum(f.stat().st_size for f in files)
    print(f"cardlang check -q games examples: {len(files)} files, {size / 1000:.1f} kB, {args.runs} runs each")
    run_once(dict(os.environ))  # warm the grammar cache and the file system
    results = {}
    for label, fresh in (("grammar cached", False), ("no grammar cache", True)):
        walls, cpus = measure(args.runs, fresh)
        results[label] = min(walls)
        print(f"  {label:17} wall min {min(walls):.3f} s, median {statistics.median(walls):.3f} s;"
              f" cpu median {statistics.median(cpus):.3f} s")
    ok = results["grammar cached"] < args.budget
    print(f"  budget {args.budget:.2f} s (cached cold start, best wall time): {'ok' if ok else 'OVER'}")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
