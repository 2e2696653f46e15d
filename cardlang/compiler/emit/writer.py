"""The writer the emitter writes Python through: lines at an indentation, each with the rule it
carries out, names bound for constants, fresh locals, and a symbol table of the slots of
`state.v` that a Python local holds right now.

Nothing here reads back what was written: a constant that is not a plain literal (a text, a
tuple, a table, a function) is a name bound in the program's namespace, never pasted text, and a
slot held in a local is known from the symbol table (`Frame`), never found in the source.
"""

from __future__ import annotations

import itertools
import keyword
from contextlib import contextmanager


class Namespace:
    """The globals every generated function of one program shares: bound constants and helpers."""

    def __init__(self):
        self.values: dict = {}
        self._ids = itertools.count()
        self._by_id: dict = {}

    def bind(self, value, prefix: str = "_k") -> str:
        """A name standing for `value` in generated code (ints, bools and None are literals)."""
        if value is None or type(value) is bool:
            return repr(value)
        if type(value) is int:
            return repr(value) if value >= 0 else f"({value})"
        key = id(value)
        known = self._by_id.get(key)
        if known is not None and self.values[known] is value:
            return known
        name = f"{prefix}{next(self._ids)}"
        self.values[name] = value
        self._by_id[key] = name
        return name

    def fresh(self, prefix: str = "_t") -> str:
        """A local name no other generated code of this program uses."""
        return f"{prefix}{next(self._ids)}"


class Frame:
    """The symbol table of one generated function: which slot of `state.v` each local holds."""

    def __init__(self, parent: "Frame | None" = None):
        self.slots: dict = dict(parent.slots) if parent is not None else {}

    def read(self, slot: int) -> str:
        """Python reading slot `slot`: its local if one holds it, else the state's list."""
        return self.slots.get(slot) or f"v[{slot}]"


class Writer:
    """Lines of one generated unit (helper functions, then the function itself); `spans[i]` is the
    rule line i + 1 carries out, where a rule error raised there is reported."""

    def __init__(self, ns: Namespace):
        self.ns = ns
        self.lines: list = []
        self.spans: list = []
        self.depth = 0
        self.span = None
        self.frame = Frame()
        self.helpers: list = []  # (lines, spans) of helper functions, written before the function
        self.all_in = None  # a local that says whether every seat is in, kept up to date (`everyone`)
        self.kept_counts = None  # (counts' name, index) -> the local counting there, in a unit that keeps them

    def line(self, text: str) -> None:
        self.lines.append("    " * self.depth + text)
        self.spans.append(self.span)

    def add_one(self, counts: str, k: int, prefix: str = "") -> None:
        """A line adding one to `counts[k]` (a list of counts; `prefix` starts the line): to a local
        of the unit when it keeps them (`keeping_counts`), else to the list itself."""
        if self.kept_counts is None:
            self.line(f"{prefix}{counts}[{k}] += 1")
            return
        local = self.kept_counts.get((counts, k))
        if local is None:
            local = self.kept_counts[(counts, k)] = self.fresh("_cnt")
        self.line(f"{prefix}{local} += 1")

    @contextmanager
    def keeping_counts(self):
        """The lines written inside count in locals (`add_one`), each started at 0 before them and
        added to its list after them, however they are left (a `return`, an exception): a local's
        `+= 1` costs less than a list slot's (a count a unit call stays small: no new int)."""
        start = len(self.lines)
        self.line("pass")  # (the locals' first values, known once the lines inside are written)
        self.line("try:")
        saved, self.kept_counts = self.kept_counts, {}
        try:
            with self.indent():
                yield
            kept = self.kept_counts
        finally:
            self.kept_counts = saved
        self.line("finally:")
        with self.indent():
            for (counts, k), local in kept.items():
                self.line(f"if {local}:")
                self.line(f"    {counts}[{k}] += {local}")
            if not kept:
                self.line("pass")
        if kept:
            self.lines[start] = "    " * self.depth + " = ".join(kept.values()) + " = 0"

    def lines_of(self, texts) -> None:
        """Each of `texts` as a line."""
        for text in texts:
            self.line(text)

    @contextmanager
    def indent(self, n: int = 1):
        self.depth += n
        try:
            yield
        finally:
            self.depth -= n

    @contextmanager
    def at(self, span):
        """Lines written inside report their errors at `span`."""
        saved, self.span = self.span, span
        try:
            yield
        finally:
            self.span = saved

    @contextmanager
    def holding(self, slot: int, local: str):
        """Inside, slot `slot` is read from the local `local`."""
        saved = self.frame
        self.frame = Frame(saved)
        self.frame.slots[slot] = local
        try:
            yield
        finally:
            self.frame = saved

    @contextmanager
    def fresh_frame(self):
        """Inside, no local holds any slot (a pasted op starts knowing nothing of its host)."""
        saved, self.frame = self.frame, Frame()
        try:
            yield
        finally:
            self.frame = saved

    def read(self, slot: int) -> str:
        return self.frame.read(slot)

    def everyone(self) -> str:
        """Python testing that no seat is out (the usual case, in which seat orders are constants):
        the unit's local when it keeps one (`keep_all_in`), else the test itself."""
        return self.all_in or "False not in s.active"

    def keep_all_in(self) -> None:
        """From here on, the unit keeps the test of `everyone` in a local: the statements that put
        a seat out or back in set it again (`seat_changed`)."""
        self.all_in = "_A"
        self.line("_A = False not in s.active")

    def seat_changed(self, out: bool = False) -> None:
        """After a statement that may put a seat out (`out`: it surely did) or back in."""
        if self.all_in is not None:
            self.line(f"{self.all_in} = False" if out else f"{self.all_in} = False not in s.active")

    def const(self, value) -> str:
        return self.ns.bind(value)

    def fresh(self, prefix: str = "_t") -> str:
        return self.ns.fresh(prefix)

    def helper(self) -> "Writer":
        """A writer for a helper function of this unit, knowing the same locals (passed as its
        parameters: `params`; its counts go to their lists)."""
        w = Writer(self.ns)
        w.frame = Frame(self.frame)
        w.span = self.span
        self.helpers.append(w)
        return w

    def params(self) -> str:
        """The parameters a helper takes: the state, then each local holding a slot."""
        locals_ = {x for x in self.frame.slots.values()
                   if x.isidentifier() and not keyword.iskeyword(x) and x not in self.ns.values}
        return ", ".join(["s", *sorted(locals_)])

    def unit(self) -> tuple:
        """(source, spans by line) of the helpers and the function, in one compilable text."""
        lines, spans = [], []
        for h in self.helpers:
            hl, hs = h.unit()
            lines += hl
            spans += hs
        return lines + self.lines, spans + self.spans

    def compile(self, name: str, filename: str) -> tuple:
        """Compiles the unit; (the function `name`, spans by line number from 1, the source)."""
        lines, spans = self.unit()
        text = "\n".join(lines) + "\n"
        exec(compile(text, filename, "exec"), self.ns.values)  # noqa: S102 - source this writer wrote, from the IR
        return self.ns.values[name], spans, text
