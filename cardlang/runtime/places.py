"""Cards trading places in a state, and what belongs to a place following the card now there.

A view's canonical copy deals the cards a seat does not know again (`view._canonical`), a world
being fitted to the past exchanges two of them (`view._replayed`, `whole_past`): what the state
holds of a place (a variable naming the card, a text quoting it, a pending action taking it)
then names the card now lying there.
"""

from __future__ import annotations

from ..lang.types import TEXT
from . import groups
from .actions import Pending, alt_of, value_of, with_value
from .log import CARD_REF, CARD_REF_RE, MARK_END


def follow(s, moved: dict) -> None:
    """What belongs to a place follows the card now there (`moved`: old card -> new card): card
    values held in variables, card ids in pending actions."""
    program = s.game.program
    v = s.v
    get = moved.get
    for slot in program.card_slots:
        c = v[slot]
        if c in moved:
            v[slot] = moved[c]
    for slot in program.cards_slots:
        if v[slot]:
            v[slot] = tuple([get(c, c) for c in v[slot]])
    if program.group_slot is not None:  # a place keeps its group (runtime/groups.py)
        v[program.group_slot] = groups.follow(v[program.group_slot], moved)
    for slot in text_slots(program):  # a text quoting a card names the card now in its place
        t = v[slot]
        if type(t) is str and CARD_REF in t:
            v[slot] = CARD_REF_RE.sub(lambda m: f"{CARD_REF}{get(int(m.group(1)), int(m.group(1)))}{MARK_END}", t)
    if s.pending is not None:
        index, player, legal = s.pending
        alts = program.chooses[index].alts
        s.pending = Pending(index, player, tuple([a if alts[alt_of(a)].kind != "card"
                                                  else with_value(a, get(value_of(a), value_of(a))) for a in legal]))


_TEXT_SLOTS: dict = {}  # program -> the slots of its text variables


def text_slots(program) -> tuple:
    """The slots of the variables of type text (every player's, every team's), whose values may quote
    cards (`log.CARD_REF`): what `follow` deals again with the cards they name."""
    slots = _TEXT_SLOTS.get(program)
    if slots is None:
        widths = ((program.var_slots, 1), (program.pvar_slots, program.n),
                  (getattr(program, "tvar_slots", {}), len(getattr(program, "teams", ()) or ())))
        slots = tuple(s + i for table, width in widths for s, t in table.values() if t == TEXT
                      for i in range(width))
        if len(_TEXT_SLOTS) > 256:
            _TEXT_SLOTS.clear()
        _TEXT_SLOTS[program] = slots
    return slots


def exchange_pairs(s, pairs) -> None:
    """`exchange` of each pair (a, b) in turn, leaving out a pair with a card already moved by an
    earlier one (each card moves once: the pairs are mends worked out on the state before)."""
    moved: set = set()
    for a, b in pairs:
        if a not in moved and b not in moved:
            exchange(s, a, b)
            moved.update((a, b))


def exchange(s, a: int, b: int) -> None:
    """In place: cards `a` and `b` trade places; what belongs to each place stays there."""
    if a == b:
        return
    za, zb = s.loc[a], s.loc[b]
    ia, ib = s.zones[za].index(a), s.zones[zb].index(b)
    s.zones[za][ia], s.zones[zb][ib] = b, a
    s.loc[a], s.loc[b] = zb, za
    s.known[a], s.known[b] = s.known[b], s.known[a]
    if s.facts is not None:
        s.facts[a], s.facts[b] = s.facts[b], s.facts[a]
    if s.among is not None:
        got = dict(s.among)
        fa, fb = got.pop(a, 0), got.pop(b, 0)
        if fb:
            got[a] = fb
        if fa:
            got[b] = fa
        s.among = got or None
    follow(s, {a: b, b: a})
