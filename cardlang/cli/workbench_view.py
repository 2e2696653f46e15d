"""What `compare` and `sweep` share: their options, the run with a progress bar, the table, the plot."""

from __future__ import annotations

import json
import sys

import click

from ..play.bots import BotNameError, make_bot
from ..play.compare import expected_games, run_all
from ..play.simulate import cpu_count
from .cmd_common import MAX_SEATS, games_type, jobs_type, say_stopped, seed_type, stopping_on_signals
from .untrusted import console as untrusted_console, echo, plot_text

NAMES = {
    "decisions": "decisions per game", "rounds": "rounds per game", "capped": "games cut by the cap",
    "legal_actions": "legal actions per decision", "forced_share": "forced moves (share)",
    "lead_changes": "lead changes", "lead_for_good": "winner leads for good from (share of rounds)",
    "decided_late": "decided in the last round", "no_winner": "games without a winner",
    "seat_spread": "seat spread (best − worst win rate)", "skill": "skill",
}


def options(command):
    """The options `compare` and `sweep` share."""
    for decorate in reversed([
        click.option("-n", "--games", type=games_type(), default=200, show_default=True,
                     help="Games per file (per batch with --until-significant)."),
        click.option("--players", type=click.IntRange(1, MAX_SEATS), default=None, help="Number of players (default: the smallest allowed)."),
        click.option("--bots", "bot_names", default="random", show_default=True, metavar="BOT[,BOT…]",
                     help="One bot for every seat, or one per seat."),
        click.option("--skill", "skill_bot", default="greedy:8", show_default=True, metavar="BOT|none",
                     help="The stronger bot of the skill measure, in each seat in turn against --bots' first."),
        click.option("--restricted", is_flag=True, help="Also measure restricted play: one seat plays one label whenever it can."),
        click.option("--paired", is_flag=True, help="Skill on paired deals: every deal once per seat of the stronger bot."),
        click.option("--until-significant", is_flag=True, help="Add batches of -n games until a difference is significant."),
        click.option("--max-games", type=games_type(), default=None,
                     help="The cap of --until-significant, in games per file (default 10 × -n)."),
        click.option("--cap", type=click.IntRange(0, 10**9), default=0, help="Stop a game after this many decisions (0: never)."),
        click.option("--seed", type=seed_type(), default=0, show_default=True, help="Seed of the first game."),
        click.option("--jobs", type=jobs_type(), default=None, help="Local processes (default: every core)."),
        click.option("--cluster", metavar="ADDRESS", default=None,
                     help="Run the games on Ray, as `simulate --cluster` does (needs cardlang[ray])."),
        click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of tables."),
        click.option("--plot", "plot_path", type=click.Path(dir_okay=False, writable=True), default=None,
                     help="One figure, a panel per measure (needs cardlang[plot])."),
        click.option("--engine", type=click.Choice(["compiled", "native"]), default="compiled", show_default=True,
                     help="native: the native engine where it can serve (see `simulate --engine`)."),
    ]):
        command = decorate(command)
    return command


def native_measures(engine: str) -> None:
    """`--engine native` on `compare` and `sweep`: their measures see every decision of every game
    (a record hook: `play.measures`), which a whole game in machine code does not show, so the
    games run on the compiled engine, and one line says so."""
    if engine == "native":
        echo("native engine: the measures of compare and sweep see every decision; running on the compiled engine",
             err=True)


def fail(message: str, code: int = 2):
    """One line on stderr and the exit status."""
    echo(f"error: {message}", err=True)
    raise SystemExit(code)


def parse_bots(bot_names: str, skill_bot: str, players: int) -> tuple:
    """The seat bots and (strong, weak) of the skill measure, or one-line errors."""
    bots = [b.strip() for b in bot_names.split(",") if b.strip()]
    try:
        for b in bots:
            make_bot(b)
        if skill_bot != "none":
            make_bot(skill_bot)
    except BotNameError as e:
        fail(str(e))
    if len(bots) not in (1, players):
        fail(f"--bots: give one bot for every seat or {players} (one per seat), not {len(bots)}")
    return bots, (None if skill_bot == "none" else (skill_bot, bots[0]))


def run(games, labels, n, seed, bots, skill, args) -> dict:
    """Measures every game with a progress bar on a terminal; Ctrl-C keeps what is finished."""
    if args["plot_path"] is not None:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            fail("--plot needs matplotlib: pip install 'cardlang[plot]'")
    jobs = args["jobs"] or cpu_count()
    kwargs = dict(restricted=args["restricted"], paired=args["paired"], cap=args["cap"], jobs=jobs,
                  until_significant=args["until_significant"], max_games=args["max_games"], cluster=args["cluster"])
    with stopping_on_signals() as stop:  # SIGINT, SIGTERM, SIGHUP: the runs and their workers stop at once
        result = _measure(games, n, seed, bots, skill, args, kwargs, stop)
    if stop.signum is not None:
        total = expected_games(games, n, bots, skill)
        say_stopped(stop, min(total, sum(len(v) for r in result["raws"] if r for v in r["runs"].values())), total)
        if not stop.by_request():  # SIGTERM or SIGHUP: no table (the terminal may be gone)
            raise SystemExit(stop.status)
    out = {"labels": labels, "seed": seed, "bots": list(bots), "skill": list(skill) if skill else None,
           "paired": args["paired"], "cap": args["cap"], "alpha": 0.05,
           "until_significant": args["until_significant"], "stopped": result["stopped"],
           "interrupted": result["stopped"] == "interrupted", "batches": result["batches"],
           "results": [dict(s, label=labels[i], file=games[i].path, game=games[i].title,
                            options=dict(games[i].options)) for i, s in enumerate(result["summaries"])],
           "comparisons": [dict(c, a=labels[c["a"]], b=labels[c["b"]]) for c in result["comparisons"]]}
    return out


def _measure(games, n, seed, bots, skill, args, kwargs, stop) -> dict:
    """`run_all` with a progress bar on a terminal; one line and the exit status if stopped before any game."""
    try:
        if args["as_json"] or not sys.stderr.isatty():
            result = run_all(games, n, seed, bots, skill, **kwargs)
        else:
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

            total = expected_games(games, n, bots, skill)
            with Progress(TextColumn("measuring"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                          transient=True) as bar:
                task = bar.add_task("measuring", total=total)

                def progress(done):
                    bar.update(task, completed=done, total=max(total, done))

                result = run_all(games, n, seed, bots, skill, progress=progress, **kwargs)
    except KeyboardInterrupt:
        if stop.signum is not None:
            say_stopped(stop, 0, expected_games(games, n, bots, skill))
            raise SystemExit(stop.status)
        echo("interrupted before any game finished", err=True)
        raise SystemExit(130)
    except (RuntimeError, ValueError) as e:
        fail(str(e))
    return result


def finish(out: dict, args, axis=None) -> None:
    """Prints the JSON or the tables, draws the plot, exits 130 if interrupted."""
    if args["plot_path"] is not None and out["results"]:
        plot(out, args["plot_path"], axis)
    if args["as_json"]:
        click.echo(json.dumps(out))
    else:
        table(out)
        if args["plot_path"] is not None:
            echo(f"plot: {args['plot_path']}")
    if out["interrupted"]:
        raise SystemExit(130)


def _cell(entry) -> str:
    if entry is None or not entry.get("n"):
        return "–"
    v = entry["value"]
    if entry["kind"] == "spread":
        return f"{v:.3f} (equal seats p={entry['p_equal']:.3g})"
    ci = entry["ci95"]
    if entry["kind"] == "rate":
        return f"{v:.1%} [{ci[0]:.1%}, {ci[1]:.1%}]"
    text = f"{_number(v)} [{_number(ci[0])}, {_number(ci[1])}]"
    if entry["kind"] == "skill" and "variance_reduction" in entry:
        text += f" (paired: variance {-entry['variance_reduction']:+.0%})"
    return text


def _number(x: float) -> str:
    """Three significant digits, without an exponent for the sizes games have."""
    return f"{x:.0f}" if abs(x) >= 100 else f"{x:.3g}"


def table(out: dict) -> None:
    """The side-by-side table of every measure, with the verdicts that hold after Holm's correction."""
    from rich.table import Table

    # the titles, labels and file names of the games are shown as text (no markup, no escapes)
    console = untrusted_console(file=sys.stdout, width=max(120, 70 + 30 * len(out["results"])))
    first = out["results"][0] if out["results"] else None
    games = ", ".join(f"{r['label']}: {r['games']}" for r in out["results"])
    title = f"{first['game'] if first else ''}: games per file {games}; players {first['players'] if first else ''}"
    if out["interrupted"]:
        title += " (interrupted: the games finished so far)"
    t = Table(title=title, title_justify="left")
    t.add_column("measure")
    for r in out["results"]:
        t.add_column(r["label"])
    t.add_column("significant")
    verdicts: dict = {}
    said = []
    for c in out["comparisons"]:
        if c["significant"]:
            verdicts.setdefault(c["measure"], []).append(f"{c['b']} {c['verdict']}")
            said.append(f"{NAMES[c['measure']]}: {c['b']} {c['verdict']} than {c['a']} ({c['test']}, p={c['p']:.2g})")
    for name, label in NAMES.items():
        if not any(name in r["measures"] for r in out["results"]):
            continue
        verdict = "; ".join(verdicts.get(name, [])) or "–"
        if name == "seat_spread":
            verdict = "tested within each file (p: equal win rates by seat)"
        t.add_row(label, *[_cell(r["measures"].get(name)) for r in out["results"]], verdict)
    for s in range(first["players"] if first else 0):
        t.add_row(f"win rate P{s}", *[_cell(r["seats"][s]) for r in out["results"]], "")
    console.print(t)
    for line in said:
        console.print(f"significant: {line}", soft_wrap=True)
    if out["comparisons"] and not said:
        console.print("no significant difference after Holm–Bonferroni at α = 0.05")
    for r in out["results"]:
        for e in r["restricted"]:
            console.print(f"{r['label']}: restricted to “{e['label']}”: balance {_cell(e)}, "
                          f"win rate {e['win_rate']:.1%} against {e['expected']:.1%} expected", soft_wrap=True)
        rare = [f"{e['label']} (line {e['line']}, chosen {e['hits']} of {e['offered']})" for e in r["rare_options"]]
        if rare:
            console.print(f"{r['label']}: options almost never taken: " + "; ".join(rare), soft_wrap=True)
        never = [f"{e['label']} (line {e['line']})" for e in r["never_offered"]]
        if never:
            console.print(f"{r['label']}: options never offered: " + "; ".join(never), soft_wrap=True)
    if out["until_significant"]:
        said = {"significant": "stopped: a difference became significant",
                "cap": "stopped: the cap of games was reached without a significant difference",
                "interrupted": "stopped: interrupted"}
        console.print(said.get(out["stopped"], "stopped"))
    tests = sorted({c["test"] for c in out["comparisons"]})
    if tests:
        console.print("tests against the first column: " + ", ".join(tests))


def _seat_panel(ax, out: dict) -> None:
    """Win rate by seat, a group of bars per seat and a bar per column, with 95% intervals."""
    results = out["results"]
    players = results[0]["players"]
    width = 0.8 / len(results)
    for k, r in enumerate(results):
        xs = [s + k * width for s in range(players)]
        vals = [e["value"] for e in r["seats"]]
        low = [max(0.0, e["value"] - e["ci95"][0]) for e in r["seats"]]
        high = [max(0.0, e["ci95"][1] - e["value"]) for e in r["seats"]]
        ax.bar(xs, vals, width, yerr=[low, high], capsize=2, label=plot_text(r["label"]))
    ax.axhline(1 / players, color="grey", linestyle="--", linewidth=1)
    ax.set_xticks([s + 0.4 - width / 2 for s in range(players)], [f"P{s}" for s in range(players)])
    ax.set_title("win rate by seat", fontsize=9)
    ax.legend(fontsize=6)


def plot(out: dict, path: str, axis=None) -> None:
    """One figure, a panel per measure: a bar per file, or the measure against the swept option."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    names = [n for n in NAMES if any(n in r["measures"] and r["measures"][n].get("n") and "ci95" in r["measures"][n]
                                     for r in out["results"])]
    cols = 4
    rows = max(1, -(-(len(names) + 1) // cols))
    fig, axes = plt.subplots(rows, cols, figsize=(4 * cols, 3.2 * rows), squeeze=False)
    xs = [r[axis] for r in out["results"]] if axis else list(range(len(out["results"])))
    for ax, name in zip(axes.flat, names):
        entries = [r["measures"].get(name) for r in out["results"]]
        vals = [e["value"] if e else float("nan") for e in entries]
        low = [max(0.0, e["value"] - e["ci95"][0]) if e else 0 for e in entries]
        high = [max(0.0, e["ci95"][1] - e["value"]) if e else 0 for e in entries]
        if axis:
            ax.errorbar(xs, vals, yerr=[low, high], marker="o", capsize=3)
            ax.set_xlabel(plot_text(out.get("option", "value")))
        else:
            ax.bar(xs, vals, yerr=[low, high], capsize=4, color="#4c72b0")
            ax.set_xticks(xs, [plot_text(r["label"]) for r in out["results"]], fontsize=7, rotation=15)
        ax.set_title(NAMES[name], fontsize=9)
    _seat_panel(list(axes.flat)[len(names)], out)
    for ax in list(axes.flat)[len(names) + 1:]:
        ax.axis("off")
    fig.suptitle("95% intervals; " + ", ".join(plot_text(r["label"]) for r in out["results"]), fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    plt.close(fig)
