"""Whole rounds: a whole-game run (passes/playout.py) plays each round it begins as one function
of plain statements (`emit/rounds.py`): its choices drawn in place, its phases written where they
are played, its loops Python's own, so that a round never goes back to the run loop. Without it,
the run goes op by op, one call a decision or so. Works on what the emitter writes."""

from __future__ import annotations

NAME = "rounds"


def run(graph) -> None:
    """Lets whole-game runs play each round they begin as one function."""
    graph.rounds = True
