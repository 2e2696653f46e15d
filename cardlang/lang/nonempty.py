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
"""

from __future__ import annotations

import itertools
from typing import Optional

import attrs

from . import ast
from .flow import Flow, _key, _mentions, _subst

MAX_ATOMS = 12  # a choice with more independent conditions than this is not decided (W005)
MAX_DEPTH = 20  # definitions seen through, nested
INF = float("inf")

# Propositional formulas: ("const", bool), ("atom", key), ("not", f), ("and", f, g), ("or", f, g).
TRUE, FALSE = ("const", True), ("const", False)


def _not(f):
    if f[0] == "const":
        return ("const", not f[1])
    if f[0] == "not":
        return f[1]
    return ("not", f)


def _and(f, g):
    if FALSE in (f, g):
        return FALSE
    if f == TRUE:
        return g
    if g == TRUE:
        return f
    return ("and", f, g)


def _or(f, g):
    if TRUE in (f, g):
        return TRUE
    if f == FALSE:
        return g
    if g == FALSE:
        return f
    return ("or", f, g)


def _all(fs):
    out = TRUE
    for f in fs:
        out = _and(out, f)
    return out


def _atoms(f, out: set) -> set:
    if f[0] == "atom":
        out.add(f[1])
    elif f[0] != "const":
        for g in f[1:]:
            _atoms(g, out)
    return out


def _eval(f, values: dict) -> bool:
    kind = f[0]
    if kind == "const":
        return f[1]
    if kind == "atom":
        return values[f[1]]
    if kind == "not":
        return not _eval(f[1], values)
    if kind == "and":
        return _eval(f[1], values) and _eval(f[2], values)
    return _eval(f[1], values) or _eval(f[2], values)


def _subst_atoms(f, known: dict):
    """`f` with the atoms of `known` replaced by their truth values, simplified."""
    kind = f[0]
    if kind == "const":
        return f
    if kind == "atom":
        v = known.get(f[1])
        return f if v is None else ("const", v)
    if kind == "not":
        return _not(_subst_atoms(f[1], known))
    a, b = _subst_atoms(f[1], known), _subst_atoms(f[2], known)
    return _and(a, b) if kind == "and" else _or(a, b)


def _num(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _count_key(zone_key) -> tuple:
    """The key of `count(Z)` for the key of Z (as `_key` writes a call)."""
    return ("Call", "count", (zone_key,))


def _once(e: ast.Binary, var: str) -> bool:
    """Whether `var` stands once in `e`'s sides, through `+` and `-` only (`total + n != size`): then
    exactly one value of it makes them equal."""
    def count(x) -> Optional[int]:
        if isinstance(x, ast.Name):
            return 1 if x.name == var else 0
        if isinstance(x, ast.Binary) and x.op in ("+", "-"):
            a, b = count(x.left), count(x.right)
            return None if a is None or b is None else a + b
        return None if _mentions(x, var) else 0
    a, b = count(e.left), count(e.right)
    return a is not None and b is not None and a + b == 1


_FLIP = {"<": ">", ">": "<", "<=": ">=", ">=": "<="}
LT, EQ, GT = 1, 2, 4
_RELS = {"<": LT, "<=": LT | EQ, "==": EQ, "!=": LT | GT}


# ---------------------------------------------------------------- what is known about the zones
@attrs.define
class Facts:
    """How many cards zones hold ({key: {player count: (low, high)}}) and which hold random cards of
    the whole deck. A key is ("z", name) or ("p", name, key of whose) (("p", name, "*"): everyone's)."""

    sizes: dict = attrs.Factory(dict)
    random: frozenset = frozenset()

    def copy(self) -> "Facts":
        """An independent copy."""
        return Facts(dict(self.sizes), self.random)


def _hull(a, b):
    if a is None or b is None:
        return None
    return (min(a[0], b[0]), max(a[1], b[1]))


def _join(states: list) -> Facts:
    """What holds after one of several branches ran."""
    first, rest = states[0], states[1:]
    sizes = {}
    for key, by_n in first.sizes.items():
        if all(key in s.sizes for s in rest):
            merged = {n: v for n, v in by_n.items()}
            for s in rest:
                merged = {n: _hull(v, s.sizes[key].get(n)) for n, v in merged.items()}
            if any(v is not None for v in merged.values()):
                sizes[key] = {n: v for n, v in merged.items() if v is not None}
    random = first.random
    for s in rest:
        random &= s.random
    return Facts(sizes, random)


class NonEmpty:
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

    # -- entry
    def run(self) -> None:
        """Decides every `chooses` of the module (E042 or W005 where it must)."""
        s = self.sym
        start = Facts()
        if s.setup is not None:
            whole = self._first_shared_zone()
            if whole is not None:
                start = Facts({whole: {n: (self.flow.deck_sizes[n],) * 2 for n in self.counts}})
            self._block(s.setup.body, start, Facts(), [], [{}], {}, True)
        for b in (s.round, *s.phases.values()):
            if b is not None:
                self._block(b.body, Facts(), Facts(), [], [{p.name: None for p in b.params}], {}, True)

    def _first_shared_zone(self):
        for d in self.c.module.decls:
            if isinstance(d, ast.ZoneDecl) and not self.sym.zones.get(d.name, (True,))[0]:
                return ("z", d.name)
        return None

    # -- zones
    def _zone_key(self, e, scopes) -> Optional[tuple]:
        """The key of a zone expression (None when it is not one zone the walk can name)."""
        if isinstance(e, ast.Name) and not any(e.name in sc for sc in scopes):
            sym = self.sym.table.get(e.name)
            if sym is not None and sym.kind == "zone":
                return ("z", e.name)
        if isinstance(e, ast.Call) and len(e.args) == 1 and not any(e.func in sc for sc in scopes):
            sym = self.sym.table.get(e.func + "()") or self.sym.table.get(e.func)
            if sym is not None and sym.kind == "pzone" and self.sym.types.get(id(e)) == "zone":
                return ("p", e.func, _key(e.args[0]))
        return None

    @staticmethod
    def _size(facts: Facts, key, n: int):
        by_n = facts.sizes.get(key)
        if by_n is None and key[0] == "p":
            by_n = facts.sizes.get(("p", key[1], "*"))
        return None if by_n is None else by_n.get(n)

    def _set(self, facts: Facts, key, new: dict) -> None:
        """Sets the sizes of one zone ({n: (lo, hi) or None}); a player's zone widens the others'."""
        new = {n: v for n, v in new.items() if v is not None}
        if key[0] == "p" and key[2] != "*":
            for other in [k for k in facts.sizes if k[0] == "p" and k[1] == key[1] and k != key]:
                merged = {n: _hull(v, new.get(n)) for n, v in facts.sizes[other].items()}
                facts.sizes[other] = {n: v for n, v in merged.items() if v is not None}
        if new:
            facts.sizes[key] = new
        else:
            facts.sizes.pop(key, None)
        facts.random = facts.random - {key}

    def _forget_all(self, facts: Facts) -> None:
        facts.sizes.clear()
        facts.random = frozenset()

    def _taking(self, cards, facts: Facts, scopes, cardvars: dict):
        """What a `move` takes: (the source's key or None, {n: (lo, hi)} cards taken), or None if unknown."""
        counts = self.counts
        if isinstance(cards, ast.EndCard):
            src = self._zone_key(cards.zone, scopes)
            if src is None:
                return None
            out = {}
            for n in counts:
                size = self._size(facts, src, n) or (0, self.flow.deck_sizes[n])
                if cards.count is None:
                    out[n] = (min(1, size[0]), min(1, size[1]))
                else:
                    k = self.flow._fold(cards.count, scopes, n)
                    out[n] = (min(k, size[0]), min(k, size[1])) if _num(k) and k >= 0 else (0, size[1])
            return src, out
        if isinstance(cards, ast.Name) and cards.name in cardvars:
            src = cardvars[cards.name]
            return (src, {n: (1, 1) for n in counts}) if src is not None else None
        key = self._zone_key(cards, scopes)
        if key is not None:
            out = {}
            for n in counts:
                size = self._size(facts, key, n)
                out[n] = size or (0, self.flow.deck_sizes[n])
            return key, out
        if isinstance(cards, ast.Binary) and cards.op == "except":
            inner = self._taking(cards.left, facts, scopes, cardvars)
            if inner is None or inner[0] is None:
                return None
            return inner[0], {n: (max(0, lo - 1), hi) for n, (lo, hi) in inner[1].items()}
        return None

    def _move(self, st: ast.Move, facts: Facts, scopes, cardvars: dict) -> None:
        if isinstance(st.cards, ast.AllCards):
            dest = self._zone_key(st.zone, scopes)
            self._forget_all(facts)
            if dest is not None:
                for name, (per_player, _, _) in self.sym.zones.items():
                    key = ("p", name, "*") if per_player else ("z", name)
                    facts.sizes[key] = {n: (0, 0) for n in self.counts}
                facts.sizes[dest] = {n: (self.flow.deck_sizes[n],) * 2 for n in self.counts}
            return
        dest = self._zone_key(st.zone, scopes)
        taken = self._taking(st.cards, facts, scopes, cardvars)
        if dest is None or taken is None:
            self._forget_all(facts)
            return
        src, amount = taken
        if src == dest:
            return
        # cards from the top of a shuffled deck into an empty zone are a random draw of the deck
        was_random = src in facts.random and (isinstance(st.cards, ast.EndCard) or self._zone_key(st.cards, scopes))
        dest_empty = all(self._size(facts, dest, n) == (0, 0) for n in self.counts)
        new_src, new_dest = {}, {}
        for n in self.counts:
            t = amount[n]
            s = self._size(facts, src, n)
            d = self._size(facts, dest, n)
            if s is not None:
                new_src[n] = (max(0, s[0] - t[1]), max(0, s[1] - t[0]))
            if d is not None:
                new_dest[n] = (d[0] + t[0], d[1] + t[1])
        keep_random = src in facts.random and isinstance(st.cards, ast.EndCard)
        self._set(facts, src, new_src)
        self._set(facts, dest, new_dest)
        if keep_random:
            facts.random = facts.random | {src}
        if was_random and dest_empty:
            facts.random = facts.random | {dest}

    def _deal(self, st: ast.Deal, facts: Facts, scopes) -> None:
        src = self._zone_key(st.source, scopes)
        dest = st.dest
        everyone = None
        if isinstance(dest, ast.Call) and len(dest.args) == 1:
            sym = self.sym.table.get(dest.func + "()") or self.sym.table.get(dest.func)
            a = dest.args[0]
            if sym is not None and sym.kind == "pzone" and (
                    isinstance(a, ast.Seats) or (isinstance(a, ast.Players) and a.stop is None)):
                everyone = dest.func
        single = self._zone_key(dest, scopes) if everyone is None else None
        if src is None or (everyone is None and single is None):
            self._forget_all(facts)
            return
        random = src in facts.random
        new_src = {}
        targets = [k for k in facts.sizes if k[0] == "p" and k[1] == everyone] if everyone else [single]
        if everyone and ("p", everyone, "*") not in targets:
            targets.append(("p", everyone, "*"))
        before = {k: {n: self._size(facts, k, n) for n in self.counts} for k in targets}
        empty = all(v == (0, 0) for k in targets for v in before[k].values())
        for n in self.counts:
            k = self.flow._fold(st.count, scopes, n)
            m = self.flow._zones_dealt(dest, n)
            s = self._size(facts, src, n)
            if not _num(k) or m is None:
                new_src[n] = (0, s[1]) if s is not None else None
                continue
            if s is not None:
                new_src[n] = (max(0, s[0] - k * m), max(0, s[1] - k * m))
            for key in targets:
                d = before[key][n]
                before[key][n] = (d[0] + k, d[1] + k) if d is not None else None
        self._set(facts, src, new_src)
        for key in targets:
            if everyone:
                facts.sizes[key] = {n: v for n, v in before[key].items() if v is not None}
                facts.random = facts.random - {key}
            else:
                self._set(facts, key, before[key])
        if random:
            facts.random = facts.random | {src} | (frozenset(targets) if empty else frozenset())

    def _apply(self, st, facts: Facts, scopes, cardvars: dict) -> None:
        """What a simple statement does to the zones' sizes."""
        if isinstance(st, ast.Move):
            self._move(st, facts, scopes, cardvars)
        elif isinstance(st, ast.Deal):
            self._deal(st, facts, scopes)
        elif isinstance(st, ast.Shuffle):
            key = self._zone_key(st.zone, scopes)
            if key is not None and (key in facts.random or all(
                    self._size(facts, key, n) == (self.flow.deck_sizes[n],) * 2 for n in self.counts)):
                facts.random = facts.random | {key}
        elif isinstance(st, ast.Swap):
            a, b = self._zone_key(st.left, scopes), self._zone_key(st.right, scopes)
            if a is None or b is None or a[0] == "p" or b[0] == "p":
                self._forget_all(facts)
            else:
                sa, sb = facts.sizes.pop(a, None), facts.sizes.pop(b, None)
                if sb is not None:
                    facts.sizes[a] = sb
                if sa is not None:
                    facts.sizes[b] = sa
                facts.random = facts.random - {a, b}
        elif isinstance(st, (ast.Eliminate, ast.CallPhase)):
            self._forget_all(facts)

    def _touched(self, stmts, scopes, var: Optional[str], cardvars: dict, seen: set):
        """The zones a block may change: (names, names changed only as `z(var)`), or None for any."""
        names, mine = set(), set()

        def note(key) -> bool:
            if key is None:
                return False
            if key[0] == "p" and var is not None and key[2] == ("Name", var):
                mine.add(key[1])
            else:
                names.add(key[1])
            return True

        for st in stmts:
            if isinstance(st, ast.Move):
                taken = None if isinstance(st.cards, ast.AllCards) else self._taking(st.cards, Facts(), scopes, cardvars)
                if isinstance(st.cards, ast.AllCards) or taken is None or not note(taken[0]) \
                        or not note(self._zone_key(st.zone, scopes)):
                    return None
            elif isinstance(st, ast.Deal):
                d = st.dest
                if isinstance(d, ast.Call) and len(d.args) == 1 and self._zone_key(d, scopes) is None:
                    names.add(d.func)
                elif not note(self._zone_key(d, scopes)):
                    return None
                if not note(self._zone_key(st.source, scopes)):
                    return None
            elif isinstance(st, (ast.Shuffle,)):
                if not note(self._zone_key(st.zone, scopes)):
                    return None
            elif isinstance(st, (ast.Swap, ast.Eliminate, ast.CallPhase)):
                return None
            inner_vars = dict(cardvars)
            if isinstance(st, ast.Choose):
                for alt in st.alternatives:
                    if alt.kind == "card":
                        inner_vars[alt.var] = self._card_source(alt.source, scopes)[0]
            elif isinstance(st, ast.ForEach):
                inner_vars[st.var] = self._zone_key(st.source, scopes)
            for body in ast.child_blocks(st):
                inner = self._touched(body, scopes, var, inner_vars, seen)
                if inner is None:
                    return None
                names |= inner[0]
                mine |= inner[1]
        return names, mine

    def _drop(self, facts: Facts, touched) -> Facts:
        """`facts` without what a loop that changes `touched` may have changed."""
        if touched is None:
            return Facts()
        names = touched[0] | touched[1]
        out = Facts({k: v for k, v in facts.sizes.items() if k[1] not in names},
                    frozenset(k for k in facts.random if k[1] not in names))
        return out

    def _fresh_player(self, facts: Facts, var: str) -> Facts:
        """Facts at the start of a pass of `for each var in players`: `z(var)` is everyone's `z`."""
        out = facts.copy()
        for key in [k for k in out.sizes if k[0] == "p" and k[2] == ("Name", var)]:
            del out.sizes[key]
        out.random = frozenset(k for k in out.random if not (k[0] == "p" and k[2] == ("Name", var)))
        for key in [k for k in facts.sizes if k[0] == "p" and k[2] == "*"]:
            out.sizes[("p", key[1], ("Name", var))] = facts.sizes[key]
            if key in facts.random:
                out.random = out.random | {("p", key[1], ("Name", var))}
        return out

    # -- the walk
    def _block(self, stmts, first: Facts, always: Facts, ctx: list, scopes, cardvars: dict, sure: bool):
        """Walks a block: decides its choices; returns what is known after it (first pass, every pass)."""
        first, always = first.copy(), always.copy()
        scopes = scopes + [{}]
        ctx = list(ctx)
        for st in stmts:
            if isinstance(st, ast.Let):
                scopes[-1][st.name] = st.value if st.name not in self.flow.assigned else None
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
                    elif alt.kind == "option" and alt.where is not None:
                        extra = [self._context(alt.where, scopes)]
                    inner_scopes = scopes + [{alt.var: None} if alt.var else {}]
                    ends.append(self._block(alt.body, first, always, ctx + extra, inner_scopes, inner, sure))
                first, always = _join([e[0] for e in ends]), _join([e[1] for e in ends])
            else:
                self._apply(st, first, scopes, cardvars)
                self._apply(st, always, scopes, cardvars)
            ctx = self._still(ctx, st)
            if isinstance(st, (ast.EndGame, ast.EndRound)):
                sure = False
        return first, always

    def _still(self, ctx: list, st) -> list:
        """The conditions that still hold after `st`."""
        if isinstance(st, (ast.Pass, ast.Announce, ast.Reveal, ast.Hide)):
            return ctx
        writes = self.flow._writes([st], set())
        if writes is None:
            return []
        return [(f, reads) for f, reads in ctx if reads is not None and not (reads & writes)]

    def _context(self, cond, scopes, negate: bool = False) -> tuple:
        f = self._prop(cond, scopes, 0)
        return (_not(f) if negate else f), self.flow._reads(cond, scopes, 0)

    def _if(self, st: ast.If, first, always, ctx, scopes, cardvars, sure):
        ends, before = [], []
        for cond, body in st.branches:
            here = before + [self._context(cond, scopes)]
            ends.append(self._block(body, first, always, ctx + here, scopes, cardvars, sure))
            before = before + [self._context(cond, scopes, negate=True)]
        ends.append(self._block(st.orelse, first, always, ctx + before, scopes, cardvars, sure))
        return _join([e[0] for e in ends]), _join([e[1] for e in ends])

    def _loop(self, st, first, always, ctx, scopes, cardvars, sure):
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
                body_ctx.append(self._context(st.where, inner_scopes))
            if not over_players:
                body_sure = False  # a zone or a list may be empty: the body may never run
        elif isinstance(st, ast.While):
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
        writes = self.flow._writes(st.body, set())
        outer = [] if writes is None else [(f, r) for f, r in ctx if r is not None and not (r & writes)]
        self._block(st.body, body_first, body_always, outer + body_ctx, inner_scopes, inner_vars, body_sure)
        return self._drop(first, touched), self._drop(always, touched)

    # -- one choice
    def _decide(self, st: ast.Choose, first: Facts, always: Facts, ctx: list, scopes, cardvars, sure) -> None:
        opens = [self._open(alt, scopes) for alt in st.alternatives]
        closed = _all(_not(o) for o in opens)
        if closed == FALSE:
            return
        given = _all(f for f, _ in ctx)
        whole = _and(given, closed)
        hull = {}
        for key, by_n in always.sizes.items():
            vals = [by_n.get(n) for n in self.counts]
            if vals and all(v is not None for v in vals):
                hull[key] = (min(v[0] for v in vals), max(v[1] for v in vals))
        found = self._satisfiable(whole, lambda t: self._term_every(t, hull), "every")
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
            parts.append(f"`{self.flow._source(self.shown[atom])}` is {'true' if values[atom] else 'false'}")
        if not parts:
            return None
        return ", ".join(parts[:3]) + (" …" if len(parts) > 3 else "")

    # -- alternatives as formulas
    def _open(self, alt: ast.Alternative, scopes):
        """When an alternative offers at least one action, as a formula."""
        if alt.kind == "option":
            return TRUE if alt.where is None else self._prop(alt.where, scopes, 0)
        if alt.kind == "number":
            lo, hi = alt.source, alt.high
            f = self._range(lo, hi, scopes)
            if alt.where is not None:
                f = _and(f, self._number_exists(alt.where, alt.var, lo, hi, scopes, 0))
            return f
        zone, where = self._card_filter(alt.source, alt.var, alt.where, scopes)
        if zone is None:
            return FALSE
        f = self._nonempty(zone, scopes)
        if where is not None:
            f = _and(f, self._exists(where, alt.var, zone, scopes, 0))
        return f

    def _card_source(self, source, scopes):
        """The zone a card is chosen from (its key, or None) and the filter its expression adds."""
        zone, where = self._card_filter(source, "\0c", None, scopes)
        return (self._zone_key(zone, scopes) if zone is not None else None), where

    def _card_filter(self, source, var: str, where, scopes, depth: int = 0):
        """(Z, w): choosing from `source` where `where` is choosing from Z where w (None, None: from nothing)."""
        def both(a, b):
            if a is None:
                return b
            if b is None:
                return a
            return ast.Binary(a.span, "and", a, b)

        if depth > MAX_DEPTH:
            return source, where
        if isinstance(source, ast.ListExpr) and not source.items:
            return None, None
        if isinstance(source, ast.Aggregate) and source.kind == "select" and source.where is not None:
            test = _subst(source.where, {source.var: ast.Name(source.span, var)})
            return self._card_filter(source.source, var, both(test, where), scopes, depth + 1)
        if isinstance(source, ast.Binary) and source.op == "except":
            other = source.right
            t = self.sym.types.get(id(other))
            me = ast.Name(source.span, var)
            test = ast.Binary(source.span, "!=", me, other) if t == "card" else \
                ast.Unary(source.span, "not", ast.Binary(source.span, "in", me, other))
            return self._card_filter(source.left, var, both(test, where), scopes, depth + 1)
        if isinstance(source, (ast.Name, ast.Call)) and self._zone_key(source, scopes) is None:
            expanded = self.flow_expand(source, scopes)
            if expanded is not None:
                return self._card_filter(expanded, var, where, scopes, depth + 1)
        return source, where

    def _nonempty(self, zone, scopes):
        atom = ("nonempty", _key(zone))
        self.shown.setdefault(atom, zone)
        return ("atom", atom)

    def _range(self, lo, hi, scopes):
        a, b = self.flow._fold(lo, scopes), self.flow._fold(hi, scopes)
        if _num(a) and _num(b):
            return ("const", a <= b)
        return ("atom", ("assume", _key(hi), _key(lo)))  # lo <= hi, assumed where not known

    def _number_exists(self, e, var: str, lo, hi, scopes, depth: int):
        """Whether some number of lo..hi meets `e`, as a formula (lo <= hi is known)."""
        if depth > MAX_DEPTH:
            return self._fresh()
        if not _mentions(e, var):
            return self._prop(e, scopes, depth)
        if isinstance(e, ast.Binary) and e.op == "or":
            return _or(self._number_exists(e.left, var, lo, hi, scopes, depth + 1),
                       self._number_exists(e.right, var, lo, hi, scopes, depth + 1))
        if isinstance(e, ast.Binary) and e.op in ("==", "!=", "<", ">", "<=", ">="):
            left, right, op = e.left, e.right, e.op
            if _mentions(right, var) and not _mentions(left, var):
                left, right, op = right, left, _FLIP.get(op, op)
            if isinstance(left, ast.Name) and left.name == var and not _mentions(right, var):
                lt = self._lt
                if op == "!=":
                    return _or(lt(lo, hi), _not(self._eq(lo, right)))
                if op == "==":
                    return _and(_not(lt(right, lo)), _not(lt(hi, right)))
                if op == "<=":
                    return _not(lt(right, lo))
                if op == "<":
                    return lt(lo, right)
                if op == ">=":
                    return _not(lt(hi, right))
                return lt(right, hi)
        if isinstance(e, ast.Binary) and e.op == "!=" and _once(e, var):
            return _or(self._lt(lo, hi), self._fresh())  # one number is forbidden: two numbers leave one
        if isinstance(e, ast.Binary) and e.op == "and":
            if not _mentions(e.left, var):
                return _and(self._prop(e.left, scopes, depth + 1),
                            self._number_exists(e.right, var, lo, hi, scopes, depth + 1))
            if not _mentions(e.right, var):
                return _and(self._number_exists(e.left, var, lo, hi, scopes, depth + 1),
                            self._prop(e.right, scopes, depth + 1))
        if isinstance(e, ast.Conditional) and not _mentions(e.cond, var):
            c = self._prop(e.cond, scopes, depth + 1)
            return _or(_and(c, self._number_exists(e.then, var, lo, hi, scopes, depth + 1)),
                       _and(_not(c), self._number_exists(e.otherwise, var, lo, hi, scopes, depth + 1)))
        expanded = self.flow_expand(e, scopes) if not (isinstance(e, ast.Name) and e.name == var) else None
        if expanded is not None:
            return self._number_exists(expanded, var, lo, hi, scopes, depth + 1)
        if isinstance(e, ast.Bool):
            return ("const", e.value)
        return self._fresh()

    def _fresh(self):
        return ("atom", ("fresh", next(self.fresh)))

    @staticmethod
    def _lt(a, b):
        return ("atom", ("<", _key(a), _key(b)))

    @staticmethod
    def _eq(a, b):
        return ("atom", ("==",) + tuple(sorted((_key(a), _key(b)), key=repr)))

    def flow_expand(self, e, scopes):
        """A `let` name or a definition's call, replaced by what it stands for (None if neither)."""
        if isinstance(e, ast.Name):
            for sc in reversed(scopes):
                if e.name in sc:
                    return sc[e.name]
            sym = self.sym.table.get(e.name)
            if sym is not None and sym.kind == "define" and not sym.decl.params:
                return sym.decl.body
            return None
        if isinstance(e, ast.Call) and not any(e.func in sc for sc in scopes):
            sym = self.sym.table.get(e.func)
            if sym is not None and sym.kind == "define" and len(sym.decl.params) == len(e.args):
                return _subst(sym.decl.body, {p.name: a for p, a in zip(sym.decl.params, e.args)})
        return None

    def _prop(self, e, scopes, depth: int):
        """A condition as a formula over atoms (comparisons, tests and names it cannot look into)."""
        if depth > MAX_DEPTH:
            return self._fresh()
        if isinstance(e, ast.Bool):
            return ("const", e.value)
        if isinstance(e, ast.Unary) and e.op == "not":
            return _not(self._prop(e.operand, scopes, depth + 1))
        if isinstance(e, ast.Binary):
            if e.op == "and":
                return _and(self._prop(e.left, scopes, depth + 1), self._prop(e.right, scopes, depth + 1))
            if e.op == "or":
                return _or(self._prop(e.left, scopes, depth + 1), self._prop(e.right, scopes, depth + 1))
            v = self.flow._fold(e, scopes)
            if isinstance(v, bool):
                return ("const", v)
            some = self._count_test(e, scopes, depth)
            if some is not None:
                return some
            return self._comparison(self._seen(e, scopes, depth))
        if isinstance(e, ast.Aggregate) and e.kind == "any" and e.where is not None:
            zone, where = self._card_filter(e.source, "\0it", _subst(e.where, {e.var: ast.Name(e.span, "\0it")}),
                                            scopes)
            if zone is None:
                return FALSE
            return self._exists(where, "\0it", zone, scopes, depth + 1)
        if isinstance(e, ast.Conditional):
            c = self._prop(e.cond, scopes, depth + 1)
            return _or(_and(c, self._prop(e.then, scopes, depth + 1)),
                       _and(_not(c), self._prop(e.otherwise, scopes, depth + 1)))
        expanded = self.flow_expand(e, scopes)
        if expanded is not None:
            return self._prop(expanded, scopes, depth + 1)
        atom = ("atom", ("value", _key(e)))
        self.shown.setdefault(atom[1], e)
        return atom

    def _seen(self, e: ast.Binary, scopes, depth: int) -> ast.Binary:
        """A comparison with the definitions and `let` names of its sides written out, so that
        `owe(p) > 0` and `level - stake(p) > 0` are one test."""
        def out(x, d):
            if d > MAX_DEPTH:
                return x
            expanded = self.flow_expand(x, scopes)
            if expanded is not None and not isinstance(expanded, ast.Aggregate):
                return out(expanded, d + 1)
            return x
        left, right = out(e.left, depth), out(e.right, depth)
        if left is e.left and right is e.right:
            return e
        return attrs.evolve(e, left=left, right=right)

    def _count_test(self, e: ast.Binary, scopes, depth: int):
        """`count x in S where t > 0` (or `>= 1`, `!= 0`, `== 0`, `count(select …)`) as "some x of S passes t"."""
        left, right, op = e.left, e.right, e.op
        if isinstance(left, ast.Number):
            left, right, op = right, left, _FLIP.get(op, op)
        if not isinstance(right, ast.Number):
            return None
        for _ in range(MAX_DEPTH):
            expanded = self.flow_expand(left, scopes)
            if expanded is None:
                break
            left = expanded
        if isinstance(left, ast.Call) and left.func == "count" and len(left.args) == 1 \
                and self.sym.table.get("count") is None:
            inner = left.args[0]
            for _ in range(MAX_DEPTH):
                expanded = self.flow_expand(inner, scopes)
                if expanded is None:
                    break
                inner = expanded
            if not (isinstance(inner, ast.Aggregate) and inner.kind == "select"):
                return None
            source, var, where = inner.source, inner.var, inner.where
        elif isinstance(left, ast.Aggregate) and left.kind == "count" and left.where is not None:
            source, var, where = left.source, left.var, left.where
        else:
            return None
        zone, test = self._card_filter(source, "\0it", _subst(where, {var: ast.Name(e.span, "\0it")}), scopes)
        some = FALSE if zone is None else self._exists(test, "\0it", zone, scopes, depth + 1)
        if (op, right.value) in ((">", 0), (">=", 1), ("!=", 0)):
            return some
        if (op, right.value) in (("==", 0), ("<", 1), ("<=", 0)):
            return _not(some)
        return None

    def _comparison(self, e):
        a, b, op = _key(e.left), _key(e.right), e.op
        if op in ("==", "!="):
            atom = ("atom", ("==",) + tuple(sorted((a, b), key=repr)))
            self.shown.setdefault(atom[1], e)
            return atom if op == "==" else _not(atom)
        if op in ("<", ">", "<=", ">="):
            if op in (">", ">="):
                a, b, op = b, a, _FLIP[op]
            atom = ("atom", ("<", a, b) if op == "<" else ("<", b, a))
            self.shown.setdefault(atom[1], e)
            if op == "<=":
                return _not(atom)
            return atom
        if op in ("is", "is not"):
            atom = ("atom", ("is", a, b))
            self.shown.setdefault(atom[1], e)
            return atom if op == "is" else _not(atom)
        atom = ("atom", (op, a, b))
        self.shown.setdefault(atom[1], e)
        return atom

    def _exists(self, e, var: str, zone, scopes, depth: int):
        """Whether some card of `zone` meets `e` (about card `var`), as a formula."""
        if depth > MAX_DEPTH:
            return self._fresh()
        if not _mentions(e, var):
            return self._prop(e, scopes, depth)
        if isinstance(e, ast.Binary) and e.op == "or":
            return _or(self._exists(e.left, var, zone, scopes, depth + 1),
                       self._exists(e.right, var, zone, scopes, depth + 1))
        if isinstance(e, ast.Binary) and e.op == "and":
            if not _mentions(e.left, var):
                return _and(self._prop(e.left, scopes, depth + 1), self._exists(e.right, var, zone, scopes, depth + 1))
            if not _mentions(e.right, var):
                return _and(self._exists(e.left, var, zone, scopes, depth + 1), self._prop(e.right, scopes, depth + 1))
            if self._contradicts(e, var):
                return FALSE
        if isinstance(e, ast.Binary):
            pattern = self._card_test(e, var)
            if pattern is not None:
                return self._has(zone, pattern)
            if e.op == "!=" and _mentions(e.left, var) != _mentions(e.right, var):
                other = e.right if _mentions(e.left, var) else e.left
                me = e.left if _mentions(e.left, var) else e.right
                if isinstance(me, ast.Name) and me.name == var:
                    # another card than X: Z holds two cards, or X is not in Z
                    count = _count_key(_key(zone))
                    two = ("atom", ("<", ("Number", 1), count))
                    seen = other
                    for _ in range(MAX_DEPTH):
                        expanded = self.flow_expand(seen, scopes)
                        if expanded is None:
                            break
                        seen = expanded
                    if isinstance(seen, ast.EndCard) and seen.count is None and _key(seen.zone) == _key(zone):
                        inside = TRUE  # the top (or bottom) card of Z is in Z when Z holds one
                    else:
                        inside = ("atom", ("in", _key(other), _key(zone)))
                    return _or(two, _not(inside))
        if isinstance(e, ast.Conditional) and not _mentions(e.cond, var):
            c = self._prop(e.cond, scopes, depth + 1)
            return _or(_and(c, self._exists(e.then, var, zone, scopes, depth + 1)),
                       _and(_not(c), self._exists(e.otherwise, var, zone, scopes, depth + 1)))
        expanded = self.flow_expand(e, scopes) if not (isinstance(e, ast.Name) and e.name == var) else None
        if expanded is not None:
            return self._exists(expanded, var, zone, scopes, depth + 1)
        return self._some(zone, var, e, scopes)

    def _has(self, zone, pattern):
        atom = ("has", _key(zone), _key(pattern))
        return ("atom", atom)

    def _some(self, zone, var: str, test, scopes):
        """The atom "some card x of `zone` passes `test`", the same however the card is named, with the
        definitions of the test written out."""
        test = self._written_out(test, scopes, 0)
        return ("atom", ("exists", _key(zone), _key(_subst(test, {var: ast.Name(test.span, "\0it")}))))

    def _written_out(self, e, scopes, depth):
        """`e` with the definitions it calls replaced by their bodies (bounded)."""
        if depth > MAX_DEPTH or not isinstance(e, ast.Expr):
            return e
        if isinstance(e, ast.Call):
            expanded = self.flow_expand(e, scopes)
            if expanded is not None:
                return self._written_out(expanded, scopes, depth + 1)
        changes = {}
        for f in attrs.fields(type(e)):
            v = getattr(e, f.name)
            if isinstance(v, ast.Expr):
                nv = self._written_out(v, scopes, depth + 1)
            elif isinstance(v, tuple):
                nv = tuple(self._written_out(x, scopes, depth + 1) if isinstance(x, ast.Expr) else x for x in v)
            else:
                continue
            if nv is not v:
                changes[f.name] = nv
        return attrs.evolve(e, **changes) if changes else e

    def _contradicts(self, e, var: str) -> bool:
        """`c is hearts and c is spades`: two different suits (or ranks) asked of one card."""
        found: dict = {}
        stack = [e]
        while stack:
            x = stack.pop()
            if isinstance(x, ast.Binary) and x.op == "and":
                stack += [x.left, x.right]
                continue
            pattern = self._card_test(x, var) if isinstance(x, ast.Binary) else None
            if isinstance(pattern, ast.Name):
                sym = self.sym.table.get(pattern.name)
                if sym is not None and sym.kind in ("rank", "suit"):
                    if found.setdefault(sym.kind, pattern.name) != pattern.name:
                        return True
        return False

    @staticmethod
    def _card_test(e: ast.Binary, var: str):
        """Y, when `e` says that card `var` is (of) Y: `c is Y`, `suit(c) == Y`, `rank(c) == Y`."""
        def is_var(x):
            return isinstance(x, ast.Name) and x.name == var

        def of_var(x):
            return isinstance(x, ast.Call) and x.func in ("suit", "rank") and len(x.args) == 1 and is_var(x.args[0])

        if e.op == "is" and is_var(e.left) and not _mentions(e.right, var):
            return e.right
        if e.op == "==":
            if of_var(e.left) and not _mentions(e.right, var):
                return e.right
            if of_var(e.right) and not _mentions(e.left, var):
                return e.left
        return None

    # -- the values variables can hold
    def _assignments(self) -> dict:
        """Variable name -> the `set`s and `add`s of it, anywhere in the rules."""
        if self._writes is None:
            self._writes = {}

            def walk(stmts):
                for st in stmts:
                    if isinstance(st, (ast.Set, ast.Add)) and st.target.kind in ("name", "player"):
                        self._writes.setdefault(st.target.name, []).append(st)
                    for body in ast.child_blocks(st):
                        walk(body)
            for b in (self.sym.setup, self.sym.round, *self.sym.phases.values()):
                if b is not None:
                    walk(b.body)
        return self._writes

    def _var_bounds(self, name: str):
        """The least and most a variable (or a per-player variable) can hold, over its start and
        everything the rules set it to (None when not known)."""
        if name in self._bounds:
            return self._bounds[name]
        self._bounds[name] = None  # a variable set from itself is not bounded by this
        sym = self.sym.vars.get(name) or self.sym.pvars.get(name)
        if sym is None:
            return None
        out = self._interval(sym.decl.value, {}, 0)
        for st in self._assignments().get(name, ()):
            if out is None:
                break
            if isinstance(st, ast.Set):
                out = _hull(out, self._interval(st.value, {}, 0))
            else:
                amount = self._interval(st.amount, {}, 0)
                grows = amount is not None and (amount[0] >= 0 if st.op == "+" else amount[1] <= 0)
                shrinks = amount is not None and (amount[1] <= 0 if st.op == "+" else amount[0] >= 0)
                out = (out[0], INF) if grows else (-INF, out[1]) if shrinks else None
        self._bounds[name] = out
        return out

    def _interval(self, e, env: dict, depth: int):
        """The least and most a number expression can be, with `env` bounding names (None: unknown)."""
        if depth > MAX_DEPTH:
            return None
        if isinstance(e, ast.Number):
            return (e.value, e.value)
        if isinstance(e, ast.Name):
            if e.name in env:
                return env[e.name]
            sym = self.sym.table.get(e.name)
            if sym is None:
                return None
            if sym.kind == "option" and e.name not in self.flow.assigned and _num(sym.decl.default):
                return (sym.decl.low, sym.decl.high) if sym.decl.low is not None else None
            if sym.kind == "const":
                return self.sym.players
            if sym.kind == "var":
                return self._var_bounds(e.name)
            return None
        if isinstance(e, ast.Unary) and e.op == "-":
            x = self._interval(e.operand, env, depth + 1)
            return None if x is None else (-x[1], -x[0])
        if isinstance(e, ast.Binary) and e.op in ("+", "-"):
            a, b = self._interval(e.left, env, depth + 1), self._interval(e.right, env, depth + 1)
            if a is None or b is None:
                return None
            return (a[0] + b[0], a[1] + b[1]) if e.op == "+" else (a[0] - b[1], a[1] - b[0])
        if isinstance(e, ast.Conditional):
            then_env, else_env = self._refine(e.cond, env, depth)
            a = self._interval(e.then, then_env, depth + 1)
            b = self._interval(e.otherwise, else_env, depth + 1)
            return _hull(a, b)
        if isinstance(e, ast.Call):
            sym = self.sym.table.get(e.func + "()") or self.sym.table.get(e.func)
            if sym is not None and sym.kind == "pvar":
                return self._var_bounds(e.func)
            if sym is not None and sym.kind == "define" and len(sym.decl.params) == len(e.args):
                inner = {p.name: self._interval(a, env, depth + 1) for p, a in zip(sym.decl.params, e.args)}
                return self._interval(sym.decl.body, {k: v for k, v in inner.items() if v is not None} | {
                    k: (-INF, INF) for k, v in inner.items() if v is None}, depth + 1)
            if sym is None and e.func == "count":
                return (0, INF)
            if sym is None and e.func in ("min", "max") and len(e.args) == 2:
                a, b = self._interval(e.args[0], env, depth + 1), self._interval(e.args[1], env, depth + 1)
                if a is None or b is None:
                    return None
                f = min if e.func == "min" else max
                return (f(a[0], b[0]), f(a[1], b[1]))
        if isinstance(e, ast.Aggregate) and e.kind == "count":
            return (0, INF)
        return None

    def _refine(self, cond, env: dict, depth: int):
        """Bounds of the names of `cond` where it holds and where it does not (`k <= 10`)."""
        if isinstance(cond, ast.Binary) and cond.op in ("<", ">", "<=", ">="):
            left, right, op = cond.left, cond.right, cond.op
            if isinstance(left, ast.Number):
                left, right, op = right, left, _FLIP[op]
            if isinstance(left, ast.Name) and isinstance(right, ast.Number) and left.name in env:
                lo, hi = env[left.name]
                v = right.value
                yes = {"<": (lo, min(hi, v - 1)), "<=": (lo, min(hi, v)),
                       ">": (max(lo, v + 1), hi), ">=": (max(lo, v), hi)}[op]
                no = {"<": (max(lo, v), hi), "<=": (max(lo, v + 1), hi),
                      ">": (lo, min(hi, v)), ">=": (lo, min(hi, v - 1))}[op]
                return env | {left.name: yes}, env | {left.name: no}
        return env, env

    # -- deciding
    def _term_every(self, t, hull: dict):
        """The bounds of a value on every pass at every legal count (None: not known)."""
        if isinstance(t, tuple) and t and t[0] == "Number":
            return (t[1], t[1])
        zone = self._count_zone(t)
        if zone is not None:
            size = hull.get(zone) or (hull.get(("p", zone[1], "*")) if zone[0] == "p" else None)
            return size or (0, INF)
        if self._counts_something(t):
            return (0, INF)
        if isinstance(t, tuple) and len(t) == 2 and t[0] == "Name":
            sym = self.sym.table.get(t[1])
            if sym is not None and sym.kind == "option" and t[1] not in self.flow.assigned and sym.decl.low is not None:
                return (sym.decl.low, sym.decl.high)
            if sym is not None and sym.kind == "const":
                return self.sym.players
        return self._named_bounds(t)

    def _named_bounds(self, t):
        """The bounds of a variable or a player's variable, from what the rules set it to."""
        if isinstance(t, tuple) and len(t) == 2 and t[0] == "Name":
            sym = self.sym.table.get(t[1])
            if sym is not None and sym.kind == "var":
                return self._var_bounds(t[1])
        if isinstance(t, tuple) and len(t) == 3 and t[0] == "Call" and len(t[2]) == 1:
            sym = self.sym.table.get(t[1] + "()") or self.sym.table.get(t[1])
            if sym is not None and sym.kind == "pvar":
                return self._var_bounds(t[1])
        return None

    def _term_at(self, t, facts: Facts, n: int):
        """The bounds of a value on the first pass with n players, the options at their defaults."""
        if isinstance(t, tuple) and t and t[0] == "Number":
            return (t[1], t[1])
        zone = self._count_zone(t)
        if zone is not None:
            return self._size(facts, zone, n) or (0, INF)
        if self._counts_something(t):
            return (0, INF)
        if isinstance(t, tuple) and len(t) == 2 and t[0] == "Name":
            sym = self.sym.table.get(t[1])
            if sym is not None and sym.kind == "option" and t[1] not in self.flow.assigned and _num(sym.decl.default):
                return (sym.decl.default, sym.decl.default)
            if sym is not None and sym.kind == "const":
                return (n, n)
        return self._named_bounds(t)

    def _count_zone(self, t):
        """The zone key of the key of `count(Z)` (None if it is not the count of a zone)."""
        if not (isinstance(t, tuple) and len(t) == 3 and t[0] == "Call" and t[1] == "count" and len(t[2]) == 1):
            return None
        z = t[2][0]
        if not isinstance(z, tuple):
            return None
        if len(z) == 2 and z[0] == "Name":
            sym = self.sym.table.get(z[1])
            return ("z", z[1]) if sym is not None and sym.kind == "zone" else None
        if len(z) == 3 and z[0] == "Call" and len(z[2]) == 1:
            sym = self.sym.table.get(z[1] + "()") or self.sym.table.get(z[1])
            return ("p", z[1], z[2][0]) if sym is not None and sym.kind == "pzone" else None
        return None

    @staticmethod
    def _counts_something(t) -> bool:
        return isinstance(t, tuple) and len(t) >= 2 and (t[:2] == ("Call", "count") or t[:2] == ("Aggregate", "count"))

    def _constant(self, t):
        """A value that is its own key (a number, a rank, a suit, true, false, none), else None."""
        if isinstance(t, tuple) and t:
            if t[0] == "Number":
                return ("n", t[1])
            if t[0] == "Bool":
                return ("b", t[1])
            if t[0] == "NoneLit":
                return ("none",)
            if t[0] == "Name" and len(t) == 2:
                sym = self.sym.table.get(t[1])
                if sym is not None and sym.kind in ("rank", "suit"):
                    return (sym.kind, t[1])
        return None

    def _consistent(self, values: dict, bounds) -> bool:
        """Whether comparisons with these truth values can hold together (pairs, bounds, equalities)."""
        rels: dict = {}
        numeric: list = []
        eq_pairs, ne_pairs = [], []
        for atom, v in values.items():
            kind = atom[0]
            if kind == "<":
                a, b = atom[1], atom[2]
                rel = LT if v else (GT | EQ)
            elif kind == "==":
                a, b = atom[1], atom[2]
                rel = EQ if v else (LT | GT)
                (eq_pairs if v else ne_pairs).append((a, b))
            elif kind == "assume" and v is False:
                a, b, rel = atom[1], atom[2], LT  # hi < lo
            else:
                continue
            if a == b:
                if not rel & EQ:
                    return False
                continue
            if repr(a) > repr(b):
                a, b = b, a
                rel = (rel & EQ) | (LT if rel & GT else 0) | (GT if rel & LT else 0)
            got = rels.get((a, b), LT | EQ | GT) & rel
            if not got:
                return False
            rels[(a, b)] = got
            if kind != "==" or v:
                numeric.append((a, b, got))
        # equal values: one class may hold at most one constant, and no `!=` inside it
        parent: dict = {}

        def find(x):
            while parent.get(x, x) != x:
                x = parent[x]
            return x

        for a, b in eq_pairs:
            parent[find(a)] = find(b)
        consts: dict = {}
        for x in list(parent) + [b for _, b in eq_pairs]:
            c = self._constant(x)
            if c is not None:
                r = find(x)
                if consts.setdefault(r, c) != c:
                    return False
        for a, b in ne_pairs:
            if find(a) == find(b):
                return False
        # bounds of numbers, tightened through the comparisons
        box: dict = {}

        def get(t):
            if t not in box:
                b = bounds(t)
                box[t] = [b[0], b[1]] if b is not None else [-INF, INF]
            return box[t]

        for _ in range(len(numeric) + 2):
            changed = False
            for a, b, rel in numeric:
                x, y = get(a), get(b)
                if rel == EQ:
                    lo, hi = max(x[0], y[0]), min(x[1], y[1])
                    if [lo, hi] != x or [lo, hi] != y:
                        x[:], y[:] = [lo, hi], [lo, hi]
                        changed = True
                    continue
                if rel & (EQ | GT) == 0 or rel == LT:  # a < b
                    step = 1
                elif rel == (LT | EQ):
                    step = 0
                elif rel == GT:
                    x, y, step = y, x, 1
                elif rel == (GT | EQ):
                    x, y, step = y, x, 0
                else:
                    continue
                if x[1] > y[1] - step:
                    x[1] = y[1] - step
                    changed = True
                if y[0] < x[0] + step:
                    y[0] = x[0] + step
                    changed = True
            if any(lo > hi for lo, hi in box.values()):
                return False
            if not changed:
                break
        for a, b in ne_pairs:
            x, y = get(a), get(b)
            if x[0] == x[1] == y[0] == y[1]:
                return False
        return True

    def _satisfiable(self, f, bounds, mode: str):
        """Some consistent truth values that make `f` true (a dict), False if there are none, None if
        there are too many atoms to tell."""
        known = {}
        for atom in _atoms(f, set()):
            if atom[0] == "nonempty":
                size = bounds(_count_key(atom[1]))
                known[atom] = not (size is not None and size[1] == 0)  # a zone chosen from holds a card
            elif atom[0] == "assume":
                hi, lo = bounds(atom[1]), bounds(atom[2])
                if hi is not None and lo is not None and hi[1] < lo[0]:
                    known[atom] = False
                elif hi is None or lo is None or lo[1] <= hi[0]:
                    known[atom] = True  # a range with bounds not known before play is not empty
        f = _subst_atoms(f, known)
        if f == FALSE:
            return False
        atoms = sorted(_atoms(f, set()), key=repr)
        if len(atoms) > MAX_ATOMS:
            return None
        for values in itertools.product((False, True), repeat=len(atoms)):
            assignment = dict(zip(atoms, values))
            if _eval(f, assignment) and self._consistent(assignment, bounds):
                return assignment
        return False

    def _proven(self, f, facts: Facts, n: int) -> bool:
        """Whether, on the first pass with n players, what is known makes `f` hold (for a deal that can happen)."""
        bounds = lambda t: self._term_at(t, facts, n)  # noqa: E731
        known, free = {}, []
        for atom in _atoms(f, set()):
            kind = atom[0]
            if kind == "nonempty":
                atom_value = self._decided(("<", ("Number", 0), _count_key(atom[1])), bounds)
            elif kind == "assume":
                atom_value = self._decided(("<", atom[1], atom[2]), bounds)
                atom_value = None if atom_value is None else not atom_value
            elif kind in ("<", "=="):
                atom_value = self._decided(atom, bounds)
            elif kind == "has":
                atom_value = self._dealt(atom, facts, n)
                if atom_value == "free":
                    free.append(atom)
                    continue
            else:
                atom_value = None
            if atom_value is not None:
                known[atom] = atom_value
        g = _subst_atoms(f, known)
        if g == TRUE:
            return True
        rest = _atoms(g, set())
        if len(rest) != 1 or not rest <= set(free):
            return False
        (atom,) = rest
        return any(_eval(g, {atom: v}) for v in (False, True))

    def _decided(self, atom, bounds) -> Optional[bool]:
        a, b = bounds(atom[1]), bounds(atom[2])
        ca, cb = self._constant(atom[1]), self._constant(atom[2])
        if atom[0] == "==" and ca is not None and cb is not None:
            return ca == cb
        if a is None or b is None:
            return None
        if atom[0] == "<":
            if a[1] < b[0]:
                return True
            if a[0] >= b[1]:
                return False
            return None
        if a[0] == a[1] == b[0] == b[1]:
            return True
        if a[1] < b[0] or b[1] < a[0]:
            return False
        return None

    def _dealt(self, atom, facts: Facts, n: int):
        """`Z has Y` for a zone of k cards dealt at random from the whole deck: True, False or "free"
        (either can happen); None if the zone's cards are not known so."""
        zone = self._count_zone(("Call", "count", (atom[1],)))
        if zone is None or zone not in facts.random:
            return None
        size = self._size(facts, zone, n)
        deck = self._deck_at(n)
        c = self._constant(atom[2])
        if size is None or size[0] != size[1] or deck is None or c is None or c[0] not in ("rank", "suit"):
            return None
        ranks, suits = deck
        matching = len(suits) if c[0] == "rank" else len(ranks)
        if c[1] not in (ranks if c[0] == "rank" else suits):
            matching = 0
        k, total = size[0], self.flow.deck_sizes[n]
        can_true = k >= 1 and matching >= 1
        can_false = total - matching >= k
        if can_true and can_false:
            return "free"
        return can_true

    def _deck_at(self, n: int):
        deck = self.sym.deck
        if deck is None:
            return None
        from ..runtime.cards import PRESETS
        for cond, spec in deck.choices:
            if cond is not None:
                v = self.flow._fold(cond, [{}], n)
                if not isinstance(v, bool):
                    return None
                if not v:
                    continue
            if spec.name is not None:
                return PRESETS.get(spec.name)
            return spec.ranks, spec.suits
        return None


def check_choices(checker) -> None:
    """Decides every `chooses` of the checker's module: E042 where it can be empty, W005 where the
    checker cannot tell."""
    NonEmpty(checker).run()
