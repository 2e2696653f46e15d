"""Benchmark the native engine's first compile (issue 29), file by file: a table.

Each file of games/ and examples/ (or those named) is loaded with `engine="native"` in a fresh
process with an empty native cache of its own (`$CARDLANG_CACHE`: the numba kernels of
`cardlang/native/*.py` are cached where numba keeps them, as after a first game), and, with
`--rollouts`, its rollout module (`native/resume.py`, what the search bots' native rollouts
compile) is built too. Printed per file: the CPU seconds (`time.process_time`, the figure that a
busy machine disturbs least) and wall seconds of the load (code generation and numba's compile of
the whole-game module), and of the rollout module; then the same file again in a new process on
that cache (the cached start-up), with `--cached`. `--source DIR` measures the cardlang of another
checkout (e.g. before a change) on this checkout's rule files.

    python benchmarks/bench_native_compile.py [FILE ...] [--rollouts] [--cached] [--source DIR] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

_CHILD = """
import json, sys, time
t0, c0 = time.perf_counter(), time.process_time()
import cardlang
game = cardlang.load({path!r}, engine="native")
row = {{"seconds": time.perf_counter() - t0, "cpu": time.process_time() - c0, "note": game.native_note,
        "players": game.players}}
if {rollouts!r} and game.native is not None:
    from cardlang.native.resume import CannotResume, rollouts_for
    t0, c0 = time.perf_counter(), time.process_time()
    try:
        rollouts_for(game)
    except CannotResume as e:
        row["rollouts_note"] = str(e)
    row["rollouts_seconds"], row["rollouts_cpu"] = time.perf_counter() - t0, time.process_time() - c0
print(json.dumps(row))
"""


def measure(path: str, cache: str, rollouts: bool, source: Path = ROOT) -> dict:
    """One load of `path` in a new process on the native cache `cache` (cardlang from `source`)."""
    env = dict(os.environ, CARDLANG_CACHE=cache, PYTHONPATH=str(source))
    out = subprocess.run([sys.executable, "-c", _CHILD.format(path=str(ROOT / path), rollouts=rollouts)], env=env,
                         cwd=ROOT, capture_output=True, text=True)
    if out.returncode != 0:
        return {"error": (out.stderr.strip().splitlines() or ["?"])[-1]}
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", help="rule files (default: every file of games/ and examples/)")
    ap.add_argument("--rollouts", action="store_true", help="build the rollout module too")
    ap.add_argument("--cached", action="store_true", help="load each file again on its cache")
    ap.add_argument("--source", default=str(ROOT), help="the checkout whose cardlang is measured (default: this one)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    files = args.files or sorted(str(p.relative_to(ROOT)) for d in ("games", "examples")
                                 for p in (ROOT / d).glob("*.cards"))
    rows = []
    print(f"{'file':44} {'players':>7} {'CPU s':>7} {'wall s':>7}" + ("  rollouts CPU s, wall s" if args.rollouts else "")
          + ("  cached wall s" if args.cached else ""), flush=True)
    for path in files:
        with tempfile.TemporaryDirectory(prefix="cardlang-compile-bench-") as cache:
            row = measure(path, cache, args.rollouts, Path(args.source))
            if args.cached and "error" not in row:
                row["cached"] = measure(path, cache, False, Path(args.source))
        row["file"] = path
        rows.append(row)
        if args.json:
            continue
        if "error" in row:
            print(f"{path:44} error: {row['error']}", flush=True)
            continue
        line = f"{path:44} {row['players']:>7} {row['cpu']:7.1f} {row['seconds']:7.1f}"
        if row.get("note"):
            line += f"  ({row['note']})"
        if "rollouts_cpu" in row:
            line += f"  {row['rollouts_cpu']:7.1f} {row['rollouts_seconds']:7.1f}"
            if row.get("rollouts_note"):
                line += f" ({row['rollouts_note']})"
        if "cached" in row:
            line += f"  {row['cached'].get('seconds', float('nan')):6.2f}"
        print(line, flush=True)
    if args.json:
        print(json.dumps({"rows": rows, "load_average": os.getloadavg()[0]}))
    else:
        print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
