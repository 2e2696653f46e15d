"""Checks of the statements that change who plays: `p sits out` (and, with them, the misuse that the
types alone do not show). Called by the checker, whose scopes and reports it uses."""

from __future__ import annotations

from . import ast


def check_sit_out(checker, st: ast.Eliminate) -> None:
    """`p sits out` in `setup:` does nothing: the first round starts at once and brings everyone back."""
    if checker.current_block == "setup":
        checker.warn("W003", "`sits out` in `setup` has no effect: a player sits out for the rest of a round, "
                             "and the first round has not started", st.span,
                     help="sit the player out in `round:` (or in a phase it plays), or `eliminate` him for good")
