"""CFR on Kuhn poker written as a `.cards` file, printing the exploitability by iteration.

OpenSpiel plays the rule file through `cardlang.openspiel` (chance nodes for the deal, information
states from each seat's view); `--native` runs the same on OpenSpiel's own kuhn_poker beside it.
`--tree` lets OpenSpiel cache the game tree first (`pyspiel.convert_to_cached_tree`), which makes
each iteration as fast as on the native game.

    python examples/research/cfr_kuhn.py [--iterations 1000] [--every 100] [--native] [--tree]
"""

from __future__ import annotations

import argparse
import os

import pyspiel
from open_spiel.python.algorithms import cfr, exploitability

from cardlang.openspiel import load_game

KUHN = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "kuhn_poker.cards")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--every", type=int, default=100)
    parser.add_argument("--native", action="store_true", help="also OpenSpiel's own kuhn_poker")
    parser.add_argument("--tree", action="store_true", help="cache the game tree in OpenSpiel first")
    args = parser.parse_args()
    game = load_game(KUHN)
    games = [("cards", pyspiel.convert_to_cached_tree(game) if args.tree else game)]
    if args.native:
        games.append(("native", pyspiel.load_game("kuhn_poker")))
    solvers = [cfr.CFRSolver(g) for _, g in games]
    print("iteration  " + "  ".join(f"{name:>12}" for name, _ in games))
    for i in range(1, args.iterations + 1):
        for s in solvers:
            s.evaluate_and_update_policy()
        if i % args.every == 0 or i == args.iterations:
            values = [exploitability.exploitability(g, s.average_policy()) for (_, g), s in zip(games, solvers)]
            print(f"{i:>9}  " + "  ".join(f"{v:12.6f}" for v in values))


if __name__ == "__main__":
    main()
