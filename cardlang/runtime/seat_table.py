"""What one seat knows as flat arrays, for encoders (the research adapters' vectors and masks).

`table_of(s, seat, …)` reads a state, or a view's canonical copy, and keeps only what `seat` knows:
the cards it knows and the zone each lies in, every zone's count, the top of a zone where the seat
knows it, the declared variables (a card it does not know: -1), and the public course (the turn,
the pending choice, the round, the end). For cards the seat knows a canonical copy holds the real
ids in the real places, and for the others only their count shows, so the table of a state and
that of its view are equal (`tests/test_research_views.py` checks it on every game). The adapters
read it through `encoder_view.TableView`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from . import facts


SMALL_DECK = 32  # decks up to which a table's known cards are found in Python (numpy beyond)


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
        mine = np.array(ids, dtype=np.int64)
        zones = np.array(places, dtype=np.int64)
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
    return Table(seat, mine, zones, sizes, tops, values, s.active[:], current_player, choice,
                 s.round, s.terminal, s.winner_seats, told)
