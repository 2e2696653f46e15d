"""`cardlang replay SAVE`: a saved game as a readable transcript, from one seat or omniscient."""

from __future__ import annotations

import click
from rich.console import Console

from .cmd_play import TAIL_SHOWN, terminal_shows_symbols
from ..play.replay import replay_lines
from .cmd_common import exit_on_rule_error
from ..play.savegame import SaveError, load_saved
from ..runtime.engine import RuleError
from .table_view import Style, rich_line


@click.command("replay")
@click.argument("save_path", metavar="SAVE", type=click.Path(dir_okay=False))
@click.option("--seat", type=int, default=None,
              help="Show the game as this seat saw it (default: the seat the person played).")
@click.option("--all", "omniscient", is_flag=True, help="Show every card (default for bots-only and hot-seat games).")
@click.option("--rules", "rules_path", type=click.Path(exists=True, dir_okay=False), default=None,
              help="The game's rules file, if it has moved since the game was saved.")
@click.option("--ascii", "use_ascii", is_flag=True, help="Suits as letters (10h, As).")
@click.option("--color/--no-color", "color", default=None, help="Colours on or off (default: if the terminal has them).")
def replay_command(save_path, seat, omniscient, rules_path, use_ascii, color) -> None:
    """Print a game saved with `cardlang play --save SAVE` as a transcript.

    Seen from one seat (--seat K) the cards that seat did not know are written `a card`, and each of
    its decisions shows what it held and could choose; --all shows every card. A game whose rules
    file changed since it was saved is refused.
    """
    if seat is not None and omniscient:
        click.echo("error: give --seat K or --all, not both", err=True)
        raise SystemExit(2)
    style = Style(ascii=use_ascii or not terminal_shows_symbols())
    try:
        game, _, data = load_saved(save_path, rules_path, replay=False)
        if seat is None and not omniscient:
            humans = data.get("humans") or []
            seat = humans[0] if len(humans) == 1 else None
        if seat is not None and not 0 <= seat < game.players:
            click.echo(f"error: --seat must be from 0 to {game.players - 1}, not {seat}", err=True)
            raise SystemExit(2)
        lines = replay_lines(game, data, seat, sep=style.sep)
    except SaveError as e:
        click.echo(f"error: {e}", err=True)
        raise SystemExit(1)
    except RuleError as e:  # the saved game stops on a rule error: the end of its transcript, then the error
        lines = list(getattr(e, "transcript", ()))
        if len(lines) > TAIL_SHOWN:  # a game a rule stopped may have run away: its last lines tell why
            lines = [f"… {len(lines) - TAIL_SHOWN:,} lines before these"] + lines[-TAIL_SHOWN:]
        _print(lines, style, color)
        exit_on_rule_error(e)
    except Exception as e:  # an action the rules no longer allow, a rule error while replaying
        click.echo(f"error: {save_path} cannot be replayed: {e}", err=True)
        raise SystemExit(1)
    _print(lines, style, color)


def _print(lines, style: Style, color) -> None:
    kwargs = dict(highlight=False, emoji=False, markup=False)
    if color is False:
        kwargs.update(color_system=None, no_color=True)
    elif color is True:
        kwargs["force_terminal"] = True
    console = Console(**kwargs)
    for line in lines:
        console.print(rich_line(line, style), soft_wrap=True)
