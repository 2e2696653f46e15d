"""`simulate` against the in-engine playouts it is made of (issue 12's 0.9), measured finely
interleaved: in one process, `--rounds` turns of a few games each way (in-engine `seat_playout` on
quiet states, `simulate` with its defaults, `simulate` without coverage), the best rate of each
kept. Two-second runs of each path in turn (`bench_playouts.py`) let a ratio of two such rates move
by 20% between runs of the same code; short turns alternated many times see the same machine.

    python benchmarks/bench_simulate_ratio.py [--game games/ascenseur.cards] [--players 4]
                                              [--games 150] [--rounds 15]
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import cardlang  # noqa: E402
from cardlang.play.simulate import simulate  # noqa: E402
from cardlang.runtime.playout import quiet, seat_playout  # noqa: E402


def in_engine(game, games: int, first: int) -> float:
    """Decisions per CPU second of `games` random games played inside the runtime."""
    decisions, t = 0, time.process_time()
    for i in range(first, first + games):
        st = quiet(game.new_initial_state(seed=i, log=False))
        decisions += seat_playout(st, [random.Random(i * 1009 + s) for s in range(game.players)])
    return decisions / (time.process_time() - t)


def simulated(game, games: int, first: int, coverage: bool) -> float:
    """Decisions per CPU second of an in-process `simulate` of `games` games."""
    gc.collect()
    t = time.process_time()
    stats = simulate(game, games, seed=first, coverage=coverage)
    return stats["mean_decisions"] * stats["games"] / (time.process_time() - t)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="games/ascenseur.cards", help="the rule file")
    ap.add_argument("--players", type=int, default=4, help="its player count")
    ap.add_argument("--games", type=int, default=150, help="games a turn")
    ap.add_argument("--rounds", type=int, default=15, help="turns of each path")
    args = ap.parse_args(argv)
    game = cardlang.load(str(ROOT / args.game), players=args.players)
    in_engine(game, 20, 0), simulated(game, 20, 0, True), simulated(game, 20, 0, False)  # (ops compile)
    best = {"in-engine": 0.0, "simulate": 0.0, "simulate, no coverage": 0.0}
    for k in range(args.rounds):
        first = 1000 * (k + 1)
        best["in-engine"] = max(best["in-engine"], in_engine(game, args.games, first))
        best["simulate"] = max(best["simulate"], simulated(game, args.games, first, True))
        best["simulate, no coverage"] = max(best["simulate, no coverage"], simulated(game, args.games, first, False))
    for name, rate in best.items():
        print(f"{name:22} {rate:>10,.0f} decisions per CPU second")
    print(f"simulate / in-engine   {best['simulate'] / best['in-engine']:.3f}")
    print(f"no coverage / in-engine {best['simulate, no coverage'] / best['in-engine']:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
