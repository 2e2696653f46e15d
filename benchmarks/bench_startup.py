"""Start-up of `cardlang simulate FILE -n 200 --jobs 1` (issue 12: under 0.5 s of wall time), by stage.

Each run is a fresh process that does what the command does, one stage after the other, and reports
the CPU time (`time.process_time`) of each: the imports of the command line and of `simulate`, the
parser made ready (read back from the user's cache: `cardlang/lang/parser_cache.py`), the first
parse (Lark's lexer builds a scanner for each parser state it meets), the check, the compiled
engine, the counting twin of rule coverage, the games and the printed tables. Then the command
itself is timed `--repeat` times in fresh processes (wall and CPU, the median, and the least).

Python writes no bytecode cache when `PYTHONDONTWRITEBYTECODE` is set (this machine's sessions set
it): every start then compiles cardlang's 95 modules again (0.2–0.3 s). `--bytecode` (the default)
runs the processes without it, as an installed package runs (pip compiles the modules when it
installs them), after one warm-up run that writes the cache; `--no-bytecode` measures the other.

    python benchmarks/bench_startup.py [--file examples/coin_flip.cards] [--games 200] [--repeat 7]
                                       [--no-bytecode] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_playouts import cli  # noqa: E402  (a command's wall and CPU time in a fresh process)

STAGES = r'''
import time
T = time.process_time
marks = [("interpreter and site", T())]
def mark(name):
    marks.append((name, T()))
import cardlang.cli
mark("import cardlang.cli (click, lark, attrs, lang/)")
from cardlang.cli import cmd_simulate
mark("import the simulate command (compiler, runtime, play)")
from cardlang.lang.grammar import parser
parser()
mark("parser ready")
from cardlang.load import Loader, resolve_options
loader = Loader()
module, _ = loader.parse_file(FILE)
mark("first parse")
merged, _ = loader.merge(module)
from cardlang.lang.check import check
symbols, _ = check(merged, warnings=False)
mark("check")
from cardlang.compiler.emit.build import emit_program
from cardlang.compiler.lowered import lower_game
from cardlang.runtime.engine import Game
from cardlang.load import source_hash
players, values = resolve_options(symbols, None, {})
game = Game(emit_program(lower_game(symbols, players, values)), symbols, players, values, FILE, source_hash(FILE, symbols))
mark("compile")
from cardlang.play.coverage import instrument
instrument(game)
mark("counting twin")
from cardlang.play.simulate import simulate
stats = simulate(game, GAMES, 0, ("random",), jobs=1)
mark("games")
import contextlib, io
with contextlib.redirect_stdout(io.StringIO()):
    cmd_simulate._print_tables(stats)
mark("tables printed")
import json
print(json.dumps([marks[0]] + [(b, y - x) for (_, x), (b, y) in zip(marks, marks[1:])] + [("total", marks[-1][1])]))
'''


def environment(bytecode: bool) -> dict:
    env = dict(os.environ)
    if bytecode:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
    else:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def forget_bytecode(env: dict) -> None:
    """Without a bytecode cache, cardlang's own compiled modules go (a stale one would still be read;
    the installed libraries keep theirs, which pip wrote)."""
    if env.get("PYTHONDONTWRITEBYTECODE"):
        for cache in (ROOT / "cardlang").rglob("__pycache__"):
            shutil.rmtree(cache, ignore_errors=True)


def stages(file: str, games: int, env: dict) -> list:
    """(stage, CPU seconds) of one fresh process doing what the command does."""
    forget_bytecode(env)
    code = f"FILE = {file!r}\nGAMES = {games}\n" + STAGES
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, check=True, capture_output=True, text=True)
    return json.loads(out.stdout.splitlines()[-1])


def command(file: str, games: int, env: dict) -> tuple:
    """(wall seconds, CPU seconds) of `cardlang simulate FILE -n GAMES --jobs 1` in a fresh process."""
    forget_bytecode(env)
    return cli(["simulate", file, "-n", str(games), "--jobs", "1"], env=env)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--file", default="examples/coin_flip.cards")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--repeat", type=int, default=7, help="fresh processes per figure; the median is shown")
    ap.add_argument("--no-bytecode", dest="bytecode", action="store_false",
                    help="as with PYTHONDONTWRITEBYTECODE=1: every module compiled again at each start")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    env = environment(args.bytecode)
    command(args.file, args.games, env)  # warm-up: the bytecode cache and the parser's file written
    runs = [stages(args.file, args.games, env) for _ in range(args.repeat)]
    names = [name for name, _ in runs[0]]
    by_stage = {name: statistics.median(run[i][1] for run in runs) for i, name in enumerate(names)}
    timed = [command(args.file, args.games, env) for _ in range(args.repeat)]
    walls, cpus = [w for w, _ in timed], [c for _, c in timed]
    out = {"file": args.file, "games": args.games, "bytecode": args.bytecode, "stages_cpu_s": by_stage,
           "command": {"wall_median_s": statistics.median(walls), "wall_min_s": min(walls),
                       "cpu_median_s": statistics.median(cpus), "cpu_min_s": min(cpus)},
           "load": os.getloadavg()[0]}
    if args.json:
        print(json.dumps(out, indent=2))
        return 0
    print(f"cardlang simulate {args.file} -n {args.games} --jobs 1, bytecode cache {'on' if args.bytecode else 'off'}, "
          f"load {out['load']:.1f}; CPU ms by stage, median of {args.repeat} fresh processes:")
    for name, seconds in by_stage.items():
        print(f"  {name:<56} {1000 * seconds:7.1f}")
    c = out["command"]
    print(f"the command: wall {c['wall_median_s']:.3f} s median ({c['wall_min_s']:.3f} least), "
          f"CPU {c['cpu_median_s']:.3f} s median ({c['cpu_min_s']:.3f} least)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
