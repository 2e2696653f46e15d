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
  observation), the score, who chooses, who is eliminated, who wins. A card itself in a text or a
  variable is shown only to the seats that know it, so only its `shape` counts there; in a label
  too a card the chooser does not know is named by its place. What the chooser may choose (filters,
  conditions, ranges) is seen by the chooser only.
- *Implicit flows*. Inside a branch or a loop whose condition is computed from hidden cards, every
  sink above tells whether the branch ran. A branch that `reveal`s a card of what it tests, or in
  which the owner of the tested cards speaks (`p says …`), makes its condition public: the rules
  show or tell it there.
- *Clearing*. `reveal x` (to all), a move `face up` or into a public zone make those cards known
  until cards enter that zone again, it is shuffled or hidden; `for each p in players: reveal
  hand(p)` reveals every hand. A seat's own cards are no secret to it: a label or a filter of
  `p chooses` may use `hand(p)` (or cards shown to `p` with `reveal … to p`), and `p says` may
  tell about `p`'s cards.

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
from .flow import _mentions as ast_mentions
from .statements import UnknownStatement

CARDISH = {"card", "cards", "zone", "zones"}
EMPTY = frozenset()
ALL = ("all",)  # a `for each` over every player
MAX_VISITS = 200_000  # statements and expressions visited; a bigger analysis gives up, silently
MAX_ROUNDS = 8  # passes over the whole program until what phases receive stops growing
HELP_HIDDEN = "if the rules show these cards here, `reveal` them first"
HELP_PRIVATE = HELP_HIDDEN + "; a player telling about his own cards is `p says \"…\"`"


@attrs.frozen
class Source:
    """A zone whose cards some seat cannot see: its family, its owner's key (None: nobody sees it)."""

    family: str
    owner: object
    text: str = attrs.field(eq=False, hash=False)
    private: bool = attrs.field(eq=False, hash=False)
    seen_by: frozenset = attrs.field(default=EMPTY, eq=False, hash=False)  # keys of players shown it (`reveal … to`)
    away: bool = attrs.field(default=False, eq=False, hash=False)  # facing away: every seat but its owner sees it
    note: str = attrs.field(default="", eq=False, hash=False)  # where the cards went out of sight, for messages

    def mine(self, key) -> bool:
        """Whether the player `key` knows these cards: his own private zone, or (facing away) another's."""
        if self.away:
            return self.owner is not None and self.owner != key
        return self.owner == key


@attrs.frozen
class Val:
    """What a value depends on: `ident` (what its cards are, or the value itself), `shape` (how many)."""

    ident: frozenset = EMPTY
    shape: frozenset = EMPTY

    @property
    def all(self) -> frozenset:
        """Every source the value depends on."""
        return self.ident | self.shape

    def join(self, other: "Val") -> "Val":
        """Both values' sources."""
        return Val(self.ident | other.ident, self.shape | other.shape)


NOTHING = Val()


def _scalar(*vals) -> Val:
    out = EMPTY
    for v in vals:
        out = out | v.all
    return Val(out)


@attrs.define
class Binding:
    """A local name: its value's taint, the key that stands for it, and what a loop variable goes over."""

    val: Val
    alias: object
    over: object = None
    text: str = ""  # how a definition's parameter is written where it is called


@attrs.define
class Frame:
    """A branch or loop body under a condition: warnings that wait for it to end, and what it declassifies."""

    pending: list = attrs.Factory(list)  # (span, message, pc sources, notes) or ("call", phase, pc sources)
    tests: dict = attrs.Factory(dict)  # source its condition tests -> where ("tested on line 12")
    revealed: set = attrs.Factory(set)
    speakers: set = attrs.Factory(set)


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


def show(e, env: Optional[dict] = None) -> str:
    """An expression written back, compactly, for messages (`hand(right of p)`); a definition's
    parameters are written as the arguments it was given."""
    if isinstance(e, ast.Name):
        b = (env or {}).get(e.name)
        return b.text if b is not None and b.text else e.name
    if isinstance(e, ast.Number):
        return str(e.value)
    if isinstance(e, ast.Call):
        return f"{e.func}({', '.join(show(a, env) for a in e.args)})"
    if isinstance(e, ast.Neighbour):
        return f"{e.side} of {show(e.player, env)}"
    if isinstance(e, ast.EndCard):
        return f"{e.end} {show(e.count, env) + ' ' if e.count is not None else ''}of {show(e.zone, env)}"
    if isinstance(e, ast.Players):
        return "players" + (f" from {show(e.start, env)}" if e.start is not None else "")
    if isinstance(e, ast.Seats):
        return "seats"
    return "…"


def _describe(src: Source, note: Optional[str] = None) -> str:
    note = note or src.note
    where = f" ({note})" if note else ""
    seen = "only its owner sees" if src.private else "its owner does not see" if src.away else "no seat sees"
    return f"`{src.text}`{where}, which " + seen


def _shown_to(key, facts: frozenset) -> frozenset:
    return frozenset(f[1] for f in facts if f[0] == "to" and f[2] == key)


def _seen(v: Val, viewers: frozenset) -> Val:
    """`v`, its cards known to `viewers` too."""
    if not viewers:
        return v
    return Val(frozenset(attrs.evolve(s, seen_by=s.seen_by | viewers) for s in v.ident), v.shape)


def _everyone(e) -> bool:
    """Whether an expression stands for every player (`players`, `seats`)."""
    return isinstance(e, ast.Seats) or (isinstance(e, ast.Players) and e.start is None and e.stop is None)


def _contenders(pot: str) -> tuple:
    """The key of `contenders(pot)`, as `InfoFlow._canon` writes it: what `pay pot to …` goes over."""
    return ("call", "contenders", (("g", pot),))


def _rebase(v: Val, owners: dict) -> Val:
    """`v` with the owners (and seats shown) renamed by `owners`: a phase's arguments seen from inside."""
    if not owners:
        return v

    def one(src: Source) -> Source:
        return attrs.evolve(src, owner=owners.get(src.owner, src.owner),
                            seen_by=frozenset(owners.get(k, k) for k in src.seen_by))
    return Val(frozenset(one(x) for x in v.ident), frozenset(one(x) for x in v.shape))


MIRROR = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "==", "!=": "!="}
NEGATE = {"<": ">=", ">": "<=", "<=": ">", ">=": "<", "==": "!=", "!=": "=="}


def _at_most_one(cond, holds: bool) -> Optional[str]:
    """The pot for which at most one player contends where `cond` is `holds` (`count(contenders(pot)) > 1`
    false, `… <= 1` true), else None."""
    if isinstance(cond, ast.Unary) and cond.op == "not":
        return _at_most_one(cond.operand, not holds)
    if not isinstance(cond, ast.Binary) or cond.op not in MIRROR:
        return None
    left, op, right = cond.left, cond.op, cond.right
    if isinstance(left, ast.Number):
        left, op, right = right, MIRROR[op], left
    if not (isinstance(right, ast.Number) and isinstance(left, ast.Call) and left.func == "count"
            and len(left.args) == 1 and isinstance(left.args[0], ast.Call) and left.args[0].func == "contenders"
            and len(left.args[0].args) == 1 and isinstance(left.args[0].args[0], ast.Name)):
        return None
    op = op if holds else NEGATE[op]
    n = right.value
    if (op == "<=" and n <= 1) or (op == "<" and n <= 2) or (op == "==" and n <= 1):
        return left.args[0].args[0].name
    return None


def _about_top(fact) -> bool:
    return fact[0] == "end" or (fact[0] == "to" and fact[2][0] == "end")


def _first(sources) -> Source:
    return min(sources, key=lambda s: (s.text, s.family))


def _mentions(key, family: str, pile=None) -> bool:
    """Whether a fact's key names a zone of `family`; with `pile` (the key of a pile number written
    as a literal), only that pile of a numbered family, or one whose number is not a literal."""
    if isinstance(key, tuple):
        if len(key) == 3 and key[0] == "zone" and key[1] == family:
            return pile is None or key[2] == pile or not (isinstance(key[2], tuple) and key[2][:1] == ("lit",))
        return any(_mentions(k, family, pile) for k in key)
    return False


class InfoFlow:
    """The taint analysis: one walk per block and per round of the fixed point, reporting into `found`."""

    def __init__(self, checker):
        self.sym = checker.sym
        self.types = checker.sym.types
        self.visits = 0
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
    def _move(self, st: ast.Move, env: dict, facts: frozenset) -> frozenset:
        v = self._ev(st.cards, env, facts)
        self._ev(st.zone, env, facts)
        return self._moved(st.cards, v, st.zone, st.facing, env, facts, st.span.line)

    @_effect.register
    def _deal(self, st: ast.Deal, env: dict, facts: frozenset) -> frozenset:
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
    def _reverse(self, st: ast.Reverse, env: dict, facts: frozenset) -> frozenset:
        self._sink(st.span, EMPTY, "", "the reversal of the direction")  # every seat sees play turn the other way
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
            local = f[2] if f[0] == "to" else f
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
        start, end = self._body_twice(st.body, inner_env, facts, pc, st.span.line)
        for k in env:
            env[k] = inner_env[k]
        kept = set(start & end)
        if st.where is None:
            over = self._over(st.source, env)
            # over a list of numbers written out, each pile of a family shown in the body is shown
            piles = [("lit", i.value) for i in st.source.items if isinstance(i, ast.Number)] \
                if isinstance(st.source, ast.ListExpr) else []
            for f in end:
                if len(f) == 3 and f[0] == "zone" and f[2] == alias:
                    kept.add(("zone", f[1], over))
                    if f[1] in self.sym.zone_counts:
                        kept.update(("zone", f[1], pile) for pile in piles)
        return frozenset(kept)

    def _loop(self, st, env: dict, facts: frozenset) -> frozenset:
        test = st.count if isinstance(st, ast.Repeat) else st.cond
        pc = self._ev(test, env, facts).all
        start, end = self._body_twice(st.body, env, facts, pc, st.span.line)
        if isinstance(st, ast.While):  # the condition is tested again after each pass
            again = self._ev(test, env, end).all
            if not again <= pc:
                start, end = self._body_twice(st.body, env, start, pc | again, st.span.line)
        return start & end

    def _choose(self, st: ast.Choose, env: dict, facts: frozenset) -> frozenset:
        who = self._ev(st.player, env, facts)
        self._sink(st.player.span, who.all, "every seat sees who chooses, and that depends on {}", "this choice")
        chooser = self._canon(st.player, env)
        name = show(st.player)
        envs, ends = [], []
        for alt in st.alternatives:
            inner = dict(env)
            if alt.kind == "card":
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

    # -- expressions
    def _family(self, e) -> Optional[str]:
        if isinstance(e, ast.Name) and e.name in self.sym.zones and not self.sym.zones[e.name][0]:
            return e.name
        if isinstance(e, ast.Call) and e.func in self.sym.zones and (
                self.sym.zones[e.func][0] or e.func in self.sym.zone_counts):  # (a player's, or a pile)
            return e.func
        return None

    def _pile(self, e, env: dict):
        """The key of the number of one pile of a numbered family written as a literal (`column(2)`),
        else None: what changes in that pile leaves what is known of the others."""
        if isinstance(e, ast.Call) and e.func in self.sym.zone_counts and len(e.args) == 1:
            key = self._canon(e.args[0], env)
            return key if key[:1] == ("lit",) else None
        return None

    def _canon(self, e, env: dict):
        """A key for what an expression stands for, equal for the same player or zone written alike."""
        if isinstance(e, ast.Name):
            if e.name in env:
                return env[e.name].alias
            if e.name in self.sym.zones:
                return ("zone", e.name, None)
            return ("g", e.name)
        if isinstance(e, ast.Call):
            args = tuple(self._canon(a, env) for a in e.args)
            if e.func in self.sym.zones and len(args) == 1:
                return ("zone", e.func, args[0])
            return ("call", e.func, args)
        if isinstance(e, ast.Neighbour):
            return (e.side, self._canon(e.player, env))
        if isinstance(e, ast.EndCard):
            return ("end", e.end, self._canon(e.zone, env), self._canon(e.count, env) if e.count else None)
        if isinstance(e, (ast.Seats, ast.Number)) or (isinstance(e, ast.Players) and e.start is None and e.stop is None):
            return ("lit", getattr(e, "value", type(e).__name__))
        return ("expr", id(e))

    def _zone(self, e: ast.Expr, family: str, owner_expr, env: dict, facts: frozenset) -> Val:
        per_player, visibility, _ = self.sym.zones[family]
        owner = self._canon(owner_expr, env) if owner_expr is not None else None
        if visibility == "public":  # (unless cards were just moved into it face down)
            down = [f[2] for f in facts if f[0] == "down" and f[1] == ("zone", family, owner)]
            return Val(frozenset().union(*down))
        if ("zone", family, owner) in facts or ("zone", family, ALL) in facts:
            return NOTHING
        if isinstance(owner_expr, ast.Name) and owner_expr.name in env:
            over = env[owner_expr.name].over
            if over is not None and ("zone", family, over) in facts:
                return NOTHING
        private = visibility in ("private", "facing away") and self.types.get(id(owner_expr)) == "player"
        viewers = _shown_to(("zone", family, owner), facts)
        away = visibility == "facing away"  # (seen by every seat but its owner: `Source.mine`)
        return Val(frozenset({Source(family, owner if private else None, show(e, env), private and not away, viewers,
                                     away)}))

    def _ev(self, e, env: dict, facts: frozenset) -> Val:
        """The taint of an expression where `env` binds the local names and `facts` says what is shown."""
        self._tick()
        if e is None or isinstance(e, (ast.Number, ast.Bool, ast.NoneLit, ast.Seats, ast.AllCards, ast.CardLit)):
            return NOTHING  # (a card literal: cards the rules name, wherever they are)
        if isinstance(e, ast.Text):
            return _scalar(*(self._ev(p, env, facts) for p in e.parts if isinstance(p, ast.Expr)))
        if isinstance(e, ast.Name):
            if e.name in env:
                b = env[e.name]
                if b.alias in facts:
                    return Val(EMPTY, b.val.shape)
                return _seen(b.val, _shown_to(b.alias, facts))
            if e.name in self.sym.zones:
                return self._zone(e, e.name, None, env, facts)
            key = ("g", e.name)
            if key in facts:  # (`reveal drawn`, and nothing set since)
                return NOTHING
            return _seen(Val(self.globals.get(e.name, EMPTY)), _shown_to(key, facts))
        if isinstance(e, ast.ListExpr):
            items = [self._ev(i, env, facts) for i in e.items]
            if self.types.get(id(e)) in CARDISH:  # a list of cards: its length is written in the rules
                return Val(frozenset().union(*(i.ident for i in items)), frozenset().union(*(i.shape for i in items)))
            return _scalar(*items)
        if isinstance(e, ast.Call):
            return self._ev_call(e, env, facts)
        if isinstance(e, ast.Index):
            base, index = self._ev(e.base, env, facts), self._ev(e.index, env, facts)
            return Val(base.ident | index.all, base.shape | index.all)
        if isinstance(e, ast.Unary):
            return _scalar(self._ev(e.operand, env, facts))
        if isinstance(e, ast.Binary):
            return self._ev_binary(e, env, facts)
        if isinstance(e, ast.Conditional):
            cond = self._ev(e.cond, env, facts).all
            v = self._ev(e.then, env, facts).join(self._ev(e.otherwise, env, facts))
            return Val(v.ident | cond, v.shape | cond)
        if isinstance(e, ast.Neighbour):
            return _scalar(self._ev(e.player, env, facts))
        if isinstance(e, ast.EndCard):
            z, n = self._ev(e.zone, env, facts), self._ev(e.count, env, facts)
            if self.types.get(id(e.zone)) in CARDISH:
                key = self._canon(e, env)
                if key in facts:  # `reveal top of talon`, and nothing moved since
                    return Val(EMPTY, z.shape | n.all)
                return _seen(Val(z.ident | n.all, z.shape | n.all), _shown_to(key, facts))
            return _scalar(z, n)
        if isinstance(e, ast.Players):
            return _scalar(self._ev(e.start, env, facts), self._ev(e.stop, env, facts))
        if isinstance(e, ast.Aggregate):
            return self._ev_aggregate(e, env, facts)
        if isinstance(e, ast.FaceUp):  # which cards every seat knows is seen by every seat
            return Val(self._ev(e.card, env, facts).shape)
        if isinstance(e, ast.PositionOf):
            return _scalar(self._ev(e.card, env, facts), self._ev(e.zone, env, facts))
        return NOTHING

    def _ev_call(self, e: ast.Call, env: dict, facts: frozenset) -> Val:
        args = [self._ev(a, env, facts) for a in e.args]
        s = self.sym
        if e.func in s.zones and s.zones[e.func][0] and e.func not in env and len(e.args) == 1:
            who = args[0].all
            z = self._zone(e, e.func, e.args[0], env, facts)
            return Val(z.ident | who, z.shape | who)
        if e.func in s.zone_counts and e.func not in env and len(e.args) == 1:  # one pile of a family
            k = args[0].all
            z = self._zone(e, e.func, e.args[0], env, facts)  # (a pile is shown on its own)
            return Val(z.ident | k, z.shape | k)
        if e.func in s.defines and len(e.args) == len(s.defines[e.func].params):
            d = s.defines[e.func]
            inner = {}
            for p, a, x in zip(d.params, args, e.args):
                over = env[x.name].over if isinstance(x, ast.Name) and x.name in env else None
                inner[p.name] = Binding(a, self._canon(x, env), over, show(x, env))
            return self._ev(d.body, inner, facts)
        if e.func == "count" and args and self.types.get(id(e.args[0])) in CARDISH:
            return Val(args[0].shape)
        face = self._face_read(e.func)
        if face is not None and len(e.args) == 1 and ("face", face, self._canon(e.args[0], env)) in facts:
            return Val(args[0].shape)  # (`tell players the rank of c`: every seat knows it)
        if e.func in ("random",) and args:
            return args[0]
        return _scalar(*args)

    def _face_read(self, func: str) -> Optional[str]:
        """The face of a card a function of one card reads: "rank" (`rank`, an order, points, values),
        "suit", or None."""
        if func == "suit":
            return "suit"
        sym = self.sym.table.get(func)
        if func == "rank" or func in self.sym.orders or func in self.sym.values or (sym is not None and sym.kind == "points"):
            return "rank"
        return None

    def _leaves_out_one(self, where, var: str, src: Val, env: dict, facts: frozenset) -> bool:
        """Whether an aggregate's `where` only leaves out a card taken from the same cards (`d != c`):
        how many remain does not depend on which card it is."""
        if not (isinstance(where, ast.Binary) and where.op in ("!=", "is not")):
            return False
        for mine, other in ((where.left, where.right), (where.right, where.left)):
            if isinstance(mine, ast.Name) and mine.name == var and not ast_mentions(other, var):
                return self.types.get(id(other)) == "card" and self._ev(other, env, facts).ident <= src.ident
        return False

    def _ev_binary(self, e: ast.Binary, env: dict, facts: frozenset) -> Val:
        left, right = self._ev(e.left, env, facts), self._ev(e.right, env, facts)
        if e.op in ("is", "is not", "==", "!=") and isinstance(e.right, ast.NoneLit):
            return Val(left.shape)
        if e.op in ("+", "except") and self.types.get(id(e)) in CARDISH:
            if e.op == "except" and right.ident <= left.ident:
                # leaving out cards taken from the same place: how many remain does not depend on them
                return Val(left.ident, left.shape | right.shape)
            return Val(left.ident | right.ident, left.shape | right.all)
        return _scalar(left, right)

    def _ev_aggregate(self, e: ast.Aggregate, env: dict, facts: frozenset) -> Val:
        src = self._ev(e.source, env, facts)
        cards = self.types.get(id(e.source)) in CARDISH
        inner = dict(env)
        inner[e.var] = Binding(Val(src.ident) if cards else Val(src.all), ("agg", id(e)), self._over(e.source, env))
        if cards and self._leaves_out_one(e.where, e.var, src, env, facts):
            where = EMPTY  # (`select d in hand(p) where d != c`, c of hand(p): as `hand(p) except c`)
        else:
            where = self._ev(e.where, inner, facts).all if e.where is not None else EMPTY
        body = self._ev(e.body, inner, facts).all if e.body is not None else EMPTY
        many = src.shape if cards else src.all
        if e.kind in ("any", "count", "sum", "min", "max"):
            return Val(many | where | body)
        if e.kind == "select":
            return Val(src.ident | where, src.shape | where) if cards else Val(src.all | where)
        return Val(src.ident | body | where, src.shape | where) if cards else Val(src.all | body | where)
