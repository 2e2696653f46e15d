"""Pasting: the emitter keeps the value of a loop's or a filter's variable, and a define's
arguments, in Python locals (its symbol table says which local holds which slot) and writes a
define's body where it is used; without it, every such value is written to its slot of `state.v`
and read from there, and a define is a helper function. Works on what the emitter writes."""

from __future__ import annotations

NAME = "paste"


def run(graph) -> None:
    """Lets the emitter hold slots in locals and paste define bodies."""
    graph.paste = True
