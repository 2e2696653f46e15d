"""What `cardlang dump` prints of a compiled game: its IR (`ir_listing`), its op graph with the
Python of every op (`ops_listing`), or every unit of its generated program (`python_listing`).

A game that runs compiles each op the first time the run loop enters it; a listing compiles every
one now (`compile_all`), through the same program methods a run uses, so it shows what runs. The
listings read the IR, the op graph and the sources the writer kept (`Program.sources`); nothing
here reads or rewrites generated source.
"""

from __future__ import annotations

import os
import types

import attrs

from ...lang.diagnostics import Span
from .. import ir
from .graph import Call, Choose, Stmts
from .options import Run
from .program import TOO_DEEP

WIDTH = 100  # the most characters of a constant shown in `python_listing`


def readable(program) -> None:
    """Makes `program` again with its slot indexes written as names (`options.Options.names`), if
    it is not so made already: what a reader sees (a listing; games run with numbers)."""
    if not program.options.names:
        program.setup(program.graph, program.passes, names=True)


def compile_all(program) -> list:
    """Compiles every unit of `program` a run may enter, in order (the program made `readable`
    first): (title, function) of each op, each alternative's entry, the round's frame
    (`frames.py`), and, with the `playout` switch, of the whole-game run of a quiet state drawn by
    seats (`Run("seat", None, quiet)`): its ops, its entries, its round."""
    readable(program)
    units = []
    for pc in range(len(program.graph.ops)):
        program.code[pc] = program._compiled(pc)
        units.append((f"op {pc}", program.code[pc]))
    for index, row in enumerate(program.resume_entries):
        for ai in range(len(row or ())):
            units.append((f"choice {index}, alternative {ai}: its entry", program._compiled_resume(index, ai)))
    if program.frames:
        try:
            units.append(("a round's frame, a decision at a time", program.em.compile_frame()))
        except TOO_DEEP:  # (as a game falls back: the ops play the round)
            pass
    options = program.options
    if options.playout:
        run = Run("seat", None, options.quiet)
        name = "a whole-game run of a quiet state" if options.quiet else "a whole-game run"
        for pc in range(len(program.graph.ops)):
            units.append((f"op {pc}, in {name}", program._compiled(pc, run)))
        for index in range(len(program.chooses)):
            try:
                entry = program.emitter(run).compile_entry(index)
            except TOO_DEEP:  # (as a run falls back: the choice's draw alone, then the run loop)
                entry = program.emitter(run, chained=False).compile_entry(index)
            units.append((f"choice {index}: the start of {name}", entry))
        if options.rounds and program.em.writes_whole_rounds():
            try:
                units.append((f"a round, in {name}", program.emitter(run).compile_round()))
            except TOO_DEEP:  # (as a run falls back: the ops play the round)
                pass
    return units


def ops_listing(program) -> str:
    """The op graph after the graph passes, one line an op (its pc, kind, where it goes, its rule
    line), each followed by its function as compiled; then the other units (`compile_all`)."""
    units = compile_all(program)
    out = [f"# {len(program.graph.ops)} ops; passes: {', '.join(program.passes) or 'none'}"]
    for pc, op in enumerate(program.graph.ops):
        out.append(f"# op {pc}: {_op_line(op)}")
        out.append(program.source(units[pc][1]).rstrip("\n"))
    for title, f in units[len(program.graph.ops):]:
        out.append(f"# {title}")
        out.append(program.source(f).rstrip("\n"))
    return "\n".join(out) + "\n"


def python_listing(program) -> str:
    """Every unit of generated Python, in the order it was compiled (the initial values, texts and
    scores the program compiles when it is made, then `compile_all`'s), after the constants they
    read (each `k_…` name and what it stands for, on one line)."""
    compile_all(program)  # (first: it makes the program again, its units written afresh)
    out = [f"# passes: {', '.join(program.passes) or 'none'}", "# constants:"]
    for name, value in program.ns.values.items():
        if name.startswith("k_"):
            out.append(f"#   {name} = {_short(value)}")
    for text in program.sources.values():
        out.append(text.rstrip("\n"))
    return "\n".join(out) + "\n"


def _short(value) -> str:
    """A constant on one line: a module by its name, a function by its module and name, a rule span
    by its file's base name and line, anything else by its `repr`, cut at `WIDTH` characters."""
    if isinstance(value, types.ModuleType):
        return f"module {value.__name__}"
    if isinstance(value, Span):
        return _where(value)
    if callable(value) and hasattr(value, "__qualname__"):
        return f"{getattr(value, '__module__', '?')}.{value.__qualname__}"
    text = " ".join(repr(value).split())
    return text if len(text) <= WIDTH else text[:WIDTH] + "…"


def _op_line(op) -> str:
    """An op's kind, its int and bool fields (its next pcs), and its rule line."""
    fields = []
    for a in attrs.fields(type(op)):
        value = getattr(op, a.name)
        if type(value) in (int, bool):
            fields.append(f"{a.name}={value}")
    if isinstance(op, Stmts):
        fields.append(f"statements={len(op.stmts)}" + (" (fused)" if op.plain is not None else ""))
    elif isinstance(op, Call):
        fields.append(f"phase={op.phase.name}")
    elif isinstance(op, Choose):
        fields.append(f"alternatives={len(op.node.alternatives)}")
    return f"{type(op).__name__} {' '.join(fields)}  ({_where(op.span)})"


def _where(span) -> str:
    return "?" if span is None else f"{ascii(os.path.basename(span.file))[1:-1]}:{span.line}"


# ------------------------------------------------------------------------- the IR
def ir_listing(program) -> str:
    """The lowered IR: the setup, the round and each phase as indented statements, each under its
    `# file:line`, a slot written `v[name_slot]`, as generated code names it."""
    p = program.ir
    out = []
    printer = _IrPrinter(program.ns, out)
    for slot, per_player, value in p.var_inits:
        out.append(f"init {printer.slot(slot)}{' (each seat)' if per_player else ''} = {printer.x(value)}")
    if p.score is not None:
        out.append(f"score of {printer.slot(p.score[0])} = {printer.x(p.score[1])}")
    if p.payoff is not None:
        seat = printer.slot(p.payoff.slot) if p.payoff.slot is not None else "all"
        out.append(f"payoff of {seat} = {printer.x(p.payoff.value)}")
    for title, body in [("setup", p.setup), ("round", p.round)] + \
            [(f"phase {name}({', '.join(printer.slot(s) for s in ph.slots)})", ph.body) for name, ph in p.phases.items()]:
        out.append(f"{title}:")
        printer.block(body, 1)
    return "\n".join(out) + "\n"


class _IrPrinter:
    """Writes IR statements and expressions as text: a node as `Kind(field=value, …)` without its
    span, a statement's blocks indented under it."""

    def __init__(self, ns, out: list):
        self.ns, self.out = ns, out

    def slot(self, slot: int) -> str:
        return f"v[{self.ns.slot(slot)}]"

    def x(self, e) -> str:
        if isinstance(e, (ir.Slot, ir.SlotTarget)):
            return self.slot(e.slot)
        if isinstance(e, ir.Const):
            return _short(e.value)
        if isinstance(e, ir.Phase):
            return f"phase {e.name}"
        if isinstance(e, (tuple, list)):
            return "(" + ", ".join(self.x(i) for i in e) + ("," if len(e) == 1 else "") + ")"
        if attrs.has(type(e)):
            parts = [f"{a.name}={self.x(getattr(e, a.name))}" for a in attrs.fields(type(e)) if a.name != "span"]
            return f"{type(e).__name__}({', '.join(parts)})"
        return _short(e)

    def block(self, stmts, depth: int) -> None:
        pad = "    " * depth
        if not stmts:
            self.out.append(f"{pad}pass")
        for st in stmts:
            if st.span is not None:
                self.out.append(f"{pad}# {_where(st.span)}")
            blocks, fields = [], []
            for a in attrs.fields(type(st)):
                value = getattr(st, a.name)
                if a.name == "span":
                    continue
                if a.name == "branches":
                    blocks += [(f"if {self.x(cond)}", body) for cond, body in value]
                elif a.name == "alternatives":
                    blocks += [(f"alternative {alt.kind} {self.slot(alt.slot) if alt.slot is not None else ''}"
                                f" where {self.x(alt.where)} from {self.x(alt.source)}", alt.body) for alt in value]
                elif isinstance(value, tuple) and value and all(isinstance(s, ir.Stmt) for s in value) \
                        or a.name in ("body", "orelse"):
                    blocks.append((a.name, value))
                elif a.name in ("slot", "seq_slot") and type(value) is int:
                    fields.append(f"{a.name}={self.slot(value)}")
                else:
                    fields.append(f"{a.name}={self.x(value)}")
            self.out.append(f"{pad}{type(st).__name__} {' '.join(fields)}".rstrip())
            for head, body in blocks:
                self.out.append(f"{pad}  {head}:")
                self.block(body, depth + 1)

