"""Zones of groups: melds kept as the groups the players laid them in (docs/language.md,
"Structures on the table").

A game with a zone of groups (`zone laid: per player, public, groups`) keeps one slot of `state.v`
(`program.group_slot`): a tuple with, for each card id, the number of the group it was last laid
in (0: none; None in the slot: no lay yet). Every card of a zone of groups went there by `lay`
(the checker refuses any other way in, E060), which numbered its group, and `swap` of two cards
trades their numbers, so the number of a card in such a zone is its group's. A card that leaves
keeps a stale number, read by nobody until a `lay` numbers it again. Groups are numbered in the
order they were laid, so the number also orders them. Both engines call these functions; `melds(z)`
of a zone of groups reads them with `runtime.melds.laid_groups`.
"""

from __future__ import annotations

from .basics import RuleError


def lay(s, slot: int, cards, dest: int, joins, joined: bool, span) -> None:
    """Before `cards` go to zone `dest`: they make a new group (after every group laid so far), or,
    when `joined`, join the group of the card `joins`, which must lie in `dest` (a rule error
    otherwise: none, or a card elsewhere)."""
    if joined:
        if joins is None:
            raise RuleError("`lay … with` names no card: there is no group to join", span)
        if s.loc[joins] != dest:
            names = s.game.program.zone_names
            raise RuleError(f"`lay … with {s.game.deck.name_of(joins)}`: that card is not in `{names[dest]}` "
                            f"but in `{names[s.loc[joins]]}`", span)
    if not cards:
        return
    tags = s.v[slot]
    tags = list(tags) if tags is not None else [0] * len(s.loc)
    group = tags[joins] if joined else max(tags) + 1
    for c in cards:
        tags[c] = group
    s.v[slot] = tuple(tags)


def swap(s, slot: int, a, b) -> None:
    """`swap a with b` of two cards: each takes the other's place, in its group."""
    tags = s.v[slot]
    if tags is not None and a is not None and b is not None and tags[a] != tags[b]:
        tags = list(tags)
        tags[a], tags[b] = tags[b], tags[a]
        s.v[slot] = tuple(tags)


def group_of(s, slot: int, zones: frozenset, card) -> tuple:
    """`group of card`: the cards of its group, in their zone's order, when it lies in one of the
    zones of groups `zones`; no cards for none or a card elsewhere."""
    if card is None or s.loc[card] not in zones:
        return ()
    tags = s.v[slot]
    if tags is None:  # (a card there went by `lay`, which numbered its group: never so)
        return (card,)
    mine = tags[card]
    return tuple(c for c in s.zones[s.loc[card]] if tags[c] == mine)


def follow(tags, moved: dict):
    """The numbers after a redeal (`moved`: old card -> the card dealt into its place): each place
    keeps its group (runtime/view.py)."""
    if tags is None:
        return None
    out = list(tags)
    for old, new in moved.items():
        out[new] = tags[old]
    return tuple(out)
