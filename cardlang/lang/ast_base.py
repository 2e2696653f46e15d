"""The base of every expression of the syntax tree, apart so that the declarations (`ast_decls.py`)
and the rest of the tree (`ast.py`, which re-exports it as `ast.Expr`) both build on it."""

from __future__ import annotations

from .diagnostics import Span
from .nodes import node


@node
class Expr:
    """Base of every expression."""

    span: Span
