"""Filter splitting: a card filter `a or b or … ` whose first terms do not name the card and draw
no chance is split there. Those terms decide for every card at once: when one holds, every card is
legal, as when the filter is tried card by card (it stops at the first term that holds); only the
rest is tried card by card. Works on the choices of the op graph; the emitter writes the split."""

from __future__ import annotations

from .. import ir
from ..ir_facts import draws, reads
from ..emit.graph import Choose

NAME = "split"


def run(graph) -> None:
    """Records the split of each card filter that has one (`graph.splits`)."""
    for op in graph.ops:
        if isinstance(op, Choose):
            for alt in op.node.alternatives:
                if alt.kind == "card" and alt.where is not None:
                    found = split(alt.where, alt.slot)
                    if found is not None:
                        graph.splits[id(alt)] = found


def split(where, slot) -> tuple | None:
    """(the first terms, the rest or None) of a filter, or None if it does not split."""
    terms = []
    e = where
    while isinstance(e, ir.Or):
        terms.append(e.right)
        e = e.left
    terms.append(e)
    terms.reverse()
    k = 0
    while k < len(terms) and not reads(terms[k], slot) and not draws(terms[k]):
        k += 1
    if k == 0 or len(terms) < 2:
        return None
    first = _or(terms[:k])
    return first, (_or(terms[k:]) if k < len(terms) else None)


def _or(terms):
    e = terms[0]
    for t in terms[1:]:
        e = ir.Or(t.span, e, t)
    return e
