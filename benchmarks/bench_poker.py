"""Benchmark cardlang.runtime.poker against treys: evaluations per second, one process.

Both evaluators see the same seeded random hands (card ids for cardlang,
treys' own card ints prepared beforehand for treys) in the same kind of plain
loop.  treys is timed through its public ``Evaluator.evaluate(hand, board)``
with a 2-card hand and a 3- or 5-card board.  treys only knows the standard
ranking, so the Counter-Bluff rows compare against the same treys figures.
Each figure is the best of ``--repeat`` runs, the contenders taking turns.

    python benchmarks/bench_poker.py [--hands 100000] [--repeat 3] [--seed 1] [--json]
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

from cardlang.runtime.poker import STANDARD_CATEGORIES, Ranking, card_str  # noqa: E402

COUNTER_BLUFF = (
    "straight_flush",
    "four_of_a_kind",
    "full_house",
    "three_of_a_kind",
    "straight",
    "two_pair",
    "pair",
)


def best_rates(runs: dict, n: int, repeat: int) -> dict:
    """Evaluations per second of each ``runs[name]()`` (each evaluates ``n`` hands).

    The contenders run round-robin, ``repeat`` rounds, best time kept: a
    change of machine load during the benchmark then hits all of them alike,
    which keeps the ratios honest on a shared machine.
    """
    best = dict.fromkeys(runs, float("inf"))
    gc_was_enabled = gc.isenabled()
    gc.disable()  # results are discarded; keep collector pauses out of the figures
    try:
        for _ in range(repeat):
            for name, run in runs.items():
                t0 = time.perf_counter()
                run()
                best[name] = min(best[name], time.perf_counter() - t0)
    finally:
        if gc_was_enabled:
            gc.enable()
    return {name: n / t for name, t in best.items()}


def loop(fn, hands):
    """A closure evaluating every hand with ``fn``, in the plainest loop."""
    def run():
        for h in hands:
            fn(h)
    return run


def loop2(fn, pairs):
    """Same as :func:`loop` for treys' two-argument call."""
    def run():
        for h, b in pairs:
            fn(h, b)
    return run


def build_seconds(categories, repeat: int) -> tuple[float, float]:
    """Best (wall, CPU) seconds to build a ranking's tables from scratch (uncached constructor).

    CPU time is reported too because on a busy machine the wall time
    includes waiting for a core.
    """
    best_wall = best_cpu = float("inf")
    for _ in range(repeat):
        w0, c0 = time.perf_counter(), time.process_time()
        Ranking(categories, ace_low_straight=True)
        best_wall = min(best_wall, time.perf_counter() - w0)
        best_cpu = min(best_cpu, time.process_time() - c0)
    return best_wall, best_cpu


def _load_average():
    """The 1-minute load average, to judge how busy the machine was (None if unknown)."""
    try:
        return round(os.getloadavg()[0], 2)
    except (AttributeError, OSError):
        return None


def main(argv=None) -> int:
    """Run the benchmark and print a table (or JSON with ``--json``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=100_000, help="hands per size (default 100000)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure, best kept (default 3)")
    parser.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)

    try:
        import treys
    except ImportError:  # still useful without treys
        treys = None

    rng = random.Random(args.seed)
    deck = list(range(52))
    hands = {n: [rng.sample(deck, n) for _ in range(args.hands)] for n in (5, 7)}

    build = {
        "standard": build_seconds(STANDARD_CATEGORIES, args.repeat),
        "counter_bluff": build_seconds(COUNTER_BLUFF, args.repeat),
    }
    rankings = {
        "standard": Ranking.standard(),
        "counter_bluff": Ranking.from_categories(COUNTER_BLUFF),
    }

    rates = {}
    for n, hs in hands.items():
        runs = {}
        if treys is not None:
            evaluator = treys.Evaluator()
            tcard = [treys.Card.new(card_str(i)) for i in range(52)]
            pairs = [([tcard[c] for c in h[:2]], [tcard[c] for c in h[2:]]) for h in hs]
            runs["treys"] = loop2(evaluator.evaluate, pairs)
        for name, ranking in rankings.items():
            runs[name, "evaluate"] = loop(ranking.evaluate, hs)
            runs[name, "evaluate_value"] = loop(ranking.evaluate_value, hs)
        rates[n] = best_rates(runs, len(hs), args.repeat)

    rows = []
    for name in rankings:
        for n in hands:
            rate = rates[n][name, "evaluate"]
            t = rates[n].get("treys")
            rows.append({
                "ranking": name,
                "cards": n,
                "cardlang_evaluate_per_s": round(rate),
                "cardlang_evaluate_value_per_s": round(rates[n][name, "evaluate_value"]),
                "treys_per_s": None if t is None else round(t),
                "ratio": None if t is None else round(rate / t, 2),
            })

    report = {
        "hands": args.hands,
        "seed": args.seed,
        "repeat": args.repeat,
        "python": platform.python_version(),
        "treys": None if treys is None else getattr(treys, "__version__", "installed"),
        "build_seconds": {k: round(wall, 4) for k, (wall, _) in build.items()},
        "build_cpu_seconds": {k: round(cpu, 4) for k, (_, cpu) in build.items()},
        "load_average": _load_average(),
        "results": rows,
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return 0

    print(f"cardlang.runtime.poker vs treys: {args.hands} seeded random hands (seed {args.seed}), "
          f"best of {args.repeat}, Python {report['python']}")
    print(f"{'ranking':<14}{'cards':<12}{'evaluate/s':>12}{'evaluate_value/s':>18}"
          f"{'treys/s':>12}{'ratio':>8}")
    for r in rows:
        t = "-" if r["treys_per_s"] is None else f"{r['treys_per_s']:,}"
        ratio = "-" if r["ratio"] is None else f"{r['ratio']:.2f}x"
        label = f"best 5 of {r['cards']}" if r["cards"] > 5 else "5"
        print(f"{r['ranking']:<14}{label:<12}{r['cardlang_evaluate_per_s']:>12,}"
              f"{r['cardlang_evaluate_value_per_s']:>18,}{t:>12}{ratio:>8}")
    print("ratio = cardlang evaluate / treys Evaluator.evaluate (treys has only the standard ranking)")
    for k, (wall, cpu) in build.items():
        print(f"build {k} ranking: {wall * 1000:.0f} ms ({cpu * 1000:.0f} ms CPU)")
    if report["load_average"] is not None:
        print(f"machine load average (1 min) at the end: {report['load_average']:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
