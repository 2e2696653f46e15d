"""Benchmark the engine: random-bot playouts of every game in games/, against hand-written Python.

For each game (at a fixed player count: Coucou 7, Ascenseur 4, Red Dog 5, Pioche Poker 3,
Counter-Bluff 2; any other file in games/ at its smallest count) it measures, in one process:

- full games per second and decisions per second, every seat choosing uniformly among
  `legal_action_ids()` with `log=False`, as simulations and bots play;
- for Ascenseur and Coucou, the same figures for the plain-Python programs in
  `benchmarks/reference/`, measured in the same run, alternating with the interpreter, and the
  ratio interpreted / hand-written (the target is at least 1/3);
- `clone()` of a mid-game state, and `legal_actions()` (with labels) and `legal_action_ids()` there;
- `cardlang.load` of the file (first load in a fresh process, and warm, in process);
- once: the time of `import cardlang` in a fresh process.

Playout rates count this process's CPU time (`time.process_time`), not the wall clock, so that other
work on a shared machine disturbs them less; each figure is the best of `--repeat` runs, and the
interpreter and the reference alternate run by run. Compare ratios from one run.

    python benchmarks/bench_engine.py [--seconds 2] [--games N] [--repeat 3] [--only coucou ...]
                                      [--also examples/klondike.cards ...]
                                      [--engine compiled|reference] [--json] [--profile GAME]

`--engine reference` measures the reference interpreter (`cardlang.load(..., engine="reference")`)
in place of the compiled engine, against the same hand-written programs.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import subprocess
import sys
import time
import timeit
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

import cardlang  # noqa: E402
from reference import ascenseur as ref_ascenseur  # noqa: E402
from reference import coucou as ref_coucou  # noqa: E402

# file stem -> player count the issue fixes for the comparison
PLAYERS = {"coucou": 7, "ascenseur": 4, "red_dog": 5, "pioche_poker": 3, "counter_bluff": 2}
REFERENCES = {"coucou": ref_coucou.play_game, "ascenseur": ref_ascenseur.play_game}
EXPECTED = tuple(PLAYERS)


# ------------------------------------------------------------------ measurements
def _run_for(play, seconds: float, games: int | None) -> tuple[int, int, float]:
    """Calls `play(i)` (which returns its decisions) for `games` games or `seconds`: (games, decisions, time)."""
    gc.collect()
    done = decisions = 0
    t0 = time.process_time()
    while True:
        decisions += play(done)
        done += 1
        elapsed = time.process_time() - t0
        if (games is not None and done >= games) or (games is None and elapsed >= seconds):
            return done, decisions, elapsed


def interpreted_player(game):
    """`play(i)`: one random-bot game from seed i, without a log; returns its decisions."""
    rng = random.Random(12345)
    choice = rng.choice
    new = game.new_initial_state

    def play(i: int) -> int:
        st = new(seed=i, log=False)
        apply, ids = st.apply, st.legal_action_ids
        n = 0
        while not st.terminal:
            apply(choice(ids()))
            n += 1
        return n
    return play


def reference_player(play_game, players: int):
    rng = random.Random(12345)

    def play(i: int) -> int:
        return play_game(players, rng)[1]
    return play


def mid_game_state(game):
    """The state halfway (in decisions) through the random game of seed 0."""
    rng = random.Random(0)
    st = game.new_initial_state(seed=0, log=False)
    moves = []
    while not st.terminal:
        a = rng.choice(st.legal_action_ids())
        moves.append(a)
        st.apply(a)
    st = game.new_initial_state(seed=0, log=False)
    for a in moves[: len(moves) // 2]:
        st.apply(a)
    return st


def per_call(fn, target: float = 0.2) -> float:
    """Seconds per call of `fn()`, best of 5 timings of about `target` seconds each."""
    timer = timeit.Timer(fn)
    number, _ = timer.autorange()
    number = max(1, int(number * target / 0.2))
    return min(timer.repeat(repeat=5, number=number)) / number


def import_seconds(repeat: int = 5) -> float:
    code = "import time; t = time.perf_counter(); import cardlang; print(time.perf_counter() - t)"
    return min(float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                    cwd=ROOT, check=True).stdout) for _ in range(repeat))


def first_load_seconds(path: str, players: int, repeat: int = 3, engine: str = "compiled") -> float:
    code = ("import sys, time, cardlang; t = time.perf_counter(); "
            f"cardlang.load({path!r}, players={players}, engine={engine!r}); print(time.perf_counter() - t)")
    return min(float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                    cwd=ROOT, check=True).stdout) for _ in range(repeat))


def warm_load_seconds(path: str, players: int, repeat: int = 5, engine: str = "compiled") -> float:
    cardlang.load(path, players=players, engine=engine)
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        cardlang.load(path, players=players, engine=engine)
        best = min(best, time.perf_counter() - t0)
    return best


def bench_game(stem: str, path: str, players: int, args) -> dict:
    game = cardlang.load(path, players=players, engine=args.engine)
    interp = interpreted_player(game)
    ref = REFERENCES.get(stem)
    refp = reference_player(ref, players) if ref else None
    best_i = best_r = None  # (games/s, decisions/s)
    for _ in range(args.repeat):  # alternate, so both see the same machine load
        g, d, t = _run_for(interp, args.seconds, args.games)
        best_i = max(best_i or (0, 0), (g / t, d / t), key=lambda x: x[1])
        if refp is not None:
            g, d, t = _run_for(refp, args.seconds, args.games)
            best_r = max(best_r or (0, 0), (g / t, d / t), key=lambda x: x[1])
    st = mid_game_state(game)
    row = {
        "game": stem,
        "title": game.title,
        "players": players,
        "games_per_s": best_i[0],
        "decisions_per_s": best_i[1],
        "ref_games_per_s": best_r[0] if best_r else None,
        "ref_decisions_per_s": best_r[1] if best_r else None,
        "ratio": best_i[1] / best_r[1] if best_r else None,
        "clone_us": per_call(st.clone) * 1e6,
        "legal_actions_us": per_call(st.legal_actions) * 1e6,
        "legal_action_ids_us": per_call(st.legal_action_ids) * 1e6,
        "mid_game_legal": len(st.legal_action_ids()),
        "first_load_ms": first_load_seconds(path, players, engine=args.engine) * 1e3,
        "warm_load_ms": warm_load_seconds(path, players, engine=args.engine) * 1e3,
        "engine": args.engine,
    }
    return row


# ----------------------------------------------------------------------- output
def _fmt(x, spec: str) -> str:
    return "—" if x is None else format(x, spec)


def table(rows: list, import_s: float, missing: list) -> str:
    head = ("game", "n", "games/s", "decisions/s", "ref dec/s", "ratio", "clone µs", "legal µs",
            "ids µs", "load ms", "warm ms")
    lines = [head]
    for r in rows:
        lines.append((r["game"], str(r["players"]), _fmt(r["games_per_s"], ",.1f"),
                      _fmt(r["decisions_per_s"], ",.0f"), _fmt(r["ref_decisions_per_s"], ",.0f"),
                      _fmt(r["ratio"], ".2f"), _fmt(r["clone_us"], ".1f"), _fmt(r["legal_actions_us"], ".1f"),
                      _fmt(r["legal_action_ids_us"], ".2f"), _fmt(r["first_load_ms"], ".0f"),
                      _fmt(r["warm_load_ms"], ".0f")))
    widths = [max(len(line[i]) for line in lines) for i in range(len(head))]
    out = ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(line, widths)))
           for line in lines]
    out.insert(1, "  ".join("-" * w for w in widths))
    out.append("")
    if rows:
        out.append(f"engine: {rows[0]['engine']}")
    out.append(f"import cardlang: {import_s * 1e3:.0f} ms (fresh process, best of 5)")
    for r in rows:
        if r["ref_games_per_s"]:
            out.append(f"{r['game']} reference: {r['ref_games_per_s']:,.1f} games/s")
    for stem in missing:
        out.append(f"note: games/{stem}.cards is not in games/ yet: skipped")
    return "\n".join(out)


def profile(stem: str, path: str, players: int, seconds: float) -> None:
    import cProfile
    import pstats

    game = cardlang.load(path, players=players)
    play = interpreted_player(game)
    prof = cProfile.Profile()
    prof.enable()
    _run_for(play, seconds, None)
    prof.disable()
    pstats.Stats(prof).sort_stats("tottime").print_stats(30)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=2.0, help="time per playout measurement (default 2)")
    ap.add_argument("--games", type=int, default=None, help="a fixed number of games per measurement instead")
    ap.add_argument("--repeat", type=int, default=3, help="measurements per figure, the best is kept (default 3)")
    ap.add_argument("--only", nargs="*", default=None, help="file stems of games/ to measure")
    ap.add_argument("--also", nargs="*", default=[], metavar="FILE",
                    help="rule files outside games/ to measure too, at their smallest count "
                         "(e.g. the tableau games examples/columns.cards examples/klondike.cards)")
    ap.add_argument("--engine", choices=("compiled", "reference"), default="compiled",
                    help="the engine measured (default: compiled)")
    ap.add_argument("--json", action="store_true", help="print JSON instead of the table")
    ap.add_argument("--profile", metavar="GAME", help="cProfile the playouts of one game instead")
    args = ap.parse_args(argv)

    found = {p.stem: p for p in sorted((ROOT / "games").glob("*.cards"))}
    missing = [s for s in EXPECTED if s not in found]
    stems = [s for s in EXPECTED if s in found] + [s for s in found if s not in PLAYERS]
    if args.only is not None:
        stems = [s for s in stems if s in args.only]
    for extra in args.also:  # (by their stem, after the games)
        found[Path(extra).stem] = (ROOT / extra).resolve()
        stems.append(Path(extra).stem)

    def players_of(stem):
        if stem in PLAYERS:
            return PLAYERS[stem]
        return cardlang.check_file(str(found[stem]))[0].players[0]

    if args.profile:
        profile(args.profile, os.path.relpath(found[args.profile], ROOT), players_of(args.profile), args.seconds)
        return 0
    os.chdir(ROOT)
    rows = []
    for stem in stems:
        path = os.path.relpath(found[stem], ROOT)
        try:
            rows.append(bench_game(stem, path, players_of(stem), args))
        except cardlang.CardlangError as e:  # a game being written may not load yet
            print(f"note: {path} does not load: {str(e).splitlines()[0] if str(e) else e}", file=sys.stderr)
        if not args.json:
            print(f"  measured {stem}", file=sys.stderr, flush=True)
    import_s = import_seconds()
    if args.json:
        print(json.dumps({"python": platform.python_version(), "machine": platform.machine(),
                          "cpus": os.cpu_count(), "import_s": import_s, "skipped": missing, "games": rows},
                         indent=2))
    else:
        print(table(rows, import_s, missing))
    return 0


if __name__ == "__main__":
    sys.exit(main())
