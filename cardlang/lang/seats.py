"""Checks of the statements that change who plays: `p sits out` (and, with them, the misuse that the
types alone do not show). Called by the checker, whose scopes and reports it uses."""

from __future__ import annotations

from . import ast


def check_sit_out(checker, st: ast.Eliminate) -> None:
    """`p sits out` in `setup:` does nothing: the first round starts at once and brings everyone back."""
    if checker.current_block == ":setup":
        checker.warn("W003", "`sits out` in `setup` has no effect: a player sits out for the rest of a round, "
                             "and the first round has not started", st.span,
                     help="sit the player out in `round:` (or in a phase it plays), or `eliminate` him for good")


def check_reverse(checker, st: ast.Reverse) -> None:
    """`reverse direction` in a game of at most two players changes nothing: warn."""
    if checker.sym.players[1] <= 2:
        checker.warn("W003", "`reverse direction` has no effect with two players: the next player is the other "
                             "one either way", st.span,
                     help="remove it, or allow more players (`players 2..6`)")


def check_set_direction(checker, st: ast.SetDirection) -> None:
    """`direction left|right` in the rules: a direction (E025, as the declaration's); with at most two
    players it changes nothing: warn, as for `reverse direction`."""
    if st.direction not in ("left", "right"):
        checker.error("E025", f"`{st.direction}` is not a direction", st.value_span,
                      help="play moves `left` (clockwise) or `right` (counterclockwise)")
    elif checker.sym.players[1] <= 2:
        checker.warn("W003", f"`direction {st.direction}` has no effect with two players: the next player is the "
                             "other one either way", st.span,
                     help="remove it, or allow more players (`players 2..6`)")


def check_list_option(checker, d: ast.OptionDecl) -> None:
    """A list option (`option stacks = [20, 30, 40]`): numbers, each in its range if it has one."""
    if d.choices is not None:
        checker.error("E012", f"option `{d.name}` is a list: give its items a range (`in 1..100`), not choices",
                      d.span)
    elif d.low is not None:
        if d.high < d.low:
            checker.error("E016", f"option `{d.name}` has an empty range {d.low}..{d.high}", d.span,
                          help=f"write the smallest value first: `in {d.high}..{d.low}`")
        else:
            outside = [v for v in d.default if not d.low <= v <= d.high]
            if outside:
                checker.error("E015", f"the default of option `{d.name}` holds {outside[0]}, outside {d.low}..{d.high}",
                              d.default_span, help=f"give each item a value from {d.low} to {d.high}")
