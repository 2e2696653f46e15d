"""Instructions executed, counted by valgrind: the same on a loaded machine as on an idle one.

CPU times on a shared machine move by 10-30% from run to run, so a ratio of two of them can say
0.83 one minute and 0.95 the next. `valgrind --tool=cachegrind --cache-sim=no` counts the
instructions a process executes ("I refs"), which does not depend on the load; the same command
gives the same count give or take a few in a million (hash seeds are fixed here). A figure is the
difference between two runs of the same work at two sizes, so that start-up, loading and compiling
cancel: (count at `large` - count at `small`) / (`large` - `small`) instructions a unit.

Used by the benchmarks' `--instructions` options (`bench_simulate_ratio.py`, `bench_melds.py`).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def available() -> bool:
    """Whether valgrind is on the PATH."""
    return shutil.which("valgrind") is not None


def count(args: list) -> int:
    """Instructions a run of `python args…` executes (valgrind's cachegrind, no cache simulation)."""
    env = dict(os.environ, PYTHONHASHSEED="0")
    cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
           sys.executable, *args]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    found = _REFS.search(done.stderr)
    if done.returncode != 0 or found is None:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise SystemExit(f"valgrind run failed ({' '.join(args)}): {tail}")
    return int(found.group(1).replace(",", ""))


def per_unit(args_at, small: int, large: int) -> float:
    """Instructions a unit of work: `args_at(n)` is the command line doing n units."""
    return (count(args_at(large)) - count(args_at(small))) / (large - small)
