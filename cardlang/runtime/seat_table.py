"""What one seat knows as flat arrays, for encoders (the research adapters' vectors and masks).

`table_of(s, seat, …)` reads a state, or a view's canonical copy, and keeps only what `seat` knows:
the cards it knows and the zone each lies in, every zone's count, the top of a zone where the seat
knows it, the declared variables (a card it does not know: -1), and the public course (the turn,
the pending choice, the round, the end). For cards the seat knows a canonical copy holds the real
ids in the real places, and for the others only their count shows, so the table of a state and
that of its view are equal (`tests/test_research_views.py` checks it on every game). The adapters
read it through `encoder_view.TableView`.

`vector_of(s, seat, plan)` writes the same things straight into a vector, by a plan of where each
goes (`VectorPlan`, made by an encoder from its layout: `research.encoding.Encoder.plan`), without
making the table: what OpenSpiel's information-state tensor costs on a small game is mostly the
table's making. It keeps what `table_of` keeps and reads it as the encoder does: the vector equals
the encoder's vector of the seat's table (`tests/test_research_tensors.py` checks it on every game).
"""

from __future__ import annotations

from functools import partial
from typing import NamedTuple

import numpy as np

from . import facts


SMALL_DECK = 32  # decks up to which a table's known cards are found in Python (numpy beyond)
SMALL_KEPT = 1 << 12  # the arrays of known cards and their zones kept for small decks (`table_of`)
_SMALL_ARRAYS: dict = {}  # (card ids, their zones) -> the two read-only int64 arrays


class Table(NamedTuple):
    """A seat's view as flat data (`SeatView.table()`, `TableView.table()`), read only."""

    seat: int
    cards: np.ndarray  # the ids of the cards the seat knows, ascending
    zones: np.ndarray  # the zone each of those cards lies in
    sizes: list  # zone id -> how many cards it holds
    tops: list  # zone id -> its top card (the last) if the seat knows it, else -1 (also for an empty zone)
    values: list  # the declared variables' slots (`layout.var_slots`), a card the seat does not know -1
    active: list  # seat -> still in play
    current_player: int  # the seat to decide, or TERMINAL
    choice: int  # the index of the pending choice, -1 at the end
    round: int
    terminal: bool
    winners: tuple
    told: tuple = ()  # each card the seat does not know, in place order (zone by zone, bottom first):
    # (zone, what the seat itself was told of it: a field of `runtime.facts`, 0 for nothing); () without `tell`


def table_of(s, seat: int, current_player: int, choice: int) -> Table:
    """The table of what `seat` knows in `s` (a state or a view's canonical copy): numpy over the
    knowledge bits, no Python loop over the deck's cards."""
    layout = s.game.program.layout
    bit = 1 << seat
    known = s.known
    if len(known) > SMALL_DECK:
        mine = np.flatnonzero(np.array(known, dtype=np.int64) & bit)
        zones = np.array(s.loc, dtype=np.int64)[mine]
    else:  # (a small deck: a Python loop costs less than numpy's calls on small arrays)
        ids, places, loc, c = [], [], s.loc, 0
        for k in known:
            if k & bit:
                ids.append(c)
                places.append(loc[c])
            c += 1
        key = (tuple(ids), tuple(places))
        got = _SMALL_ARRAYS.get(key)
        if got is None:  # (a small deck's seats know few different sets of cards: each made once, read only)
            got = np.array(ids, dtype=np.int64), np.array(places, dtype=np.int64)
            got[0].flags.writeable = got[1].flags.writeable = False
            if len(_SMALL_ARRAYS) < SMALL_KEPT:
                _SMALL_ARRAYS[key] = got
        mine, zones = got
    values = s.v[:layout.nslots]
    for slot in layout.card_slots:  # a card value the seat does not know is no card to it
        c = values[slot]
        if c is not None and c >= 0 and not known[c] & bit:
            values[slot] = -1
    for slot in layout.cards_slots:
        if values[slot] and any(not known[c] & bit for c in values[slot] if c >= 0):
            values[slot] = tuple([c if c >= 0 and known[c] & bit else -1 for c in values[slot]])
    tops, sizes = [], []
    for z in s.zones:  # (one plain loop: a comprehension is a call)
        if z:
            tops.append(z[-1] if known[z[-1]] & bit else -1)
            sizes.append(len(z))
        else:
            tops.append(-1)
            sizes.append(0)
    told = () if s.facts is None else facts.told_in_place(s, seat)  # (its own facts follow the place: the
    # same in a state and in its view's canonical copy)
    return _table((seat, mine, zones, sizes, tops, values, s.active[:], current_player, choice,
                   s.round, s.terminal, s.winner_seats, told))


_table = partial(tuple.__new__, Table)  # (`Table(…)` without its Python-level `__new__`: a tensor makes one)


class VectorPlan(NamedTuple):
    """Where an encoder's vector holds each thing a seat knows (see `vector_of`): indices of the
    vector, the variables' slots, and how a count of cards and a number are written."""

    size: int  # the vector's length
    deck: int  # the deck's size: a zone's run of card entries
    cards_at: int  # zone z, card c: cards_at + z * deck + c
    piles: tuple  # (first index, zone) of each pile's run of top-card entries
    sizes_at: int  # one entry per zone: `counts[len(zone)]`
    counts: list  # a zone's count of cards -> its entry
    one_hot: tuple  # (slot, first index, whether a card) of each one-hot variable (a card not known: `deck`)
    bools: tuple  # (slot, index) of each truth
    numbers: tuple  # (slot, index) of each number: `scaled(x)`
    scaled: object  # a number -> its entry
    seat_at: int
    current_at: int
    active_at: int
    winners_at: int
    choice_at: int
    terminal_at: int
    round_at: int  # `scaled(round)`


def vector_of(s, seat: int, plan: VectorPlan, more: int = 0) -> list:
    """The vector of what `seat` knows in state `s` as `plan` lays it out, as a list followed by
    `more` zeros: what the encoder makes of `table_of(s, seat, …)` (for a game whose vector holds
    no card set, text, list or told facts: `Encoder.plan` is None for the others). Plain loops,
    one pass over the deck."""
    v = [0.0] * (plan.size + more)
    bit = 1 << seat
    known, loc, D = s.known, s.loc, plan.deck
    at = plan.cards_at
    c = 0
    for k in known:
        if k & bit:
            v[at + loc[c] * D + c] = 1.0
        c += 1
    zones = s.zones
    for at, z in plan.piles:
        pile = zones[z]
        if pile and known[pile[-1]] & bit:
            v[at + pile[-1]] = 1.0
    at, counts = plan.sizes_at, plan.counts
    for pile in zones:
        v[at] = counts[len(pile)]
        at += 1
    values = s.v
    for slot, at, card in plan.one_hot:
        x = values[slot]
        if x is not None:  # (a card the seat does not know is no card to it: the last entry)
            v[at + (D if card and (x < 0 or not known[x] & bit) else x)] = 1.0
    for slot, at in plan.bools:
        if values[slot]:
            v[at] = 1.0
    scaled = plan.scaled
    for slot, at in plan.numbers:
        x = values[slot]
        if x:
            v[at] = scaled(x)
    v[plan.seat_at + seat] = 1.0
    pending = s._pending
    if s.terminal:
        v[plan.terminal_at] = 1.0
        for w in s.winner_seats:
            v[plan.winners_at + w] = 1.0
    elif pending is not None:
        v[plan.current_at + pending[1]] = 1.0
        v[plan.choice_at + pending[0]] = 1.0
    at = plan.active_at
    for on in s.active:
        if on:
            v[at] = 1.0
        at += 1
    v[plan.round_at] = scaled(s.round)
    return v
