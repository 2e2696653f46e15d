"""A `chooses`: the op that works out who chooses and each alternative's legal action ids, in
order, sets the pending decision and stops the run (as `ReferenceProgram.s_Choose` does).

A filter is tried with the alternative's variable held in a local (when pasting) or written to
its slot for each value; between the choice and the action nothing else reads that slot, as the
action sets it. A card filter split by passes/split.py tests its first terms once for all cards.
"""

from __future__ import annotations

from .. import ir
from ...runtime.engine import STOP
from . import helpers
from .facts import draws


def write_choose(em, w, op) -> None:
    """Writes the `Choose` op `op`."""
    node, index = op.node, op.index
    pc = em.graph.choices[index]
    with w.at(node.span):
        w.line(f"p = {em.x(w, node.player)}")
        alts = node.alternatives
        if all(a.kind == "option" and a.where is None for a in alts):  # always the same: one constant
            names = ["legal"]
            w.line(f"legal = {em.c(tuple(ai << 16 for ai in range(len(alts))))}")
        else:
            names = [w.fresh("_legal") for _ in alts]
            for ai, alt in enumerate(alts):
                _legal_of(em, w, alt, ai << 16, names[ai], node.span)
            w.line("legal = " + " + ".join(names))
        w.line("if not legal or p is None or not 0 <= p < len(s.active):")
        w.line(f"    {em.c(helpers.no_choice)}(p, legal, {em.c(node.span)})")
        if em.counting:
            offered = em.c(em.program.offered)
            for ai, k in enumerate(em.graph.points_of_choice[index]):
                if names == ["legal"]:
                    w.line(f"{offered}[{k}] += 1")
                else:
                    w.line(f"if {names[ai]}:")
                    w.line(f"    {offered}[{k}] += 1")
        w.line(f"s.pending = ({index}, p, legal)")
        w.line(f"s.pc = {pc}")
        w.line(f"return {STOP}")


def _legal_of(em, w, alt: ir.Alternative, base: int, out: str, span) -> None:
    """Lines setting `out` to the ids of one alternative's legal actions, in order, as a tuple."""
    if alt.kind == "option":
        if alt.where is None:
            w.line(f"{out} = {em.c((base,))}")
        else:
            w.line(f"{out} = {em.c((base,))} if ({em.x(w, alt.where)}) else ()")
        return
    each = (lambda x: x) if base == 0 else (lambda x: f"{base} | {x}")
    if alt.kind == "card":
        q = w.fresh("_q")
        w.line(f"{q} = {em.view(w, alt.source)}")
        every = f"tuple({q})" if base == 0 else f"{em.c(_with_base)}({base}, {q})"
        if alt.where is None:
            w.line(f"{out} = {every}")
            return
        split = em.graph.splits.get(id(alt))
        if split is not None:  # the first terms do not name the card: when one holds, every card is legal
            first, rest = split
            w.line(f"if not {q} or ({em.x(w, first)}):")
            w.line(f"    {out} = {every}")
            if rest is None:
                w.line("else:")
                w.line(f"    {out} = ()")
                return
            w.line("else:")
            with w.indent():
                _kept(em, w, alt, q, rest, out, each)
            return
        _kept(em, w, alt, q, alt.where, out, each)
        return
    lo, hi = w.fresh("_lo"), w.fresh("_hi")
    w.line(f"{lo}, {hi} = ({em.x(w, alt.source)}), ({em.x(w, alt.high)})")
    w.line(f"if {lo} < 0 or {hi} > 0xFFFF:")
    w.line(f"    {em.c(helpers.numbers_out_of_range)}({lo}, {hi}, {em.c(span)})")
    if alt.where is None or always(alt.where):
        w.line(f"{out} = tuple(range({base} + {lo}, {base} + {hi} + 1))")
        return
    _kept(em, w, alt, f"range({lo}, {hi} + 1)", alt.where, out, each)


def _kept(em, w, alt, values: str, test, out: str, each) -> None:
    """Lines keeping the values of `values` that pass `test`, as ids."""
    kept, x = w.fresh("_l"), w.fresh("_x")
    w.line(f"{kept} = []")
    w.line(f"for {x} in {values}:")
    with w.indent():
        if em.paste:
            context = w.holding(alt.slot, x)
        else:
            w.line(f"v[{alt.slot}] = {x}")
            context = w.holding(alt.slot, f"v[{alt.slot}]")
        with context:
            w.line(f"if {em.x(w, test)}:")
        w.line(f"    {kept}.append({each(x)})")
    w.line(f"{out} = tuple({kept})")


def _with_base(base, cards):
    return tuple([base | c for c in cards])


def always(e) -> bool:
    """Whether a filter is `true` whatever it is given (a define that allows everything), and
    working it out draws nothing."""
    if isinstance(e, ir.DefineCall):
        return always(e.body) and not any(draws(a) for a in e.args)
    return isinstance(e, ir.Const) and e.value is True
