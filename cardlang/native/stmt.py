"""The native emitter's statements: one method per IR statement, as the reference's `s_<Node>`.

A quiet run keeps no log and no knowledge (`runtime/playout.quiet`), so a statement that only
shows or tells (`reveal`, `hide`, `announce`) works out its operands for what they may draw or
break, and changes nothing. Ending a round or the game returns its status from the phase's
function (`native/emit.py`: END_ROUND, END_GAME), which each caller hands on; a choice is the
random bot's draw written in place (`s_Choose`).
"""

from __future__ import annotations

from ..compiler import ir
from ..compiler.ir_facts import written_size
from ..runtime import among, card_sets
from ..runtime.actions import MAX_VALUE, VALUE_BITS, VALUE_MASK
from .expr import BIG
from .kinds import NONE, SEQ, refuse
from .writer import ARGS, Seq

END_ROUND, END_GAME = 1, 2
OUTLINED = 3  # an alternative's body of at least so many statements is a function of its own


class StmtEmitter:
    """Statements (mixed into `native.emit.Emitter`)."""

    def body(self, w, stmts) -> None:
        for st in stmts:
            method = getattr(self, "x_" + type(st).__name__, None)
            if method is None:
                raise refuse(_REFUSED.get(type(st).__name__, f"the statement {type(st).__name__}"), st)
            method(w, st)

    def status(self, w, call: str) -> None:
        """Calls a function of the module that may end the round or the game, and hands that on."""
        r = w.fresh("r")
        w.line(f"{r} = {call}")
        with w.block(f"if {r} != 0"):
            w.line(f"return {r}")

    def spend(self, w, steps: str, node) -> None:
        w.line(f"G[3] -= {steps}")
        w.fail_if("G[3] < 0", node)

    def store(self, w, slot: int, e) -> None:
        """Works `e` out into slot `slot` (a sequence is copied into the slot's row)."""
        if self.kinds.of(slot) == SEQ:
            self.store_seq(w, slot, self.s(w, e))
        else:
            w.line(f"V[{slot}] = {self.i(w, e)}")

    def store_seq(self, w, row, q: Seq) -> None:
        w.fail_if(f"{q.n} > {self.cap}", None)
        j = w.fresh("j")
        with w.block(f"for {j} in range({q.n})"):
            w.line(f"TV[{row}, {j}] = {q.at(f'{j}')}")
        w.line(f"TN[{row}] = {q.n}")

    # ----------------------------------------------------------- values
    def x_Assign(self, w, st):
        t = st.target
        if isinstance(t, ir.SlotTarget):
            self.store(w, t.slot, st.value)
            return
        seq = self.kinds.expr(st.value) == SEQ
        value = self.s(w, st.value) if seq else self.i(w, st.value)
        if isinstance(t, ir.PlayerVarTarget):
            k = self._pslot(w, t.base, t.player)
            if seq:
                self.store_seq(w, k, value)
            else:
                w.line(f"V[{k}] = {value}")
            return
        if seq:
            raise refuse("a list put into an item of a list", st)
        row, i = self._item(w, t)
        w.line(f"TV[{row}, {i} - 1] = {value}")

    def _item(self, w, t) -> tuple:
        """(the row of the list an item target writes, the item's number, checked)."""
        row = self._pslot(w, t.base, t.player) if isinstance(t, ir.PlayerItemTarget) else str(t.slot)
        i = self.i(w, t.index)
        w.fail_if(f"{i} < 1 or {i} > TN[{row}]", t)
        return row, i

    def x_Increase(self, w, st):
        t = st.target
        if isinstance(t, ir.SlotTarget):
            place = f"V[{t.slot}]"
        elif isinstance(t, ir.PlayerVarTarget):
            place = f"V[{self._pslot(w, t.base, t.player)}]"
        else:
            row, i = self._item(w, t)
            place = f"TV[{row}, {i} - 1]"
        amount = self.i(w, st.amount)
        w.fail_if(f"{amount} == {NONE} or {place} == {NONE}", st)
        w.line(f"{place} += {amount}")
        w.fail_if(f"{place} >= {BIG} or {place} <= -{BIG}", st)

    # ----------------------------------------------------------- cards
    def x_Move(self, w, st):
        if self.opt.zone_moves and isinstance(st.cards, ir.ZoneCards) and not self.knows:
            self._move_zone(w, st)
            return
        if self.opt.card_moves and isinstance(st.cards, ir.Maybe) and not self.knows:
            self._move_card(w, st)
            return
        if self.opt.deck_moves and self._whole_deck(st.cards) and not self.knows:
            self._move_deck(w, st)
            return
        q = self.s(w, st.cards)
        if q.view:
            q = self.copy(w, q, st)
        dest = self.i(w, st.zone)
        if st.need is not None:
            need = self.i(w, st.need)
            w.fail_if(f"{need} == {NONE} or {q.n} < {need}", st)
        with w.block(f"if {q.n} > 0"):
            if self.knows:
                w.fail_outside(dest, self.nzones, st)
                if self.any_held and st.face != "up":  # (a face-up move starts no `among`)
                    after = f"{self.vis()}[{dest}]" if st.face is None else "0"
                    w.fail_if(f"unseen(Z, ZN, LOC, KN, {q.whole()}, {q.n}, {self.held()}, {after})", st)
            w.fail_if(f"move(Z, ZN, LOC, {q.whole()}, {q.n}, {dest}, {bool(st.bottom)})", st)
            if self.knows and st.face != "down":  # (`reference._learn`)
                j = w.fresh("j")
                with w.block(f"for {j} in range({q.n})"):
                    if st.face == "up":
                        w.line(f"KN[{q.at(j)}] = {self.layout.all}")
                    else:
                        w.line(f"KN[{q.at(j)}] |= {self.vis()}[{dest}]")

    # who knows each card (`KN`: kept only when a rule reads it, `native/knowledge.py`)
    def vis(self) -> str:
        """The table of the seats that see each zone's cards (`layout.zone_vis`)."""
        return self.const("VIS", self.layout.zone_vis)

    def held(self) -> str:
        """The table of the seats blind to each zone's places (`runtime.among.held`)."""
        return self.const("HELD", among.held(self.layout))

    def known_by_zone(self, w, q: Seq, extra: str = "0", learn: bool = False) -> None:
        """Each card of `q` known to the seats that see its zone (and `extra`); `learn`: they learn
        it (`zones.learn`), else only they know it (`zones.known_only_by`)."""
        j = w.fresh("j")
        with w.block(f"for {j} in range({q.n})"):
            c = q.at(j)
            w.line(f"KN[{c}] {'|=' if learn else '='} {self.vis()}[LOC[{c}]] | {extra}")

    def _move_zone(self, w, st):
        """`move <a zone's cards> to …`: the zone's cards straight onto the destination
        (`steps.move_zone`), not copied first and each taken out of its zone (switch `zone_moves`)."""
        src = self.i(w, st.cards.zone)
        w.fail_outside(src, self.nzones, st.cards)  # (as `s_ZoneCards` stops)
        n = self.tmp(w, f"ZN[{src}]", "n")
        dest = self.i(w, st.zone)
        if st.need is not None:
            need = self.i(w, st.need)
            w.fail_if(f"{need} == {NONE} or {n} < {need}", st)
        with w.block(f"if {n} > 0"):
            step = "move_zone_inline" if self.opt.inline_zone_moves else "move_zone"
            w.fail_if(f"{step}(Z, ZN, LOC, {src}, {dest}, {bool(st.bottom)})", st)

    def _whole_deck(self, e) -> bool:
        """Whether `e` is a constant list of every card of the deck, each once (`all cards`)."""
        return (isinstance(e, ir.Const) and isinstance(e.value, tuple)
                and sorted(e.value, key=lambda c: -1 if c is None else c) == list(range(self.ncards)))

    def _move_deck(self, w, st):
        """`move <every card of the deck> to …`: every pile emptied, the cards in the destination in
        one pass (`steps.move_deck`; switch `deck_moves`), as `move` moves them."""
        q = self.s(w, st.cards)  # (a module-level table: nothing the move changes)
        dest = self.i(w, st.zone)
        if st.need is not None:
            need = self.i(w, st.need)
            w.fail_if(f"{need} == {NONE} or {q.n} < {need}", st)
        w.fail_if(f"move_deck(Z, ZN, LOC, {q.whole()}, {q.n}, {dest}, {bool(st.bottom)})", st)

    def _move_card(self, w, st):
        """`move <a card or none> to …`: the card moved by `steps.move_card`, written in place (no
        scratch row; switch `card_moves`), as `move` moves a list of it."""
        c = self.i(w, st.cards.value)
        dest = self.i(w, st.zone)
        if st.need is not None:
            need = self.i(w, st.need)
            w.fail_if(f"{need} == {NONE} or (0 if {c} == {NONE} else 1) < {need}", st)
        with w.block(f"if {c} != {NONE}"):
            step = "move_card_compact" if self.opt.compact_moves else "move_card"
            w.fail_if(f"{step}(Z, ZN, LOC, {c}, {dest}, {bool(st.bottom)})", st)

    def x_Deal(self, w, st):
        n = self.i(w, st.count)
        src = self.zone(w, st.source)
        targets = self.s(w, st.dest)
        j = w.fresh("j")
        with w.block(f"for {j} in range({targets.n})"):
            w.fail_outside(targets.at(f'{j}'), self.nzones, st)
        w.fail_if(f"{n} == {NONE} or {n} < 0", st)
        w.fail_if(f"{n} * {targets.n} > ZN[{src}]", st)
        j = w.fresh("j")
        with w.block(f"for {j} in range({targets.n})"):  # (each place must take the cards)
            w.fail_if(f"ZN[{targets.at(f'{j}')}] + {n} > {self.zcap}", st)
        if self.knows:
            face = {None: 0, "up": 1, "down": 2}[st.face]
            w.fail_if(f"deal_known(Z, ZN, LOC, KN, {n}, {src}, {targets.whole()}, {targets.n}, {face}, "
                      f"{self.vis()}, {self.held()}, {self.layout.all})", st)
        else:
            w.line(f"deal(Z, ZN, LOC, {n}, {src}, {targets.whole()}, {targets.n})")

    def zone(self, w, e) -> str:
        """A zone id (one of no zone stops the run)."""
        z = self.i(w, e)
        w.fail_outside(z, self.nzones, e)
        return z

    def x_Shuffle(self, w, st):
        z = self.zone(w, st.zone)
        shuffle = "chance_shuffle_pairs" if self.opt.paired_digits else "chance_shuffle"
        w.line(f"G[0] = {shuffle}(Z[{z}, :ZN[{z}]], G[0])")
        if self.knows:  # (only who sees the zone knows its cards: `steps.shuffle_zone`)
            self.known_by_zone(w, Seq("Z", f"ZN[{z}]", True, z))

    def x_SwapZones(self, w, st):
        a = self.zone(w, st.left)
        b = self.zone(w, st.right)
        w.line(f"swap_zones(Z, ZN, LOC, {a}, {b})")
        if self.knows:
            for z in (a, b):
                self.known_by_zone(w, Seq("Z", f"ZN[{z}]", True, z), learn=True)

    def x_SwapCards(self, w, st):
        a = self.card(w, st.left)
        b = self.card(w, st.right)
        w.fail_if(f"{a} == {NONE} or {b} == {NONE}", st)
        if self.knows:
            w.fail_outside(a, self.ncards, st)
            w.fail_outside(b, self.ncards, st)
            if self.any_held:
                w.fail_if(f"unseen_swap(Z, ZN, LOC, KN, {a}, {b}, {self.held()}, {self.vis()})", st)
        w.fail_if(f"swap_cards(Z, ZN, LOC, {a}, {b})", st)
        if self.knows:
            for c in (a, b):
                w.line(f"KN[{c}] |= {self.vis()}[LOC[{c}]]")

    def x_Reveal(self, w, st):  # (who knows a card: kept only when a rule reads it)
        q = self.s(w, st.cards)
        to = self.s(w, st.to) if st.to is not None else None
        if not self.knows:
            return
        if to is None:
            mask = str(self.layout.all)
        else:
            mask, j = self.tmp(w, "0", "m"), w.fresh("j")
            with w.block(f"for {j} in range({to.n})"):
                w.fail_outside(to.at(j), self.n, st)
                w.line(f"{mask} |= 1 << {to.at(j)}")
        j = w.fresh("j")
        with w.block(f"for {j} in range({q.n})"):
            w.fail_outside(q.at(j), self.ncards, st)
            w.line(f"KN[{q.at(j)}] |= {mask}")

    def x_Hide(self, w, st):
        q = self.s(w, st.cards)
        j = w.fresh("j")
        with w.block(f"for {j} in range({q.n})"):  # (a none card has no place: the reference's error)
            self.not_none(w, f"{q.at(f'{j}')}", st)
        if self.knows:  # (each known only to who sees its zone)
            self.known_by_zone(w, q)

    def x_Conceal(self, w, st):
        q = self.s(w, st.cards)
        p = self.i(w, st.player)
        self.not_none(w, p, st)
        j = w.fresh("j")
        with w.block(f"for {j} in range({q.n})"):
            self.not_none(w, f"{q.at(f'{j}')}", st)
        if self.knows:  # (`at_once.conceal`: known to the chooser and to who sees its zone)
            w.fail_outside(p, self.n, st)
            self.known_by_zone(w, q, f"(1 << {p})")

    def x_TellFace(self, w, st):  # (facts told of cards: knowledge, which a quiet run keeps not)
        self.s(w, st.to)
        self.not_none(w, self.i(w, st.card), st)

    def x_TellWhich(self, w, st):
        self.s(w, st.to)
        self.s(w, st.cards)
        self.not_none(w, self.i(w, st.value), st)

    def x_ForgetOrder(self, w, st):
        z = self.zone(w, st.zone)
        if self.knows:  # (`facts.forget_order`: only who sees the zone knows which card is which)
            self.known_by_zone(w, Seq("Z", f"ZN[{z}]", True, z))

    def x_Announce(self, w, st):  # (its parts and speaker are worked out, shown to nobody)
        self.fx(w, st.text)
        if st.speaker is not None:
            self.fx(w, st.speaker)

    # ----------------------------------------------------------- seats
    def _sitting(self, slot) -> Seq:
        return Seq("TV", f"TN[{slot}]", True, slot)

    def x_Eliminate(self, w, st):
        p = self.i(w, st.player)
        w.fail_outside(p, self.n, st)
        if st.sitting is not None:
            s, k = st.sitting, w.fresh("k")
            with w.block(f"if {self._member(w, p, self._sitting(s))}"):
                m = self.tmp(w, "0")
                with w.block(f"for {k} in range(TN[{s}])"):
                    with w.block(f"if TV[{s}, {k}] != {p}"):
                        w.line(f"TV[{s}, {m}] = TV[{s}, {k}]")
                        w.line(f"{m} += 1")
                w.line(f"TN[{s}] = {m}")
                w.line(f"ACT[{p}] = True")
        w.line(f"ACT[{p}] = False")

    def x_SitOut(self, w, st):
        p = self.i(w, st.player)
        w.fail_outside(p, self.n, st)
        with w.block(f"if ACT[{p}]"):
            w.line(f"ACT[{p}] = False")
            w.line(f"TV[{st.sitting}, TN[{st.sitting}]] = {p}")
            w.line(f"TN[{st.sitting}] += 1")

    def x_ReverseDirection(self, w, st):
        w.line(f"V[{st.slot}] = 0 if {self.truth(f'V[{st.slot}]')} else 1")

    def x_SetDirection(self, w, st):
        w.line(f"V[{st.slot}] = {int(st.reversed)}")

    # ----------------------------------------------------------- flow
    def x_EndGame(self, w, st):
        q = self.s(w, st.winners) if st.winners is not None else None
        w.line("G[5] = 1")
        w.line("G[8] = 0")
        if q is not None:  # the winners, each once, in seat order
            s, j = w.fresh("q"), w.fresh("j")
            with w.block(f"for {s} in range({self.n})"):
                with w.block(f"for {j} in range({q.n})"):
                    with w.block(f"if {q.at(f'{j}')} == {s}"):
                        w.line(f"G[9 + G[8]] = {s}")
                        w.line("G[8] += 1")
                        w.line("break")
            j = w.fresh("j")
            with w.block(f"for {j} in range({q.n})"):  # (none, or no seat, among the winners: an error)
                w.fail_outside(q.at(f'{j}'), self.n, st)
        w.line(f"return {END_GAME}")

    def x_EndRound(self, w, st):
        w.line(f"return {END_ROUND}")

    def x_CallPhase(self, w, st):
        values = []
        for slot, a in zip(st.phase.slots, st.args):  # every argument before any parameter is set
            if self.kinds.of(slot) == SEQ:
                q = self.s(w, a)
                values.append(self.copy(w, q, st) if q.view else q)
            else:
                values.append(self.i(w, a))
        if self.phase_steps:
            self.spend(w, "1", st)
        for slot, value in zip(st.phase.slots, values):
            if isinstance(value, Seq):
                self.store_seq(w, slot, value)
            else:
                w.line(f"V[{slot}] = {value}")
        self.status(w, f"{self.called(self.phase_function(st.phase))}({ARGS})")

    def x_If(self, w, st):
        self._branches(w, list(st.branches), st.orelse)

    def _branches(self, w, branches, orelse) -> None:
        cond, body = branches[0]
        c = self.i(w, cond)
        with w.block(f"if {self.truth(c)}"):
            self.body(w, body)
        if len(branches) > 1 or orelse:
            with w.block("else"):
                if len(branches) > 1:
                    self._branches(w, branches[1:], orelse)
                else:
                    self.body(w, orelse)

    def x_ForEach(self, w, st):
        self.store_seq(w, st.seq_slot, self.s(w, st.seq))
        self.spend(w, f"TN[{st.seq_slot}]", st)
        j = w.fresh("j")
        with w.block(f"for {j} in range(TN[{st.seq_slot}])"):
            w.line(f"V[{st.slot}] = TV[{st.seq_slot}, {j}]")
            self.skip_unless(w, st.where)
            self.body(w, st.body)

    def x_Repeat(self, w, st):
        n = self.i(w, st.count)
        self.not_none(w, n, st)
        j = w.fresh("j")
        with w.block(f"for {j} in range({n})"):
            self.spend(w, "1", st)
            self.body(w, st.body)

    def x_While(self, w, st):
        with w.block("while True"):
            c = self.i(w, st.cond)
            holds = f"not {self.truth(c)}" if st.negate else self.truth(c)
            with w.block(f"if not ({holds})"):
                w.line("break")
            self.spend(w, "1", st)
            self.body(w, st.body)

    # ----------------------------------------------------------- choices
    def x_Choose(self, w, st):
        p = self.i(w, st.player)
        if any(alt.kind == "number" for alt in st.alternatives):  # (up to 65536 numbers: the long row `LG`)
            n = w.fresh("n")
            w.line(f"{n} = 0")
            legal = Seq("LG", n, False)
        else:
            legal = self.buffer(w)
        for ai, alt in enumerate(st.alternatives):
            self._offer(w, legal, ai, alt, st)
        w.fail_if(f"{legal.n} == 0 or {p} < 0 or {p} >= {self.n}", st)
        w.fail_if(f"G[2] >= {self.max_decisions}", st)  # (the decisions cap, met after the last one)
        self.before_draw(w, st)
        w.line(f"if G[4] < 0: G[4] = {p}")
        draw = "pick_inline" if self.opt.bot_draws else "pick"  # (the random bot's: `steps.pick_inline`)
        a = self.tmp(w, legal.at(self.tmp(w, f"{draw}(MT, G[6], {p}, {legal.n})", "i")), "a")
        w.line("G[2] += 1")
        w.line(f"G[3] = {self.step_budget}")
        value = self.tmp(w, f"{a} & {VALUE_MASK}", "x")
        alt_no = self.tmp(w, f"{a} >> {VALUE_BITS}", "k")
        for ai, alt in enumerate(st.alternatives):
            with w.block(f"{'if' if ai == 0 else 'elif'} {alt_no} == {ai}"):
                if alt.slot is not None:
                    w.line(f"V[{alt.slot}] = {value}")
                if written_size(alt.body) >= OUTLINED:  # (a function of its own: `alternative_function`)
                    self.status(w, f"{self.called(self.alternative_function(alt))}({ARGS})")
                else:
                    self.body(w, alt.body)

    def before_draw(self, w, st) -> None:
        """Lines written before a choice's draw: none in a whole game (`native/resume.py` stops a
        rollout at its stop round there)."""

    def alternative_function(self, alt) -> str:
        """The function that plays the body of a choice's alternative (a round of many choices, or of
        alternatives written out pile by pile, is then many functions of a few hundred lines: numba's
        time and memory grow faster than a function's length)."""
        name = self.phases.get(id(alt))
        if name is None:
            name = self.phases[id(alt)] = f"alternative_{len(self.phases)}"
            self.function(name, lambda w: self.body(w, alt.body))
        return name

    def _offer(self, w, legal: Seq, ai: int, alt, node) -> None:
        """Appends the legal actions of alternative `ai` (the reference's `_values`)."""
        high = ai << VALUE_BITS
        if alt.kind == "option":
            if alt.where is None:
                self.push(w, legal, str(high), node)
                return
            c = self.i(w, alt.where)
            with w.block(f"if {self.truth(c)}"):
                self.push(w, legal, str(high), node)
            return
        if alt.kind == "set":
            self._offer_sets(w, legal, high, alt, node)
            return
        j, x = w.fresh("j"), w.fresh("x")
        if alt.kind == "number":
            lo, hi = self.i(w, alt.source), self.i(w, alt.high)
            w.fail_if(f"{lo} == {NONE} or {hi} == {NONE} or {lo} < 0 or {hi} > {MAX_VALUE}", node)
            head = f"for {x} in range({lo}, {hi} + 1)"
            q = None
        else:
            q = self.s(w, alt.source)
            head = f"for {j} in range({q.n})"
        with w.block(head):
            if q is not None:
                w.line(f"{x} = {q.at(f'{j}')}")
                w.fail_if(f"{x} < 0 or {x} > {MAX_VALUE}", node)  # (none, or past 16 bits: an error)
                if alt.kind in ("player", "value"):  # each value once, in its order
                    k, dup = w.fresh("k"), self.tmp(w, "0", "d")
                    with w.block(f"for {k} in range({j})"):
                        with w.block(f"if {q.at(f'{k}')} == {x}"):
                            w.line(f"{dup} = 1")
                            w.line("break")
                    with w.block(f"if {dup}"):
                        w.line("continue")
            if alt.where is not None:
                w.line(f"V[{alt.slot}] = {x}")
                c = self.i(w, alt.where)
                if self.opt.branchless_offers:  # (written past the list's end when left out)
                    kept = self.tmp(w, f"np.int64(({c} != 0) & ({c} != {NONE}))", "ok")
                    cap = self.legal_cap if legal.arr == "LG" else self.cap
                    w.fail_if(f"{kept} != 0 and {legal.n} >= {cap}", node)
                    with w.block(f"if {legal.n} < {cap}"):
                        w.line(f"{legal.at(legal.n)} = {high} | {x}")
                    w.line(f"{legal.n} += {kept}")
                    return
                with w.block(f"if not {self.truth(c)}"):
                    w.line("continue")
            self.push(w, legal, f"{high} | {x}", node)

    def _offer_sets(self, w, legal: Seq, high: int, alt, node) -> None:
        """Each set of `low` to `high` cards of the source that the filter keeps, in the order of
        `runtime.card_sets.sets` (by size, then as `itertools.combinations`), the filter reading
        the set's cards; the source is kept as offered (the body works the set out from it)."""
        cards_slot, source_slot, low = alt.card_set
        q = self.s(w, alt.source)
        w.fail_if(f"{q.n} > {card_sets.MAX_SOURCE}", node)  # (`card_sets.checked`'s rule error)
        self.store_seq(w, source_slot, q)
        offsets, comb = self.set_offsets(low), self.set_comb()
        places = self.buffer(w)
        k, i, x, more = w.fresh("k"), w.fresh("i"), w.fresh("x"), w.fresh("m")
        with w.block(f"for {k} in range({low}, min({alt.high.value}, TN[{source_slot}]) + 1)"):
            with w.block(f"for {i} in range({k})"):
                w.line(f"{places.at(i)} = {i}")
            w.line(f"{more} = True")
            with w.block(f"while {more}"):
                w.line(f"{x} = {offsets}[{k}]")
                with w.block(f"for {i} in range({k})"):
                    w.line(f"TV[{cards_slot}, {i}] = TV[{source_slot}, {places.at(i)}]")
                    w.line(f"{x} += {comb}[{i} + 1, {places.at(i)}]")
                w.line(f"TN[{cards_slot}] = {k}")
                if alt.where is None:
                    self.push(w, legal, f"{high} | {x}", node)
                else:
                    c = self.i(w, alt.where)
                    with w.block(f"if {self.truth(c)}"):
                        self.push(w, legal, f"{high} | {x}", node)
                w.line(f"{more} = next_places({places.whole()}, {k}, TN[{source_slot}])")

    # ----------------------------------------------------------- pots and betting (`native/pots.py`)
    def pot_args(self, pot) -> str:
        """The arguments every betting kernel takes after the state: where the pot lives, its ring."""
        ring = self.const("RING", pot.ring, dims=2)
        return f"V, TV, ACT, {pot.base}, {pot.n}, {pot.stacks}, {ring}"

    def x_PotRule(self, w, st):
        pot, what = st.pot, st.what
        if what == "put":
            amount, p = self.i(w, st.args[0]), self.i(w, st.args[1])
            w.fail_if(f"pot_put(V, {pot.base}, {pot.n}, {pot.stacks}, {amount}, {p})", st)
        elif what == "start":
            first = self.i(w, st.args[0])
            blinds = self.s(w, st.args[1])
            minimum, fixed, cap = (self.i(w, a) for a in st.args[2:5])
            w.fail_if(f"pot_start({self.pot_args(pot)}, {first}, {blinds.whole()}, {blinds.n}, {minimum}, "
                      f"{fixed}, {cap})", st)
        elif what == "act":
            kind, amount = self.i(w, st.args[0]), self.i(w, st.args[1])
            w.fail_if(f"pot_act({self.pot_args(pot)}, {kind}, {amount})", st)
        else:
            raise refuse(f"the pot rule `{what}`", st)

    def x_PotAward(self, w, st):
        pot = st.pot
        anchor = self.i(w, st.anchor) if st.anchor is not None else str(NONE)
        anchor = self.tmp(w, anchor, "a")  # (worked out before the values: a name kept past them)
        values = self.buffer(w)
        fold, k, p = pot.base + 2 * pot.n, w.fresh("k"), w.fresh("p")
        w.line(f"{k} = 0")
        with w.block(f"for {p} in range({pot.n})"):
            with w.block(f"if ACT[{p}] and V[{fold} + {p}] == 0"):
                w.line(f"{k} += 1")
        with w.block(f"for {p} in range({pot.n})"):
            w.line(f"{values.at(p)} = 0")
        with w.block(f"if {k} > 1"):  # (a lone contender takes it all: no showdown)
            with w.block(f"for {p} in range({pot.n})"):
                with w.block(f"if ACT[{p}] and V[{fold} + {p}] == 0"):
                    w.line(f"V[{st.slot}] = {p}")
                    x = self.i(w, st.value)
                    self.not_none(w, x, st)
                    w.line(f"{values.at(p)} = {x}")
        w.fail_if(f"pot_award({self.pot_args(pot)}, {anchor}, {values.whole()}, {bool(st.lowest)})", st)


_REFUSED = {"Lay": "zones of groups (`lay`)"}  # statement class name -> the construct a refusal names
