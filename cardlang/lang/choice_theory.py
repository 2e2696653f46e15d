"""The decision behind E042 and W005: formulas over atoms (comparisons, card tests), whether
truth values of their atoms can hold together (the comparisons of one pair of values, bounds of
numbers, equal values), and whether what is known makes a formula hold. A mixin of `NonEmpty`."""

from __future__ import annotations

import functools
from typing import Optional

from .vocabulary import PRESETS

MAX_ATOMS = 40  # a choice with more independent conditions than this is not decided (W005)
MAX_NODES = 20_000  # nor one whose search for values closing every option takes longer than this
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


_FLIP = {"<": ">", ">": "<", "<=": ">=", ">=": "<="}
LT, EQ, GT = 1, 2, 4


def _units(f, out: dict, value: bool = True) -> None:
    """The atoms a formula needs true or false whatever the others are (the conjuncts that are an
    atom or the negation of one, through `not` and `or` as De Morgan has it); an atom needed both
    ways is left to the search, which finds that nothing makes `f` true."""
    kind = f[0]
    if kind == ("and" if value else "or"):
        _units(f[1], out, value)
        _units(f[2], out, value)
    elif kind == "not":
        _units(f[1], out, not value)
    elif kind == "atom":
        out[f[1]] = value if out.get(f[1], value) == value else None
    if value:  # (at the top: conflicts dropped)
        for a in [a for a, v in out.items() if v is None]:
            del out[a]


# a value's `repr`, which orders the two sides of a comparison: the satisfiability search compares
# the same values' reprs at every node (kept per process, bounded: a long-lived editor server
# checks many files)
_order = functools.lru_cache(maxsize=100_000)(repr)


class _TooLong(Exception):
    """`_satisfiable` gave up: too many truth values to try."""


class Theory:
    """Bounds of values, consistency of comparisons, and proofs (mixed into `NonEmpty`, which has
    `sym`, `flow`, `counts` and the zone facts)."""

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

    def _term_at(self, t, facts, n: int):
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
            family = z[1] in self.sym.zone_counts  # one pile of a numbered family, as zone_facts keeps it
            return ("p", z[1], z[2][0]) if sym is not None and (sym.kind == "pzone" or family) else None
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
            if _order(a) > _order(b):
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

        # each comparison as (x, y, step): x <= y - step, or step -1 for x == y (worked out once)
        pairs = []
        for a, b, rel in numeric:
            x, y = get(a), get(b)
            if rel == EQ:
                pairs.append((x, y, -1))
            elif rel & (EQ | GT) == 0 or rel == LT:  # a < b
                pairs.append((x, y, 1))
            elif rel == (LT | EQ):
                pairs.append((x, y, 0))
            elif rel == GT:
                pairs.append((y, x, 1))
            elif rel == (GT | EQ):
                pairs.append((y, x, 0))
        if any(lo > hi for lo, hi in box.values()):
            return False
        # bounds only tighten, so a range found empty stays empty: it is refused when it empties
        for _ in range(len(numeric) + 2):
            changed = False
            for x, y, step in pairs:
                if step < 0:
                    lo, hi = max(x[0], y[0]), min(x[1], y[1])
                    if x[0] != lo or x[1] != hi or y[0] != lo or y[1] != hi:
                        x[0] = y[0] = lo
                        x[1] = y[1] = hi
                        if lo > hi:
                            return False
                        changed = True
                    continue
                if x[1] > y[1] - step:
                    x[1] = y[1] - step
                    if x[0] > x[1]:
                        return False
                    changed = True
                if y[0] < x[0] + step:
                    y[0] = x[0] + step
                    if y[0] > y[1]:
                        return False
                    changed = True
            if not changed:
                break
        for a, b in ne_pairs:
            x, y = get(a), get(b)
            if x[0] == x[1] == y[0] == y[1]:
                return False
        return True

    def _satisfiable(self, f, bounds):
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
        # the search asks the bounds of the same few values at every node: each is worked out once
        bounds = functools.cache(bounds)  # (one search: the facts do not change meanwhile)
        atoms = sorted(_atoms(f, set()), key=repr)
        if len(atoms) > MAX_ATOMS:
            return None
        # the first assignment in the order of `itertools.product((False, True), …)` over the
        # sorted atoms that makes `f` true and is consistent, found depth first: a branch that
        # makes `f` false, or whose comparisons cannot hold together, is not followed
        budget = [MAX_NODES]
        try:
            found = self._search(f, atoms, 0, {}, bounds, budget)
        except _TooLong:
            return None
        return False if found is None else found

    def _search(self, f, atoms: list, i: int, assignment: dict, bounds, budget: list):
        """`_satisfiable`'s search below the first `i` atoms (their values in `assignment`, which it
        does not change). An atom `f` needs true or false (a conjunct of it) takes that value at
        once: every assignment that makes `f` true has it, so the first found is the same."""
        assignment = dict(assignment)
        while True:
            if f == FALSE:
                return None
            forced = {}
            _units(f, forced)
            if not forced:
                break
            if any(assignment.get(a, v) != v for a, v in forced.items()):
                return None
            assignment.update(forced)
            if not self._consistent(assignment, bounds):
                return None
            f = _subst_atoms(f, forced)
        while i < len(atoms) and atoms[i] in assignment:
            i += 1
        if i == len(atoms):
            return assignment if _eval(f, assignment) else None
        budget[0] -= 1
        if budget[0] < 0:
            raise _TooLong
        atom = atoms[i]
        for v in (False, True):
            assignment[atom] = v
            if self._consistent(assignment, bounds):
                found = self._search(_subst_atoms(f, {atom: v}), atoms, i + 1, assignment, bounds, budget)
                if found is not None:
                    return found
        return None

    def _proven(self, f, facts, n: int) -> bool:
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

    def _dealt(self, atom, facts, n: int):
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
