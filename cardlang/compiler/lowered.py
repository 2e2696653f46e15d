"""A checked game lowered once, for a player count and options: the layout of its state and its IR,
which either engine takes (`reference.reference_program`, `emit.build.emit_program`), and which a
tool reads from a loaded game (`game.program.lowered`) rather than lowering it again."""

from __future__ import annotations

import attrs

from ..lang.check import Symbols
from ..runtime import engine
from . import ir
from .layout import Layout, build_layout, choose_deck
from .lower import lower, lower_expression
from .reference_expr import Evaluator


@attrs.frozen
class LoweredGame:
    """A game as both engines take it: its `Layout`, its IR, and the caps on one game (its own,
    from its `limit` lines, else the engine's defaults)."""

    layout: Layout
    ir: ir.Program
    max_decisions: int
    max_rounds: int


def lower_game(symbols: Symbols, players: int, options: dict) -> LoweredGame:
    """The deck chosen, the state laid out and the rules lowered, once, for `players` and `options`."""
    constants = Evaluator(None)  # (a deck's condition reads only options and the player count)
    deck = choose_deck(symbols, lambda cond: constants.eval(None, lower_expression(symbols, players, options, cond)),
                       options)
    layout = build_layout(symbols, players, deck)
    return LoweredGame(layout, lower(symbols, players, options, layout),
                       symbols.limits.get("decisions", engine.MAX_DECISIONS),
                       symbols.limits.get("rounds", engine.MAX_ROUNDS))
