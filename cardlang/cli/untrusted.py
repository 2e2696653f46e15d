"""Where the commands' output leaves for a terminal: every text in it shown as text.

The commands print texts of rule files, saves and file names (titles, labels, log lines, paths).
Two boundaries make them harmless (`lang.untrusted.visible`; docs/security.md, "Untrusted text"):

- `console()`: the rich console of `play`, `replay`, `compare` and `sweep` (`safe_console.py`):
  no markup, and no control character of a text reaches the terminal.
- `echo()`: `click.echo` of a line of plain output (errors, `simulate`'s tables, `fmt`).

Rich is imported only when a console is made: `simulate` and `check` start without it.
"""

from __future__ import annotations

from typing import Optional

import click

from ..lang.untrusted import visible

__all__ = ["console", "echo", "plot_text", "visible"]


def console(color: Optional[bool] = None, *, ascii_only: bool = False, **kwargs):
    """The `SafeConsole` of a command: colours on (`True`), off (`False`) or if the terminal has them."""
    from ..play.safe_console import SafeConsole

    if color is False:
        kwargs.update(color_system=None, no_color=True)
    elif color is True:
        kwargs["force_terminal"] = True
    if ascii_only:
        kwargs["safe_box"] = True
    return SafeConsole(**kwargs)


def echo(text: str = "", err: bool = False, nl: bool = True, newlines: bool = False) -> None:
    """`click.echo` of one line (or, with `newlines`, several) with every control character of its
    texts made visible (`\\x1b`); no colour is added here."""
    click.echo(visible(text, newlines=newlines), err=err, nl=nl, color=False)


def plot_text(text: str) -> str:
    """A text of a game for a figure's title or axis: visible, and its `$` literal (matplotlib would
    read `$…$` as mathematics, and a malformed formula stops the drawing with a traceback)."""
    return visible(text).replace("$", r"\$")
