"""Checks of what the procedure does, run by `check` once names and types are known.

- E040: a `deal` (or `move top n of …`) that takes more cards than the deck has, at a legal player
  count with the options at their defaults and every player still in;
- E041: a `while` / `repeat until` loop with no choice and no `end` inside, whose condition is
  always true or reads nothing the loop changes: once it starts it never stops;
- W003: a statement with no effect (`if false`, `repeat 0 times`, `add 0 to x`, `set x = x`).

E042 and W005 (a choice that can be left with no option) are `nonempty.py`'s; they use this module's
constant folding, deck sizes and what conditions read.

Each check reports only what it can show. Where it cannot tell (a count that depends on the play, a
condition it cannot reason about) it says nothing; `docs/diagnostics.md` lists the limits.
"""

from __future__ import annotations

import functools
from typing import Optional

import attrs

from . import ast, statements
from .decks import option_defaults, plan_deck
from .diagnostics import Span
from .limits import MAX_PLAYERS
from .statements import UnknownStatement, question

def check_flow(checker) -> None:
    """Runs every flow check over the checker's module; reports through the checker."""
    Flow(checker).run()


def _key(e):
    """A structural key of an expression, equal for expressions written alike (spans ignored)."""
    if isinstance(e, tuple):
        return tuple(_key(x) for x in e)
    if isinstance(e, Span):
        return None
    if attrs.has(type(e)):
        return (type(e).__name__,) + tuple(
            _key(getattr(e, f.name)) for f in attrs.fields(type(e)) if f.name != "span" and not f.name.endswith("_span"))
    return e


def _children(e):
    for f in attrs.fields(type(e)):
        if f.name == "span" or f.name.endswith("_span"):
            continue
        v = getattr(e, f.name)
        if isinstance(v, ast.Expr):
            yield v
        elif isinstance(v, tuple):
            for x in v:
                if isinstance(x, ast.Expr):
                    yield x


def _mentions(e, name: str) -> bool:
    if isinstance(e, ast.Name):
        return e.name == name
    return any(_mentions(c, name) for c in _children(e))


def _subst(e, mapping: dict):
    """`e` with the names of `mapping` replaced by expressions (a define's parameters by arguments)."""
    if isinstance(e, ast.Name):
        return mapping.get(e.name, e)
    if isinstance(e, ast.Aggregate) and e.var in mapping:
        mapping = {k: v for k, v in mapping.items() if k != e.var}
    if not isinstance(e, ast.Expr):
        return e
    changes = {}
    for f in attrs.fields(type(e)):
        v = getattr(e, f.name)
        if isinstance(v, ast.Expr):
            nv = _subst(v, mapping)
        elif isinstance(v, tuple):
            nv = tuple(_subst(x, mapping) if isinstance(x, ast.Expr) else x for x in v)
        else:
            continue
        if nv is not v:
            changes[f.name] = nv
    return attrs.evolve(e, **changes) if changes else e


@functools.singledispatch
def statement_writes(st, sym) -> set:
    """What a statement itself may change (not its blocks, not a phase it plays): variable and pot
    names, `@cards` (where cards are, and who knows them: what `is face up` reads), `@players` (who
    is in, and in what order) — what a condition's `Flow._reads` is compared with. One case per
    statement class; a statement without one is refused (`UnknownStatement`)."""
    raise UnknownStatement(st, "statement_writes")


@statement_writes.register(ast.Pass)
@statement_writes.register(ast.Announce)
@statement_writes.register(ast.TellFace)  # (what a seat was told is read by no condition)
@statement_writes.register(ast.TellWhich)
@statement_writes.register(ast.EndGame)  # (leaving the round changes nothing the loop goes on with)
@statement_writes.register(ast.EndRound)
@statement_writes.register(ast.Break)
@statement_writes.register(ast.CallPhase)  # (a phase's body is its callers' to follow)
@statement_writes.register(ast.If)  # (a block is its callers' to follow; the statement itself binds
@statement_writes.register(ast.ForEach)  # at most names of its own)
@statement_writes.register(ast.Repeat)
@statement_writes.register(ast.While)
@statement_writes.register(ast.Choose)
def _writes_nothing(st, sym) -> set:
    return set()


@statement_writes.register(ast.Set)
@statement_writes.register(ast.Add)
def _writes_target(st, sym) -> set:
    return {st.target.name}


@statement_writes.register(ast.Let)
def _writes_let(st: ast.Let, sym) -> set:
    return {st.name}


@statement_writes.register(ast.Move)
@statement_writes.register(ast.Lay)  # (and the groups of its zone, which only its cards' text reads)
@statement_writes.register(ast.Deal)
@statement_writes.register(ast.Swap)
@statement_writes.register(ast.Shuffle)
@statement_writes.register(ast.Reveal)  # (who knows a card: `c is face up`)
@statement_writes.register(ast.Hide)
@statement_writes.register(ast.ForgetOrder)
def _writes_cards(st, sym) -> set:
    return {"@cards"}


@statement_writes.register(ast.Reverse)
@statement_writes.register(ast.SetDirection)
def _writes_order(st, sym) -> set:
    return {"@players"}  # `next of`, `players` follow the direction


@statement_writes.register(ast.Passes)
def _writes_passes(st, sym) -> set:
    return {"@passes"}  # (what `everyone else passed` reads)


@statement_writes.register(ast.Eliminate)
def _writes_players(st: ast.Eliminate, sym) -> set:
    return {"@players", "@cards"}


@statement_writes.register(ast.PutIn)
@statement_writes.register(ast.Betting)
@statement_writes.register(ast.Award)
def _writes_pot(st, sym) -> set:
    pot = sym.pots.get(st.pot)  # the pot and the stacks it takes chips from
    return {st.pot} | ({pot.stacks} if pot is not None and pot.stacks else set())


# Whether a statement itself hands the turn over or ends (a loop holding one may stop): `Flow._exits`
# asks it of every statement of a loop's body, and looks into a phase played (`CallPhase`) itself.
hands_over = question("flow.hands_over", yes=(ast.Choose, ast.Betting, ast.EndGame, ast.EndRound), no=(
    ast.Add, ast.Announce, ast.Award, ast.Break, ast.CallPhase, ast.Deal, ast.Eliminate, ast.ForEach,
    ast.ForgetOrder, ast.Hide, ast.If, ast.Lay, ast.Let, ast.Move, ast.Pass, ast.Passes, ast.PutIn, ast.Repeat,
    ast.Reveal, ast.Reverse, ast.Set, ast.SetDirection, ast.Shuffle, ast.Swap, ast.TellFace, ast.TellWhich,
    ast.While))


class Flow:
    """Walks every block once with the local names in scope, and runs the checks statement by statement."""

    def __init__(self, checker):
        self.c = checker
        self.sym = checker.sym
        self.lines = checker.module.source.split("\n")
        self.assigned: set = set()  # names some `set`/`add` changes, anywhere
        self.deck_sizes: dict = {}

    # -- entry
    def prepare(self) -> None:
        """Finds the names the rules change and the deck's size at every legal player count."""
        s = self.sym
        for b in (s.setup, s.round, *s.phases.values()):
            if b is not None:
                self._collect_assigned(b.body)
        low, high = s.players
        # every legal count, so that E040 names the smallest that fails (`players` is at most MAX_PLAYERS;
        # past it, E029 is reported and these checks look at no count)
        counts = range(low, high + 1) if high <= MAX_PLAYERS else ()
        for n in counts:
            self.deck_sizes[n] = self._deck_size(n)

    def run(self) -> None:
        """Runs E040, E041 and W003 over every block."""
        s = self.sym
        self.prepare()
        for b in (b for b in (s.setup, s.round, *s.phases.values()) if b is not None):
            self._stmts(b.body, [{p.name: None for p in b.params}])

    def _collect_assigned(self, stmts) -> None:
        for st in stmts:
            if isinstance(st, (ast.Set, ast.Add)):
                self.assigned.add(st.target.name)
            for body in statements.child_blocks(st):
                self._collect_assigned(body)

    # -- constants
    def _fold(self, e, scopes, players: Optional[int] = None):
        """The value of an expression known before play (None if unknown). Without `players`, only
        literals fold; with it, `player_count`, `count(players)` and options (their defaults) too."""
        if isinstance(e, ast.Number):
            return e.value
        if isinstance(e, ast.Bool):
            return e.value
        if isinstance(e, ast.Text) and not any(isinstance(p, ast.Expr) for p in e.parts):
            return e.value
        if isinstance(e, ast.Unary):
            v = self._fold(e.operand, scopes, players)
            if v is None:
                return None
            if e.op == "not":
                return (not v) if isinstance(v, bool) else None
            return -v if isinstance(v, int) and not isinstance(v, bool) else None
        if isinstance(e, ast.Conditional):
            c = self._fold(e.cond, scopes, players)
            if not isinstance(c, bool):
                return None
            return self._fold(e.then if c else e.otherwise, scopes, players)
        if isinstance(e, ast.Binary):
            return self._fold_binary(e, scopes, players)
        if players is None:
            return None
        if isinstance(e, ast.Name):
            if any(e.name in sc for sc in scopes):
                return None
            sym = self.sym.table.get(e.name)
            if sym is None:
                return None
            if sym.kind == "const" and e.name == "player_count":
                return players
            if sym.kind == "option" and e.name not in self.assigned:
                return sym.decl.default
            return None
        if isinstance(e, ast.Call) and len(e.args) == 1 and e.func == "count" and self.sym.table.get("count") is None:
            a = e.args[0]
            everyone = isinstance(a, ast.Seats) or (isinstance(a, ast.Players) and a.start is None)
            return players if everyone else None  # every player is still in
        if isinstance(e, ast.Call) and e.func in ("min", "max", "abs") and self.sym.table.get(e.func) is None:
            vals = [self._fold(a, scopes, players) for a in e.args]
            if not vals or any(not isinstance(v, int) or isinstance(v, bool) for v in vals):
                return None
            return {"min": min, "max": max}.get(e.func, lambda v: abs(v))(*vals) if e.func != "abs" else abs(vals[0])
        return None

    def _fold_binary(self, e, scopes, players):
        a = self._fold(e.left, scopes, players)
        if e.op in ("and", "or") and isinstance(a, bool):
            if (e.op == "and" and not a) or (e.op == "or" and a):
                return a
            b = self._fold(e.right, scopes, players)
            return b if isinstance(b, bool) else None
        b = self._fold(e.right, scopes, players)
        if a is None or b is None:
            return None
        nums = all(isinstance(v, int) and not isinstance(v, bool) for v in (a, b))
        try:
            if e.op in ("+", "-", "*") and nums:
                return a + b if e.op == "+" else a - b if e.op == "-" else a * b
            if e.op in ("/", "%") and nums and b != 0:
                return a // b if e.op == "/" else a % b
            if e.op in ("<", ">", "<=", ">=") and nums:
                return {"<": a < b, ">": a > b, "<=": a <= b, ">=": a >= b}[e.op]
            if e.op in ("==", "!=") and type(a) is type(b):
                return (a == b) == (e.op == "==")
        except (TypeError, OverflowError):
            return None
        return None

    def _deck_size(self, players: int) -> Optional[int]:
        deck = self.sym.deck
        if deck is None:
            return None
        for cond, spec in deck.choices:
            if cond is not None:
                v = self._fold(cond, [{}], players)
                if not isinstance(v, bool):
                    return None
                if not v:
                    continue
            plan = plan_deck(spec, option_defaults(self.c.module.decls))[0]
            return plan.size if plan is not None else None
        return None

    # -- the walk
    def _stmts(self, stmts, scopes) -> None:
        scopes = scopes + [{}]
        runs: dict = {}  # source zone -> the deals and moves that took cards from it since it was filled
        for st in stmts:
            self._cards_taken(st, runs, scopes)
            if isinstance(st, ast.Let):
                scopes[-1][st.name] = st.value if st.name not in self.assigned else None
            elif isinstance(st, ast.If):
                for cond, body in st.branches:
                    if self._fold(cond, scopes) is False:
                        self.c.warn("W003", "this branch never runs: its condition is always false", cond.span,
                                    help="remove it, or write the condition it should test")
                    self._stmts(body, scopes)
                self._stmts(st.orelse, scopes)
            elif isinstance(st, ast.ForEach):
                if isinstance(st.source, ast.ListExpr) and not st.source.items:
                    self.c.warn("W003", "this `for each` never runs: it goes through an empty list", st.source.span)
                self._stmts(st.body, scopes + [{st.var: None}])
            elif isinstance(st, ast.Repeat):
                n = self._fold(st.count, scopes)
                if isinstance(n, int) and not isinstance(n, bool) and n <= 0:
                    self.c.warn("W003", f"this `repeat` never runs: it repeats {n} times", st.count.span)
                self._stmts(st.body, scopes)
            elif isinstance(st, ast.While):
                self._loop(st, scopes)
                self._stmts(st.body, scopes)
            elif isinstance(st, ast.Choose):
                for alt in st.alternatives:
                    self._stmts(alt.body, scopes + [{alt.var: None} if alt.var else {}])
            elif isinstance(st, ast.Add):
                amount = self._fold(st.amount, scopes)
                if amount == 0 and not isinstance(amount, bool):
                    word = "adding" if st.op == "+" else "subtracting"
                    self.c.warn("W003", f"{word} 0 changes nothing", st.span, help="remove the line")
            elif isinstance(st, ast.Set):
                v = st.value
                if st.target.kind == "name" and isinstance(v, ast.Name) and v.name == st.target.name:
                    self.c.warn("W003", f"`set {v.name} = {v.name}` changes nothing", st.span, help="remove the line")

    # -- E040: more cards than the deck has
    def _cards_taken(self, st, runs: dict, scopes) -> None:
        if isinstance(st, ast.Deal):
            source = st.source
        elif isinstance(st, ast.Move) and isinstance(st.cards, ast.EndCard) and st.cards.count is not None:
            source = st.cards.zone
        else:
            source = None
        if isinstance(st, ast.Move):
            runs.pop(_key(st.zone), None)  # cards put back into a zone refill it
            runs.pop(("reported",) + _key(st.zone), None)
        elif source is None and not isinstance(st, (ast.Shuffle, ast.Announce, ast.Reveal, ast.Hide, ast.Pass,
                                                    ast.Passes, ast.Let, ast.Set, ast.Add)):
            runs.clear()  # a block, a phase, a swap: what it does to the zones is not followed
            return
        if source is None:
            return
        key = _key(source)
        run = runs.setdefault(key, [])
        run.append(st)
        reported = runs.get(("reported",) + key, None)  # the smallest player count already reported
        for n, size in self.deck_sizes.items():
            if size is None or (reported is not None and n >= reported):
                continue
            taken = [self._taken(x, n, scopes) for x in run]
            total = sum(t for t in taken if t is not None)
            if taken[-1] is None or total <= size:
                continue
            what = "deal" if isinstance(st, ast.Deal) else "move"
            fits = [m for m, sz in self.deck_sizes.items() if sz is not None and m < n
                    and sum(t for t in (self._taken(x, m, scopes) for x in run) if t is not None) <= sz]
            low = self.sym.players[0]
            hint = (f"allow at most {max(fits)} players (`players {low}..{max(fits)}`), or take fewer cards"
                    if fits and max(fits) >= low else "take fewer cards")
            if len(run) == 1:
                msg = f"this `{what}` takes {total} cards with {n} players, but the deck has {size}"
            else:
                msg = (f"with {n} players, this `{what}` brings the cards taken from `{self._source(source)}` "
                       f"since line {run[0].span.line} to {total}, but the deck has {size}")
            self.c.error("E040", msg, st.span, help=hint)
            runs[("reported",) + key] = n
            return

    def _taken(self, st, players: int, scopes) -> Optional[int]:
        if isinstance(st, ast.Move):
            n = self._fold(st.cards.count, scopes, players)
            return n if isinstance(n, int) and not isinstance(n, bool) and n > 0 else None
        if st.count is None:  # `deal all`: the zone's cards, never more
            return None
        n = self._fold(st.count, scopes, players)
        k = self._zones_dealt(st.dest, players)
        if not isinstance(n, int) or isinstance(n, bool) or k is None or n <= 0:
            return None
        return n * k

    def _zones_dealt(self, dest, players: int) -> Optional[int]:
        """How many zones a deal goes to, at least (None if unknown)."""
        if isinstance(dest, ast.Call) and len(dest.args) == 1:
            sym = self.sym.table.get(dest.func + "()") or self.sym.table.get(dest.func)
            if sym is not None and sym.kind == "pzone":
                return self._players_in(dest.args[0], players)
        return 1 if self.sym.types.get(id(dest)) == "zone" else None

    def _players_in(self, e, players: int) -> Optional[int]:
        if isinstance(e, ast.Seats) or (isinstance(e, ast.Players) and e.stop is None):
            return players
        if isinstance(e, ast.Binary) and e.op == "except":
            total = self._players_in(e.left, players)
            if total is None:
                return None
            if isinstance(e.right, ast.ListExpr):
                return max(0, total - len(e.right.items))
            if self.sym.types.get(id(e.right)) == "player":
                return max(0, total - 1)
            return None
        if isinstance(e, ast.ListExpr):
            return len(e.items)
        if self.sym.types.get(id(e)) == "player":
            return 1
        return None

    def _source(self, e) -> str:
        s = e.span
        if s.line == s.end_line and 1 <= s.line <= len(self.lines):
            return self.lines[s.line - 1][s.column - 1: s.end_column - 1]
        return "…"

    # -- E041: loops with no way out
    def _loop(self, st: ast.While, scopes) -> None:
        word = "repeat until" if st.negate else "while"
        c = self._fold(st.cond, scopes)
        if isinstance(c, bool):
            if c == st.negate:
                self.c.warn("W003", f"this `{word}` loop never runs: its condition is always {str(c).lower()}",
                            st.cond.span)
                return
            if not self._exits(st.body, set()):
                self.c.error("E041", f"this `{word}` loop never ends: its condition is always {str(c).lower()} "
                             "and nothing in it chooses or ends", st.cond.span,
                             help="add a `chooses`, an `end round` or an `end game` inside, or test something "
                                  "the loop changes")
            return
        if self._exits(st.body, set()):
            return
        reads = self._reads(st.cond, scopes, 0)
        if reads is None:
            return
        writes = self._writes(st.body, set())
        if writes is None or reads & writes:
            return
        parts = [f"`{n}`" for n in sorted(r for r in reads if not r.startswith("@"))]
        parts += [{"@cards": "the cards in the zones", "@players": "who is still in"}[r] for r in sorted(reads)
                  if r.startswith("@")]
        what = (", ".join(parts[:-1]) + " or " + parts[-1] if len(parts) > 1 else parts[0]) if parts else "its condition"
        self.c.error("E041", f"this `{word}` loop can never end: nothing in it changes {what}, "
                     "and nothing in it chooses or ends", st.cond.span,
                     help="change what the condition tests inside the loop, or add a `chooses`, an `end round` or an "
                          "`end game`")

    def _exits(self, stmts, seen: set, inner: bool = False) -> bool:
        """Whether the statements may leave the loop they are in (`inner`: they are in a loop inside
        it, whose `break` ends only that one)."""
        for st in stmts:
            if hands_over(st) or (isinstance(st, ast.Break) and not inner):
                return True
            if isinstance(st, ast.CallPhase):
                phase = self.sym.phases.get(st.name)
                if phase is None:
                    return True  # an unknown phase is reported elsewhere; assume the best
                if st.name not in seen:
                    seen.add(st.name)
                    if self._exits(phase.body, seen, True):  # (a `break` there ends a loop of the phase)
                        return True
            looped = inner or isinstance(st, (ast.ForEach, ast.Repeat, ast.While))
            for body in statements.child_blocks(st):
                if self._exits(body, seen, looped):
                    return True
        return False

    def _reads(self, e, scopes, depth: int) -> Optional[set]:
        """The state an expression's value depends on: variable names, `@cards`, `@players`; None
        when it cannot tell (randomness, a definition too deep)."""
        if depth > 20:
            return None
        out: set = set()
        if isinstance(e, ast.Name):
            if any(e.name in sc for sc in scopes):
                return {e.name}
            sym = self.sym.table.get(e.name)
            if sym is None:
                return None
            if sym.kind in ("var", "pvar", "tvar", "local", "pot"):
                return {e.name}
            if sym.kind in ("zone", "pzone", "nzone"):
                return {"@cards"}
            if sym.kind == "define":
                return self._reads(sym.decl.body, scopes + [{p.name: None for p in sym.decl.params}], depth + 1)
            return set()
        if isinstance(e, ast.Call):
            sym = None if any(e.func in sc for sc in scopes) else (
                self.sym.table.get(e.func + "()") or self.sym.table.get(e.func))
            if sym is None and e.func == "random":
                return None
            if sym is not None:
                if sym.kind in ("pvar", "tvar", "pot"):  # `chips(p)`, `got(team of p)`, `pot(p)`
                    out.add(e.func)
                elif sym.kind in ("pzone", "nzone"):
                    out.add("@cards")
                elif sym.kind == "define":
                    inner = self._reads(sym.decl.body, scopes + [{p.name: None for p in sym.decl.params}], depth + 1)
                    if inner is None:
                        return None
                    out |= inner
        elif isinstance(e, (ast.Players, ast.Neighbour)):
            out.add("@players")
        elif isinstance(e, ast.AllCards):
            out.add("@cards")
        elif isinstance(e, ast.EveryonePassed):
            out |= {"@passes", "@players"}
        elif isinstance(e, ast.Aggregate):
            scopes = scopes + [{e.var: None}]
        for child in _children(e):
            inner = self._reads(child, scopes, depth + 1)
            if inner is None:
                return None
            out |= inner
        return out

    def _writes(self, stmts, seen: set) -> Optional[set]:
        out: set = set()
        for st in stmts:
            out |= statement_writes(st, self.sym)
            if isinstance(st, ast.CallPhase):
                phase = self.sym.phases.get(st.name)
                if phase is None:
                    return None
                if st.name not in seen:
                    seen.add(st.name)
                    inner = self._writes(phase.body, seen)
                    if inner is None:
                        return None
                    out |= inner
            for body in statements.child_blocks(st):
                inner = self._writes(body, seen)
                if inner is None:
                    return None
                out |= inner
        return out
