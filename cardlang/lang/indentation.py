"""Indentation of rule files, for syntax errors and recovery: the line of a bad dedent, the
over-indented first line of a block, and re-indenting a line so that parsing can go on."""

from __future__ import annotations

from collections import Counter
from typing import Optional


def _indent(raw: str) -> int:
    return len(raw.expandtabs(8)) - len(raw.expandtabs(8).lstrip())


def _code(raw: str) -> bool:
    return bool(raw.strip()) and not raw.lstrip().startswith("#")


def dedent_line(e, text: str) -> int:
    """The line of an inconsistent dedent (Lark's message does not give it)."""
    stack = [0]
    for i, raw in enumerate(text.split("\n"), 1):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        ind = len(raw.expandtabs(8)) - len(raw.expandtabs(8).lstrip())
        if ind > stack[-1]:
            stack.append(ind)
        else:
            while ind < stack[-1]:
                stack.pop()
            if ind != stack[-1]:
                return i
    return 1


def reindent(lines: list, line_no: int) -> None:
    """Moves a badly indented line to the nearest enclosing block's indentation (recovery)."""
    levels = [0]
    for raw in lines[: line_no - 1]:
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        ind = len(raw.expandtabs(8)) - len(raw.expandtabs(8).lstrip())
        while ind < levels[-1]:
            levels.pop()
        if ind > levels[-1]:
            levels.append(ind)
    text = lines[line_no - 1].expandtabs(8)
    ind = len(text) - len(text.lstrip())
    deeper = None
    while len(levels) > 1 and levels[-1] > ind:
        deeper = levels.pop()
    # between two levels, the line most likely belongs to the deeper block it was meant for
    lines[line_no - 1] = " " * (deeper if deeper is not None else levels[-1]) + text.lstrip()


def overindented_first(lines: list, bad: int) -> Optional[int]:
    """The first line of a block indented further than the file's usual step, when a later line
    (`bad`, matching no open block) stands one usual step in: that first line is the mistake."""
    stack = [(0, 0)]  # (indentation, the line that opened it)
    steps: Counter = Counter()
    for i, raw in enumerate(lines[: bad - 1], 1):
        if not _code(raw):
            continue
        ind = _indent(raw)
        if ind > stack[-1][0]:
            steps[ind - stack[-1][0]] += 1
            stack.append((ind, i))
        else:
            while ind < stack[-1][0]:
                stack.pop()
    if not steps or bad > len(lines):
        return None
    step = steps.most_common(1)[0][0]
    ind = _indent(lines[bad - 1])
    inner = None
    while len(stack) > 1 and stack[-1][0] > ind:
        inner = stack.pop()
    outer = stack[-1][0]
    if inner is None or ind <= outer:
        return None
    if inner[0] - outer != step and ind - outer == step:
        return inner[1]
    return None
