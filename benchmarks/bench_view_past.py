"""What a seat's view and its determinizations cost, and how often a world fits the past the view
holds, in games where players choose cards the others do not see (issue 26: the view's past draws
such a card again instead of replaying its place; worlds played again from the game's start where
no chance was met since its first decision, so that they fit what the deal made true). CPU time
(process_time).

    python benchmarks/bench_view_past.py                    # this checkout
    python benchmarks/bench_view_past.py --this /work/main  # another checkout, for a before/after
    python benchmarks/bench_view_past.py --chance-past off  # worlds from the start only before chance (on: the default)
    python benchmarks/bench_view_past.py --bot ismcts:30    # and a decision of that bot at the same states
    python benchmarks/bench_view_past.py --ismcts 30        # and an `ismcts:30` decision's CPU cost in the NO_CUT files

"the whole game's" counts the worlds that fit the whole past (played again from the start, or on
from the chance cut before the round: `runtime/cut.py`). The files of `NO_CUT` meet chance between
rounds with no chance cut (a leader drawn at random after each trick, hands kept across a shuffle of
the stock): their states are taken from the second round on, and "views:" says how many of them
hold the whole past with no chance met, from a cut, across chance from the start (with no cut), or
the round's past only.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAMES = [("examples/counting_show.cards", 3), ("games/counter_bluff.cards", 2), ("games/coucou.cards", 5),
         ("examples/follow_suit.cards", 4), ("tests/knowledge/laid_down.cards", 2),
         ("tests/knowledge/drawn_leader.cards", 3), ("tests/knowledge/laid_down_again.cards", 2)]
# files whose views meet chance with no cut, found by playing every file of games/, examples/,
# tests/check/valid/ and tests/knowledge/ (a `random` draw between rounds, hands kept across a shuffle)
NO_CUT = [("tests/knowledge/drawn_leader.cards", 3), ("tests/knowledge/kept_hands.cards", 2),
          ("games/counter_bluff.cards", 2), ("examples/colour_match.cards", 2)]
# files measured in their first round only (no chance since the deal: the search reads the round's
# lines as a whole at its end until a try's lines misfit, then step by step)
FIRST_ROUND = [("games/coucou.cards", 5)]


def states(game, count: int, late: bool = False, first: bool = False) -> list:
    """`count` states at random points of seeded random games, where someone decides (`late`: from
    the second round on, within 150 decisions; `first`: in the first round, within 12)."""
    out = []
    seed = 0
    while len(out) < count and seed < 50 * count:
        rng = random.Random(seed)
        state = game.new_initial_state(seed=seed)
        stop = rng.randrange(1, 150 if late else 12 if first else 40)
        for _ in range(stop):
            if state.is_terminal() or first and state.round > 1:
                break
            legal = state.legal_action_ids()
            state.apply(legal[rng.randrange(len(legal))])
        if not state.is_terminal() and (not late or state.round >= 2) and (not first or state.round == 1):
            out.append(state)
        seed += 1
    return out


def kinds(views: list) -> str:
    """How many views hold the whole past with no chance met, from a cut, across chance from the start
    (no cut), or the round's past only (`SeatView._whole`, `_cut`, `_across`)."""
    counts = [0, 0, 0, 0]
    for v in views:
        cut = getattr(v, "_cut", None)
        if getattr(v, "_across", False):
            counts[2] += 1
        elif v._whole is not None:
            counts[0] += 1
        elif cut is not None and cut.ok:
            counts[1] += 1
        else:
            counts[3] += 1
    return "no chance {}, cut {}, across {}, round only {}".format(*counts)


def measure(game, count: int, worlds: int, late: bool = False, first: bool = False) -> tuple:
    """(µs a view, µs a determinization, share of worlds that fit the past the view holds, share of
    worlds that fit the whole game's past, the views' `kinds`)."""
    sample = states(game, count, late, first)
    start = time.process_time()
    views = [s.view(s.current_player) for s in sample]
    for v in views:
        v.observation()  # (its settled copy: the round replayed once)
    view_us = (time.process_time() - start) / len(views) * 1e6
    fits = whole = made = 0
    start = time.process_time()
    for i, v in enumerate(views):
        rng = random.Random(i)
        for _ in range(worlds):
            _, fit = v.sample(rng)
            fits += fit
            # (a fit of the whole past: played from the start, or on from a chance cut; see `SeatView.sample`)
            whole += fit and (v._whole is not None or getattr(v, "_cut", None) is not None and v._cut.ok)
            made += 1
    det_us = (time.process_time() - start) / made * 1e6
    return view_us, det_us, fits / made, whole / made, kinds(views), sample


def bot_ms(bot: str, sample: list) -> float:
    """CPU ms of a decision of the bot named `bot` at each state of `sample` (from its seat's view)."""
    from cardlang.play.bots import decide, make_bot

    start = time.process_time()
    for i, state in enumerate(sample):
        decide(make_bot(bot, seed=i), state)
    return (time.process_time() - start) / len(sample) * 1e3


def ismcts(game, iterations: int, decisions: int) -> tuple:
    """(CPU ms an `ismcts:ITERATIONS` decision takes, the share of the worlds it imagined that fit
    the round's past only), over `decisions` decisions of states from the second round on (`states`)."""
    from cardlang.play.bots import decide, make_bot

    sample = states(game, decisions, True)
    worlds = fallbacks = 0
    spent = 0.0
    for i, state in enumerate(sample):
        bot = make_bot(f"ismcts:{iterations}", seed=i)
        start = time.process_time()
        decide(bot, state)
        spent += time.process_time() - start
        worlds += getattr(bot, "worlds", 0)
        fallbacks += getattr(bot, "fallbacks", 0)
    return spent / len(sample) * 1e3, fallbacks / worlds if worlds else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--this", default=ROOT, help="the checkout of cardlang to measure")
    parser.add_argument("--states", type=int, default=40)
    parser.add_argument("--worlds", type=int, default=20)
    parser.add_argument("--chance-past", choices=("on", "off"), help="`runtime.past.CHANCE_PAST` (default: the checkout's)")
    parser.add_argument("--bot", help="also the CPU time of a decision of this bot (`ismcts:30`) at the same states")
    parser.add_argument("--ismcts", type=int, metavar="ITERATIONS",
                        help="also the CPU cost of an `ismcts:ITERATIONS` decision in the NO_CUT files")
    parser.add_argument("--decisions", type=int, default=60, help="decisions timed with --ismcts")
    args = parser.parse_args()
    sys.path.insert(0, os.path.abspath(args.this))
    import cardlang

    if args.chance_past:
        from cardlang.runtime import past

        past.CHANCE_PAST = args.chance_past == "on"

    print(f"cardlang of {os.path.dirname(os.path.dirname(os.path.abspath(cardlang.__file__)))}")
    for late, first, files in ((False, False, GAMES), (True, False, NO_CUT), (False, True, FIRST_ROUND)):
        if late:
            print("from the second round on, files with no chance cut:")
        if first:
            print("in the first round only:")
        for relative, players in files:
            game = cardlang.load(os.path.join(ROOT, relative), players=players)  # (the same file for either checkout)
            view_us, det_us, fit, whole, kind, sample = measure(game, args.states, args.worlds, late, first)
            print(f"  {relative} ({players}p): view {view_us:8.0f} µs, determinize {det_us:8.0f} µs, "
                  f"worlds that fit the past {fit:6.1%}, the whole game's {whole:6.1%}" + (f"; views: {kind}" if late else "")
                  + (f"; {args.bot} {bot_ms(args.bot, sample):.1f} ms a decision" if args.bot else ""))
    if args.ismcts:
        print(f"an ismcts:{args.ismcts} decision, {args.decisions} decisions from the second round on:")
        for relative, players in NO_CUT:
            game = cardlang.load(os.path.join(ROOT, relative), players=players)
            ms, fell = ismcts(game, args.ismcts, args.decisions)
            print(f"  {relative} ({players}p): {ms:8.1f} ms CPU a decision, worlds that fell back to the round's past {fell:6.1%}")


if __name__ == "__main__":
    main()
