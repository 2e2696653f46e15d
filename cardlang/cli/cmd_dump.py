"""`cardlang dump FILE`: the program the compiled engine runs for a rule file, to read."""

from __future__ import annotations

import click

from .cmd_common import load_game
from .untrusted import echo


@click.command("dump")
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.option("--players", type=click.IntRange(1, 1000), default=None, help="Seats (default: the fewest the game allows).")
@click.option("--ir", "what", flag_value="ir", help="The lowered IR, statement by statement.")
@click.option("--ops", "what", flag_value="ops", default=True, help="The op graph, each op with its Python (the default).")
@click.option("--python", "what", flag_value="python", help="Every unit of generated Python, after the constants it reads.")
@click.option("--passes", default=None, metavar="LIST",
              help='The passes that run, as `CARDLANG_PASSES` takes them: "-fusion,-chaining", "paste", "none" '
                   "(default: all; docs/engine.md).")
@click.option("--set", "settings", multiple=True, metavar="NAME=VALUE", help="Set a game option.")
def dump_command(path, players, what, passes, settings) -> None:
    """Print the program the compiled engine runs for a rule file: every op compiled, each
    statement under a `# file:line` comment, slots, locals and constants named after the rules."""
    from ..compiler.emit import listing

    game = load_game(path, players, settings, passes=passes)
    show = {"ir": listing.ir_listing, "ops": listing.ops_listing, "python": listing.python_listing}[what]
    echo(show(game.program), newlines=True, nl=False)
