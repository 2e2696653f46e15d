"""The bases of the IR's nodes (`compiler.ir`): an expression and a statement, each with its span.

Kept apart so that the IR's modules (`ir`, `ir_tables`) share them without importing each other.
"""

from __future__ import annotations

from ..lang.diagnostics import Span
from ..lang.nodes import node


@node
class Expr:
    """Base of every expression: evaluating one reads the state and changes nothing but its chance
    (`random`) and the slots of its own locals."""

    span: Span



@node
class Stmt:
    """Base of every statement."""

    span: Span
