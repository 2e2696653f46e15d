"""A web table: its rules, seats, bots and the running game, played again from its seed to resume.

The state is never stored: a table is its record (`store.TableRecord`: rules text, players,
options, seats, seed, actions), and `Table.resume` replays the actions from the seed. Bots are
`play.table_bots.Bots`: a fresh bot each decision, seeded by the table's seed and the move number,
so a table resumed after a crash plays on as it would have. A person's seat left empty longer than
the table's `idle_seconds` is played by the random bot until its person is back.
"""

from __future__ import annotations

import secrets
import time
from typing import Optional

from ..lang.diagnostics import CardlangError
from ..play.bots import BotNameError, make_bot, parse_bot
from ..play.table_bots import Bots
from ..play.table_view import Layout
from ..runtime.basics import RuleError
from . import protocol
from .rules import build
from ..runtime.rng import legacy
from .store import MERSENNE, TableRecord

PERSON = "person"
IDLE_BOT = "random"  # who plays a person's seat left empty too long
IDLE_MIN, IDLE_MAX = 5, 86_400
MAX_ITERATIONS = 5_000  # a bot's budget a table may ask for
MAX_SECONDS = 5.0


class TableError(ValueError):
    """A request the table refuses (one line)."""


def check_seat_kind(kind) -> str:
    """`person` or `bot:NAME[:BUDGET]` with a known bot and a bounded budget; TableError otherwise."""
    if kind == PERSON:
        return kind
    if not isinstance(kind, str) or not kind.startswith("bot:") or len(kind) > 40:
        raise TableError("a seat is `person` or `bot:NAME` (bots: greedy, ismcts, random)")
    name = kind[4:]
    try:
        base, budget = parse_bot(name)
        make_bot(name)
    except (BotNameError, KeyError, ValueError) as e:
        raise TableError(str(e)) from None
    if budget is not None:
        if budget.endswith("s"):
            if float(budget[:-1]) > MAX_SECONDS:
                raise TableError(f"a bot thinks at most {MAX_SECONDS:g}s a move here")
        elif int(budget) > MAX_ITERATIONS:
            raise TableError(f"a bot's budget is at most {MAX_ITERATIONS} here")
    return kind


def new_token() -> str:
    """A seat's or spectator's credential: unguessable, URL-safe."""
    return secrets.token_urlsafe(24)


def new_table_id() -> str:
    """A table's id (public: it is no credential)."""
    return secrets.token_urlsafe(6)


def first_state(game, record: TableRecord):
    """The table's game at its start, its chance drawn as the table's was (`record.generator`)."""
    return game.new_initial_state(seed=record.seed, chance=legacy(record.seed) if record.generator == MERSENNE else None)


def replay(game, record: TableRecord, actions: Optional[list] = None):
    """The state after the table's actions (all, or those given), played again from the seed.
    (state, error): a move that breaks a rule ends the replay there with its message."""
    try:
        state = first_state(game, record)
    except RuleError as e:  # (before the first decision: the state as it stands)
        return e.state, str(e)
    for a, _ in record.actions if actions is None else actions:
        try:
            state.apply(a)
        except RuleError as e:
            return state, str(e)
    return state, None


class Table:
    """One table: its record, its game, its state, who is at it."""

    def __init__(self, record: TableRecord, game):
        self.record = record
        self.game = game
        self.state, self.broken = replay(game, record)
        self.n = record.players
        self.present = [0] * self.n  # open connections of each seat
        self.empty_since = [time.monotonic()] * self.n
        self.bots = {s: Bots(kind[4:], record.seed) for s, kind in enumerate(record.seats) if kind != PERSON}
        self.idle_bot = Bots(IDLE_BOT, record.seed)
        self.last_idle: tuple = ()  # the seats a bot played for their person at the last look
        self._messages: dict = {}  # seat (None: spectator) -> (seq, text)
        self._undo: dict = {}  # seat -> (seq, may undo)

    @property
    def seq(self) -> int:
        """The count of changes at the table (moves and undos)."""
        return self.record.seq

    @property
    def over(self) -> bool:
        """Whether the game ended (or a rule stopped it)."""
        return self.state.is_terminal() or self.broken is not None

    def status(self) -> str:
        """`playing`, `over`, or `broken` (a rule stopped the game)."""
        return "broken" if self.broken is not None else "over" if self.state.is_terminal() else "playing"

    def summary(self) -> dict:
        """The lobby's line for the table (no token)."""
        r = self.record
        return {"id": r.id, "game": r.game, "title": r.title, "players": r.players, "status": self.status(),
                "created": r.created}

    # ------------------------------------------------------------------ what is sent
    def hello(self, seat: Optional[int]) -> dict:
        """The first message of a connection."""
        return {"type": "hello", "role": "spectator" if seat is None else "seat", "seat": seat,
                "table": self.record.id, "game": self.game.title, "players": protocol.player_names(self.n),
                "seats": [{"seat": s, "kind": k} for s, k in enumerate(self.record.seats)],
                "undo": self.record.undo, "about": self.game.symbols.about or "", **table_shape(self.game)}

    def seats_message(self) -> dict:
        """Who sits where now: connected, and played by a bot for now."""
        return {"type": "seats", "seats": [
            {"seat": s, "kind": k, "present": self.present[s] > 0, "bot_now": k == PERSON and self.idle(s)}
            for s, k in enumerate(self.record.seats)]}

    def view_text(self, seat: Optional[int]) -> str:
        """The seat's (or the spectator's) current `view` message, encoded (once per change)."""
        cached = self._messages.get(seat)
        if cached is not None and cached[0] == self.seq:
            return cached[1]
        msg = None
        if self.broken is None:
            try:
                if seat is None:
                    msg = protocol.spectator_view(self.state, self.seq)
                else:
                    msg = protocol.seat_view(self.state, seat, self.seq, {"undo": self.may_undo(seat)})
            except RuleError as e:  # (a score or a label shown breaks a rule: the table stops there)
                self.broken = " ".join(str(e).split())
                self.record.status = self.status()
        if msg is None:  # a rule broke: the game stopped mid-move, its state is not one to show
            msg = {"type": "view", "seq": self.seq, "seat": seat, "to_act": [], "observation": None,
                   "actions": [], "log": self._log_of(seat), "over": False, "result": None}
        if self.broken is not None:
            msg["error"] = self.broken
        text = protocol.encode(msg)
        self._messages[seat] = (self.seq, text)
        return text

    def _log_of(self, seat: Optional[int]) -> list:
        """The log as the seat (or every seat) reads it, of a game a rule stopped."""
        try:
            return self.state.transcript(tuple(range(self.n)) if seat is None else seat)
        except Exception:  # noqa: BLE001 - a state stopped mid-move: its log may not read either
            return []

    # ------------------------------------------------------------------ who plays
    def idle(self, seat: int) -> bool:
        """Whether a person's seat has been empty longer than the table allows."""
        return (self.record.seats[seat] == PERSON and self.present[seat] == 0
                and time.monotonic() - self.empty_since[seat] >= self.record.idle_seconds)

    def bot_to_play(self):
        """The bot that must move now (a bot's seat, or an idle person's), or None."""
        if self.over:
            return None
        seat = self.state.current_player
        if seat in self.bots:
            return self.bots[seat]
        return self.idle_bot if self.idle(seat) else None

    def join(self, seat: Optional[int]) -> None:
        """A connection of the seat opened."""
        if seat is not None:
            self.present[seat] += 1

    def leave(self, seat: Optional[int]) -> None:
        """A connection of the seat closed: the seat is empty from now if it was the last."""
        if seat is not None:
            self.present[seat] = max(0, self.present[seat] - 1)
            if not self.present[seat]:
                self.empty_since[seat] = time.monotonic()

    # ------------------------------------------------------------------ moves
    def action_for(self, seat: int, view_id: int, seq: Optional[int]) -> int:
        """The state's action for the id a seat sent (one of its view's), or TableError."""
        if self.over:
            raise TableError("the game is over")
        if self.state.current_player != seat:
            raise TableError("it is not your turn")
        if seq is not None and seq != self.seq:
            raise TableError(f"the table has moved on: act on the latest view (seq {self.seq})")
        view = self.state.view(seat)
        if view_id not in view.legal_action_ids():
            raise TableError(f"action {view_id} is not one of your actions now")
        return view.action_in(self.state, view_id)

    def apply(self, action: int, seat: int) -> None:
        """Plays a legal action of `seat` (the store is written by the caller)."""
        try:
            self.state.apply(action)
        except RuleError as e:  # the rules broke on this move: the table stops with the message
            self.broken = str(e)
        self.record.actions.append((action, seat))
        self.record.seq += 1
        self.record.status = self.status()

    # ------------------------------------------------------------------ undo
    def may_undo(self, seat: int) -> bool:
        """Whether `seat` may take back the table's last move now (see `undo_problem`)."""
        if not self.record.undo:
            return False
        cached = self._undo.get(seat)
        if cached is not None and cached[0] == self.seq:
            return cached[1]
        ok = self.undo_problem(seat) is None
        self._undo[seat] = (self.seq, ok)
        return ok

    def undo_problem(self, seat: int) -> Optional[str]:
        """Why `seat` may not take back the last move (None: it may): the table must allow undo, the
        last move must be the seat's, and playing the game again without it must show that the move
        revealed nothing hidden and drew nothing random (no seat learnt a card, was told of one or
        tracks one since; the chance of the game did not move)."""
        if not self.record.undo:
            return "this table does not allow undo"
        if self.broken is not None:
            return "the game stopped on a rule's error"
        if not self.record.actions:
            return "nothing to undo"
        if self.record.actions[-1][1] != seat:
            return "the last move is not yours: another player has acted since"
        before, error = replay(self.game, self.record, self.record.actions[:-1])
        if error is not None:
            return "the game cannot be played again without that move"
        return revealed(before, self.state)

    def undo(self, seat: int) -> None:
        """Takes back the seat's last move (TableError with the reason when it may not)."""
        problem = self.undo_problem(seat)
        if problem is not None:
            raise TableError(problem)
        self.record.actions.pop()
        self.state, self.broken = replay(self.game, self.record)
        self.record.seq += 1
        self.record.status = self.status()


def table_shape(game) -> dict:
    """The static shape of the game's table, from its rules (public): each zone's kind, whether each
    player has one and who sees its cards; the deck's cards in the order a hand is sorted (suit,
    then rank, as the terminal sorts it: `play.table_view.Layout`)."""
    layout = Layout.of(game)
    zones = {name: {"per_player": bool(per), "visibility": vis, "kind": kind}
             for name, (per, vis, kind) in layout.zones.items()}
    order = sorted(layout.card_order, key=lambda label: layout.card_order[label])
    return {"zones": zones, "card_order": order}


def revealed(before, after) -> Optional[str]:
    """What the move from `before` to `after` revealed or drew, as a reason, or None (nothing)."""
    if before.rng != after.rng or before.stacks != after.stacks or before.draws != after.draws:
        return "the move drew something random: it cannot be taken back"
    if any(b & ~a for a, b in zip(before.known, after.known)):
        return "the move showed a card to someone: it cannot be taken back"
    if before.facts != after.facts or before.among != after.among:
        return "the move told someone of a card: it cannot be taken back"
    return None


def new_record(rules, players: int, options: dict, seats: list, undo: bool, idle_seconds: int,
               seed: Optional[int], created: str) -> tuple:
    """A new table's record and its game, checked (TableError with one line for anything wrong)."""
    if rules.symbols is None:
        raise TableError(f"{rules.id} does not check: " + (rules.problems[0] if rules.problems else ""))
    low, high = rules.symbols.players
    if not isinstance(players, int) or isinstance(players, bool) or not low <= players <= high:
        raise TableError(f"{rules.title} is for {low} to {high} players")
    if seats is None:
        seats = [PERSON] + [f"bot:{IDLE_BOT}"] * (players - 1)
    if not isinstance(seats, list) or len(seats) != players:
        raise TableError(f"`seats` lists one kind per seat ({players})")
    seats = [check_seat_kind(k) for k in seats]
    if not isinstance(options, dict) or len(options) > 100:
        raise TableError("`options` is an object: option name -> value")
    for k, v in options.items():
        if not isinstance(v, (int, str, bool, list)) or (isinstance(v, list) and len(v) > 1000):
            raise TableError(f"option `{k}` has a value of the wrong kind")
    if not isinstance(undo, bool):
        raise TableError("`undo` is true or false")
    if not isinstance(idle_seconds, int) or isinstance(idle_seconds, bool) or not IDLE_MIN <= idle_seconds <= IDLE_MAX:
        raise TableError(f"`idle_seconds` is a whole number from {IDLE_MIN} to {IDLE_MAX}")
    if seed is None:
        seed = secrets.randbelow(2 ** 31)
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2 ** 63:
        raise TableError("`seed` is a whole number from 0 to 2**63 - 1")
    try:
        game = build(rules.texts, rules.path, players, options)
    except CardlangError as e:
        raise TableError(str(e.message)) from None
    record = TableRecord(new_table_id(), rules.id, rules.title, rules.path, rules.texts, players,
                         {k: protocol_value(v) for k, v in game.options.items()}, seats, seed, undo,
                         idle_seconds, created)
    return record, game


def protocol_value(v):
    """An option's value as JSON keeps it (a list option as a list)."""
    return list(v) if isinstance(v, tuple) else v
