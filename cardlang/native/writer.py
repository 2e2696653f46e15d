"""The lines of one generated numba function, with fresh local names and the failure exit.

A value the emitter hands on is a name it wrote (`Seq` for a sequence: the array, the name of its
length, and whether the array is a view of the state, which a statement that changes the state
must copy first), never text it looks into.
"""

from __future__ import annotations

import contextlib

import attrs

ARGS = "Z, ZN, LOC, V, TV, TN, ACT, G, MT, B, KT, KN, LG"  # the state every function of a module takes
FAIL = 3  # the status of a run that met a rule error (or a native limit): played again on the compiled engine


@attrs.frozen
class Seq:
    """A sequence value: its first `n` items, `arr[row, i]` (a row of a 2-d array of the state or of
    the scratch rows, read in place: a view of a row costs a reference count a use) or `arr[i]`
    without a row (a module-level table); `view` if they are the state's (a step that changes the
    state copies them first)."""

    arr: str
    n: str
    view: bool
    row: object = None

    def at(self, i: str) -> str:
        """The item at index `i` (a name or an int expression)."""
        return f"{self.arr}[{self.row}, {i}]" if self.row is not None else f"{self.arr}[{i}]"

    def whole(self) -> str:
        """The 1-d array holding the items (for a step of `native/steps.py`)."""
        return f"{self.arr}[{self.row}]" if self.row is not None else self.arr


class Writer:
    """Lines at an indentation, and fresh local names."""

    def __init__(self, counter: list, value: bool = False):
        self.lines: list = []
        self.depth = 1
        self.counter = counter  # shared by the module's functions (names never clash)
        # a function that returns a value (a `define`'s, `ExprEmitter.i_DefineCall`) stops the run
        # by setting G[5] = -1 and returning 0, which its caller checks (`stop_if_failed`)
        self.value = value

    def line(self, text: str) -> None:
        self.lines.append("    " * self.depth + text)

    @contextlib.contextmanager
    def block(self, head: str):
        """`head:` and the lines written inside, indented (`pass` if none is)."""
        self.line(head + ":")
        self.depth += 1
        mark = len(self.lines)
        yield
        if len(self.lines) == mark:
            self.line("pass")
        self.depth -= 1

    def fresh(self, prefix: str = "t") -> str:
        self.counter[0] += 1
        return f"{prefix}{self.counter[0]}"

    def fail(self, node) -> None:
        """Stops the run: a rule error (or a native limit) at `node`'s rule line."""
        span = getattr(node, "span", None)
        self.line(f"G[7] = {span.line if span is not None else 0}")
        if self.value:
            self.line("G[5] = -1")
        self.bail()

    def bail(self) -> None:
        """Returns from a function whose run has stopped (G[7] and, in a value function, G[5] set)."""
        self.line("return 0" if self.value else f"return {FAIL}")

    def stop_if_failed(self) -> None:
        """After a call of a value function: stop this one too if the run stopped there."""
        with self.block("if G[5] == -1"):
            self.bail()

    def fail_if(self, cond: str, node) -> None:
        with self.block(f"if {cond}"):
            self.fail(node)

    def fail_outside(self, x: str, end, node) -> None:
        """Stop the run unless 0 <= x < end (a seat, zone or card id read from a value)."""
        self.fail_if(f"{x} < 0 or {x} >= {end}", node)
