"""Stage 3, compile: the checked AST becomes a `Program`, a flat list of instructions over a `State`.

Each instruction is a closure `op(state) -> next pc`, built once here; expressions are closures
`f(state) -> value`. Nothing walks the AST while a game runs. Execution stops only at a decision
(`chooses`) or at the end of the game; every name lives in a fixed slot of `state.v`. The state
layout (`layout.py`) and the runtime (`runtime/`: zones, log, the program protocol) are those of
the reference interpreter (`reference.py`), which this engine must match (docs/engine.md).
"""

from __future__ import annotations

import collections
from typing import Callable, Optional

import attrs

from ..lang import ast
from . import codegen
from ..runtime import engine, rng, view
from ..runtime.cards import Deck
from ..lang.check import BOOL, CARD, CARDS, HANDVALUE, LIST, PLAYER, PLAYERS, RANK, SUIT, ZONE, ZONES, Symbols
from ..runtime.engine import STOP, RuleError
from ..runtime.log import describe, mark, player_name
from ..runtime.log import marks as card_marks
from ..runtime.log import flush as _flush
from ..runtime.log import flush_up_to_error as _flush_up_to_error
from ..runtime.program import ProgramBase
from ..runtime.program import loops_forever as _loops_forever
from ..runtime.zones import first_in as _first_in
from ..runtime.zones import move_cards as _move
from ..runtime.zones import still_in as _still_in
from .layout import build_layout, choose_deck, seat_ring
from .payoff import attach_payoff


class Choice:
    """A compiled `chooses`: who decides, and each alternative's kind, filter, binding and body."""

    __slots__ = ("player", "alts", "pc", "span")

    def __init__(self, player, alts, pc, span):
        self.player, self.alts, self.pc, self.span = player, alts, pc, span


class Alt:
    """One alternative of a choice (see `ast.Alternative`)."""

    __slots__ = ("kind", "label", "slot", "source", "high", "where", "body", "pure", "split")

    def __init__(self, kind, label, slot, source, high, where):
        self.kind, self.label, self.slot, self.source, self.high, self.where = kind, label, slot, source, high, where
        self.body = None
        self.pure = False  # the label depends only on the value chosen, so it can be cached
        self.split = None  # (first terms of `where`, the rest or None): see `Compiler._split_filter`


def select_deck(symbols: Symbols, players: int, options: dict) -> Deck:
    """The deck the game uses at this player count and these options."""
    return choose_deck(symbols, _ConstEnv(symbols, players, options).eval)


class _ConstEnv:
    """Evaluates the few expressions known before a game starts (deck conditions) by compiling them."""

    def __init__(self, symbols, players, options):
        self.symbols, self.players, self.options = symbols, players, options

    def eval(self, e):
        c = Compiler(self.symbols, self.players, self.options, deck=None)
        return c.expr(e)(None)


class Program(ProgramBase):
    """A compiled game: instructions, slots, zones and choices, plus what observers and logs need."""

    def __init__(self):
        # code: one op per step, as tools see and wrap them (rule coverage replaces the list);
        # fused: the same program with straight runs fused, which runs while `code is plain`
        self.code: list = []
        self.plain = self.fused = self.code
        self.lines: list = []
        self.chooses: list = []
        self.choice_at: dict = {}
        self.label_cache: dict = {}  # (choice index, action id) -> label, for alternatives marked pure
        # rules a designer wants counted (cardlang.coverage): (kind, span, pc of its first step, extra:
        # for a choice's alternative, (index of the choice, index of the alternative))
        self.rule_points: list = []
        # compiled with `counting`: times each rule point was reached, and (choices) offered
        self.hits: list = []
        self.offered: list = []

    # ---------------------------------------------------------------- running
    def _start(self, st) -> None:
        st.pc = self.entry
        st.stack = []

    def repend(self, st) -> None:
        """Works out the pending choice's legal actions again (its op only reads the state)."""
        self.plain[self.chooses[st.pending[0]].pc](st)

    def run(self, st) -> None:
        """Runs the state's program from `st.pc` to the next decision or the end."""
        self._run(st, st.pc)

    def _run(self, st, pc: int) -> None:
        # the fused program, unless a tool replaced `code` with its own (instrumented) list
        code = self.fused if self.code is self.plain else self.code
        # The step budget is spent where a run could go on forever: each pass of a `while` or a
        # `repeat`, each round (`_count_step`). A `for each` goes through a tuple made before it
        # starts and a phase never plays itself (E023), so neither spends any. The budget is read
        # at each run, so that tests and tools can lower it.
        # An op that raises leaves `pc` at itself, so the handlers below know its line.
        st.steps = engine.STEP_BUDGET
        try:
            while pc >= 0:
                pc = code[pc](st)
        except RuleError as e:
            _flush_up_to_error(st)
            raise e.located(codegen.rule_line(code[pc], e) or self.lines[pc]).in_game(st.seed, len(st.history))
        except (ArithmeticError, IndexError, TypeError, ValueError) as e:
            _flush_up_to_error(st)
            at = codegen.rule_line(code[pc], e) or self.lines[pc]
            raise RuleError(str(e), at).in_game(st.seed, len(st.history)) from e
        if st.log is not None and st.fresh:
            _flush(st)

    def resume(self, st, a: int) -> None:
        """Plays the legal action `a` of the pending choice and runs on to the next decision."""
        if st.checkpoint is not False:  # (False in the copies bots play out: they keep no past)
            view.record(st, a)
        slot, body = self.resumes[st.pending[0]][a >> 16]
        if slot is not None:
            st.v[slot] = a & 0xFFFF
        st.history.append(a)
        if st.log is not None:
            self._log_choice(st, a)
        st.pending = None
        self._run(st, body)
        if len(st.history) >= self.max_decisions:
            self._check_decisions(st, self.chooses[st.pending[0]].span if st.pending else None)


class Compiler:
    """Turns checked declarations into a `Program` for one player count and one set of options."""

    def __init__(self, symbols: Symbols, players: int, options: dict, deck: Optional[Deck],
                 counting: bool = False):
        self.sym = symbols
        self.counting = counting  # count each rule point in the generated code (`Program.hits`)
        self.branch_points: dict = {}  # id(if statement) -> rule point of each branch (else last)
        self.types = symbols.types
        self.n = players
        self.options = options
        self.deck = deck
        self.all = (1 << players) - 1
        self.nslots = 0
        self.scopes: list = [{}]
        self.p = Program()
        self.phase_pc: dict = {}
        self.phase_params: dict = {}
        self.pending_calls: list = []
        self.round_pc = 0
        self.stmt_pcs: dict = {}  # id(statement) -> (first pc, pc after)
        self.stmt_parts: dict = {}  # id(statement) -> what `_proc` needs of a control statement
        self.runs: list = []  # (first pc, pc after, statements) of each run `_fused_op` may fuse
        self.always_card: set = set()  # slots of variables that always hold a card (never none)
        self.assigned: set = set()  # names that some `set`/`add` writes
        self.card_slots: list = []  # slots holding a card id (or none)
        self.cards_slots: list = []  # slots holding a tuple of card ids
        self.step, self.ring = seat_ring(players, symbols.direction)

    def slot(self, count: int = 1, type_: Optional[str] = None) -> int:
        """Reserves `count` slots of `state.v`; card-valued ones are recorded for determinization."""
        s = self.nslots
        self.nslots += count
        if type_ in (CARD, CARDS):
            kinds = self.card_slots if type_ == CARD else self.cards_slots
            kinds.extend(range(s, s + count))
        return s

    def _always_card(self, source, var) -> bool:
        """Whether a variable bound to each item of `source` always holds a card: the items of a
        zone (or a card that is there) are card ids, never none, unless some `set` writes the name."""
        return self.types.get(id(source)) in (ZONE, CARD) and var not in self.assigned

    def element_type(self, e) -> Optional[str]:
        """The type of one item of the sequence `e` (a card for a zone or cards)."""
        t = self.types.get(id(e))
        return CARD if t in (ZONE, CARD, CARDS) else None

    # ------------------------------------------------------------------- build
    def build(self) -> Program:
        s, p, deck = self.sym, self.p, self.deck
        layout = build_layout(s, self.n, deck)
        p._init_layout(layout)
        self.orders, self.rankings = layout.orders, layout.rankings
        # the declared variables first, where the layout puts them
        self.nslots = layout.nslots
        self.card_slots.extend(layout.card_slots)
        self.cards_slots.extend(layout.cards_slots)
        for name, (slot, _) in p.var_slots.items():
            self.scopes[0][name] = ("slot", slot)
        p.var_inits = []
        for name, sym in s.vars.items():
            p.var_inits.append((p.var_slots[name][0], False, self.expr(sym.decl.value)))
        for name, sym in s.pvars.items():
            p.var_inits.append((p.pvar_slots[name][0], True, self.expr(sym.decl.value)))
        if s.score is not None:
            slot = self.slot()
            self.scopes.append({s.score.var: ("slot", slot)})
            p.score = (slot, self.expr(s.score.value))
            self.scopes.pop()
        else:
            p.score = None
        # procedure: setup, then round forever; phases after, as subroutines
        p.entry = 0
        self.assigned = {n.target.name for n in _nodes([s.setup, s.round, list(s.phases.values())])
                         if isinstance(n, (ast.Set, ast.Add))}
        if s.setup is not None:
            self.block(s.setup.body)
        self.round_pc = len(p.code)
        p.round_pc = self.round_pc
        # the caps on one game (`limit …`, else the engine's defaults, read now so tests can lower them)
        p.max_decisions = s.limits.get("decisions", engine.MAX_DECISIONS)
        p.max_rounds = s.limits.get("rounds", engine.MAX_ROUNDS)
        self.emit(lambda nxt: self._next_round(nxt, p.max_rounds, s.round.span), s.round.span)
        self.block(s.round.body)
        self.emit(lambda nxt: _jump(self.round_pc), s.round.span)
        for name, d in s.phases.items():
            self.phase_params[name] = [self.slot(1, prm.type) for prm in d.params]
        returns = {}  # phase -> pc of its return
        for name, d in s.phases.items():
            self.phase_pc[name] = len(p.code)
            self.scopes.append({prm.name: ("slot", slot) for prm, slot in zip(d.params, self.phase_params[name])})
            self.block(d.body)
            self.scopes.pop()
            returns[name] = self.emit(lambda nxt: codegen.function("    return s.stack.pop()\n"), d.span)
        # A phase called from one place returns there: its call and return are plain jumps, which
        # `codegen.chain` runs through; a phase called from several places keeps a return stack.
        calls = collections.Counter(name for _, name, *_ in self.pending_calls)
        for index, name, args, nxt, span in self.pending_calls:
            shared = calls[name] > 1
            p.code[index] = self._call_op(name, args, nxt, shared)
            if not shared:
                p.code[returns[name]] = _jump(nxt)
        fused = list(p.code)
        covered = -1
        for start, end, stmts in sorted(self.runs, key=lambda r: (r[0], -r[1])):
            if start >= covered:  # a run inside a fused run never runs fused: skip it
                op = self._fused_op(stmts, end)
                if op is not None:  # (None: too deep for Python to compile; its ops run one by one)
                    fused[start] = op
                    covered = end
        keep = {pc for _, _, pc, _ in p.rule_points} | {c.pc for c in p.chooses}
        _thread_jumps(p.code, p.lines, keep)
        fused_lines = list(p.lines)
        _thread_jumps(fused, fused_lines, keep)
        fused = codegen.chain(fused, fused_lines)
        p.plain, p.fused = p.code, fused
        p.resumes = tuple(tuple((a.slot, a.body) for a in c.alts) for c in p.chooses)
        p.hits.extend([0] * len(p.rule_points))  # (extended in place: the generated code holds them)
        p.offered.extend([0] * len(p.rule_points))
        p.nslots = self.nslots
        p.card_slots, p.cards_slots = tuple(self.card_slots), tuple(self.cards_slots)
        return p

    @staticmethod
    def _next_round(nxt, most: int, line=None):
        return codegen.function("    s.round += 1\n"
                                "    s.steps -= 1\n"
                                "    if s.steps < 0 or s.round > {most}:\n"
                                "        {loops}({line}, s)\n"
                                "    return {nxt}\n", loops=_loops_forever, line=line, nxt=nxt, most=most)

    # ------------------------------------------------------------ emission
    def emit(self, make: Callable, span) -> int:
        """Appends the op `make(next_pc)` and returns its pc."""
        pc = len(self.p.code)
        self.p.code.append(None)
        self.p.lines.append(span)
        self.p.code[pc] = make(pc + 1)
        return pc

    def rule_point(self, kind: str, span) -> int:
        """Records a rule that coverage counts (`Program.rule_points`), starting at the next op; when
        counting, that op counts it."""
        k = len(self.p.rule_points)
        self.p.rule_points.append((kind, span, len(self.p.code), None))  # (a choice sets its extra)
        if self.counting:
            self.emit(self.simple_op("    {hits}[{k}] += 1\n", hits=self.p.hits, k=k), span)
        return k

    def placeholder(self, span) -> int:
        pc = len(self.p.code)
        self.p.code.append(None)
        self.p.lines.append(span)
        return pc

    def block(self, stmts) -> None:
        self.scopes.append({})
        for st in stmts:
            self.stmt(st)
        self.scopes.pop()
        self._find_straight_runs(stmts)

    def stmt(self, st) -> None:
        start = len(self.p.code)
        getattr(self, "s_" + type(st).__name__)(st)
        self.stmt_pcs[id(st)] = (start, len(self.p.code))
        if type(st).__name__ in self._SIMPLE and len(self.p.code) == start + 1:
            op = self.p.code[start]
            if getattr(op, "text", None) is None:
                op.then = start + 1  # a closure that always goes on to the next op (`codegen.chain`)

    # ------------------------------------------------------------- fusion
    # A run of consecutive statements that cannot stop (no `chooses`, no phase, no end) also
    # becomes one generated function with Python's own if/for/while, so the run loop takes one step
    # for it instead of one per op. `Program.code` keeps the plain ops (tools such as rule coverage
    # wrap them); `Program.fused` is what runs.
    _SIMPLE = frozenset({"Set", "Let", "Add", "Move", "Deal", "Shuffle", "Swap", "Reveal", "Hide", "Announce",
                         "Eliminate"})

    def _straight(self, st) -> bool:
        kind = type(st).__name__
        if kind == "Pass":
            return True
        pcs = self.stmt_pcs.get(id(st))
        if pcs is None:
            return False
        if kind in self._SIMPLE:
            return pcs[1] - pcs[0] == 1
        if id(st) not in self.stmt_parts:
            return False
        if kind == "If":
            return all(self._straight(x) for _, body in st.branches for x in body) and \
                all(self._straight(x) for x in st.orelse)
        if kind in ("ForEach", "Repeat", "While"):
            return all(self._straight(x) for x in st.body)
        return False

    def _find_straight_runs(self, stmts) -> None:
        run: list = []
        for st in list(stmts) + [None]:
            if st is not None and self._straight(st):
                run.append(st)
                continue
            ops = [self.stmt_pcs[id(x)] for x in run if id(x) in self.stmt_pcs]
            if ops and ops[-1][1] - ops[0][0] > 1:  # worth it: more than one op, or a loop
                self.runs.append((ops[0][0], ops[-1][1], tuple(run)))
            run = []

    def _fused_op(self, stmts, end: int) -> Callable:
        src = codegen.Source()
        for st in stmts:
            self._proc(src, st, 0)
        src.line(0, self.p.lines[end - 1], "return {end}", end=end)
        return src.compile()

    def _proc(self, src, st, depth: int) -> None:
        """Python source for a straight statement, into `src` at `depth`."""
        kind = type(st).__name__
        line = st.span
        if kind == "Pass":
            src.line(depth, line, "pass")
            return
        start, _ = self.stmt_pcs[id(st)]
        if kind in self._SIMPLE:
            op = self.p.code[start]
            stmt = getattr(op, "stmt", None)
            if stmt is not None:  # an op made by `simple_op`: its statements, pasted
                template, children, views, named = stmt
                src.lines(depth, self.p.lines[start], template, *children, views=views, **named)
            else:
                src.line(depth, self.p.lines[start], "{op}(s)", op=op)
            return
        parts = self.stmt_parts[id(st)]
        if kind == "If":
            points = self.branch_points[id(st)]
            for i, ((cond, body), test) in enumerate(zip(st.branches, parts)):
                src.line(depth, cond.span, ("if " if i == 0 else "elif ") + "{0}:", test)
                self._count_point(src, points[i], depth + 1, cond.span)
                self._proc_block(src, body, depth + 1, cond.span)
            if st.orelse:
                src.line(depth, line, "else:")
                self._count_point(src, points[-1], depth + 1, line)
                self._proc_block(src, st.orelse, depth + 1, line)
        elif kind == "ForEach":
            source, where, seq_slot, var_slot = parts
            seq, x = codegen.fresh(), codegen.fresh()
            src.line(depth, line, f"s.v[{seq_slot}] = {seq} = tuple({{0}})", source, views=(0,))
            src.line(depth, line, f"for {x} in {seq}:")
            src.line(depth + 1, line, f"s.v[{var_slot}] = {x}")
            if where is not None:
                src.line(depth + 1, line, "if not {0}:", codegen.reading(where, var_slot, x))
                src.line(depth + 2, line, "continue")
            self._proc_block(src, st.body, depth + 1, line)
        elif kind == "Repeat":
            count, slot = parts
            src.line(depth, line, f"s.v[{slot}] = {{0}}", count)
            src.line(depth, line, f"while s.v[{slot}] > 0:")
            src.line(depth + 1, line, f"s.v[{slot}] -= 1")
            self._count_step(src, depth + 1, line)
            self._proc_block(src, st.body, depth + 1, line)
        else:  # While
            cond, negate = parts
            src.line(depth, line, ("while not {0}:" if negate else "while {0}:"), cond)
            self._count_step(src, depth + 1, line)
            self._proc_block(src, st.body, depth + 1, line)

    def _count_point(self, src, k: int, depth: int, line) -> None:
        """When counting, the line counting rule point `k` (see `rule_point`)."""
        if self.counting:
            src.line(depth, line, "{hits}[{k}] += 1", hits=self.p.hits, k=k)

    @staticmethod
    def _count_step(src, depth: int, line) -> None:
        """A pass of a `while` or `repeat` spends a step of the run's budget (see `Program._run`)."""
        src.line(depth, line, "s.steps -= 1")
        src.line(depth, line, "if s.steps < 0:")
        src.line(depth + 1, line, "{loops}({line}, s)", loops=_loops_forever, line=line)

    def _proc_block(self, src, stmts, depth: int, line) -> None:
        if not stmts:
            src.line(depth, line, "pass")
        for x in stmts:
            self._proc(src, x, depth)

    @staticmethod
    def simple_op(template: str, *children, views=(), **named) -> Callable:
        """`make(nxt)` for an op that runs `template` (statements indented by four spaces, no
        `return`) and goes on; fusion pastes the same statements into a fused run."""
        def make(nxt):
            op = codegen.function(template + "    return {nxt}\n", *children, views=views, nxt=nxt, **named)
            op.stmt = (template, children, views, named)
            return op
        return make

    def s_Pass(self, st):
        pass

    def s_Set(self, st: ast.Set):
        val = self.expr(st.value)
        t = st.target
        if t.kind == "name":
            slot = self.lookup_slot(t.name)
            self.emit(self.simple_op("    s.v[{slot}] = {0}\n", val, slot=slot), st.span)
            return
        if t.kind == "player":
            base, key = self.p.pvar_slots[t.name][0], self.expr(t.key)
            self.emit(self.simple_op("    x = {0}\n"
                                     "    s.v[{base} + {1}] = x\n", val, key, base=base), st.span)
            return
        setter = self.setter(st.target)
        self.emit(lambda nxt: (lambda s: (setter(s, val(s)), nxt)[1]), st.span)

    def s_Let(self, st: ast.Let):
        val = self.expr(st.value)
        slot = self.slot(1, self.types.get(id(st.value)))
        self.scopes[-1][st.name] = ("slot", slot)
        self.emit(self.simple_op("    s.v[{slot}] = {0}\n", val, slot=slot), st.span)

    def s_Add(self, st: ast.Add):
        amount = self.expr(st.amount)
        if st.op == "-":
            amount = codegen.expr("-{0}", amount)
        t = st.target
        if t.kind == "player":
            base = self.p.pvar_slots[t.name][0]
            key = self.expr(t.key)

            make = self.simple_op("    i = {base} + {0}\n"
                                  "    s.v[i] += {1}\n", key, amount, base=base)
        elif t.kind == "name":
            slot = self.lookup_slot(t.name)
            make = self.simple_op("    s.v[{slot}] += {0}\n", amount, slot=slot)
        else:
            slot, index, line = self.lookup_slot(t.name), self.expr(t.key), t.span

            def make(nxt):
                def op(s):
                    items, i = list(s.v[slot]), index(s)  # the item's place once, then the amount
                    if not 1 <= i <= len(items):  # a negative index must not read from the end
                        raise RuleError(f"item {i} of a list of {len(items)} (items count from 1)", line)
                    items[i - 1] += amount(s)
                    s.v[slot] = tuple(items)
                    return nxt
                return op
        self.emit(make, st.span)

    def setter(self, t: ast.Target):
        if t.kind == "name":
            slot = self.lookup_slot(t.name)

            def set_name(s, value):
                s.v[slot] = value
            return set_name
        if t.kind == "player":
            base = self.p.pvar_slots[t.name][0]
            key = self.expr(t.key)

            def set_player(s, value):
                s.v[base + key(s)] = value
            return set_player
        slot = self.lookup_slot(t.name)
        index = self.expr(t.key)

        def set_item(s, value):
            items = list(s.v[slot])
            i = index(s)
            if not 1 <= i <= len(items):
                raise RuleError(f"item {i} of a list of {len(items)} (items count from 1)", t.span)
            items[i - 1] = value
            s.v[slot] = tuple(items)
        return set_item

    def lookup_slot(self, name: str) -> int:
        for scope in reversed(self.scopes):
            if name in scope and scope[name][0] == "slot":
                return scope[name][1]
        raise KeyError(name)  # the checker resolved every name

    # -- cards
    def s_Move(self, st: ast.Move):
        moved_type = self.types.get(id(st.cards))
        if moved_type in (CARD, ZONE):
            return self._move_one_or_zone(st, moved_type == CARD)
        if isinstance(st.cards, ast.AllCards):
            return self._move_all(st)
        cards = self.cards(st.cards)
        zone = self.expr(st.zone)
        bottom = st.place == "under"
        face = st.facing
        names = self.p.zone_names
        code = ("    moving = {0}\n"
                "    dest = {1}\n"
                "    if moving:\n"
                "        {move}(s, moving, dest, {bottom})\n")
        code += _learning(face)
        self.emit(self.simple_op(code, cards, zone, move=_move, bottom=bottom, vis=tuple(self.p.zone_vis),
                                 all=self.all, shown=_shown(names)), st.span)

    def _move_all(self, st: ast.Move):
        """`move all cards to z`: what `_move` does when every card moves, without sets and scans."""
        zone = self.expr(st.zone)
        bottom = st.place == "under"
        face = st.facing
        vis = self.p.zone_vis
        all_ = self.all
        zone_names = self.p.zone_names
        deck = tuple(range(self.deck.size))
        order = deck[::-1] if bottom else deck

        def make(nxt):
            def op(s):
                dest = zone(s)
                if not deck:
                    return nxt
                zones = s.zones
                for z in zones:
                    z.clear()
                zones[dest].extend(order)
                s.loc[:] = [dest] * len(deck)
                known = s.known
                if face is None:
                    add = vis[dest]
                    if add:
                        known[:] = [k | add for k in known]
                elif face == "up":
                    known[:] = [all_] * len(deck)
                    if s.log is not None:
                        marks = card_marks(len(deck))
                        s.fresh.append((f"face up on {zone_names[dest]}: {marks}", deck))
                return nxt
            return op
        self.emit(make, st.span)

    def _move_one_or_zone(self, st: ast.Move, one: bool):
        """`move` of one card, or of a whole zone: what `_move` does, without its general case."""
        what = self.expr(st.cards)
        zone = self.expr(st.zone)
        bottom = st.place == "under"
        face = st.facing
        names = self.p.zone_names
        # the statements, then what the facing adds (known: who knows each card)
        if one:
            code = ("    c = {0}\n"
                    "    dest = {1}\n"
                    "    if c is not None:\n"
                    "        loc = s.loc\n"
                    "        s.zones[loc[c]].remove(c)\n"
                    + ("        s.zones[dest].insert(0, c)\n" if bottom else "        s.zones[dest].append(c)\n") +
                    "        loc[c] = dest\n")
            if face is None:
                code += "        s.known[c] |= {vis}[dest]\n"
            elif face == "up":
                code += ("        s.known[c] = {all}\n"
                         "        if s.log is not None:\n"
                         "            s.fresh.append(({texts}[dest], (c,)))\n")
            texts = tuple(f"face up on {name}: {mark(0)}" for name in names)
            make = self.simple_op(code, what, zone, vis=tuple(self.p.zone_vis), all=self.all, texts=texts)
        else:
            code = ("    pile = s.zones[{0}]\n"
                    "    dest = {1}\n"
                    "    if pile:\n"
                    "        moving = pile[:]\n"
                    "        pile.clear()\n"
                    + ("        s.zones[dest][:0] = moving[::-1]\n" if bottom else "        s.zones[dest].extend(moving)\n") +
                    "        loc = s.loc\n"
                    "        for c in moving:\n"
                    "            loc[c] = dest\n")
            code += _learning(face)
            make = self.simple_op(code, what, zone, vis=tuple(self.p.zone_vis), all=self.all, shown=_shown(names))
        self.emit(make, st.span)

    def s_Deal(self, st: ast.Deal):
        count = self.expr(st.count)
        source = self.expr(st.source)
        dest = self.expr(st.dest)
        many = self.types.get(id(st.dest)) == ZONES
        names = self.p.zone_names
        face = st.facing
        at = st.span

        def refuse(s, n, src, targets):
            raise RuleError(f"cannot deal {n} card(s) to {len(targets)} place(s): "
                            f"`{names[src]}` holds {len(s.zones[src])}", at)

        def logged(s, n, src, targets):
            if n and targets:
                who = ", ".join(names[z] for z in targets)
                s.fresh.append((f"dealt {n} card{'s' if n > 1 else ''} from {names[src]} to {who}", ()))

        # who learns each card: everyone (face up), nobody new (face down), or whoever sees the place
        learn = {"up": "known[c] = {all}\n", "down": ""}.get(face, "known[c] |= {vis}[z]\n")
        self.emit(self.simple_op(
            "    n = {0}\n"
            "    src = {1}\n"
            + ("    targets = {2}\n" if many else "    targets = ({2},)\n") +
            "    pile = s.zones[src]\n"
            "    if n * len(targets) > len(pile):\n"
            "        {refuse}(s, n, src, targets)\n"
            "    zones, loc, known = s.zones, s.loc, s.known\n"
            # one card at a time, each place in turn, from the top (the end of the list)
            "    for _ in range(n):\n"
            "        for z in targets:\n"
            "            c = pile.pop()\n"
            "            zones[z].append(c)\n"
            "            loc[c] = z\n"
            + ("            " + learn if learn else "") +
            "    if s.log is not None:\n"
            "        {logged}(s, n, src, targets)\n",
            count, source, dest, refuse=refuse, logged=logged, all=self.all, vis=tuple(self.p.zone_vis)), st.span)

    def s_Shuffle(self, st: ast.Shuffle):
        zone = self.expr(st.zone)
        vis = self.p.zone_vis
        names = self.p.zone_names

        def make(nxt):
            def op(s):
                z = zone(s)
                pile = s.zones[z]
                if s.fresh:
                    _flush(s)
                s.rng = rng.shuffle(pile, s.rng)
                if s.stacks is not None and s.stacks[0] < len(s.stacks[2]):
                    i, given, ids = s.stacks
                    top = [c for c in ids[i] if c in pile]
                    rest = [c for c in pile if c not in set(top)]
                    pile[:] = rest + top[::-1]  # the end of the list is the top
                    s.stacks = (i + 1, given, ids)
                mask = vis[z]
                known = s.known
                if len(pile) == len(known):  # the whole deck: nobody knows any card but by the zone
                    known[:] = [mask] * len(known)
                else:
                    for c in pile:
                        known[c] = mask
                if s.log is not None:
                    s.fresh.append((f"{names[z]} is shuffled", ()))
                return nxt
            return op
        self.emit(make, st.span)

    def s_Swap(self, st: ast.Swap):
        left, right = self.expr(st.left), self.expr(st.right)
        zones_ = self.types.get(id(st.left)) == ZONE
        vis = tuple(self.p.zone_vis)
        if zones_:
            make = self.simple_op("    a, b = {0}, {1}\n"
                                  "    zones, loc, known = s.zones, s.loc, s.known\n"
                                  "    zones[a], zones[b] = zones[b], zones[a]\n"
                                  "    for z in (a, b):\n"
                                  "        add = {vis}[z]\n"
                                  "        for c in zones[z]:\n"
                                  "            loc[c] = z\n"
                                  "            known[c] |= add\n", left, right, vis=vis)
        else:
            make = self.simple_op("    a, b = {0}, {1}\n"
                                  "    if a is None or b is None:\n"
                                  "        raise {error}({message}, {at})\n"
                                  "    zones, loc, known = s.zones, s.loc, s.known\n"
                                  "    za, zb = loc[a], loc[b]\n"
                                  "    ia, ib = zones[za].index(a), zones[zb].index(b)\n"
                                  "    zones[za][ia], zones[zb][ib] = b, a\n"
                                  "    loc[a], loc[b] = zb, za\n"
                                  "    known[a] |= {vis}[zb]\n"
                                  "    known[b] |= {vis}[za]\n", left, right, vis=vis, error=RuleError,
                                  message="`swap` needs two cards, and one of them is none", at=st.span)
        self.emit(make, st.span)

    def s_Reveal(self, st: ast.Reveal):
        cards = self.cards(st.cards)
        to = self.players_of(st.to) if st.to is not None else None
        all_ = self.all
        owners = self.p.zone_owner

        def reveal(s, shown):
            seats = None if to is None else to(s)  # worked out once (it may draw `random`)
            mask = all_ if seats is None else sum(1 << p for p in set(seats))
            known = s.known
            fresh = [c for c in shown if known[c] & mask != mask]
            for c in shown:
                known[c] |= mask
            if s.log is not None and fresh:
                owner = owners[s.loc[fresh[0]]]
                marks = card_marks(len(fresh))
                who = f"{player_name(owner)} shows" if owner >= 0 else "shown:"
                tail = "" if seats is None else " to " + ", ".join(player_name(p) for p in seats)
                s.fresh.append((f"{who} {marks}{tail}", tuple(fresh)))
        if to is None:  # shown to all, without a log: only who knows the cards changes
            make = self.simple_op("    shown = {0}\n"
                                  "    if s.log is None:\n"
                                  "        known = s.known\n"
                                  "        for c in shown:\n"
                                  "            known[c] |= {all}\n"
                                  "    else:\n"
                                  "        {reveal}(s, shown)\n", cards, views=(0,), all=all_, reveal=reveal)
        else:
            make = self.simple_op("    {reveal}(s, {0})\n", cards, reveal=reveal)
        self.emit(make, st.span)

    def s_Hide(self, st: ast.Hide):
        cards = self.cards(st.cards)
        vis = self.p.zone_vis

        def make(nxt):
            def op(s):
                if s.fresh:
                    _flush(s)
                for c in cards(s):
                    s.known[c] = vis[s.loc[c]]
                return nxt
            return op
        self.emit(make, st.span)

    def s_Announce(self, st: ast.Announce):
        text = self.text(st.text)
        speaker = self.expr(st.speaker) if st.speaker is not None else None

        def say(s):
            body, cards = text(s)
            if speaker is not None:
                body = f"{player_name(speaker(s))}: {body}"
            s.fresh.append((body, cards))
        # without a log, an announcement is only this test
        self.emit(self.simple_op("    if s.log is not None:\n"
                                 "        {say}(s)\n", say=say), st.span)

    def s_Eliminate(self, st: ast.Eliminate):
        player = self.expr(st.player)

        def make(nxt):
            def op(s):
                p = player(s)
                if s.active[p]:
                    s.active[p] = False
                    if s.log is not None:
                        s.fresh.append((f"{player_name(p)} is eliminated", ()))
                return nxt
            return op
        self.emit(make, st.span)

    def s_EndGame(self, st: ast.EndGame):
        winners = self.players_of(st.winners) if st.winners is not None else (lambda s: ())

        def make(nxt):
            def op(s):
                s.winner_seats = tuple(sorted(set(winners(s))))
                s.terminal = True
                s.pending = None
                if s.log is not None:
                    names = ", ".join(player_name(p) for p in s.winner_seats) or "nobody"
                    s.fresh.append((f"the game is over; winner{'s' if len(s.winner_seats) > 1 else ''}: {names}", ()))
                return STOP
            return op
        self.emit(make, st.span)

    def s_EndRound(self, st: ast.EndRound):
        def make(nxt):
            def op(s):
                s.stack.clear()
                return self.round_pc
            return op
        self.emit(make, st.span)

    def s_CallPhase(self, st: ast.CallPhase):
        if isinstance(st.expr, ast.Text):  # a line of rule text: the checker warns (W003); it does nothing
            return
        args = [self.expr(a) for a in st.args]
        pc = self.placeholder(st.span)
        self.pending_calls.append((pc, st.name, args, pc + 1, st.span))

    def _call_op(self, name, args, nxt, push: bool):
        target = self.phase_pc[name]
        slots = self.phase_params[name]
        # every argument is worked out before any parameter is set (an argument may read one)
        n = min(len(args), len(slots))
        # a call spends no step of the budget: a phase never plays itself (E023), so calls end
        return codegen.function("".join(f"    a{i} = {{{i}}}\n" for i in range(len(args)))
                                + ("    v = s.v\n" if n else "")
                                + "".join(f"    v[{slots[i]}] = a{i}\n" for i in range(n))
                                + ("    s.stack.append({nxt})\n" if push else "")
                                + "    return {target}\n", *args, nxt=nxt, target=target)

    # -- control flow
    def s_If(self, st: ast.If):
        jumps_to_end = []
        tests = self.stmt_parts[id(st)] = []
        points = self.branch_points[id(st)] = []
        for i, (cond, body) in enumerate(st.branches):
            test = self.expr(cond)
            tests.append(test)
            at = self.placeholder(cond.span)
            points.append(self.rule_point("elif" if i else "if", cond.span))
            self.block(body)
            jumps_to_end.append(self.placeholder(cond.span))
            after = len(self.p.code)
            self.p.code[at] = codegen.function("    if {0}:\n"
                                               "        return {yes}\n"
                                               "    return {no}\n", test, yes=at + 1, no=after)
        if st.orelse:
            points.append(self.rule_point("else", st.orelse[0].span))
            self.block(st.orelse)
        end = len(self.p.code)
        for j in jumps_to_end:
            self.p.code[j] = _jump(end)

    def s_ForEach(self, st: ast.ForEach):
        source = self.seq(st.source)
        item = self.element_type(st.source)
        seq_slot = self.slot(1, CARDS if item == CARD else None)
        idx_slot, var_slot = self.slot(), self.slot(1, item)
        if self._always_card(st.source, st.var):
            self.always_card.add(var_slot)
        init = self.emit(lambda nxt: self._for_init(source, seq_slot, idx_slot, nxt), st.span)
        head = self.placeholder(st.span)
        self.scopes.append({st.var: ("slot", var_slot)})
        where = self.expr(st.where) if st.where is not None else None
        self.stmt_parts[id(st)] = (source, where, seq_slot, var_slot)
        self.block(st.body)
        self.scopes.pop()
        self.emit(lambda nxt: _jump(head), st.span)
        end = len(self.p.code)
        # A pass spends no step of the budget: the loop goes through a tuple made before it starts.
        self.p.code[head] = codegen.function("    v = s.v\n"
                                             "    seq = v[{seq}]\n"
                                             "    i = v[{idx}]\n"
                                             "    while i < len(seq):\n"
                                             "        v[{var}] = seq[i]\n"
                                             "        i += 1\n"
                                             + ("        if not {0}:\n"
                                                "            continue\n" if where is not None else "") +
                                             "        v[{idx}] = i\n"
                                             "        return {body}\n"
                                             "    return {end}\n", *([where] if where is not None else []),
                                             seq=seq_slot, idx=idx_slot, var=var_slot, body=head + 1, end=end)

    @staticmethod
    def _for_init(source, seq_slot, idx_slot, nxt):
        return codegen.function("    s.v[{seq}] = tuple({0})\n"
                                "    s.v[{idx}] = 0\n"
                                "    return {nxt}\n", source, views=(0,), seq=seq_slot, idx=idx_slot, nxt=nxt)

    def s_Repeat(self, st: ast.Repeat):
        count = self.expr(st.count)
        slot = self.slot()
        self.stmt_parts[id(st)] = (count, slot)

        self.emit(lambda nxt: codegen.function("    s.v[{slot}] = {0}\n"
                                               "    return {nxt}\n", count, slot=slot, nxt=nxt), st.span)
        head = self.placeholder(st.span)
        self.block(st.body)
        self.emit(lambda nxt: _jump(head), st.span)
        end = len(self.p.code)
        self.p.code[head] = codegen.function("    v = s.v\n"
                                             "    if v[{slot}] > 0:\n"
                                             "        v[{slot}] -= 1\n"
                                             "        s.steps -= 1\n"
                                             "        if s.steps < 0:\n"
                                             "            {loops}({line}, s)\n"
                                             "        return {body}\n"
                                             "    return {end}\n", slot=slot, body=head + 1, end=end,
                                             loops=_loops_forever, line=st.span)

    def s_While(self, st: ast.While):
        cond = self.expr(st.cond)
        self.stmt_parts[id(st)] = (cond, st.negate)
        head = self.placeholder(st.span)
        self.block(st.body)
        self.emit(lambda nxt: _jump(head), st.span)
        end = len(self.p.code)
        body = head + 1
        self.p.code[head] = codegen.function("    if " + ("not " if st.negate else "") + "{0}:\n"
                                             "        s.steps -= 1\n"
                                             "        if s.steps < 0:\n"
                                             "            {loops}({line}, s)\n"
                                             "        return {body}\n"
                                             "    return {end}\n", cond, end=end, body=body,
                                             loops=_loops_forever, line=st.span)

    def _split_filter(self, where, var):
        """A card filter `a or b or … ` whose first terms do not name the card, split there.

        Those terms (pure, so worked out once) decide for every card at once: when one holds, every
        card is legal, as it is when the filter is tried card by card, which stops at the first
        term that holds. Returns (the first terms, the rest or None, the whole filter), or None.
        """
        terms = []
        e = where
        while isinstance(e, ast.Binary) and e.op == "or":
            terms.append(e.right)
            e = e.left
        terms.append(e)
        terms.reverse()
        k = 0
        while k < len(terms) and not _names(terms[k], var):
            k += 1
        if where is None or k == 0 or len(terms) < 2:
            return None
        compiled = [self.expr(t) for t in terms]
        first = compiled[0]
        for t in compiled[1:k]:
            first = codegen.expr("{0} or {1}", first, t)
        if not codegen.pure(first):
            whole = first
            for t in compiled[k:]:
                whole = codegen.expr("{0} or {1}", whole, t)
            return None, None, whole
        rest = None
        for t in compiled[k:]:
            rest = t if rest is None else codegen.expr("{0} or {1}", rest, t)
        whole = first if rest is None else codegen.expr("{0} or {1}", first, rest)
        return first, rest, whole

    def s_Choose(self, st: ast.Choose):
        player = self.expr(st.player)
        pc = self.placeholder(st.span)
        alts = []
        exits = []
        points = []  # the rule point of each alternative
        for alt in st.alternatives:
            slot = self.slot(1, CARD if alt.kind == "card" else None) if alt.var is not None else None
            if alt.kind == "card" and slot is not None and self._always_card(alt.source, alt.var):
                self.always_card.add(slot)
            self.scopes.append({alt.var: ("slot", slot)} if alt.var else {})
            source = None
            if alt.kind == "card":
                source = self.cards(alt.source)
            elif alt.kind == "number":
                source = self.expr(alt.source)
            high = self.expr(alt.high) if alt.high is not None else None
            split = self._split_filter(alt.where, alt.var) if alt.kind == "card" else None
            where = split[2] if split else self.expr(alt.where) if alt.where is not None else None
            label = self.text(alt.label) if alt.label is not None else None
            if alt.kind == "option" and label is None:
                label = (lambda t: (lambda s: (t, ())))(alt.label.value)
            a = Alt(alt.kind, label, slot, source, high, where)
            a.split = split[:2] if split else None
            a.pure = alt.label is None or all(isinstance(part, str) or (isinstance(part, ast.Name) and part.name == alt.var)
                                              for part in alt.label.parts)
            a.body = len(self.p.code)
            points.append(self.rule_point("choose", alt.span))
            self.block(alt.body)
            exits.append(self.placeholder(alt.span))
            self.scopes.pop()
            alts.append(a)
        end = len(self.p.code)
        for e in exits:
            self.p.code[e] = _jump(end)
        index = len(self.p.chooses)  # (after the choices nested in the alternatives)
        self.p.chooses.append(Choice(player, alts, pc, st.span))
        for ai, k in enumerate(points):
            kind, span, at, _ = self.p.rule_points[k]
            self.p.rule_points[k] = (kind, span, at, (index, ai))
        line = st.span
        names = [f"legal{ai}" for ai in range(len(alts))] if len(alts) > 1 else ["legal"]
        legal_of = [_legal_of(a, ai << 16, line, names[ai]) for ai, a in enumerate(alts)]
        if all(a.kind == "option" and a.where is None for a in alts):  # always the same: one constant
            names, legal_of = ["legal"], [("    legal = {only}\n", (), {"only": tuple(ai << 16 for ai in range(len(alts)))})]

        def fail(s, p, legal):
            if not legal:
                raise RuleError(f"{player_name(p)} must choose but has no legal choice", line)
            raise RuleError("nobody to choose", line)
        offer = ""  # when counting: each alternative offered (a constant tuple offers them all)
        if self.counting:
            offer = "".join(f"    {{offered}}[{k}] += 1\n" if len(names) == 1 else
                            f"    if {names[ai]}:\n        {{offered}}[{k}] += 1\n" for ai, k in enumerate(points))
        tail = ("    legal = " + " + ".join(names) + "\n" if len(names) > 1 else "") + (
            "    if not legal or p is None or not 0 <= p < len(s.active):\n"
            "        {fail}(s, p, legal)\n"
            + offer +
            "    s.pending = ({index}, p, legal)\n"
            "    s.pc = {pc}\n"
            "    return {stop}\n")
        # one function: who chooses, each alternative's legal ids (its statements pasted), the pending
        src = codegen.Source()
        src.line(0, line, "p = {0}", player)
        for template, children, named in legal_of:
            src.lines(0, line, template, *children, **named)
        src.lines(0, line, tail, fail=fail, index=index, pc=pc, stop=STOP, offered=self.p.offered)
        op = src.compile()
        if op is None:  # too deep for Python to compile as one: each alternative's ids from a function
            gens = [codegen.function(template + f"    return {name}\n", *children, **named)
                    for name, (template, children, named) in zip(names, legal_of)]
            op = codegen.function("    p = {0}\n"
                                  + "".join(f"    {name} = {{{ai + 1}}}\n" for ai, name in enumerate(names))
                                  + tail, player, *gens, fail=fail, index=index, pc=pc, stop=STOP,
                                  offered=self.p.offered)
        self.p.code[pc] = op

    # ----------------------------------------------------------- expressions
    def expr(self, e) -> Callable:
        return getattr(self, "x_" + type(e).__name__)(e)

    def const(self, value) -> Callable:
        return codegen.expr("{value}", value=value)

    def x_Number(self, e):
        return self.const(e.value)

    def x_Bool(self, e):
        return self.const(e.value)

    def x_NoneLit(self, e):
        return self.const(None)

    def x_Text(self, e):
        text = self.text(e)
        return lambda s: text(s)[0]

    def x_Name(self, e: ast.Name):
        name = e.name
        for scope in reversed(self.scopes):
            if name in scope:
                kind, what = scope[name]
                if kind == "slot":
                    f = codegen.expr("s.v[{slot}]", slot=what)
                    f.not_none = what in self.always_card
                    return f
                return what  # a define's parameter: the argument's closure
        sym = self.sym.table[name]
        if sym.kind == "option":
            return self.const(self.options[name])
        if sym.kind == "const":
            return self.const(self.n)
        if sym.kind == "zone":
            return self.const(self.p.zone_families[name][0])
        if sym.kind == "rank":
            ranks = self.deck.ranks if self.deck else ()
            return self.const(ranks.index(name) if name in ranks else -2)
        if sym.kind == "suit":
            suits = self.deck.suits if self.deck else ()
            return self.const(suits.index(name) if name in suits else -2)
        raise AssertionError(name)  # pragma: no cover

    def x_ListExpr(self, e):
        items = [self.expr(i) for i in e.items]
        return codegen.expr("(" + "".join("{%d}, " % i for i in range(len(items))) + ")", *items)

    def x_Index(self, e: ast.Index):
        base = self.seq(e.base)
        index = self.expr(e.index)
        line = e.span

        def f(s):
            items = base(s)
            i = index(s)
            if not 1 <= i <= len(items):
                raise RuleError(f"item {i} of a list of {len(items)} (items count from 1)", line)
            return items[i - 1]
        return f

    def x_Unary(self, e: ast.Unary):
        a = self.expr(e.operand)
        if e.op == "-":
            return codegen.expr("-{0}", a)
        return codegen.expr("not {0}", a)

    def x_Conditional(self, e: ast.Conditional):
        a, c, b = self.expr(e.then), self.expr(e.cond), self.expr(e.otherwise)
        return codegen.expr("{0} if {1} else {2}", a, c, b)

    def x_Binary(self, e: ast.Binary):
        op = e.op
        lt, rt = self.types.get(id(e.left)), self.types.get(id(e.right))
        if op in ("and", "or"):
            a, b = self.expr(e.left), self.expr(e.right)
            return codegen.expr("{0} " + op + " {1}", a, b)
        if op == "+" and lt in (CARDS, ZONE, CARD, PLAYERS, LIST):
            a = self.cards(e.left) if lt in (ZONE, CARD, CARDS) else self.expr(e.left)
            b = self.cards(e.right) if lt in (ZONE, CARD, CARDS) else self.seq(e.right)
            return lambda s: tuple(a(s)) + tuple(b(s))
        if op in ("is", "is not", "has"):
            return self._pattern(e)
        if op == "in":
            item, seq = self.expr(e.left), self.seq(e.right)
            return codegen.expr("{0} in {1}", item, seq)
        if op == "except":
            seq = self.seq(e.left)
            if rt in (CARDS, PLAYERS, LIST, ZONE) or (rt == "empty"):
                other = self.seq(e.right)
                if codegen.pure(other):  # the same for every item: worked out once, if there is an item
                    return codegen.function("    q = {0}\n"
                                            "    if not q:\n"
                                            "        return ()\n"
                                            "    o = set({1})\n"
                                            "    return tuple([x for x in q if x not in o])\n", seq, other)
                def except_seq(s):  # what is left out is worked out once, if there is an item
                    q = seq(s)
                    if not q:
                        return ()
                    o = set(other(s))
                    return tuple([x for x in q if x not in o])
                return except_seq
            item = self.expr(e.right)
            if codegen.pure(item):  # worked out once, if there is an item (`(o := …),` is a true tuple)
                return codegen.expr("tuple([x for x in {q} if x != {o}]) if ({q} := {0}) and (({o} := {1}),) "
                                    "else ()", seq, item, q=codegen.TEMP, o=codegen.TEMP)
            def except_item(s):  # the item left out is worked out once, if there is an item
                q = seq(s)
                if not q:
                    return ()
                o = item(s)
                return tuple([x for x in q if x != o])
            return except_item
        a, b = self.expr(e.left), self.expr(e.right)
        line = e.span
        if op in ("+", "-", "*"):
            return codegen.expr("{0} " + op + " {1}", a, b)
        if op in ("/", "%"):
            def div(s):
                d = b(s)
                if d == 0:
                    raise RuleError("division by zero", line)
                return a(s) // d if op == "/" else a(s) % d
            return div
        if op in ("==", "!=", "<", ">", "<=", ">="):
            return codegen.expr("{0} " + op + " {1}", a, b)
        raise AssertionError(op)  # pragma: no cover

    def _pattern(self, e: ast.Binary):
        """`card is K`, `card is hearts`, `x is none`, `zone has K`, `zone has trump`."""
        deck = self.deck
        pattern = e.right
        pt = self.types.get(id(pattern))
        if isinstance(pattern, ast.Number):
            name = str(pattern.value)
            rank = deck.ranks.index(name) if name in deck.ranks else -2
            test, table = self.const(rank), deck.card_rank
        elif pt == RANK:
            test, table = self.expr(pattern), deck.card_rank
        elif pt == SUIT:
            test, table = self.expr(pattern), deck.card_suit
        else:
            test, table = self.expr(pattern), None
        lt = self.types.get(id(e.left))
        if e.op == "has":
            cards = self.cards(e.left)
            if table is None:  # `zone has c`: a card (or none), not a rank or a suit
                return codegen.expr("{0} in {1}", test, cards, views=(1,))
            # `t in map(...)`: the same == tests card by card, in C
            return codegen.expr("{0} in map({get}, {1})", test, cards, views=(1,), get=table.__getitem__)
        left = self.expr(e.left)
        if isinstance(pattern, ast.NoneLit):  # `x is none`: identity says the same as ==, faster
            return codegen.expr("{0} is None" if e.op == "is" else "{0} is not None", left)
        if table is None or lt in (RANK, SUIT):
            return codegen.expr("{0} == {1}" if e.op == "is" else "{0} != {1}", left, test)
        if getattr(left, "not_none", False):
            return codegen.expr("{table}[{0}] " + ("==" if e.op == "is" else "!=") + " {1}", left, test, table=table)
        if e.op == "is":
            return codegen.expr("({c} := {0}) is not None and {table}[{c}] == {1}", left, test,
                                c=codegen.TEMP, table=table)
        return codegen.expr("({c} := {0}) is None or {table}[{c}] != {1}", left, test, c=codegen.TEMP, table=table)

    def x_Neighbour(self, e: ast.Neighbour):
        player = self.expr(e.player)
        n = self.n
        step = {"left": 1, "right": -1, "next": self.step}[e.side]
        # around[p]: the seats after p on that side, p last
        around = tuple(tuple((p + step * i) % n for i in range(1, n + 1)) for p in range(n))
        # with nobody out (the usual case) the neighbour is the first seat around
        return codegen.expr("{around}[{0}][0] if False not in s.active else {first_in}(s, {around}[{0}])", player,
                            around=around, first_in=_first_in)

    def x_EndCard(self, e: ast.EndCard):
        zt = self.types.get(id(e.zone))
        top = e.end == "top"
        if zt == PLAYERS:
            seq = self.seq(e.zone)
            if e.count is None:
                return codegen.expr("{q}[" + ("0" if top else "-1") + "] if ({q} := {0}) else None", seq, q=codegen.TEMP)
            count = self._card_count(e)
            return lambda s: (lambda q, k: tuple(q[:k]) if top else tuple(q[-k:][::-1]) if k else ())(seq(s), count(s))
        cards = self.cards(e.zone)
        # a zone lists its cards bottom first: the top card is the last
        if e.count is None:
            return codegen.expr("{q}[" + ("-1" if top else "0") + "] if ({q} := {0}) else None", cards,
                                views=(0,), q=codegen.TEMP)
        count = self._card_count(e)
        return lambda s: (lambda q, k: tuple(q[::-1][:k]) if top else tuple(q[:k]))(cards(s), count(s))

    def _card_count(self, e: ast.EndCard) -> Callable:
        """The n of `top n of …`, which must not be negative (a slice would count from the other end)."""
        count, line = self.expr(e.count), e.span

        def n(s):
            k = count(s)
            if k < 0:
                raise RuleError(f"`{e.end} {k} of …`: a number of cards cannot be negative", line)
            return k
        return n

    def x_Players(self, e: ast.Players):
        ring = self.ring
        start = self.expr(e.start) if e.start is not None else self.const(ring[0][0])
        stop = self.expr(e.stop) if e.stop is not None else None
        if stop is None:  # nobody out (the usual case): the ring itself
            return codegen.expr("{ring}[{0}] if False not in s.active else {still_in}(s, {ring}[{0}])", start,
                                ring=ring, still_in=_still_in)
        return codegen.function("    a = s.active\n"
                                "    out = []\n"
                                "    end = {1}\n"
                                "    for q in {ring}[{0}]:\n"
                                "        if a[q]:\n"
                                "            out.append(q)\n"
                                "        if q == end:\n"
                                "            break\n"
                                "    return tuple(out)\n", start, stop, ring=ring)

    def x_Seats(self, e):
        return self.const(tuple(range(self.n)))

    def x_AllCards(self, e):
        return self.const(tuple(range(self.deck.size)))

    def x_Aggregate(self, e: ast.Aggregate):
        source = self.seq(e.source)
        slot = self.slot(1, self.element_type(e.source))
        if self._always_card(e.source, e.var):
            self.always_card.add(slot)
        self.scopes.append({e.var: ("slot", slot)})
        body = self.expr(e.body) if e.body is not None else None
        where = self.expr(e.where) if e.where is not None else None
        self.scopes.pop()
        kind = e.kind
        # One generated loop per aggregate: the item goes into its slot, then `where` and the body
        # are tested and evaluated inline (the source is read, never copied: expressions move no card).
        where = codegen.reading(where if where is not None else self.const(True), slot, "x")
        body = codegen.reading(body, slot, "x") if body is not None else None
        loop = ("    v = s.v\n"
                "    for x in {0}:\n"
                "        v[{slot}] = x\n"
                "        if {1}:\n")
        if kind == "any":
            return codegen.function(loop + "            return True\n"
                                    "    return False\n", source, where, views=(0,), slot=slot)
        if kind in ("count", "sum"):
            return codegen.function("    total = 0\n" + loop + "            total += {2}\n"
                                    "    return total\n", source, where, body if kind == "sum" else self.const(1),
                                    views=(0,), slot=slot)
        if kind == "select":
            return codegen.function("    out = []\n" + loop + "            out.append(x)\n"
                                    "    return tuple(out)\n", source, where, views=(0,), slot=slot)
        if kind in ("min", "max"):
            return codegen.function("    values = []\n" + loop + "            values.append({2})\n"
                                    "    if not values:\n"
                                    "        raise {error}({message}, {at})\n"
                                    "    return " + kind + "(values)\n", source, where, body, views=(0,), slot=slot,
                                    error=RuleError, message=f"`{kind}` over nothing", at=e.span)
        better = ">" if kind == "highest" else "<"
        return codegen.function("    chosen = score = None\n" + loop + "            value = {2}\n"
                                "            if chosen is None or value " + better + " score:\n"
                                "                chosen, score = x, value\n"
                                "    return chosen\n", source, where, body, views=(0,), slot=slot)

    def x_Call(self, e: ast.Call):
        name = e.func
        sym = self.sym.table.get(name + "()") or self.sym.table.get(name)
        args = e.args
        if sym is None:
            return self._builtin(e)
        if sym.kind == "pzone":
            base = self.p.zone_families[name][0]
            who = self.expr(args[0])
            if self.types.get(id(args[0])) == PLAYERS:
                return codegen.expr("tuple([{base} + p for p in {0}])", who, base=base)
            return codegen.expr("{base} + {0}", who, base=base)
        if sym.kind == "pvar":
            base = self.p.pvar_slots[name][0]
            who = self.expr(args[0])
            return codegen.expr("s.v[{base} + {0}]", who, base=base)
        if sym.kind == "order":
            table = self.orders[name]
            card = self.expr(args[0])
            if getattr(card, "not_none", False):
                return codegen.expr("{table}[{0}]", card, table=table)
            return codegen.expr("0 if ({c} := {0}) is None else {table}[{c}]", card, c=codegen.TEMP, table=table)
        if sym.kind == "ranking":
            ranking, codes = self.rankings[name]
            cards = self.cards(args[0])
            evaluate = ranking.evaluate_value if hasattr(ranking, "evaluate_value") else ranking.evaluate
            line = e.span

            def value(s):
                hand = cards(s)
                if not 5 <= len(hand) <= 10:
                    raise RuleError(f"a poker hand needs 5 to 10 cards, not {len(hand)}", line)
                return int(evaluate([codes[c] for c in hand]))
            return value
        if sym.kind == "define":
            d = sym.decl
            values = [self.expr(a) for a in args]
            # an argument is evaluated once, before the body (a body that names its parameter twice
            # must not draw `random` twice); a name or a literal is simply read where it is used
            params, once = {}, []
            for prm, a, v in zip(d.params, args, values):
                if isinstance(a, (ast.Name, ast.Number, ast.Bool, ast.NoneLit)):
                    params[prm.name] = ("expr", v)
                else:
                    slot = self.slot(1, self.types.get(id(a)))
                    params[prm.name] = ("slot", slot)
                    once.append((slot, v))
            # the body sees its parameters and the globals, as the checker does, never the caller's locals
            caller = self.scopes
            self.scopes = [caller[0], params]
            try:
                body = self.expr(d.body)
            finally:
                self.scopes = caller
            if not once:
                return body
            if len(once) == 1:  # one argument evaluated once: an expression, with a local for the slot
                (slot, value), local = once[0], codegen.fresh()
                pasted = codegen.reading(body, slot, local)
                if pasted is not body and not codegen.calls(body):
                    return codegen.expr(f"(({local} := {{0}}), {{1}})[1]", value, pasted)
            sets = "".join(f"    v[{slot}] = {{{i}}}\n" for i, (slot, _) in enumerate(once))
            return codegen.function("    v = s.v\n" + sets + "    return {" + str(len(once)) + "}\n",
                                    *[v for _, v in once], body)
        raise AssertionError(name)  # pragma: no cover

    def _builtin(self, e: ast.Call):
        name, args = e.func, e.args
        line = e.span
        if name == "count":
            seq = self.seq(args[0])
            return codegen.expr("len({0})", seq, views=(0,))
        if name == "random":
            seq = self.seq(args[0])

            def draw(s):
                items = tuple(seq(s))
                if s.draws is not None and s.draws[0] < len(s.draws[1]):
                    i, values = s.draws
                    s.draws = (i + 1, values)
                    if values[i] not in items:
                        raise RuleError(f"the fixed draw {values[i]!r} is not among {items}", line)
                    return values[i]
                if not items:
                    raise RuleError("`random` of nothing", line)
                i, s.rng = rng.randbelow(len(items), s.rng)
                return items[i]
            return draw
        deck = self.deck
        if name == "suit":
            card = self.expr(args[0])
            suits = deck.card_suit
            # a joker has no suit: `suit(c) is none`, as its text says
            table = tuple(None if x < 0 else x for x in suits)
            if getattr(card, "not_none", False):
                return codegen.expr("{table}[{0}]", card, table=table)
            return codegen.expr("None if ({c} := {0}) is None else {table}[{c}]", card, c=codegen.TEMP, table=table)
        if name == "rank":
            card = self.expr(args[0])
            ranks = deck.card_rank
            if getattr(card, "not_none", False):
                return codegen.expr("{table}[{0}]", card, table=ranks)
            return codegen.expr("None if ({c} := {0}) is None else {table}[{c}]", card, c=codegen.TEMP, table=ranks)
        if name == "abs":
            a = self.expr(args[0])
            return codegen.expr("abs({0})", a)
        if name in ("min", "max"):
            a, b = self.expr(args[0]), self.expr(args[1])
            return codegen.expr(name + "({0}, {1})", a, b)
        if name == "sum":
            a = self.expr(args[0])
            return lambda s: sum(a(s))
        if name == "any":
            a = self.seq(args[0])
            return lambda s: len(a(s)) > 0
        raise AssertionError(name)  # pragma: no cover

    # -- conversions by static type
    def cards(self, e) -> Callable:
        """A closure giving a tuple of card ids, whether `e` is a zone, a card or cards."""
        t = self.types.get(id(e))
        f = self.expr(e)
        if t == ZONE:
            return codegen.zone_cards(f)
        if t == CARD:
            return codegen.expr("() if ({c} := {0}) is None else ({c},)", f, c=codegen.TEMP)
        return f

    def seq(self, e) -> Callable:
        """A closure giving a sequence: the cards of a zone, the items of a list, a player as one."""
        t = self.types.get(id(e))
        if t in (ZONE, CARD):
            return self.cards(e)
        f = self.expr(e)
        if t == PLAYER:
            return codegen.expr("() if ({p} := {0}) is None else ({p},)", f, p=codegen.TEMP)
        return f

    def players_of(self, e) -> Callable:
        return self.seq(e)

    def text(self, t: ast.Text) -> Callable:
        """A closure giving (text with card marks, the cards marked) for a text with `{…}` parts."""
        if not t.parts:
            value = t.value
            return lambda s: (value, ())
        pieces = []
        for part in t.parts:
            if isinstance(part, str):
                pieces.append((part, None))
            else:
                pieces.append((self.expr(part), self.types.get(id(part))))
        deck = self.deck
        rankings = self.rankings
        hand_ranking = None
        for part in t.parts:
            if isinstance(part, ast.Call) and part.func in rankings:
                hand_ranking = rankings[part.func][0]
        if hand_ranking is None and len(rankings) == 1:
            hand_ranking = next(iter(rankings.values()))[0]

        def render(s):
            out, cards = [], []
            for piece, t_ in pieces:
                if t_ is None:
                    out.append(piece)
                    continue
                value = piece(s)
                if t_ == CARD and value is not None:
                    out.append(mark(len(cards)))
                    cards.append(value)
                elif t_ in (CARDS, ZONE, ZONES):
                    ids = s.zones[value] if t_ == ZONE else [c for z in value for c in s.zones[z]] if t_ == ZONES else value
                    marks = []
                    for c in ids:
                        marks.append(mark(len(cards)))
                        cards.append(c)
                    out.append(", ".join(marks))
                elif t_ == HANDVALUE and hand_ranking is not None:
                    out.append(describe(hand_ranking, value))
                elif t_ == BOOL:
                    out.append("true" if value else "false")  # as the language writes them
                else:
                    shown = self.p.value_text(value, t_, None, s) if hasattr(self.p, "zone_names") else value
                    if isinstance(shown, list):
                        shown = ", ".join(map(str, shown))
                    out.append("none" if shown is None else str(shown))
            return "".join(out), tuple(cards)
        return render


def _nodes(node):
    """Every syntax node under `node` (lists and tuples of nodes too), `node` first."""
    if isinstance(node, (list, tuple)):
        for x in node:
            yield from _nodes(x)
    elif attrs.has(type(node)):
        yield node
        for f in attrs.fields(type(node)):
            if f.name != "span":
                yield from _nodes(getattr(node, f.name))


def _names(node, name) -> bool:
    """Whether the expression `node` mentions `name` anywhere (an inner variable of that name too)."""
    if isinstance(node, ast.Name):
        return node.name == name
    if isinstance(node, (list, tuple)):
        return any(_names(x, name) for x in node)
    if not attrs.has(type(node)):
        return False
    return any(_names(getattr(node, f.name), name) for f in attrs.fields(type(node)) if f.name != "span")


def _learning(face) -> str:
    """Statements (under an `if` on the cards `moving` to zone `dest`) for who learns those cards:
    whoever sees the zone, everyone (face up: `{all}`, and `{shown}` logs them), or nobody more."""
    if face is None:
        return ("        add = {vis}[dest]\n"
                "        if add:\n"
                "            known = s.known\n"
                "            for c in moving:\n"
                "                known[c] |= add\n")
    if face == "up":
        return ("        known = s.known\n"
                "        for c in moving:\n"
                "            known[c] = {all}\n"
                "        if s.log is not None:\n"
                "            {shown}(s, dest, moving)\n")
    return ""


def _shown(names) -> Callable:
    """`shown(s, dest, moving)`: logs cards put face up on zone `dest` (named in `names`)."""
    def shown(s, dest, moving):
        marks = card_marks(len(moving))
        s.fresh.append((f"face up on {names[dest]}: {marks}", tuple(moving)))
    return shown


def _jump(target: int) -> Callable:
    """An op that only goes to `target`, marked as such for `_thread_jumps`."""
    def op(s):
        return target
    op.jump = target
    return op


def _thread_jumps(code: list, lines: list, keep: set) -> None:
    """Takes the plain jumps out of the run: each becomes a copy of the op it leads to.

    Ops return absolute pcs, so a copy does what its original does. The end of an `if` branch, of
    an alternative and of a loop body then costs no step of its own. Ops that rule coverage
    instruments (rule points, choices) are not copied, only jumped to directly.
    """
    for j, op in enumerate(code):
        t = getattr(op, "jump", None)
        if t is None:
            continue
        seen = {j}
        while getattr(code[t], "jump", None) is not None and t not in seen:
            seen.add(t)
            t = code[t].jump
        if getattr(code[t], "jump", None) is not None:
            continue  # a loop of plain jumps: leave it to the step budget
        if t in keep:
            code[j] = _jump(t)
        else:
            code[j] = code[t]
            lines[j] = lines[t]


def _legal_of(a: Alt, base: int, line, out: str) -> tuple:
    """Statements that set `out` to the ids of one alternative's legal actions, in order, as a tuple:
    (template, children, named), as `codegen.Source.lines` takes them.

    A filter is tried with the alternative's variable held in a local; its slot is written for each
    value only when the filter calls a closure that reads it there (`codegen.calls`). Between the
    choice and the action nothing else reads that slot: the action sets it.
    """
    where, slot, source, high = a.where, a.slot, a.source, a.high
    if getattr(where, "src", None) == "True" and a.kind == "number":
        where = None  # `where true` (a define that allows everything): no filter to run
    if a.kind == "option":
        if where is None:
            return f"    {out} = {{only}}\n", (), {"only": (base,)}
        return f"    {out} = {{only}} if {{0}} else ()\n", (where,), {"only": (base,)}
    each = "x" if base == 0 else f"{base} | x"  # the id of value x

    def kept(values: str, test) -> tuple:
        """Lines keeping the values x of `values` (a local) that pass `test` (child {1})."""
        write = f"        s.v[{slot}] = x\n" if codegen.calls(test) else ""
        return ("    legal = []\n"
                f"    for x in {values}:\n"
                + write +
                "        if {1}:\n"
                f"            legal.append({each})\n"
                f"    {out} = tuple(legal)\n"), codegen.reading(test, slot, "x")

    if a.kind == "card":
        every = "tuple(q)" if base == 0 else f"tuple([{base} | x for x in q])"
        if where is None:
            return f"    q = {{0}}\n    {out} = {every}\n", (source,), {"views": (0,)}
        if a.split is not None and a.split[0] is not None:
            # the first terms do not name the card: when one holds, every card is legal
            first, rest = a.split
            head = ("    q = {0}\n"
                    "    if not q or {2}:\n"
                    f"        {out} = {every}\n")
            if rest is None:
                head = head.replace("{2}", "{1}")
                return head + f"    else:\n        {out} = ()\n", (source, first), {"views": (0,)}
            lines, test = kept("q", rest)
            return (head + "    else:\n" + "".join("    " + x + "\n" for x in lines.rstrip("\n").split("\n")),
                    (source, test, first), {"views": (0,)})
        lines, test = kept("q", where)
        return "    q = {0}\n" + lines, (source, test), {"views": (0,)}
    bounds = ("    lo, hi = {0}, {%d}\n"
              "    if lo < 0 or hi > 0xFFFF:\n"
              "        raise {error}({message} + f'{{lo}}..{{hi}}', {at})\n")
    named = {"error": RuleError, "message": "numbers to choose must lie in 0..65535, not ", "at": line}
    if where is None:
        return bounds % 1 + f"    {out} = tuple(range({base} + lo, {base} + hi + 1))\n", (source, high), named
    lines, test = kept("range(lo, hi + 1)", where)
    return bounds % 2 + lines, (source, test, high), named


def compile_program(symbols: Symbols, players: int, options: dict, counting: bool = False) -> Program:
    """Compiles checked symbols for a player count and options into a `Program`; with `counting`,
    its code counts each rule point it reaches in `Program.hits` and `Program.offered`."""
    deck = select_deck(symbols, players, options)
    program = Compiler(symbols, players, options, deck, counting).build()
    attach_payoff(program, symbols, players, options)  # (evaluated over the IR: see compiler/payoff.py)
    return program
