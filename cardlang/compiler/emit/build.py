"""Stage 4 of the compiled engine: a checked game lowered, laid out as an op graph, rewritten by
the passes and written as a `Program` (see the package's docstring)."""

from __future__ import annotations

from ...lang.check import Symbols
from ...runtime import engine
from .. import passes as passes_
from ..layout import build_layout, choose_deck
from ..lower import lower, lower_expression
from ..payoff import payoff_rule
from ..reference_expr import Evaluator
from .graph import build
from .program import Program


def emit_program(symbols: Symbols, players: int, options: dict, counting: bool = False, passes=None) -> Program:
    """A checked game compiled for a player count and options; `passes`: which passes run (see
    `compiler.passes.select`); with `counting`, its code counts each rule point it reaches in
    `Program.hits` and each alternative offered in `Program.offered`."""
    names = passes_.select(passes)
    constants = Evaluator(None)
    deck = choose_deck(symbols, lambda cond: constants.eval(None, lower_expression(symbols, players, options, cond)),
                       options)
    layout = build_layout(symbols, players, deck)
    lowered = lower(symbols, players, options, layout)
    program = Program(layout, lowered, symbols.limits.get("decisions", engine.MAX_DECISIONS),
                      symbols.limits.get("rounds", engine.MAX_ROUNDS), counting)
    graph = build(lowered, counting)
    passes_.run(graph, names)
    program.setup(graph, names)
    # the game's payoff, evaluated over the IR as compile.py did (see compiler/payoff.py)
    program.payoff = payoff_rule(lowered.payoff, Evaluator(layout, program).eval)
    return program
