"""The writer the emitter writes Python through: lines at an indentation, each with the rule it
carries out, names bound for constants, fresh locals, and a symbol table of the slots of
`state.v` that a Python local holds right now.

Nothing here reads back what was written: a constant that is not a plain literal (a text, a
tuple, a table, a function) is a name bound in the program's namespace, never pasted text, and a
slot held in a local is known from the symbol table (`Frame`), never found in the source.
"""

from __future__ import annotations

import itertools
import os
from contextlib import contextmanager

from ...lang.diagnostics import Span
from .code import Global, Local, Name, Number, identifier


class Namespace:
    """The globals every generated function of one program shares (bound constants and helpers),
    and the names of its slots (`slot_names`: slot -> the rule's name of what it holds)."""

    def __init__(self, slot_names: dict | None = None):
        self.values: dict = {}
        self._ids = itertools.count()
        self._by_id: dict = {}
        self.slot_names = slot_names or {}
        self._slots: dict = {}  # slot -> the identifier generated code writes for its index

    def bind(self, value, name: str | None = None) -> str:
        """A name standing for `value` in generated code (ints, bools and None are literals): `k_`
        and `name`, else what the value is called (a function's name, a rule line's number)."""
        if value is None or type(value) is bool:
            return repr(value)
        if type(value) is int:
            return Number(repr(value)) if value >= 0 else f"({value})"
        key = id(value)
        known = self._by_id.get(key)
        if known is not None and self.values[known] is value:
            return known
        base = "k_" + identifier(name or _called(value), "value")
        out, k = base, 1
        while out in self.values:
            k += 1
            out = f"{base}_{k}"
        self.values[out] = value  # (a plain `str` key: a dict of them keeps Python's fast global lookups)
        out = self._by_id[key] = Global(out)
        return out

    def fresh(self, prefix: str = "_t") -> Local:
        """A local name no other generated code of this program uses."""
        return Local(f"{prefix}{next(self._ids)}")

    def local_for(self, slot, prefix: str = "_x") -> Local:
        """A fresh local to hold the value of slot `slot`: `l_<n>_<name>` after the rule's name
        (as Jinja names its locals), else as `fresh` names it."""
        name = self.slot_names.get(slot)
        if name is None:
            return self.fresh(prefix)
        return Local(f"l_{next(self._ids)}_{identifier(name)}")

    def slot(self, slot: int) -> Name:
        """The identifier of slot `slot`'s index, `<name>_<slot>` (a parameter of each function that
        reads the slot, its value the index: `Writer.define`); never a local's, a constant's or a
        temporary's (they begin with `l_`, `k_`, `_`; this one ends with its number)."""
        out = self._slots.get(slot)
        if out is None:
            name = identifier(self.slot_names.get(slot) or "slot")
            if name.startswith(("k_", "l_")):
                name = "v_" + name
            out = self._slots[slot] = Name(f"{name}_{slot}")
        return out


def _called(value) -> str:
    """What a bound value is called in generated code: a function's or a module's own name, the
    line of a rule span, else its type's name."""
    if isinstance(value, Span):
        return f"line{value.line}"
    called = getattr(value, "__name__", None)
    if isinstance(called, str):
        return called.rsplit(".", 1)[-1]
    return {str: "text", tuple: "table", list: "list", dict: "table"}.get(type(value), type(value).__name__)


class Frame:
    """The symbol table of one generated function: which slot of `state.v` each local holds (or
    which other slot is read in its place: a pasted define's parameter given a slot, `int`; or
    None, read from `state.v` whatever holds it outside)."""

    def __init__(self, parent: "Frame | None" = None):
        self.slots: dict = dict(parent.slots) if parent is not None else {}


class Writer:
    """Lines of one generated unit (helper functions, then the function itself); `spans[i]` is the
    rule line i + 1 carries out, where a rule error raised there is reported."""

    def __init__(self, ns: Namespace, names: bool = False):
        self.ns = ns
        self.names = names  # slot indexes written as names (`index`; `options.Options.names`)
        self.lines: list = []
        self.spans: list = []
        self.depth = 0
        self.span = None
        self.frame = Frame()
        self.helpers: list = []  # (lines, spans) of helper functions, written before the function
        self.all_in = None  # a local that says whether every seat is in, kept up to date (`everyone`)
        self.lists = False  # whether the unit holds the state's lists in locals (`hold_state_lists`)
        self.kept_counts = None  # (counts' name, index) -> the local counting there, in a unit that keeps them
        self.comments = 0  # the comment lines among `lines` (`size` leaves them out)
        self.slots_read: dict = {}  # the identifier of each slot index written in -> the slot (`index`)
        self.signature = None  # (line, name, parameters) of the function's `def` (`define`)
        self.root = self  # the writer of the unit (a helper's: its host's), which keeps `shared`
        self.shared: dict = {}  # what a helper computes -> its name, shared by the whole unit (`shared_helper`)

    def define(self, name: str, params: str) -> None:
        """The function's `def name(params, …):` line; with `names`, each slot index its body writes
        in a parameter after `params`, with the index as its default (`index`): the body reads
        `v[dealer_0]` (a call copies the defaults: see `options.Options.names`)."""
        self.signature = (len(self.lines), self.depth, name, params)
        self.line(f"def {name}({params}):")  # (written again whole by `unit`, once its indexes are known)

    def index(self, slot: int) -> str:
        """Slot `slot`'s index: the number, or with `names` its identifier (`Namespace.slot`), a
        parameter of this function."""
        if not self.names:
            return Number(str(slot))
        name = self.ns.slot(slot)
        self.slots_read[name] = slot
        return name

    def place(self, slot: int) -> str:
        """Python for slot `slot` of `state.v`, to read or to write: `v[<its index>]`."""
        return f"v[{self.index(slot)}]"

    def line(self, text: str) -> None:
        self.lines.append("    " * self.depth + text)
        self.spans.append(self.span)

    def where(self, span, before: str = "") -> None:
        """A comment line `# file:line` naming the rule line of `span` (after `before`), for a
        reader of the generated code: the file's base name, every character outside printable ASCII
        escaped (a file name is text of its own, and the comment must stay one line)."""
        if span is None:
            return
        name = ascii(os.path.basename(span.file))[1:-1]
        self.line(f"# {before}{name}:{span.line}")
        self.comments += 1

    def size(self) -> int:
        """The lines of code written so far (comments left out: they change nothing that runs)."""
        return len(self.lines) - self.comments

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
    def holding(self, slot: int, local: str | None):
        """Inside, slot `slot` is read from the local `local` (None: from `state.v`, whatever
        local held it outside)."""
        saved = self.frame
        self.frame = Frame(saved)
        self.frame.slots[slot] = local
        try:
            yield
        finally:
            self.frame = saved

    def bound(self, slot: int, x: str, paste: bool):
        """The context of a loop's body whose item is the local `x`: with `paste`, slot `slot` read
        from `x`; else `x` written to the slot first and the slot read from the state."""
        if paste:
            return self.holding(slot, x)
        self.line(f"{self.place(slot)} = {x}")
        return self.holding(slot, None)

    @contextmanager
    def fresh_frame(self):
        """Inside, no local holds any slot (a pasted op starts knowing nothing of its host)."""
        saved, self.frame = self.frame, Frame()
        try:
            yield
        finally:
            self.frame = saved

    def read(self, slot: int) -> str:
        """Python reading slot `slot`: its local if one holds it, else the state's list."""
        held = self.frame.slots.get(slot)
        if held is None:
            return self.place(slot)
        return self.place(held) if type(held) is int else held  # (an int: another slot, read in its place)

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

    def hold_state_lists(self) -> None:
        """From here on, the unit reads the state's lists `zones`, `loc` and `known` from locals of
        those names, taken once: a round's frame or whole-round function runs long and reads them
        at every move (the lists are changed in place, never replaced, as `state.v` is)."""
        self.state_lists()
        self.lists = True

    def of_state(self, name: str) -> str:
        """Python reading the state's list `name` (`zones`, `loc`, `known`): the unit's local when
        it holds them (`hold_state_lists`), else the state's attribute."""
        return name if self.lists else f"s.{name}"

    def state_list(self, name: str) -> None:
        """The line that takes the state's list `name` into a local of that name, unless the unit
        holds it already."""
        if not self.lists:
            self.line(f"{name} = s.{name}")

    def state_lists(self) -> None:
        """The line that takes `zones`, `loc` and `known` into locals, unless the unit holds them."""
        if not self.lists:
            self.line("zones, loc, known = s.zones, s.loc, s.known")

    def const(self, value) -> str:
        return self.ns.bind(value)

    def fresh(self, prefix: str = "_t") -> Local:
        return self.ns.fresh(prefix)

    def local_for(self, slot, prefix: str = "_x") -> Local:
        return self.ns.local_for(slot, prefix)

    def helper(self) -> "Writer":
        """A writer for a helper function of this unit, knowing the same locals (passed as its
        parameters: `params`; its counts go to their lists)."""
        w = Writer(self.ns, self.names)
        w.frame = Frame(self.frame)
        w.span = self.span
        w.root = self.root
        self.helpers.append(w)
        return w

    def shared_helper(self, key, prefix: str, write) -> str:
        """The call of a helper function of the unit: written once (`write(h, name)`, `h` the
        helper's writer) for each `key` and each set of locals holding slots, then called again
        wherever the unit needs it again (a chained op pasted twice, the same aggregate twice)."""
        key = (key, frozenset(self.frame.slots.items()))
        name = self.root.shared.get(key)
        if name is None:
            name = self.root.shared[key] = self.fresh(prefix)
            write(self.helper(), name)
        return f"{name}({self.params()})"

    def params(self) -> str:
        """The parameters a helper takes: the state, then each local holding a slot."""
        locals_ = {x for x in self.frame.slots.values() if isinstance(x, Local)}
        return ", ".join(["s", *sorted(locals_)])

    def unit(self) -> tuple:
        """(source, spans by line) of the helpers and the function, in one compilable text."""
        lines, spans = [], []
        for h in self.helpers:
            hl, hs = h.unit()
            lines += hl
            spans += hs
        own = self.lines
        if self.signature is not None and self.slots_read:
            at, depth, name, params = self.signature
            indexes = "".join(f", {x}={slot}" for x, slot in sorted(self.slots_read.items(), key=lambda kv: kv[1]))
            own = list(own)
            own[at] = "    " * depth + f"def {name}({params}{indexes}):"
        return lines + own, spans + self.spans

    def compile(self, name: str, filename: str) -> tuple:
        """Compiles the unit; (the function `name`, spans by line number from 1, the source)."""
        lines, spans = self.unit()
        text = "\n".join(lines) + "\n"
        exec(compile(text, filename, "exec"), self.ns.values)  # noqa: S102 - source this writer wrote, from the IR
        return self.ns.values[name], spans, text
