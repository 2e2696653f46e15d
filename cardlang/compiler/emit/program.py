"""The compiled program: the op graph written as Python by the emitter, one function per op
entered, with the protocol `State` calls (`ProgramBase`).

Each op is written by its method `o_<Op>` and goes on with `goto`, which writes `return pc`, or,
when the `chaining` switch is on, writes the op found there in place (a pasted op starts knowing no
local of its host), so that one call runs from a decision to the next. An op is compiled the first
time the run loop enters it, so loading a game stays cheap: only the ops a run starts from or comes
back to are ever compiled (an alternative's body, a loop head, a phase's return point).

With the `playout` switch, each op has a second version for whole-game runs (`Program.playout`):
the same op written with the playout's draw in place of each choice's stop (`choose.write_pick`),
so a run goes from decision to decision without leaving generated code; with the `quiet` switch,
those written for a quiet state leave out every write of who knows which card. Each way of
writing a unit (chained or not, the kind of run: `options.Run`) is its own emitter, made for it
once with its frozen options (`Program.emitter`).
"""

from __future__ import annotations

import itertools

import attrs

from ...runtime import budget, engine, view
from ...runtime.actions import VALUE_BITS, VALUE_MASK
from ...runtime.basics import RuleError
from ...runtime.payoffs import PayoffRule
from ...runtime.log import flush, flush_up_to_error
from ...runtime.playout import NEVER
from ...runtime.program import ProgramBase, loops_forever, round_begins, round_locals
from . import seats
from .choose import write_choose, write_entry
from ..ir_facts import never_none, phases_spend_steps, reads_knowledge, seat_slots
from ..layout import slot_names
from .options import DECISIONS, Options, Run
from .rounds import RoundEmitter
from .writer import Namespace, Writer

_RUNTIME_ERRORS = (ArithmeticError, IndexError, TypeError, ValueError)  # a rule applied to what it cannot take
_STOPS = (RuleError, *_RUNTIME_ERRORS, MemoryError)  # what stops a run: a rule error, or a Python error a rule met
TOO_DEEP = _TOO_DEEP = (SyntaxError, RecursionError, MemoryError)  # what Python's compiler refuses: too deep, too nested
_units = itertools.count()


class Alt:
    """One alternative of a choice as `ProgramBase` and the bots read it: kind, slot, label, pure."""

    __slots__ = ("kind", "slot", "label", "pure", "card_set")

    def __init__(self, kind, slot, label, pure, card_set=None):
        self.kind, self.slot, self.label, self.pure = kind, slot, label, pure
        self.card_set = card_set  # a set of cards: (its cards' slot, its source's slot, fewest cards)


class Choice:
    """A choice's alternatives, its op's pc and its rule's span."""

    __slots__ = ("alts", "pc", "span")

    def __init__(self, alts, pc, span):
        self.alts, self.pc, self.span = alts, pc, span


class Emitter(RoundEmitter):
    """Writes the ops of a graph (`o_<Op>`), with the statements and expressions they hold."""

    def __init__(self, program, graph, ns, options: Options, run: Run, counting: bool):
        super().__init__(program, ns, options, run, counting)
        self.graph = graph
        self.branch_points = graph.branch_points
        self.bet_points = graph.bet_points
        self.phase_steps = program.phase_steps  # whether a phase played spends a step

    def op(self, w, pc: int, way: frozenset, start: int) -> None:
        """Writes op `pc` (its lines end on every path with a `return`)."""
        node = self.graph.ops[pc]
        w.where(node.span, f"op {pc} {type(node).__name__}, ")
        with w.at(node.span), w.fresh_frame():
            getattr(self, "o_" + type(node).__name__)(w, node, way | {pc}, start)

    def goto(self, w, target: int, way: frozenset, start: int) -> None:
        """Goes on at op `target`: pasted here when chaining allows it, else `return target`."""
        options = self.options
        if (options.chaining and target not in way and len(way) <= options.chain_depth
                and w.size() - start < options.chain_lines and 0 <= target < len(self.graph.ops)):
            self.op(w, target, way, start)
        else:
            w.line(f"return {target}")

    # ----------------------------------------------------------------- ops
    def o_Stmts(self, w, op, way, start):
        for st in op.stmts:
            self.stmt(w, st)
        self.goto(w, op.next, way, start)

    def o_Test(self, w, op, way, start):
        w.line(f"if {self.x(w, op.cond)}:")
        with w.indent():
            self.goto(w, op.yes, way, start)
        self.goto(w, op.no, way, start)

    def o_Jump(self, w, op, way, start):
        self.goto(w, op.target, way, start)

    def o_Count(self, w, op, way, start):
        self.count(w, op.k)
        self.goto(w, op.next, way, start)

    def o_ForStart(self, w, op, way, start):
        q = w.fresh("_q")
        w.line(f"{w.place(op.loop.seq_slot)} = {q} = tuple({self.x(w, op.loop.seq)})")
        self._spend(w, op.span, f"len({q})")  # a step an item, all at once (loops in loops multiply)
        w.line(f"{w.place(op.index)} = 0")
        self.goto(w, op.next, way, start)

    def o_ForNext(self, w, op, way, start):
        loop, q, i = op.loop, w.fresh("_q"), w.fresh("_i")
        w.line(f"{q} = {w.place(loop.seq_slot)}")
        w.line(f"{i} = {w.place(op.index)}")
        w.line(f"while {i} < len({q}):")
        with w.indent():
            x = w.local_for(loop.slot)
            w.line(f"{w.place(loop.slot)} = {x} = {q}[{i}]")
            w.line(f"{i} += 1")
            self.skip_unless_where(w, loop, x)
            w.line(f"{w.place(op.index)} = {i}")
            self.goto(w, op.body, way, start)
        self.goto(w, op.end, way, start)

    def o_RepeatStart(self, w, op, way, start):
        w.line(f"{w.place(op.slot)} = {self.x(w, op.count)}")
        self.goto(w, op.next, way, start)

    def o_RepeatNext(self, w, op, way, start):
        w.line(f"if {w.place(op.slot)} > 0:")
        with w.indent():
            w.line(f"{w.place(op.slot)} -= 1")
            self._spend(w, op.span)
            self.goto(w, op.body, way, start)
        self.goto(w, op.end, way, start)

    def o_WhileTest(self, w, op, way, start):
        w.line(f"if {'not ' if op.negate else ''}{self.x(w, op.cond)}:")
        with w.indent():
            self._spend(w, op.span)
            self.goto(w, op.body, way, start)
        self.goto(w, op.end, way, start)

    def o_Call(self, w, op, way, start):
        # a call spends a step of the budget where phases can multiply the work: a phase never plays
        # itself (E023), but phases that each play the next one twice play the last 2^N times
        self.arguments(w, op.args, op.phase.slots)
        if self.phase_steps:
            self._spend(w, op.span)
        if op.push:
            w.line(f"s.stack.append({op.next})")
        self.goto(w, op.target, way, start)

    def o_Return(self, w, op, way, start):
        w.line("return s.stack.pop()")

    def o_Choose(self, w, op, way, start):
        write_choose(self, w, op, way, start)

    def o_EndGame(self, w, op, way, start):
        self.s_EndGame(w, op.node)  # (it ends the run: `rounds.py` writes it, for whole rounds too)

    def o_EndRound(self, w, op, way, start):
        w.line("s.stack.clear()")
        self.goto(w, op.target, way, start)

    def o_NextRound(self, w, op, way, start):
        sitting = self.program.ir.sitting_slot
        if sitting is not None:  # a new round: those who sat out the last one come back
            w.line(f"if {w.place(sitting)}:")
            w.line(f"    {self.c(seats.back_in)}(s, {w.index(sitting)})")
            w.seat_changed()
        for slot in round_locals(self.program):  # (a round's locals start empty: see `round_locals`)
            w.line(f"{w.place(slot)} = None")
        w.line("s.round += 1")
        w.line("if s.rounds_at is not None:")
        w.line(f"    {self.c(round_begins)}(s)")
        w.line("s.steps -= 1")
        w.line(f"if s.steps < 0 or s.round > {self.program.max_rounds}:")
        w.line(f"    {self.c(loops_forever)}({self.c(op.span)}, s)")
        if self.run.pick is not None and self.options.rounds:  # a whole-game run: the round as one function
            w.line("if s.round < stop:")
            w.line(f"    return {len(self.graph.ops)}")
        elif self.run.pick is None and self.program.frames:  # a decision at a time: the round's frame
            w.line(f"return {len(self.graph.ops)}")
            return
        self.goto(w, op.next, way, start)

    # ------------------------------------------------------------ compiling
    def compile_op(self, pc: int):
        """The function of op `pc`, written for this emitter's run (`Program.emitter`)."""
        return self._unit("_op", lambda w: self.op(w, pc, frozenset(), 0))

    def compile_resume(self, index: int, ai: int):
        """`f(s, a)`, what `Program.resume` runs for action `a` of alternative `ai` of choice `index`:
        the alternative's variable set from `a`, then its body (chained: on to the next decision)."""
        slot, body = self.graph.resumes[index][ai]

        def write(w):
            if slot is not None:  # (alternative 0's ids are their values: no mask)
                w.line(f"{w.place(slot)} = a & {VALUE_MASK}" if ai else f"{w.place(slot)} = a")
            self.goto(w, body, frozenset(), 0)
        return self._unit("_resume", write, "s, a")

    def compile_entry(self, index: int):
        """The start of a whole-game run at a pending decision of choice `index`."""
        return self._unit("_entry", lambda w: write_entry(self, w, index))

    def compile_round(self):
        """A round from its beginning to the next, as one function (`rounds.py`); a counting
        program's round keeps its counts in locals while it runs (`Writer.keeping_counts`: the
        round's loops count many times a call)."""
        if not self.counting:
            return self._unit("_round", self.whole_round, lists=True)

        def write(w):
            with w.keeping_counts():
                self.whole_round(w)
        return self._unit("_round", write, lists=True)

    def compile_frame(self):
        """The generator of a round played a decision at a time, from its beginning (`frames.py`)."""
        return self._unit("_frame", self.whole_round, lists=True)

    def _unit(self, prefix: str, write, params: str = "s", lists: bool = False):
        """Compiles a function `prefix…(params)` whose body `write(w)` writes; `lists`: a unit that runs
        long (a round) takes the state's lists into locals first (`Writer.hold_state_lists`)."""
        whole = self.run.pick is not None  # a whole-game run's unit: `(s, P, stop, T, on)`
        w = Writer(self.ns, self.options.names)
        name = self.ns.fresh(prefix)
        w.define(name, "s, P, stop, T, on" if whole else params)
        with w.indent():
            w.line("v = s.v")
            if whole:  # the step budget a decision starts (tests may lower it), the history
                w.line(f"_B, _H = {self.c(engine)}.STEP_BUDGET, s.history")
                w.keep_all_in()
            if lists:
                w.hold_state_lists()
            write(w)
        return self._keep(w.compile(name, f"<cardlang op {next(_units)}>"))

    def compile_expr(self, e):
        """A function `f(s)` giving the value of expression `e`."""
        return self._value_unit("_e", "expr", lambda w: self.x(w, e))

    def compile_text(self, t):
        """A function `f(s)` giving (text with card marks, the cards marked) of text `t`."""
        return self._value_unit("_label", "text", lambda w: self.text(w, t))

    def _value_unit(self, prefix: str, kind: str, value):
        w = Writer(self.ns, self.options.names)
        name = self.ns.fresh(prefix)
        w.define(name, "s")
        with w.indent():
            w.line("v = s.v")
            w.line(f"return {value(w)}")
        return self._keep(w.compile(name, f"<cardlang {kind} {next(_units)}>"))

    def _keep(self, compiled):
        """The function of a compiled unit, its spans and source kept for errors and readers."""
        f, spans, text = compiled
        filename = f.__code__.co_filename
        self.program.spans_of[filename] = spans
        self.program.sources[filename] = text
        return f


class Program(ProgramBase):
    """A game compiled by the emitter, with the protocol `State` calls (see `ProgramBase`)."""

    def __init__(self, layout, lowered, max_decisions: int, max_rounds: int, counting: bool = False):
        self._init_layout(layout)
        self.ir = lowered
        self.max_decisions, self.max_rounds = max_decisions, max_rounds
        self.counting = counting
        self.hits: list = []
        self.offered: list = []
        self.taken: list = []  # a choice's decisions offered and taken at once (both, for coverage)
        self.spans_of: dict = {}  # generated file name -> the rule span of each of its lines
        self.sources: dict = {}  # generated file name -> its source, for reading what was generated
        self.passes: tuple = ()
        self.refused: list = []  # (pc, chained, why) of each op Python refused to compile
        self.reads_knowledge = reads_knowledge(lowered)
        self.never_none = never_none(lowered)  # slots that always hold a card (`compiler/ir_facts.py`)
        self.seat_slots = seat_slots(lowered)  # slots that always hold a seat (a choice by one checks no seat)
        self.phase_steps = phases_spend_steps(lowered)  # whether a phase played spends a step

    def setup(self, graph, passes, names: bool = False) -> None:
        """Takes the op graph the graph passes left and makes the program's tables and functions,
        written with the switches among `passes` and slot indexes as `names` says
        (`options.Options.of`). Made again before it runs (`cardlang dump`), it starts afresh."""
        self.graph, self.passes = graph, tuple(passes)
        self.options = Options.of(self.passes, names)
        self.spans_of.clear()  # (made again: the units written before are gone)
        self.sources.clear()
        self.ns = Namespace({**slot_names(self.layout), **self.ir.slot_names, **graph.slot_names})
        self.emitters: dict = {}  # (run, chained) -> its emitter (`emitter`)
        self.em = self.emitter(DECISIONS)
        self.frames = self.em.writes_frames()  # (read by `o_NextRound`: set before any op is written)
        self.rule_points = list(graph.rule_points)
        self.hits[:] = [0] * len(self.rule_points)  # (in place: the generated code holds these lists)
        self.offered[:] = [0] * len(self.rule_points)
        self.taken[:] = [0] * len(self.rule_points)
        self.nslots = graph.nslots
        self.card_slots, self.cards_slots = self.ir.card_slots, self.ir.cards_slots
        self.group_slot = self.ir.group_slot  # (runtime/groups.py: what a redeal keeps by place)
        self.entry, self.round_pc = graph.entry, graph.round_pc
        self.op_spans = [op.span for op in graph.ops]
        self.resumes = tuple(graph.resumes)
        self.var_inits = [(slot, per_player, self.em.compile_expr(e)) for slot, per_player, e in self.ir.var_inits]
        self.score = None if self.ir.score is None else (self.ir.score[0], self.em.compile_expr(self.ir.score[1]))
        pay = self.ir.payoff
        self.payoff = None if pay is None else PayoffRule(pay.slot, self.em.compile_expr(pay.value), pay.zero_sum,
                                                          pay.shared, pay.span)
        self.at_once = {a.choice: a for a in self.ir.at_once}
        self.chooses = []
        for c in self.ir.choices:
            alts = []
            for a in c.alternatives:
                label = self.em.compile_text(a.label) if a.label is not None else None
                alts.append(Alt(a.kind, a.slot, label, a.pure, a.card_set))
            self.chooses.append(Choice(alts, graph.choices[c.index], c.span))
        self.code = [self._stub(pc) for pc in range(len(graph.ops))]
        self.code.append(self._frame_stub)  # (the pc after the last op: a round's frame begins, `o_NextRound`)
        # per choice, per alternative: (its `f(s, a)` for `resume`, compiled when first played; its body's pc)
        self.resume_entries = [None if r is None else tuple((self._resume_stub(index, ai), pc)
                                                            for ai, (_, pc) in enumerate(r))
                               for index, r in enumerate(graph.resumes)]
        self.plays_whole_games = self.options.playout
        self.resume = self.state_apply = _resume_for(self)  # (`resume(st, a)`: see `_resume_for`)
        self.variants: dict = {}  # the fields of a `Run` -> (ops, entries by choice) of whole-game runs

    def emitter(self, run: Run, chained: bool = True) -> Emitter:
        """The emitter of the units of a kind of run (`options.Run`), chained or not (the program's
        options, with `chaining` off), made once."""
        em = self.emitters.get((run, chained))
        if em is None:
            options = self.options if chained else attrs.evolve(self.options, chaining=False)
            em = self.emitters[(run, chained)] = Emitter(self, self.graph, self.ns, options, run, self.counting)
        return em

    def _stub(self, pc: int):
        def first_entry(s):
            op = self.code[pc] = self._compiled(pc)
            return op(s)
        return first_entry

    def _frame_stub(self, s):
        """Compiles the round's frame when a round first begins (`_frame_starter`), or, if Python
        refuses it (nested too deeply once phases are in place), the ops play the round."""
        try:
            start = _frame_starter(self.em.compile_frame())
        except _TOO_DEEP as e:
            self.refused.append((len(self.graph.ops), True, f"{type(e).__name__}: {e}"))
            after = self.graph.ops[self.round_pc].next
            start = lambda s: after  # noqa: E731
        self.code[len(self.graph.ops)] = start
        return start(s)

    def _resume_stub(self, index: int, ai: int):
        def first_entry(s, a):
            f = self._compiled_resume(index, ai)
            row = self.resume_entries[index]
            self.resume_entries[index] = row[:ai] + ((f, row[ai][1]),) + row[ai + 1:]
            return f(s, a)
        return first_entry

    def _compiled_resume(self, index: int, ai: int):
        """What `resume` runs for alternative `ai` of choice `index`: chained if Python accepts it,
        else the variable set and the body's pc returned, for the run loop."""
        try:
            return self.em.compile_resume(index, ai)
        except _TOO_DEEP as e:
            self.refused.append((self.graph.choices[index], True, f"{type(e).__name__}: {e}"))
            return self.emitter(DECISIONS, chained=False).compile_resume(index, ai)

    def _compiled(self, pc: int, run: Run = DECISIONS):
        """Op `pc` as a function: chained if Python accepts it, else alone, else unfused."""
        for chained in (True, False):
            try:
                return self.emitter(run, chained).compile_op(pc)
            except _TOO_DEEP as e:
                self.refused.append((pc, chained, f"{type(e).__name__}: {e}"))  # (tests check that none is)
        unfused = getattr(self.graph.ops[pc], "plain", None)
        if unfused is None:
            raise RuleError("this rule is nested too deeply for the engine", self.op_spans[pc])
        self.graph.ops[pc] = unfused  # (a fused run Python refuses: its statements one op each)
        return self._compiled(pc, run)

    def _variant(self, key: tuple) -> tuple:
        """The ops and entries of whole-game runs of one kind (`Run(*key)`), each compiled when first
        entered."""
        run = Run(*key)
        ops: list = []
        entries: list = []

        def op_stub(pc):
            def first_entry(s, P, stop, T, on):
                op = ops[pc] = self._compiled(pc, run)
                return op(s, P, stop, T, on)
            return first_entry

        def entry_stub(index):
            def first_entry(s, P, stop, T, on):
                try:
                    f = entries[index] = self.emitter(run).compile_entry(index)
                except _TOO_DEEP:  # (too deep chained: the choice's draw alone, then the run loop)
                    f = entries[index] = self.emitter(run, chained=False).compile_entry(index)
                return f(s, P, stop, T, on)
            return first_entry

        def round_stub(s, P, stop, T, on):  # (the pc after the last op: see `o_NextRound`)
            f = None
            if self.em.writes_whole_rounds():
                try:
                    f = self.emitter(run).compile_round()
                except _TOO_DEEP as e:  # (nested too deeply once phases are in place: the ops play it)
                    self.refused.append((len(self.graph.ops), True, f"{type(e).__name__}: {e}"))
            if f is None:
                after = self.graph.ops[self.round_pc].next
                f = lambda s, P, stop, T, on: after  # noqa: E731
            ops[len(self.graph.ops)] = f
            return f(s, P, stop, T, on)

        ops.extend(op_stub(pc) for pc in range(len(self.graph.ops)))
        ops.append(round_stub)
        entries.extend(entry_stub(i) for i in range(len(self.chooses)))
        table = self.variants[key] = (ops, entries)
        return table

    def source(self, f) -> str:
        """The Python source of a generated function `f` (an op of `code`, a label, an initial value)."""
        return self.sources.get(f.__code__.co_filename, "")

    # ---------------------------------------------------------------- running
    def _start(self, st) -> None:
        st.pc = self.entry
        st.stack = []

    def repend(self, st) -> None:
        """Works out the pending choice's legal actions again (its op only reads the state)."""
        self.code[self.chooses[st.pending.choice].pc](st)

    def run(self, st) -> None:
        """Runs the state from `st.pc` to the next decision or the end."""
        # The step budget is spent where a run could go on forever: each pass of a `while` or a
        # `repeat`, each round; it is read at each run, so that tests and tools can lower it.
        st.steps = engine.STEP_BUDGET
        self._run(st, st.pc)

    def _run(self, st, pc: int) -> None:
        """Runs on from op `pc` (the step budget as it stands) to the next decision or the end."""
        code = self.code
        try:
            while pc >= 0:
                pc = code[pc](st)
        except _STOPS as e:
            raise self._failed(st, e, pc)
        if st.log is not None and st.fresh:
            flush(st)

    def _failed(self, st, error, pc: int) -> RuleError:
        """The rule error to raise for `error`, met in a run at op `pc`: the log kept up to it, the
        error placed at the rule line it left generated code at, and dated in the game (a Python
        error becomes a rule error it is the cause of, as `raise … from error` makes it)."""
        flush_up_to_error(st)
        if isinstance(error, RuleError):
            return error.located(self._where(error, pc)).in_game(st.seed, len(st.history))
        if isinstance(error, MemoryError):  # (the budgets keep real runs far from it: the last resort)
            failed = budget.out_of_memory(self._where(error, pc)).in_game(st.seed, len(st.history))
        else:
            failed = RuleError(str(error), self._where(error, pc)).in_game(st.seed, len(st.history))
        failed.__cause__ = error
        return failed

    def playout(self, st, pick: str, source, stop_round=None, tally=None, on_decision=None) -> int:
        """Plays on from the pending decision in one generated run, each decision drawn from
        `source` as `runtime.playout` draws it (`pick`: "seat", "random" or "script"), until the end
        or round `stop_round`; returns the decisions played. For a state with no log and no record
        of the round (what `runtime.playout` checks); a quiet one is played without knowledge."""
        told = None if on_decision is None else "on" if tally is None else "tally"
        key = (pick, told, st.quiet and self.options.quiet)  # (a `Run`'s fields: a tuple is cheaper to make)
        ops, entries = self.variants.get(key) or self._variant(key)
        st.frame = None  # (the run plays on without the round's frame: it is left behind)
        before = len(st.history)
        index = st.pending.choice
        pc = self.chooses[index].pc
        st.steps = engine.STEP_BUDGET
        args = (source, NEVER if stop_round is None else stop_round, tally, on_decision)
        try:
            pc = entries[index](st, *args)
            while pc >= 0:
                pc = ops[pc](st, *args)
        except RuleError as e:
            raise self._failed(st, e, pc)
        except (*_RUNTIME_ERRORS, MemoryError) as e:
            raise self._failed(st, e, pc) from e
        if not st.terminal and len(st.history) >= self.max_decisions:
            self._check_decisions(st, self.chooses[st.pending.choice].span)
        return len(st.history) - before

    def _where(self, error, pc: int):
        """The rule line the error left generated code at (the innermost generated frame)."""
        at = None
        tb = error.__traceback__
        while tb is not None:
            spans = self.spans_of.get(tb.tb_frame.f_code.co_filename)
            if spans is not None and 1 <= tb.tb_lineno <= len(spans):
                at = spans[tb.tb_lineno - 1] or at
            tb = tb.tb_next
        return at if at is not None else self.op_spans[pc] if 0 <= pc < len(self.op_spans) else None


def _frame_starter(frame):
    """The op that begins a round in its frame (the generator `frame(s)`), kept in `state.frame`,
    and runs it to its first decision (-1), or returns the pc the round ends at (a round without a
    decision) as the generator's value."""
    def start(s):
        g = s.frame = frame(s)
        try:
            next(g)
        except StopIteration as e:
            s.frame = None
            return e.value
        except BaseException:  # (a generator that raised is over: the state has none)
            s.frame = None
            raise
        return -1
    return start


def _resume_for(program: Program):
    """The compiled program's `resume(st, a)`, which is also its games' `State.apply` (see
    `ProgramBase.state_apply`), so that a decision costs one call: a plain legal id plays here, at
    once (sent to the round's frame when the state waits in one: `frames.py`); anything else (a label, an `Action`, an id that is not legal) goes through `State.apply`'s
    checks, and comes back here as the legal id it names, or is refused there."""
    entries, run_on, record = program.resume_entries, program._run, view.record  # (filled in place)
    checked = engine.State.apply
    most = program.max_decisions

    def resume(st, a) -> None:
        """Plays a legal action (an `Action`, its id, or its label) and runs to the next decision."""
        pending = st._pending
        if type(a) is not int or pending is None or a not in pending[2]:
            return checked(st, a)
        if st.round != st._past_round:  # (once a round: `State.checkpoint`'s setter asks again)
            cp = st._checkpoint  # (False in the copies bots play out: they keep no past)
            if cp is not False and (cp is None or cp[0] != st.round) and not st.quiet:
                record(st, a)  # (what it tests first, tested here: most decisions need nothing)
            st._past_round = st.round
        history = st.history
        history.append(a)
        log = st.log  # (a state's log is there or not for the whole game: read once)
        if log is not None:
            program._log_choice(st, a)
        st._pending = None
        st.steps = engine.STEP_BUDGET  # (read at each run: tests and tools lower it)
        frame = st.frame
        if frame is not None:  # the round's generator waits at this decision: on from there
            try:
                frame.send(a)
            except StopIteration as e:  # (the round is over: on through the ops from the pc it ends at)
                st.frame = None
                pc = e.value
            except _STOPS as e:
                st.frame = None
                raise program._failed(st, e, program.chooses[pending[0]].pc)
            except BaseException:
                st.frame = None
                raise
            else:  # (at the next decision, in the frame: the common case, done here)
                if log is not None and st.fresh:
                    flush(st)
                if len(history) >= most:
                    program._check_decisions(st, program.chooses[st.pending.choice].span if st.pending else None)
                return
        else:
            # the alternative's own entry sets its variable and runs its body, chained to the next
            # decision (alt_of without a call)
            entry, pc = entries[pending[0]][a >> VALUE_BITS]
            try:
                pc = entry(st, a)
            except _STOPS as e:
                raise program._failed(st, e, pc)
        if pc >= 0:  # an op the entry goes on at (a loop's head, a return point): on as `run` goes
            run_on(st, pc)
        elif log is not None and st.fresh:
            flush(st)
        if len(history) >= most:
            program._check_decisions(st, program.chooses[st.pending.choice].span if st.pending else None)
    return resume
