"""W004, the information-flow check: a value computed from cards some seat cannot see must not reach
what every seat sees (a text, a variable, a label, the score, who plays or wins) unless the rules
show those cards first.

The model (docs/diagnostics.md, "What the information-flow check can and cannot see"):

- *Sources*. Reading a `private` zone (`hand(p)`) gives a value only its owner knows; reading a
  `hidden` zone, one nobody knows; a `public` zone is known to all; a zone `facing away`, one every
  seat knows but its owner (a player written otherwise than its owner, `hand(q)` for `p`, is taken
  to be another seat). A value carries the set of
  sources it was computed from, split in two: what its cards *are* (`ident`) and how many there
  are or whether there is one (`shape`). `count(hand(p))` is public (every seat sees how many cards
  a zone holds); `suit(top of hand(p))` is not.
- *Sinks*. Texts (`announce`, `says`, labels), variables (every variable is in every seat's
  observation), the score, who chooses, who is eliminated, who wins, the chips (who puts how many
  into a pot, who takes it: `pay pot to highest p by …` needs a showdown unless at most one
  contends). A card itself in a text or a
  variable is shown only to the seats that know it, so only its `shape` counts there; in a label
  too a card the chooser does not know is named by its place. What the chooser may choose (filters,
  conditions, ranges) is seen by the chooser only.
- *Implicit flows*. Inside a branch or a loop whose condition is computed from hidden cards, every
  sink above tells whether the branch ran. A branch that `reveal`s a card of what it tests, or in
  which the owner of the tested cards speaks (`p says …`), makes its condition public: the rules
  show or tell it there. So does a move of it face up or into a public zone, or `tell players the
  rank of` it.
- *Clearing*. `reveal x` (to all), a move `face up` or into a public zone (not `face down`: then
  that zone holds a secret, a "down" fact) make those cards known until cards enter that zone
  again, it is shuffled or hidden; `for each p in players: reveal hand(p)` reveals every hand;
  `tell players the rank of c`, the rank of `c`. A seat's own cards are no secret to it: a label or
  a filter of `p chooses` may use `hand(p)`, cards moved into it, a variable set from them, or cards
  shown to `p` with `reveal … to p` (facts ("to", p, what)), and `p says` may tell about `p`'s cards.

Each statement class has one case (`InfoFlow._effect`, a singledispatchmethod): what it shows and
what it makes known; a statement without one is refused (`UnknownStatement`), never taken for one
that does nothing. Expressions are `infoflow_values.py`'s, the values `infoflow_model.py`'s.

Each phase is analysed once, with what every call passes it (taints of arguments, and the taint of
the place it is called from), to a fixed point. It can miss a leak (moves are not sinks, variables
holding cards lose whose they are) and it may warn where the rules
make the value public in a way it does not follow; it is a warning, never an error.
"""

from __future__ import annotations

import functools
from typing import Optional

import attrs

from . import ast
from .infoflow_model import (ALL, CARDISH, EMPTY, NOTHING, Binding, Frame, Val, _about_top, _at_most_one, _contenders,
                             _describe, _everyone, _first, _mentions, _rebase, show)
from .infoflow_values import Expressions
from .limits import MAX_PILES
from .pile_facts import listed_numbers
from .statements import UnknownStatement

MAX_VISITS = 200_000  # statements and expressions visited; a bigger analysis gives up, silently
MAX_ROUNDS = 8  # passes over the whole program until what phases receive stops growing
HELP_HIDDEN = "if the rules show these cards here, `reveal` them first"
HELP_PRIVATE = HELP_HIDDEN + "; a player telling about his own cards is `p says \"…\"`"


class _GiveUp(Exception):
    pass


def check_infoflow(checker) -> None:
    """Runs the information-flow check over a checked module; reports W004 through the checker."""
    try:
        found = InfoFlow(checker).run()
    except (_GiveUp, RecursionError):
        return
    for span, (message, src) in found:
        checker.warn("W004", message, span, help=HELP_PRIVATE if src.private else HELP_HIDDEN)



def _meet(facts: frozenset, more: list) -> frozenset:
    """What holds in every one of the fact sets (the loop's end, and each `break` that leaves it)."""
    for f in more:
        facts = facts & f
    return facts


class InfoFlow(Expressions):
    """The taint analysis: one walk per block and per round of the fixed point, reporting into `found`."""

    def __init__(self, checker):
        self.sym = checker.sym
        self.types = checker.sym.types
        self.visits = 0
        self.breaks: list = []  # per loop walked, innermost last: the facts at each `break` in it
        self.phase_in: dict = {}  # phase -> (param Vals, pc sources)
        self.globals: dict = {}  # variable holding cards -> the ident of what was stored in it
        self.found: dict = {}  # span -> (message, source), first one wins
        self.frames: list = []
        self.pc: frozenset = EMPTY

    # -- entry
    def run(self) -> list:
        """Every (span, (message, source)) found, in file order, once what phases receive is stable."""
        s = self.sym
        for _ in range(MAX_ROUNDS):
            before = (dict(self.phase_in), dict(self.globals))
            self.found = {}
            self._declarations()
            for block in [s.setup, s.round, *s.phases.values()]:
                if block is not None:
                    self._block(block)
            if (self.phase_in, self.globals) == before:
                break
        return sorted(self.found.items(), key=lambda kv: (kv[0].file, kv[0].line, kv[0].column))

    def _declarations(self) -> None:
        s = self.sym
        for sym in list(s.vars.values()) + list(s.pvars.values()):
            d = sym.decl
            v = self._ev(d.value, {}, frozenset())
            self._sink_value(v, d.value, d.value.span,
                             f"`{d.name}` is shown to every seat, but its first value is computed from {{}}")
            if self.types.get(id(d.value)) in CARDISH and v.ident:
                stored = {attrs.evolve(src, owner=None) for src in v.ident}  # whose it was is lost
                self.globals[d.name] = self.globals.get(d.name, EMPTY) | stored
        if s.score is not None:
            env = {s.score.var: Binding(NOTHING, ("score",))}
            v = self._ev(s.score.value, env, frozenset())
            if v.all:
                self._report(s.score.value.span, "the score is shown to every seat, but it is computed from {}", v.all)

    def _block(self, block: ast.BlockDecl) -> None:
        vals, pc = self.phase_in.get(block.name, ((), EMPTY)) if block.kind == "phase" else ((), EMPTY)
        env = {}
        for i, p in enumerate(block.params):
            val = vals[i] if i < len(vals) else NOTHING
            env[p.name] = Binding(val, ("param", block.name, p.name))
        self.frames = [Frame(tests={src: f"tested where `{block.name}` is played" for src in pc})]
        self.pc = pc
        self._stmts(block.body, env, frozenset())
        self._settle(self.frames.pop(), None)

    # -- reporting
    def _report(self, span, message: str, sources: frozenset, notes: Optional[dict] = None) -> None:
        src = _first(sources)
        self.found.setdefault(span, (message.format(_describe(src, (notes or {}).get(src))), src))

    def _sink(self, span, explicit: frozenset, message: str, implicit: Optional[str] = None,
              speaker=None) -> None:
        """A place every seat sees. `explicit` is what the value shown depends on (`message` has a `{}`
        for its source); with `implicit`, the place also tells whether it is reached, which waits for
        the enclosing branches to end (they may reveal what they test)."""
        if speaker is not None:
            explicit = frozenset(s for s in explicit if not s.mine(speaker))
        if explicit:
            self._report(span, message, explicit)
            return
        pc = frozenset(s for s in self.pc if speaker is None or not s.mine(speaker))
        if pc and implicit is not None:
            self.frames[-1].pending.append((span, f"every seat sees {implicit}, and whether it happens depends on {{}}",
                                            pc, {}))

    def _sink_value(self, v: Val, e, span, message: str, implicit: Optional[str] = None, speaker=None) -> None:
        """A value shown to every seat: a card in it is masked for those who do not know it, its number is not."""
        shown = v.shape if self.types.get(id(e)) in CARDISH else v.all
        self._sink(span, shown, message, implicit, speaker)

    def _to_chooser(self, span, sources: frozenset, chooser, message: str) -> None:
        """What only the chooser sees (labels, filters): his own cards are no secret to him."""
        hidden = frozenset(s for s in sources if not s.mine(chooser) and chooser not in s.seen_by)
        if hidden:
            self._report(span, message, hidden)

    def _settle(self, frame: Frame, outer: Optional[Frame]) -> None:
        """A branch ends: what it revealed or its owner said clears the condition's sources; the rest
        waits for the enclosing branch, or is reported at the top of a block."""
        def clear(pc):
            return frozenset(s for s in pc if s not in frame.revealed and not any(s.mine(k) for k in frame.speakers))

        for item in frame.pending:
            if item[0] == "call":
                rest = clear(item[2])
                if outer is not None:
                    outer.pending.append(("call", item[1], rest))
                else:
                    self._call_pc(item[1], rest)
                continue
            span, message, pc, notes = item
            rest = clear(pc)
            notes = {**{src: frame.tests[src] for src in rest if src in frame.tests}, **notes}  # innermost first
            if rest and outer is not None:
                outer.pending.append((span, message, rest, notes))
            elif rest:
                self._report(span, message, rest, notes)

    def _call_pc(self, phase: str, pc: frozenset) -> None:
        vals, old = self.phase_in.get(phase, ((), EMPTY))
        if not pc <= old:
            self.phase_in[phase] = (vals, old | pc)

    # -- statements
    def _tick(self) -> None:
        self.visits += 1
        if self.visits > MAX_VISITS:
            raise _GiveUp

    def _stmts(self, stmts, env: dict, facts: frozenset) -> frozenset:
        for st in stmts:
            facts = self._stmt(st, env, facts)
        return facts

    def _scoped(self, stmts, env: dict, facts: frozenset, tests: dict) -> tuple:
        """Runs a nested block in a copy of `env` under a condition (`tests`: the sources it tests, and
        where); returns (env, facts) after it."""
        inner = dict(env)
        outer_pc = self.pc
        self.pc = outer_pc | frozenset(tests)
        self.frames.append(Frame(tests=dict(tests)))
        try:
            facts = self._stmts(stmts, inner, facts)
        finally:
            frame = self.frames.pop()
            self.pc = outer_pc
        self._settle(frame, self.frames[-1])
        return inner, facts

    def _merge(self, env: dict, branches: list) -> None:
        for name in list(env):
            val = env[name].val
            for b in branches:
                if name in b:
                    val = val.join(b[name].val)
            if val != env[name].val:
                env[name] = attrs.evolve(env[name], val=val)

    def _stmt(self, st, env: dict, facts: frozenset) -> frozenset:
        self._tick()
        return self._effect(st, env, facts)

    # One case per statement class: what it shows every seat (sinks) and what it makes known
    # (facts); the facts that hold after it are returned. A statement without a case is refused.
    @functools.singledispatchmethod
    def _effect(self, st, env: dict, facts: frozenset) -> frozenset:
        raise UnknownStatement(st, "the information-flow check (W004)")

    @_effect.register(ast.Pass)
    @_effect.register(ast.Passes)  # (a pass is a decision every seat saw)
    def _pass(self, st, env: dict, facts: frozenset) -> frozenset:
        return facts

    @_effect.register(ast.Set)
    @_effect.register(ast.Add)
    def _set(self, st, env: dict, facts: frozenset) -> frozenset:
        value = st.value if isinstance(st, ast.Set) else st.amount
        v = self._ev(value, env, facts)
        self._assign(st, v, value, env, facts)
        if st.target.kind == "name" and st.target.name not in env and self.types.get(id(value)) in CARDISH:
            # a card stored in a variable stays known to whoever knew it
            key = ("g", st.target.name)
            facts = frozenset(f for f in facts if f != key and not (f[0] == "to" and f[2] == key)) | self._knowers(v, key)
        return facts

    @_effect.register
    def _let(self, st: ast.Let, env: dict, facts: frozenset) -> frozenset:
        v = self._ev(st.value, env, facts)
        alias = (self._canon(st.value, env) if self.types.get(id(st.value)) in ("player", "players")
                 else ("let", id(st)))
        env[st.name] = Binding(v, alias, self._over(st.value, env))
        return facts

    @_effect.register
    def _lay(self, st: ast.Lay, env: dict, facts: frozenset) -> frozenset:
        # a lay is a move face up; the group it joins is that of a card of the zone, whose cards the
        # text of its groups (`melds(z)`) shows each seat as it knows them
        if st.joins is not None:
            self._ev(st.joins, env, facts)
        return self._move(st, env, facts)

    @_effect.register
    def _move(self, st: ast.Move, env: dict, facts: frozenset) -> frozenset:
        v = self._ev(st.cards, env, facts)
        self._ev(st.zone, env, facts)
        return self._moved(st.cards, v, st.zone, st.facing, env, facts, st.span.line)

    @_effect.register
    def _deal(self, st: ast.Deal, env: dict, facts: frozenset) -> frozenset:
        if st.count is not None:  # (`deal all`: how many each gets follows from the zone's size)
            self._ev(st.count, env, facts)
        v = self._ev(st.source, env, facts)
        self._ev(st.dest, env, facts)
        return self._moved(None, Val(v.ident), st.dest, st.facing, env, facts, st.span.line)

    @_effect.register
    def _shuffle(self, st: ast.Shuffle, env: dict, facts: frozenset) -> frozenset:
        return self._kill(facts, self._family(st.zone), cards=True, pile=self._pile(st.zone, env))

    @_effect.register
    def _swap(self, st: ast.Swap, env: dict, facts: frozenset) -> frozenset:
        for e in (st.left, st.right):
            facts = self._kill(facts, self._family(e), cards=self._family(e) is None)
        return facts

    @_effect.register
    def _reveal(self, st: ast.Reveal, env: dict, facts: frozenset) -> frozenset:
        v = self._ev(st.cards, env, facts)
        if st.to is not None:  # the others still do not see them; those shown them may choose among them
            self._ev(st.to, env, facts)
            return facts | {("to", self._canon(st.to, env), self._canon(st.cards, env))}
        self.frames[-1].revealed.update(v.ident)
        return self._face_up(facts, st.cards, env)

    @_effect.register
    def _hide(self, st: ast.Hide, env: dict, facts: frozenset) -> frozenset:
        self._ev(st.cards, env, facts)
        return (self._kill(facts, self._family(st.cards), cards=True, pile=self._pile(st.cards, env))
                - {self._canon(st.cards, env)})

    @_effect.register
    def _forget_order(self, st: ast.ForgetOrder, env: dict, facts: frozenset) -> frozenset:
        self._ev(st.zone, env, facts)  # (as `hide`: only those the zone shows its cards to still know them)
        return self._kill(facts, self._family(st.zone), cards=True, pile=self._pile(st.zone, env))

    @_effect.register
    def _tell_face(self, st: ast.TellFace, env: dict, facts: frozenset) -> frozenset:
        """`tell players the rank of c`: that face of the card is known to every seat; in a branch that
        tests the card it shows what is tested, as a `reveal` does. (It writes no line in the log.)"""
        self._ev(st.to, env, facts)
        v = self._ev(st.card, env, facts)
        if not _everyone(st.to):
            return facts
        self.frames[-1].revealed.update(v.ident)
        return facts | {("face", st.kind, self._canon(st.card, env))}

    @_effect.register
    def _tell_which(self, st: ast.TellWhich, env: dict, facts: frozenset) -> frozenset:
        for e in (st.to, st.cards):
            self._ev(e, env, facts)
        if _everyone(st.to):  # every seat learns which of the cards have the face told
            value = self._ev(st.value, env, facts)
            self._sink(st.value.span, value.all, "every seat is told which cards have this face, computed from {}")
        return facts

    @_effect.register
    def _announce_stmt(self, st: ast.Announce, env: dict, facts: frozenset) -> frozenset:
        self._announce(st, env, facts)
        return facts

    @_effect.register
    def _eliminate(self, st: ast.Eliminate, env: dict, facts: frozenset) -> frozenset:
        v = self._ev(st.player, env, facts)
        self._sink(st.span, v.all, "every seat sees who is eliminated, and that depends on {}", "this elimination")
        return facts

    @_effect.register
    def _end_game(self, st: ast.EndGame, env: dict, facts: frozenset) -> frozenset:
        v = self._ev(st.winners, env, facts) if st.winners is not None else NOTHING
        self._sink(st.span, v.all, "every seat sees who wins, and that depends on {}", "the game end")
        return facts

    @_effect.register
    def _end_round(self, st: ast.EndRound, env: dict, facts: frozenset) -> frozenset:
        self._sink(st.span, EMPTY, "", "the round end")
        return facts

    @_effect.register
    def _break(self, st: ast.Break, env: dict, facts: frozenset) -> frozenset:
        self._sink(st.span, EMPTY, "", "the end of the loop")  # every seat sees the loop stop early
        if self.breaks:
            self.breaks[-1].append(facts)  # what holds after the loop holds here too
        return facts

    @_effect.register
    def _reverse(self, st: ast.Reverse, env: dict, facts: frozenset) -> frozenset:
        self._sink(st.span, EMPTY, "", "the reversal of the direction")  # every seat sees play turn the other way
        return facts

    @_effect.register
    def _set_direction(self, st: ast.SetDirection, env: dict, facts: frozenset) -> frozenset:
        self._sink(st.span, EMPTY, "", "the direction of play")  # every seat sees which way play goes
        return facts

    @_effect.register
    def _call_stmt(self, st: ast.CallPhase, env: dict, facts: frozenset) -> frozenset:
        self._call(st, env, facts)
        return facts

    @_effect.register
    def _if_stmt(self, st: ast.If, env: dict, facts: frozenset) -> frozenset:
        return self._if(st, env, facts)

    @_effect.register
    def _for_stmt(self, st: ast.ForEach, env: dict, facts: frozenset) -> frozenset:
        return self._for(st, env, facts)

    @_effect.register(ast.Repeat)
    @_effect.register(ast.While)
    def _loop_stmt(self, st, env: dict, facts: frozenset) -> frozenset:
        return self._loop(st, env, facts)

    @_effect.register
    def _choose_stmt(self, st: ast.Choose, env: dict, facts: frozenset) -> frozenset:
        return self._choose(st, env, facts)

    # -- pots: every seat sees the chips
    @_effect.register
    def _put_in(self, st: ast.PutIn, env: dict, facts: frozenset) -> frozenset:
        who = self._ev(st.player, env, facts)
        self._sink(st.player.span, who.all, "every seat sees who puts chips in, and that depends on {}")
        amount = self._ev(st.amount, env, facts)
        self._sink(st.amount.span, amount.all, "every seat sees the chips put in, and how many depends on {}",
                   "these chips put in")
        return facts

    @_effect.register
    def _betting(self, st: ast.Betting, env: dict, facts: frozenset) -> frozenset:
        first = self._ev(st.first, env, facts)
        self._sink(st.first.span, first.all, "every seat sees who bets first, and that depends on {}",
                   "this round of betting")
        for e in (st.blinds, st.minimum, st.fixed, st.cap):
            if e is not None:
                v = self._ev(e, env, facts)
                self._sink(e.span, v.all, "every seat sees the bets allowed, and they depend on {}")
        return facts

    @_effect.register
    def _award(self, st: ast.Award, env: dict, facts: frozenset) -> frozenset:
        """`pay pot to highest p by value`: every seat sees who takes the pot, so `value` of each
        contender must be shown first (a showdown: `for each p in contenders(pot): reveal hand(p)`)."""
        inner = dict(env)
        inner[st.var] = Binding(NOTHING, ("award", id(st)), ("over", _contenders(st.pot)))
        v = self._ev(st.value, inner, facts)
        self._sink(st.value.span, v.all,
                   f"every seat sees who takes `{st.pot}`, and that depends on {{}}",
                   f"who takes `{st.pot}`")
        return facts

    def _assign(self, st, v: Val, value, env: dict, facts: frozenset) -> None:
        """`set`, `add`, `subtract`: a local takes the taint (and that of the branch it is in); a
        variable is shown to every seat."""
        t, span = st.target, st.span
        key = self._ev(t.key, env, facts) if t.key is not None else NOTHING
        if t.index is not None:  # `told(p)[i]`: which item changes is seen too
            key = key.join(self._ev(t.index, env, facts))
        if t.name in env and t.kind != "player":  # a local name, or an item of a local list
            b = env[t.name]
            new = v.join(Val(self.pc))
            if t.kind == "item" or isinstance(st, ast.Add):  # the rest of the old value stays
                new = new.join(b.val).join(key)
            elif self.types.get(id(value)) in ("player", "players"):
                b = attrs.evolve(b, alias=self._canon(value, env))
            else:
                b = attrs.evolve(b, alias=("set", id(st)))
            env[t.name] = attrs.evolve(b, val=new)
            return
        shown = f"`{t.name}({show(t.key)})`" if t.kind in ("player", "player item") else f"`{t.name}`"
        if key.all:
            which = "which item of" if t.kind == "item" else "whose"
            self._sink(t.span, key.all, f"every seat sees {which} `{t.name}` changes, and that depends on {{}}")
            return
        shown_value = v.shape if self.types.get(id(value)) in CARDISH else v.all
        self._sink(value.span if shown_value else span, shown_value,
                   f"{shown} is shown to every seat, but this value is computed from {{}}", f"{shown} change")
        if self.types.get(id(value)) in CARDISH and t.kind == "name":
            stored = frozenset(attrs.evolve(s, owner=None) for s in v.ident)
            old = self.globals.get(t.name, EMPTY)
            if not stored <= old:
                self.globals[t.name] = old | stored

    def _announce(self, st: ast.Announce, env: dict, facts: frozenset) -> None:
        speaker = None
        if st.speaker is not None:
            v = self._ev(st.speaker, env, facts)
            self._sink(st.speaker.span, v.all, "every seat sees who speaks, and that depends on {}")
            speaker = self._canon(st.speaker, env)
            self.frames[-1].speakers.add(speaker)
        for part in st.text.parts:
            if isinstance(part, ast.Expr):
                v = self._ev(part, env, facts)
                shown = v.shape if self.types.get(id(part)) in CARDISH else v.all
                if speaker is not None:
                    shown = frozenset(s for s in shown if not s.mine(speaker))
                if shown:
                    self._sink(part.span, shown, "this text shows every seat a value computed from {}")
                    return
        self._sink(st.text.span, EMPTY, "", "this text", speaker)

    def _moved(self, cards, v: Val, zone, facing, env: dict, facts: frozenset, line: int) -> frozenset:
        """The facts after cards (`cards`, None for a deal; `v`, what they are) entered `zone`."""
        family = self._family(zone)
        per_player, visibility, _ = self.sym.zones[family] if family is not None else (False, None, None)
        facts = frozenset(f for f in facts if not _about_top(f))  # `top of z` is another card once cards move
        if facing == "up" or (visibility == "public" and facing != "down"):
            self.frames[-1].revealed.update(v.ident)  # (shown, as by `reveal`: a branch testing them is public)
            if cards is not None and self._is_name_or_zone(cards, env):
                facts = facts | {self._canon(cards, env)}
            return facts - {f for f in facts if f[0] == "down" and _mentions(f[1], family, self._pile(zone, env))}
        key = self._canon(zone, env)
        before = frozenset().union(*(f[2] for f in facts if f[0] == "down" and f[1] == key))
        facts = self._kill(facts, family, cards=False, pile=self._pile(zone, env))
        if visibility == "public" and (v.ident or before):
            # face down into a public zone: what the zone holds is no longer what every seat sees
            where = f"moved face down into `{show(zone, env)}` on line {line}"
            noted = frozenset(attrs.evolve(src, note=where) for src in v.ident)
            if isinstance(cards, ast.Name) and cards.name in env:  # (what is read of the card says so too)
                b = env[cards.name]
                env[cards.name] = attrs.evolve(b, val=Val(noted | b.val.ident, b.val.shape))
            return facts | {("down", key, before | noted)}
        if per_player and visibility == "private" and cards is not None and self._is_name_or_zone(cards, env) \
                and isinstance(zone, ast.Call) and zone.args:
            # into a player's own private zone: he knows the cards from now on
            return facts | {("to", self._canon(zone.args[0], env), self._canon(cards, env))}
        return facts

    def _face_up(self, facts: frozenset, cards, env: dict) -> frozenset:
        """The facts once `cards` are shown to every seat: a zone shown whole holds no hidden card any more."""
        key = self._canon(cards, env)
        return frozenset(f for f in facts if not (f[0] == "down" and f[1] == key)) | {key}

    def _knowers(self, v: Val, key) -> frozenset:
        """Facts saying that the seats who know the cards of `v` know what `key` (a variable) holds."""
        out = set()
        for src in v.ident:
            if src.private and src.owner is not None:
                out.add(("to", src.owner, key))
            out.update(("to", k, key) for k in src.seen_by)
        return frozenset(out)

    def _is_name_or_zone(self, e, env) -> bool:
        return (isinstance(e, ast.Name) and e.name in env) or self._family(e) is not None

    def _kill(self, facts: frozenset, family: Optional[str], cards: bool, pile=None) -> frozenset:
        """Facts that still hold once cards entered `family` (None: some zone; `pile`: that pile of
        a numbered family only, see `_mentions`), or were shuffled."""
        out = set()
        for f in facts:
            is_zone = _mentions(f, family, pile) if family is not None else any(_mentions(f, z) for z in self.sym.zones)
            local = f[2] if f[0] in ("to", "face") else f  # (what a seat was told goes with the order)
            if is_zone or (cards and local[0] in ("let", "set", "alt", "each", "agg", "param", "g")):
                continue
            out.add(f)
        return frozenset(out)

    def _call(self, st: ast.CallPhase, env: dict, facts: frozenset) -> None:
        args = [self._ev(a, env, facts) for a in st.args]
        if st.name not in self.sym.phases:
            return
        # a player passed along is, inside the phase, its parameter: `play(p, hand(p))` gives `z` p's cards
        params = self.sym.phases[st.name].params
        owners = {self._canon(a, env): ("param", st.name, p.name) for a, p in zip(st.args, params)
                  if self.types.get(id(a)) == "player"}
        args = [_rebase(a, owners) for a in args]
        vals, pc = self.phase_in.get(st.name, ((), EMPTY))
        merged = tuple((vals[i] if i < len(vals) else NOTHING).join(a) for i, a in enumerate(args))
        if merged != vals:
            self.phase_in[st.name] = (merged, pc)
        if self.pc:
            self.frames[-1].pending.append(("call", st.name, self.pc))

    def _if(self, st: ast.If, env: dict, facts: frozenset) -> frozenset:
        tested: dict = {}
        envs, ends = [], []
        failed: list = []  # the conditions of the branches before: false in this one
        for cond, body in st.branches:
            for src in self._ev(cond, env, facts).all:
                tested.setdefault(src, f"tested on line {cond.span.line}")
            e, f = self._scoped(body, env, facts | self._assumed([(cond, True)] + failed), tested)
            envs.append(e)
            ends.append(f)
            failed.append((cond, False))
        e, f = self._scoped(st.orelse, env, facts | self._assumed(failed), tested)
        envs.append(e)
        ends.append(f)
        self._merge(env, envs)
        out = ends[0]
        for f in ends[1:]:
            out = out & f
        return out

    def _assumed(self, conds: list) -> frozenset:
        """What a branch may take as shown from the conditions that hold in it ((condition, true?)):
        where at most one player contends for a pot (`if count(contenders(pot)) > 1: … else: …`), every
        contender's cards are as good as shown, since `pay pot to …` gives a single contender the pot
        whatever he holds."""
        out = set()
        for cond, holds in conds:
            pot = _at_most_one(cond, holds)
            if pot is not None:
                over = ("over", _contenders(pot))
                out.update(("zone", name, over) for name, (per_player, _, _) in self.sym.zones.items() if per_player)
        return frozenset(out)

    def _over(self, e, env) -> object:
        if isinstance(e, ast.Seats) or (isinstance(e, ast.Players) and e.stop is None):
            return ALL
        return ("over", self._canon(e, env))

    def _body_twice(self, body, env: dict, facts: frozenset, pc: frozenset, line: int) -> tuple:
        """A loop body, run again while the names it changes or the facts it starts from change (at most
        three times): what is reported comes from the last run. Returns the facts at its start and end."""
        for attempt in range(3):
            before = {k: b.val for k, b in env.items()}
            mark = (dict(self.found), [list(f.pending) for f in self.frames])
            inner, end = self._scoped(body, env, facts, {src: f"tested on line {line}" for src in pc})
            self._merge(env, [inner])
            if attempt == 2 or (all(env[k].val == v for k, v in before.items()) and facts <= end):
                break
            facts = facts & end
            self.found = mark[0]
            for f, p in zip(self.frames, mark[1]):
                f.pending[:] = p
        return facts, end

    def _for(self, st: ast.ForEach, env: dict, facts: frozenset) -> frozenset:
        src = self._ev(st.source, env, facts)
        alias = ("each", id(st))
        elem = Val(src.ident) if self.types.get(id(st.source)) in CARDISH else Val(src.all)
        inner_env = dict(env)
        inner_env[st.var] = Binding(elem, alias, self._over(st.source, env))
        cond = self._ev(st.where, inner_env, facts).all if st.where is not None else EMPTY
        pc = (src.shape if self.types.get(id(st.source)) in CARDISH else src.all) | cond
        self.breaks.append([])
        start, end = self._body_twice(st.body, inner_env, facts, pc, st.span.line)
        for k in env:
            env[k] = inner_env[k]
        kept = set(_meet(start & end, self.breaks.pop()))
        if st.where is None:
            over = self._over(st.source, env)
            # over a list of numbers written out, each pile of a family shown in the body is shown
            piles = [("lit", i) for i in listed_numbers(self.sym.zone_counts, st.source, MAX_PILES) or ()]
            for f in end:
                if len(f) == 3 and f[0] == "zone" and f[2] == alias:
                    kept.add(("zone", f[1], over))
                    if f[1] in self.sym.zone_counts:
                        kept.update(("zone", f[1], pile) for pile in piles)
        return frozenset(kept)

    def _loop(self, st, env: dict, facts: frozenset) -> frozenset:
        test = st.count if isinstance(st, ast.Repeat) else st.cond
        pc = self._ev(test, env, facts).all
        self.breaks.append([])
        start, end = self._body_twice(st.body, env, facts, pc, st.span.line)
        if isinstance(st, ast.While):  # the condition is tested again after each pass
            again = self._ev(test, env, end).all
            if not again <= pc:
                start, end = self._body_twice(st.body, env, start, pc | again, st.span.line)
        return _meet(start & end, self.breaks.pop())

    def _choose(self, st: ast.Choose, env: dict, facts: frozenset) -> frozenset:
        who = self._ev(st.player, env, facts)
        self._sink(st.player.span, who.all, "every seat sees who chooses, and that depends on {}", "this choice")
        chooser = self._canon(st.player, env)
        name = show(st.player)
        envs, ends = [], []
        for alt in st.alternatives:
            inner = dict(env)
            if alt.kind in ("card", "set"):  # (a set of cards: cards of the source, as a card is one)
                src = self._ev(alt.source, env, facts)
                inner[alt.var] = Binding(Val(src.ident), ("alt", id(alt)), self._over(alt.source, env))
                self._to_chooser(alt.source.span, src.shape, chooser,
                                 f"how many options `{name}` has depends on {{}}")
                # (the options name each card only to a chooser who knows it, others by place: no sink)
                if alt.pile is not None:  # the pile's number is written in the rules
                    inner[alt.pile.var] = Binding(NOTHING, ("alt", id(alt.pile)))
            elif alt.kind == "number":
                bounds = self._ev(alt.source, env, facts).all | self._ev(alt.high, env, facts).all
                self._to_chooser(alt.span, bounds, chooser, f"the numbers `{name}` may choose depend on {{}}")
                inner[alt.var] = Binding(NOTHING, ("alt", id(alt)))
            elif alt.kind == "player":
                among = self._ev(alt.source, env, facts).all
                self._to_chooser(alt.source.span, among, chooser, f"the players `{name}` may choose depend on {{}}")
                inner[alt.var] = Binding(NOTHING, ("alt", id(alt)))
            elif alt.kind == "value":  # a rank, a suit, a declared value, a number of a list
                if alt.source is not None:
                    among = self._ev(alt.source, env, facts).all
                    self._to_chooser(alt.source.span, among, chooser, f"the values `{name}` may choose depend on {{}}")
                inner[alt.var] = Binding(NOTHING, ("alt", id(alt)))
            if alt.second is not None:  # `… and a strain s`: every value of its type is offered
                inner[alt.second.var] = Binding(NOTHING, ("alt", id(alt.second)))
            if alt.where is not None:
                w = self._ev(alt.where, inner, facts).all
                self._to_chooser(alt.where.span, w, chooser, f"which options `{name}` may choose depends on {{}}")
            if alt.label is not None:
                self._label(alt.label, inner, facts, chooser, name)
            end = self._stmts(alt.body, inner, facts)
            envs.append(inner)
            ends.append(end)
        self._merge(env, envs)
        out = ends[0] if ends else facts
        for f in ends[1:]:
            out = out & f
        return out

    def _label(self, label: ast.Text, env: dict, facts: frozenset, chooser, name: str) -> None:
        for part in label.parts:
            if not isinstance(part, ast.Expr):
                continue
            v = self._ev(part, env, facts)
            if self.types.get(id(part)) in CARDISH:
                # a card in a label is shown by name only to those who know it, to the others by place
                self._sink(part.span, v.shape, "this label shows every seat a value computed from {}")
            else:
                self._sink(part.span, v.all, "this label shows every seat a value computed from {}")
