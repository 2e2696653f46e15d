"""Games nobody decides (pure chance): whether any player of a game ever chooses, for the screens
and tables that only make sense with decisions (`play` steps such a game, `simulate` leaves out
its bots, positions, decisions and actions)."""

from __future__ import annotations

from ..lang import ast
from ..lang.graph import contains


def decides(symbols) -> bool:
    """Whether any rule of a checked game (its `Symbols`) is a `chooses` (a game without one is
    pure chance)."""
    s = symbols
    return any(contains(block.body, (ast.Choose, ast.Betting))
               for block in (s.setup, s.round, *s.phases.values()) if block is not None)
