"""Benchmark pots and betting: the showdown of `runtime/pots.py` alone (side pots and splits of six
players), and whole hands of `examples/holdem.cards` (no-limit, unequal stacks) played by random
legal moves inside the runtime (`runtime/playout.random_playout` on quiet states) on each engine,
beside the same hands of OpenSpiel's universal_poker (C++, driven from Python) when it is installed,
and, for the speed of the rest, `examples/high_card_chips.cards` (a pot written with variables, one
decision a player) and `games/pioche_poker.cards` played the same way. CPU time, the best of
`--repeat` runs.

    python benchmarks/bench_pots.py [--hands 2000] [--repeat 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import cardlang  # noqa: E402
from cardlang.runtime import pots  # noqa: E402
from cardlang.runtime.playout import quiet, random_playout  # noqa: E402

HOLDEM = str(ROOT / "examples" / "holdem.cards")
OTHERS = {"high_card_chips_4p": (str(ROOT / "examples" / "high_card_chips.cards"), 4),
          "pioche_poker_3p": (str(ROOT / "games" / "pioche_poker.cards"), 3)}


def _best(repeat: int, run) -> float:
    best = None
    for _ in range(repeat):
        t = time.process_time()
        run()
        dt = time.process_time() - t
        best = dt if best is None else min(best, dt)
    return best


def showdown_us(repeat: int, count: int = 20_000) -> float:
    """µs for the side pots and shares of one six-player showdown (random contributions, ties)."""
    rng = random.Random(1)
    cases = []
    for _ in range(count):
        contrib = [rng.randrange(0, 200) for _ in range(6)]
        still_in = tuple(p for p in range(6) if rng.random() < 0.7) or (0,)
        cases.append((contrib, still_in, {p: rng.randrange(4) for p in still_in}))
    order = tuple(range(6))

    def run():
        for contrib, still_in, value in cases:
            pots.shares(pots.side_pots(contrib, still_in), value, order)
    return _best(repeat, run) / count * 1e6


def holdem(engine: str, players: int, hands: int, repeat: int, file: str = HOLDEM) -> dict:
    """Hands (games) a second and decisions a second of random hold'em (or another game) on one engine."""
    game = cardlang.load(file, players, engine=engine)
    decisions = [0]

    def run():
        rng, n = random.Random(3), 0
        for seed in range(hands):
            n += random_playout(quiet(game.new_initial_state(seed=seed, log=False)), rng)
        decisions[0] = n
    t = _best(repeat, run)
    return {"hands_per_s": hands / t, "decisions_per_s": decisions[0] / t}


def universal(players: int, hands: int, repeat: int):
    """The same for universal_poker (random legal actions, chance from its own outcomes), or None."""
    try:
        import pyspiel
    except ImportError:
        return None
    sys.path.insert(0, str(ROOT / "tests"))
    from test_holdem_openspiel import universal as load  # the same game, parameters and all

    game = load(players)
    decisions = [0]

    def run():
        rng, n = random.Random(3), 0
        for _ in range(hands):
            s = game.new_initial_state()
            while not s.is_terminal():
                legal = s.legal_actions()
                s.apply_action(legal[int(rng.random() * len(legal))])
                n += 0 if s.is_chance_node() else 1
        decisions[0] = n
    t = _best(repeat, run)
    del pyspiel
    return {"hands_per_s": hands / t}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    out = {"showdown_us": showdown_us(a.repeat)}
    for players in (2, 6):
        for engine in ("compiled", "reference"):
            out[f"holdem_{players}p_{engine}"] = holdem(engine, players, a.hands if engine == "compiled" else a.hands // 4,
                                                        a.repeat)
        out[f"universal_poker_{players}p"] = universal(players, a.hands, a.repeat)
    for key, (file, players) in OTHERS.items():
        out[key] = holdem("compiled", players, a.hands // 4, a.repeat, file)
    if a.json:
        print(json.dumps(out, indent=2))
        return
    print(f"side pots and shares of a six-player showdown: {out['showdown_us']:.1f} µs")
    for key, value in out.items():
        if isinstance(value, dict):
            extra = f", {value['decisions_per_s']:,.0f} decisions/s" if "decisions_per_s" in value else ""
            print(f"{key}: {value['hands_per_s']:,.0f} games/s{extra}")


if __name__ == "__main__":
    main()
