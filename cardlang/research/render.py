"""A seat's view drawn as text (`render_mode="ansi"` of the research environments): the play screen's table."""

from __future__ import annotations

import io

from ..play.safe_console import SafeConsole
from ..play.table_view import Layout, Style, render_table

WIDTH = 100  # columns of the text a render returns


def ansi(game, view, layout: Layout = None) -> str:
    """The table as `view`'s seat sees it, as plain text (the last log lines under it)."""
    obs = view.observation()
    out = io.StringIO()
    # a render is printed at a terminal: the game's texts in it are shown as text (play/safe_console.py),
    # without colours (as `cli.untrusted.console(False)` makes it)
    console = SafeConsole(color_system=None, no_color=True, file=out, width=WIDTH, force_terminal=False,
                          legacy_windows=False)
    console.print(render_table(obs, layout or Layout.of(game), Style(), events=obs["log"][-8:],
                               viewer=view.seat))
    return out.getvalue()
