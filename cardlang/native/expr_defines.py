"""The native emitter's calls of a `define`: written in place, or as a function of their own
shared by the calls whose bodies are the same but for their slots (`same_but_slots`).

A mixin of `native.expr.ExprEmitter` (it uses its `i`, `s`, `fx`, `store`, `tmp` and the emitter's
`function`, `kinds`): kept apart because the sharing of define bodies is a question of its own (IR
trees compared slot for slot), not the writing of one expression node.
"""

from __future__ import annotations

import attrs

from ..compiler import ir
from .kinds import INT
from .writer import ARGS


class DefineCalls:
    """Calls of a `define` (mixed into `native.expr.ExprEmitter`)."""

    def _define_args(self, w, e) -> None:
        for slot, arg in zip(e.slots, e.args):
            self.store(w, slot, arg)

    def i_DefineCall(self, w, e):
        fn = self.define_function(e)
        if fn is None:
            self._define_args(w, e)
            return self.i(w, e.body)
        first, name = fn
        values = [self.i(w, a) for a in e.args]  # (each worked out in turn; none reads another's slot)
        for slot, x in zip(first.slots, values):
            w.line(f"V[{slot}] = {x}")
        out = self.tmp(w, f"{self.called(name)}({ARGS})")
        w.stop_if_failed()
        return out

    def define_function(self, e):
        """(the call whose body the function was written from, the function's name) for a `define`
        used as a number whose parameters are numbers, else None (written in place). Its body is a
        function of its own, written once for all the calls whose bodies are the same but for their
        slots (`same_but_slots`): a call puts its arguments into the first call's slots and calls
        it (a body reads only its parameters, its own locals and the globals, and a define never
        calls itself), which keeps a rule that calls its helpers many times a small module."""
        if self.kinds.expr(e.body) != INT or any(self.kinds.expr(a) != INT for a in e.args) \
                or any(self.kinds.of(s) != INT for s in e.slots):
            return None
        for first, name in self.define_functions.get(e.name, ()):
            mapping = dict(zip(first.slots, e.slots))
            if len(first.slots) == len(e.slots) and len(mapping) == len(e.slots) \
                    and same_but_slots(first.body, e.body, mapping, self.kinds):
                return first, name
        name = f"define_{len(self.define_functions_all)}_{''.join(ch if ch.isalnum() else '_' for ch in e.name)[:30]}"
        self.define_functions.setdefault(e.name, []).append((e, name))
        self.define_functions_all.append(name)

        def write(w):
            w.line(f"return {self.i(w, e.body)}")
        self.function(name, write, value=True)
        return e, name

    def s_DefineCall(self, w, e):
        self._define_args(w, e)
        return self.s(w, e.body)

    def fx_DefineCall(self, w, e):
        self._define_args(w, e)
        self.fx(w, e.body)


SLOT_FIELDS = ("slot", "slots", "seq_slot")  # the fields of IR expressions that hold slots


def same_but_slots(a, b, mapping: dict, kinds) -> bool:
    """Whether IR trees `a` and `b` are the same but for the slots they use, each slot of `a`
    always standing for the same slot of `b` and of the same kind (`mapping` is filled)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same_but_slots(x, y, mapping, kinds) for x, y in zip(a, b))
    if not attrs.has(type(a)):
        return a == b
    for f in attrs.fields(type(a)):
        if f.name == "span":
            continue
        x, y = getattr(a, f.name), getattr(b, f.name)
        if f.name in SLOT_FIELDS and isinstance(a, ir.Expr):
            xs, ys = (x, y) if isinstance(x, tuple) else ((x,), (y,))
            if len(xs) != len(ys):
                return False
            for s, t in zip(xs, ys):
                if s is None or t is None:
                    if s is not t:
                        return False
                    continue
                if mapping.setdefault(s, t) != t or kinds.of(s) != kinds.of(t):
                    return False
            continue
        if not same_but_slots(x, y, mapping, kinds):
            return False
    # (one slot of `b` for each of `a`: two locals of `a` are never one of `b`)
    return len(set(mapping.values())) == len(mapping)
