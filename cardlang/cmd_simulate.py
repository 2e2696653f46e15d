"""`cardlang simulate FILE -n GAMES`: bots in every seat, statistics per seat."""

from __future__ import annotations

import json
import sys

import click

from .cmd_common import load_game
from .simulate import simulate


@click.command("simulate")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("-n", "--games", type=click.IntRange(min=1), default=100, show_default=True, help="Number of games.")
@click.option("--players", type=int, default=None, help="Number of players (default: the smallest allowed).")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the first game; game i uses seed+i.")
@click.option("--set", "settings", multiple=True, metavar="NAME=VALUE", help="Set a game option (repeatable).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of a table.")
def simulate_command(path, games, players, seed, settings, as_json) -> None:
    """Play GAMES seeded games with random bots in every seat and print per-seat statistics.

    A shared win counts for every winner. The same seed and arguments give the same results.
    """
    game = load_game(path, players, settings)
    stats = _run(game, games, seed, show_progress=not as_json and sys.stderr.isatty())
    if as_json:
        click.echo(json.dumps(stats))
        return
    click.echo(f"{stats['game']}: {stats['games']} games, {stats['players']} players")
    click.echo(f"{'seat':>4}  {'wins':>6}  {'win rate':>8}")
    for s in stats["seats"]:
        click.echo(f"{'P%d' % s['seat']:>4}  {s['wins']:>6}  {s['win_rate']:>8.1%}")
    click.echo(f"mean decisions per game: {stats['mean_decisions']:.1f}")
    click.echo(f"games per second: {stats['games_per_second']:.1f}")


def _run(game, games, seed, show_progress):
    if not show_progress:
        return simulate(game, games, seed)
    from rich.progress import Progress

    with Progress(transient=True) as bar:
        task = bar.add_task("simulating", total=games)
        return simulate(game, games, seed, progress=lambda i: bar.update(task, completed=i))
