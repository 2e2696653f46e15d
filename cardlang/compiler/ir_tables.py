"""The IR's nodes of the table's shared structures: the partnerships' constant tables and the pots.

Part of the IR (`compiler.ir` re-exports every node here, and the engines read them as `ir.X`);
kept in a module of its own for size: each family is lowered by its own module (`lower_pots`).
"""

from __future__ import annotations

from typing import Optional

from ..lang.nodes import node
from .ir_base import Expr, Stmt


# ---------------------------------------------------------------- partnerships
@node
class TeamTable(Expr):
    """An entry of a constant table of the teams, by a seat or a team number: `team of p` (the
    seat's team), `partner of p` (the other seat of its team), a team's seats (`what` "members",
    where a team stands for its players). For none: none, and no seats."""

    what: str  # "team", "partner" or "members"
    table: tuple
    index: Expr


# ------------------------------------------------------------- pots and betting
@node
class PotValue(Expr):
    """What `runtime.pots.READERS[what]` reads of a pot (`runtime.pots.PotSpec`) over `args`
    worked out in turn: the chips in it, a player's contribution, the contenders, whether someone
    is to bet and who, which betting actions are legal, the range of a raise."""

    pot: object
    what: str
    args: tuple


@node
class PotRule(Stmt):
    """`runtime.pots.RULES[what]` on a pot over `args` worked out in turn: "put" (amount, player),
    "start" a betting round (first, blinds, minimum raise, fixed raise, cap), "act" (kind, amount)."""

    pot: object
    what: str
    args: tuple


@node
class PotAward(Stmt):
    """`pay pot to highest p by value`: `anchor` (who takes odd chips first, or none) worked out
    first, then `value` for each contender in seat order with the contender in `slot` (when two or
    more are still in: a lone contender takes the pot without a showdown); then
    `runtime.pots.award` shares out the side pots (`lowest`: the lowest value wins)."""

    pot: object
    anchor: Optional[Expr]
    slot: int
    value: Expr
    lowest: bool
