"""The checks of tableau games: numbered zone families (`zone column: 7 piles`, `column(k)`, `piles
of column`), ranges of numbers (`1..7`), `c is face up`, `position of c in z`, and a choice of a card
with a pile (`… and a pile k from column`).

Kept apart from `check.py` so the checker's core stays small; each function takes the `Checker`.
"""

from __future__ import annotations

import re

from . import ast
from .limits import MAX_PILES

PILES_RE = re.compile(r"([0-9]+) piles?")
# the checker's names of types (lang/check.py, which imports this module)
NUMBER, BOOL, CARD, CARDS, ZONE, LIST = "number", "bool", "card", "cards", "zone", "list"


def zone_count(checker, d: ast.ZoneDecl, words: str, span) -> int:
    """The number of piles an attribute `N piles` declares (E031 when it is out of range; 0 on error)."""
    n = int(PILES_RE.fullmatch(words).group(1))
    if not 1 <= n <= MAX_PILES:
        checker.error("E031", f"zone `{d.name}` has {n} piles; a family has 1 to {MAX_PILES}", span)
        return 0
    return n


def family_call(checker, e: ast.Call, count: int) -> str:
    """The type of `column(k)`: one pile of a numbered family (E031 for a constant outside 1..count)."""
    if len(e.args) != 1:
        checker.error("E013", f"`{e.func}(…)` takes one pile number, from 1 to {count}", e.span)
        for a in e.args:
            checker.type_of(a)
        return ZONE
    k = e.args[0]
    checker.expect(k, (NUMBER,), f"which pile of `{e.func}`")
    if isinstance(k, ast.Number) and not 1 <= k.value <= count:
        checker.error("E031", f"`{e.func}` has piles 1 to {count}, not {k.value}", k.span)
    return ZONE


def family_name(checker, e: ast.Name) -> None:
    """E031: a family's name used without the number of one of its piles."""
    checker.error("E031", f"`{e.name}` is a family of piles: say which, e.g. `{e.name}(1)`", e.span,
                  help=f"name one pile, `{e.name}(k)`, or let a player choose one: `… and a pile k from {e.name}`")


def expr_type(checker, e) -> str:
    """The type of `c is face up`, `position of c in z`, `lo..hi` or `piles of column`."""
    if isinstance(e, ast.Range):
        checker.expect(e.low, (NUMBER,), "where a range `..` starts")
        checker.expect(e.high, (NUMBER,), "where a range `..` ends")
        return LIST
    if isinstance(e, ast.PilesOf):
        family(checker, e.family, e.family_span, "`piles of` names a family of piles")
        return LIST
    if isinstance(e, ast.FaceUp):
        checker.expect(e.card, (CARD,), "what `is face up` tests")
        return BOOL
    checker.expect(e.card, (CARD,), "the card `position of` looks for")
    checker.expect(e.zone, (ZONE, CARDS), "where `position of` looks")
    return NUMBER


def family(checker, name: str, span, what: str) -> None:
    """E043 unless `name` is a numbered family of piles (`what` says what needed one); marks it used."""
    if checker.sym.zone_counts.get(name) is None:
        known = checker._find(name)
        kind = "an unknown name" if known is None else checker._what(known)
        if known is not None:
            known.used = True  # (one problem, one error: not also W001's "never used")
        hint = checker._suggest(name) if known is None else None
        checker.error("E043", f"{what}, and `{name}` is {kind}", span,
                      help=hint or "declare one: `zone column: 7 piles, public`")
    else:
        checker.sym.table[name].used = True


def bind_pile(checker, alt: ast.Alternative) -> None:
    """Checks `and a pile k from family` and binds `k` (a number) for the filter, label and body."""
    pile = alt.pile
    family(checker, pile.family, pile.family_span, "a pile is chosen from a family of piles")
    if pile.var == alt.var:
        checker.error("E011", f"`{pile.var}` names both the card and the pile", pile.span)
    checker.bind(pile.var, NUMBER, pile.span)
