"""What showing every text as text costs (docs/security.md, "Untrusted text").

    python benchmarks/bench_untrusted_text.py [--repeat 5] [--game games/ascenseur.cards --players 4]

Measures, in CPU time (`time.process_time`, the best of `--repeat` runs, the two alternating):
- the play screen (`render_table` of every state of a seeded bots-only game, as the seat to move
  sees it, colours on) printed by rich's own `Console` and by the `SafeConsole` of the commands;
- `visible` of every line of that game's transcript (the common case: nothing to escape) and of the
  same lines each holding an escape sequence.
"""

from __future__ import annotations

import argparse
import io
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import cardlang  # noqa: E402
from rich.console import Console  # noqa: E402

from cardlang.play.safe_console import SafeConsole  # noqa: E402
from cardlang.play.table_view import Layout, Style, render_table  # noqa: E402
from cardlang.lang.untrusted import visible  # noqa: E402
from bench_saves import best  # noqa: E402  (the least CPU time of a few runs)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--game", default="games/ascenseur.cards")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--screens", type=int, default=150)
    a = parser.parse_args(argv)
    game = cardlang.load(os.path.join(ROOT, a.game), players=a.players)
    state = game.new_initial_state(seed=a.seed)
    observations = []
    import random

    rng = random.Random(a.seed)
    while not state.is_terminal() and len(observations) < a.screens:
        observations.append(state.observation(state.current_player))
        state.apply(rng.choice(state.legal_action_ids()))
    layout, style = Layout.of(game), Style()

    def draw(kind):
        def run():
            out = io.StringIO()
            console = kind(file=out, width=100, force_terminal=True, color_system="truecolor", markup=False,
                           highlight=False, emoji=False)
            for obs in observations:
                console.print(render_table(obs, layout, style, events=obs["log"][-14:], viewer=obs["seat"]))
        return run

    plain, safe = [], []
    for _ in range(a.repeat):
        plain.append(best(1, draw(Console)))
        safe.append(best(1, draw(SafeConsole)))
    n = len(observations)
    p, s = min(plain), min(safe)
    print(f"{a.game}, {a.players} players: {n} screens")
    print(f"  rich Console:  {1000 * p / n:7.3f} ms a screen")
    print(f"  SafeConsole:   {1000 * s / n:7.3f} ms a screen  (x{s / p:.3f})")
    lines = state.transcript()
    hostile = [line + " \x1b]0;x\x07" for line in lines]
    t_plain = best(a.repeat, lambda: [visible(line) for line in lines])
    t_hostile = best(a.repeat, lambda: [visible(line) for line in hostile])
    print(f"  visible: {1e6 * t_plain / len(lines):6.2f} µs a log line; {1e6 * t_hostile / len(lines):6.2f} µs "
          f"a line with an escape ({len(lines)} lines)")


if __name__ == "__main__":
    main()
