"""Bot strength (issue 26): `ismcts` against `random`, and against another `ismcts` (the one of another
checkout of cardlang, e.g. main, played in a process of its own), in a trick game and a bluffing
game. Win rates with Wilson 95% intervals; each pairing plays every seed twice, the bots changing
seats, so that neither gains from sitting first.

    python benchmarks/bench_bot_strength.py --games 20
    python benchmarks/bench_bot_strength.py --games 20 --other /work/main      # against main's ismcts
    python benchmarks/bench_bot_strength.py --other /work/main --only games/counter_bluff.cards
    python benchmarks/bench_bot_strength.py --this /work/main    # main's ismcts against random

The other checkout's bot decides in a child process started with that checkout first on its path:
it keeps its own copy of the game (same file, seed and player count) and is told every move, so
each side decides from its own engine's view; a move it reports that this side's game does not
allow stops the run (the two engines deal differently: no match is possible). A game that ends by
a rule error (a bot's imagined world used to stop the real game: issue 26 finding 8) counts as
`errors`, not as a game.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

GAMES = [("games/ascenseur.cards", 2), ("games/counter_bluff.cards", 2)]


def _child() -> None:
    """The other side: reads JSON commands on stdin, answers one line each (see the module's note)."""
    import cardlang
    from cardlang.play.bots import decide, make_bot
    from cardlang.runtime.basics import RuleError

    game = state = None
    bot_name = ""
    for line in sys.stdin:
        cmd = json.loads(line)
        out: dict = {}
        try:
            if cmd["do"] == "load":
                game = cardlang.load(cmd["file"], players=cmd["players"])
                bot_name = cmd["bot"]
            elif cmd["do"] == "new":
                state = game.new_initial_state(seed=cmd["seed"], log=False)
            elif cmd["do"] == "apply":
                state.apply(cmd["action"])
            elif cmd["do"] == "decide":
                out["legal"] = list(state.legal_action_ids())
                out["action"] = decide(make_bot(bot_name, seed=cmd["bot_seed"]), state)
        except RuleError as e:
            out["error"] = str(e).splitlines()[0]
        print(json.dumps(out), flush=True)


class Other:
    """A bot of another checkout, in a child process."""

    def __init__(self, checkout: str, file: str, players: int, bot: str):
        env = dict(os.environ, PYTHONPATH=os.path.abspath(checkout), BENCH_CHILD="1")
        self.proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--child"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True, env=env, cwd=os.path.abspath(checkout))
        self.ask(do="load", file=os.path.join(os.path.abspath(checkout), file), players=players, bot=bot)

    def ask(self, **cmd) -> dict:
        self.proc.stdin.write(json.dumps(cmd) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the other checkout's bot process ended")
        return json.loads(line)

    def cpu(self) -> float:
        """The child's CPU seconds so far (Linux)."""
        try:
            with open(f"/proc/{self.proc.pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except OSError:
            return 0.0

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def play(game, seed: int, seats: list, other) -> tuple:
    """One game: `seats[s]` is a bot name, or None for the other checkout's bot. (winners, error)."""
    from cardlang.play.bots import decide, make_bot
    from cardlang.runtime.basics import RuleError

    state = game.new_initial_state(seed=seed, log=False)
    if other is not None:
        other.ask(do="new", seed=seed)
    try:
        while not state.is_terminal():
            seat = state.current_player
            bot_seed = seed * 1009 + seat  # (as `simulate` seeds its bots)
            if seats[seat] is None:
                got = other.ask(do="decide", bot_seed=bot_seed)
                if "error" in got:
                    return [], got["error"]
                if got["legal"] != list(state.legal_action_ids()):
                    raise RuntimeError("the two checkouts deal or offer differently: no match is possible")
                a = got["action"]
            else:
                a = decide(make_bot(seats[seat], seed=bot_seed), state)
            state.apply(a)
            if other is not None:
                got = other.ask(do="apply", action=a)
                if "error" in got:
                    return [], got["error"]
        return list(state.winners()), None
    except RuleError as e:
        return [], str(e).splitlines()[0]


def match(this: str, file: str, players: int, bot: str, opponent: str, games: int, other_checkout: str = "") -> dict:
    """`bot` against `opponent` (a bot name, or `other` for the other checkout's `bot`): every seed
    played twice, `bot` in seat 0 then in seat 1 (the opponent in the other seats)."""
    import cardlang
    from cardlang.play.simulate import wilson

    game = cardlang.load(os.path.join(this, file), players=players)
    other = Other(other_checkout, file, players, bot) if opponent == "other" else None
    wins = played = errors = 0
    reasons: dict = {}
    start, child_start = time.process_time(), other.cpu() if other else 0.0
    try:
        for seed in range(games):
            for mine in (0, 1):
                seats = [None if opponent == "other" else opponent] * players
                seats[mine] = bot
                winners, error = play(game, seed, seats, other)
                if error is not None:
                    errors += 1
                    reasons[error] = reasons.get(error, 0) + 1
                    continue
                played += 1
                wins += mine in winners
    finally:
        cpu = time.process_time() - start + ((other.cpu() - child_start) if other else 0.0)
        if other is not None:
            other.close()
    low, high = wilson(wins, played)
    return {"file": file, "players": players, "bot": f"{bot} of {this}", "opponent": opponent if opponent != "other"
            else f"{bot} of {other_checkout}", "games": played, "wins": wins,
            "win_rate": wins / played if played else 0.0, "ci95": [low, high], "errors": errors,
            "error_reasons": reasons, "cpu_seconds": cpu}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="seeds per pairing (each played twice)")
    parser.add_argument("--bot", default="ismcts:100")
    parser.add_argument("--this", default=ROOT, help="the checkout of cardlang whose --bot is measured (default: "
                        "this script's)")
    parser.add_argument("--other", default="", help="a checkout of cardlang whose --bot plays against this one's")
    parser.add_argument("--only", nargs="*", default=None, help="game files to play (default: both)")
    parser.add_argument("--no-random", action="store_true", help="leave out the match against random")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child()
        return
    sys.path.insert(0, os.path.abspath(args.this))
    import cardlang

    if not os.path.abspath(cardlang.__file__).startswith(os.path.abspath(args.this) + os.sep):
        raise SystemExit(f"cardlang comes from {cardlang.__file__}, not from {args.this}")
    results = []
    for file, players in GAMES:
        if args.only and file not in args.only:
            continue
        if not args.no_random:
            results.append(match(args.this, file, players, args.bot, "random", args.games))
        if args.other:
            results.append(match(args.this, file, players, args.bot, "other", args.games, args.other))
    if args.json:
        print(json.dumps(results, indent=1))
        return
    for r in results:
        low, high = r["ci95"]
        print(f"{r['file']} ({r['players']}p): {r['bot']} vs {r['opponent']}: {r['wins']}/{r['games']} wins = "
              f"{r['win_rate']:.1%} (95% {low:.1%}–{high:.1%}), rule errors {r['errors']}, "
              f"CPU {r['cpu_seconds']:.0f} s")
        for reason, n in r["error_reasons"].items():
            print(f"    {n} × {reason}")


if __name__ == "__main__":
    main()
