"""Benchmark the best arrangement of ten cards into melds: the runtime (`runtime/melds.py`) and the
language, where the same deadwood is written with bit arithmetic over numbered subsets
(`benchmarks/melds/deadwood_bits.cards`) or with the `melds` declaration
(`benchmarks/melds/deadwood_builtin.cards`).

Each game deals `--hands` random hands of ten cards and announces the least deadwood of each; a
third game (`deal_only.cards`) deals the same hands without arranging them, and its time is
taken off the others, so a figure is the cost of one arrangement. Both files must
announce the same deadwood for every hand (checked). CPU time, the best of `--repeat` runs.

    python benchmarks/bench_melds.py [--hands 300] [--repeat 3] [--engine compiled reference] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import cardlang  # noqa: E402

BITS = str(ROOT / "benchmarks" / "melds" / "deadwood_bits.cards")
BUILTIN = str(ROOT / "benchmarks" / "melds" / "deadwood_builtin.cards")
BASELINE = str(ROOT / "benchmarks" / "melds" / "deal_only.cards")
MORE = 10  # the declaration is timed over ten times as many hands as the bit arithmetic


def _timed(path: str, engine: str, hands: int, repeat: int, **options) -> tuple:
    """(best CPU seconds of one seeded game, its deadwood lines, of the first run). Each run deals
    other hands (its own seed; the same seeds for every file), so that nothing a run arranges
    was arranged before: the figures are for new hands."""
    game = cardlang.load(path, 1, options={"deals": hands, **options}, engine=engine)
    best, first = None, None
    for run in range(repeat):
        t = time.process_time()
        state = game.new_initial_state(seed=5 + run)
        dt = time.process_time() - t
        best = dt if best is None else min(best, dt)
        if first is None:
            first = [line for line in state.transcript() if line.startswith("deadwood")]
    return best, first


def language(engine: str, hands: int, repeat: int) -> dict:
    """µs per arrangement in the language, both ways, on one engine (None where it cannot run)."""
    base, _ = _timed(BASELINE, engine, hands, repeat)
    bits, bit_lines = _timed(BITS, engine, hands, repeat)
    try:
        builtin, lines = _timed(BUILTIN, engine, hands, repeat)
    except Exception as e:  # an engine that does not have the functions yet
        return {"bits_us": (bits - base) / hands * 1e6, "builtin_us": None, "error": str(e).splitlines()[0]}
    if lines != bit_lines:
        raise SystemExit(f"{engine}: the two formulations disagree")
    # the declaration's few µs drown in the deals' noise over a few hundred hands: it is timed
    # again over `MORE` times as many (new) hands, against a baseline of as many, in turns
    more = hands * MORE
    base_many = builtin_many = None
    for _ in range(repeat):
        b, _ = _timed(BASELINE, engine, more, 1)
        m, _ = _timed(BUILTIN, engine, more, 1)
        base_many = b if base_many is None else min(base_many, b)
        builtin_many = m if builtin_many is None else min(builtin_many, m)
    out = {"bits_us": (bits - base) / hands * 1e6, "builtin_us": max(builtin_many - base_many, 0) / more * 1e6}
    out["ratio"] = out["bits_us"] / out["builtin_us"] if out["builtin_us"] else None
    return out


def runtime(hands: int, repeat: int) -> dict:
    """µs per `MeldRule.deadwood` of random ten-card hands: new hands, and hands seen before."""
    game = cardlang.load(BUILTIN, 1, engine="reference")
    rule = game.program.layout.melds
    rng = random.Random(1)
    deals = [rng.sample(range(52), 10) for _ in range(hands)]
    for h in deals:  # the per-suit tables fill once per game
        rule.deadwood(h)
    fresh = seen = None
    for _ in range(repeat):
        rule._memo.clear()
        t = time.process_time()
        for h in deals:
            rule.deadwood(h)
        fresh = min(fresh or 1e9, time.process_time() - t)
        t = time.process_time()
        for h in deals:
            rule.deadwood(h)
        seen = min(seen or 1e9, time.process_time() - t)
    return {"new_hand_us": fresh / hands * 1e6, "seen_hand_us": seen / hands * 1e6}


def main() -> None:
    """Runs the benchmark and prints a table (or JSON)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=300)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--engine", nargs="+", default=["compiled", "reference"])
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    out = {"runtime": runtime(max(args.hands, 20000), args.repeat)}
    for engine in args.engine:
        out[engine] = language(engine, args.hands, args.repeat)
    if args.json:
        print(json.dumps(out, indent=2))
        return
    r = out["runtime"]
    print(f"runtime MeldRule.deadwood: {r['new_hand_us']:.1f} µs a new hand, {r['seen_hand_us']:.1f} µs a hand seen before")
    for engine in args.engine:
        e = out[engine]
        builtin = "n/a (" + e["error"] + ")" if e.get("error") else f"{e['builtin_us']:.1f} µs"
        ratio = f", {e['ratio']:.0f}x faster" if e.get("ratio") else ""
        print(f"{engine}: bit arithmetic {e['bits_us']:.0f} µs an arrangement; melds declaration {builtin}{ratio}")


if __name__ == "__main__":
    main()
