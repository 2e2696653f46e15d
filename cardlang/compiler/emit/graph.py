"""The op graph: the IR of a game laid out as a list of ops, each a step of the run loop.

An op does its work and goes to the op at an absolute index (its pc), or stops (a decision, the
end). `Builder` lays the setup, the round and the phases out: a statement that cannot stop is one
`Stmts` op; an `if` is a `Test` per branch with `Jump`s to its end; a loop is a start op, a head
op and its body with a `Jump` back; a phase call is a `Call` (with a `Return` when the phase is
called from several places, else jumps there and back); a `chooses` is a `Choose` whose
alternatives' bodies follow it. The graph passes (`compiler/passes/`) then rewrite the graph; the
emitter writes each op as Python (`o_<Op>` in `emit/program.py`).
"""

from __future__ import annotations

import collections

import attrs

from .. import ir
from ...runtime import bet_counts

op = attrs.define(eq=False)


@op
class Stmts:
    """Statements that cannot stop, one after the other, then `next` (`plain`: for a fused run, the
    op it replaced, which does its first statement)."""
    span: object
    stmts: tuple
    next: int
    plain: object = None


@op
class Test:
    """`if cond` of a branch: to `yes`, else to `no`."""
    span: object
    cond: object
    yes: int
    no: int


@op
class Jump:
    """Only goes to `target`."""
    span: object
    target: int


@op
class Count:
    """Counts rule point `k` (when the program counts), then `next`."""
    span: object
    k: int
    next: int


@op
class ForStart:
    """`for each`: the items into the loop's slot, its place at 0, then the head."""
    span: object
    loop: object
    index: int  # the slot of its place in the items
    next: int


@op
class ForNext:
    """The next item where the filter holds into the loop variable, then `body`; `end` after the last."""
    span: object
    loop: object
    index: int
    body: int
    end: int


@op
class RepeatStart:
    """`repeat n times`: n into `slot`, then the head."""
    span: object
    count: object
    slot: int
    next: int


@op
class RepeatNext:
    """A pass left: one fewer, a step spent, then `body`; else `end`."""
    span: object
    slot: int
    body: int
    end: int


@op
class WhileTest:
    """`while`: the condition holds (or not, `negate`): a step spent, then `body`; else `end`."""
    span: object
    cond: object
    negate: bool
    body: int
    end: int


@op
class Call:
    """A phase played: its arguments into its parameters; `push`: `next` onto the return stack."""
    span: object
    phase: object
    args: tuple
    next: int
    push: bool
    target: int = -1


@op
class Return:
    """The end of a phase called from several places: back where it was called."""
    span: object


@op
class Choose:
    """`p chooses`: the legal actions worked out, the run stops."""
    span: object
    node: object
    index: int


@op
class EndGame:
    span: object
    node: object


@op
class EndRound:
    """The rest of the round skipped: the return stack emptied, to the round's start."""
    span: object
    target: int


@op
class NextRound:
    """A new round: counted, a step spent, the game's most rounds checked; then `next`."""
    span: object
    next: int


STOPS = (ir.Choose, ir.CallPhase, ir.EndGame, ir.EndRound)
SIMPLE = (ir.Assign, ir.Increase, ir.Move, ir.Deal, ir.Shuffle, ir.SwapZones, ir.SwapCards, ir.Reveal, ir.Hide,
          ir.Announce, ir.Eliminate, ir.SitOut, ir.ReverseDirection, ir.SetDirection, ir.PotRule, ir.PotAward, ir.Conceal,
          ir.TellFace, ir.TellWhich, ir.ForgetOrder, ir.Lay)  # (finer knowledge: runtime/facts.py)


def straight(st) -> bool:
    """Whether a statement cannot stop the run (no choice, phase or end inside; no `break`, a jump of
    the graph out of its loop)."""
    if isinstance(st, SIMPLE):
        return True
    if isinstance(st, ir.If):
        return all(straight(x) for _, body in st.branches for x in body) and all(straight(x) for x in st.orelse)
    if isinstance(st, (ir.ForEach, ir.Repeat, ir.While)):
        return all(straight(x) for x in st.body)
    return False


class Graph:
    """The ops of one game, and what the passes and the emitter need to know of them."""

    def __init__(self):
        self.ops: list = []
        self.runs: list = []  # (first pc, pc after, statements) of each run of straight statements
        self.rule_points: list = []  # (kind, span, pc, extra), as `cardlang.play.coverage` reads them
        self.branch_points: dict = {}  # id(ir.If) -> rule point of each branch (else last)
        self.bet_points: dict = {}  # id(ir.PotRule) of a betting round -> its first rule point (bets_point)
        self.resumes: list = []  # per choice: (slot, pc of its body) per alternative
        self.choices: list = []  # per choice: its `Choose` op's pc
        self.points_of_choice: list = []  # per choice: the rule point of each alternative
        self.entry = 0
        self.round_pc = 0
        self.nslots = 0
        self.slot_names: dict = {}  # each slot the graph adds (a loop's place, a repeat's count) -> its name
        self.splits: dict = {}  # id(ir.Alternative) -> (first terms, the rest or None): passes/split.py
        # what a round's frame (`emit/frames.py`) keeps as the ops do: id(ir.ForEach) -> its place's
        # slot, id(ir.Repeat) -> its count's slot, id(ir.CallPhase) -> its `Call` op
        self.loop_slots: dict = {}
        self.call_ops: dict = {}


class Builder:
    """Lays one lowered game out as a `Graph`."""

    def __init__(self, program: ir.Program, counting: bool):
        self.p = program
        self.counting = counting
        self.g = Graph()
        self.g.nslots = program.nslots
        self.calls: list = []  # (pc, phase) of each call
        self.breaks: list = []  # per loop being laid out, innermost last: the pc of each `break`'s `Jump`
        self._bets: dict = {}  # span of a betting round -> its first rule point

    def slot(self, name: str) -> int:
        """A new slot of `state.v` for the op graph's own use (`name`: for a reader of generated code)."""
        s = self.g.nslots
        self.g.nslots += 1
        self.g.slot_names[s] = name
        return s

    def add(self, make) -> int:
        """Appends the op `make(pc)` and returns its pc."""
        pc = len(self.g.ops)
        self.g.ops.append(None)
        self.g.ops[pc] = make(pc)
        return pc

    def point(self, kind: str, span) -> int:
        """A rule point that coverage counts (with its `Count` op when the program counts)."""
        k = len(self.g.rule_points)
        self.g.rule_points.append((kind, span, len(self.g.ops), None))
        if self.counting:
            self.add(lambda pc: Count(span, k, pc + 1))
        return k

    def build(self) -> Graph:
        p, g = self.p, self.g
        self.block(p.setup)
        g.round_pc = self.add(lambda pc: NextRound(p.round_span, pc + 1))
        self.block(p.round)
        self.add(lambda pc: Jump(p.round_span, g.round_pc))
        starts, returns = {}, {}
        for name, phase in p.phases.items():
            starts[name] = len(g.ops)
            self.block(phase.body)  # (a `break` is inside a loop of its own block: E059)
            returns[name] = self.add(lambda pc: Return(phase.span))
        callers = collections.Counter(phase.name for _, phase in self.calls)  # (phases call phases too)
        for pc, phase in self.calls:  # a phase called from one place returns there by a jump
            call = g.ops[pc]
            call.target = starts[phase.name]
            call.push = callers[phase.name] > 1
            if not call.push:
                g.ops[returns[phase.name]] = Jump(phase.span, call.next)
        return g

    def block(self, stmts) -> None:
        run: list = []
        for st in list(stmts) + [None]:
            if st is not None and straight(st):
                run.append((st, len(self.g.ops)))
                self.stmt(st)
                continue
            if run and len(self.g.ops) - run[0][1] > 1:  # worth fusing: more than one op
                self.g.runs.append((run[0][1], len(self.g.ops), tuple(x for x, _ in run)))
            run = []
            if st is not None:
                self.stmt(st)

    def stmt(self, st) -> None:
        if isinstance(st, SIMPLE):
            if isinstance(st, ir.PotRule) and st.what in bet_counts.COUNTED:
                self.bets_point(st)
            self.add(lambda pc: Stmts(st.span, (st,), pc + 1))
            return
        getattr(self, "b_" + type(st).__name__)(st)

    def bets_point(self, st: ir.PotRule) -> None:
        """The rule points of a betting round's own parts (`runtime/bet_counts.py`), once for the
        round (its `start` and the `act` of each decision share its span): the statements count
        them themselves when the program counts, so they have no `Count` op; the blinds' point
        says whether the round has blinds."""
        first = self._bets.get(st.span)
        if first is None:
            first = self._bets[st.span] = len(self.g.rule_points)
            # the round's `start` is laid out before its decisions' `act`s (lower_pots.py)
            blinds = st.what == "start" and not (isinstance(st.args[1], ir.Const) and st.args[1].value == ())
            self.g.rule_points += [(kind, st.span, None, blinds if kind == "blinds" else None)
                                   for kind in bet_counts.KINDS]
        self.g.bet_points[id(st)] = first

    def _patch(self, pc: int, **fields) -> None:
        for name, value in fields.items():
            setattr(self.g.ops[pc], name, value)

    def b_If(self, st: ir.If):
        ends, points = [], []
        for i, (cond, body) in enumerate(st.branches):
            test = self.add(lambda pc: Test(st.span, cond, pc + 1, -1))
            points.append(self.point("elif" if i else "if", cond.span))
            self.block(body)
            ends.append(self.add(lambda pc: Jump(st.span, -1)))
            self._patch(test, no=len(self.g.ops))
        if st.orelse:
            points.append(self.point("else", st.orelse[0].span))
            self.block(st.orelse)
        self.g.branch_points[id(st)] = points
        for j in ends:
            self._patch(j, target=len(self.g.ops))

    def b_ForEach(self, st: ir.ForEach):
        index = self.g.loop_slots[id(st)] = self.slot(f"{self.p.slot_names.get(st.slot, 'item')}_at")
        self.add(lambda pc: ForStart(st.span, st, index, pc + 1))
        head = self.add(lambda pc: ForNext(st.span, st, index, pc + 1, -1))
        self.loop_body(st.body)
        self.add(lambda pc: Jump(st.span, head))
        self._end_loop(head)

    def b_Repeat(self, st: ir.Repeat):
        slot = self.g.loop_slots[id(st)] = self.slot("repeats_left")
        self.add(lambda pc: RepeatStart(st.span, st.count, slot, pc + 1))
        head = self.add(lambda pc: RepeatNext(st.span, slot, pc + 1, -1))
        self.loop_body(st.body)
        self.add(lambda pc: Jump(st.span, head))
        self._end_loop(head)

    def b_While(self, st: ir.While):
        head = self.add(lambda pc: WhileTest(st.span, st.cond, st.negate, pc + 1, -1))
        self.loop_body(st.body)
        self.add(lambda pc: Jump(st.span, head))
        self._end_loop(head)

    def loop_body(self, body) -> None:
        """A loop's body, whose `break`s jump to the loop's end (`_end_loop`)."""
        self.breaks.append([])
        self.block(body)

    def _end_loop(self, head: int) -> None:
        end = len(self.g.ops)
        self._patch(head, end=end)
        for j in self.breaks.pop():
            self._patch(j, target=end)

    def b_Break(self, st: ir.Break):
        self.breaks[-1].append(self.add(lambda pc: Jump(st.span, -1)))

    def b_CallPhase(self, st: ir.CallPhase):
        pc = self.add(lambda pc: Call(st.span, st.phase, st.args, pc + 1, False))
        self.calls.append((pc, st.phase))
        self.g.call_ops[id(st)] = self.g.ops[pc]

    def b_EndGame(self, st: ir.EndGame):
        self.add(lambda pc: EndGame(st.span, st))

    def b_EndRound(self, st: ir.EndRound):
        self.add(lambda pc: EndRound(st.span, self.g.round_pc))

    def b_Choose(self, st: ir.Choose):
        pc = self.add(lambda pc: Choose(st.span, st, st.index))
        exits, resumes, points = [], [], []
        for alt in st.alternatives:
            body = len(self.g.ops)
            points.append(self.point("choose", alt.span))
            self.block(alt.body)
            exits.append(self.add(lambda pc: Jump(alt.span, -1)))
            resumes.append((alt.slot, body))
        for j in exits:
            self._patch(j, target=len(self.g.ops))
        g = self.g
        while len(g.choices) <= st.index:
            g.choices.append(None)
            g.resumes.append(None)
            g.points_of_choice.append(None)
        g.choices[st.index], g.resumes[st.index], g.points_of_choice[st.index] = pc, tuple(resumes), points
        for ai, k in enumerate(points):
            kind, span, at, _ = g.rule_points[k]
            g.rule_points[k] = (kind, span, at, (st.index, ai))


def build(program: ir.Program, counting: bool = False) -> Graph:
    """The op graph of a lowered game, before any pass (`counting`: with `Count` ops)."""
    return Builder(program, counting).build()
