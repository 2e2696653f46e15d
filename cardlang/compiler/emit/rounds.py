"""Whole rounds: in a whole-game run (`Program.playout`, the `rounds` switch of `options.Options`),
a round that begins is written as one function of plain Python statements, its choices drawn
where they stand, its phases written where they are played, so the round runs without going back
to the run loop.

A choice does not stop a playout, so in such a run every statement is one that cannot stop, as
`stmt.py` writes them, plus the four written here, one method per IR node: `s_Choose` (the draw,
then the chosen alternative's body), `s_CallPhase` (the phase's body in place: a phase never plays
itself, E023), `s_EndGame` and `s_EndRound` (a `return` of the round's function, out of any loop).
A round is started this way only from its beginning (`o_NextRound`); a run that starts inside a
round plays the rest of it through the whole-game version of the ops.

Written for a game played a decision at a time (`run.pick` None), the same round is a frame
(`frames.py`): a `chooses` yields, and what the ops keep in `state.v` and `state.stack` at a
decision is kept there too.
"""

from __future__ import annotations

from .. import ir
from ...runtime.engine import STOP
from . import frames, helpers
from .choose import counted_once, write_legal, write_pick
from .graph import straight
from ..ir_facts import MAX_WRITTEN_STATEMENTS, statements, written_size

# The most statements a round's function may hold once its phases are written in place: phases that
# each play the next one twice would double it at each level (the ops play such a round instead).
MAX_ROUND_STATEMENTS = MAX_WRITTEN_STATEMENTS
from .stmt import StmtEmitter


class RoundEmitter(StmtEmitter):
    """Writes the statements that stop a run, as a whole round plays them (see the module)."""

    def s_Choose(self, w, st: ir.Choose):
        if self.run.pick is None:  # a frame: the decision waited for here
            frames.write_yield(self, w, st)
            return
        points = self.graph.points_of_choice[st.index]
        once = counted_once(self, st.index)  # (in `taken`: `write_pick`)
        write_legal(self, w, st, once)

        def go(ai, body, value):
            alt = st.alternatives[ai]
            if not once:
                self.count(w, points[ai])
            with self.held(w, alt.slot, value, alt.body):
                self.block(w, alt.body)
        write_pick(self, w, st.index, go, rounds=False, once=once)

    def arguments(self, w, args, slots) -> None:
        """A phase's arguments into its parameters: every one worked out before any is set (an
        argument may read a parameter)."""
        values = []
        for arg in args:
            a = w.fresh("_a")
            w.line(f"{a} = {self.x(w, arg)}")
            values.append(a)
        for slot, a in zip(slots, values):
            w.line(f"{w.place(slot)} = {a}")

    def s_CallPhase(self, w, st: ir.CallPhase):
        self.arguments(w, st.args, st.phase.slots)
        if self.phase_steps:  # (a phase played spends a step, as `o_Call` does)
            self._spend(w, st.span)
        back = frames.pushes(self, st) if self.run.pick is None else None
        if back is not None:
            w.line(f"s.stack.append({back})")
        with w.fresh_frame():  # (the phase sees its parameters through their slots)
            self.block(w, st.phase.body)
        if back is not None:
            w.line("s.stack.pop()")

    def s_ForEach(self, w, st: ir.ForEach):
        if self.run.pick is None and not straight(st):
            frames.write_for_each(self, w, st)
        else:
            super().s_ForEach(w, st)

    def s_Repeat(self, w, st: ir.Repeat):
        if self.run.pick is None and not straight(st):
            frames.write_repeat(self, w, st)
        else:
            super().s_Repeat(w, st)

    def s_EndGame(self, w, st: ir.EndGame):
        winners = self.x(w, st.winners) if st.winners is not None else "()"
        w.line(f"s.winner_seats = tuple(sorted(set({winners})))")
        w.line("s.terminal = True")
        w.line("s._pending = None")
        w.line("if s.log is not None:")
        w.line(f"    {self.c(helpers.game_over)}(s)")
        w.line(f"return {STOP}")

    def s_EndRound(self, w, st: ir.EndRound):
        w.line("s.stack.clear()")
        w.line(f"return {self.graph.round_pc}")

    def whole_round(self, w) -> None:
        """The body of a round's function: its statements, then back to where rounds begin."""
        self.block(w, self.program.ir.round)
        w.line(f"return {self.graph.round_pc}")

    def writes_frames(self) -> bool:
        """Whether a game played a decision at a time plays its rounds in frames: the switch on, the
        statements the ops run fused (a loop that cannot stop keeps no place in a slot either way),
        no counting (its counts are the ops'), a `chooses` in the round to stop at, and the round
        written whole (`writes_whole_rounds`)."""
        return (self.options.frames and "fusion" in self.program.passes and not self.counting
                and any(isinstance(st, ir.Choose) for st in statements(self.program.ir.round))
                and self.writes_whole_rounds())

    def writes_whole_rounds(self) -> bool:
        """Whether every statement a round may play has its method here or in `stmt.py`, and the
        round written whole stays within `MAX_ROUND_STATEMENTS`."""
        return (all(hasattr(self, "s_" + type(st).__name__) for st in statements(self.program.ir.round))
                and written_size(self.program.ir.round) <= MAX_ROUND_STATEMENTS)
