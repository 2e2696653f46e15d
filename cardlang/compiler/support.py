"""Which games the compiled engine can run: the rules it has no code for yet.

The compiled engine (compile.py, being replaced by an emitter from the IR) does not know the newest
rules: a score that decides the winners (`…, lowest wins`), `p sits out`, `reverse direction`, a
choice of a player and `seat(p)`. A game that uses one runs on the reference interpreter instead
(`cardlang.load` picks it), which defines them: slower, never wrong.
"""

from __future__ import annotations

from typing import Optional

import attrs

from ..lang import ast


def missing_in_compiled(symbols) -> Optional[str]:
    """The first rule of the game (as the docs name it) the compiled engine cannot run, or None."""
    if symbols.score is not None and symbols.score.order is not None:
        return f"`{symbols.score.order} wins`"
    blocks = [b for b in (symbols.setup, symbols.round, *symbols.phases.values()) if b is not None]
    for block in blocks:
        found = _in_stmts(block.body)
        if found:
            return found
    if "seat" in symbols.defines:
        return None
    for node in [b.body for b in blocks] + list(_exprs(symbols)):
        found = _in_expr(node)
        if found:
            return found
    return None


def _in_stmts(stmts) -> Optional[str]:
    for st in stmts:
        if isinstance(st, ast.Eliminate) and st.for_round:
            return "`sits out`"
        if isinstance(st, ast.Reverse):
            return "`reverse direction`"
        if isinstance(st, ast.Choose) and any(a.kind == "player" for a in st.alternatives):
            return "a choice of a player"
        for body in ast.child_blocks(st):
            found = _in_stmts(body)
            if found:
                return found
    return None


def _exprs(symbols):
    """The expressions outside the procedure: initial values, definitions, the score and payoff."""
    for sym in list(symbols.vars.values()) + list(symbols.pvars.values()):
        yield sym.decl.value
    for d in symbols.defines.values():
        yield d.body
    for d in (symbols.score, symbols.payoff):
        if d is not None:
            yield d.value


def _in_expr(node, defined=frozenset()) -> Optional[str]:
    """`seat(…)` (the builtin, not a `define` of that name) anywhere inside `node`."""
    stack = [node]
    while stack:
        x = stack.pop()
        if isinstance(x, ast.Call) and x.func == "seat" and "seat" not in defined:
            return "`seat(…)`"
        if isinstance(x, tuple):
            stack.extend(x)
        elif attrs.has(type(x)):
            stack.extend(getattr(x, f.name) for f in attrs.fields(type(x)))
    return None
