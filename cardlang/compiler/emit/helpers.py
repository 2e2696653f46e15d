"""Runtime helpers the generated code calls with values it has already worked out (bound by name
in the program's namespace). Each does what the reference interpreter does for its node."""

from __future__ import annotations

import functools

from ...runtime import melds
from ...runtime.basics import RuleError
from ...runtime.log import deal_text, marks, player_name, zone_words
from ...runtime.playout import BadPick


def index(items, i, span):
    """`seq[i]`, counting from 1."""
    if not 1 <= i <= len(items):
        raise RuleError(f"item {i} of a list of {len(items)} (items count from 1)", span)
    return items[i - 1]


def item_index(items, i, span):
    """The checked place (from 1) of item `i` of a list a `set`/`add` writes."""
    if not 1 <= i <= len(items):
        raise RuleError(f"item {i} of a list of {len(items)} (items count from 1)", span)
    return i


def set_item(v, slot, i, value, span):
    """`set list[i] = value` (the value worked out first)."""
    items = list(v[slot])
    items[item_index(items, i, span) - 1] = value
    v[slot] = tuple(items)


def position_of(c, cards):
    """`position of c in cards`: its place from the bottom, from 1; 0 when it is not there."""
    return cards.index(c) + 1 if c is not None and c in cards else 0


def divide_by_zero(span):
    raise RuleError("division by zero", span)


def except_many(q, other):
    o = set(other)
    return tuple([x for x in q if x not in o])


def except_one(q, o):
    return tuple([x for x in q if x != o])


def end_cards(q, k, top, players, span):
    """`top/bottom k of q`."""
    if k < 0:
        end = "top" if top else "bottom"
        raise RuleError(f"`{end} {k} of …`: a number of cards cannot be negative", span)
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


def aggregate_empty(kind, span):
    raise RuleError(f"`{kind}` over nothing", span)


def hand_value(hand, evaluate, codes, span):
    if not 5 <= len(hand) <= 10:
        raise RuleError(f"a poker hand needs 5 to 10 cards, not {len(hand)}", span)
    return int(evaluate([codes[c] for c in hand]))


def meld_function(name, rule, deck, table, span):
    """`combination(name, …)` bound once, for a call site: one call of the runtime's function, too
    many cards a rule error."""
    fn = functools.partial(melds.combination, name, rule, deck, table)

    def call(*args):
        try:
            return fn(*args)
        except melds.MeldError as e:
            raise RuleError(str(e), span) from None
    return call


def numbers_out_of_range(lo, hi, span):
    raise RuleError(f"numbers to choose must lie in 0..65535, not {lo}..{hi}", span)


def no_choice(p, legal, span):
    if not legal:
        raise RuleError(f"{player_name(p)} must choose but has no legal choice", span)
    raise RuleError("nobody to choose", span)


def bad_pick(s, pending, pc, i):
    """A scripted bot's index outside the legal actions, in a whole-game run: the state waits on the
    decision, as the playout loop leaves it."""
    s.pending, s.pc = pending, pc
    raise BadPick(f"P{pending.player} has {len(pending.legal)} legal actions: no action {i}")


def cannot_deal(s, n, src, targets, names, span):
    raise RuleError(f"cannot deal {n} card(s) to {len(targets)} place(s): "
                    f"`{names[src]}` holds {len(s.zones[src])}", span)


def log_deal(s, n, src, targets, names):
    if n and targets:
        s.fresh.append((deal_text(n, names[src], [names[z] for z in targets]), ()))


def face_up(s, dest, moving, names):
    """Logs cards put face up on zone `dest`."""
    s.fresh.append((f"face up on {zone_words(names[dest])}: {marks(len(moving))}", tuple(moving)))


def reveal(s, shown, seats, all_, owners):
    """`reveal shown [to seats]`."""
    mask = all_ if seats is None else sum(1 << p for p in set(seats))
    known = s.known
    for c in shown:
        known[c] |= mask
    if s.log is not None and shown:  # (every card shown, those the seats knew already too: the line is the event)
        owner = owners[s.loc[shown[0]]]
        who = f"{player_name(owner)} shows" if owner >= 0 else "shown:"
        tail = "" if seats is None else " to " + ", ".join(player_name(p) for p in seats)
        s.fresh.append((f"{who} {marks(len(shown))}{tail}", tuple(shown)))


def swap_none(span):
    raise RuleError("`swap` needs two cards, and one of them is none", span)


def announce(s, said, speaker):
    body, cards = said
    if speaker is not None:
        body = f"{player_name(speaker)}: {body}"
    s.fresh.append((body, cards))


def eliminated(s, p):
    s.fresh.append((f"{player_name(p)} is eliminated", ()))


def game_over(s):
    names = ", ".join(player_name(p) for p in s.winner_seats) or "nobody"
    s.fresh.append((f"the game is over; winner{'s' if len(s.winner_seats) > 1 else ''}: {names}", ()))


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
            s.fresh.append((f"face up on {zone_words(names[dest])}: {marks(len(order))}", tuple(range(len(order)))))
