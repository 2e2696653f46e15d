"""What the commands share: parsing `--set NAME=VALUE`, loading a game with one-line errors."""

from __future__ import annotations

import sys
from typing import Optional

import click

from ..lang.diagnostics import CardlangError, render_text
from ..runtime.engine import Game, RuleError
from ..load import load


def parse_settings(values) -> dict:
    """`--set tokens=3 --set blind=true` → {"tokens": "3", "blind": "true"} (converted by the game)."""
    out = {}
    for item in values or ():
        if "=" not in item:
            raise click.BadParameter(f"`{item}` is not NAME=VALUE", param_hint="--set")
        name, value = item.split("=", 1)
        out[name.strip()] = value.strip()
    return out


def load_game(path: str, players: Optional[int], settings) -> Game:
    """Loads a game for a command; a bad file prints its diagnostics, a bad count or option one line."""
    try:
        return load(path, players=players, options=parse_settings(settings))
    except CardlangError as e:
        if e.diagnostics:
            sources: dict = {}
            for d in e.diagnostics:
                click.echo(render_text(d, sources), err=True)
            raise SystemExit(1)
        click.echo(f"error: {e.message}", err=True)
        raise SystemExit(2)
    except RuleError as e:  # a rule worked out as the game loads (which deck, at this player count)
        exit_on_rule_error(e)


def exit_on_rule_error(error: RuleError, *notes: str):
    """Ends a command on a rule error: its one line (place, message, seed, move, `notes`), status 1."""
    click.echo(error.report(*notes), err=True)
    raise SystemExit(1)
