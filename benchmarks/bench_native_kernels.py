"""Benchmark the native engine's poker kernel (cardlang/native/poker.py) against the Python runtime.

Evaluations per CPU second (`time.process_time`) of the same seeded random hands of the standard
deck, 5 and 7 cards (`--sizes`), for the standard ranking and Counter-Bluff's (no flush, no high card):

- `python evaluate_value`: `Ranking.evaluate_value(codes)`, the runtime's fastest entry, in a
  plain loop over lists prepared beforehand;
- `python as the engines call it`: `int(evaluate_value([codes[c] for c in hand]))`, what both
  Python engines do for `hand value of …` (`compiler/emit/helpers.hand_value`);
- `native in machine code`: `hand_value(cards, n, table)` called from a jitted loop over the rows
  of an array, as the native engine calls it (no Python in between);
- `native from Python`: one call of the jitted function from Python a hand (the dispatch cost
  included: what a Python caller would see, not the native engine).

Then the least deadwood of random 10-card hands under `examples/knock_rummy.cards`'s `melds`
declaration: `MeldRule.deadwood` (what the reference interpreter calls), the closure the compiled
engine calls (`MeldRule.deadwood_function`), and `native.melds.deadwood` in a jitted loop.

Compilation is done (and timed, wall and CPU) before the measures; the table's conversion from
the runtime's ranking is timed too. Each figure is the best of `--repeat` runs, the contenders
taking turns, so that a change of load hits them alike: compare the ratios of one run.

    python benchmarks/bench_native_kernels.py [--hands 200000] [--repeat 3] [--seed 1] [--json]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numba  # noqa: E402
import numpy as np  # noqa: E402
from numba import njit  # noqa: E402

from cardlang.native import melds, poker  # noqa: E402
from cardlang.runtime.poker import STANDARD_CATEGORIES, Ranking  # noqa: E402

COUNTER_BLUFF = ("straight_flush", "four_of_a_kind", "full_house", "three_of_a_kind", "straight", "two_pair",
                 "pair")


# (not cached: numba's cache of a function is not invalidated when a jitted function it calls in
# another module changes, so a cached loop could measure an old kernel)
@njit(cache=False)
def native_loop(hands, table):
    """hand_value of every row, summed (so that nothing is optimised away)."""
    total = 0
    n = hands.shape[1]
    for i in range(hands.shape[0]):
        total += poker.hand_value(hands[i], n, table)
    return total


@njit(cache=False)
def native_deadwood_loop(hands, table):
    total = 0
    n = hands.shape[1]
    for i in range(hands.shape[0]):
        total += melds.deadwood(hands[i], n, table)
    return total


def python_loop(evaluate, hands):
    total = 0
    for h in hands:
        total += evaluate(h)
    return total


def engine_loop(evaluate, codes, hands):
    total = 0
    for hand in hands:
        total += int(evaluate([codes[c] for c in hand]))
    return total


def native_from_python(table, rows, n):
    total = 0
    value = poker.hand_value
    for row in rows:
        total += value(row, n, table)
    return total


def best_cpu(runs: dict, repeat: int) -> dict:
    """Best CPU seconds of each `runs[name]()`, round-robin; each run's result must agree."""
    best = dict.fromkeys(runs, float("inf"))
    results = {}
    gc_was = gc.isenabled()
    gc.disable()
    try:
        for _ in range(repeat):
            for name, run in runs.items():
                t0 = time.process_time()
                results[name] = run()
                best[name] = min(best[name], time.process_time() - t0)
    finally:
        if gc_was:
            gc.enable()
    assert len(set(results.values())) == 1, results  # every contender summed the same values
    return best


def deadwood_rows(report: dict, rng, args) -> None:
    """The deadwood rows of the report (see the module's docstring)."""
    import cardlang

    rule = cardlang.load(str(Path(__file__).resolve().parent.parent / "examples/knock_rummy.cards"),
                         2).program.layout.melds
    table = melds.deadwood_table(rule)
    hs = [rng.sample(range(52), 10) for _ in range(args.hands)]
    arr = np.array(hs, dtype=np.int64)
    native_deadwood_loop(arr[:2], table)
    closure = rule.deadwood_function(None, distinct=True)
    runs = {
        "python MeldRule.deadwood": lambda: python_loop(rule.deadwood, hs),
        "python the compiled engine's closure": lambda: python_loop(closure, hs),
        "native in machine code": lambda: int(native_deadwood_loop(arr, table)),
    }
    secs = best_cpu(runs, args.repeat)
    base = secs["python MeldRule.deadwood"]
    for what, s in secs.items():
        report["rows"].append({"ranking": "deadwood", "cards": 10, "contender": what,
                               "per_cpu_s": round(len(hs) / s), "vs_evaluate_value": round(base / s, 2)})


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200_000, help="hands per size (default 200000)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure, best kept (default 3)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sizes", type=int, nargs="+", default=[5, 7],
                        help="hand sizes, 5 to 10 (default 5 7; 8 to 10 take the computed path natively, "
                             "the runtime's memo after its first run)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)

    rng = random.Random(args.seed)
    hands = {n: [rng.sample(range(52), n) for _ in range(args.hands)] for n in args.sizes}
    codes = tuple(range(52))  # the standard deck's ids are the evaluator's codes
    report = {"hands": args.hands, "seed": args.seed, "repeat": args.repeat, "python": platform.python_version(),
              "numba": numba.__version__, "rows": [], "setup": {}}

    w0, c0 = time.perf_counter(), time.process_time()
    native_loop(np.zeros((1, 5), dtype=np.int64), poker.ranking_table(Ranking.standard(), codes))
    report["setup"]["first call (compile or cache load) s"] = (round(time.perf_counter() - w0, 2),
                                                                round(time.process_time() - c0, 2))
    for name, cats in (("standard", STANDARD_CATEGORIES), ("counter_bluff", COUNTER_BLUFF)):
        ranking = Ranking.from_categories(cats, ace_low_straight=True)
        w0, c0 = time.perf_counter(), time.process_time()
        table = poker.ranking_table(ranking, codes)
        report["setup"][f"ranking_table {name} s"] = (round(time.perf_counter() - w0, 3),
                                                       round(time.process_time() - c0, 3))
        for n, hs in hands.items():
            arr = np.array(hs, dtype=np.int64)
            rows = list(arr)
            native_from_python(table, rows[:10], n)  # (compiled already: the dispatch warmed)
            runs = {
                "python evaluate_value": lambda hs=hs: python_loop(ranking.evaluate_value, hs),
                "python as the engines call it": lambda hs=hs: engine_loop(ranking.evaluate_value, codes, hs),
                "native in machine code": lambda arr=arr: int(native_loop(arr, table)),
                "native from Python": lambda rows=rows, n=n: int(native_from_python(table, rows, n)),
            }
            secs = best_cpu(runs, args.repeat)
            base = secs["python evaluate_value"]
            for what, s in secs.items():
                report["rows"].append({"ranking": name, "cards": n, "contender": what,
                                       "per_cpu_s": round(len(hs) / s), "vs_evaluate_value": round(base / s, 2)})
    deadwood_rows(report, rng, args)
    try:
        report["load_average"] = round(os.getloadavg()[0], 2)
    except (AttributeError, OSError):
        report["load_average"] = None
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    print(f"native poker kernel vs the Python runtime: {args.hands} seeded random hands (seed {args.seed}), "
          f"best of {args.repeat} in CPU time, Python {report['python']}, numba {report['numba']}")
    print(f"{'ranking':<15}{'cards':<7}{'contender':<38}{'evaluations/CPU s':>18}{'x first row':>14}")
    for r in report["rows"]:
        print(f"{r['ranking']:<15}{r['cards']:<7}{r['contender']:<38}{r['per_cpu_s']:>18,}"
              f"{r['vs_evaluate_value']:>13.2f}x")
    for what, (wall, cpu) in report["setup"].items():
        print(f"{what}: {wall} wall, {cpu} CPU")
    if report["load_average"] is not None:
        print(f"machine load average (1 min) at the end: {report['load_average']:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
