"""How much bots gain from determinizations that fit past play (issue 13).

    python benchmarks/bench_consistency.py [--games N] [--budget B] [--players P]

Plays `examples/follow_suit.cards` (follow suit, the highest card of the suit led wins, a point a
trick) with `ismcts:B` in some seats and the same bot with consistent determinization switched off
(`consistent = False`: the hidden cards dealt into their places at random, as every bot did before
views) in the others, seats rotating from game to game so both sit everywhere equally often.
Prints each side's mean points per game and win share, the share of determinizations that fitted
the past, and CPU time per decision.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import cardlang  # noqa: E402
from cardlang.play.bots import ISMCTSBot, decide  # noqa: E402
from cardlang.runtime import view as view_module  # noqa: E402


class BlindISMCTS(ISMCTSBot):
    """ISMCTS whose copies ignore how the others played (every bot's determinization before views)."""

    consistent = False


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=60)
    ap.add_argument("--budget", type=int, default=100)
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    game = cardlang.load(os.path.join(ROOT, "examples", "follow_suit.cards"), players=args.players)
    n = args.players
    points = {"consistent": 0.0, "blind": 0.0}
    wins = {"consistent": 0.0, "blind": 0.0}
    seats = {"consistent": 0, "blind": 0}
    times = {"consistent": [0.0, 0], "blind": [0.0, 0]}
    fitted = [0, 0]
    margins = []  # per game: mean points of the consistent seats minus those of the blind seats
    real_sample = view_module.SeatView.sample

    def counting_sample(self, rng, consistent=True, history=False):
        world, fits = real_sample(self, rng, consistent, history)
        if consistent and self._past is not None:
            fitted[0] += fits
            fitted[1] += 1
        return world, fits

    view_module.SeatView.sample = counting_sample
    for g in range(args.games):
        seed = args.seed + g
        sides = ["consistent" if (s + g) % 2 == 0 else "blind" for s in range(n)]
        bots = [(ISMCTSBot if side == "consistent" else BlindISMCTS)(seed=seed * 1009 + s, budget=args.budget)
                for s, side in enumerate(sides)]
        state = game.new_initial_state(seed=seed, log=False)
        while not state.is_terminal():
            seat = state.current_player
            start = time.process_time()
            a = decide(bots[seat], state)
            t = times[sides[seat]]
            t[0] += time.process_time() - start
            t[1] += 1
            state.apply(a)
        scores = state.scores()
        winners = state.winners()
        mine = [scores[s] for s in range(n) if sides[s] == "consistent"]
        theirs = [scores[s] for s in range(n) if sides[s] == "blind"]
        margins.append(sum(mine) / len(mine) - sum(theirs) / len(theirs))
        for s, side in enumerate(sides):
            points[side] += scores[s]
            seats[side] += 1
            if s in winners:
                wins[side] += 1 / len(winners)
    print(f"{args.games} games of {game.title}, {n} players, ismcts:{args.budget} on both sides")
    for side in ("consistent", "blind"):
        k = seats[side]
        print(f"  {side:10s}: {points[side] / k:.2f} points per seat-game, "
              f"{wins[side] / k:.3f} wins per seat-game ({k} seat-games), "
              f"{times[side][0] / max(1, times[side][1]) * 1000:.1f} ms per decision")
    mean = sum(margins) / len(margins)
    sd = (sum((m - mean) ** 2 for m in margins) / max(1, len(margins) - 1)) ** 0.5
    half = 1.96 * sd / len(margins) ** 0.5
    print(f"  consistent minus blind, points per seat and game: {mean:+.2f} "
          f"(95% CI {mean - half:+.2f} to {mean + half:+.2f})")
    if fitted[1]:
        print(f"  determinizations that fitted the round's past: {fitted[0]}/{fitted[1]} "
              f"({fitted[0] / fitted[1]:.1%})")


if __name__ == "__main__":
    main()
