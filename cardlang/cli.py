"""The `cardlang` command: check rule files, play at the terminal, simulate many games."""

from __future__ import annotations

import click

from .cmd_check import check_command
from .cmd_play import play_command
from .cmd_replay import replay_command
from .cmd_simulate import simulate_command


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="cardlang")
def main() -> None:
    """cardlang: card games written as rule files (`.cards`), checked like code, played and simulated.

    \b
    Examples:
      cardlang check games/*.cards
      cardlang play games/GAME.cards --players 5
      cardlang play games/GAME.cards --save game.json; cardlang replay game.json
      cardlang simulate games/GAME.cards -n 1000 --players 7
    """


main.add_command(check_command)
main.add_command(play_command)
main.add_command(replay_command)
main.add_command(simulate_command)

if __name__ == "__main__":  # pragma: no cover
    main()
