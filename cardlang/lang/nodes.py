"""`@node`, the class decorator of the syntax tree's nodes (`lang/ast.py`) and of the IR's
(`compiler/ir.py`): a frozen attrs class with slots, compared by identity, whose `repr` is one
function shared by every node class instead of one that attrs writes and compiles for each.

attrs compiles the methods it writes for a class (`__init__`, `__repr__`) from Python source: for
the 160 node classes that was a third of the time of `import cardlang` and of the compiler, and the
`repr` two thirds of the compiling. The shared `repr` writes what attrs' own would, character for
character (`Name(field=value, ...)`, `...` for a node met again inside itself): tests/test_nodes.py
compares the two on every node class.
"""

from __future__ import annotations

import threading

import attrs

_define = attrs.define(frozen=True, slots=True, eq=False, repr=False)
_repr_context = threading.local()  # the ids of the nodes being written by this thread, as attrs keeps them


def _node_repr(self) -> str:
    try:
        seen = _repr_context.seen
    except AttributeError:
        seen = _repr_context.seen = set()
    if id(self) in seen:
        return "..."
    seen.add(id(self))
    try:
        fields = ", ".join(f"{a.name}={getattr(self, a.name)!r}" for a in type(self).__attrs_attrs__)
        return f"{type(self).__qualname__.rsplit('>.', 1)[-1]}({fields})"
    finally:
        seen.discard(id(self))


def node(cls):
    """The class made a node: frozen, slotted, compared by identity, with the shared `repr`."""
    cls = _define(cls)
    cls.__repr__ = _node_repr
    return cls
