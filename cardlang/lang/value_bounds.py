"""The least and most a number can be, read from the rules: an option's range, what a variable
starts as and is set to (`var n = 0` and only `add 1 to n`: never below 0), definitions with their
arguments, conditions that bound a parameter (`11 - k if k <= 10 else k - 10`: at least 1).
A mixin of `NonEmpty`."""

from __future__ import annotations

from . import ast, statements
from .choice_theory import _FLIP, INF, _num
from .zone_facts import _hull

MAX_DEPTH = 20  # definitions seen through, nested


class ValueBounds:
    """Bounds of variables and expressions (mixed into `NonEmpty`, which has `sym` and `flow`)."""

    def _assignments(self) -> dict:
        """Variable name -> the `set`s and `add`s of it, anywhere in the rules."""
        if self._writes is None:
            self._writes = {}

            def walk(stmts):
                for st in stmts:
                    if isinstance(st, (ast.Set, ast.Add)) and st.target.kind in ("name", "player"):
                        self._writes.setdefault(st.target.name, []).append(st)
                    for body in statements.child_blocks(st):
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
