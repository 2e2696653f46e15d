"""E042 and W005: whether a `chooses` can be left with no legal option.

Each alternative of a choice is open under a condition, written as a formula over atoms
(comparisons, card tests, "some card of Z passes t"); the choice is empty when the formula C = "every
alternative is closed" holds. The walk over each block keeps what holds where each choice stands:

- the conditions of the enclosing `if`/`elif`/`else`, `while`, `repeat until`, `for each … where`
  and options, until a statement changes what they read;
- how many cards each zone holds, from `move all cards`, deals and moves along the block, at every
  legal player count, and which zones hold cards drawn at random from the whole shuffled deck.

Then, for each choice:

- C with those conditions and the sizes that hold on every pass is impossible (the comparisons of
  one pair of values are told apart: `==`/`!=`, `<`/`>=`, `>`/`<=`, and numbers against known
  bounds): nothing is said;
- on the first pass, at some legal player count with the options at their defaults, what is known
  makes C hold (for a deal of the cards that can happen): E042;
- otherwise the checker cannot tell: the warning W005.

Two things are assumed, as a deal from an empty pile is (a rule error while the game runs): a zone
chosen from holds a card unless the checker knows how many it holds, and a number range whose bounds
are not known before play is not empty.

The walk is here, the formulas of the alternatives `choice_formulas.py`; what is known about the zones is `zone_facts.py`, the bounds of
numbers `value_bounds.py`, and the decision (consistency, proofs) `choice_theory.py`.
"""

from __future__ import annotations

import itertools
from typing import Optional

import attrs

from . import ast, statements
from .choice_formulas import MAX_DEPTH, OpenFormulas
from .choice_theory import FALSE, Theory, _all, _and, _atoms, _not, _num
from .flow import Flow, _children, _key, _subst, statement_writes
from .pile_facts import unrolled
from .statements import question
from .value_bounds import ValueBounds
from .zone_facts import Facts, ZoneFacts, _join


# Whether a statement itself may put a player out (`eliminate`, or a phase played, which may).
puts_out = question("nonempty.puts_out", yes=(ast.Eliminate, ast.CallPhase), no=(
    ast.Add, ast.Announce, ast.Award, ast.Betting, ast.Break, ast.Choose, ast.Deal, ast.EndGame, ast.EndRound,
    ast.ForEach, ast.ForgetOrder, ast.Hide, ast.If, ast.Lay, ast.Let, ast.Move, ast.Pass, ast.Passes, ast.PutIn,
    ast.Repeat, ast.Reveal, ast.Reverse, ast.Set, ast.SetDirection, ast.Shuffle, ast.Swap, ast.TellFace,
    ast.TellWhich, ast.While))

# Whether a statement itself may end the round or the game (or play a phase, which may).
# (`break`: what follows it in its loop may not be reached)
may_end = question("nonempty.may_end", yes=(ast.EndGame, ast.EndRound, ast.CallPhase, ast.Break), no=(
    ast.Add, ast.Announce, ast.Award, ast.Betting, ast.Choose, ast.Deal, ast.Eliminate, ast.ForEach,
    ast.ForgetOrder, ast.Hide, ast.If, ast.Lay, ast.Let, ast.Move, ast.Pass, ast.Passes, ast.PutIn, ast.Repeat,
    ast.Reveal, ast.Reverse, ast.Set, ast.SetDirection, ast.Shuffle, ast.Swap, ast.TellFace, ast.TellWhich,
    ast.While))


def _eliminates(stmts) -> bool:
    for st in stmts:
        if puts_out(st):
            return True
        if any(_eliminates(body) for body in statements.child_blocks(st)):
            return True
    return False


def _names_in(key) -> set:
    """The names a structural key (`flow._key`) of an expression mentions."""
    if isinstance(key, tuple):
        if len(key) == 2 and key[0] == "Name" and isinstance(key[1], str):
            return {key[1]}
        return set().union(*(_names_in(k) for k in key)) if key else set()
    return set()


def _names_of(e) -> set:
    """The names an expression mentions."""
    if isinstance(e, ast.Name):
        return {e.name}
    if not isinstance(e, ast.Expr):
        return set()
    return set().union(*(_names_of(c) for c in _children(e)))


def _renamed(key, rename: dict):
    """A structural key with the names of `rename` replaced."""
    if isinstance(key, tuple):
        if len(key) == 2 and key[0] == "Name" and key[1] in rename:
            return ("Name", rename[key[1]])
        return tuple(_renamed(k, rename) for k in key)
    return key


class NonEmpty(OpenFormulas, ZoneFacts, ValueBounds, Theory):
    """The walk and the decision, over the module of a checker whose names and types are known."""

    def __init__(self, checker):
        self.c = checker
        self.sym = checker.sym
        self.flow = Flow(checker)
        self.flow.prepare()
        self.counts = sorted(n for n, size in self.flow.deck_sizes.items() if size is not None)
        self.fresh = itertools.count()
        self.shown: dict = {}  # atom -> the expression it was read from (for the warning's help)
        self._writes: Optional[dict] = None
        self._bounds: dict = {}
        self._stmt_writes: dict = {}  # id(statement) -> what it may change
        self._let_reads: dict = {}  # id(a let's value) -> what it reads
        self._ends: dict = {}  # id(statement) -> whether it may end the round
        self._choices_in: dict = {}  # id(block) -> whether a `chooses` is in it
        self._entries: dict = {}  # phase -> (first, always) of each line that plays it, walked so far
        self._phase_changes_cache: dict = {}  # phase -> the zone families it may change (None: any)

    # -- entry
    def run(self) -> None:
        """Decides every `chooses` of the module (E042 or W005 where it must)."""
        s = self.sym
        start = Facts(all_in=True)
        if s.setup is not None:
            whole = self._first_shared_zone()
            if whole is not None:
                start.sizes[whole] = {n: (self.flow.deck_sizes[n],) * 2 for n in self.counts}
            self._block(s.setup.body, start, start.copy(), [], [{}], {}, True)  # it runs once
        # the round's first pass is the first round: everyone is in unless the setup eliminates
        first_round = Facts(all_in=s.setup is None or not _eliminates(s.setup.body))
        if s.round is not None:
            self._block(s.round.body, first_round, Facts(), [], [{}], {}, True)
        # a phase starts with what holds at every line that plays it: its callers are walked first
        for name in self._phase_order():
            b = s.phases[name]
            scopes = [{p.name: None for p in b.params}]
            first, always, ctx, sure = self._entry(name, scopes)
            self._block(b.body, first, always, ctx, scopes, {}, sure)

    def _phase_order(self) -> list:
        """The phases, each after every phase that plays it (those in a circle of calls, E023, last)."""
        calls = self.c.calls
        phases = list(self.sym.phases)
        callers = {name: {b for b, callees in calls.items() if name in callees} for name in phases}
        order, done = [], {":setup", ":round"}
        while len(order) < len(phases):
            ready = [n for n in phases if n not in done and callers[n] <= done]
            if not ready:  # (a circle: what is left starts knowing nothing)
                self._entries = {n: v for n, v in self._entries.items() if n in done}
                ready = [n for n in phases if n not in done]
            for n in ready:
                order.append(n)
                done.add(n)
        return order

    def _enter(self, st: ast.CallPhase, first: Facts, always: Facts, ctx: list, scopes, sure: bool) -> None:
        """Records what holds where a line plays a phase, in the phase's own names: its parameters
        take the names passed to them; the caller's other local names mean nothing there."""
        phase = self.sym.phases.get(st.name)
        if phase is None:
            return
        rename = {}
        for param, arg in zip(phase.params, st.args):
            if isinstance(arg, ast.Name):
                rename[arg.name] = param.name
        params = {p.name for p in phase.params}
        local = {n for sc in scopes for n in sc}

        def move(key):
            if key[0] != "p" or key[2] == "*":
                return key
            # a name passed becomes the parameter; another local, or a global a parameter hides, is lost
            if any(n not in rename and (n in local or n in params) for n in _names_in(key[2])):
                return None
            return (key[0], key[1], _renamed(key[2], rename))

        conditions = []
        for c in ctx:  # the conditions that hold there, in the phase's names (those it can say)
            cond, negate = c[2]
            if any(n not in rename and (n in local or n in params) for n in _names_of(cond)):
                continue
            mapping = {old: ast.Name(cond.span, new) for old, new in rename.items()}
            written = _subst(cond, mapping)
            conditions.append(((_key(written), negate), (written, negate)))

        def moved(facts: Facts) -> Facts:
            out = Facts(all_in=facts.all_in)
            for key, v in facts.sizes.items():
                k = move(key)
                if k is not None:
                    out.sizes[k] = dict(v)
            out.random = frozenset(k for k in (move(x) for x in facts.random) if k is not None)
            return out

        self._entries.setdefault(st.name, []).append((moved(first), moved(always), conditions, sure))

    def _entry(self, name: str, scopes) -> tuple:
        """What holds at the start of a phase: the zone facts and the conditions that hold at every
        line that plays it (nothing when no line does)."""
        sites = self._entries.get(name)
        if not sites:
            return Facts(), Facts(), [], True
        common = dict(sites[0][2])
        for site in sites[1:]:
            common = {k: v for k, v in site[2] if k in common}
        ctx = [self._context(cond, scopes, negate) for cond, negate in common.values()]
        # (its lines are surely reached only if each one is)
        return _join([s[0] for s in sites]), _join([s[1] for s in sites]), ctx, all(s[3] for s in sites)

    def _first_shared_zone(self):
        for d in self.c.module.decls:
            if isinstance(d, ast.ZoneDecl) and not self.sym.zones.get(d.name, (True,))[0]:
                return ("z", d.name)
        return None

    # -- the walk
    def _block(self, stmts, first: Facts, always: Facts, ctx: list, scopes, cardvars: dict, sure: bool):
        """Walks a block: decides its choices; returns what is known after it (first pass, every pass)."""
        first, always = first.copy(), always.copy()
        scopes = scopes + [{}]
        ctx = list(ctx)
        cardvars = dict(cardvars)
        for st in stmts:
            if isinstance(st, ast.Let):
                scopes[-1][st.name] = st.value if st.name not in self.flow.assigned else None
                cardvars.pop(st.name, None)  # the name is no longer the card chosen
            elif isinstance(st, ast.If):
                first, always = self._if(st, first, always, ctx, scopes, cardvars, sure)
            elif isinstance(st, (ast.ForEach, ast.Repeat, ast.While)):
                first, always = self._loop(st, first, always, ctx, scopes, cardvars, sure)
            elif isinstance(st, ast.Choose):
                self._decide(st, first, always, ctx, scopes, cardvars, sure)
                ends = []
                for alt in st.alternatives:
                    inner = dict(cardvars)
                    extra = []
                    if alt.kind == "card":
                        inner[alt.var] = self._card_source(alt.source, scopes)[0]
                    elif alt.kind == "option" and alt.where is not None and self._has_choice(alt.body):
                        extra = [self._context(alt.where, scopes)]
                    inner_scopes = scopes + [{alt.var: None} if alt.var else {}]
                    ends.append(self._block(alt.body, first, always, ctx + extra, inner_scopes, inner, sure))
                first, always = _join([e[0] for e in ends]), _join([e[1] for e in ends])
            else:
                if isinstance(st, ast.CallPhase):
                    self._enter(st, first, always, ctx, scopes, sure)
                self._apply(st, first, scopes, cardvars)
                self._apply(st, always, scopes, cardvars)
            if not isinstance(st, (ast.Pass, ast.Announce, ast.Reveal, ast.Hide)):
                writes = self._writes_of(st)
                ctx = self._still(ctx, writes)
                self._forget_lets(scopes, writes, st)
            sure = sure and not self._may_end(st)  # what follows may not be reached
        return first, always

    @staticmethod
    def _still(ctx: list, writes) -> list:
        """The conditions that still hold after a statement that changes `writes` (None: anything)."""
        if writes is None:
            return []
        return [c for c in ctx if c[1] is not None and not (c[1] & writes)]

    def _writes_of(self, st):
        """What a statement may change, as `Flow._writes` says (None: anything), worked out once per
        statement and phase."""
        key = id(st)
        if key in self._stmt_writes:
            return self._stmt_writes[key]
        self._stmt_writes[key] = None  # a phase that plays itself (E023) changes anything
        out: Optional[set] = statement_writes(st, self.sym)
        if isinstance(st, ast.CallPhase):
            phase = self.sym.phases.get(st.name)
            out = None if phase is None else self._body_writes(phase.body)
        for body in statements.child_blocks(st):
            inner = self._body_writes(body)
            out = None if out is None or inner is None else out | inner
        self._stmt_writes[key] = out
        return out

    def _body_writes(self, stmts):
        out: Optional[set] = set()
        for st in stmts:
            inner = self._writes_of(st)
            if inner is None:
                return None
            out |= inner
        return out

    def _may_end(self, st) -> bool:
        """Whether a statement may end the round or the game (or play a phase, which may)."""
        key = id(st)
        if key not in self._ends:
            phase = self.sym.phases.get(st.name) if isinstance(st, ast.CallPhase) and st.name else None
            if phase is not None:  # a phase played may end only if its lines may
                self._ends[key] = True  # (a phase that plays itself, E023: it may)
                self._ends[key] = any(self._may_end(x) for x in phase.body)
            else:
                self._ends[key] = may_end(st) or any(
                    self._may_end(x) for body in statements.child_blocks(st) for x in body)
        return self._ends[key]

    def _forget_lets(self, scopes, writes, st) -> None:
        """A `let` keeps the value it had: once what it was computed from changes, it is no longer
        the same as its expression, and is not written out any more."""
        for sc in scopes:
            for name, value in sc.items():
                if value is None or (isinstance(st, ast.Let) and name == st.name and sc is scopes[-1]):
                    continue
                key = id(value)
                if key not in self._let_reads:
                    self._let_reads[key] = self._deep_reads(value, scopes, 0)
                reads = self._let_reads[key]
                if reads is None or writes is None or reads & writes:
                    sc[name] = None

    def _deep_reads(self, e, scopes, depth: int):
        """What an expression reads, through the `let` names it uses (None: cannot tell)."""
        reads = self.flow._reads(e, scopes, 0)
        if reads is None or depth > MAX_DEPTH:
            return None if depth > MAX_DEPTH else reads
        out = set(reads)
        for name in reads:
            value = next((sc[name] for sc in reversed(scopes) if name in sc), None)
            if value is not None:
                inner = self._deep_reads(value, scopes, depth + 1)
                if inner is None:
                    return None
                out |= inner
        return out

    def _context(self, cond, scopes, negate: bool = False) -> tuple:
        """A condition that holds: (its formula, what it reads, (the condition as written, negated))."""
        f = self._prop(cond, scopes, 0)
        return (_not(f) if negate else f), self._deep_reads(cond, scopes, 0), (cond, negate)

    def _if(self, st: ast.If, first, always, ctx, scopes, cardvars, sure):
        ends, before = [], []
        needed = any(self._has_choice(b) for b in statements.child_blocks(st))  # conditions matter only to choices
        for cond, body in st.branches:
            here = self._context(cond, scopes) if needed else None
            ends.append(self._block(body, first, always, ctx + before + ([here] if here else []), scopes,
                                    cardvars, sure))
            if here:
                before = before + [(_not(here[0]), here[1], (cond, True))]
        ends.append(self._block(st.orelse, first, always, ctx + before, scopes, cardvars, sure))
        return _join([e[0] for e in ends]), _join([e[1] for e in ends])

    def _has_choice(self, stmts) -> bool:
        """Whether a block of the module (a tuple of its AST, kept by id) holds a `chooses` (in it, not in
        the phases it plays)."""
        key = id(stmts)
        if key not in self._choices_in:
            self._choices_in[key] = False  # (a phase that plays itself, E023: not followed again)
            self._choices_in[key] = any(isinstance(st, ast.Choose) or self._plays_choice(st) or any(
                self._has_choice(b) for b in statements.child_blocks(st)) for st in stmts)
        return self._choices_in[key]

    def _plays_choice(self, st) -> bool:
        """Whether a line plays a phase that holds a `chooses` (its conditions go with it)."""
        phase = self.sym.phases.get(st.name) if isinstance(st, ast.CallPhase) and st.name else None
        return phase is not None and self._has_choice(phase.body)

    def _loop(self, st, first, always, ctx, scopes, cardvars, sure):
        passes = unrolled(self, st, scopes)
        if passes is not None:  # over numbers written out: pass by pass (`pile_facts.py`)
            for body in passes:
                first, always = self._block(body, first, always, ctx, scopes, cardvars, sure)
            return first, always
        var = st.var if isinstance(st, ast.ForEach) else None
        inner_scopes = scopes + [{var: None}] if var else scopes
        inner_vars = dict(cardvars)
        over_players = isinstance(st, ast.ForEach) and (
            isinstance(st.source, ast.Seats) or (isinstance(st.source, ast.Players)))
        if isinstance(st, ast.ForEach) and not over_players:
            inner_vars[var] = self._zone_key(st.source, scopes)
        touched = self._touched(st.body, inner_scopes, var if over_players else None, inner_vars, set())
        body_ctx, body_sure = [], sure
        if isinstance(st, ast.ForEach):
            if st.where is not None:
                if self._has_choice(st.body):
                    body_ctx.append(self._context(st.where, inner_scopes))
            if not over_players:
                body_sure = False  # a zone or a list may be empty: the body may never run
        elif isinstance(st, ast.While):
            if self._has_choice(st.body):
                body_ctx.append(self._context(st.cond, scopes, negate=st.negate))
        else:
            n = self.flow._fold(st.count, scopes)
            body_sure = sure and _num(n) and n >= 1
        # what holds on every pass: what the body does not change (a player's own zone, in a loop over
        # players, is another player's on the next pass)
        body_first = self._fresh_player(first, var) if over_players else first
        body_always = self._drop(always, touched if not over_players else (touched and (touched[0], set())))
        if over_players:
            body_always = self._fresh_player(body_always, var)
        # conditions read before the loop hold inside it only if the body changes nothing they read
        writes = self._writes_of(st)
        outer = self._still(ctx, writes)
        self._forget_lets(scopes, writes, st)  # on a later pass, a `let` read before the loop may be stale
        self._block(st.body, body_first, body_always, outer + body_ctx, inner_scopes, inner_vars, body_sure)
        return self._drop(first, touched), self._drop(always, touched)

    # -- one choice
    def _decide(self, st: ast.Choose, first: Facts, always: Facts, ctx: list, scopes, cardvars, sure) -> None:
        opens = [self._open(alt, scopes) for alt in st.alternatives]
        closed = _all(_not(o) for o in opens)
        if closed == FALSE:
            return
        given = _all(c[0] for c in ctx)
        whole = _and(given, closed)
        hull = {}
        for key, by_n in always.sizes.items():
            vals = [by_n.get(n) for n in self.counts]
            if vals and all(v is not None for v in vals):
                hull[key] = (min(v[0] for v in vals), max(v[1] for v in vals))
        found = self._satisfiable(whole, lambda t: self._term_every(t, hull))
        if found is False:
            return
        if found is not None and sure:
            for n in self.counts:
                if self._proven(whole, first, n):
                    self._report(st, "E042", None)
                    return
        self._report(st, "W005", found if isinstance(found, dict) else None, closed)

    def _report(self, st, code: str, values, closed=None) -> None:
        lines = self.flow.lines
        line = st.span.line
        text = lines[line - 1] if 1 <= line <= len(lines) else ""
        span = attrs.evolve(st.span, end_line=line, end_column=max(st.span.column + 1, len(text.rstrip()) + 1))
        one = len(st.alternatives) == 1
        if code == "E042":
            msg = ("the only option of this `chooses` can be closed: the player would have nothing to choose" if one
                   else "the options of this `chooses` can all be closed at once: the player would have nothing to choose")
            self.c.error("E042", msg, span,
                         help="add an option that is always open (a text with no `if`, or a card with no `where`), or "
                              "make the conditions cover every case")
            return
        what = "its only option" if one else "all its options"
        msg = f"the checker cannot tell whether this `chooses` always has an option open: {what} may be closed at once"
        case = self._describe(values, closed) if values else None
        help = ("they are all closed when " + case + "; " if case else "") + (
            "if that can happen, add an option that is always open; if it cannot, write the conditions so that they "
            "cover every case (`==` beside `!=`, `>` beside `<=`), or test them in an enclosing `if`")
        self.c.warn("W005", msg, span, help=help)

    def _describe(self, values: dict, closed) -> Optional[str]:
        parts = []
        atoms = [a for a in _atoms(closed, set()) if a in values and self.shown.get(a) is not None]
        for atom in sorted(atoms, key=lambda a: (self.shown[a].span.line, self.shown[a].span.column)):
            part = f"`{self.flow._source(self.shown[atom])}` is {'true' if values[atom] else 'false'}"
            if part not in parts:  # (a pile's filter written out for each pile reads alike: once)
                parts.append(part)
        if not parts:
            return None
        return ", ".join(parts[:3]) + (" …" if len(parts) > 3 else "")


def check_choices(checker) -> None:
    """Decides every `chooses` of the checker's module: E042 where it can be empty, W005 where the
    checker cannot tell."""
    NonEmpty(checker).run()
