"""Round frames (the `frames` switch of `options.Options`): a game played a decision at a time
(`State.apply`) plays each round it begins in one Python generator, the round written as a
whole-game run writes it (`rounds.py`: its loops Python loops, its phases written where they are
played), except that a `chooses` stops the generator with `yield` instead of drawing. The next
`apply` sends the action in, and the round goes on from there with every local still live: a
decision costs no call of a generated function, no reload of its loops' places.

The frame is the fast path, never the only one. At each `yield` the state is exactly what the ops
leave at that decision (`s._pending`, `s.pc`, the loops' places and counts and the phases' return
stack, written below as the ops write them), so a copy (`clone`, views, determinized worlds,
replays), which never takes the generator, goes on through the ops (`Program.resume_entries`,
`code`) until its next round begins its own frame. A round is started this way only from its
beginning (`o_NextRound` goes to the pc after the last op, `Program.code`'s frame starter).
"""

from __future__ import annotations

from .. import ir
from ...runtime.actions import VALUE_BITS, VALUE_MASK
from .choose import write_legal


def write_yield(em, w, st: ir.Choose) -> None:
    """A `chooses` in a frame: who chooses and the legal ids (as its op works them out), the decision
    left pending as the op leaves it, `yield`; the action sent back sets the alternative's variable
    (as `resume` does) and the alternative's body goes on here."""
    index = st.index
    write_legal(em, w, st)
    w.line(f"s._pending = ({index}, p, legal)")  # (a `Pending` when read: see `State.pending`)
    w.line(f"s.pc = {em.graph.choices[index]}")
    w.line("a = yield")
    resumes = em.graph.resumes[index]
    if len(resumes) > 1:
        w.line(f"_alt = a >> {VALUE_BITS}")
    for ai, (slot, _) in enumerate(resumes):
        alt = st.alternatives[ai]
        if len(resumes) > 1:
            w.line("else:" if ai == len(resumes) - 1 else f"if _alt == {ai}:" if ai == 0 else f"elif _alt == {ai}:")
        with w.indent(1 if len(resumes) > 1 else 0):
            value = None
            if slot is not None:  # (alternative 0's ids are their values: no mask)
                value = w.local_for(slot, "_v")
                w.line(f"{w.place(slot)} = {value} = a & {VALUE_MASK}" if ai else f"{w.place(slot)} = {value} = a")
            with em.held(w, alt.slot, value, alt.body):
                em.block(w, alt.body)


def write_for_each(em, w, st: ir.ForEach) -> None:
    """A `for each` with a decision inside: its items and its place in them kept in their slots at
    each item, as `ForStart` and `ForNext` keep them (the ops go on from there in a copy)."""
    seq, x, i = w.fresh("_q"), w.local_for(st.slot), w.fresh("_i")
    at = em.graph.loop_slots[id(st)]
    w.line(f"{w.place(st.seq_slot)} = {seq} = {em.items(w, st.seq)}")
    em._spend(w, st.span, f"len({seq})")  # a step an item, all at once (as `ForStart`)
    w.line(f"{w.place(at)} = 0")
    w.line(f"for {i}, {x} in enumerate({seq}, 1):")
    with w.indent():
        w.line(f"{w.place(st.slot)} = {x}")
        em.skip_unless_where(w, st, x)
        w.line(f"{w.place(at)} = {i}")
        with em.held(w, st.slot, x, st.body):
            em.block(w, st.body)


def write_repeat(em, w, st: ir.Repeat) -> None:
    """A `repeat` with a decision inside: its passes left in its slot, as `RepeatStart` and
    `RepeatNext` keep them."""
    em.repeat_in(w, st, w.place(em.graph.loop_slots[id(st)]))


def pushes(em, st: ir.CallPhase):
    """The return point a phase played from several places keeps on `s.stack` while it plays (as
    its `Call` op pushes it and its `Return` pops it), or None."""
    call = em.graph.call_ops[id(st)]
    return call.next if call.push else None
