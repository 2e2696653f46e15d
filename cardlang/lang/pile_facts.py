"""What the choice check (E042/W005, `nonempty.py`) knows of numbered families of piles
(`zone column: 7 piles`): a choice of a card with a pile (`… and a pile k from column where …`)
is open when its filter holds for one of the piles 1..N, and a loop over a list of numbers written
out (`for each k in [1, 2, 3]:`) whose body is simple statements is followed pass by pass, so that
dealing a card to each pile is known to leave each pile with one more card.

A pile is kept in the zone facts as a player's zone is, by the key of its number (`zone_facts.py`).
"""

from __future__ import annotations

from typing import Optional

import attrs

from . import ast, statements
from .choice_theory import FALSE, _or
from .flow import _mentions, _subst

MAX_UNROLL = 16  # passes of a loop followed one by one; a longer list is a loop as any other
MAX_PILES_EXPANDED = 16  # piles a choice's filter is written out for; beyond, it is not decided


def pile_open(checker, alt: ast.Alternative, scopes, card_open) -> Optional[tuple]:
    """The formula of a card-and-pile alternative being open: `card_open(where)` (the card part,
    given a filter) for some pile number 1..N written into the filter (None: not such a choice, or
    too many piles to write out, left to the caller)."""
    pile = alt.pile
    if pile is None:
        return None
    count = checker.sym.zone_counts.get(pile.family)
    if not count or alt.where is None or not _mentions(alt.where, pile.var):
        return None  # (a filter that does not name the pile: any of the N piles will do)
    if count > MAX_PILES_EXPANDED:
        return None
    out = FALSE
    for k in range(1, count + 1):
        out = _or(out, card_open(_subst(alt.where, {pile.var: ast.Number(alt.where.span, k)})))
    return out


def listed_numbers(zone_counts: dict, source, limit: int = MAX_UNROLL) -> Optional[tuple]:
    """The numbers of a list the rules write out: `[1, 2, 3]`, `piles of column` (1..N), `1..4` with
    both ends written; None for another list or one of more than `limit` numbers."""
    if isinstance(source, ast.ListExpr) and all(isinstance(i, ast.Number) for i in source.items):
        out = tuple(i.value for i in source.items)
    elif isinstance(source, ast.PilesOf):
        out = tuple(range(1, zone_counts.get(source.family, 0) + 1))
    elif isinstance(source, ast.Range) and isinstance(source.low, ast.Number) and isinstance(source.high, ast.Number):
        out = tuple(range(source.low.value, min(source.high.value, source.low.value + limit) + 1))
    else:
        return None
    return out if len(out) <= limit else None


def unrolled(checker, st, scopes) -> Optional[list]:
    """The passes of `for each k in [1, 2, …]` (or `piles of column`, `1..3`) as bodies with the number
    written in for `k` (None when it is not such a loop: numbers written out, no filter, a body of
    simple statements)."""
    if not isinstance(st, ast.ForEach) or st.where is not None:
        return None
    items = listed_numbers(checker.sym.zone_counts, st.source)
    if not items:
        return None
    if any(isinstance(x, (ast.Choose, ast.Let, ast.CallPhase, ast.Break)) or any(statements.child_blocks(x))
           for x in st.body):
        return None
    return [tuple(_subst_stmt(x, {st.var: ast.Number(st.source.span, i)}) for x in st.body) for i in items]


def _subst_stmt(st, mapping: dict):
    """A simple statement with the names of `mapping` replaced in its expressions."""
    changes = {}
    for f in attrs.fields(type(st)):
        v = getattr(st, f.name)
        if isinstance(v, ast.Expr):
            changes[f.name] = _subst(v, mapping)
    return attrs.evolve(st, **changes) if changes else st
