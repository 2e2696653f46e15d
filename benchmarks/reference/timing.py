"""The command line both references share: play random games for some seconds, print the rates."""

import argparse
import random
import time


def main(play_game, description: str, players: int) -> None:
    """Runs `play_game(players, rng) -> (winners, decisions, deals)` for `--seconds` and prints rates."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--players", type=int, default=players)
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    games = decisions = deals = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < args.seconds:
        _, d, k = play_game(args.players, rng)
        games += 1
        decisions += d
        deals += k
    dt = time.perf_counter() - t0
    print(f"{games / dt:,.0f} games/s  {decisions / dt:,.0f} decisions/s  {deals / dt:,.0f} deals/s")
