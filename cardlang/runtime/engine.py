"""Stage 4, run: the immutable `Game` and the plain-data `State` that the compiled program steps.

The API follows OpenSpiel's, which bot authors know: `new_initial_state`, `current_player`,
`legal_actions`, `apply`, `observation`, `returns`, `clone`. A game is fully determined by its file,
options, player count, seed and the actions taken: that is also the save format.
"""

from __future__ import annotations

import random
from typing import Optional, Sequence, Union

from .actions import Pending, new_pending, value_of
from .at_once import mask_picks
from .basics import MAX_EVENTS, TERMINAL, Action, Events, IllegalActionError, RuleError  # noqa: F401 (re-exported)
from .payoffs import utility
from .rng import first_chance
from . import among
from .facts import seen_by
from .view import SeatView, redeal

STOP = -1  # what an instruction returns to suspend the run loop
STEP_BUDGET = 2_000_000  # instructions without a decision before a game is judged to loop


# Caps on one game, whatever its rules say (a rule file may lower or raise them: `limit …`): a
# game that would never end stops with a rule error instead, in bounded time and memory.
MAX_DECISIONS = 50_000  # actions played in one game (the longest game in games/ takes under 2,000)
MAX_ROUNDS = 10_000  # rounds begun in one game (the longest takes under 120)


_new_int = int.__new__
_new_state = object.__new__
_copy = list.copy


class State:
    """Everything that changes during a game, as flat lists of small ints (cheap to clone)."""

    __slots__ = ("game", "pc", "stack", "v", "zones", "loc", "known", "facts", "active", "rng",
                 "among",  # what seats know of cards that went one of several ways (runtime/among.py)
                 "_pending",  # the decision waited for, as `pending` gives it, or its plain tuple: see there
                 "log", "fresh", "history", "terminal", "winner_seats", "stacks", "draws", "seed", "round",
                 "steps",  # steps: loop passes left before a run is judged to loop (set by each run)
                 "_checkpoint",  # the round's first decision, for views (`view.record`); False: none kept
                 "_past_round",  # the round whose decisions need no `record` (`resume` found so), or None
                 "quiet",  # nothing will observe this state: see `runtime.playout.quiet`
                 "rounds_at",  # where each round began in the log (None without a log): `play` steps by it
                 "frame")  # the compiled round's generator waiting at this decision, or None: never copied

    def __init__(self, game: "Game"):
        self.game = game

    # ------------------------------------------------------------------ public API
    @property
    def pending(self) -> Optional[Pending]:
        """The decision the state waits for, a `Pending`, or None once the game is over."""
        p = self._pending
        if p is not None and type(p) is not Pending:
            # the compiled engine stops at a decision with a plain tuple, which costs a fifth of a
            # `Pending`: it becomes one when first read here (the API's own loop reads the tuple)
            p = self._pending = new_pending(p)
        return p

    @pending.setter
    def pending(self, p: Optional[tuple]) -> None:
        self._pending = p

    @property
    def checkpoint(self):
        """The round's first decision kept for views (`runtime.past.record`), None before the first,
        or False where none is kept."""
        return self._checkpoint

    @checkpoint.setter
    def checkpoint(self, cp) -> None:
        self._checkpoint = cp
        # (`resume` asks `record` again at the next decision, as it asked at each before it kept
        # its answer for the round: `quiet` is set with the checkpoint, or in a copy just made)
        self._past_round = None

    @property
    def current_player(self) -> int:
        """The seat that must decide now, or TERMINAL."""
        return TERMINAL if self.terminal else self._pending[1]

    def is_terminal(self) -> bool:
        return self.terminal

    def legal_action_ids(self) -> tuple:
        """The ids of the legal actions, without labels (the fast path for playouts)."""
        return () if self.terminal else self._pending[2]

    def legal_actions(self) -> list:
        """The legal actions of the current player, each an `Action` with its label."""
        if self.terminal:
            return []
        label = self.game.program.label  # labels that depend only on the action are cached there
        out = []
        try:
            for a in self.pending.legal:
                action = _new_int(Action, a)  # what Action(a, label) does, without its Python-level call
                action.label = label(self, a)
                out.append(action)
        except RuleError as e:  # a label's text breaks a rule (`as "{10 / x}"`)
            raise e.in_game(self.seed, len(self.history))
        return out

    def apply(self, action: Union[int, str]) -> None:
        """Plays a legal action (an `Action`, its id, or its label) and runs to the next decision."""
        pending = self._pending
        if type(action) is int and pending is not None and action in pending[2]:
            self.game.program.resume(self, action)  # the playout path: a plain legal id
            return
        a = self._resolve(action)
        self.game.program.resume(self, a)

    def _resolve(self, action) -> int:
        if self.terminal:
            raise IllegalActionError("the game is over: no action is legal")
        legal = self.pending.legal
        if isinstance(action, str) and not isinstance(action, Action):
            for a in legal:
                if self.game.program.label(self, a) == action:
                    return a
            # a card's short name, as tests and the terminal accept (a face named without its copy
            # number: the first of its copies that is legal)
            cards = self.game.deck.card_ids(action)
            for card in cards:
                for a in legal:
                    if value_of(a) == card and self.game.program.is_card_action(self, a):
                        return a
            labels = ", ".join(repr(self.game.program.label(self, a)) for a in legal)
            raise IllegalActionError(f"`{action}` is not a legal action; legal: {labels}")
        a = int(action)
        if a not in legal:
            labels = ", ".join(f"{x} ({self.game.program.label(self, x)})" for x in legal)
            raise IllegalActionError(f"action {a} is not legal for P{self.pending.player}; legal: {labels}")
        return a

    def returns(self) -> list:
        """Each seat's payoff once the game is over (the game's `payoff of p:`, else 1.0 for each
        winner and 0.0 for the others); zeros before."""
        try:
            return self.game.program.returns(self)
        except RuleError as e:  # (a payoff can break a rule: its division by zero, its zero sum)
            raise e.in_game(self.seed, len(self.history))

    def winners(self) -> tuple:
        """The winning seats (empty before the end)."""
        return self.winner_seats if self.terminal else ()

    def scores(self) -> list:
        """Each seat's score as the game's `score of p:` declares it (its returns without one)."""
        try:
            return self.game.program.scores(self)
        except RuleError as e:
            raise e.in_game(self.seed, len(self.history))

    def clone(self, history: bool = True) -> "State":
        """An independent copy that plays on exactly like this state (without `history`, its
        history empty: a copy kept to be read, as `view.record` keeps a round's first decision)."""
        s = _new_state(self.__class__)
        s.game = self.game
        s.pc = self.pc
        s.stack = self.stack.copy()
        s.v = self.v.copy()
        s.zones = list(map(_copy, self.zones))  # (copies in C: no slice object a list)
        s.loc = self.loc.copy()
        s.known = self.known.copy()
        s.facts = None if self.facts is None else self.facts.copy()  # (see `runtime.facts`)
        s.among = self.among  # (never changed in place: shared safely)
        s.active = self.active.copy()
        s.rng = self.rng
        s._pending = self._pending
        s.log = None if self.log is None else self.log.copy()
        s.fresh = Events(0) if s.log is None else Events(MAX_EVENTS - len(s.log), self.fresh.chars)
        s.history = self.history.copy() if history else []
        s.terminal = self.terminal
        s.winner_seats = self.winner_seats
        s.stacks = self.stacks
        s.draws = self.draws
        s.seed = self.seed
        s.round = self.round
        s._checkpoint = self._checkpoint  # (never changed in place: shared safely)
        s._past_round = None
        s.quiet = self.quiet
        s.rounds_at = None if self.rounds_at is None else self.rounds_at.copy()
        s.frame = None  # (the copy goes on through the ops: see `compiler/emit/frames.py`)
        return s

    def __getstate__(self):
        """What `copy` and `pickle` take: every field but the round's generator (a copy goes on
        without it, as a clone does)."""
        return None, {name: getattr(self, name) for name in _FIELDS
                      if name not in ("frame", "_past_round") and hasattr(self, name)}

    def __setstate__(self, state) -> None:
        for name, value in state[1].items():
            setattr(self, name, value)
        self.frame = None
        self._past_round = None

    def determinize(self, seat: int, rng: random.Random) -> "State":
        """A copy where the cards `seat` does not know are dealt again at random into their places.

        The copy depends only on what `seat` knows and on `rng`: the unknown cards are taken in id
        order, shuffled with `rng`, and dealt back into the places that unknown cards occupy (zone
        by zone, bottom first), so every place keeps its count. What belongs to a place moves with
        its card: who else knows it, card values held in variables, card ids in pending actions;
        the picks other seats made at once and that wait to be played out are drawn again.
        Later shuffles and `random` draws use a fresh seed from `rng`, so the copy does not foresee
        the real game's chance either: no log, no history, no seed, not for saving. What the
        program worked out from the real cards stays as it was (locals, another player's legal
        actions by place); bots use `SeatView.determinize`, which works those out again.
        """
        s = self.clone(history=False)
        s.log = None
        s.rounds_at = None
        s.history = []
        s.stacks = None
        s.draws = None
        s.seed = None
        s.checkpoint = False
        s.rng = rng.getrandbits(64)
        bit = 1 << seat
        known = self.known
        unknown = [c for c in range(len(known)) if not known[c] & bit]
        redeal(s, unknown, rng, seat)
        if s.facts is not None:  # what others were told of a card the seat does not know would tell of it
            s.facts = seen_by(s, unknown, unknown, seat)
        if s.among is not None:  # (so would what others track of them)
            s.among = among.only(s, seat)
        if self.game.program.at_once:  # the others' picks made at once, still pending: drawn again
            mask_picks(s, seat, lambda legal: legal[int(rng.random() * len(legal))])
        return s

    def view(self, seat: int, past: bool = True) -> "SeatView":
        """What `seat` knows now, as an object with no path to the cards hidden from it (bots
        decide from it): see `cardlang.runtime.view.SeatView`. Without `past`, the view leaves out
        how the others played this round (its `determinize` ignores it), and costs half as much."""
        return SeatView(self, seat, past)

    def zone(self, name: str, seat: Optional[int] = None) -> list:
        """The short names of a zone's cards, bottom first (omniscient: for tests and tools); for a
        numbered family (`7 piles`), `seat` is the pile's number, from 1 as in the rules."""
        base, per_player = self.game.program.zone_families[name]
        piles = self.game.program.zone_counts.get(name)
        if piles is not None:
            if seat is None or not 1 <= seat <= piles:
                raise ValueError(f"`{name}` is a family of {piles} piles: give a pile from 1 to {piles}")
            return [self.game.deck.name_of(c) for c in self.zones[base + seat - 1]]
        if per_player and seat is None:
            raise ValueError(f"`{name}` is a per-player zone: give a seat")
        cards = self.zones[base + (seat if per_player else 0)]
        return [self.game.deck.name_of(c) for c in cards]

    def var(self, name: str, seat: Optional[int] = None):
        """The raw value of a variable, or of a per-player variable for `seat` (omniscient)."""
        program = self.game.program
        if name in program.tvar_slots:  # a per-team variable: `seat` is the team's number here
            base = program.tvar_slots[name][0]
            if seat is None:
                return [self.v[base + k] for k in range(len(program.teams))]
            return self.v[base + seat]
        if name in program.pvar_slots:
            if seat is None:
                return [self.v[program.pvar_slots[name][0] + s] for s in range(self.game.players)]
            return self.v[program.pvar_slots[name][0] + seat]
        return self.v[program.var_slots[name][0]]

    def knows(self, seat: int, card: Union[int, str]) -> bool:
        """Whether `seat` knows where this card is and what it is."""
        c = self.game.deck.card_id(card) if isinstance(card, str) else card
        return bool(self.known[c] >> seat & 1)

    def observation(self, seat: int) -> dict:
        """What `seat` may see: its known cards, counts of the others, public variables, its log."""
        try:
            return self.game.program.observe(self, seat)
        except RuleError as e:  # (a score shown there can break a rule)
            raise e.in_game(self.seed, len(self.history))

    def transcript(self, seat: Union[None, int, Sequence[int]] = None, start: int = 0) -> list:
        """The log as lines, from one seat's view (cards it did not know are hidden) or omniscient.

        Several seats give the view they share: a card shows only where every one of them knew it.
        `start` skips the lines before it.
        """
        return self.game.program.render_log(self, seat, start)

    def to_json(self) -> dict:
        """The save format: game identity, seed, stacked deck and draws, and every action taken."""
        return {
            "file": self.game.path,
            "hash": self.game.source_hash,
            "players": self.game.players,
            # (a list option as the text `--set` takes, `20,30,40`: a save's options are numbers, true, false or texts)
            "options": {k: ",".join(map(str, v)) if isinstance(v, tuple) else v for k, v in self.game.options.items()},
            "seed": self.seed,
            "stack": self.stacks[1] if self.stacks else None,
            "draws": list(self.draws[1]) if self.draws else None,
            "actions": list(self.history),
        }

    @staticmethod
    def from_json(game: "Game", data: dict) -> "State":
        """Rebuilds a state by replaying a saved game's actions on `game`."""
        if data.get("players") not in (None, game.players):
            raise ValueError(f"the save is for {data['players']} players, the game has {game.players}")
        st = game.new_initial_state(seed=data.get("seed", 0), stack=data.get("stack"), draws=data.get("draws"))
        for a in data.get("actions", ()):
            st.apply(int(a))
        return st

    def __repr__(self) -> str:
        who = "over" if self.terminal else f"P{self.pending.player} to play"
        return f"<State {self.game.title} {who}, {len(self.history)} actions>"


class Game:
    """A compiled game for a fixed number of players and options: immutable, shared by its states."""

    def __init__(self, program, symbols, players: int, options: dict, path: str, source_hash: str):
        self.program = program
        self.symbols = symbols
        self.players = players
        self.options = options
        self.path = path
        self.source_hash = source_hash
        self.title = symbols.title
        self.deck = program.deck
        self.utility = utility(program.payoff)  # "zero_sum", "identical" (a shared payoff) or "general_sum"
        self.teams = program.teams  # the seats of each team (`teams …`), () without partnerships
        self._state = _state_class(program.state_apply)

    def new_initial_state(self, seed: int = 0, stack: Optional[Sequence] = None,
                          draws: Optional[Sequence] = None, log: bool = True, chance=None) -> State:
        """A new game, run up to its first decision.

        `stack` fixes the order of shuffled cards, top first: a list of card names for the first
        shuffle, or a list of such lists for successive shuffles (later shuffles are random).
        `draws` fixes what successive `random(…)` draws give (players as seat numbers). `log=False`
        skips the log, for fast playouts (an empty list: the log, written there). `chance`, a chance source (see `runtime/rng.py`), supplies
        every shuffle and draw in place of the seed (adapters that enumerate chance do).
        """
        st = self._state(self)
        st.seed = seed
        st.rng = first_chance(seed) if chance is None else chance
        st.stacks = _stacks(self.deck, stack) if stack else None
        st.draws = (0, tuple(draws)) if draws else None
        st.log = log if type(log) is list else [] if log else None  # (a list: the log to write, `whole_past.from_start`)
        st.checkpoint = None
        st.quiet = False
        st.frame = None
        try:
            self.program.init_state(st)
        except RuleError as e:  # before the first decision: the state as it stands, to save it
            e.state = st
            raise
        return st

    def card(self, name: str) -> int:
        """The id of a card of this game's deck, by name (`As`, `10h`, `Q of spades`; `7h#2` for the
        second copy of a face the deck has several of, `7h` for its first)."""
        return self.deck.card_id(name)

    def card_name(self, card: int) -> str:
        return self.deck.name_of(card)

    def __repr__(self) -> str:
        return f"<Game {self.title} for {self.players} players>"


_FIELDS = State.__slots__


def _state_class(apply) -> type:
    """The class of one game's states: `State`, or with the program's own `apply` (its fast path,
    one call a decision: `ProgramBase.state_apply`)."""
    if apply is None:
        return State
    return type("State", (State,), {"__slots__": (), "apply": apply, "__doc__": State.__doc__,
                                    "__module__": State.__module__, "__qualname__": State.__qualname__})


def _stacks(deck, stack) -> tuple:
    """(index of the next stacked shuffle, the stack as given, its card ids); replaced, never mutated.
    ValueError for a shuffle that names a card the deck lacks, or one card twice (a name without
    its copy number, `7h`, names the next copy of a face not listed yet)."""
    if stack and isinstance(stack[0], (str, int)):
        stack = [stack]
    ids = []
    for i, s in enumerate(stack):
        try:
            ids.append(deck.stack_ids([n if isinstance(n, str) else int(n) for n in s]))
        except ValueError as e:
            raise ValueError(f"stacked deck: {e}" + (f", shuffle {i + 1}" if len(stack) > 1 else "")) from None
    return (0, [list(s) for s in stack], tuple(ids))
