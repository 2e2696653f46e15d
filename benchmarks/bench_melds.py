"""Benchmark the best arrangement of ten cards into melds: the runtime (`runtime/melds.py`) and the
language, where the same deadwood is written with bit arithmetic over numbered subsets
(`benchmarks/melds/deadwood_bits.cards`) or with the `melds` declaration
(`benchmarks/melds/deadwood_builtin.cards`).

Each game deals `--hands` random hands of ten cards and announces the least deadwood of each; a
third game (`deal_only.cards`) deals the same hands without arranging them, and its time is
taken off the others, so a figure is the cost of one arrangement. Both files must
announce the same deadwood for every hand (checked). CPU time. An arrangement by the declaration
costs a few % of a deal, and a run's time moves by more than that on a shared machine, so the
three files are timed in sets of runs: in a set, each plays the same new hands (a seed a set) one
right after the other, in an order that turns from set to set; a figure is the median over ten
times `--repeat` sets of a file's run less the baseline's, with its quartiles. The garbage
collector is off while a run is timed, as `timeit` has it: a collection walks the whole heap of
the process (the parser, the tables: milliseconds), lands in whichever run crosses its threshold,
and is the deals' garbage, the same in the three files.

With `--instructions`, the figure that does not move with the machine's load: instructions
executed (valgrind, `instructions.py`) an arrangement, each file run in fresh processes at
`--hands` and twice as many hands, the baseline's instructions a hand taken off.

    python benchmarks/bench_melds.py [--hands 300] [--repeat 3] [--engine compiled reference] [--json]
    python benchmarks/bench_melds.py --instructions [--hands 300] [--engine compiled]
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import cardlang  # noqa: E402
import instructions  # noqa: E402

BITS = str(ROOT / "benchmarks" / "melds" / "deadwood_bits.cards")
BUILTIN = str(ROOT / "benchmarks" / "melds" / "deadwood_builtin.cards")
BASELINE = str(ROOT / "benchmarks" / "melds" / "deal_only.cards")
SETS = 10  # sets of runs a `--repeat`


def _game(path: str, engine: str, hands: int):
    """The game of `path` dealing `hands` hands, played once untimed: ops are compiled the first
    time play reaches them, and that is not what is measured."""
    game = cardlang.load(path, 1, options={"deals": hands}, engine=engine)
    game.new_initial_state(seed=1)
    return game


def _run(game, seed: int) -> float:
    """CPU seconds of one seeded game (the garbage of the runs before collected first, and no
    collection while it runs: see the module's docstring)."""
    gc.collect()
    gc.disable()
    try:
        t = time.process_time()
        game.new_initial_state(seed=seed)
        return time.process_time() - t
    finally:
        gc.enable()


def _lines(game, seed: int) -> list:
    state = game.new_initial_state(seed=seed)
    return [line for line in state.transcript() if line.startswith("deadwood")]


def language(engine: str, hands: int, repeat: int) -> dict:
    """µs per arrangement in the language, both ways, on one engine (None where it cannot run)."""
    base, bits = _game(BASELINE, engine, hands), _game(BITS, engine, hands)
    try:
        builtin = _game(BUILTIN, engine, hands)
    except Exception as e:  # an engine that does not have the functions yet
        builtin, error = None, str(e).splitlines()[0]
    if builtin is not None and _lines(builtin, 5) != _lines(bits, 5):
        raise SystemExit(f"{engine}: the two formulations disagree")
    # an arrangement by the declaration costs a few % of a deal, and a run's time moves by more
    # than that on a shared machine: each file is timed in a set of runs on the same new hands (a
    # seed a set), one right after the other, their order turning; a figure is the median over
    # the sets of a file's run less the baseline's (the quartiles give the spread)
    games = [base, bits] + ([builtin] if builtin is not None else [])
    diffs: list = [[] for _ in games]
    for k in range(SETS * repeat):
        turn = k % len(games)
        times = {i: _run(games[i], 1000 + k) for i in [*range(turn, len(games)), *range(turn)]}
        for i in range(len(games)):
            diffs[i].append((times[i] - times[0]) / hands * 1e6)
    out = {"bits_us": statistics.median(diffs[1]), "bits_quartiles": _quartiles(diffs[1]), "sets": SETS * repeat}
    if builtin is None:
        return {**out, "builtin_us": None, "error": error}
    out.update(builtin_us=statistics.median(diffs[2]), builtin_quartiles=_quartiles(diffs[2]))
    out["ratio"] = out["bits_us"] / out["builtin_us"] if out["builtin_us"] > 0 else None
    return out


def _quartiles(xs: list) -> tuple:
    q1, _, q3 = statistics.quantiles(xs, n=4)
    return q1, q3


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


def by_instructions(engine: str, hands: int) -> dict:
    """Instructions an arrangement in the language, both ways (valgrind; see the module)."""
    if not instructions.available():
        raise SystemExit("--instructions needs valgrind on the PATH (apt install valgrind)")

    def per_hand(path):
        return instructions.per_unit(lambda n: [__file__, "--engine", engine, "--child", path, str(n)], hands, 2 * hands)
    base = per_hand(BASELINE)
    bits, builtin = per_hand(BITS) - base, per_hand(BUILTIN) - base
    return {"bits": bits, "builtin": builtin, "ratio": bits / builtin, "deal": base}


def child(path: str, engine: str, hands: int) -> None:
    """What `by_instructions` counts: one seeded game of `path` dealing `hands` hands, no
    collection while it runs (as the timed runs)."""
    game = cardlang.load(path, 1, options={"deals": hands}, engine=engine)
    gc.collect()
    gc.disable()
    game.new_initial_state(seed=7)


def main() -> None:
    """Runs the benchmark and prints a table (or JSON)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=300)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--engine", nargs="+", default=["compiled", "reference"])
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--instructions", action="store_true", help="count instructions with valgrind instead of timing")
    ap.add_argument("--child", nargs=2, metavar=("FILE", "HANDS"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.child[0], args.engine[0], int(args.child[1]))
        return
    if args.instructions:
        for engine in args.engine:
            e = by_instructions(engine, args.hands)
            print(f"{engine}: a deal {e['deal']:,.0f} instructions; an arrangement: bit arithmetic "
                  f"{e['bits']:,.0f}, melds declaration {e['builtin']:,.0f}, {e['ratio']:.0f}x fewer")
        return
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
        builtin = ("n/a (" + e["error"] + ")" if e.get("error") else
                   f"{e['builtin_us']:.1f} µs (quartiles {e['builtin_quartiles'][0]:.1f}–{e['builtin_quartiles'][1]:.1f})")
        ratio = f", {e['ratio']:.0f}x faster" if e.get("ratio") else ""
        bits = f"{e['bits_us']:.0f} µs (quartiles {e['bits_quartiles'][0]:.0f}–{e['bits_quartiles'][1]:.0f})"
        print(f"{engine}, {e['sets']} sets of runs: bit arithmetic {bits} an arrangement; melds declaration {builtin}{ratio}")


if __name__ == "__main__":
    main()
