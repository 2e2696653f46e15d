"""Random agents over every game of games/ and examples/ with PettingZoo's AEC API.

Each seat picks uniformly among its legal actions (the action mask of its observation). Prints,
per game, the games played, their mean length and each seat's mean return.

    python examples/research/random_agents.py [--games 5] [--seed 0] [FILE ...]
"""

from __future__ import annotations

import argparse
import glob
import os

import numpy as np

from cardlang.pettingzoo import env

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def play(path: str, games: int, seed: int) -> tuple:
    """(mean actions per game, each seat's mean return) over `games` random games of `path`."""
    e = env(path)
    rng = np.random.default_rng(seed)
    steps, totals = 0, {a: 0.0 for a in e.possible_agents}
    for g in range(games):
        e.reset(seed=seed + g)
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, info = e.last()
            totals[agent] += reward
            if terminated or truncated:
                e.step(None)
                continue
            if info.get("game_over"):  # a game nobody decides: this step (its action unread) ends it
                e.step(0)
                continue
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
    return steps / games, [totals[a] / games for a in e.possible_agents]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*")
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    files = args.files or sorted(glob.glob(os.path.join(ROOT, "games", "*.cards"))
                                 + glob.glob(os.path.join(ROOT, "examples", "*.cards")))
    for path in files:
        length, returns = play(path, args.games, args.seed)
        shown = " ".join(f"{r:+.2f}" for r in returns)
        print(f"{os.path.basename(path):<36} {args.games} games, {length:6.1f} actions each, mean returns {shown}")


if __name__ == "__main__":
    main()
