"""The fast engine: the IR of a game (`compiler.ir`, from `compiler.lower`) laid out as an op
graph (`graph`), rewritten by the passes (`compiler.passes`), and written as Python by one emitter
with a symbol table (`writer`, `expr`, `stmt`, `choose`, `program`): one method per IR node
(`x_<Node>` for expressions, `s_<Node>` for statements, `o_<Op>` for ops).

The emitter never searches or rewrites source it wrote: it builds each expression from its
children's, binds every constant that is not a plain literal by name, and knows from its symbol
table which locals hold which slots. The program has the protocol of `ProgramBase`, as the
reference interpreter's has, so `Game`/`State`, views, saves, bots and simulations run on either.
"""

from __future__ import annotations

from ...lang.check import Symbols
from ...runtime import engine
from .. import passes as passes_
from ..layout import build_layout, choose_deck
from ..lower import lower, lower_expression
from ..reference_expr import Evaluator
from .graph import build
from .program import Program


def emit_program(symbols: Symbols, players: int, options: dict, counting: bool = False, passes=None) -> Program:
    """A checked game compiled for a player count and options; `passes`: which passes run (see
    `compiler.passes.select`); with `counting`, its code counts each rule point it reaches in
    `Program.hits` and each alternative offered in `Program.offered`."""
    names = passes_.select(passes)
    constants = Evaluator(None)
    deck = choose_deck(symbols, lambda cond: constants.eval(None, lower_expression(symbols, players, options, cond)))
    layout = build_layout(symbols, players, deck)
    lowered = lower(symbols, players, options, layout)
    program = Program(layout, lowered, symbols.limits.get("decisions", engine.MAX_DECISIONS),
                      symbols.limits.get("rounds", engine.MAX_ROUNDS), counting)
    graph = build(lowered, counting)
    passes_.run(graph, names)
    program.setup(graph, names)
    return program
