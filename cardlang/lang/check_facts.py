"""The checks of finer knowledge: zones held facing away (`zone hand: per player, facing away`),
`tell p the suit of c`, `tell p which cards of z are v` and `forget order of z` (E056-E058, W009).

Kept apart from `check.py` so the checker's core stays small; each function takes the `Checker`.
"""

from __future__ import annotations

from . import ast
from .types import ANY, CARD, CARDS, PLAYER, PLAYERS, RANK, SUIT, ZONE, article

FACING_AWAY = "facing away"  # the visibility of a zone everyone sees but its owner
FACES = ("suit", "rank")


def zone_visibility(checker, d: ast.ZoneDecl, per_player: bool, visibility) -> None:
    """E056: a zone facing away must be one per player (it hides its cards from its owner)."""
    if visibility == FACING_AWAY and not per_player:
        checker.error("E056", f"zone `{d.name}` is facing away but shared: only a player's own zone faces away "
                      "from him", d.span, help="add `per player`, or make it `hidden` or `public`")


def statement(checker, st) -> None:
    """Checks a `tell` or a `forget order of`; notes in the symbols that the game keeps facts."""
    if isinstance(st, ast.ForgetOrder):
        checker.expect(st.zone, (ZONE,), "what `forget order of` forgets")
        _forget_public(checker, st)
        return
    checker.sym.facts = True
    checker.expect(st.to, (PLAYER, PLAYERS), "whom `tell` tells")
    if isinstance(st, ast.TellFace):
        if st.kind not in FACES:
            checker.error("E057", f"`tell … the {st.kind} of …`: a player is told the suit or the rank of a card",
                          st.kind_span, help="write `the suit of c` or `the rank of c`")
        checker.expect(st.card, (CARD,), "the card `tell` speaks of")
        return
    checker.expect(st.cards, (CARD, CARDS, ZONE), "the cards `tell` speaks of")
    if isinstance(st.value, ast.Number):  # a rank written as a number (`are 5`), as `c is 5` reads it
        checker.sym.types[id(st.value)] = RANK
        if str(st.value.value) not in checker.all_ranks:
            checker.error("E021", f"`{st.value.value}` is not a rank of the deck", st.value.span)
        return
    t = checker.type_of(st.value)
    if t not in (SUIT, RANK, ANY):
        checker.error("E058", f"`tell … which cards … are …` names a suit or a rank, not {article(t)}",
                      st.value.span, help="a suit (`hearts`, `suit(c)`) or a rank (`5`, `rank(c)`)")


def _forget_public(checker, st: ast.ForgetOrder) -> None:
    """W009: forgetting the order of a zone every seat sees changes nothing (they all still see it)."""
    z = st.zone
    name = z.name if isinstance(z, ast.Name) else z.func if isinstance(z, ast.Call) else None
    info = checker.sym.zones.get(name)
    if info is not None and info[1] == "public":
        checker.warn("W009", f"`forget order of {name}` changes nothing: every seat sees the cards of `{name}`",
                     st.span, help="forget the order of a zone whose cards some seats do not see, or remove the line")

