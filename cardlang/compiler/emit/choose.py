"""A `chooses`: the op that works out who chooses and each alternative's legal action ids, in
order, sets the pending decision and stops the run (as `ReferenceProgram.s_Choose` does).

A filter is tried with the alternative's variable held in a local (when pasting) or written to
its slot for each value; between the choice and the action nothing else reads that slot, as the
action sets it. A card filter split by passes/split.py tests its first terms once for all cards.
"""

from __future__ import annotations

from contextlib import ExitStack

import attrs

from .. import ir
from ...runtime.actions import MAX_VALUE, VALUE_BITS, VALUE_MASK, action_id, new_pending
from ...runtime import card_sets
from ...runtime.basics import values_to_choose
from ...runtime.engine import STOP
from ...runtime.playout import BITS, untold
from . import helpers
from ..ir_facts import draws, walk
from .graph import Count


def write_choose(em, w, op, way=frozenset(), start=0) -> None:
    """Writes the `Choose` op `op` (in a whole-game run, `em.run.pick`: the draw and the chosen body)."""
    index = op.index
    pc = em.graph.choices[index]
    with w.at(op.node.span):
        once = em.run.pick is not None and counted_once(em, index)
        write_legal(em, w, op.node, once)
        if em.run.pick is not None:
            def go(ai, body, value):
                with w.fresh_frame():  # (counted once: the body's count of its rule point is skipped)
                    em.goto(w, em.graph.ops[body].next if once else body, way | {pc}, start)
            write_pick(em, w, index, go, once=once)
            return
        w.line(f"s._pending = ({index}, p, legal)")  # (a `Pending` when read: see `State.pending`)
        w.line(f"s.pc = {pc}")
        w.line(f"return {STOP}")


def counted_once(em, index: int) -> bool:
    """Whether a whole-game run counts a decision of choice `index` once, in `taken` (see
    `write_pick`): a counting program's choice of one alternative whose body begins with the count
    of its rule point (as `graph.Builder.b_Choose` lays it out; the op that `write_choose` then
    skips, and that a whole round does not write)."""
    points = em.graph.points_of_choice[index]
    if not em.counting or len(points) != 1:
        return False
    (_, body), = em.graph.resumes[index]
    op = em.graph.ops[body]
    return isinstance(op, Count) and op.k == points[0]


def write_legal(em, w, node: ir.Choose, once: bool = False) -> None:
    """Lines setting `p` (who chooses) and `legal` (the ids, in order), checked, and counted as
    offered when the program counts (unless `once`: the whole-game run counts the decision itself,
    `write_pick`)."""
    index = node.index
    w.line(f"p = {em.x(w, node.player)}")
    alts = node.alternatives
    if all(a.kind == "option" and a.where is None for a in alts):  # always the same: one constant
        names = ["legal"]
        w.line(f"legal = {em.c(tuple(action_id(ai) for ai in range(len(alts))))}")
    else:
        names = [w.fresh("_legal") for _ in alts] if len(alts) > 1 else ["legal"]
        raw = em.run.pick is not None and len(alts) == 1  # (drawn from at once: any sequence will do)
        for ai, alt in enumerate(alts):
            _legal_of(em, w, alt, action_id(ai), names[ai], node.span, raw)
        if len(alts) > 1:
            w.line("legal = " + " + ".join(names))
    # (a state has a seat for each player, always: `len(s.active)` is the program's count; a loop
    # over seats holds one: `ir_facts.seat_slots`)
    if isinstance(node.player, ir.Slot) and node.player.slot in em.program.seat_slots:
        w.line("if not legal:")
    else:
        w.line(f"if not legal or p is None or not 0 <= p < {em.program.n}:")
    w.line(f"    {em.c(helpers.no_choice)}(p, legal, {em.c(node.span)})")
    if em.counting and not once:
        offered = em.c(em.program.offered, 'offered')
        for ai, k in enumerate(em.graph.points_of_choice[index]):
            if names == ["legal"]:
                w.add_one(offered, k)
            else:
                w.line(f"if {names[ai]}:")
                w.add_one(offered, k, "    ")


# ------------------------------------------------------------------ whole-game runs
# A whole-game run (`Program.playout`, the `playout` switch: `options.Options`) is compiled with the draw of a playout
# in place of the stop at each choice: the function takes `(s, P, stop, T, on)`, P being what the
# playout draws from (`em.run.pick`: "seat", a list of each seat's `getrandbits`; "random", one
# generator's `random`; "script", `choose(seat, count)`), `stop` the round it stops at, and with
# `em.run.tally`, T and `on` the tally and `on_decision` of `runtime.playout.seat_playout`.
def write_pick(em, w, index: int, go, entry: bool = False, rounds: bool = True, once: bool = False) -> None:
    """After a choice's `p` and `legal`: stop (the round reached, unless not `rounds`; the decisions
    spent), else draw the action as the playout would, play it as `resume` does, and go on with
    its alternative: `go(ai, body pc, local)` writes what follows, the alternative's variable set
    (in its slot, and in `local`).

    `once` (a counting program's choice of one alternative, `write_legal` not having counted it
    offered, `go` not counting its rule point k): a stop counts it offered, `offered[k]`; a
    decision, offered and taken at once, adds one to `taken[k]` alone, which coverage adds to both
    (one count a decision instead of two: `play/coverage.py`)."""
    pc = em.graph.choices[index]
    reached = "s.round >= stop or " if rounds else ""
    w.line(f"if {reached}len(_H) >= {em.program.max_decisions}:")
    if once:
        w.add_one(em.c(em.program.offered, 'offered'), em.graph.points_of_choice[index][0], "    ")
    w.line(f"    s._pending = ({index}, p, tuple(legal))")  # (a `Pending` when read)
    w.line(f"    s.pc = {pc}")
    w.line(f"    return {STOP}")
    if em.run.pick == "seat":  # what `randrange(count)` draws: k bits until one is below count
        w.line("_n = len(legal)")
        w.line("_g = P[p]")
        w.line(f"_k = {em.c(BITS)}[_n] if _n < {len(BITS)} else _n.bit_length()")
        w.line("_i = _g(_k)")
        w.line("while _i >= _n:")
        w.line("    _i = _g(_k)")
        w.line("a = legal[_i]")
    elif em.run.pick == "random":
        w.line("a = legal[int(P() * len(legal))]")
    else:
        w.line("_i = P(p, len(legal))")
        w.line("if not 0 <= _i < len(legal):")
        w.line(f"    {em.c(helpers.bad_pick)}(s, {em.c(new_pending)}(({index}, p, tuple(legal))), {pc}, _i)")
        w.line("a = legal[_i]")
    if em.run.tally is not None:
        write_told(em, w, index)
    if once:
        w.add_one(em.c(em.program.taken, 'taken'), em.graph.points_of_choice[index][0])
    if entry:
        w.line("s._pending = None")  # (as `resume` leaves it while the run goes on)
    w.line("_H.append(a)")
    w.line("s.steps = _B")  # (each decision starts a new budget, as a run does: see `Emitter._unit`)
    resumes = em.graph.resumes[index]
    if len(resumes) > 1:
        w.line(f"_alt = a >> {VALUE_BITS}")
    for ai, (slot, body) in enumerate(resumes):
        if len(resumes) > 1:
            w.line("else:" if ai == len(resumes) - 1 else f"if _alt == {ai}:" if ai == 0 else f"elif _alt == {ai}:")
        with w.indent(1 if len(resumes) > 1 else 0):
            value = None
            if slot is not None:
                value = w.local_for(slot, "_v")
                w.line(f"{w.place(slot)} = {value} = a & {VALUE_MASK}" if ai else f"{w.place(slot)} = {value} = a")
            go(ai, body, value)


def write_told(em, w, index: int) -> None:
    """The decision `a` told as `em.run.tally` says: "on", to `on(s, a)`, the decision pending while it
    is told; "tally", an action T's dict of the choice holds (T[index], keyed by the action) adds
    one there, any other is told to `on` first (which may put it there). A choice whose
    alternatives are all pure has only actions the tally can hold, and `on` puts each there the
    first time: the count is tried at once (an exception only the first time an action is seen);
    an action of an alternative that is not pure is told every time; a decision of a choice the
    tally leaves `untold` (`runtime.playout.untold`), not at all."""
    choice = em.program.chooses[index]
    if em.run.tally == "tally" and untold(choice):  # (neither counted nor told: what is left over)
        return
    alts = choice.alts
    tell = [f"s._pending = ({index}, p, tuple(legal))", "on(s, a)", "s._pending = None"]
    if em.run.tally == "tally" and all(alt.pure for alt in alts):
        w.line(f"_T = T[{index}]")
        w.line("try:")
        w.line("    _T[a] += 1")
        w.line("except KeyError:")
    elif em.run.tally == "tally" and any(alt.pure for alt in alts):
        w.line(f"if (_t := (_T := T[{index}]).get(a)) is not None:")
        w.line("    _T[a] = _t + 1")
        w.line("else:")
    else:
        w.lines_of(tell)
        return
    with w.indent():
        w.lines_of(tell)


def write_entry(em, w, index: int) -> None:
    """The start of a whole-game run at a pending decision of choice `index`: its draw, then on."""
    w.line("_, p, legal = s._pending")
    pc = em.graph.choices[index]
    def go(ai, body, value):
        with w.fresh_frame():
            em.goto(w, body, frozenset({pc}), 0)
    with w.at(em.program.chooses[index].span):
        write_pick(em, w, index, go, entry=True)


def _legal_of(em, w, alt: ir.Alternative, base: int, out: str, span, raw: bool = False) -> None:
    """Lines setting `out` to the ids of one alternative's legal actions, in order, as a tuple
    (`raw`: any sequence, unchanged until it is drawn from: the zone's list, a list, a range)."""
    if alt.kind == "option":
        if alt.where is None:
            w.line(f"{out} = {em.c((base,))}")
        else:
            w.line(f"{out} = {em.c((base,))} if ({em.x(w, alt.where)}) else ()")
        return
    each = (lambda x: x) if base == 0 else (lambda x: f"{base} | {x}")
    if alt.kind == "player":  # the seats, each once, in the order given
        q = w.fresh("_q")
        w.line(f"{q} = tuple(dict.fromkeys({em.x(w, alt.source)}))")
        if alt.where is None:
            w.line(f"{out} = {q}" if base == 0 else f"{out} = {em.c(_with_base)}({base}, {q})")
            return
        _kept(em, w, alt, q, alt.where, out, each)
        return
    if alt.kind == "value":  # a rank, a suit, a declared value, a number of a list: each once, checked
        q = w.fresh("_q")
        w.line(f"{q} = {em.c(values_to_choose)}({em.x(w, alt.source)}, {em.c(span)})")
        if alt.where is None:
            w.line(f"{out} = {q}" if base == 0 else f"{out} = {em.c(_with_base)}({base}, {q})")
            return
        _kept(em, w, alt, q, alt.where, out, each, raw)
        return
    if alt.kind == "set":  # each set of the sizes, lazily (runtime/card_sets.py); the filter reads its cards
        cards_slot, source_slot, low = alt.card_set
        q, x, cs, kept = w.fresh("_q"), w.fresh("_x"), w.fresh("_cs"), w.fresh("_l")
        w.line(f"{q} = v[{source_slot}] = {em.c(card_sets.checked)}({em.x(w, alt.source)}, {em.c(span)})")
        w.line(f"{kept} = []")
        w.line(f"for {x}, {cs} in {em.c(card_sets.sets)}({q}, {low}, {alt.high.value}):")
        with w.indent():
            w.line(f"v[{cards_slot}] = {cs}")
            if alt.where is None:
                w.line(f"{kept}.append({each(x)})")
            else:
                with w.holding(cards_slot, cs):
                    w.line(f"if {em.x(w, alt.where)}:")
                w.line(f"    {kept}.append({each(x)})")
        w.line(f"{out} = {kept}" if raw else f"{out} = tuple({kept})")
        return
    if alt.kind == "card":
        q = w.fresh("_q")
        w.line(f"{q} = {em.view(w, alt.source)}")
        every = (q if raw else f"tuple({q})") if base == 0 else f"{em.c(_with_base)}({base}, {q})"
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
                _kept(em, w, alt, q, rest, out, each, raw)
            return
        _kept(em, w, alt, q, alt.where, out, each, raw)
        return
    lo, hi = w.fresh("_lo"), w.fresh("_hi")
    w.line(f"{lo}, {hi} = ({em.x(w, alt.source)}), ({em.x(w, alt.high)})")
    w.line(f"if {lo} < 0 or {hi} > {MAX_VALUE}:")
    w.line(f"    {em.c(helpers.numbers_out_of_range)}({lo}, {hi}, {em.c(span)})")
    if alt.where is None or always(alt.where):
        w.line(f"{out} = {'' if raw else 'tuple'}(range({base} + {lo}, {base} + {hi} + 1))")
        return
    _kept(em, w, alt, f"range({lo}, {hi} + 1)", alt.where, out, each, raw)


def _kept(em, w, alt, values: str, test, out: str, each, raw: bool = False) -> None:
    """Lines keeping the values of `values` that pass `test`, as ids (pasting: each slot the test
    reads and nothing in it binds, read once before the loop, into a local)."""
    kept, x = w.fresh("_l"), w.local_for(alt.slot)
    w.line(f"{kept} = []")
    with ExitStack() as held:
        if em.options.paste:
            for slot in _steady_reads(w, test, alt.slot):
                local = w.fresh("_h")
                w.line(f"{local} = {w.read(slot)}")
                held.enter_context(w.holding(slot, local))
        w.line(f"for {x} in {values}:")
        with w.indent():
            with w.bound(alt.slot, x, em.options.paste):
                w.line(f"if {em.x(w, test)}:")
            w.line(f"    {kept}.append({each(x)})")
    w.line(f"{out} = {kept}" if raw else f"{out} = tuple({kept})")


def _steady_reads(w, test, own: int) -> list:
    """The slots `test` reads as they stand (an `ir.Slot`), in order, that no node in it binds or
    sets (an aggregate's, a define's parameters: any field naming a slot) and no local holds yet:
    the same at each pass of a filter's loop, as an expression writes no other slot."""
    nodes = list(walk(test))
    bound = {own}
    for n in nodes:
        if isinstance(n, ir.Slot):
            continue
        for f in attrs.fields(type(n)):
            value = getattr(n, f.name)
            if "slot" in f.name:
                bound.update(x for x in (value if isinstance(value, tuple) else (value,)) if type(x) is int)
    out = []
    for n in nodes:
        if isinstance(n, ir.Slot) and n.slot not in bound and n.slot not in out and w.frame.slots.get(n.slot) is None:
            out.append(n.slot)
    return out


def _with_base(base, cards):
    return tuple([base | c for c in cards])


def always(e) -> bool:
    """Whether a filter is `true` whatever it is given (a define that allows everything), and
    working it out draws nothing."""
    if isinstance(e, ir.DefineCall):
        return always(e.body) and not any(draws(a) for a in e.args)
    return isinstance(e, ir.Const) and e.value is True
