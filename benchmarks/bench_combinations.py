"""Benchmark a climbing game's choice of a play (issue 28, item 2): the legal sets of one to ten
cards of a ten-card hand that `beats(cs, trick)` lets through (`examples/combinations_climb.cards`:
singles, pairs, triples, runs of five or more, bombs), worked out by each engine at a lead (the
table empty: every combination) and at a follow (a single on the table), with `repend` (the choice
run again); and `ClimbRule.beats` alone over the 1,023 sets of the hand. CPU time
(`time.process_time`), the best of `--repeat` runs.

    python benchmarks/bench_combinations.py [--repeat 5] [--calls 20] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import cardlang  # noqa: E402
from bench_card_sets import _best  # noqa: E402
from cardlang.runtime import card_sets  # noqa: E402

GAME = str(ROOT / "examples" / "combinations_climb.cards")


def engine_figures(repeat: int, calls: int) -> dict:
    """ms a legal-action computation of the play, by engine, at a lead and at a follow."""
    out = {}
    for engine in ("compiled", "reference"):
        st = cardlang.load(GAME, players=3, engine=engine).new_initial_state(seed=3)
        program = st.game.program
        figures = {}
        for moment in ("lead", "follow"):
            if moment == "follow":
                st.apply(st.legal_actions()[0])  # the leader lays his first single
            legal = len(st.legal_action_ids())

            def run():
                for _ in range(calls):
                    program.repend(st)
            figures[moment] = {"ms_per_decision": _best(run, repeat) / calls * 1e3, "legal": legal}
        out[engine] = figures
    return out


def rule_figures(repeat: int, calls: int) -> dict:
    """µs `beats` takes on a set, over every set of 1 to 10 cards of one hand (card ids 0 to 9 of the
    standard deck: four 2s, four 3s, two 4s), against an empty table."""
    rule = cardlang.load(GAME, players=3).new_initial_state(seed=3).game.program.layout.combos
    sets = [cs for _, cs in card_sets.sets(tuple(range(10)), 1, 10)]

    def run():
        for _ in range(calls):
            for cs in sets:
                rule.beats(cs, ())
    return {"us_per_set": _best(run, repeat) / calls / len(sets) * 1e6, "sets": len(sets)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--calls", type=int, default=20)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    figures = {"engines": engine_figures(args.repeat, args.calls), "rule": rule_figures(args.repeat, args.calls)}
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    for engine, f in figures["engines"].items():
        for moment, g in f.items():
            print(f"{engine:9} {moment:6} {g['ms_per_decision']:7.2f} ms a decision ({g['legal']} legal actions)")
    r = figures["rule"]
    print(f"beats     {r['us_per_set']:7.2f} µs a set ({r['sets']} sets of 1 to 10 cards)")


if __name__ == "__main__":
    main()
