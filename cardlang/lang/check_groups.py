"""The checks of zones of groups (`zone laid: per player, public, groups`) and `lay`: melds kept as
the groups they were laid in (docs/language.md, "Structures on the table").

A zone of groups knows the group of each of its cards because every card goes into it by `lay`,
which says the group. So any other way into such a zone (`move`, `deal`, `swap` of zones, the zone
given to a phase's parameter or kept in a variable, where it could be moved to unseen) is E060,
and `lay` into a zone without groups is E060 too. Kept apart from `check.py` so the checker's core
stays small; each function takes the `Checker`.
"""

from __future__ import annotations

from typing import Optional

from . import ast

# the checker's names of types (lang/check.py, which imports this module)
CARD, CARDS, ZONE = "card", "cards", "zone"


def family(checker, e) -> Optional[str]:
    """The zone of groups `e` names (`laid`, `laid(p)`), or None."""
    name = e.name if isinstance(e, ast.Name) else e.func if isinstance(e, ast.Call) else None
    if name is None or name not in checker.sym.group_zones:
        return None
    sym = checker._find(name, called=isinstance(e, ast.Call))
    return name if sym is not None and sym.kind in ("zone", "pzone", "nzone") else None


def lay(checker, st: ast.Lay) -> None:
    """`lay cards to zone [with card]`: the zone is one of groups, the card one card."""
    checker.expect(st.cards, (CARD, CARDS, ZONE), "what `lay` lays")
    checker.expect(st.zone, (ZONE,), "where `lay` lays cards")
    if st.joins is not None:
        checker.expect(st.joins, (CARD,), "the card whose group `lay … with` joins")
    if family(checker, st.zone) is None:
        z = st.zone
        name = z.name if isinstance(z, ast.Name) else z.func if isinstance(z, ast.Call) else "…"
        checker.error("E060", "`lay` lays cards in a zone of groups, and this zone keeps no groups", st.zone.span,
                      help=f"add `groups` to the declaration of `{name}` (`zone {name}: …, groups`), "
                           "or `move` the cards")


def put(checker, zone, how: str) -> None:
    """E060 where `how` (`move`, `deal`, `swap`) would put cards into a zone of groups."""
    name = family(checker, zone)
    if name is not None:
        checker.error("E060", f"`{how}` cannot put cards in `{name}`: a zone of groups takes cards by `lay`, "
                      "which says their group", zone.span,
                      help=f"`lay cs to {name}(…)` lays a new group; "
                           f"`lay c to {name}(…) with x` joins the group of x")


def group_of(checker, e: ast.GroupOf) -> str:
    """The type of `group of c`: cards (E060 in a game without a zone of groups)."""
    checker.expect(e.card, (CARD,), "the card `group of` finds")
    if not checker.sym.group_zones:
        checker.error("E060", "`group of` reads the groups of a zone of groups, and this game has none", e.span,
                      help="declare the zone the melds are laid in with `groups` "
                           "(`zone laid: per player, public, groups`)")
    return CARDS


def passed_on(checker, e, where: str) -> None:
    """E060 where a zone of groups is given to a parameter or kept (`where`): what moves cards into
    it there could not say their group."""
    name = family(checker, e)
    if name is not None:
        checker.error("E060", f"a zone of groups cannot be {where}: `{name}` takes cards by `lay` only", e.span,
                      help=f"write `{name}(…)` where the cards are laid")
