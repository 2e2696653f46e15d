"""The values of the information-flow check (W004, `lang/infoflow.py`): what a value depends on
(`Source`, `Val`), what names stand for (`Binding`), the branches being walked (`Frame`), and the
small functions over them and over the facts (what is shown)."""

from __future__ import annotations

from typing import Optional

import attrs

from . import ast

CARDISH = {"card", "cards", "zone", "zones"}
EMPTY = frozenset()
ALL = ("all",)  # a `for each` over every player


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
    return fact[0] == "end" or (fact[0] in ("to", "face") and fact[2][0] == "end")


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
