"""The formulas of E042/W005 (`nonempty.py`): when an alternative of a choice offers an action.

An alternative is open under a condition written as a formula over atoms (comparisons, card tests,
"some card of Z passes t"); `nonempty.NonEmpty` walks the blocks and decides the formulas these
methods write. Kept apart so that each module stays one reading: the walk there, the formulas here.
"""

from __future__ import annotations

from typing import Optional

import attrs

from . import ast
from .choice_theory import _FLIP, FALSE, TRUE, _and, _count_key, _not, _num, _or
from .flow import _key, _mentions, _subst
from .pile_facts import listed_numbers, pile_open

MAX_DEPTH = 20  # definitions seen through, nested
MAX_WRITTEN = 16  # numbers of a list written out one by one (`any k in piles of column where …`)


def _or_all(fs):
    out = FALSE
    for f in fs:
        out = _or(out, f)
    return out


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


class OpenFormulas:
    """The formulas of the alternatives (a mixin of `nonempty.NonEmpty`, whose state it reads)."""

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
        if alt.kind == "value":
            return self._value_open(alt, scopes)
        if alt.kind == "set":  # one card or more: open when the source holds a card; else not known
            some = self._card_open(attrs.evolve(alt, where=None), None, scopes)
            if alt.where is None and alt.sizes[0] == 1:
                return some
            laid = self._beats_what(alt)
            if laid is not None:  # `beats(cs, Z)`: any single card beats an empty Z (a lead)
                span = alt.where.span
                empty = _not(self._prop(ast.Binary(span, ">", ast.Call(span, "count", (laid,), span),
                                                   ast.Number(span, 0)), scopes, 0))
                return _and(some, _or(empty, self._fresh()))
            return _and(some, self._fresh())
        if alt.second is not None and alt.where is not None:  # `… and a rank r where …`: some r fits
            base = self._open(attrs.evolve(alt, where=None, second=None), scopes)
            if _mentions(alt.where, alt.var):
                return _and(base, self._fresh())
            return _and(base, self._value_exists(alt.where, alt.second.var, scopes, 0, alt.second.vtype))
        piles = pile_open(self, alt, scopes, lambda where: self._card_open(alt, where, scopes))
        return piles if piles is not None else self._card_open(alt, alt.where, scopes)

    def _beats_what(self, alt: ast.Alternative):
        """Z when a set of one card or more is chosen `where beats(cs, Z)` (the language's `beats`,
        a game whose `combinations` has `single`): then any one card is open while Z is empty."""
        w, sym = alt.where, self.sym
        if not (isinstance(w, ast.Call) and w.func == "beats" and len(w.args) == 2 and alt.sizes[0] == 1
                and isinstance(w.args[0], ast.Name) and w.args[0].name == alt.var and sym.table.get("beats") is None
                and "single" in sym.combination_kinds):
            return None
        return w.args[1]

    def _value_open(self, alt: ast.Alternative, scopes):
        """When a choice of a value (a rank, a suit, a declared value, a number of a list) offers one:
        every value of its type is offered without `from` (a type has one at least); `Z has r` holds
        for some rank when Z holds a card; what else the filter says is not known (a fresh atom)."""
        numbers = self._listed_numbers(alt.source)
        if numbers and alt.where is not None:  # `a number k from piles of column where …`: each written out
            return self._each_number(alt.where, alt.var, numbers, scopes, 0)
        listed = isinstance(alt.source, ast.ListExpr) and alt.source.items
        f = TRUE if alt.source is None or listed or numbers else self._fresh()
        if alt.where is None:
            return f
        named = self.c.sym.named_values.get(alt.vtype)
        if named is not None and listed:  # some declared values written out: `a kind k from [grand, null]`
            names = [x for x, _ in named.items]
            domain = [names.index(i.name) for i in alt.source.items if isinstance(i, ast.Name) and i.name in names]
            if len(domain) == len(alt.source.items):
                return _and(f, self._value_exists(alt.where, alt.var, scopes, 0, alt.vtype, domain))
        return _and(f, self._value_exists(alt.where, alt.var, scopes, 0, alt.vtype if alt.source is None else None))

    def _listed_numbers(self, source) -> Optional[tuple]:
        """The numbers of a list the rules write out (`[1, 2, 3]`, `piles of column`, `1..4`), or None."""
        return listed_numbers(self.c.sym.zone_counts, source, MAX_WRITTEN) or None

    def _each_number(self, where, var: str, numbers: tuple, scopes, depth: int):
        """Some number of `numbers` meets `where` (about `var`), as a formula: one test per number."""
        return _or_all(self._prop(_subst(where, {var: ast.Number(where.span, k)}), scopes, depth + 1)
                       for k in numbers)

    def _value_exists(self, e, var: str, scopes, depth: int, every=None, domain=None):
        """Whether some value meets `e` (about the value `var`), as a formula; `every`: the type of a
        choice offering every value of its type (a rank, a suit, a declared value), else None;
        `domain`: the places of the declared values it offers when a list names some of them."""
        if depth > MAX_DEPTH:
            return self._fresh()
        if not _mentions(e, var):
            return self._prop(e, scopes, depth)
        if isinstance(e, ast.Binary) and e.op == "or":
            return _or(self._value_exists(e.left, var, scopes, depth + 1, every, domain),
                       self._value_exists(e.right, var, scopes, depth + 1, every, domain))
        if isinstance(e, ast.Binary) and e.op == "and":
            if not _mentions(e.left, var):
                return _and(self._prop(e.left, scopes, depth + 1),
                            self._value_exists(e.right, var, scopes, depth + 1, every, domain))
            if not _mentions(e.right, var):
                return _and(self._value_exists(e.left, var, scopes, depth + 1, every, domain),
                            self._prop(e.right, scopes, depth + 1))
        me = ast.Name
        if (every in ("rank", "suit") and isinstance(e, ast.Binary) and e.op == "has"
                and isinstance(e.right, me) and e.right.name == var and not _mentions(e.left, var)):
            zone = self._card_source(e.left, scopes)[0]  # Z has some rank (suit) when it holds a card
            if zone is not None:
                return self._nonempty(e.left, scopes)
        if every in ("rank", "suit") and isinstance(e, ast.Binary) and e.op == "!=" and self._other_than(e, var):
            # "a suit other than that one" (a trump other than the turned card's): every deck the game
            # may use has two suits (ranks) at least, so one of them is not the value named
            sizes = [len(plan.suits if every == "suit" else plan.all_ranks) for plan in self.c.decks]
            if sizes and min(sizes) >= 2:
                return TRUE
        named = self.c.sym.named_values.get(every) if every else None
        if named is not None and isinstance(e, ast.Binary) and e.op in ("==", "!=", "<", ">", "<=", ">="):
            left, right, op = e.left, e.right, e.op
            if isinstance(right, me) and right.name == var:
                left, right, op = right, left, _FLIP.get(op, op)
            if isinstance(left, me) and left.name == var and isinstance(right, me):
                sym = self.c.sym.table.get(right.name)
                if sym is not None and sym.kind == "value" and sym.decl is named:
                    k, n = [x for x, _ in named.items].index(right.name), len(named.items)
                    return ("const", any({"==": j == k, "!=": j != k, "<": j < k, ">": j > k, "<=": j <= k,
                                          ">=": j >= k}[op] for j in (range(n) if domain is None else domain)))
        return self._fresh()

    @staticmethod
    def _other_than(e: ast.Binary, var: str) -> bool:
        """Whether `e` compares the chosen value `var` itself with something that does not read it."""
        for me, other in ((e.left, e.right), (e.right, e.left)):
            if isinstance(me, ast.Name) and me.name == var and not _mentions(other, var):
                return True
        return False

    def _card_open(self, alt: ast.Alternative, where, scopes):
        """When a card alternative with the filter `where` offers a card, as a formula."""
        zone, where = self._card_filter(alt.source, alt.var, where, scopes)
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
            numbers = self._listed_numbers(e.source)
            if numbers:
                return self._each_number(e.where, e.var, numbers, scopes, depth)
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
