"""Benchmark the OpenSpiel adapter against OpenSpiel's native games (issue 31 items 3 and 5).

For each pair (a rule file of examples/, OpenSpiel's own game of the same rules): Kuhn poker
(`kuhn_poker`) and Leduc poker (`leduc_poker`), in one run:

- `states`: the nodes of the whole tree (a full walk: decisions, chance nodes and ends), ours and
  native: the same when chance deals each card when it is dealt (a stock shuffled lazily);
- `cfr ms`: CPU ms per iteration of pyspiel's C++ `CFRSolver` over OpenSpiel's cached tree of
  the rule file (`pyspiel.convert_to_cached_tree`: the tree is made on the first iteration, which is
  not timed) and over the native game, and their ratio;
- `step µs`: CPU µs per step of random games (a decision: `legal_actions`, the information-state
  tensor of the seat to play, `apply_action`; a chance node: `chance_outcomes`, `apply_action`),
  ours and native, and their ratio. `fresh`: every state made anew (`MEMO = 0`: each step replays
  its part of the rules) but the game's start, which a game keeps per deal (`START_MEMO`: the rules'
  start is played once for each set of chance outcomes met before the first decision); `warm`: the same games again, as an agent or an algorithm that comes
  back to positions finds them (a state remembers the states its actions lead to).

CPU time (`time.process_time`); each figure the median of `--repeat` runs, each ratio the median
of the runs' own ratios (the load moves between runs). To measure another checkout's adapter, put
it first on PYTHONPATH (this script does not add its own checkout to sys.path):

    PYTHONPATH=. python benchmarks/bench_openspiel.py [--games 500] [--repeat 3] [--iterations 20]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from pathlib import Path

import pyspiel

from cardlang import openspiel

ROOT = Path(__file__).resolve().parent.parent
PAIRS = [("examples/kuhn_poker.cards", "kuhn_poker"), ("examples/leduc_poker.cards", "leduc_poker")]


def tree_size(game) -> int:
    """The nodes of the game's whole tree."""
    count, stack = 0, [game.new_initial_state()]
    while stack:
        s = stack.pop()
        count += 1
        if s.is_terminal():
            continue
        actions = [a for a, _ in s.chance_outcomes()] if s.is_chance_node() else s.legal_actions()
        stack.extend(s.child(a) for a in actions)
    return count


def cfr_ms(game, iterations: int) -> float:
    """CPU ms per iteration of C++ CFR (the first iteration, which may build a cached tree, untimed)."""
    solver = pyspiel.CFRSolver(game)
    solver.evaluate_and_update_policy()
    t = time.process_time()
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    return (time.process_time() - t) / iterations * 1e3


def play(game, games: int, seed: int) -> tuple:
    """(CPU seconds, steps) of `games` random games (see the module's docstring)."""
    r = random.Random(seed)
    steps, clock, spent = 0, time.process_time, 0.0
    for _ in range(games):
        t = clock()
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                s.apply_action(outcomes[int(r.random() * len(outcomes))][0])
            else:
                legal = s.legal_actions()
                s.information_state_tensor(s.current_player())
                s.apply_action(legal[int(r.random() * len(legal))])
            steps += 1
        spent += clock() - t
    return spent, steps


def step_us(game, games: int, memo: bool) -> float:
    """CPU µs per step: fresh (no state remembered) or warm (the same games played once before)."""
    if hasattr(openspiel, "forget_states"):
        openspiel.forget_states()
    kept = getattr(openspiel, "MEMO", None)
    if kept is not None and not memo:
        openspiel.MEMO = 0
    try:
        if memo:
            play(game, games, 1)
        spent, steps = play(game, games, 1)
    finally:
        if kept is not None:
            openspiel.MEMO = kept
    return spent / steps * 1e6


def bench(relative: str, native_name: str, args) -> dict:
    ours, native = openspiel.load_game(str(ROOT / relative)), pyspiel.load_game(native_name)
    row = {"game": os.path.basename(relative), "states": tree_size(ours), "native states": tree_size(native)}
    runs = []
    for _ in range(args.repeat):
        run = {"cfr ms": cfr_ms(pyspiel.convert_to_cached_tree(ours), args.iterations),
               "native cfr ms": cfr_ms(native, args.iterations)}
        run["native step µs"] = step_us(native, args.games, False)
        run["fresh step µs"] = step_us(ours, args.games, False)
        run["warm step µs"] = step_us(ours, args.games, True)
        run["cfr ×"] = run["cfr ms"] / run["native cfr ms"]
        run["fresh ×"] = run["fresh step µs"] / run["native step µs"]
        run["warm ×"] = run["warm step µs"] / run["native step µs"]
        runs.append(run)
    row.update({k: statistics.median(r[k] for r in runs) for k in runs[0]})
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--iterations", type=int, default=20)
    args = parser.parse_args()
    print(f"cardlang from {os.path.dirname(openspiel.__file__)}; load average {os.getloadavg()[0]:.1f}")
    keys = ["states", "native states", "cfr ms", "native cfr ms", "cfr ×", "fresh step µs", "warm step µs",
            "native step µs", "fresh ×", "warm ×"]
    print(f"{'game':<18}" + "".join(f"{k:>15}" for k in keys))
    for relative, native_name in PAIRS:
        row = bench(relative, native_name, args)
        print(f"{row['game']:<18}" + "".join(f"{row[k]:>15.2f}" if isinstance(row[k], float) else f"{row[k]:>15}"
                                              for k in keys))
    print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
