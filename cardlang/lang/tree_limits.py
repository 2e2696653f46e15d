"""E006 and E008 over Lark's parse tree, before it becomes the AST: blocks and expressions nested
past the limits that the later stages (which walk them recursively) can take, and numbers too long
for Python to read. The walk is iterative, so that it never runs out of stack itself."""

from __future__ import annotations

from typing import Optional

from lark import Token, Tree

from .diagnostics import Diagnostic, Span
from .limits import MAX_BLOCK_DEPTH, MAX_EXPRESSION_DEPTH, MAX_NUMBER_DIGITS

_BLOCKS = {"block", "inline_block"}


def _holds_expressions(name: str) -> bool:
    """A declaration, a statement or a block of the parse tree: what an expression stands in."""
    return (name in _BLOCKS or name in ("start", "params", "param")
            or name.endswith(("_decl", "_stmt", "_clause", "_alt")))


def beyond_limits(tree, file: str) -> Optional[Diagnostic]:
    """E006 where blocks nest deeper than MAX_BLOCK_DEPTH or an expression than MAX_EXPRESSION_DEPTH
    (the later stages walk both recursively), E008 for a number of more than MAX_NUMBER_DIGITS digits;
    before the tree is turned into the AST, which would meet them first. `limits.py` has the figures."""
    # node, blocks around it (a setup, round or phase body is not counted), expression levels, the
    # expression's outermost node, the statement it stands in
    stack = [(tree, 0, 0, None, tree)]
    while stack:
        node, blocks, levels, outer, holder = stack.pop()
        if node.data.endswith("_decl"):
            blocks = -1
        if node.data in _BLOCKS:
            blocks += 1
            if blocks > MAX_BLOCK_DEPTH:
                return _deep(holder, file, f"blocks nest more than {MAX_BLOCK_DEPTH} deep here",
                             "move the inner blocks into a phase, and call it")
        if _holds_expressions(node.data):
            levels, outer, holder = 0, None, node
        elif node.data != "args" and any(isinstance(c, Tree) for c in node.children):  # an operator, not a leaf
            levels += 1
            outer = outer or node
            if levels > MAX_EXPRESSION_DEPTH:
                return _deep(outer, file, _deep_expression(outer),
                             "name a part with `let` or `define`, or add up a list with `sum … of`")
        for c in node.children:
            if isinstance(c, Token) and c.type == "INT" and len(c) > MAX_NUMBER_DIGITS:
                span = Span(file, c.line, c.column, c.line, c.column + len(c))
                return Diagnostic("E008", "error", f"this number has {len(c)} digits; numbers have at most "
                                  f"{MAX_NUMBER_DIGITS}", Span(file, span.line, span.column, span.line,
                                                               span.column + min(len(c), MAX_NUMBER_DIGITS + 1)),
                                  help="a game needs no number of a billion billion or more")
        stack.extend((c, blocks, levels, outer, holder) for c in reversed(node.children) if isinstance(c, Tree))
    return None


def _deep_expression(outer) -> str:
    """The E006 message for an expression: a row of one operator is named as such, with its length."""
    row, node = 0, outer
    while isinstance(node, Tree) and node.data == outer.data and node.children and isinstance(node.children[0], Tree):
        row, node = row + 1, node.children[0]
    message = f"this expression nests more than {MAX_EXPRESSION_DEPTH} operators deep"
    if row > MAX_EXPRESSION_DEPTH:
        message += f": it is a row of {row} operators, and each counts one level"
    return message


def _deep(node, file: str, message: str, help: str) -> Diagnostic:
    meta = node.meta
    line, col = getattr(meta, "line", 1), getattr(meta, "column", 1)
    end_col = getattr(meta, "end_column", col + 1) if getattr(meta, "end_line", line) == line else col + 1
    return Diagnostic("E006", "error", message, Span(file, line, col, line, max(col + 1, end_col)), help=help)
