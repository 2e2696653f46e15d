"""Saves: what checking a save on resume costs, and what the table's labels cost while playing.

    python benchmarks/bench_saves.py [--repeat 3] [--game games/ascenseur.cards --players 3]

Measures, in CPU time (`time.process_time`, the best of `--repeat` runs):
- a bots-only game played with `--save` (the save written after every move; its fsync is I/O
  wait, not CPU) and the same game without a save;
- `load_saved` of that save: read, schema, rules hash, replay of every move, labels, checksum;
- refusing the largest hostile save the limits let through (100 000 actions).
Run from a worktree of another revision put first on the path to compare (README of this folder).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time

from click.testing import CliRunner

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from cardlang.cli import main  # noqa: E402
from cardlang.play.savegame import SaveError, load_saved  # noqa: E402


def best(repeat: int, f) -> float:
    times = []
    for _ in range(repeat):
        start = time.process_time()
        f()
        times.append(time.process_time() - start)
    return min(times)


def run(args) -> None:
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output


def main_(argv=None) -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--game", default="games/ascenseur.cards")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    a = parser.parse_args(argv)
    game = os.path.join(ROOT, a.game)
    folder = tempfile.mkdtemp()
    save = os.path.join(folder, "bench.json")
    base = ["play", game, "--players", str(a.players), "--bots-only", "--seed", str(a.seed)]
    played = best(a.repeat, lambda: run(base + ["--save", save]))
    plain = best(a.repeat, lambda: run(base))
    with open(save) as f:
        data = json.load(f)
    moves = len(data["actions"])
    print(f"{a.game} ({a.players}), seed {a.seed}: {moves} moves, save {os.path.getsize(save)} bytes")
    print(f"  bots-only game, saved after every move: {played:.2f} s CPU ({1000 * (played - plain) / moves:.2f} ms "
          f"a move more than without a save: {plain:.2f} s)")
    checked = best(a.repeat, lambda: load_saved(save))
    print(f"  load_saved (every check, every move replayed): {1000 * checked:.0f} ms")
    hostile = os.path.join(folder, "hostile.json")
    with open(hostile, "w") as f:
        json.dump(dict(data, actions=[0] * 100_000, labels=["x"] * 100_000), f)

    def refuse():
        try:
            load_saved(hostile)
        except SaveError:
            return
        raise AssertionError("the hostile save was not refused")

    print(f"  a save of 100 000 actions refused: {1000 * best(a.repeat, refuse):.0f} ms")


if __name__ == "__main__":
    main_()
