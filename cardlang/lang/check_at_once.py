"""Checks of a choice made at once (`each player p in seats chooses at once …`): E048, W007.

The alternatives' bodies run once every seat has chosen, one seat after another; a decision among
them would let a player act while the picks of those after him are made but not yet played out,
so none may be taken there (E048). A pick the body never reads is made for nothing (W007).
"""

from __future__ import annotations

import attrs

from . import ast, statements
from .types import PLAYER, PLAYERS


def check(c, st: ast.Choose) -> None:
    """Checks a choice made at once: its seats, then the choice with `p` bound, then E048 and W007."""
    together = st.at_once
    c.expect(together.seats, (PLAYERS,), "the players who choose at once")
    c.scopes.append({})
    c.bind(together.var, PLAYER, together.var_span)
    loops, c.loops = c.loops, 0  # (the bodies are played out seat by seat: a `break` there ends no loop of the rules)
    c.choose(attrs.evolve(st, at_once=None))
    c.loops = loops
    c.scopes.pop()
    phases = c.sym.phases
    for alt in st.alternatives:
        if alt.kind == "set":  # (its value names places of its source, which the next seat's pick would change)
            c.error("E048", "a set of cards cannot be chosen at once yet: the picks are played out after every seat "
                            "has chosen", alt.span, help="let each seat choose its set in turn (`for each p in …: p "
                                                         "chooses a set …`), moving it face down")
        where = _decision_in(alt.body, phases, set())
        if where is not None:
            c.error("E048", "a choice made at once cannot lead to another decision before every pick is played out",
                    where, help="make the decision after the `chooses at once` (its bodies only play out the picks)")
        if alt.var is not None and not _reads(alt.body, alt.var):
            c.warn("W007", f"the pick `{alt.var}` is never used: nothing of it is played out",
                   alt.span, help=f"use `{alt.var}` in the alternative's body (move the card, set a variable)")


def _decision_in(stmts, phases: dict, seen: set):
    """The span of the first `chooses` these statements may reach (through the phases they name), or None."""
    for st in stmts:
        if isinstance(st, ast.Choose):
            return st.span
        if isinstance(st, ast.CallPhase) and st.name in phases and st.name not in seen:
            seen.add(st.name)
            if _decision_in(phases[st.name].body, phases, seen) is not None:
                return st.span
        for block in statements.child_blocks(st):
            found = _decision_in(block, phases, seen)
            if found is not None:
                return found
    return None


def _reads(node, name: str) -> bool:
    """Whether the name appears anywhere in a node, a tuple of nodes or their fields."""
    if isinstance(node, ast.Name):
        return node.name == name
    if isinstance(node, (tuple, list)):
        return any(_reads(x, name) for x in node)
    if attrs.has(type(node)):
        return any(_reads(getattr(node, f.name), name) for f in attrs.fields(type(node)))
    return False
