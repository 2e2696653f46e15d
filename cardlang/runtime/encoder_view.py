"""A seat's view for encoders: what the research adapters' vectors, masks and action index read.

`TableView(state, seat)` is the seat's view an encoder needs and nothing more: that table, the
pending choice, the seat's legal action ids in the view's terms and `action_in`. It makes no
canonical copy of the state unless one of the seat's legal actions names a card it does not know
(a choice among an opponent's hidden cards): the view's ids of such cards are by place, and only
then is a `SeatView` built to name them. It keeps no reference to the state and no card the seat
does not know, as `SeatView` keeps none: an adapter given a `TableView` cannot show a seat more.
"""

from __future__ import annotations

from .actions import alt_of, value_of
from .basics import TERMINAL
from .seat_table import Table, table_of
from .view import SeatView


def _names_unknown(alts, legal: tuple, known: list, bit: int) -> bool:
    """Whether one of the legal actions picks a card that the seat (`bit`) does not know."""
    return any(alts[alt_of(a)].kind == "card" and not known[value_of(a)] & bit for a in legal)


class TableView:
    """A seat's view for encoders: its table, the pending choice, its legal action ids and
    `action_in`, as `SeatView` gives them (see the module's docstring)."""

    __slots__ = ("game", "seat", "choice", "current_player", "_table", "_legal", "_full")

    def __init__(self, state, seat: int, table: bool = True):
        """The view of `seat` in `state`; without `table`, only the choice, the legal ids and
        `action_in` (`table()` then raises: the seat table is most of the cost)."""
        self.game = game = state.game
        self.seat = seat
        pending = state._pending  # ((choice, player, legal): a `Pending`, or the plain tuple the engine left)
        over = state.terminal or pending is None
        self.current_player = TERMINAL if state.terminal else pending[1]
        self.choice = choice = -1 if over else pending[0]
        self._full = None
        legal = ()
        if not over and pending[1] == seat:
            legal = pending[2]
            program = game.program
            if choice in program.card_choices and _names_unknown(program.chooses[choice].alts, legal,
                                                                 state.known, 1 << seat):
                # a card it does not know is named by its place: the view's canonical ids say which
                self._full = SeatView(state, seat, past=False)
                legal = self._full.legal_action_ids()
        self._legal = legal
        self._table = table_of(state, seat, self.current_player, self.choice) if table else None

    def with_table(self, state) -> "TableView":
        """This view, made without its table, given it (in place); `state` must be the state it was
        made of."""
        if self._table is None:
            self._table = table_of(state, self.seat, self.current_player, self.choice)
        return self

    def table(self) -> Table:
        """What the seat knows as flat data (see `Table`)."""
        if self._table is None:
            raise ValueError("this TableView was made without its table")
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
