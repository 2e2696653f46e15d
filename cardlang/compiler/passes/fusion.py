"""Fusion: a run of consecutive statements that cannot stop (no `chooses`, phase or end inside)
becomes one op, its `if`s and loops written with Python's own, so the run loop takes one step for
the run instead of one per op. Works on the op graph: the run's first op is replaced."""

from __future__ import annotations

from ..emit.graph import Stmts

NAME = "fusion"


def run(graph) -> None:
    """Replaces the first op of each outermost run by one op for the whole run."""
    covered = -1
    for start, end, stmts in sorted(graph.runs, key=lambda r: (r[0], -r[1])):
        if start >= covered:  # a run inside a fused run never runs fused: skip it
            graph.ops[start] = Stmts(stmts[0].span, stmts, end, plain=graph.ops[start])
            covered = end
