"""`cardlang simulate FILE -n GAMES`: bots in every seat, statistics per seat, rule coverage."""

from __future__ import annotations

import json
import sys

import click

from ..play.bots import BotNameError, make_bot, parse_bot
from .cmd_common import (MAX_SEATS, exit_on_rule_error, games_type, jobs_type, load_game, say_stopped, seed_type,
                         stopping_on_signals)
from ..runtime.engine import RuleError
from ..play.simulate import cpu_count, simulate
from . import untrusted


@click.command("simulate")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("-n", "--games", type=games_type(), default=100, show_default=True, help="Number of games.")
@click.option("--players", type=click.IntRange(1, MAX_SEATS), default=None, help="Number of players (default: the smallest allowed).")
@click.option("--bots", "bot_names", default="random", show_default=True, metavar="BOT[,BOT…]",
              help="One bot for every seat, or one per seat: random, greedy, ismcts, each maybe with a "
                   "budget (ismcts:200 iterations per decision; ismcts:0.5s seconds, not reproducible).")
@click.option("--seed", type=seed_type(), default=0, show_default=True, help="Seed of the first game; game i uses seed+i.")
@click.option("--jobs", type=jobs_type(), default=None, help="Local processes (default: every core).")
@click.option("--cluster", metavar="ADDRESS", default=None,
              help="Run the batches on Ray: `local` starts a local instance, else a cluster's address "
                   "(needs cardlang[ray]; the game files must be at the same path on every machine).")
@click.option("--set", "settings", multiple=True, metavar="NAME=VALUE", help="Set a game option (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of tables.")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Draw win rates with their 95% intervals and game lengths to this PNG (needs cardlang[plot]).")
@click.option("--engine", type=click.Choice(["compiled", "native"]), default="compiled", show_default=True,
              help="native: random-bot games in machine code (needs cardlang[native]; no rule coverage or "
                   "action counts); a game it cannot run says so in one line and runs compiled.")
@click.option("--verbose", is_flag=True, help="Also say how long the native engine took to compile or to start.")
def simulate_command(path, games, players, bot_names, seed, jobs, cluster, settings, as_json, plot_path, engine,
                     verbose) -> None:
    """Play GAMES seeded games with bots in every seat and print what a designer needs to know.

    Per seat and per position from the first player to act: wins, win rate with a 95% interval,
    scores, and the mean payoff with its 95% interval when the game declares one; ties; game length; how often each action was taken; and rule coverage: how often every
    branch of every `if` and every alternative of every `chooses` was reached, with the rules never
    reached. A shared win counts for every winner. The same seed and arguments give the same
    results whatever --jobs or --cluster; Ctrl-C stops and reports the games finished so far.
    """
    game = load_game(path, players, settings, engine=engine)
    if verbose and getattr(game, "native", None) is not None:
        native = game.native
        what = "cached start-up" if native.cached else "first compile"
        click.echo(f"native engine: {what} {native.start_seconds:.2f} s (code generated in "
                   f"{native.generate_seconds:.2f} s)", err=True)
    bots = [b.strip() for b in bot_names.split(",") if b.strip()]
    try:
        for b in bots:
            make_bot(b)
    except BotNameError as e:
        raise click.BadParameter(str(e), param_hint="--bots")
    if len(bots) not in (1, game.players):
        raise click.BadParameter(f"give one bot for every seat or {game.players} (one per seat), not {len(bots)}",
                                 param_hint="--bots")
    if any((parse_bot(b)[1] or "").strip().endswith("s") for b in bots):
        click.echo("note: a budget in seconds depends on the machine's speed: these results are not reproducible",
                   err=True)
    if plot_path is not None:
        _check_plotting()
    jobs = jobs or cpu_count()
    show_progress = not as_json and sys.stderr.isatty()
    with stopping_on_signals() as stop:  # SIGINT, SIGTERM, SIGHUP: the run and its workers stop at once
        try:
            stats = _run(game, games, seed, bots, jobs, cluster, show_progress)
        except RuleError as e:  # a game broke a rule: the run stops, naming that game's seed
            exit_on_rule_error(e)
        except RuntimeError as e:
            untrusted.echo(f"error: {e}", err=True)
            raise SystemExit(2)
        except KeyboardInterrupt:  # before the first game was under way
            say_stopped(stop, 0, games) if stop.signum else click.echo("interrupted before any game finished",
                                                                         err=True)
            raise SystemExit(stop.status if stop.signum else 130)
    if stop.signum is not None:
        say_stopped(stop, stats["games"], games)
        if not stop.by_request():  # SIGTERM or SIGHUP: no tables (the terminal may be gone)
            raise SystemExit(stop.status)
    if plot_path is not None and stats["games"]:
        from .plots import plot_simulation

        plot_simulation(stats, plot_path)
    if as_json:
        click.echo(json.dumps(stats))
    else:
        _print_tables(stats)
        if plot_path is not None:
            untrusted.echo(f"plot: {plot_path}")
    if stats["interrupted"]:
        raise SystemExit(130)


def _check_plotting() -> None:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise click.UsageError("--plot needs matplotlib: pip install 'cardlang[plot]'")


def _run(game, games, seed, bots, jobs, cluster, show_progress):
    if not show_progress:
        return simulate(game, games, seed, bots, jobs=jobs, cluster=cluster)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    columns = (TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, transient=True) as bar:
        task = bar.add_task("simulating", total=games)
        return simulate(game, games, seed, bots, jobs=jobs, cluster=cluster,
                        progress=lambda done: bar.update(task, completed=done))


def _interval(ci) -> str:
    return f"{ci[0]:6.1%} – {ci[1]:6.1%}"


def _print_tables(stats) -> None:
    echo = untrusted.echo  # titles, labels and file names of the game shown as text
    head = f"{stats['game']}: {stats['games']} games, {stats['players']} players"
    if stats.get("score_order"):
        head += f" (the {stats['score_order']} score wins)"
    if stats["interrupted"]:
        head += " (interrupted: the games finished so far)"
    echo(head)
    if not stats.get("decides", True):
        _print_chance_tables(stats)
        return
    payoff = stats.get("payoff", False)  # a declared payoff: its mean and interval beside the win rate
    extra = f"  {'mean payoff':>11}  {'95% interval':>19}" if payoff else ""
    echo(f"{'seat':>4}  {'bot':<12} {'wins':>6}  {'win rate':>8}  {'95% interval':>17}  {'mean score':>10}  {'sd':>7}"
         + extra)

    def payoff_columns(s) -> str:
        if not payoff:
            return ""
        low, high = s["payoff_ci95"]
        return f"  {s['mean_payoff']:>11.2f}  {f'{low:.2f} – {high:.2f}':>19}"

    for s in stats["seats"]:
        echo(f"{'P%d' % s['seat']:>4}  {s['bot']:<12} {s['wins']:>6}  {s['win_rate']:>8.1%}  "
             f"{_interval(s['win_rate_ci95']):>17}  {s['mean_score']:>10.2f}  {s['score_sd']:>7.2f}"
             + payoff_columns(s))
    echo("by position from the first player to act (0 = first, then in the order of play):")
    for s in stats["positions"]:
        echo(f"{s['position']:>4}  {'':<12} {s['wins']:>6}  {s['win_rate']:>8.1%}  "
             f"{_interval(s['win_rate_ci95']):>17}  {s['mean_score']:>10.2f}  {s['score_sd']:>7.2f}"
             + payoff_columns(s))
    ties = stats["ties"]
    echo(f"shared wins: {ties['shared_wins']}, games without a winner: {ties['no_winner']}")
    _print_teams(stats, payoff_columns)
    d, r = stats["decisions"], stats["rounds"]
    echo(f"mean decisions per game: {stats['mean_decisions']:.1f} (sd {d['sd']:.1f}, {d['min']}–{d['max']}); "
         f"rounds: {r['mean']:.1f} (sd {r['sd']:.1f}, {r['min']}–{r['max']})")
    actions = stats["actions"]
    if actions:
        echo("actions taken (most frequent first):")
        for a in actions[:15]:
            echo(f"  {a['share']:6.1%}  {a['count']:>8}  {a['label']}")
        if len(actions) > 15:
            echo(f"  … and {len(actions) - 15} more (see --json)")
    _print_discarded(stats)
    _print_coverage(stats)
    echo(f"games per second: {stats['games_per_second']:.1f}")


def _print_discarded(stats) -> None:
    """The worlds the bots imagined and discarded as impossible (a rule broken, a cap met), if any,
    and those that fit only the round's past (no world of the whole past found), if any."""
    f = stats.get("fallback_worlds")
    if f and f["fallbacks"]:
        untrusted.echo(f"imagined worlds that fit the round's past only (no world of the whole past found): "
                       f"{f['fallbacks']} of {f['worlds']}")
    d = stats.get("discarded_worlds")
    if not d or not d["worlds"]:
        return
    echo = untrusted.echo  # a reason quotes a rule error: shown as text
    echo(f"imagined worlds discarded by the bots (impossible: a rule broken or a cap met there): {d['worlds']} "
         f"in {d['games']} of {stats['games']} games")
    for r in d["reasons"][:3]:
        echo(f"  {r['count']:>8}  {r['reason']}")


def _print_teams(stats, payoff_columns) -> None:
    """Partnerships: each team's wins (a game its players won together counts once), score, payoff."""
    if "teams" not in stats:
        return
    echo = untrusted.echo  # titles, labels and file names of the game shown as text
    echo("by team (a game won by a team counts once):")
    for t in stats["teams"]:
        seats = " & ".join("P%d" % s for s in t["seats"])
        echo(f"{'T%d' % t['team']:>4}  {seats:<12} {t['wins']:>6}  {t['win_rate']:>8.1%}  "
             f"{_interval(t['win_rate_ci95']):>17}  {t['mean_score']:>10.2f}  {t['score_sd']:>7.2f}"
             + payoff_columns(t))
    ties = stats["team_ties"]
    echo(f"games won by several teams: {ties['shared_wins']}, games without a winner: {ties['no_winner']}")


def _print_chance_tables(stats) -> None:
    """A game nobody decides: no bots, positions, decisions or actions, only what chance does."""
    echo = untrusted.echo  # titles, labels and file names of the game shown as text
    echo("nobody decides in this game: chance alone plays it (no bots, decisions or actions to show)")
    echo(f"{'seat':>4}  {'wins':>6}  {'win rate':>8}  {'95% interval':>17}  {'mean score':>10}  {'sd':>7}")
    for s in stats["seats"]:
        echo(f"{'P%d' % s['seat']:>4}  {s['wins']:>6}  {s['win_rate']:>8.1%}  "
             f"{_interval(s['win_rate_ci95']):>17}  {s['mean_score']:>10.2f}  {s['score_sd']:>7.2f}")
    ties, r = stats["ties"], stats["rounds"]
    echo(f"shared wins: {ties['shared_wins']}, games without a winner: {ties['no_winner']}")
    echo(f"rounds per game: {r['mean']:.1f} (sd {r['sd']:.1f}, {r['min']}–{r['max']})")
    _print_discarded(stats)
    _print_coverage(stats)
    echo(f"games per second: {stats['games_per_second']:.1f}")


def _print_coverage(stats) -> None:
    echo = untrusted.echo  # titles, labels and file names of the game shown as text
    if "coverage" in stats:
        cov = stats["coverage"]
        reached = sum(1 for e in cov if e["hits"])
        echo(f"rule coverage: {reached} of {len(cov)} rules reached")
        for e in stats["never_reached"]:
            offered = f" (offered {e['offered']} times, never chosen)" if e.get("offered") else ""
            echo(f"  never reached: {e['file']}:{e['line']}: {e['kind']}: {e['label']}{offered}")
        for e in cov:  # (an alternative of a card and a pile: reached; a pile of it never taken is a detail)
            never = [str(p["pile"]) for p in e.get("piles", ()) if not p["hits"]]
            if e["hits"] and never:
                echo(f"  detail: {e['file']}:{e['line']}: {e['label']}: pile {', '.join(never)} never taken")
        _print_betting(cov)


def _print_betting(cov) -> None:
    """Each betting round with its parts, one line each: blinds, decisions, all-ins, wins by folds."""
    echo = untrusted.echo  # titles, labels and file names of the game shown as text
    for e in cov:
        if e["kind"] != "bets":
            continue
        echo(f"  betting round {e['file']}:{e['line']}: {e['label']}: begun {e['hits']} times")
        for part in e["parts"]:
            offered = f" of {part['offered']} offered" if "offered" in part else ""
            echo(f"    {part['part']:<14} {part['hits']:>8}{offered}")
