"""Runtime helpers the generated code calls with values it has already worked out (bound by name
in the program's namespace). Each does what the reference interpreter does for its node."""

from __future__ import annotations

import functools

from ...runtime import effects, melds
from ...runtime.playout import BadPick
# what these effects show (a log line, a rule error) is written once for both engines, in the runtime
from ...runtime.effects import (aggregate_empty, announce, divide_by_zero, eliminated, face_up,  # noqa: F401
                                game_over, log_deal, no_choice, numbers_out_of_range, swap_none)


def index(items, i, span):
    """`seq[i]`, counting from 1."""
    if not 1 <= i <= len(items):
        effects.no_such_item(i, len(items), span)
    return items[i - 1]


def item_index(items, i, span):
    """The checked place (from 1) of item `i` of a list a `set`/`add` writes."""
    if not 1 <= i <= len(items):
        effects.no_such_item(i, len(items), span)
    return i


def set_item(v, slot, i, value, span):
    """`set list[i] = value` (the value worked out first)."""
    items = list(v[slot])
    items[item_index(items, i, span) - 1] = value
    v[slot] = tuple(items)


def position_of(c, cards):
    """`position of c in cards`: its place from the bottom, from 1; 0 when it is not there."""
    return cards.index(c) + 1 if c is not None and c in cards else 0


def except_many(q, other):
    o = set(other)
    return tuple([x for x in q if x not in o])


def except_one(q, o):
    return tuple([x for x in q if x != o])


def end_cards(q, k, top, players, span):
    """`top/bottom k of q`."""
    if k < 0:
        effects.negative_end(top, k, span)
    if players:
        return tuple(q[:k]) if top else tuple(q[-k:][::-1]) if k else ()
    return tuple(q[::-1][:k]) if top else tuple(q[:k])


def players_to(s, ring, stop, start):
    """`players from start to stop` (stop worked out first)."""
    a = s.active
    out = []
    for q in ring[start]:
        if a[q]:
            out.append(q)
        if q == stop:
            break
    return tuple(out)


def hand_value(hand, evaluate, codes, span):
    if not 5 <= len(hand) <= 10:
        effects.poker_hand_size(len(hand), span)
    return int(evaluate([codes[c] for c in hand]))


def meld_function(name, rule, deck, table, span):
    """`combination(name, …)` bound once, for a call site: one call of the runtime's function, too
    many cards a rule error."""
    fn = functools.partial(melds.combination, name, rule, deck, table)

    def call(*args):
        try:
            return fn(*args)
        except melds.MeldError as e:
            effects.meld_refused(e, span)
    return call


def bad_pick(s, pending, pc, i):
    """A scripted bot's index outside the legal actions, in a whole-game run: the state waits on the
    decision, as the playout loop leaves it."""
    s.pending, s.pc = pending, pc
    raise BadPick(f"P{pending.player} has {len(pending.legal)} legal actions: no action {i}")


def cannot_deal(s, n, src, targets, names, span):
    """The rule error of a deal of more cards than zone `src` holds."""
    effects.cannot_deal(n, len(targets), names[src], len(s.zones[src]), span)


def reveal(s, shown, seats, all_, owners):
    """`reveal shown [to seats]`."""
    mask = all_ if seats is None else sum(1 << p for p in set(seats))
    known = s.known
    for c in shown:
        known[c] |= mask
    if s.log is not None:
        effects.log_reveal(s, shown, seats, owners)


def move_all(s, dest, order, vis, all_, face, names):
    """`move all cards to dest`: what `move_cards` does when every card moves, without its scans.
    (Every zone goes whole: every seat sees which cards leave it, `runtime.among.before`.)"""
    if not order:
        return
    zones = s.zones
    for z in zones:
        z.clear()
    zones[dest].extend(order)
    s.loc[:] = [dest] * len(order)
    known = s.known
    if face is None:
        add = vis[dest]
        if add:
            known[:] = [k | add for k in known]
    elif face == "up":
        known[:] = [all_] * len(order)
        if s.log is not None:
            face_up(s, dest, range(len(order)), names)
