"""The `cardlang` command: check rule files, play at the terminal, simulate many games."""

from __future__ import annotations

import importlib

import click


class _LazyGroup(click.Group):
    """Imports a command's module only when that command runs (or help lists it): `check` starts fast."""

    LAZY = {
        "check": (".cmd_check", "check_command"),
        "fmt": (".cmd_fmt", "fmt_command"),
        "lsp": (".cmd_lsp", "lsp_command"),
        "compare": (".cmd_compare", "compare_command"),
        "play": (".cmd_play", "play_command"),
        "replay": (".cmd_replay", "replay_command"),
        "serve": (".cmd_serve", "serve_command"),
        "simulate": (".cmd_simulate", "simulate_command"),
        "sweep": (".cmd_sweep", "sweep_command"),
    }

    def list_commands(self, ctx):
        return sorted(set(super().list_commands(ctx)) | set(self.LAZY))

    LOADS_RULES = ("play", "simulate")  # commands that load a rule file by path: they take `--root DIR`

    def get_command(self, ctx, name):
        if name in self.LAZY and name not in self.commands:
            module, attr = self.LAZY[name]
            command = getattr(importlib.import_module(module, __package__), attr)
            if name in self.LOADS_RULES and not any(p.name == "root" for p in command.params):
                from .cmd_common import root_option

                command.params.append(root_option())
            self.add_command(command, name)
        return super().get_command(ctx, name)

    def invoke(self, ctx):
        """Runs the command; click's own one-line errors (a path that does not exist, a bad option
        value) quote what was typed or found on disk, shown as text (docs/security.md)."""
        try:
            return super().invoke(ctx)
        except click.ClickException as e:
            from ..lang.untrusted import visible

            e.message = visible(e.message, newlines=True)
            raise


@click.group(cls=_LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="cardlang")
def main() -> None:
    """cardlang: card games written as rule files (`.cards`), checked like code, played and simulated.

    \b
    Examples:
      cardlang check games/*.cards
      cardlang play games/GAME.cards --players 5
      cardlang play games/GAME.cards --save game.json; cardlang replay game.json
      cardlang simulate games/GAME.cards -n 1000 --players 7
      cardlang serve games/
    """



if __name__ == "__main__":  # pragma: no cover
    main()
