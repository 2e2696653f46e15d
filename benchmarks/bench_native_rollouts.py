"""Search bots on native rollouts (issue 29): playouts per CPU second, and strength at equal time.

    python benchmarks/bench_native_rollouts.py --part playouts
    python benchmarks/bench_native_rollouts.py --part ismcts --iterations 300
    python benchmarks/bench_native_rollouts.py --part strength --games 20 --seconds 0.1

- `playouts`: one-round random rollouts (a bot's horizon) from worlds determinized at random
  decisions: on the compiled engine (`random_playout`), natively with the world converted for each
  rollout (`native/resume.py`), and natively 16 rollouts a conversion (what the bots do).
- `ismcts`: decisions of `ismcts:N` at random decisions, today's compiled rollouts against native
  rollouts (16 a leaf with a world serving `--reuse` iterations, the bots' default 4; 16 a leaf and
  1 a leaf with a world an iteration): iterations and playouts per CPU second.
- `strength`: `ismcts` with native rollouts against `ismcts` with compiled rollouts, the same
  seconds per move, every seed played twice with the seats swapped (2 players): wins, ties, mean
  return, with Wilson 95% intervals of the win share (ties half); `--leaf`, `--reuse` the native side's.

The games are loaded with the native engine (`$CARDLANG_CACHE` keeps the compiled modules; the
first run compiles each game's rollout module). CPU time (`time.process_time`); the strength part's
budgets are wall-clock seconds, as a bot's `ismcts:0.1s` is.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

GAMES = [("games/ascenseur.cards", 4), ("examples/limit_holdem.cards", 2)]
STRENGTH_GAMES = [("games/ascenseur.cards", 2), ("examples/limit_holdem.cards", 2)]


def _load(path: str, players: int):
    import cardlang
    from cardlang.native.resume import rollouts_for

    game = cardlang.load(os.path.join(ROOT, path), players, engine="native")
    rollouts_for(game)  # (compiled or loaded from the cache: not timed)
    return game


def _decisions(game, count: int, seed: int = 1):
    """States at random decisions (two or more legal actions) of random games."""
    rng = random.Random(seed)
    out, s = [], 0
    while len(out) < count:
        st = game.new_initial_state(seed=s)
        s += 1
        for _ in range(rng.randrange(0, 12)):
            if st.terminal:
                break
            legal = st.legal_action_ids()
            st.apply(legal[rng.randrange(len(legal))])
        if not st.terminal and len(st.legal_action_ids()) > 1:
            out.append(st)
    return out


def _timed(f, seconds: float) -> float:
    """CPU seconds per call of f, called for at least `seconds`."""
    t0 = time.process_time()
    k = 0
    while time.process_time() - t0 < seconds:
        f()
        k += 1
    return (time.process_time() - t0) / k


def part_playouts(seconds: float) -> None:
    from cardlang.native.resume import convert, rollouts_for
    from cardlang.play.bots import _horizon
    from cardlang.runtime.playout import quiet, random_playout

    for path, players in GAMES:
        game = _load(path, players)
        native = rollouts_for(game)
        rng = random.Random(2)
        worlds = []
        for st in _decisions(game, 40):
            view = st.view(st.current_player)
            worlds.append((quiet(view.determinize(rng)), _horizon(view, 1)))

        def compiled():
            for det, stop in worlds:
                random_playout(det.clone(), rng, stop)

        def clones():
            for det, _ in worlds:
                det.clone()

        def one():
            for det, stop in worlds:
                native.mean(convert(native, det), det.rng, rng, stop, 1)

        def sixteen():
            for det, stop in worlds:
                native.mean(convert(native, det), det.rng, rng, stop, 16)

        def converts():
            for det, _ in worlds:
                convert(native, det)
        n = len(worlds)
        clone = _timed(clones, seconds) / n
        c = _timed(compiled, seconds) / n - clone
        o = _timed(one, seconds) / n
        s16 = _timed(sixteen, seconds) / (16 * n)
        conv = _timed(converts, seconds) / n
        print(f"{path} ({players}): one-round playouts per CPU second: compiled {1 / c:,.0f}; "
              f"native, a conversion each {1 / o:,.0f} ({c / o:.1f}x); native, 16 a conversion {1 / s16:,.0f} "
              f"({c / s16:.1f}x); conversion alone {conv * 1e6:.1f} us")


def part_ismcts(iterations: int, decisions: int, reuse) -> None:
    from cardlang.play.bots import ISMCTSBot, decide

    r = ISMCTSBot.REUSE if reuse is None else reuse
    for path, players in GAMES:
        game = _load(path, players)
        states = _decisions(game, decisions)
        for label, mode, leaf, serves in (("compiled rollouts", "python", 1, 1),
                                          (f"native, 16 a leaf, a world {r} iterations", "native", 16, r),
                                          ("native, 16 a leaf, a world 1 iteration", "native", 16, 1),
                                          ("native, 1 a leaf, a world 1 iteration", "native", 1, 1)):
            cpu, its, plays = 0.0, 0, 0
            for i, st in enumerate(states):
                bot = ISMCTSBot(seed=i, budget=iterations, rollouts=mode, leaf=leaf, reuse=serves)
                t0 = time.process_time()
                decide(bot, st)
                cpu += time.process_time() - t0
                its += iterations
                plays += bot.rollouts.native_count + bot.rollouts.python_count
            print(f"{path} ({players}) ismcts:{iterations}, {label}: {its / cpu:,.0f} iterations and "
                  f"{plays / cpu:,.0f} playouts per CPU second")


def _wilson(wins: float, n: int) -> tuple:
    if n == 0:
        return 0.0, 1.0
    z, p = 1.96, wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


def part_strength(games: int, seconds: float, leaf: int, only=None, first: int = 0, reuse=None) -> None:
    from cardlang.play.bots import ISMCTSBot, decide

    for path, players in STRENGTH_GAMES:
        if only and path != only:
            continue
        game = _load(path, players)
        wins = ties = losses = 0
        diff = 0.0
        played = 0
        t0 = time.perf_counter()
        for seed in range(first, first + games):
            for native_seat in (0, 1):
                st = game.new_initial_state(seed=seed, log=False)
                bots = {native_seat: ISMCTSBot(seed=seed * 7 + 1, budget=f"{seconds}s", rollouts="native", leaf=leaf,
                                                   reuse=reuse),
                        1 - native_seat: ISMCTSBot(seed=seed * 7 + 2, budget=f"{seconds}s", rollouts="python")}
                while not st.terminal:
                    st.apply(decide(bots[st.current_player], st))
                r = st.returns()
                played += 1
                diff += r[native_seat] - r[1 - native_seat]
                if r[native_seat] > r[1 - native_seat]:
                    wins += 1
                elif r[native_seat] < r[1 - native_seat]:
                    losses += 1
                else:
                    ties += 1
        lo, hi = _wilson(wins + ties / 2, played)
        print(f"{path} ({players}), {seconds}s a move, native leaf {leaf}, a world "
              f"{ISMCTSBot.REUSE if reuse is None else reuse} iterations: native wins {wins}, ties {ties}, "
              f"losses {losses} of {played}; share {(wins + ties / 2) / played:.3f} [{lo:.3f}, {hi:.3f}]; "
              f"mean return difference {diff / played:+.3f} ({time.perf_counter() - t0:.0f} s)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--part", choices=("playouts", "ismcts", "strength"), default="playouts")
    ap.add_argument("--seconds", type=float, default=None, help="timing per case (playouts), or per move (strength)")
    ap.add_argument("--iterations", type=int, default=300)
    ap.add_argument("--decisions", type=int, default=6)
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--leaf", type=int, default=16)
    ap.add_argument("--reuse", type=int, default=None, help="iterations a world serves (native; the bots' default)")
    ap.add_argument("--only", default=None, help="one file of the strength part")
    ap.add_argument("--first", type=int, default=0, help="the strength part's first seed")
    a = ap.parse_args()
    if a.part == "playouts":
        part_playouts(a.seconds or 2.0)
    elif a.part == "ismcts":
        part_ismcts(a.iterations, a.decisions, a.reuse)
    else:
        part_strength(a.games, a.seconds or 0.1, a.leaf, a.only, a.first, a.reuse)


if __name__ == "__main__":
    main()
