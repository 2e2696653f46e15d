"""Benchmark what keeping facts costs (issue 16, family 5: `tell`, runtime/facts.py), in CPU time.

On `examples/hints.cards` (2 players, compiled engine), against a copy of it whose `tell` lines are
`pass` (the same games, the same draws, no facts kept):

- `api loop`: random games through `legal_action_ids()` + `apply()`, `log=False` (facts written);
- `quiet`: the same games in quiet states (`runtime.playout.quiet`: knowledge and facts left as
  they stand), through `random_playout`;
- `determinize`: `SeatView.determinize` at mid-game states where the seat to play was told
  something of its hand (the matching-based deal of `runtime.facts.deal`), per second.

    python benchmarks/bench_facts.py [--seconds 2] [--repeat 3] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import cardlang  # noqa: E402
from cardlang.runtime.playout import quiet, random_playout  # noqa: E402

GAME = ROOT / "examples" / "hints.cards"


def _untold() -> str:
    """A copy of the game whose `tell` lines do nothing (`pass`): the same games without facts."""
    lines = [line[:len(line) - len(line.lstrip())] + "pass" if line.strip().startswith("tell ") else line
             for line in GAME.read_text(encoding="utf-8").splitlines()]
    out = Path(tempfile.mkdtemp()) / "untold.cards"
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(out)


def _rate(play, seconds: float) -> float:
    """Units per CPU second of `play(i)` (which returns how many it did), for about `seconds`."""
    done = count = 0
    t0 = time.process_time()
    while True:
        count += play(done)
        done += 1
        if time.process_time() - t0 >= seconds:
            return count / (time.process_time() - t0)


def api_loop(game):
    def play(i: int) -> int:
        rng = random.Random(i)
        st = game.new_initial_state(seed=i, log=False)
        n = 0
        while not st.terminal:
            legal = st.pending.legal
            st.apply(legal[rng.randrange(len(legal))])
            n += 1
        return n
    return play


def quiet_loop(game):
    def play(i: int) -> int:
        st = quiet(game.new_initial_state(seed=i, log=False))
        return random_playout(st, random.Random(i))
    return play


def told_states(game, count: int = 20) -> list:
    """Mid-game states where the seat to play was told something of its hand."""
    hand = game.program.zone_families["hand"][0]
    out, seed = [], 0
    while len(out) < count:
        rng = random.Random(seed)
        st = game.new_initial_state(seed=seed)
        while not st.terminal:
            p = st.current_player
            if game.program.facts is None and len(st.history) > 6 or (
                    game.program.facts is not None and any(game.program.facts.of(st, c, p) for c in st.zones[hand + p])):
                out.append(st.clone())
                break
            legal = st.pending.legal
            tells = [a for a in legal if a >> 16 >= 2]
            st.apply(rng.choice(tells or legal))
        seed += 1
    return out


def determinizer(game):
    views = [s.view(s.current_player) for s in told_states(game)]

    def play(i: int) -> int:
        views[i % len(views)].determinize(random.Random(i))
        return 1
    return play


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    told, untold = cardlang.load(str(GAME), 2), cardlang.load(_untold(), 2)
    assert told.program.facts is not None and untold.program.facts is None
    paths = {"api loop": api_loop, "quiet": quiet_loop, "determinize": determinizer}
    best: dict = {}
    for _ in range(args.repeat):  # alternating, so both see the same machine load
        for name, make in paths.items():
            for label, game in (("facts", told), ("no facts", untold)):
                rate = _rate(make(game), args.seconds)
                best[(name, label)] = max(best.get((name, label), 0.0), rate)
    rows = [(name, best[(name, "facts")], best[(name, "no facts")]) for name in paths]
    if args.json:
        print(json.dumps({n: {"facts": a, "no facts": b} for n, a, b in rows}))
        return
    print(f"{'path':<12} {'with facts':>14} {'without':>14} {'ratio':>7}   (decisions, or determinizations, per CPU s)")
    for name, a, b in rows:
        print(f"{name:<12} {a:>14,.0f} {b:>14,.0f} {a / b:>7.2f}")


if __name__ == "__main__":
    main()
