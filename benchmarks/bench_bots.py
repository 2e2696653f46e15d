"""Benchmarks for bots and simulation: playout speed with and without coverage, determinization,
and the time a bot takes per decision. CPU time (process_time), so a busy machine skews it less.

    python benchmarks/bench_bots.py            # every game
    python benchmarks/bench_bots.py --quick    # fewer repetitions
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import cardlang  # noqa: E402
from cardlang.play.bots import decide, make_bot  # noqa: E402
from cardlang.play.coverage import instrument  # noqa: E402

GAMES = [("games/coucou.cards", 6), ("games/ascenseur.cards", 4), ("games/ascenseur.cards", 5),
         ("games/counter_bluff.cards", 2)]


def playouts(game, seconds, coverage=None):
    """Random games per CPU second on `game` (on the counting twin, counting, with `coverage`)."""
    start = time.process_time()
    played = decisions = 0
    target = coverage.game if coverage is not None else game
    while time.process_time() - start < seconds:
        if coverage is not None:
            coverage.on = True
        rng = random.Random(played)
        state = target.new_initial_state(seed=played, log=False)
        while not state.is_terminal():
            legal = state.legal_action_ids()
            state.apply(legal[rng.randrange(len(legal))])
            decisions += 1
        played += 1
    elapsed = time.process_time() - start
    return played / elapsed, decisions / elapsed


def determinize_us(game, repeat):
    state = game.new_initial_state(seed=1, log=False)
    rng = random.Random(0)
    seat = state.current_player
    start = time.process_time()
    for _ in range(repeat):
        state.determinize(seat, rng)
    return (time.process_time() - start) / repeat * 1e6


def decision_times(game, bot_name, decisions):
    """Mean and longest CPU seconds per decision of `bot_name`, over the first decisions of games."""
    times = []
    seed = 0
    while len(times) < decisions:
        state = game.new_initial_state(seed=seed, log=False)
        rng = random.Random(seed)
        while not state.is_terminal() and len(times) < decisions:
            if len(state.legal_action_ids()) > 1:
                bot = make_bot(bot_name, seed=len(times))
                start = time.process_time()
                a = decide(bot, state)
                times.append(time.process_time() - start)
            else:
                a = state.legal_action_ids()[0]
            if rng.random() < 0.7:  # mostly random moves, so decisions come from every stage of a game
                legal = state.legal_action_ids()
                a = legal[rng.randrange(len(legal))]
            state.apply(a)
        seed += 1
    return sum(times) / len(times), max(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    seconds = 1.0 if args.quick else 3.0
    decisions = 10 if args.quick else 40
    for relative, players in GAMES:
        game = cardlang.load(os.path.join(ROOT, relative), players=players)
        plain = playouts(game, seconds)
        coverage = instrument(game)
        counted = playouts(game, seconds, coverage)
        print(f"{game.title}, {players} players")
        print(f"  random playouts: {plain[0]:8.1f} games/s, {plain[1]:8.0f} decisions/s (plain game)")
        print(f"  with coverage:   {counted[0]:8.1f} games/s, {counted[1]:8.0f} decisions/s "
              f"({(plain[1] / counted[1] - 1) * 100:+.1f}% time)")
        print(f"  determinize:     {determinize_us(game, 2000 if not args.quick else 500):8.1f} µs")
        for bot in ("greedy", "ismcts"):
            mean, longest = decision_times(game, bot, decisions)
            print(f"  {bot:<8} (default budget): {mean * 1000:7.1f} ms a decision on average, longest {longest * 1000:7.1f} ms")


if __name__ == "__main__":
    main()
