"""Chaining: where an op goes on to a constant pc, the emitter writes the op found there in its
place (and so on, up to a budget of lines and a depth, never an op already on its way), so that
one call runs from a decision to the next instead of one call per op. Works on what the emitter
writes (`Emitter.goto`); this pass sets its budget."""

from __future__ import annotations

NAME = "chaining"
BUDGET = 160  # lines a chained op may write before it stops pasting
DEPTH = 12  # ops pasted one inside the other


def run(graph) -> None:
    """Lets the emitter paste ops at their constant gotos."""
    graph.chaining = (BUDGET, DEPTH)
