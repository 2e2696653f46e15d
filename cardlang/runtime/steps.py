"""Rule steps both engines take through the same code: a shuffle, a `random` draw, a deal out of a
hand others do not see, and the rule errors of a pile number out of range and of a `move …
strictly` that finds too few cards. The
reference interpreter calls them with the values it has worked out, the generated code with its
own (bound by name in the program's namespace), so they draw, change and say the same."""

from __future__ import annotations

from . import among, facts, rng
from .basics import RuleError
from .log import flush, zone_words
from .zones import known_only_by, learn


def shuffle_zone(s, z: int, vis, names) -> None:
    """`shuffle z`: by the state's chance (or the stacked deck); only who sees the zone knows its
    cards then (nothing, in a quiet state: `runtime.playout.quiet`)."""
    pile = s.zones[z]
    if s.fresh:
        flush(s)  # a card shown before the shuffle stays shown in the log
    s.rng = rng.shuffle(pile, s.rng, z)
    if s.stacks is not None and s.stacks[0] < len(s.stacks[2]):
        i, given, ids = s.stacks
        top = [c for c in ids[i] if c in pile]
        rest = [c for c in pile if c not in set(top)]
        pile[:] = rest + top[::-1]  # the end of the list is the top
        s.stacks = (i + 1, given, ids)
    if not s.quiet:
        mask = vis[z]
        if s.among is not None:
            among.forget(s, pile, mask)
        known = s.known
        if len(pile) == len(known):  # the whole deck: nobody knows any card but by the zone
            known[:] = [mask] * len(known)
        else:
            for c in pile:
                known[c] = mask
    if s.facts is not None:
        facts.clear(s, pile)  # what a seat was told of these cards no longer holds
    if s.log is not None:
        s.fresh.append((f"{zone_words(names[z])} is shuffled", ()))


def settle(s, z: int, k: int) -> None:
    """Before a deal takes the top `k` cards of zone `z`: a chance source that shuffled the zone
    lazily chooses the cards of those places now (`runtime/rng.py`). A seeded state's piles are
    already in order, so both engines call this only when the state's chance is not an int."""
    s.rng = s.rng.settle(s.zones[z], z, k)


def draw(s, items: tuple, span):
    """`random(items)`: the next fixed draw, or one by the state's chance."""
    if s.draws is not None and s.draws[0] < len(s.draws[1]):
        i, values = s.draws
        s.draws = (i + 1, values)
        if values[i] not in items:
            raise RuleError(f"the fixed draw {values[i]!r} is not among {items}", span)
        return values[i]
    if not items:
        raise RuleError("`random` of nothing", span)
    i, s.rng = rng.randbelow(len(items), s.rng)
    return items[i]


def no_such_pile(k: int, family: str, count: int, span):
    """`family(k)` for a k outside 1..count: the rule error."""
    raise RuleError(f"`{family}({k})`: `{family}` has piles 1 to {count}", span)


def strict_short(need: int, have: int, span):
    """The rule error of a `move … strictly` that finds fewer cards than it names."""
    cards = "card" if need == 1 else "cards"
    there = f"only {have} is" if have == 1 else f"only {have} are" if have else "none is"
    raise RuleError(f"this `move … strictly` must move {need} {cards}, but {there} there", span)


def no_neighbour(span):
    """The rule error of `next of`, `left of` or `right of` a player that is none."""
    raise RuleError("the neighbour of no player (none): `next of`, `left of` and `right of` need a player", span)


def bad_deal_count(n, span):
    """The rule error of `deal N` with N below 0 (or not a number: none)."""
    raise RuleError(f"cannot deal {n} card(s): a number of cards cannot be negative" if n is not None
                    else "cannot deal none card(s): the number of cards is none", span)


def deal_from_held(s, n: int, src: int, targets: tuple, face, held: tuple, vis, everyone: int) -> None:
    """`deal n from z to …` where `z` is a hand some seat does not see the places of (another
    player's `private` hand, `among.held`): one card at a time from the top, each place in turn, as
    the engines' deal does, but each card read as a `move` out of that hand (issue 26): a seat that
    does not see it arrive saw a card go, not which (`among.before`, `among.merge`), and one that
    sees it arrive did not see the place it left. `face`: None, "up" or "down"."""
    pile, zones, loc = s.zones[src], s.zones, s.loc
    for _ in range(n):
        for z in targets:
            c = pile[-1]
            after = everyone if face == "up" else 0 if face == "down" else vis[z]
            groups = among.before(s, (c,), held, after)
            pile.pop()
            zones[z].append(c)
            loc[c] = z
            if face == "up":
                known_only_by(s, (c,), everyone)
            elif face is None:
                learn(s, (c,), vis[z])
            if groups:
                among.merge(s, groups)
