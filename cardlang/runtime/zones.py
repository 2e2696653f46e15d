"""Card movement between zones and who sits where: the parts every engine shares."""

from __future__ import annotations


def move_cards(s, moving, dest: int, bottom: bool) -> None:
    """Takes cards out of wherever they are and puts them on top of (or under) zone `dest`."""
    zones, loc = s.zones, s.loc
    if len(moving) <= 4:  # a few cards: each taken out of its pile
        for c in moving:
            zones[loc[c]].remove(c)
    else:  # more: each pile they leave is filtered once
        gone = set(moving)
        for src in {loc[c] for c in moving}:
            zones[src][:] = [c for c in zones[src] if c not in gone]
    target = zones[dest]
    if bottom:
        target[:0] = list(moving)[::-1]
    else:
        target.extend(moving)
    for c in moving:
        loc[c] = dest


def first_in(s, around: tuple) -> int:
    """The first seat of `around` still in the game (`around` ends with the seat it goes around)."""
    a = s.active
    for q in around:
        if a[q]:
            return q
    return around[-1]


def still_in(s, seats: tuple) -> tuple:
    """The seats that are not out of the game, in the order given."""
    a = s.active
    return tuple([q for q in seats if a[q]])


# Who knows which card: nothing a rule reads, only views, labels and the log, so a quiet state
# (`runtime.playout.quiet`: a playout nothing observes) leaves it as it stands.
def learn(s, cards, mask: int) -> None:
    """The seats of `mask` learn each of `cards` (and keep what they knew); nothing in a quiet state."""
    if s.quiet:
        return
    known = s.known
    for c in cards:
        known[c] |= mask


def known_only_by(s, cards, mask: int) -> None:
    """Each of `cards` is known to the seats of `mask` and to nobody else; nothing in a quiet state."""
    if s.quiet:
        return
    known = s.known
    for c in cards:
        known[c] = mask
