"""`cardlang replay SAVE`: a saved game as a readable transcript, one seat's view at a time or omniscient.

The default view is the seat the person played; a hot-seat game is shown seat by seat (every
seat's view in turn once the game is over, one `--seat` while it is in progress); a bots-only game
is shown whole. Every card (`--all`) of a game still in progress is shown only with `--spoilers`.
Exit status: 1 for a save that cannot be used (missing, malformed, edited, rules changed), 2 for a
command line that asks for what cannot be shown.
"""

from __future__ import annotations

import sys

import click
from rich.console import Console
from rich.text import Text

from ..play.replay import replay_lines
from ..play.save_schema import printable
from .cmd_common import TAIL_SHOWN, exit_on_rule_error
from ..play.savegame import SaveError, load_saved_or_stop
from ..runtime.engine import RuleError
from ..play.table_view import Style, rich_line, terminal_shows_symbols
from . import untrusted


@click.command("replay")
@click.argument("save_path", metavar="SAVE", type=click.Path(dir_okay=False))
@click.option("--seat", type=int, default=None,
              help="Show the game as this seat saw it (default: the seat the person played).")
@click.option("--all", "omniscient", is_flag=True,
              help="Show every card (default for bots-only games); a game in progress needs --spoilers too.")
@click.option("--spoilers", is_flag=True, help="With --all: show every card of a game still in progress.")
@click.option("--rules", "rules_path", type=click.Path(exists=True, dir_okay=False), default=None,
              help="The game's rules file, if it has moved since the game was saved.")
@click.option("--ascii", "use_ascii", is_flag=True, help="Suits as letters (10h, As).")
@click.option("--color/--no-color", "color", default=None, help="Colours on or off (default: if the terminal has them).")
def replay_command(save_path, seat, omniscient, spoilers, rules_path, use_ascii, color) -> None:
    """Print a game saved with `cardlang play --save SAVE` as a transcript.

    Seen from one seat (--seat K) the cards that seat did not know are written `a card`, and each of
    its decisions shows what it held and could choose. A hot-seat game is shown one seat after the
    other once it is over (give --seat K while it is in progress). --all shows every card, and of a
    game still in progress only with --spoilers. A save that was edited, or whose rules file changed
    since it was saved, is refused.
    """
    if seat is not None and (omniscient or spoilers):
        _fail("give --seat K or --all, not both")
    style = Style(ascii=use_ascii or not terminal_shows_symbols())
    try:  # a saved game that stopped on a rule error: each view up to there, then the error
        game, state, data, error = load_saved_or_stop(save_path, rules_path)
    except SaveError as e:
        _fail(str(e), status=1)
    except RuleError as e:  # before its first decision: nothing to show but the error
        exit_on_rule_error(e)
    stopped = error is not None
    if seat is not None and not 0 <= seat < game.players:
        _fail(f"--seat must be from 0 to {game.players - 1}, not {seat}")
    over = stopped or state.is_terminal()
    if seat is not None:
        seats = [seat]
    elif omniscient or spoilers or not data.humans:
        seats = [None]
    elif len(data.humans) == 1:
        seats = list(data.humans)
    elif over:
        seats = sorted(data.humans)  # seat by seat, each under its heading
    else:
        people = ", ".join(f"P{s}" for s in sorted(data.humans))
        _fail(f"{printable(save_path)} is a game in progress played by {people} at one terminal: give --seat K to "
              "see one seat's view (each seat's view shows that seat's hidden cards)")
    if seats == [None] and not over and not spoilers:
        _fail(f"{printable(save_path)} is a game still in progress: --all would show every hidden card of it "
              "(and its seed); add --spoilers to see them anyway, or give --seat K for one seat's view")
    console = _console(color)
    for n, view in enumerate(seats):
        if len(seats) > 1:
            _heading(console, view, first=n == 0)
        try:
            lines = replay_lines(game, data, view, sep=style.sep)
        except RuleError as e:  # the end of this view's transcript (a runaway game's last lines), then the error
            lines = list(getattr(e, "transcript", ()))
            if len(lines) > TAIL_SHOWN:
                lines = [f"… {len(lines) - TAIL_SHOWN:,} lines before these"] + lines[-TAIL_SHOWN:]
            error = e
        else:
            error = None
        for line in lines:
            console.print(rich_line(line, style), soft_wrap=True)
        if error is not None and n == len(seats) - 1:
            exit_on_rule_error(error)


def _heading(console: Console, seat: int, first: bool) -> None:
    """A heading before each seat's view; at a terminal, a pause and a clean screen between seats."""
    at_terminal = console.is_terminal and sys.stdin.isatty()
    if not first:
        if at_terminal:
            console.print(Text(f"Press Enter for P{seat}'s view ", style="bold cyan"), end="")
            try:
                input()
            except EOFError:
                raise SystemExit(0) from None
            console.clear()
        else:
            console.print("")
    console.print(Text(f"=== P{seat}'s view ===", style="bold"))


def _console(color) -> Console:
    return untrusted.console(color)  # every text of the save and its game shown as text


def _fail(message: str, status: int = 2):
    untrusted.echo(f"error: {message}", err=True)
    raise SystemExit(status)
