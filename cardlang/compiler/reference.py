"""The reference interpreter: what a game does, written plainly over the IR (`compiler.ir`).

It is the definition the compiled engine is checked against (tests/test_differential.py), not a
fast path: one method per statement here, one per expression in `reference_expr`. It runs over
the same state layout as the compiled engine and shares its runtime (zones, knowledge, the log).

Where the game stands is the state's `stack` of frames, each a tuple, so that a state stops at a
decision and is cloned as plain data: ("body", statements, index of the next), ("for", loop,
index of the next item; the items in the loop's slot), ("repeat", loop, passes left), ("while",
loop), and at the bottom ("round",), which starts the next round whenever it is reached.
"""

from __future__ import annotations

from ..runtime.actions import MAX_VALUE, Pending, action_id, alt_of, value_of
from ..runtime import budget, engine, pots, view
from ..runtime.at_once import conceal
from ..runtime.basics import values_to_choose
from ..runtime.engine import STOP, RuleError
from ..runtime.log import flush, flush_up_to_error
from ..runtime.program import ProgramBase, loops_forever, round_begins, round_locals
from ..runtime import among, card_sets, effects, facts, steps
from ..runtime import groups as zone_groups
from ..runtime.zones import known_only_by, learn, move_cards
from . import ir
from .ir_facts import phases_spend_steps, reads_knowledge  # (walks over the IR, shared with the emitter)
from .layout import Layout
from .lowered import LoweredGame
from .payoff import payoff_rule
from .reference_expr import Evaluator

_RUNTIME_ERRORS = (ArithmeticError, IndexError, TypeError, ValueError)  # a rule applied to what it cannot take


class _Alt:
    """One alternative of a choice as `ProgramBase` reads it: kind, slot, label, pure."""

    __slots__ = ("kind", "slot", "label", "pure", "card_set")

    def __init__(self, kind, slot, label, pure, card_set=None):
        self.kind, self.slot, self.label, self.pure = kind, slot, label, pure
        self.card_set = card_set  # a set of cards: (its cards' slot, its source's slot, fewest cards)


class _Choice:
    """A choice's alternatives, as `ProgramBase` and the bots read them."""

    __slots__ = ("alts",)

    def __init__(self, alts):
        self.alts = alts


_LOOP_FRAMES = ("for", "repeat", "while")  # the frames a loop keeps on the stack while it runs


class ReferenceProgram(ProgramBase):
    """A game run by the reference interpreter, with the protocol of the compiled `Program`."""

    def __init__(self, layout: Layout, program: ir.Program):
        self._init_layout(layout)
        self.ir = program
        self.x = Evaluator(layout, self)
        self.nslots = program.nslots
        self.card_slots, self.cards_slots = program.card_slots, program.cards_slots
        self.group_slot = program.group_slot  # (runtime/groups.py: what a redeal keeps by place)
        self.round_locals = round_locals(self)
        self.var_inits = [(slot, per_player, self._closure(e)) for slot, per_player, e in program.var_inits]
        self.score = None if program.score is None else (program.score[0], self._closure(program.score[1]))
        self.payoff = payoff_rule(program.payoff, self.x.eval)
        self.chooses = [_Choice([_Alt(a.kind, a.slot, self._text_closure(a.label), a.pure, a.card_set)
                                 for a in c.alternatives]) for c in program.choices]
        self.rule_points = []  # (rule coverage counts only the compiled engine)
        self.at_once = {a.choice: a for a in program.at_once}
        self.reads_knowledge = reads_knowledge(program)
        self.phase_steps = phases_spend_steps(program)  # whether a phase played spends a step

    def _closure(self, e):
        return lambda st: self.x.eval(st, e)

    def _text_closure(self, t):
        return None if t is None else (lambda st: self.x.render(st, t))

    # ------------------------------------------------------------------ running
    def _start(self, st) -> None:
        st.pc = 0
        st.stack = [("round",)]
        if self.ir.setup:
            st.stack.append(("body", self.ir.setup, 0))

    def run(self, st) -> None:
        """Runs the state from where its stack stands to the next decision or the end."""
        st.steps = engine.STEP_BUDGET
        stack = st.stack
        while True:
            frame = stack[-1]
            node = frame[1] if len(frame) > 1 else None
            try:
                if frame[0] == "body":
                    body, i = node, frame[2]
                    if i == len(body):
                        stack.pop()
                        continue
                    stack[-1] = ("body", body, i + 1)
                    node = body[i]
                    if self.execute(st, node) is STOP:
                        break
                else:
                    getattr(self, "f_" + frame[0])(st, frame)
            except RuleError as e:
                flush_up_to_error(st)
                at = node.span if node is not None else self.ir.round_span
                raise e.located(at).in_game(st.seed, len(st.history))
            except _RUNTIME_ERRORS as e:
                flush_up_to_error(st)
                at = node.span if node is not None else self.ir.round_span
                raise RuleError(str(e), at).in_game(st.seed, len(st.history)) from e
            except MemoryError as e:  # (the budgets keep real runs far from it: the last resort)
                flush_up_to_error(st)
                at = node.span if node is not None else self.ir.round_span
                raise budget.out_of_memory(at).in_game(st.seed, len(st.history)) from e
        if st.log is not None and st.fresh:
            flush(st)

    def resume(self, st, a: int) -> None:
        """Plays the legal action `a` of the pending choice and runs on to the next decision."""
        if st.checkpoint is not False:  # (False in the copies bots play out: they keep no past)
            view.record(st, a)
        alt = self.ir.choices[st.pending.choice].alternatives[alt_of(a)]
        if alt.slot is not None:
            st.v[alt.slot] = value_of(a)
        st.history.append(a)
        if st.log is not None:
            self._log_choice(st, a)
        st.pending = None
        st.stack.append(("body", alt.body, 0))
        self.run(st)
        if len(st.history) >= self.max_decisions:
            self._check_decisions(st, self.ir.choices[st.pending.choice].span if st.pending else None)

    def repend(self, st) -> None:
        """Works out the pending choice's legal actions again (the choice only reads the state)."""
        self.s_Choose(st, self.ir.choices[st.pending.choice])

    def execute(self, st, node: ir.Stmt):
        """Carries out one statement; STOP if the game now waits for a decision or is over."""
        return getattr(self, "s_" + type(node).__name__)(st, node)

    @staticmethod
    def _spend(st, at, steps: int = 1) -> None:
        """A pass of a loop, a round or a phase played spends a step of the run's budget; a `for
        each` a step for each of its items, when it begins."""
        st.steps -= steps
        if st.steps < 0:
            loops_forever(at, st)

    # ---------------------------------------------------------------- frames
    def f_round(self, st, frame) -> None:
        sitting = self.ir.sitting_slot
        if sitting is not None and st.v[sitting]:  # a new round: those who sat out the last one come back
            for q in st.v[sitting]:
                st.active[q] = True
            st.v[sitting] = ()
        for slot in self.round_locals:  # (a round's locals start empty: see `round_locals`)
            st.v[slot] = None
        st.round += 1
        round_begins(st)
        self._spend(st, self.ir.round_span)
        if st.round > self.max_rounds:
            loops_forever(self.ir.round_span, st)
        st.stack.append(("body", self.ir.round, 0))

    def f_for(self, st, frame) -> None:
        _, loop, i = frame
        items = st.v[loop.seq_slot]
        while i < len(items):
            st.v[loop.slot] = items[i]
            i += 1
            if loop.where is None or self.x.eval(st, loop.where):
                st.stack[-1] = ("for", loop, i)
                st.stack.append(("body", loop.body, 0))
                return
        st.stack.pop()

    def f_repeat(self, st, frame) -> None:
        _, loop, left = frame
        if left > 0:
            st.stack[-1] = ("repeat", loop, left - 1)
            self._spend(st, loop.span)
            st.stack.append(("body", loop.body, 0))
        else:
            st.stack.pop()

    def f_while(self, st, frame) -> None:
        loop = frame[1]
        holds = self.x.eval(st, loop.cond)
        if (not holds) if loop.negate else holds:
            self._spend(st, loop.span)
            st.stack.append(("body", loop.body, 0))
        else:
            st.stack.pop()

    # ------------------------------------------------------------ statements
    def _write(self, st, target, value) -> None:
        if isinstance(target, ir.SlotTarget):
            st.v[target.slot] = value
        elif isinstance(target, ir.PlayerVarTarget):
            st.v[target.base + self.x.eval(st, target.player)] = value
        else:
            slot = self._list_slot(st, target)
            items = list(st.v[slot])
            items[self._item(st, target, len(items)) - 1] = value
            st.v[slot] = tuple(items)

    def _list_slot(self, st, target) -> int:
        """The slot of the list an item target writes (a player's, for `told(p)[i]`: the player first)."""
        if isinstance(target, ir.PlayerItemTarget):
            return target.base + self.x.eval(st, target.player)
        return target.slot

    def _item(self, st, target: ir.ItemTarget, size: int) -> int:
        i = self.x.eval(st, target.index)
        if not 1 <= i <= size:
            effects.no_such_item(i, size, target.span)
        return i

    def s_Assign(self, st, node: ir.Assign):
        self._write(st, node.target, self.x.eval(st, node.value))

    def s_Increase(self, st, node: ir.Increase):
        t = node.target
        if isinstance(t, ir.SlotTarget):
            st.v[t.slot] = self._sum(st.v[t.slot] + self.x.eval(st, node.amount), node)
        elif isinstance(t, ir.PlayerVarTarget):
            i = t.base + self.x.eval(st, t.player)
            st.v[i] = self._sum(st.v[i] + self.x.eval(st, node.amount), node)
        else:
            slot = self._list_slot(st, t)
            items = list(st.v[slot])
            i = self._item(st, t, len(items))
            items[i - 1] = self._sum(items[i - 1] + self.x.eval(st, node.amount), node)
            st.v[slot] = tuple(items)

    @staticmethod
    def _sum(value, node: ir.Increase):
        """What `add` leaves, within the run budget of numbers (checked unless the amount is a
        number written in the rules: `add 1 to x` grows by no more than it at each step)."""
        if not ir.constant(node.amount) and not -budget.MAX_NUMBER <= value <= budget.MAX_NUMBER:
            budget.number_too_big(value, node.span)
        return value

    def _learn(self, st, moving, dest: int, face) -> None:
        """Who learns cards put on zone `dest`: whoever sees it, everyone (face up), or nobody more."""
        if face is None:
            learn(st, moving, self.zone_vis[dest])
        elif face == "up":
            known_only_by(st, moving, self.layout.all)
            if st.log is not None:
                effects.face_up(st, dest, moving, self.zone_names)

    def s_Move(self, st, node: ir.Move):
        moving = tuple(self.x.eval(st, node.cards))
        dest = self.x.eval(st, node.zone)
        if node.need is not None:
            need = self.x.eval(st, node.need)
            if len(moving) < need:
                steps.strict_short(need, len(moving), node.span)
        if moving:
            groups = self._unseen(st, moving, dest, node.face)
            move_cards(st, moving, dest, node.bottom)
            self._learn(st, moving, dest, node.face)
            if groups:
                among.merge(st, groups)

    def _unseen(self, st, moving, dest: int, face):
        """Before a move: the zones some seat sees a card leave without seeing which (runtime/among.py)."""
        if not any(self.held):
            return None
        if face == "up":  # (every seat sees which cards, not from which places: runtime/among.py)
            return among.before(st, moving, self.held, self.layout.all) if st.among is not None else None
        return among.before(st, moving, self.held, self.zone_vis[dest] if face is None else 0)

    def s_Deal(self, st, node: ir.Deal):
        n = self.x.eval(st, node.count)
        src = self.x.eval(st, node.source)
        targets = tuple(self.x.eval(st, node.dest))
        if n is None or n < 0:
            steps.bad_deal_count(n, node.span)
        pile = st.zones[src]
        names = self.zone_names
        if n * len(targets) > len(pile):
            effects.cannot_deal(n, len(targets), names[src], len(pile), node.span)
        if type(st.rng) is not int and n and targets:  # a chance source may choose the cards now
            steps.settle(st, src, n * len(targets))
        if self.held[src]:  # out of a hand some seat does not see: read as a move (runtime/among.py)
            steps.deal_from_held(st, n, src, targets, node.face, self.held, self.zone_vis, self.layout.all)
        for _ in range(n if not self.held[src] else 0):  # one card at a time, each place in turn, from the top
            for z in targets:
                c = pile.pop()
                st.zones[z].append(c)
                st.loc[c] = z
                if node.face == "up":
                    known_only_by(st, (c,), self.layout.all)
                elif node.face is None:
                    learn(st, (c,), self.zone_vis[z])
        if st.log is not None:
            effects.log_deal(st, n, src, targets, names)

    def s_Shuffle(self, st, node: ir.Shuffle):
        steps.shuffle_zone(st, self.x.eval(st, node.zone), self.zone_vis, self.zone_names)

    def s_SwapZones(self, st, node: ir.SwapZones):
        a, b = self.x.eval(st, node.left), self.x.eval(st, node.right)
        zones = st.zones
        zones[a], zones[b] = zones[b], zones[a]
        for z in (a, b):
            for c in zones[z]:
                st.loc[c] = z
            learn(st, zones[z], self.zone_vis[z])

    def s_SwapCards(self, st, node: ir.SwapCards):
        a, b = self.x.eval(st, node.left), self.x.eval(st, node.right)
        if a is None or b is None:
            effects.swap_none(node.span)
        zones, loc = st.zones, st.loc
        za, zb = loc[a], loc[b]
        groups = among.before_swap(st, a, b, self.held, self.zone_vis) if any(self.held) else None
        ia, ib = zones[za].index(a), zones[zb].index(b)
        zones[za][ia], zones[zb][ib] = b, a
        loc[a], loc[b] = zb, za
        learn(st, (a,), self.zone_vis[zb])
        learn(st, (b,), self.zone_vis[za])
        if groups:  # (each card, as if moved to the other's place: runtime/among.py)
            among.merge(st, groups)
        if self.ir.group_slot is not None:  # (each card in the other's group: runtime/groups.py)
            zone_groups.swap(st, self.ir.group_slot, a, b)

    def s_Lay(self, st, node: ir.Lay):
        joins = self.x.eval(st, node.joins) if node.joins is not None else None
        zone_groups.lay(st, node.slot, self.x.eval(st, node.cards), self.x.eval(st, node.zone), joins,
                        node.joins is not None, node.span)

    def s_Reveal(self, st, node: ir.Reveal):
        shown = tuple(self.x.eval(st, node.cards))
        to = tuple(self.x.eval(st, node.to)) if node.to is not None else None
        mask = self.layout.all if to is None else sum(1 << p for p in set(to))
        learn(st, shown, mask)
        if st.log is not None:
            effects.log_reveal(st, shown, to, self.zone_owner)

    def s_Hide(self, st, node: ir.Hide):
        if st.fresh:
            flush(st)  # a card shown before it is hidden stays shown in the log
        for c in self.x.eval(st, node.cards):
            among.forget(st, (c,), self.zone_vis[st.loc[c]])
            known_only_by(st, (c,), self.zone_vis[st.loc[c]])
            facts.clear(st, (c,))

    # -- finer knowledge (runtime/facts.py): what a seat is told of cards it does not see
    def s_TellFace(self, st, node: ir.TellFace):
        to = tuple(self.x.eval(st, node.to))
        facts.tell_face(st, self.layout.facts, to, self.x.eval(st, node.card), node.kind, node.span)

    def s_TellWhich(self, st, node: ir.TellWhich):
        to = tuple(self.x.eval(st, node.to))
        cards = tuple(self.x.eval(st, node.cards))
        facts.tell_which(st, self.layout.facts, to, cards, node.kind, self.x.eval(st, node.value), node.span)

    def s_ForgetOrder(self, st, node: ir.ForgetOrder):
        facts.forget_order(st, self.x.eval(st, node.zone), self.zone_vis)

    def s_Conceal(self, st, node: ir.Conceal):
        conceal(st, self.x.eval(st, node.cards), self.x.eval(st, node.player), self.zone_vis)

    def s_Announce(self, st, node: ir.Announce):
        # its parts and its speaker are worked out whether or not a log shows the text: what they
        # break (an index, a division) or draw (`random`) must not depend on who reads it
        values = self.x.parts(st, node.text)
        speaker = self.x.eval(st, node.speaker) if node.speaker is not None else None
        if st.log is None:
            return
        effects.announce(st, self.x.render(st, node.text, values), speaker, node.speaker is not None)

    def s_Eliminate(self, st, node: ir.Eliminate):
        p = self.x.eval(st, node.player)
        if node.sitting is not None and p in (st.v[node.sitting] or ()):  # sitting out: now out for good
            st.v[node.sitting] = tuple(q for q in st.v[node.sitting] if q != p)
            st.active[p] = True
        if st.active[p]:
            st.active[p] = False
            if st.log is not None:
                effects.eliminated(st, p)

    def s_ReverseDirection(self, st, node: ir.ReverseDirection):
        st.v[node.slot] = not st.v[node.slot]
        if st.log is not None:
            effects.reversed_play(st)

    def s_SetDirection(self, st, node: ir.SetDirection):
        turns = bool(st.v[node.slot]) != node.reversed  # (None before any: the declared way)
        st.v[node.slot] = node.reversed
        if turns and st.log is not None:
            effects.direction_now(st, node.direction)

    def s_SitOut(self, st, node: ir.SitOut):
        p = self.x.eval(st, node.player)
        if st.active[p]:
            st.active[p] = False
            st.v[node.sitting] = (st.v[node.sitting] or ()) + (p,)
            if st.log is not None:
                effects.sits_out(st, p)

    def s_EndGame(self, st, node: ir.EndGame):
        winners = self.x.eval(st, node.winners) if node.winners is not None else ()
        st.winner_seats = tuple(sorted(set(winners)))
        st.terminal = True
        st.pending = None
        if st.log is not None:
            effects.game_over(st)
        return STOP

    def s_EndRound(self, st, node: ir.EndRound):
        st.stack[:] = [("round",)]

    def s_CallPhase(self, st, node: ir.CallPhase):
        values = [self.x.eval(st, a) for a in node.args]  # every argument before any parameter is set
        if self.phase_steps:  # a phase played spends a step where phases can multiply the work
            self._spend(st, node.span)
        for slot, value in zip(node.phase.slots, values):
            st.v[slot] = value
        st.stack.append(("body", node.phase.body, 0))

    def s_If(self, st, node: ir.If):
        for cond, body in node.branches:
            if self.x.eval(st, cond):
                st.stack.append(("body", body, 0))
                return
        st.stack.append(("body", node.orelse, 0))

    def s_ForEach(self, st, node: ir.ForEach):
        st.v[node.seq_slot] = items = tuple(self.x.eval(st, node.seq))
        self._spend(st, node.span, len(items))  # a step an item, all at once (loops in loops multiply)
        st.stack.append(("for", node, 0))

    @staticmethod
    def s_Break(st, node: ir.Break):
        """The frames of the innermost loop's pass go, and the loop's own frame with them (the
        checker puts every `break` inside a loop of its block: E059)."""
        stack = st.stack
        while stack.pop()[0] not in _LOOP_FRAMES:
            pass

    def s_Repeat(self, st, node: ir.Repeat):
        st.stack.append(("repeat", node, self.x.eval(st, node.count)))

    def s_While(self, st, node: ir.While):
        st.stack.append(("while", node))

    # ------------------------------------------------------------- pots and betting
    def s_PotRule(self, st, node: ir.PotRule):
        pots.RULES[node.what](st, node.pot, *[self.x.eval(st, a) for a in node.args])

    def s_PotAward(self, st, node: ir.PotAward):
        anchor = self.x.eval(st, node.anchor) if node.anchor is not None else None
        value = {}
        ps = pots.contenders(st, node.pot)
        for p in ps if len(ps) > 1 else ():  # a lone contender takes it all: no showdown
            st.v[node.slot] = p
            value[p] = self.x.eval(st, node.value)
        pots.award(st, node.pot, anchor, value, node.lowest)

    # -------------------------------------------------------------- choices
    def s_Choose(self, st, node: ir.Choose):
        p = self.x.eval(st, node.player)
        legal = []
        for ai, alt in enumerate(node.alternatives):
            legal.extend(action_id(ai, value) for value in self._values(st, alt, node.span))
        if not legal or p is None or not 0 <= p < len(st.active):
            effects.no_choice(p, legal, node.span)
        st.pending = Pending(node.index, p, tuple(legal))
        st.pc = node.index
        return STOP

    def _values(self, st, alt: ir.Alternative, line) -> list:
        """The values an alternative offers now, in order (an option offers the value 0)."""
        if alt.kind == "option":
            return [0] if alt.where is None or self.x.eval(st, alt.where) else []
        if alt.kind == "card":
            candidates = self.x.eval(st, alt.source)
        elif alt.kind == "player":
            candidates = tuple(dict.fromkeys(self.x.eval(st, alt.source)))  # (a seat offered twice is one action)
        elif alt.kind == "value":  # a rank, a suit, a declared value, a number of a list: each once
            candidates = values_to_choose(self.x.eval(st, alt.source), line)
        elif alt.kind == "set":  # each set of the sizes, lazily; the filter reads the set's cards
            cards_slot, source_slot, low = alt.card_set
            source = st.v[source_slot] = card_sets.checked(self.x.eval(st, alt.source), line)
            kept = []
            for value, cards in card_sets.sets(source, low, alt.high.value):
                st.v[cards_slot] = cards
                if alt.where is None or self.x.eval(st, alt.where):
                    kept.append(value)
            return kept
        else:
            lo, hi = self.x.eval(st, alt.source), self.x.eval(st, alt.high)
            if lo < 0 or hi > MAX_VALUE:
                effects.numbers_out_of_range(lo, hi, line)
            candidates = range(lo, hi + 1)
        if alt.where is None:
            return list(candidates)
        kept = []
        for x in candidates:
            st.v[alt.slot] = x
            if self.x.eval(st, alt.where):
                kept.append(x)
        return kept


def reference_program(game: LoweredGame) -> ReferenceProgram:
    """A lowered game (`lowered.lower_game`), to be run by the reference interpreter."""
    program = ReferenceProgram(game.layout, game.ir)
    program.lowered = game
    program.max_decisions, program.max_rounds = game.max_decisions, game.max_rounds
    return program
