"""Knowledge that can say "one of these": a card a seat knew, then saw leave with others unseen.

A seat that knew the 7♠ in P0's hand and sees P0 put a card face down without seeing which no
longer knows where the 7♠ is, but it knows exactly this: the 7♠ is in P0's hand or on the pile,
and so is every other card it knew in that hand. The engine keeps that as `state.among`: None
while no seat knows such a thing (every game starts so, and most stay so: it costs nothing there),
else a dict from a card (the physical card lying in a place) to an int holding, for each seat, a
field of `width = deck size + 1` bits (seat s at `s * width`): bit i for "the card here may be
card i", and bit `deck size` (FREE) for "it may be any card this seat tracks nowhere". A seat's
field 0 means nothing is known of the place beyond what `state.known` says (any untracked card).
A card identity is tracked by a seat when some place it does not know lists it: then it lies in
one of those places, and in no other.

What a seat observes of each card movement (docs/knowledge.md, "One of these"):

- it sees which card moved when it sees where the card was taken from (a zone whose places it sees:
  any zone but another player's `private` one, see `held`), or sees the card where it arrives (face up,
  or a zone that shows it its cards), or every card of the zone goes; when it saw the card only
  where it arrived, the places of the hand it left that it does not know each may hold what any of
  them could (`_placeless`: which place it left is no more shown than which card a face down one was);
- else it sees only that a card left that zone (`merge`): every card of the zone before the move (the
  ones that left and those left behind) may be any of the cards the seat knew or tracked there, or,
  if one of them was unknown to it, any card it tracks nowhere;
- a shuffle, a `hide`, `forget order of` and a pick moved face down at once make it forget cards
  (`forget`): the cards it forgets are no longer tracked anywhere (so they may be anywhere unknown).

Every write leaves a quiet state as it stands (`runtime.playout.quiet`): nothing a rule reads depends
on it. `deal_fits` is what determinization honours: each card a seat tracks lies in a place that
lists it, each place holds a card it allows.
"""

from __future__ import annotations

import random
from typing import Optional

from .log import pin


def held(layout) -> tuple:
    """Zone id -> the seats that do not see its places: for a player's `private` zone (a hand he
    holds), every seat but its owner; 0 for the others (a pile on the table shows where each of
    its cards lies, face up or down; a public or facing away zone shows the cards themselves)."""
    out = []
    for z, owner in enumerate(layout.zone_owner):
        out.append(layout.all & ~(1 << owner) if owner >= 0 and layout.zone_vis[z] == 1 << owner else 0)
    return tuple(out)


def field(s, seat: int, card: int) -> int:
    """The seat's field of the place where `card` lies (0: nothing tracked)."""
    among = s.among
    if among is None:
        return 0
    w = len(s.known) + 1
    return among.get(card, 0) >> (seat * w) & ((1 << w) - 1)


def before(s, moving, held_by, after) -> Optional[list]:
    """Called before cards leave their zones: the groups a seat will see leave without seeing which
    card, as (the zone's cards before the move, the seats blind to it), or None. `held_by`: the
    layout's `held`; `after`: the seats that see the cards where they arrive (0 for a
    face down move: 0). Only seats that know or track a card of the zone are counted."""
    if s.quiet:
        return None
    loc, zones, known, among = s.loc, s.zones, s.known, s.among
    if len(moving) == 1 and among is None:  # (the common case, one card, nothing tracked: no set, no list)
        z = loc[moving[0]]
        blind = held_by[z] & ~after
        if not blind:
            return None
        pile = zones[z]
        if len(pile) == 1:
            return None
        aware = 0
        for x in pile:
            aware |= known[x]
        blind &= aware
        return [(tuple(pile), blind)] if blind else None
    groups = None
    seen = set()
    going = None
    for c in moving:
        z = loc[c]
        if z in seen:
            continue
        seen.add(z)
        blind = held_by[z] & ~after
        if not blind and (among is None or not held_by[z] & after):
            continue
        pile = zones[z]
        if going is None:
            going = set(moving)
        if going.issuperset(pile):  # the whole zone goes: every seat sees which cards (all of them)
            continue
        if among is not None and held_by[z] & after:
            placeless = _placeless(s, pile, [c for c in moving if loc[c] == z], held_by[z] & after)
            if placeless is not None:
                if groups is None:
                    groups = []
                groups.append(placeless)
        if not blind:
            continue
        aware = 0
        for x in pile:
            aware |= known[x]
            if among is not None:
                aware |= _seats_of(among.get(x, 0), len(known) + 1, s.game.players)
        blind &= aware
        if blind:
            if groups is None:
                groups = []
            groups.append((tuple(pile), blind))
    return groups


def _placeless(s, pile, leaving, seats: int) -> Optional[tuple]:
    """The group of a zone for the seats that will see which cards leave it (where they arrive) but
    not the places they leave (another player's hand): (the zone's cards, those seats, each seat's
    field for the cards left there it does not know), or None. Which of the places a card it did not
    know left is hidden from them, so each place left may hold what any of them allowed: the union
    of their fields (an untracked card: FREE). A seat that knew every card leaving learns nothing."""
    known, among = s.known, s.among
    w = len(known) + 1
    free, mask = 1 << (w - 1), (1 << w) - 1
    mays = None
    for p in range(s.game.players):
        bit = 1 << p
        if not seats & bit or all(known[c] & bit for c in leaving):
            continue
        may, tracked = 0, False
        for x in pile:
            if known[x] & bit:
                continue
            f = among.get(x, 0) >> (p * w) & mask
            tracked |= f != 0
            may |= f or free
        if not tracked:  # (no place of the zone was tracked: nothing to blur)
            continue
        if mays is None:
            mays = [0] * s.game.players
        mays[p] = may
    return (tuple(pile), 0, tuple(mays)) if mays is not None else None


def before_swap(s, a: int, b: int, held_by, vis) -> Optional[list]:
    """`before` for `swap a with b`: each card leaves its zone for the other's place, where the other
    arrives (so the group of a's zone holds b too: where in the hand b lies would tell where a lay)."""
    if s.quiet:
        return None
    za, zb = s.loc[a], s.loc[b]
    out = []
    for x, y, zy in ((a, b, zb), (b, a, za)):
        for group, blind, *placeless in before(s, (x,), held_by, vis[zy]) or ():
            out.append((group + (y,) if y not in group else group, blind, *placeless))
    return out or None


def _seats_of(packed: int, w: int, players: int) -> int:
    """The seats whose field is not 0 in a packed value."""
    out = 0
    mask = (1 << w) - 1
    for p in range(players):
        if packed >> (p * w) & mask:
            out |= 1 << p
    return out


def merge(s, groups) -> None:
    """After the move: for each group and each seat blind to it, every card of the group becomes
    unknown to the seat and may be any of the cards it knew or tracked there (and any card it tracks
    nowhere, if one of them was unknown to it and untracked). A group of `_placeless` (its third
    item) sets, for each seat that saw which card left but not its place, the places of the zone it
    does not know to the union it holds."""
    if s.fresh and s.log is not None and any(g[1] for g in groups):
        pin(s)  # what was shown before they are lost from sight stays shown in the log (as before a `hide`)
    known = s.known
    w = len(known) + 1
    free, mask = 1 << (w - 1), (1 << w) - 1
    among = dict(s.among) if s.among is not None else {}
    for group, blind, *placeless in groups:
        for p, may in enumerate(placeless[0] if placeless else ()):
            if not may:
                continue
            # (a seat that saw which card left, not from which place: the places it does not know blur)
            shift = p * w
            clear = ~(mask << shift)
            for x in group:
                if not known[x] >> p & 1:
                    among[x] = among.get(x, 0) & clear | (0 if may == free else may) << shift
        for p in range(s.game.players):
            if not blind >> p & 1:
                continue
            shift = p * w
            may = 0
            for x in group:
                if known[x] >> p & 1:
                    may |= 1 << x
                else:
                    may |= (among.get(x, 0) >> shift & mask) or free
            if may == free:
                continue
            clear = ~(mask << shift)
            for x in group:
                known[x] &= ~(1 << p)
                among[x] = among.get(x, 0) & clear | may << shift
    s.among = among or None


def forget(s, cards, keep: int) -> None:
    """Before the seats outside `keep` forget `cards` (a shuffle, a `hide`, `forget order of`): what
    they knew or tracked of those places is no longer tracked anywhere (those cards may be anywhere
    they do not know). Nothing while no seat tracks a card."""
    if s.quiet or s.among is None:
        return
    known = s.known
    w = len(known) + 1
    free, mask = 1 << (w - 1), (1 << w) - 1
    among = dict(s.among)
    for p in range(s.game.players):
        if keep >> p & 1:
            continue
        shift = p * w
        gone = 0
        for x in cards:
            f = among.get(x, 0) >> shift & mask
            gone |= (1 << x) if known[x] >> p & 1 else f & ~free
            if f:
                among[x] ^= f << shift
        if not gone:
            continue
        for x, packed in list(among.items()):
            f = packed >> shift & mask
            if f & gone:
                f = f & ~gone | free
                among[x] = packed & ~(mask << shift) | ((0 if f == free else f) << shift)
    s.among = {x: v for x, v in among.items() if v} or None


# ------------------------------------------------------------- views and deals that honour it
def seen_by(s, placed, unknown, seat: int) -> Optional[dict]:
    """The `among` of a view's canonical copy (`runtime.view._canonical`), where the cards `placed` (in
    the order of their places) become `unknown` (in id order): the seat's own fields, each with the
    card now in its place; what the other seats track would tell of the cards (dropped)."""
    if s.among is None:
        return None
    w = len(s.known) + 1
    shift, mask = seat * w, (1 << w) - 1
    out = {}
    for c, d in zip(placed, unknown):
        f = s.among.get(c, 0) >> shift & mask
        if f:
            out[d] = f << shift
    return out or None


def observed(s, seat: int, label):
    """For `observation(seat)["among"]`: None when the seat tracks no place, else a function of a
    zone's cards giving, place by place (bottom first), None for a place it knows nothing of beyond
    `state.known`, or {"cards": the labels of the cards the card there may be, "others": whether it
    may also be a card the seat tracks nowhere} (docs/knowledge.md, "What a seat is shown")."""
    w = len(s.known) + 1
    shift, mask, free, bit = seat * w, (1 << w) - 1, 1 << (w - 1), 1 << seat
    among, known = s.among, s.known
    if not any(v >> shift & mask and not known[x] & bit for x, v in among.items()):
        return None

    def of(pile):
        out = []
        for x in pile:
            f = among.get(x, 0) >> shift & mask if not known[x] & bit else 0
            out.append({"cards": [label(i) for i in range(w - 1) if f >> i & 1], "others": bool(f & free)}
                       if f else None)
        return out
    return of


def only(s, seat: int) -> Optional[dict]:
    """The seat's own fields of `s.among`, for cards it does not know (a determinized world's)."""
    if s.among is None:
        return None
    w = len(s.known) + 1
    shift, mask, bit = seat * w, (1 << w) - 1, 1 << seat
    out = {x: (v >> shift & mask) << shift for x, v in s.among.items()
           if v >> shift & mask and not s.known[x] & bit}
    return out or None


def constraints(s, seat: int, placed: list, unknown) -> Optional[tuple]:
    """(the seat's field of each place of `placed`, the identities it tracks among `unknown`), or None
    when it tracks none: what `deal_fits` honours."""
    if s.among is None:
        return None
    fields = [field(s, seat, c) for c in placed]
    if not any(fields):
        return None
    free = 1 << len(s.known)
    ids = 0
    for c in unknown:
        ids |= 1 << c
    tracked = 0
    for f in fields:
        tracked |= f
    tracked &= ids & ~free
    if not tracked:
        return None
    return fields, tracked


def allows(f: int, tracked: int, free: int, c: int) -> bool:
    """Whether a place whose field is `f` may hold card `c` (`tracked`: the identities tracked)."""
    if tracked >> c & 1:
        return bool(f >> c & 1)
    return not f or bool(f & free)


def deal_fits(fits, places: int, bound: list, tracked: list, cards: list, rng: random.Random) -> Optional[list]:
    """The cards dealt to `places` places, or None if no deal fits: `fits(i, c)` whether place i may
    hold card c; `bound`: the places that allow less than every untracked card (they are dealt first,
    in a random order, each a random card that leaves a deal of the rest); `tracked`: the cards that
    only `bound` places may hold (each must be dealt to one). The other places take the rest, shuffled."""
    order = bound[:]
    rng.shuffle(order)
    left = list(cards)
    must = set(tracked)
    out: list = [None] * places
    for k, i in enumerate(order):
        rest = order[k + 1:]
        fitting = [c for c in left if fits(i, c)]
        while fitting:
            j = int(rng.random() * len(fitting))
            fitting[j], fitting[-1] = fitting[-1], fitting[j]
            c = fitting.pop()
            others = [x for x in left if x != c]
            if _cover(rest, others, fits) and _cover_cards([x for x in must if x != c], rest, fits):
                out[i] = c
                left.remove(c)
                must.discard(c)
                break
        else:
            return None
    if must:
        return None
    rng.shuffle(left)
    nxt = iter(left).__next__
    for i in range(places):
        if out[i] is None:
            c = nxt()
            if not fits(i, c):
                return None
            out[i] = c
    return out


def _cover(places: list, cards: list, fits) -> bool:
    """Whether each of `places` can take a distinct card of `cards` that fits it (Kuhn's matching)."""
    owner: dict = {}

    def place(i: int, seen: set) -> bool:
        for c in cards:
            if c in seen or not fits(i, c):
                continue
            seen.add(c)
            h = owner.get(c)
            if h is None or place(h, seen):
                owner[c] = i
                return True
        return False

    return all(place(i, set()) for i in places)


def _cover_cards(cards: list, places: list, fits) -> bool:
    """Whether each of `cards` can go to a distinct place of `places` that it fits: the same matching
    seen from the cards."""
    return _cover(cards, places, lambda c, i: fits(i, c))


def fits_view(w, c, seat: int) -> bool:
    """Whether a replayed world `w` keeps what the seat tracks, as the view's copy `c` holds it: place
    by place the same fields, and each card the seat does not know allowed where it lies."""
    if w.among is None and c.among is None:
        return True
    bit = 1 << seat
    free = 1 << len(c.known)
    unknown = [b for cz in c.zones for b in cz if not c.known[b] & bit]
    placed_c = [b for cz in c.zones for b in cz if not c.known[b] & bit]
    tracked = 0
    for b in placed_c:
        tracked |= field(c, seat, b)
    ids = 0
    for b in unknown:
        ids |= 1 << b
    tracked &= ids & ~free
    for wz, cz in zip(w.zones, c.zones):
        for a, b in zip(wz, cz):
            if c.known[b] & bit:  # (a card the seat knows: what it tracked of the place no longer counts)
                continue
            f = field(c, seat, b)
            if field(w, seat, a) != f or not allows(f, tracked, free, a):
                return False
    return True
