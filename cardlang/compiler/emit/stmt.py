"""Statements: one method per IR statement node, `s_<Node>(w, st)`, writing Python statements.

Each writes the statement whole, in the order the reference interpreter works it out. The
control statements (`if`, loops) are written with Python's own `if`/`for`/`while` here: that is
how a fused run of statements that cannot stop runs (passes/fusion.py); the op graph
(`emit/graph.py`) splits them into ops otherwise.
"""

from __future__ import annotations

from typing import Optional

import contextlib

from .. import ir
from ...runtime.effects import face_up_text
from ...runtime.program import loops_forever
from ...runtime import budget, steps
from ...runtime.zones import move_cards
from ...runtime.log import flush
from ...runtime import among, facts
from ...runtime import groups as zone_groups
from ...runtime.at_once import conceal
from ...runtime import pots
from ...runtime import bet_counts
from . import helpers, seats
from .code import Name, Number
from .expr import ExprEmitter
from ..ir_facts import apart, reads_apart, writes, zone_ids
from .graph import straight


class StmtEmitter(ExprEmitter):
    """Writes IR statements (and, through `ExprEmitter`, their expressions)."""

    def __init__(self, program, ns, options, run, counting: bool):
        super().__init__(program, ns, options, run)
        self.counting = counting
        self.branch_points: dict = {}  # id(If) -> its branches' rule points (else last), when counting
        self.bet_points: dict = {}  # id(PotRule) of a betting round -> its first rule point, when counting
        self.hits = program.hits

    def stmt(self, w, st: ir.Stmt) -> None:
        """Writes one statement that cannot stop the run, under the comment naming its rule line."""
        w.where(st.span)
        with w.at(st.span):
            getattr(self, "s_" + type(st).__name__)(w, st)

    def block(self, w, stmts) -> None:
        if not stmts:
            w.line("pass")
        for st in stmts:
            self.stmt(w, st)

    def count(self, w, k) -> None:
        """When counting, the line that counts rule point `k`."""
        if self.counting and k is not None:
            w.add_one(self.c(self.hits, 'hits'), k)

    # ------------------------------------------------------------- variables
    def s_Assign(self, w, st: ir.Assign):
        value, t = self.first(w, st.value), st.target
        if isinstance(t, ir.SlotTarget):
            w.line(f"{w.place(t.slot)} = {value}")
        elif isinstance(t, ir.PlayerVarTarget):
            x = value if isinstance(value, (Name, Number)) else w.fresh()  # (a name or a number: nothing to work out)
            if x is not value:
                w.line(f"{x} = {value}")  # the value first, then where it goes
            w.line(f"v[{w.index(t.base)} + ({self.x(w, t.player)})] = {x}")
        elif isinstance(t, ir.PlayerItemTarget):
            x, slot = w.fresh(), w.fresh("_i")
            w.line(f"{x} = {value}")  # the value first, then the player, then the item
            w.line(f"{slot} = {w.index(t.base)} + ({self.x(w, t.player)})")
            w.line(f"{self.c(helpers.set_item)}(v, {slot}, ({self.x(w, t.index)}), {x}, {self.c(t.span)})")
        else:
            x = w.fresh()
            w.line(f"{x} = {value}")
            w.line(f"{self.c(helpers.set_item)}(v, {w.index(t.slot)}, ({self.x(w, t.index)}), {x}, {self.c(t.span)})")

    def s_Increase(self, w, st: ir.Increase):
        t = st.target
        if ir.constant(st.amount):  # (`add 1 to x` grows by no more than 1 a step: not checked, `ir.constant`)
            if isinstance(t, ir.SlotTarget):
                w.line(f"{w.place(t.slot)} += {self.x(w, st.amount)}")
                return
            if isinstance(t, ir.PlayerVarTarget):
                w.line(f"v[{w.index(t.base)} + ({self.x(w, t.player)})] += {self.x(w, st.amount)}")
                return
        if isinstance(t, ir.SlotTarget):
            place = w.place(t.slot)
            w.line(f"{place} = {self.bounded(w, f'{place} + ({self.x(w, st.amount)})', st.span)}")
        elif isinstance(t, ir.PlayerVarTarget):
            i = w.fresh("_i")
            w.line(f"{i} = {w.index(t.base)} + ({self.x(w, t.player)})")  # where first, then the amount
            w.line(f"v[{i}] = {self.bounded(w, f'v[{i}] + ({self.x(w, st.amount)})', st.span)}")
        else:
            items, i = w.fresh("_l"), w.fresh("_i")
            if isinstance(t, ir.PlayerItemTarget):  # the player first, then the item, then the amount
                slot = w.fresh("_p")
                w.line(f"{slot} = {w.index(t.base)} + ({self.x(w, t.player)})")
            else:
                slot = w.index(t.slot)
            w.line(f"{items} = list(v[{slot}])")
            w.line(f"{i} = {self.c(helpers.item_index)}({items}, ({self.x(w, t.index)}), {self.c(t.span)})")
            total = f"{items}[{i} - 1] + ({self.x(w, st.amount)})"
            w.line(f"{items}[{i} - 1] = {total if ir.constant(st.amount) else self.bounded(w, total, st.span)}")
            w.line(f"v[{slot}] = tuple({items})")

    # ----------------------------------------------------------------- cards
    def _learn(self, w, moving: str, dest: str, face, zone: ir.Expr = None) -> None:
        """Who learns the cards `moving` put on zone `dest`: whoever sees it, everyone, or nobody more.
        (`zone`: the destination's expression, when its seats are known: `_vis`.)"""
        if self.run.quiet:
            if face == "up":
                w.line("if s.log is not None:")
                w.line(f"    {self.c(helpers.face_up)}(s, {dest}, {moving}, {self.c(self.layout.zone_names, 'zone_names')})")
            return
        seen = self._seen(zone)
        if face is None and seen is not None:  # (a mask known here: no test at run time)
            if seen:
                w.state_list("known")
                w.line(f"for c in {moving}:")
                w.line(f"    known[c] |= {seen}")
        elif face is None:
            add = w.fresh("_m")
            w.line(f"{add} = {self.c(self.layout.zone_vis, 'zone_vis')}[{dest}]")
            w.line(f"if {add}:")
            with w.indent():
                w.state_list("known")
            w.line(f"    for c in {moving}:")
            w.line(f"        known[c] |= {add}")
        elif face == "up":
            w.state_list("known")
            w.line(f"for c in {moving}:")
            w.line(f"    known[c] = {self.layout.all}")
            w.line("if s.log is not None:")
            w.line(f"    {self.c(helpers.face_up)}(s, {dest}, {moving}, {self.c(self.layout.zone_names, 'zone_names')})")

    def _seen(self, zone) -> Optional[int]:
        """The seats that see the cards of zone expression `zone` (a mask), when every zone it can
        give is seen by the same seats, else None (then read from the table at run time)."""
        ids = None if zone is None else zone_ids(zone, self.layout.players)
        masks = set() if ids is None else {self.layout.zone_vis[z] for z in ids}
        return masks.pop() if len(masks) == 1 else None

    def _vis(self, dest: str, zone) -> str:
        """Who sees the cards of zone `dest` (its expression `zone`, or None): a mask written in
        when `_seen` knows it, else the table's entry."""
        seen = self._seen(zone)
        return f"{self.c(self.layout.zone_vis, 'zone_vis')}[{dest}]" if seen is None else str(seen)

    def _unseen(self, w, face, dest: str, moving: str, src: str = None, zone: ir.Expr = None,
                src_zone: ir.Expr = None) -> str:
        """Before a move: the zones some seat sees a card leave without seeing which, into a local
        (`runtime.among.before`; the reference's `_unseen`), or "" when no seat can be blind to it.
        (`zone`: the destination's expression, when its seats are known: `_vis`; `src_zone`, the
        source's, when it is one zone's: none of the zones it can give held, nothing to test.)"""
        found = self._unseen_test(face, dest, moving, src, zone, src_zone)
        if found is None:
            return ""
        g = w.fresh("_g")
        w.line(f"{g} = None")
        w.line(f"if {found[0]}:")
        w.line(f"    {g} = {found[1]}")
        return g

    def _unseen_test(self, face, dest: str, moving: str, src: str = None, zone: ir.Expr = None,
                     src_zone: ir.Expr = None):
        """(the test, the call) `_unseen` writes, or None when no seat can be blind to the move."""
        held = among.held(self.layout)
        if self.run.quiet or not any(held):
            return None
        ids = None if src_zone is None else zone_ids(src_zone, self.layout.players)
        if ids is not None and not any(held[z] for z in ids):  # (every test below is `held[src] …`)
            return None
        after = self._vis(dest, zone) if face is None else str(self.layout.all) if face == "up" else "0"
        test = f"{self.c(held, 'held')}[{src}]" if src is not None else "True"
        seen = self._seen(zone) if face is None and src is not None else None
        blind = None if seen is None else self.layout.all & ~seen  # (the seats of `held` are among `all`)
        if face == "up" or blind == 0:  # (every seat sees which cards, not from which places: runtime/among.py)
            test = f"s.among is not None and {test}"
        elif blind is not None and blind == self.layout.all:  # (nobody sees them arrive: every seat of `held`)
            pass
        elif face is None and src is not None:  # (a seat that sees them arrive: only if it tracks cards)
            test += f" & {blind if blind is not None else '~' + after} or s.among is not None and {self.c(held, 'held')}[{src}]"
        return test, f"{self.c(among.before)}(s, {moving}, {self.c(held, 'held')}, {after})"

    def _merge(self, w, g: str) -> None:
        if g:
            w.line(f"if {g}:")
            w.line(f"    {self.c(among.merge)}(s, {g})")

    def s_Move(self, w, st: ir.Move):
        cards, face, names = st.cards, st.face, self.layout.zone_names
        if isinstance(cards, ir.Const) and cards.value == tuple(range(self.layout.deck.size)):
            order = cards.value[::-1] if st.bottom else cards.value
            w.line(f"{self.c(helpers.move_all)}(s, ({self.x(w, st.zone)}), {self.c(order)}, "
                   f"{self.c(self.layout.zone_vis, 'zone_vis')}, {self.layout.all}, {face!r}, {self.c(names)})")
            return
        if isinstance(cards, ir.Maybe):  # one card (or none): taken out of its zone
            value, sure = self.card(w, cards.value)
            c = value if isinstance(value, Name) else w.fresh("_c")
            if c is not value:
                w.line(f"{c} = {value}")
            dest = self._zone_at(w, st.zone)
            self._need(w, st, f"(0 if {c} is None else 1)")
            if not sure:
                w.line(f"if {c} is not None:")
            with w.indent(0 if sure else 1):
                w.state_list("loc")
                found = self._unseen_test(face, dest, f"({c},)", f"loc[{c}]", st.zone)
                if found is None:
                    self._move_one(w, st, c, dest)
                    return
                g = w.fresh("_g")  # (written twice: a seat may be blind to the move, or none is)
                w.line(f"if {found[0]}:")
                with w.indent():
                    w.line(f"{g} = {found[1]}")
                    self._move_one(w, st, c, dest)
                    self._merge(w, g)
                w.line("else:")
                with w.indent():
                    self._move_one(w, st, c, dest)
            return
        if isinstance(cards, ir.ZoneCards):  # a whole zone
            pile, moving, src = w.fresh("_p"), w.fresh("_q"), w.fresh("_z")
            w.line(f"{src} = {self.x(w, cards.zone)}")
            w.line(f"{pile} = {w.of_state('zones')}[{src}]")
            dest = self._zone_at(w, st.zone)
            w.line(f"if {pile}:")
            with w.indent():
                g = self._unseen(w, face, dest, pile, src, st.zone, cards.zone)
                whole = apart(cards.zone, st.zone, self.layout.players)  # never onto itself: no copy to take
                if whole:
                    moving = pile
                else:
                    w.line(f"{moving} = {pile}[:]")
                    w.line(f"{pile}.clear()")
                w.line(f"{w.of_state('zones')}[{dest}][:0] = {moving}[::-1]" if st.bottom else f"{w.of_state('zones')}[{dest}].extend({moving})")
                w.state_list("loc")
                w.line(f"for c in {moving}:")
                w.line(f"    loc[c] = {dest}")
                self._learn(w, moving, dest, face, st.zone)
                if whole:
                    w.line(f"{pile}.clear()")
                self._merge(w, g)
            return
        moving, dest = w.fresh("_q"), w.fresh("_z")
        w.line(f"{moving} = tuple({self.x(w, cards)})")
        w.line(f"{dest} = {self.x(w, st.zone)}")
        self._need(w, st, f"len({moving})")
        w.line(f"if {moving}:")
        with w.indent():
            g = self._unseen(w, face, dest, moving)
            w.line(f"{self.c(move_cards)}(s, {moving}, {dest}, {st.bottom})")
            self._learn(w, moving, dest, face)
            self._merge(w, g)

    def _move_one(self, w, st: ir.Move, c: str, dest: str) -> None:
        """The lines moving the card in local `c` to zone `dest` (a move of one card), and who learns it."""
        face, names = st.face, self.layout.zone_names
        w.line(f"{w.of_state('zones')}[loc[{c}]].remove({c})")
        w.line(f"{w.of_state('zones')}[{dest}].insert(0, {c})" if st.bottom else f"{w.of_state('zones')}[{dest}].append({c})")
        w.line(f"loc[{c}] = {dest}")
        seen = self._seen(st.zone)
        if face is None and not self.run.quiet and seen == self.layout.all:  # (everyone sees: all know it)
            w.line(f"{w.of_state('known')}[{c}] = {seen}")
        elif face is None and not self.run.quiet and seen != 0:  # (nobody sees: nobody learns)
            w.line(f"{w.of_state('known')}[{c}] |= {self._vis(dest, st.zone)}")
        elif face == "up":
            texts = tuple(face_up_text(name, 1) for name in names)  # (the line, made once a zone)
            if not self.run.quiet:
                w.line(f"{w.of_state('known')}[{c}] = {self.layout.all}")
            w.line("if s.log is not None:")
            w.line(f"    s.fresh.append(({self.c(texts)}[{dest}], ({c},)))")

    def _zone_at(self, w, zone: ir.Expr) -> str:
        """The zone id a move goes to, worked out once: a number as it is, else into a local."""
        value = self.x(w, zone)
        if isinstance(value, Number):
            return value
        dest = w.fresh("_z")
        w.line(f"{dest} = {value}")
        return dest

    def _need(self, w, st: ir.Move, have: str) -> None:
        """`move … strictly`: with fewer cards than it names, the rule error (after the cards and the
        zone are worked out, as the reference does)."""
        if st.need is None:
            return
        need, got = w.fresh("_n"), w.fresh("_n")
        w.line(f"{need} = {self.x(w, st.need)}")
        w.line(f"{got} = {have}")
        w.line(f"if {got} < {need}:")
        w.line(f"    {self.c(steps.strict_short)}({need}, {got}, {self.c(st.span)})")

    def s_Deal(self, w, st: ir.Deal):
        n, src, targets, pile = w.fresh("_n"), w.fresh("_z"), w.fresh("_q"), w.fresh("_p")
        names, at = self.c(self.layout.zone_names, 'zone_names'), self.c(st.span)
        w.line(f"{n} = {self.x(w, st.count)}")
        w.line(f"{src} = {self.x(w, st.source)}")
        w.line(f"{targets} = tuple({self.x(w, st.dest)})")
        w.line(f"{pile} = {w.of_state('zones')}[{src}]")
        if not (isinstance(st.count, ir.Const) and isinstance(st.count.value, int) and st.count.value >= 0):
            w.line(f"if {n} is None or {n} < 0:")
            w.line(f"    {self.c(steps.bad_deal_count)}({n}, {at})")
        w.line(f"if {n} * len({targets}) > len({pile}):")
        w.line(f"    {self.c(helpers.cannot_deal)}(s, {n}, {src}, {targets}, {names}, {at})")
        # a chance source may choose the dealt cards now (runtime/steps.py `settle`); a seed never does
        w.line(f"if type(s.rng) is not int and {n} and {targets}:")
        w.line(f"    {self.c(steps.settle)}(s, {src}, {n} * len({targets}))")
        held, k = among.held(self.layout), n
        if not self.run.quiet and any(held):  # out of a hand some seat does not see: read as a move (the reference's)
            k = w.fresh("_n")
            w.line(f"if {self.c(held, 'held')}[{src}]:")
            w.line(f"    {self.c(steps.deal_from_held)}(s, {n}, {src}, {targets}, {st.face!r}, {self.c(held, 'held')}, "
                   f"{self.c(self.layout.zone_vis, 'zone_vis')}, {self.layout.all})")
            w.line(f"{k} = 0 if {self.c(held, 'held')}[{src}] else {n}")
        w.state_lists()
        if self._dealt_apart(st):  # each seat's cards at once: every k-th from the top
            dealt, got, j = w.fresh("_q"), w.fresh("_q"), w.fresh("_j")
            w.line(f"{j} = {k} * len({targets})")
            w.line(f"if {j} > 0:")
            with w.indent():
                w.line(f"{dealt} = {pile}[-{j}:]")
                w.line(f"del {pile}[-{j}:]")
                w.line(f"{dealt}.reverse()")  # (in the order they are dealt: the top first)
                w.line(f"for {j}, z in enumerate({targets}):")
                w.line(f"    {got} = {dealt}[{j}::len({targets})]")
                w.line(f"    zones[z].extend({got})")
                seen = None
                if st.face is None and not self.run.quiet:  # (who sees the zone, read once a zone)
                    seen = "add"  # (as `z` and `c`: this block's own names)
                    w.line(f"    {seen} = {self.c(self.layout.zone_vis, 'zone_vis')}[z]")
                w.line(f"    for c in {got}:")
                w.line("        loc[c] = z")
                self._dealt_known(w, st.face, seen)
        else:
            # one card at a time, each place in turn, from the top (the end of the list)
            w.line(f"for _ in range({k}):")
            w.line(f"    for z in {targets}:")
            w.line(f"        c = {pile}.pop()")
            w.line("        zones[z].append(c)")
            w.line("        loc[c] = z")
            self._dealt_known(w, st.face)
        w.line("if s.log is not None:")
        w.line(f"    {self.c(helpers.log_deal)}(s, {n}, {src}, {targets}, {names})")

    def _dealt_known(self, w, face, seen: str = None) -> None:
        """Who learns card `c` dealt to zone `z` (the lines inside the loop over the cards; `seen`,
        a local holding who sees zone `z`, if one does)."""
        if face == "up" and not self.run.quiet:
            w.line(f"        known[c] = {self.layout.all}")
        elif face is None and not self.run.quiet:
            w.line(f"        known[c] |= {seen or self.c(self.layout.zone_vis, 'zone_vis') + '[z]'}")

    def _dealt_apart(self, st: ir.Deal) -> bool:
        """Whether a deal goes to different zones, none of them the one dealt from (a zone of each
        seat of `players …`): then each seat's cards can be taken at once."""
        dest = st.dest
        return (isinstance(dest, ir.PlayerZone) and dest.many and isinstance(dest.player, ir.Players)
                and apart(st.source, dest, self.layout.players))

    def s_Shuffle(self, w, st: ir.Shuffle):
        w.line(f"{self.c(steps.shuffle_zone)}(s, ({self.x(w, st.zone)}), {self.c(self.layout.zone_vis, 'zone_vis')}, "
               f"{self.c(self.layout.zone_names, 'zone_names')})")

    def s_SwapZones(self, w, st: ir.SwapZones):
        a, b = w.fresh("_z"), w.fresh("_z")
        w.line(f"{a}, {b} = ({self.x(w, st.left)}), ({self.x(w, st.right)})")
        w.state_lists()
        w.line(f"zones[{a}], zones[{b}] = zones[{b}], zones[{a}]")
        w.line(f"for z in ({a}, {b}):")
        w.line(f"    add = {self.c(self.layout.zone_vis, 'zone_vis')}[z]")
        w.line("    for c in zones[z]:")
        w.line("        loc[c] = z")
        if not self.run.quiet:
            w.line("        known[c] |= add")

    def s_SwapCards(self, w, st: ir.SwapCards):
        a, b = w.fresh("_c"), w.fresh("_c")
        vis = self.c(self.layout.zone_vis, 'zone_vis')
        w.line(f"{a}, {b} = ({self.x(w, st.left)}), ({self.x(w, st.right)})")
        w.line(f"if {a} is None or {b} is None:")
        w.line(f"    {self.c(helpers.swap_none)}({self.c(st.span)})")
        w.state_lists()
        w.line(f"za, zb = loc[{a}], loc[{b}]")
        held = among.held(self.layout)
        g = w.fresh("_g") if not self.run.quiet and any(held) else ""
        if g:  # (each card, as if moved to the other's place: runtime/among.py)
            w.line(f"{g} = {self.c(among.before_swap)}(s, {a}, {b}, {self.c(held, 'held')}, {vis})")
        w.line(f"ia, ib = zones[za].index({a}), zones[zb].index({b})")
        w.line(f"zones[za][ia], zones[zb][ib] = {b}, {a}")
        w.line(f"loc[{a}], loc[{b}] = zb, za")
        if not self.run.quiet:
            w.line(f"known[{a}] |= {vis}[zb]")
            w.line(f"known[{b}] |= {vis}[za]")
        self._merge(w, g)
        if self.program.ir.group_slot is not None:  # (each card in the other's group: runtime/groups.py)
            w.line(f"{self.c(zone_groups.swap)}(s, {self.program.ir.group_slot}, {a}, {b})")

    def s_Lay(self, w, st: ir.Lay):
        joins = f"({self.x(w, st.joins)})" if st.joins is not None else "None"
        w.line(f"{self.c(zone_groups.lay)}(s, {st.slot}, {self.x(w, st.cards)}, {self.x(w, st.zone)}, {joins}, "
               f"{st.joins is not None}, {self.c(st.span)})")

    def s_Reveal(self, w, st: ir.Reveal):
        shown = w.fresh("_q")
        w.line(f"{shown} = tuple({self.x(w, st.cards)})")
        reveal = self.c(helpers.reveal)
        owners = self.c(self.layout.zone_owner, 'zone_owner')
        if self.run.quiet:  # (a quiet state: no log either, and nobody's knowledge kept)
            if st.to is not None:
                w.line(f"tuple({self.x(w, st.to)})")  # (worked out all the same: it may draw)
            return
        if st.to is None:  # shown to all, without a log: only who knows the cards changes
            w.line("if s.log is None:")
            w.line("    known = s.known")
            w.line(f"    for c in {shown}:")
            w.line(f"        known[c] |= {self.layout.all}")
            w.line("else:")
            w.line(f"    {reveal}(s, {shown}, None, {self.layout.all}, {owners})")
        else:
            w.line(f"{reveal}(s, {shown}, tuple({self.x(w, st.to)}), {self.layout.all}, {owners})")

    def s_Hide(self, w, st: ir.Hide):
        w.line("if s.fresh:")
        w.line(f"    {self.c(flush)}(s)")  # a card shown before it is hidden stays shown in the log
        if self.run.quiet:
            w.line(f"{self.x(w, st.cards)}")  # (worked out all the same: it may draw)
            return
        w.line(f"for c in {self.x(w, st.cards)}:")
        w.line("    if s.among is not None:")  # (what a seat tracked of it: runtime/among.py)
        w.line(f"        {self.c(among.forget)}(s, (c,), {self.c(self.layout.zone_vis, 'zone_vis')}[s.loc[c]])")
        w.line(f"    s.known[c] = {self.c(self.layout.zone_vis, 'zone_vis')}[s.loc[c]]")
        if self.layout.facts is not None:
            w.line(f"    {self.c(facts.clear)}(s, (c,))")

    # -- finer knowledge: the runtime's helpers (runtime/facts.py), in the reference's order
    def s_TellFace(self, w, st: ir.TellFace):
        w.line(f"{self.c(facts.tell_face)}(s, {self.c(self.layout.facts)}, tuple({self.x(w, st.to)}), "
               f"({self.x(w, st.card)}), {st.kind!r}, {self.c(st.span)})")

    def s_TellWhich(self, w, st: ir.TellWhich):
        w.line(f"{self.c(facts.tell_which)}(s, {self.c(self.layout.facts)}, tuple({self.x(w, st.to)}), "
               f"tuple({self.x(w, st.cards)}), {st.kind!r}, ({self.x(w, st.value)}), {self.c(st.span)})")

    def s_ForgetOrder(self, w, st: ir.ForgetOrder):
        w.line(f"{self.c(facts.forget_order)}(s, ({self.x(w, st.zone)}), {self.c(self.layout.zone_vis, 'zone_vis')})")

    def s_Conceal(self, w, st: ir.Conceal):  # (a pick made at once, moved face down)
        w.line(f"{self.c(conceal)}(s, {self.x(w, st.cards)}, {self.x(w, st.player)}, {self.c(self.layout.zone_vis, 'zone_vis')})")

    def s_Announce(self, w, st: ir.Announce):
        # its parts and its speaker are worked out whether or not a log shows the text (what they
        # break or draw must not depend on who reads it); the text is put together only for a log
        values = self.parts(w, st.text)
        speaker = "None"
        if st.speaker is not None:
            speaker = w.fresh("_p")
            w.line(f"{speaker} = {self.x(w, st.speaker)}")
        w.line("if s.log is not None:")
        with w.indent():
            w.line(f"{self.c(helpers.announce)}(s, {self.text(w, st.text, values)}, {speaker}, {st.speaker is not None})")

    def s_Eliminate(self, w, st: ir.Eliminate):
        p = w.fresh("_p")
        w.line(f"{p} = {self.x(w, st.player)}")
        if st.sitting is not None:  # a seat sitting out the round is now out for good
            w.line(f"{self.c(seats.leave_sitting)}(s, {p}, {w.index(st.sitting)})")
        w.line(f"if s.active[{p}]:")
        w.line(f"    s.active[{p}] = False")
        w.line("    if s.log is not None:")
        w.line(f"        {self.c(helpers.eliminated)}(s, {p})")
        w.seat_changed(out=True)  # (out now, whether or not it was before)

    def s_SitOut(self, w, st: ir.SitOut):
        w.line(f"{self.c(seats.sit_out)}(s, {self.x(w, st.player)}, {w.index(st.sitting)})")
        w.seat_changed(out=True)

    def s_ReverseDirection(self, w, st: ir.ReverseDirection):
        w.line(f"{self.c(seats.reverse)}(s, {w.index(st.slot)})")

    def s_SetDirection(self, w, st: ir.SetDirection):
        w.line(f"{self.c(seats.set_direction)}(s, {w.index(st.slot)}, {st.reversed}, {self.c(st.direction)})")

    # ------------------------------------------------------------- pots and betting
    def s_PotRule(self, w, st: ir.PotRule):
        args = "".join(f", {self.x(w, a)}" for a in st.args)
        k = self.bet_points.get(id(st)) if self.counting else None
        if k is not None:  # coverage's twin counts the betting round's parts (runtime/bet_counts.py)
            w.line(f"{self.c(bet_counts.COUNTED[st.what])}({self.c(self.hits, 'hits')}, {k}, s, {self.c(st.pot)}{args})")
            return
        w.line(f"{self.c(pots.RULES[st.what])}(s, {self.c(st.pot)}{args})")

    def s_PotAward(self, w, st: ir.PotAward):
        anchor, value, q, ps = w.fresh("_a"), w.fresh("_w"), w.fresh("_p"), w.fresh("_q")
        w.line(f"{anchor} = {self.x(w, st.anchor) if st.anchor is not None else 'None'}")
        w.line(f"{value} = {{}}")
        w.line(f"{ps} = {self.c(pots.contenders)}(s, {self.c(st.pot)})")
        w.line(f"for {q} in ({ps} if len({ps}) > 1 else ()):")  # a lone contender takes it all: no showdown
        with w.indent():
            w.line(f"{w.place(st.slot)} = {q}")
            with w.holding(st.slot, None):
                w.line(f"{value}[{q}] = {self.x(w, st.value)}")
        w.line(f"{self.c(pots.award)}(s, {self.c(st.pot)}, {anchor}, {value}, {st.lowest})")

    # ------------------------------------------------- control, as one function
    def _spend(self, w, span, steps: str = "1") -> None:
        """A pass of a `while` or a `repeat`, or a phase played, spends a step of the run's budget;
        a `for each` a step for each of its items (`steps`), when it begins."""
        left = w.fresh("_b")  # (a local read back: cheaper than the state's attribute again)
        w.line(f"s.steps = {left} = s.steps - {steps}")
        w.line(f"if {left} < 0: {self.c(loops_forever)}({self.c(span)}, s)")  # (one line: see `Emitter.goto`)

    def s_If(self, w, st: ir.If):
        points = self.branch_points.get(id(st), [None] * (len(st.branches) + 1))
        for i, (cond, body) in enumerate(st.branches):
            w.line((f"if {self.first(w, cond)}:" if i == 0 else f"elif {self.x(w, cond)}:"))
            with w.indent():
                self.count(w, points[i])
                self.block(w, body)
        if st.orelse:
            w.line("else:")
            with w.indent():
                self.count(w, points[-1])
                self.block(w, st.orelse)

    def held(self, w, slot, local, body):
        """Inside, `body` reads slot `slot` from `local` when pasting and nothing in it sets the slot."""
        if self.options.paste and local is not None and slot is not None and not writes(body, slot):
            return w.holding(slot, local)
        return contextlib.nullcontext()

    def s_ForEach(self, w, st: ir.ForEach):
        seq, x = w.fresh("_q"), w.local_for(st.slot)
        kept = not self.unkept(st)
        w.line(f"{w.place(st.seq_slot) + ' = ' if kept else ''}{seq} = {self.items(w, st.seq)}")
        self._spend(w, st.span, f"len({seq})")  # a step an item, all at once (loops in loops multiply)
        w.line(f"for {x} in {seq}:")
        with w.indent():
            if kept:
                w.line(f"{w.place(st.slot)} = {x}")
            self.skip_unless_where(w, st, x)
            with self.held(w, st.slot, x, st.body):
                self.block(w, st.body)

    def unkept(self, st: ir.ForEach) -> bool:
        """Whether a `for each` keeps neither its items nor its item in their slots: nothing reads them
        there when it runs whole (no decision inside: no copy, no label, no op goes on from its
        place), its item is held in a local its body reads (pasting), and no expression of the body
        is a function of its own that reads the state's slots (`best … by`)."""
        return (self.options.paste and straight(st) and not writes(st.body, st.slot)
                and not reads_apart(st.body) and (st.where is None or not reads_apart(st.where)))

    def skip_unless_where(self, w, loop, x: str):
        """In the body of `for each` (`loop`), its item in local `x`: the next item unless the
        loop's `where` holds of this one (read from `x` where locals are pasted, else from its slot)."""
        if loop.where is not None:
            with w.holding(loop.slot, x if self.options.paste else None):
                w.line(f"if not ({self.x(w, loop.where)}):")
            w.line("    continue")

    def s_Repeat(self, w, st: ir.Repeat):
        self.repeat_in(w, st, w.fresh("_n"))

    def repeat_in(self, w, st: ir.Repeat, left: str):
        """`repeat`, its passes left counted down in `left` (a local, or a frame's slot)."""
        w.line(f"{left} = {self.x(w, st.count)}")
        w.line(f"while {left} > 0:")
        with w.indent():
            w.line(f"{left} -= 1")
            self._spend(w, st.span)
            self.block(w, st.body)

    def s_While(self, w, st: ir.While):
        cond = self.x(w, st.cond)
        w.line(f"while {'not ' if st.negate else ''}({cond}):")
        with w.indent():
            self._spend(w, st.span)
            self.block(w, st.body)

