"""Whole-game runs: for a playout nothing observes (`runtime.playout`), the program plays the
rest of the game in one generated run, each op written again with the playout's draw in place of
each choice's stop (`emit/choose.py: write_pick`), instead of one `resume` and one run a decision.
Without it, playouts play a decision at a time. Works on what the emitter writes."""

from __future__ import annotations

NAME = "playout"


def run(graph) -> None:
    """Lets the program play whole games in generated code (`Program.playout`)."""
    graph.playout = True
