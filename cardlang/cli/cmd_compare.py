"""`cardlang compare A.cards B.cards …`: the same seeds and bots on every file, measure by measure."""

from __future__ import annotations

import os

import click

from .cmd_common import load_game
from .workbench_view import fail, finish, native_measures, options, parse_bots, run


@click.command("compare")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@options
@click.option("--set", "settings", multiple=True, metavar="NAME=VALUE", help="Set a game option in every file.")
def compare_command(paths, games, players, bot_names, skill_bot, restricted, paired, until_significant, max_games,
                    cap, seed, jobs, cluster, as_json, plot_path, engine, settings) -> None:
    """Measure every rule file on the same seeds and bots, side by side, and say which differences hold.

    Each measure (length, choice, drama, seat fairness, skill; see docs/simulation.md) is shown with
    its 95% interval, and tested against the first file's: Fisher exact for rates, Mann-Whitney U
    for per-game values, a z test for skill, corrected together with Holm–Bonferroni. A single file
    gives its measures alone.
    """
    native_measures(engine)
    loaded = [load_game(p, players, settings) for p in paths]
    if len({g.players for g in loaded}) > 1:
        fail("the files need the same --players")
    bots, skill = parse_bots(bot_names, skill_bot, loaded[0].players)
    labels = _labels(paths)
    args = dict(restricted=restricted, paired=paired, until_significant=until_significant, max_games=max_games,
                cap=cap, jobs=jobs, cluster=cluster, as_json=as_json, plot_path=plot_path)
    out = run(loaded, labels, games, seed, bots, skill, args)
    out["command"] = "compare"
    finish(out, args)


def _labels(paths) -> list:
    """Each file's name, with as much of its folder as tells files of the same name apart."""
    names = [os.path.basename(p) for p in paths]
    if len(set(names)) == len(names):
        return names
    return [os.path.relpath(p) for p in paths]
