"""Stage 4 of the compiled engine: a lowered game laid out as an op graph, rewritten by the passes
and written as a `Program` (see the package's docstring)."""

from __future__ import annotations

from .. import passes as passes_
from ..lowered import LoweredGame
from .graph import build
from .program import Program


def emit_program(game: LoweredGame, counting: bool = False, passes=None) -> Program:
    """A lowered game (`compiler.lowered.lower_game`) compiled; `passes`: which passes run (see
    `compiler.passes.select`); with `counting`, its code counts each rule point it reaches in
    `Program.hits` and each alternative offered in `Program.offered`."""
    names = passes_.select(passes)
    program = Program(game.layout, game.ir, game.max_decisions, game.max_rounds, counting)
    program.lowered = game
    graph = build(game.ir, counting)
    passes_.run(graph, names)
    program.setup(graph, names)  # (the payoff too: compiled like a score, emit/program.py)
    return program
