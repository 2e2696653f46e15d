"""What the native engine holds each value as, worked out from the IR before any code is written.

Native state is fixed-size int64 arrays (`native/emit.py`), so every value is one of three kinds:
`INT` (a number, a bool as 0/1, a card, a player, a suit or rank, none as `NONE`), `SEQ` (a tuple
of such: cards, players, a list) or `TEXT` (a text, which a quiet run only works out for what it
may break or draw: `Announce`). Slots take the kind of what is written into them; a slot written
two kinds, or a node the native engine does not run, is refused with `NativeUnsupported` naming
the construct and its rule line (the emitter is total: every node is handled or refused).
"""

from __future__ import annotations

import attrs

from ..compiler import ir
from ..lang.types import CARDS, LISTS, PLAYERS, TEAMS, TEXT, ZONES

INT, SEQ, TEXT_KIND = "int", "seq", "text"
NONE = -(1 << 62)  # none, in an int64 (no card, seat, number of a valid game comes near it)
SEQ_TYPES = {CARDS, PLAYERS, TEAMS, ZONES, *LISTS}


class NativeUnsupported(Exception):
    """A construct of the rules the native engine does not run yet, at a rule line."""

    def __init__(self, construct: str, line: int):
        super().__init__(f"{construct} at rules line {line}")
        self.construct, self.line = construct, line


def refuse(construct: str, node) -> NativeUnsupported:
    """The refusal of `construct` at the rule line of `node` (an IR node with a span)."""
    span = getattr(node, "span", None)
    return NativeUnsupported(construct, span.line if span is not None else 0)


def _type_kind(t) -> str:
    if t == TEXT:
        return INT  # (a text variable holds constant texts by number; one built from parts is refused)
    return SEQ if t in SEQ_TYPES or (isinstance(t, str) and t.startswith("list")) else INT


class Kinds:
    """The kind of every slot of a lowered game (`of(slot)`) and of any expression (`expr(e)`)."""

    def __init__(self, layout, program: ir.Program):
        self.slots: dict = {}
        for table, width in ((layout.var_slots, 1), (layout.pvar_slots, layout.players),
                             (layout.tvar_slots, len(layout.teams))):
            for _name, (first, t) in table.items():
                for s in range(first, first + width):
                    self.slots[s] = _type_kind(t)
        for s in program.cards_slots:
            self.slots[s] = SEQ
        for s in program.card_slots:
            self.slots.setdefault(s, INT)
        if program.sitting_slot is not None:
            self.slots[program.sitting_slot] = SEQ
        for spec in layout.pots.values():  # (a pot's slots: numbers, and the row of what the actor may do)
            for slot, per_player, init in spec.slots():
                for s in range(slot, slot + (layout.players if per_player else 1)):
                    self.slots[s] = SEQ if isinstance(init, tuple) else INT
        for a in program.at_once:
            self.slots[a.seats_slot] = self.slots[a.picks_slot] = SEQ
        self.text_slots = {first for table in (layout.var_slots,) for first, t in table.values() if t == TEXT}
        self.program = program
        # the slots lowering writes: fixed point over what is written into them
        for _ in range(8):
            before = dict(self.slots)
            _Walk(self).run(program)
            if before == self.slots:
                break

    def texty(self, e) -> bool:
        """Whether `e` may be a text (held by number: only equality means anything)."""
        if plain_text(e):
            return True
        if isinstance(e, ir.Slot):
            return e.slot in self.text_slots
        if isinstance(e, ir.Conditional):
            return self.texty(e.then) or self.texty(e.otherwise)
        if isinstance(e, ir.Builtin):
            return e.name in ("colour", "suit_colour")  # ("red", "black")
        if isinstance(e, ir.Combination):
            return e.name == "kind"  # (a climbing combination's kind: "pair", "run", …)
        return isinstance(e, ir.DefineCall) and self.texty(e.body)

    def of(self, slot: int) -> str:
        """The kind of a slot (INT for one nothing writes a kind into)."""
        return self.slots.get(slot, INT)

    def set(self, slot: int, kind, node) -> None:
        if kind is None:
            return
        old = self.slots.get(slot)
        if old is not None and old != kind:
            raise refuse(f"a slot holding both a {old} and a {kind}", node)
        self.slots[slot] = kind

    def expr(self, e) -> str:
        """The kind of expression `e` (refusing a node the native engine does not run)."""
        k = _KIND.get(type(e))
        if k is not None:
            return k
        t = type(e).__name__
        if isinstance(e, ir.Const):
            v = e.value
            if isinstance(v, str):
                return INT  # (a constant text is its number in the game's table of texts: `text_id`)
            if isinstance(v, tuple):
                if any(not isinstance(x, int) and x is not None for x in v):
                    raise refuse("a constant list of other values than numbers", e)
                return SEQ
            if v is None or isinstance(v, int):
                return INT
            raise refuse(f"a constant {type(v).__name__}", e)
        if isinstance(e, ir.Slot):
            return self.of(e.slot)
        if isinstance(e, ir.PlayerVar):
            return self.of(e.base)
        if isinstance(e, ir.PlayerZone):
            return SEQ if e.many else INT
        if isinstance(e, ir.Conditional):
            a, b = self.expr(e.then), self.expr(e.otherwise)
            if {a, b} == {INT, TEXT_KIND} and self.texty(e.then if a == INT else e.otherwise):
                return TEXT_KIND  # (a text with parts on one side: worked out for its effects only)
            if a != b:
                raise refuse("a conditional of two kinds of values", e)
            return a
        if isinstance(e, (ir.And, ir.Or)):
            if self.expr(e.left) != INT or self.expr(e.right) != INT:
                raise refuse("`and`/`or` of lists", e)
            return INT
        if isinstance(e, ir.EndCards):
            return INT if e.count is None else SEQ
        if isinstance(e, ir.Aggregate):
            return SEQ if e.kind == "select" else INT
        if isinstance(e, ir.DefineCall):
            return self.expr(e.body)
        if isinstance(e, ir.Builtin):
            if e.name == "card_subset":
                return SEQ  # (the cards a set's value stands for: `steps.set_cards`)
            return INT
        if isinstance(e, ir.TeamTable):
            return SEQ if e.what == "members" else INT
        if isinstance(e, ir.FaceUp):
            return INT  # (the native state keeps who knows each card when a rule reads it: `KN`)
        if isinstance(e, ir.GroupOf):
            raise refuse("zones of groups (`group of`)", e)
        if isinstance(e, ir.HandValue):
            return INT  # (`native/poker.py`'s kernel)
        if isinstance(e, ir.Combination):
            if e.name in COUNTING or e.name in ("deadwood", "beats", "kind"):
                return INT  # (`native/melds.py`'s kernels)
            if e.name in ("melded", "layoffs"):
                return SEQ
            if e.name == "melds":
                return TEXT_KIND  # (a text: worked out for its refusals only)
            if e.name == "groups":
                raise refuse("zones of groups (`melds` of one)", e)
            raise refuse(f"melds (`{e.name}`)", e)
        if isinstance(e, ir.PotValue):
            return SEQ if e.what == "contenders" else INT  # (`native/pots.py`'s betting over `V`)
        if isinstance(e, ir.JoinText):
            return TEXT_KIND
        if isinstance(e, ir.Text):
            return INT if plain_text(e) else TEXT_KIND
        raise refuse(f"the expression {t}", e)


COUNTING = ("subsets", "pairs", "runs", "run_cards", "longest_suit")  # the meld functions run natively


def plain_text(e) -> bool:
    """Whether `e` is a text known when the game is loaded (compared by its number, `text_id`)."""
    return (isinstance(e, ir.Const) and isinstance(e.value, str)) or (
        isinstance(e, ir.Text) and all(isinstance(p, str) for p in e.parts))


def text_of(e) -> str:
    return e.value if isinstance(e, ir.Const) else "".join(e.parts)


_KIND = {ir.Range: SEQ, ir.PileZone: INT, ir.PositionOf: INT, ir.ZoneCards: SEQ, ir.Maybe: SEQ, ir.Tuple: SEQ, ir.Index: INT,
         ir.Negate: INT, ir.Not: INT, ir.Arith: INT, ir.Compare: INT, ir.Concat: SEQ, ir.In: INT, ir.Except: SEQ,
         ir.Is: INT, ir.Has: INT, ir.Neighbour: INT, ir.Players: SEQ, ir.BestScorers: SEQ, ir.OrderOf: INT,
         ir.RankPoints: INT}


class _Walk:
    """One pass over the IR: each slot written takes the kind of what is written into it."""

    def __init__(self, kinds: Kinds):
        self.k = kinds
        self.seen: set = set()

    def run(self, program: ir.Program) -> None:
        for _slot, _pp, e in program.var_inits:
            self.visit(e)
        self.visit(program.setup)
        self.visit(program.round)
        for phase in program.phases.values():
            self.visit(phase.body)
        if program.score is not None:
            self.k.set(program.score[0], INT, program.score[1])
            self.visit(program.score[1])
        if program.payoff is not None:
            if program.payoff.slot is not None:
                self.k.set(program.payoff.slot, INT, program.payoff)
            self.visit(program.payoff.value)

    def _kind(self, e):
        try:
            return self.k.expr(e)
        except NativeUnsupported:
            return None  # (refused again, with its line, when the code is written)

    def visit(self, x) -> None:
        if isinstance(x, (list, tuple)):
            for y in x:
                self.visit(y)
            return
        if not attrs.has(type(x)) or id(x) in self.seen:
            return
        if isinstance(x, ir.Phase):
            self.seen.add(id(x))
            self.visit(x.body)
            return
        k = self.k
        if isinstance(x, ir.Assign) and isinstance(x.target, ir.SlotTarget):
            k.set(x.target.slot, self._kind(x.value), x)
        elif isinstance(x, ir.ForEach):
            k.set(x.slot, INT, x)
            k.set(x.seq_slot, SEQ, x)
        elif isinstance(x, (ir.Aggregate, ir.BestScorers, ir.PotAward)):
            k.set(x.slot, INT, x)
        elif isinstance(x, ir.DefineCall):
            for slot, a in zip(x.slots, x.args):
                k.set(slot, self._kind(a), x)
        elif isinstance(x, ir.CallPhase):
            for slot, a in zip(x.phase.slots, x.args):
                k.set(slot, self._kind(a), x)
        elif isinstance(x, ir.Alternative) and x.slot is not None and x.kind != "set":
            k.set(x.slot, INT, x)
        for f in attrs.fields(type(x)):
            if f.name != "span":
                self.visit(getattr(x, f.name))
