"""`simulate` against the in-engine playouts it is made of (issue 12's 0.9), measured finely
interleaved: in one process, `--rounds` turns of a few games each way (in-engine `seat_playout` on
quiet states, `simulate` with its defaults, `simulate` without coverage). Two-second runs of each
path in turn (`bench_playouts.py`) let a ratio of two such rates move by 20% between runs of the
same code; short turns alternated many times see the same machine. Printed: the best rate of
each, and the median (with quartiles) of each turn's ratio to the in-engine turn just before it.

With `--instructions`, the figure that does not move with the machine's load: instructions
executed (valgrind, `instructions.py`) per game of each path, as the difference between runs of
`--games` and twice as many games in fresh processes (start-up, loading and compiling cancel).

    python benchmarks/bench_simulate_ratio.py [--game games/ascenseur.cards] [--players 4]
                                              [--games 150] [--rounds 15] [--instructions]
"""

from __future__ import annotations

import argparse
import gc
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


PATHS = {"in-engine": lambda game, games, first: in_engine(game, games, first),
         "simulate": lambda game, games, first: simulated(game, games, first, True),
         "simulate, no coverage": lambda game, games, first: simulated(game, games, first, False)}


def _quartiles(xs: list) -> tuple:
    q1, q2, q3 = statistics.quantiles(xs, n=4)
    return q1, statistics.median(xs), q3


def by_time(game, games: int, rounds: int) -> None:
    """The rates and ratios by CPU time, the paths alternated turn by turn."""
    for play in PATHS.values():  # (ops compile)
        play(game, 20, 0)
    rates: dict = {name: [] for name in PATHS}
    for k in range(rounds):
        for name, play in PATHS.items():
            rates[name].append(play(game, games, 1000 * (k + 1)))
    for name, rs in rates.items():
        print(f"{name:22} {max(rs):>10,.0f} decisions per CPU second (best of {rounds} turns)")
    base = rates["in-engine"]
    for name in ("simulate", "simulate, no coverage"):
        best = max(rates[name]) / max(base)
        q1, median, q3 = _quartiles([r / b for r, b in zip(rates[name], base)])
        print(f"{name + ' / in-engine':32} best {best:.3f}; turn by turn median {median:.3f} (quartiles {q1:.3f}-{q3:.3f})")


def by_instructions(args) -> None:
    """Instructions a game of each path (valgrind), and their ratios."""
    if not instructions.available():
        raise SystemExit("--instructions needs valgrind on the PATH (apt install valgrind)")
    per_game = {}
    for name in PATHS:
        def at(n, name=name):
            return [__file__, "--game", args.game, "--players", str(args.players), "--child", name, str(n)]
        per_game[name] = instructions.per_unit(at, args.games, 2 * args.games)
        print(f"{name:22} {per_game[name] / 1e6:>8.2f} M instructions a game")
    for name in ("simulate", "simulate, no coverage"):
        print(f"{name + ' / in-engine':32} {per_game['in-engine'] / per_game[name]:.3f} (instructions)")


def child(game, name: str, games: int) -> None:
    """What `by_instructions` counts: the path's 20 games untimed (ops compile), then `games`."""
    PATHS[name](game, 20, 0)
    PATHS[name](game, games, 1000)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="games/ascenseur.cards", help="the rule file")
    ap.add_argument("--players", type=int, default=4, help="its player count")
    ap.add_argument("--games", type=int, default=150, help="games a turn (with --instructions: the smaller run)")
    ap.add_argument("--rounds", type=int, default=15, help="turns of each path")
    ap.add_argument("--instructions", action="store_true", help="count instructions with valgrind instead of timing")
    ap.add_argument("--child", nargs=2, metavar=("PATH", "GAMES"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.instructions:
        by_instructions(args)
        return 0
    game = cardlang.load(str(ROOT / args.game), players=args.players)
    if args.child:
        child(game, args.child[0], int(args.child[1]))
        return 0
    by_time(game, args.games, args.rounds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
