"""Jump threading: an op that only jumps (the end of an `if` branch, of an alternative, of a loop
body, a phase's return to its only caller) is replaced by the op it leads to. Ops go to absolute
pcs, so the copy does what its original does. Works on the op graph."""

from __future__ import annotations

from ..emit.graph import Jump

NAME = "threading"


def run(graph) -> None:
    """Replaces each jump by the op at the end of its chain of jumps (a loop of jumps stays)."""
    ops = graph.ops
    for j, op in enumerate(ops):
        if not isinstance(op, Jump):
            continue
        t, seen = op.target, {j}
        while 0 <= t < len(ops) and isinstance(ops[t], Jump) and t not in seen:
            seen.add(t)
            t = ops[t].target
        if 0 <= t < len(ops) and not isinstance(ops[t], Jump):
            ops[j] = ops[t]
