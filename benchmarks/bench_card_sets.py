"""Benchmark a choice of a set of cards (issue 28, item 1): the legal sets of one to four cards of
one rank in a hand of thirteen (`benchmarks/card_sets/lay_of_a_rank.cards`), worked out by each
engine at the first decision (`repend`: the choice run again), and the enumeration itself
(`runtime/card_sets.sets`, lazy: the sets are made one at a time and the filter tried on each)
against building every set first and then filtering (what an eager enumeration does), with the
same filter in plain Python. CPU time (`time.process_time`), the best of `--repeat` runs.

    python benchmarks/bench_card_sets.py [--repeat 5] [--calls 200] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from itertools import combinations
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import cardlang  # noqa: E402
from cardlang.runtime import card_sets  # noqa: E402

GAME = str(ROOT / "benchmarks" / "card_sets" / "lay_of_a_rank.cards")


def _best(f, repeat: int) -> float:
    out = []
    for _ in range(repeat):
        t = time.process_time()
        f()
        out.append(time.process_time() - t)
    return min(out)


def engine_figures(repeat: int, calls: int) -> dict:
    """µs a legal-action computation of the set choice, by engine, and how many sets are legal."""
    out = {}
    for engine in ("compiled", "reference"):
        st = cardlang.load(GAME, players=4, engine=engine).new_initial_state(seed=3)
        program = st.game.program
        legal = len(st.legal_action_ids())

        def run():
            for _ in range(calls):
                program.repend(st)
        out[engine] = {"us_per_decision": _best(run, repeat) / calls * 1e6, "legal": legal}
    return out


def enumeration_figures(repeat: int, calls: int) -> dict:
    """µs to keep the sets of one rank among the sets of 1 to 4 of 13 cards: lazily (the runtime's
    generator, a filter on each) and eagerly (every set built into a list, then filtered)."""
    ranks = (0, 0, 0, 1, 2, 3, 3, 4, 5, 6, 7, 8, 9)  # a hand of 13 cards: a triple and a pair
    cards = tuple(range(13))

    def same(cs):
        return len({ranks[c] for c in cs}) == 1

    def lazy():
        for _ in range(calls):
            [v for v, cs in card_sets.sets(cards, 1, 4) if same(cs)]

    def eager():
        for _ in range(calls):
            every = [(card_sets.value_of(p, 1), tuple(cards[i] for i in p))
                     for k in range(1, 5) for p in combinations(range(13), k)]
            [v for v, cs in every if same(cs)]
    a, b = _best(lazy, repeat), _best(eager, repeat)
    return {"lazy_us": a / calls * 1e6, "eager_us": b / calls * 1e6, "eager_over_lazy": b / a,
            "sets_tried": card_sets.width(1, 4) and sum(1 for _ in card_sets.sets(cards, 1, 4))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures = {"engines": engine_figures(args.repeat, args.calls),
               "enumeration": enumeration_figures(args.repeat, args.calls)}
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    for engine, f in figures["engines"].items():
        print(f"{engine:9} {f['us_per_decision']:9.1f} µs a decision ({f['legal']} legal sets)")
    e = figures["enumeration"]
    print(f"lazy      {e['lazy_us']:9.1f} µs  eager {e['eager_us']:9.1f} µs  "
          f"(x{e['eager_over_lazy']:.2f}; {e['sets_tried']} sets of 1 to 4 of 13 cards)")


if __name__ == "__main__":
    main()
