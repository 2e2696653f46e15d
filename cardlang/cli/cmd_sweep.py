"""`cardlang sweep FILE --set NAME=LOW..HIGH`: every measure against the values of one option."""

from __future__ import annotations

import click

from .cmd_common import load_game
from .workbench_view import fail, finish, native_measures, options, parse_bots, run

MAX_VALUES = 50


def parse_range(settings, step: int) -> tuple:
    """(option name, its values, the other settings) from the `--set` values; one range exactly."""
    ranges, fixed = [], []
    for item in settings:
        name, sep, value = item.partition("=")
        if sep and ".." in value:
            ranges.append((name.strip(), value.strip()))
        else:
            fixed.append(item)
    if len(ranges) != 1:
        fail("give exactly one --set NAME=LOW..HIGH to sweep" if not ranges else "sweep one option at a time")
    name, text = ranges[0]
    low, _, high = text.partition("..")
    try:
        low_value, high_value = int(low), int(high)
    except ValueError:
        fail(f"--set {name}={text}: LOW and HIGH must be whole numbers")
    if not name:
        fail(f"--set ={text}: name the option")
    if low_value > high_value:
        fail(f"--set {name}={text}: LOW is above HIGH")
    if step < 1:
        fail("--step must be at least 1")
    count = (high_value - low_value) // step + 1  # counted before any list is built: HIGH may be huge
    if count > MAX_VALUES:
        fail(f"--set {name}={text}: {count} values, at most {MAX_VALUES} (use --step)")
    return name, list(range(low_value, high_value + 1, step)), fixed


@click.command("sweep")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@options
@click.option("--set", "settings", multiple=True, required=True, metavar="NAME=LOW..HIGH",
              help="The option to sweep (and any other NAME=VALUE to fix).")
@click.option("--step", type=click.IntRange(-10**9, 10**9), default=1, show_default=True, help="Step between the option's values.")
def sweep_command(path, games, players, bot_names, skill_bot, restricted, paired, until_significant, max_games, cap,
                  seed, jobs, cluster, as_json, plot_path, engine, settings, step) -> None:
    """Measure one rule file at every value of an option, on the same seeds and bots.

    Each value is tested against the lowest, as `compare` does (Holm–Bonferroni over the whole
    table); the plot draws each measure against the option.
    """
    name, values, fixed = parse_range(settings, step)
    native_measures(engine)
    loaded = [load_game(path, players, list(fixed) + [f"{name}={v}"]) for v in values]
    bots, skill = parse_bots(bot_names, skill_bot, loaded[0].players)
    labels = [f"{name}={v}" for v in values]
    args = dict(restricted=restricted, paired=paired, until_significant=until_significant, max_games=max_games,
                cap=cap, jobs=jobs, cluster=cluster, as_json=as_json, plot_path=plot_path)
    out = run(loaded, labels, games, seed, bots, skill, args)
    out.update(command="sweep", option=name, values=values)
    for r, v in zip(out["results"], values):
        r["value"] = v
    finish(out, args, axis="value")
