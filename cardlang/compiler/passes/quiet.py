"""Quiet runs: a whole-game run of a quiet state (`runtime.playout.quiet`: nothing will observe
it) is written without the writes of who knows which card (`state.known`), which only views,
labels and the log read; a game whose rules read it (`is face up`) never has quiet states. Works
on what the emitter writes (its `knowledge` flag, in the whole-game versions of the ops)."""

from __future__ import annotations

NAME = "quiet"


def run(graph) -> None:
    """Lets the whole-game runs of quiet states leave knowledge as it stands."""
    graph.forget = True
