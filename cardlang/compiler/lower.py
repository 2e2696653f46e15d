"""Stage 3, lower: the checked AST and its symbols become the IR (`compiler.ir`) for one player
count and one set of options, over the state layout both engines share (`compiler.layout`).

`choose` and its alternatives are lowered in `lower_choices.py`, pots and betting in `lower_pots.py`
(mixins of `Lowerer`)."""

from __future__ import annotations

from typing import Optional

import attrs

from ..lang import ast, statements
from ..lang.check_melds import COMBINATIONS
from ..lang.check import CARD, CARDS, LIST, NUMBER, PLAYER, PLAYERS, RANK, SUIT, TEXT, ZONE, ZONES, Symbols
from ..lang.types import ANY, RANKS, TEAM, declared, item_of
from . import ir
from .layout import Layout
from .lower_choices import ChoiceLowering
from .lower_pots import PotLowering

_SEQUENCE_TYPES = (CARDS, ZONE, CARD, PLAYERS, LIST)


class Lowerer(ChoiceLowering, PotLowering):
    """Lowers one game: names resolve to slots, zone ids and constants; phases are linked."""

    def __init__(self, symbols: Symbols, players: int, options: dict, layout: Optional[Layout]):
        self.sym = symbols
        self.types = symbols.types
        self.n = players
        self.options = options
        self.layout = layout
        self.deck = layout.deck if layout is not None else None
        self.nslots = layout.nslots if layout is not None else 0
        self.card_slots = list(layout.card_slots) if layout is not None else []
        self.cards_slots = list(layout.cards_slots) if layout is not None else []
        globals_ = {name: slot for name, (slot, _) in layout.var_slots.items()} if layout is not None else {}
        self.scopes: list = [globals_]
        self.phases: dict = {}
        self.choices: list = []
        self.at_once: list = []  # an `ir.AtOnce` for each choice made at once
        self.slot_names: dict = {}  # slot of a local -> the rule's name for it (`ir.Program.slot_names`)
        self.group_slot: Optional[int] = None  # the groups of the zones of groups (`program` sets it)

    def slot(self, type_: Optional[str] = None, name: Optional[str] = None) -> int:
        """A new slot of `state.v` for a local (`name`: what the rule calls it, for a reader of
        generated code); card-valued ones are recorded for determinization."""
        s = self.nslots
        self.nslots += 1
        if name is not None:
            self.slot_names[s] = name
        if type_ == CARD:
            self.card_slots.append(s)
        elif type_ == CARDS:
            self.cards_slots.append(s)
        return s

    def type(self, e) -> Optional[str]:
        return self.types.get(id(e))

    # ------------------------------------------------------------------ program
    def program(self) -> ir.Program:
        """The whole game."""
        s, layout = self.sym, self.layout
        self.sitting = self.state_slot(lambda st: isinstance(st, ast.Eliminate) and st.for_round, "sitting_out")
        self.reverse = self.state_slot(lambda st: isinstance(st, (ast.Reverse, ast.SetDirection)), "reversed")
        self.passes = self.state_slot(lambda st: isinstance(st, ast.Passes), "passes_in_a_row")
        self.group_slot = self.slot(name="groups") if s.group_zones else None  # (runtime/groups.py)
        var_inits = [(layout.var_slots[name][0], False, self.as_type(sym.decl.value, sym.type))
                     for name, sym in s.vars.items()]
        var_inits += [(layout.pvar_slots[name][0], True, self.as_type(sym.decl.value, sym.type))
                      for name, sym in s.pvars.items()]
        var_inits += self.pot_inits()
        if self.passes is not None:  # (no pass yet)
            var_inits.append((self.passes, False, ir.Const(s.round.span, 0)))
        var_inits += [(layout.tvar_slots[name][0] + k, False, self.as_type(sym.decl.value, sym.type))
                      for name, sym in s.tvars.items() for k in range(len(layout.teams))]
        score = None
        if s.score is not None:
            slot = self.slot(name=s.score.var)
            score = (slot, self.seat_value(s.score, slot))
        for name, d in s.phases.items():
            self.phases[name] = ir.Phase(d.span, name, tuple(self.slot(prm.type, prm.name) for prm in d.params))
        setup = self.block(s.setup.body) if s.setup is not None else ()
        round_ = self.block(s.round.body)
        for name, d in s.phases.items():
            phase = self.phases[name]
            self.scopes.append(dict(zip((prm.name for prm in d.params), phase.slots)))
            phase.body = self.block(d.body)
            self.scopes.pop()
        payoff = self.payoff()
        return ir.Program(setup, round_, s.round.span, self.phases, self.choices, var_inits, score, self.nslots,
                          tuple(self.card_slots), tuple(self.cards_slots), payoff, self.sitting,
                          self.reverse, tuple(self.at_once), self.slot_names, self.group_slot)

    def payoff(self) -> Optional[ir.Payoff]:
        """The game's payoff (`payoff of p: …`, `shared payoff: …`), or None when it declares none."""
        d = self.sym.payoff
        if d is None:
            return None
        if d.var is None:
            return ir.Payoff(d.span, None, self.expr(d.value), d.zero_sum, d.shared)
        slot = self.slot(name=d.var)
        return ir.Payoff(d.span, slot, self.seat_value(d, slot), d.zero_sum, d.shared)

    def seat_value(self, d, slot: int) -> ir.Expr:
        """A score's or payoff's value for the seat in `slot`: of its team, for `… of team t`
        (`t` is the seat's team, in a slot of its own)."""
        if not getattr(d, "team", False):
            self.scopes.append({d.var: slot})
            value = self.expr(d.value)
            self.scopes.pop()
            return value
        team = self.slot(name=d.var)
        self.scopes.append({d.var: team})
        value = self.expr(d.value)
        self.scopes.pop()
        seat = ir.Slot(d.span, slot)
        return ir.DefineCall(d.span, "team", (team,), (ir.TeamTable(d.span, "team", self.layout.team_of, seat),), value)

    # --------------------------------------------------------------- statements
    def block(self, stmts) -> tuple:
        self.scopes.append({})
        out = []
        for st in stmts:
            lowered = getattr(self, "s_" + type(st).__name__)(st)
            if isinstance(lowered, tuple):  # a statement lowered to several
                out.extend(lowered)
            elif lowered is not None:
                out.append(lowered)
        self.scopes.pop()
        return tuple(out)

    def s_Pass(self, st):
        return None

    def s_Passes(self, st: ast.Passes):
        """`p passes`: one more pass in a row (`p` says who for the reader: the decision records it)."""
        return ir.Increase(st.span, ir.SlotTarget(self.passes), ir.Const(st.span, 1))

    def x_EveryonePassed(self, e: ast.EveryonePassed):
        """`everyone else passed`: the passes in a row are at least the players in play less one."""
        span = e.span
        others = ir.Arith(span, "-", ir.Builtin(span, "count", (ir.Players(span, None, None, self.reverse),)),
                          ir.Const(span, 1))
        return ir.Compare(span, ">=", ir.Slot(span, self.passes), others)

    def target(self, t: ast.Target):
        if t.kind == "name":
            return ir.SlotTarget(self.lookup(t.name))
        if t.kind == "player":
            return ir.PlayerVarTarget(self.var_base(t.name), self.expr(t.key))
        if t.kind == "player item":
            return ir.PlayerItemTarget(self.var_base(t.name), self.expr(t.key), self.expr(t.index), t.span)
        return ir.ItemTarget(self.lookup(t.name), self.expr(t.key), t.span)

    def s_Set(self, st: ast.Set):
        return ir.Assign(st.span, self.target(st.target), self.as_type(st.value, self._holds(st.target)))

    def _holds(self, t: ast.Target) -> Optional[str]:
        """The declared type of what a target writes (None for a local: it holds what it was given)."""
        if t.kind in ("player", "player item"):
            held = (self.sym.pvars.get(t.name) or self.sym.tvars[t.name]).type
            return held if t.kind == "player" else None
        if t.kind == "name" and self.lookup(t.name) is not None and t.name in self.sym.vars \
                and self.lookup(t.name) == self.scopes[0].get(t.name):
            return self.sym.vars[t.name].type
        return None

    def s_Let(self, st: ast.Let):
        value = self.expr(st.value)
        slot = self.slot(self.type(st.value), st.name)
        self.scopes[-1][st.name] = slot
        return ir.Assign(st.span, ir.SlotTarget(slot), value)

    def s_Add(self, st: ast.Add):
        amount = self.expr(st.amount)
        if st.op == "-":
            amount = ir.Negate(st.amount.span, amount)
        return ir.Increase(st.span, self.target(st.target), amount)

    def s_Move(self, st: ast.Move):
        if isinstance(st.cards, ast.AllCards):
            cards = ir.Const(st.cards.span, tuple(range(self.deck.size)))
        else:
            cards = self.cards(st.cards)
        need, before = None, ()
        if st.strict and isinstance(st.cards, ast.EndCard) and st.cards.count is not None:
            # the count is worked out once, into a slot that both the cards and the check read
            slot = self.slot(NUMBER, "count")
            before = (ir.Assign(st.cards.count.span, ir.SlotTarget(slot), self.expr(st.cards.count)),)
            cards = attrs.evolve(cards, count=ir.Slot(st.cards.count.span, slot))
            need = ir.Slot(st.cards.count.span, slot)
        elif st.strict and self.type(st.cards) == CARD:
            need = ir.Const(st.span, 1)
        move = ir.Move(st.span, cards, self.expr(st.zone), st.place == "under", st.facing, need)
        return before + (move,) if before else move

    def s_Lay(self, st: ast.Lay):
        """`lay cards to zone [with card]`: the cards worked out once, then their group (`ir.Lay`),
        then the move face up; the zone is worked out once too where it could differ (`random`)."""
        sp = st.span
        cards = self.slot(CARDS, "laid")
        zone = self.expr(st.zone)
        before = [ir.Assign(sp, ir.SlotTarget(cards), self.cards(st.cards))]
        index = (zone.player if isinstance(zone, ir.PlayerZone) else zone.index if isinstance(zone, ir.PileZone)
                 else zone)
        if not isinstance(index, (ir.Const, ir.Slot)):
            place = self.slot(name="lay_to")
            before.append(ir.Assign(sp, ir.SlotTarget(place), zone))
            zone = ir.Slot(sp, place)
        joins = self.expr(st.joins) if st.joins is not None else None
        return (*before, ir.Lay(sp, ir.Slot(sp, cards), zone, joins, self.group_slot),
                ir.Move(sp, ir.Slot(sp, cards), zone, False, "up"))

    def s_Deal(self, st: ast.Deal):
        dest = self.expr(st.dest)
        if self.type(st.dest) != ZONES:
            dest = ir.Tuple(st.dest.span, (dest,))
        if st.count is None:
            return self.deal_all(st, dest)
        return ir.Deal(st.span, self.expr(st.count), self.expr(st.source), dest, st.facing)

    def deal_all(self, st: ast.Deal, dest) -> tuple:
        """`deal all from z to zones`: as many whole rounds as the cards make, then one card to each of
        the first places while cards are left (the source and the places worked out once)."""
        sp = st.span
        src_slot, dest_slot = self.slot(name="deal_all_from"), self.slot(name="deal_all_to")
        src, places = ir.Slot(sp, src_slot), ir.Slot(sp, dest_slot)
        left = ir.Builtin(sp, "count", (ir.ZoneCards(sp, src),))
        n = ir.Builtin(sp, "count", (places,))
        rounds = ir.Conditional(sp, ir.Compare(sp, ">", n, ir.Const(sp, 0)), ir.Arith(sp, "/", left, n), ir.Const(sp, 0))
        return (ir.Assign(sp, ir.SlotTarget(src_slot), self.expr(st.source)),
                ir.Assign(sp, ir.SlotTarget(dest_slot), dest),
                ir.Deal(sp, rounds, src, places, st.facing),
                ir.Deal(sp, ir.Const(sp, 1), src, ir.EndCards(sp, True, places, left, True), st.facing))

    def s_Shuffle(self, st: ast.Shuffle):
        return ir.Shuffle(st.span, self.expr(st.zone))

    def s_Swap(self, st: ast.Swap):
        kind = ir.SwapZones if self.type(st.left) == ZONE else ir.SwapCards
        return kind(st.span, self.expr(st.left), self.expr(st.right))

    def s_Reveal(self, st: ast.Reveal):
        to = self.seq(st.to) if st.to is not None else None
        return ir.Reveal(st.span, self.cards(st.cards), to)

    def s_Hide(self, st: ast.Hide):
        return ir.Hide(st.span, self.cards(st.cards))

    # finer knowledge (runtime/facts.py)
    def s_TellFace(self, st: ast.TellFace):
        return ir.TellFace(st.span, self.seq(st.to), st.kind, self.expr(st.card))

    def s_TellWhich(self, st: ast.TellWhich):
        kind = "rank" if self.type(st.value) == RANK else "suit"
        value = (ir.Const(st.value.span, self._index("rank", str(st.value.value))) if isinstance(st.value, ast.Number)
                 else self.expr(st.value))  # (`are 5`: the rank written as a number)
        return ir.TellWhich(st.span, self.seq(st.to), self.cards(st.cards), kind, value)

    def s_ForgetOrder(self, st: ast.ForgetOrder):
        return ir.ForgetOrder(st.span, self.expr(st.zone))

    def s_Announce(self, st: ast.Announce):
        speaker = self.expr(st.speaker) if st.speaker is not None else None
        return ir.Announce(st.span, self.text(st.text), speaker)

    def s_Eliminate(self, st: ast.Eliminate):
        if st.for_round:
            return ir.SitOut(st.span, self.expr(st.player), self.sitting)
        return ir.Eliminate(st.span, self.expr(st.player), self.sitting)

    def state_slot(self, wanted, name: str) -> Optional[int]:
        """A slot for what some statement of the game may change (the seats sitting out, the
        direction reversed), when `wanted(statement)` holds for one of them; None otherwise."""
        def uses(stmts) -> bool:
            return any(wanted(st) or any(uses(b) for b in statements.child_blocks(st)) for st in stmts)
        s = self.sym
        blocks = [b for b in (s.setup, s.round, *s.phases.values()) if b is not None]
        return self.slot(name=name) if any(uses(b.body) for b in blocks) else None

    def s_Reverse(self, st: ast.Reverse):
        return ir.ReverseDirection(st.span, self.reverse)

    def s_SetDirection(self, st: ast.SetDirection):
        return ir.SetDirection(st.span, self.reverse, st.direction != self.sym.direction, st.direction)

    def s_EndGame(self, st: ast.EndGame):
        if st.winners is None:
            return ir.EndGame(st.span, self.score_winners(st.span))
        return ir.EndGame(st.span, self.seq(st.winners))

    def score_winners(self, span) -> Optional[ir.BestScorers]:
        """Who wins a game that ends without naming its winners: those the score decides when it says
        `highest wins` or `lowest wins` (else nobody: None)."""
        d = self.sym.score
        if d is None or d.order is None:
            return None
        slot = self.slot(name=d.var)
        value = self.seat_value(d, slot)
        return ir.BestScorers(span, slot, value, d.order == "lowest", getattr(self, "sitting", None), d.among_seats)

    def s_EndRound(self, st: ast.EndRound):
        return ir.EndRound(st.span)

    def s_CallPhase(self, st: ast.CallPhase):
        if isinstance(st.expr, ast.Text):  # a line of rule text: the checker warns (W003); it does nothing
            return None
        params = self.sym.phases[st.name].params
        return ir.CallPhase(st.span, self.phases[st.name],
                            tuple(self.as_type(a, prm.type or PLAYER) for a, prm in zip(st.args, params)))

    def s_If(self, st: ast.If):
        branches = tuple((self.expr(cond), self.block(body)) for cond, body in st.branches)
        return ir.If(st.span, branches, self.block(st.orelse))

    def s_ForEach(self, st: ast.ForEach):
        seq = self.seq(st.source)
        item = CARD if self.type(st.source) in (ZONE, CARD, CARDS) else None
        seq_slot = self.slot(CARDS if item == CARD else None, f"{st.var}_items")
        slot = self.slot(item, st.var)
        self.scopes.append({st.var: slot})
        where = self.expr(st.where) if st.where is not None else None
        body = self.block(st.body)
        self.scopes.pop()
        return ir.ForEach(st.span, slot, seq_slot, seq, where, body)

    def s_Break(self, st: ast.Break):
        return ir.Break(st.span)

    def s_Repeat(self, st: ast.Repeat):
        return ir.Repeat(st.span, self.expr(st.count), self.block(st.body))

    def s_While(self, st: ast.While):
        return ir.While(st.span, self.expr(st.cond), self.block(st.body), st.negate)

    # -------------------------------------------------------------- expressions
    def expr(self, e) -> ir.Expr:
        return getattr(self, "x_" + type(e).__name__)(e)

    def lookup(self, name: str) -> Optional[int]:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return None

    def x_Number(self, e):
        return ir.Const(e.span, e.value)

    def x_Bool(self, e):
        return ir.Const(e.span, e.value)

    def x_NoneLit(self, e):
        return ir.Const(e.span, None)

    def x_Text(self, e):
        return self.text(e)

    def x_Name(self, e: ast.Name):
        slot = self.lookup(e.name)
        if isinstance(slot, ir.Const):  # a pile's number inside its own alternative's filter or label
            return slot
        if slot is not None:
            return ir.Slot(e.span, slot)
        sym = self.sym.table[e.name]
        if sym.kind == "option":
            return ir.Const(e.span, self.options[e.name])
        if sym.kind == "const":
            return ir.Const(e.span, self.n)
        if sym.kind == "zone":
            return ir.Const(e.span, self.layout.zone_families[e.name][0])
        if sym.kind in ("rank", "suit"):
            return ir.Const(e.span, self._index(sym.kind, e.name))
        if sym.kind == "colour":  # `red`, `black`: as `colour(x)` answers
            return ir.Const(e.span, e.name)
        if sym.kind == "value":  # a declared value: its place in its list
            return ir.Const(e.span, [n for n, _ in sym.decl.items].index(e.name))
        if sym.kind == "pot":  # the chips in a pot
            return self.pot_value(e.span, e.name, "total")
        if sym.kind == "define":  # `best` for `define best = …`
            return self._define_call(e.span, e.name, sym.decl, ())
        raise AssertionError(e.name)  # pragma: no cover - the checker resolved every name

    def _index(self, kind: str, name: str) -> int:
        """A rank's or suit's index in the deck (-2, which no card has, if the deck lacks it)."""
        names = () if self.deck is None else self.deck.ranks if kind == "rank" else self.deck.suits
        return names.index(name) if name in names else -2

    def x_ListExpr(self, e):
        if self.type(e) == CARDS and any(self.type(i) == CARDS for i in e.items):  # literals with copies
            out = self.cards(e.items[0])
            for item in e.items[1:]:
                out = ir.Concat(e.span, out, self.cards(item))
            return out
        if self.type(e) == RANKS:  # `[A, 2, …, K]`: a number there is the rank written so
            return ir.Tuple(e.span, tuple(ir.Const(i.span, self._index("rank", str(i.value))) if isinstance(i, ast.Number)
                                          else self.expr(i) for i in e.items))
        return ir.Tuple(e.span, tuple(self.expr(i) for i in e.items))

    def x_CardLit(self, e: ast.CardLit):
        """`Q of spades`: the card (none if this deck lacks it), or the cards of the face with copies."""
        ids = self.deck.card_ids(f"{e.rank} of {e.suit}")
        if self.type(e) == CARD:
            return ir.Const(e.span, ids[0] if ids else None)
        return ir.Const(e.span, ids)

    def _face(self, e: ast.CardLit) -> ir.Const:
        """The face index of a literal, for a test of a card's face (-2, which no card has, if none)."""
        ids = self.deck.card_ids(f"{e.rank} of {e.suit}")
        return ir.Const(e.span, self.deck.card_face[ids[0]] if ids else -2)

    def x_Index(self, e: ast.Index):
        return ir.Index(e.span, self.seq(e.base), self.expr(e.index))

    def x_Unary(self, e: ast.Unary):
        return (ir.Negate if e.op == "-" else ir.Not)(e.span, self.expr(e.operand))

    def x_Conditional(self, e: ast.Conditional):
        t = self.type(e)  # both sides as the checker typed the whole (a zone beside cards is its cards)
        return ir.Conditional(e.span, self.expr(e.cond), self.as_type(e.then, t), self.as_type(e.otherwise, t))

    def x_Binary(self, e: ast.Binary):
        op, span = e.op, e.span
        lt, rt = self.type(e.left), self.type(e.right)
        if op in ("and", "or"):
            return (ir.And if op == "and" else ir.Or)(span, self.expr(e.left), self.expr(e.right))
        # "empty": `[]`, or a variable it started as; `list of kind`: a list of declared values
        if op == "+" and (lt in _SEQUENCE_TYPES or lt == "empty" or item_of(lt)):
            cards = lt in (ZONE, CARD, CARDS) or (lt == "empty" and self.type(e) == CARDS)
            left = self.cards(e.left) if cards else self.expr(e.left)
            right = self.cards(e.right) if cards else self.seq(e.right)
            return ir.Concat(span, left, right)
        if op in ("is", "is not", "has"):
            return self._pattern(e)
        if op in ("==", "!=") and (isinstance(e.left, ast.CardLit) or isinstance(e.right, ast.CardLit)):
            lit, other = (e.left, e.right) if isinstance(e.left, ast.CardLit) else (e.right, e.left)
            return ir.Is(span, self.expr(other), self._face(lit), "face", op == "!=")
        if op == "in" and isinstance(e.left, ast.CardLit):
            return ir.Has(span, self.cards(e.right), self._face(e.left), "face")
        if op == "in":
            return ir.In(span, self.expr(e.left), self.seq(e.right))
        if op == "except":
            many = rt in (CARDS, PLAYERS, LIST, ZONE, "empty") or bool(item_of(rt))
            return ir.Except(span, self.seq(e.left), self.seq(e.right) if many else self.expr(e.right), many)
        if op == "+" and lt == TEXT:
            return ir.JoinText(span, self.expr(e.left), self.expr(e.right))
        if op in ("+", "-", "*", "/", "%"):
            return ir.Arith(span, op, self.expr(e.left), self.expr(e.right))
        return ir.Compare(span, op, self.expr(e.left), self.expr(e.right))

    def _pattern(self, e: ast.Binary):
        """`card is K`, `card is hearts`, `x is none`, `zone has K`, `zone has trump`."""
        pattern = e.right
        pt = self.type(pattern)
        if isinstance(pattern, ast.Number):
            test, table = ir.Const(pattern.span, self._index("rank", str(pattern.value))), "rank"
        elif isinstance(pattern, ast.CardLit):
            test, table = self._face(pattern), "face"
        else:
            test, table = self.expr(pattern), "rank" if pt == RANK else "suit" if pt == SUIT else None
        if e.op == "has":
            return ir.Has(e.span, self.cards(e.left), test, table)
        if isinstance(pattern, ast.NoneLit) or self.type(e.left) in (RANK, SUIT):
            table = None  # a rank or a suit is compared as it is
        return ir.Is(e.span, self.expr(e.left), test, table, e.op == "is not")

    def x_Neighbour(self, e: ast.Neighbour):
        step = {"left": 1, "right": -1, "next": self.layout.step}[e.side]
        reverse = getattr(self, "reverse", None) if e.side == "next" else None
        return ir.Neighbour(e.span, step, self.expr(e.player), reverse)

    def x_EndCard(self, e: ast.EndCard):
        players = self.type(e.zone) in (PLAYERS, TEAM)
        seq = self.seq(e.zone) if players else self.cards(e.zone)
        count = self.expr(e.count) if e.count is not None else None
        return ir.EndCards(e.span, e.end == "top", seq, count, players)

    def x_Players(self, e: ast.Players):
        start = self.expr(e.start) if e.start is not None else None
        stop = self.expr(e.stop) if e.stop is not None else None
        return ir.Players(e.span, start, stop, getattr(self, "reverse", None))

    def x_Seats(self, e):
        return ir.Const(e.span, tuple(range(self.n)))

    def x_GroupOf(self, e: ast.GroupOf):
        layout = self.layout
        zones = frozenset(layout.zone_families[name][0] + k for name in sorted(self.sym.group_zones)
                          for k in range(layout.players if layout.zone_families[name][1]
                                         else layout.zone_counts.get(name, 1)))
        return ir.GroupOf(e.span, self.expr(e.card), self.group_slot, zones)

    def x_FaceUp(self, e: ast.FaceUp):
        return ir.FaceUp(e.span, self.expr(e.card))

    def x_PositionOf(self, e: ast.PositionOf):
        return ir.PositionOf(e.span, self.expr(e.card), self.cards(e.zone))

    def x_Range(self, e: ast.Range):
        return ir.Range(e.span, self.expr(e.low), self.expr(e.high))

    def x_PilesOf(self, e: ast.PilesOf):
        return ir.Const(e.span, tuple(range(1, self.layout.zone_counts[e.family] + 1)))

    def x_AllCards(self, e):
        return ir.Const(e.span, tuple(range(self.deck.size)))

    def x_Aggregate(self, e: ast.Aggregate):
        seq = self.seq(e.source)
        slot = self.slot(CARD if self.type(e.source) in (ZONE, CARD, CARDS) else None, e.var)
        self.scopes.append({e.var: slot})
        body = self.expr(e.body) if e.body is not None else None
        where = self.expr(e.where) if e.where is not None else None
        self.scopes.pop()
        return ir.Aggregate(e.span, e.kind, slot, seq, body, where)

    def x_Call(self, e: ast.Call):
        name, args, span = e.func, e.args, e.span
        sym = self.sym.table.get(name + "()") or self.sym.table.get(name)
        if sym is None or sym.kind == "value":  # (a value is never called: `suit(c)` is the builtin)
            return self._builtin(e)
        if sym.kind == "pzone":
            base = self.layout.zone_families[name][0]
            many = self.type(args[0]) in (PLAYERS, TEAM)
            return ir.PlayerZone(span, base, self.seq(args[0]) if many else self.expr(args[0]), many)
        if sym.kind == "nzone":
            base = self.layout.zone_families[name][0]
            return ir.PileZone(span, name, base, self.layout.zone_counts[name], self.expr(args[0]))
        if sym.kind in ("pvar", "tvar"):  # a team's variable: the slot of its team, as a seat's is
            return ir.PlayerVar(span, self.var_base(name), self.expr(args[0]))
        if sym.kind == "pot":  # what a player has put in
            return self.pot_value(span, name, "contribution", self.expr(args[0]))
        if sym.kind == "order":
            return ir.OrderOf(span, name, self.expr(args[0]))
        if sym.kind == "ranking":
            return ir.HandValue(span, name, self.cards(args[0]))
        if sym.kind == "define":
            return self._define_call(span, name, sym.decl, args)
        if sym.kind == "points":
            worth = {rank: points for rank, points, _ in sym.decl.points}
            table = tuple(worth.get(self.deck.rank_name(c), 0) for c in range(self.deck.size))
            return ir.RankPoints(span, table, self.expr(args[0]))
        raise AssertionError(name)  # pragma: no cover

    def _define_call(self, span, name: str, d: ast.DefineDecl, args: tuple) -> ir.DefineCall:
        """A definition used: its arguments into fresh slots, then its body over them."""
        wanted = tuple(prm.type or PLAYER for prm in d.params)
        values = tuple(self.as_type(a, t) for a, t in zip(args, wanted))
        slots = tuple(self.slot(CARDS if t == CARDS and self.type(a) in (ZONE, CARD) else self.type(a), prm.name)
                      for a, t, prm in zip(args, wanted, d.params))
        # the body sees its parameters and the globals, as the checker does, never the caller's locals
        caller = self.scopes
        self.scopes = [caller[0], {prm.name: slot for prm, slot in zip(d.params, slots)}]
        try:
            body = self.expr(d.body)
        finally:
            self.scopes = caller
        return ir.DefineCall(span, name, slots, values, body)

    def _builtin(self, e: ast.Call):
        name, args = e.func, e.args
        if name == "suit" and declared(self.type(args[0]) or ANY):
            return self._suit_of_value(e)
        if name in COMBINATIONS:
            return self._combination(e)
        if name == "contenders":
            return self.pot_value(e.span, args[0].name, "contenders")
        if name == "colour" and self.type(args[0]) == SUIT:  # a suit's colour; a card's is its own builtin
            return ir.Builtin(e.span, "suit_colour", (self.expr(args[0]),))
        if name in ("count", "random", "any"):
            lowered = (self.seq(args[0]),)
        else:
            lowered = tuple(self.expr(a) for a in args)
        return ir.Builtin(e.span, name, lowered)

    def _suit_of_value(self, e: ast.Call):
        """`suit(s)` of a declared value: the suit of the same name, none if the deck has none (`notrump`)
        or `s` is none (the value worked out twice: a declared value is read, never drawn)."""
        span, d = e.span, self.sym.named_values[self.type(e.args[0])]
        table = tuple(self.deck.suits.index(n) if n in self.deck.suits else None for n, _ in d.items)
        value = self.expr(e.args[0])
        nothing = ir.Const(span, None)
        at = ir.Arith(span, "+", self.expr(e.args[0]), ir.Const(span, 1))
        return ir.Conditional(span, ir.Compare(span, "==", value, nothing), nothing,
                              ir.Index(span, ir.Const(span, table), at))

    def _combination(self, e: ast.Call):
        if e.func == "melds" and self.group_slot is not None and self._of_groups(e.args[0]):
            # the melds of a zone of groups: its groups as laid (runtime/groups.py), not the best arrangement
            arg = e.args[0]
            return ir.Combination(e.span, "groups", (ir.ZoneCards(arg.span, self.expr(arg)),
                                                     ir.Slot(arg.span, self.group_slot)), None)
        kinds = COMBINATIONS[e.func][0]
        table = next((a.name for a, k in zip(e.args, kinds) if k == "table"), None)
        args = tuple(self.cards(a) if k == "cards" else self.expr(a) for a, k in zip(e.args, kinds) if k != "table")
        return ir.Combination(e.span, e.func, args, table)

    def _of_groups(self, e) -> bool:
        """Whether `e` names a zone of groups (`laid`, `laid(p)`)."""
        name = e.name if isinstance(e, ast.Name) else e.func if isinstance(e, ast.Call) else None
        return name in self.sym.group_zones and self.type(e) == ZONE and not any(name in sc for sc in self.scopes)

    # -------------------------------------------------- conversions by static type
    def cards(self, e) -> ir.Expr:
        """The expression as a tuple of cards, whether it is a zone, a card or cards."""
        t = self.type(e)
        x = self.expr(e)
        if t == ZONE:
            return ir.ZoneCards(e.span, x)
        if t == CARD:
            return ir.Maybe(e.span, x)
        return x

    def as_type(self, e, wanted: Optional[str]) -> ir.Expr:
        """The expression as a value of type `wanted` where the checker let it stand for one: a zone
        or a card given where cards are wanted is its cards, a player where players are, a tuple."""
        if wanted == CARDS:
            return self.cards(e)
        if wanted == PLAYERS:
            return self.seq(e)
        return self.expr(e)

    def seq(self, e) -> ir.Expr:
        """The expression as a sequence: the cards of a zone, a card or a player as a tuple."""
        t = self.type(e)
        if t in (ZONE, CARD):
            return self.cards(e)
        x = self.expr(e)
        if t == PLAYER:
            return ir.Maybe(e.span, x)
        if t == TEAM:  # a team where players are wanted: its seats
            return ir.TeamTable(e.span, "members", self.layout.teams, x)
        return x

    # ------------------------------------------------------------ partnerships
    def var_base(self, name: str) -> int:
        """The first slot of a per-player or per-team variable."""
        return (self.layout.pvar_slots.get(name) or self.layout.tvar_slots[name])[0]

    def x_TeamOf(self, e: ast.TeamOf):
        return ir.TeamTable(e.span, "team", self.layout.team_of, self.expr(e.player))

    def x_PartnerOf(self, e: ast.PartnerOf):
        partner = tuple(next((q for q in self.layout.teams[k] if q != s), s) for s, k in enumerate(self.layout.team_of))
        return ir.TeamTable(e.span, "partner", partner, self.expr(e.player))

    def x_Teams(self, e: ast.Teams):
        return ir.Const(e.span, tuple(range(len(self.layout.teams))))

    def text(self, t: ast.Text) -> ir.Text:
        """A text: its strings, and each `{…}` part with its type."""
        if not t.parts:
            return ir.Text(t.span, (t.value,), None)
        parts = tuple(part if isinstance(part, str) else ir.TextPart(self.expr(part), self.type(part))
                      for part in t.parts)
        rankings = self.layout.rankings if self.layout is not None else {}
        ranking = None
        for part in t.parts:
            if isinstance(part, ast.Call) and part.func in rankings:
                ranking = part.func
        if ranking is None and len(rankings) == 1:
            ranking = next(iter(rankings))
        return ir.Text(t.span, parts, ranking)


def lower(symbols: Symbols, players: int, options: dict, layout: Layout) -> ir.Program:
    """The IR of a checked game for a player count, options and its state layout."""
    return Lowerer(symbols, players, options, layout).program()


def lower_expression(symbols: Symbols, players: int, options: dict, e) -> ir.Expr:
    """The IR of an expression known before the game has a deck (a deck's condition)."""
    return Lowerer(symbols, players, options, None).expr(e)
