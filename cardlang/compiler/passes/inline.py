"""Inlining: an aggregate (`highest p in players by …`, `any …`, `max …`) that a statement works
out first (the whole value of a `set`, the test of an `if`, the seats of a `for each`) is written
in place as its loop, its value left in a local, rather than as a helper function called there;
and a pasted define worked out first has its arguments set as lines (`ExprEmitter.first`).
Without it, such an aggregate is a call of its helper function. Works on what the emitter writes."""

from __future__ import annotations

NAME = "inline"


def run(graph) -> None:
    """Lets the emitter write the aggregates a statement works out first in place."""
    graph.inline = True
