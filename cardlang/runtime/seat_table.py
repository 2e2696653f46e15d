"""What one seat knows as flat arrays, for encoders (the research adapters' vectors and masks).

`table_of(s, seat)` reads a state, or a view's canonical copy, and keeps only what `seat` knows:
the cards it knows and the zone each lies in, every zone's count, the top of a zone where the seat
knows it, the declared variables (a card it does not know: -1), and the public course (the turn,
the pending choice, the round, the end). For cards the seat knows a canonical copy holds the real
ids in the real places, and for the others only their count shows, so the table of a state and
that of its view are equal (`tests/test_research.py` checks it on every game).

`TableView(state, seat)` is the seat's view an encoder needs and nothing more: that table, the
pending choice, the seat's legal action ids in the view's terms and `action_in`. It makes no
canonical copy of the state unless one of the seat's legal actions names a card it does not know
(a choice among an opponent's hidden cards): the view's ids of such cards are by place, and only
then is a `SeatView` built to name them. It keeps no reference to the state and no card the seat
does not know, as `SeatView` keeps none: an adapter given a `TableView` cannot show a seat more.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .actions import alt_of, value_of
from .basics import TERMINAL


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


def table_of(s, seat: int, current_player: int, choice: int) -> Table:
    """The table of what `seat` knows in `s` (a state or a view's canonical copy): numpy over the
    knowledge bits, no Python loop over the deck's cards."""
    layout = s.game.program.layout
    bit = 1 << seat
    known = s.known
    mine = np.flatnonzero(np.array(known, dtype=np.int64) & bit)
    zones = np.array(s.loc, dtype=np.int64)[mine]
    values = s.v[:layout.nslots]
    for slot in layout.card_slots:  # a card value the seat does not know is no card to it
        c = values[slot]
        if c is not None and c >= 0 and not known[c] & bit:
            values[slot] = -1
    for slot in layout.cards_slots:
        if values[slot] and any(not known[c] & bit for c in values[slot] if c >= 0):
            values[slot] = tuple([c if c >= 0 and known[c] & bit else -1 for c in values[slot]])
    tops = [z[-1] if z and known[z[-1]] & bit else -1 for z in s.zones]
    return Table(seat, mine, zones, [len(z) for z in s.zones], tops, values, s.active[:], current_player, choice,
                 s.round, s.terminal, s.winner_seats)


class TableView:
    """A seat's view for encoders: its table, the pending choice, its legal action ids and
    `action_in`, as `SeatView` gives them (see the module's docstring)."""

    __slots__ = ("game", "seat", "choice", "current_player", "_table", "_legal", "_full")

    def __init__(self, state, seat: int):
        self.game = state.game
        self.seat = seat
        pending = state.pending
        over = state.terminal or pending is None
        self.current_player = TERMINAL if state.terminal else pending.player
        self.choice = -1 if over else pending.choice
        self._full = None
        legal = ()
        if not over and pending.player == seat:
            legal = pending.legal
            alts = self.game.program.chooses[pending.choice].alts
            known, bit = state.known, 1 << seat
            if any(alts[alt_of(a)].kind == "card" and not known[value_of(a)] & bit for a in legal):
                # a card it does not know is named by its place: the view's canonical ids say which
                from .view import SeatView  # (view.py builds its tables with this module)
                self._full = SeatView(state, seat, past=False)
                legal = self._full.legal_action_ids()
        self._legal = legal
        self._table = table_of(state, seat, self.current_player, self.choice)

    def table(self) -> Table:
        """What the seat knows as flat data (see `Table`)."""
        return self._table

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self._table.terminal

    def legal_action_ids(self) -> tuple:
        """The seat's legal action ids in the view's terms (empty unless it is the one to decide)."""
        return self._legal

    def action_in(self, state, a: int) -> int:
        """The action of `state` that is this view's action `a` (see `SeatView.action_in`): a card
        the seat knows keeps its id in every state of the same course."""
        return a if self._full is None else self._full.action_in(state, a)
