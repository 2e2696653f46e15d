"""Any `.cards` game as an OpenSpiel game: `load_game("games/x.cards", players=2, **options)`, or
`pyspiel.load_game("python_cardlang", {"file": …, "players": …})` once this module is imported.

Chance is explicit: every shuffle and `random` draw of the rules is a chance node with its outcomes
and their probabilities. A shuffle of k cards is k - 1 successive chance nodes, each drawing the next
card from the top among those left (uniformly: the same distribution as the engine's shuffle); a
draw among n items is one node of n outcomes. A hidden pile that the rules only shuffle, deal from
and count is shuffled lazily (`research.chance.lazy_zones`): no node at the shuffle, one when a deal
takes a card whose place is still open, among the open cards, so the tree has its natural size.
The engine cannot stop inside a step, so a state plays its step again from the step's start (the
decision, or the game's start) with the outcomes known so far each time it meets a chance event it
has no outcome for (`research/chance.py`).

Information-state and observation strings and tensors of a seat come from that seat's view
(`state.view(seat)` for the strings, `runtime.encoder_view.TableView` for the vector): its
observation, its transcript, the vector of `research/encoding.py`. The information-state string is
the seat's transcript (every step of the game as the seat read it) with its current observation,
which makes it perfect recall; the information-state tensor is the vector followed by the game's
last decisions as the seat read them (`research/history.py`: who chose, which alternative, the
number, the card where the seat knew it once the step was over), which a state records as it goes.

What a step costs (`benchmarks/bench_openspiel.py`): a state's engine states keep no log (the log
is text the rules never read: half the engine's work on a small game); the strings, which read
the seat's transcript, come from a twin of the position whose states keep it (`_Core.twin`, made
when first asked). A game's start is kept per deal (`_begin`): a new game whose chance outcomes
before its first decision were met before begins from the engine state they reached. A Python
caller's `legal_actions`, `information_state_tensor`, `is_chance_node` and `is_terminal` are
answered in one call (pyspiel's own versions call back into Python several times, and its tensor
makes an initial state to learn the size); pyspiel's C++ algorithms get the same answers through
the observer and `_legal_actions`.
"""

from __future__ import annotations

import json
import os
from functools import partial
from typing import Optional

import numpy as np
import pyspiel

from .lang.limits import MAX_PLAYERS
from .load import load
from .research.chance import NeedChance, Script, lazy_zones
from .research.encoding import MAX_NUMBER, Encoder
from .research.history import Decision, History, history_length
from .runtime import at_once
from .runtime.actions import alt_of, value_of
from .runtime.encoder_view import TableView
from .runtime.seat_table import vector_of

SHORT_NAME = "python_cardlang"
MAX_DRAW = 256  # chance outcomes a `random` draw may have (beyond the deck's size)
_PARAMETERS = {"file": "", "players": 0, "options": "", "engine": "compiled", "history": 0}
PAYOFF_BOUND = 1e9  # the utility bounds OpenSpiel is told for a game with a payoff declaration
_UTILITIES = {"zero_sum": pyspiel.GameType.Utility.ZERO_SUM, "identical": pyspiel.GameType.Utility.IDENTICAL,
              "general_sum": pyspiel.GameType.Utility.GENERAL_SUM}
_GAMES: dict = {}  # (file, players, options, engine) -> (engine Game, Encoder): loaded once a process
_STARTS: dict = {}  # (the same key, logged) -> the core of the game's start
_LAZY: dict = {}  # the same key -> the zones shuffled lazily (`research.chance.lazy_zones`)
# A core remembers the cores its actions lead to (they are never changed in place, so a child is
# the same whoever asks): an algorithm or an agent that walks the same positions again pays a dict
# lookup, not a replay. MEMO bounds the children remembered per game (each holds an engine state).
MEMO = 50_000
_MEMO_LEFT: dict = {}  # the same key -> how many more children may be remembered
# The game's start played with given chance outcomes (the deal before the first decision) is the
# same engine state whoever asks: it is kept per outcomes (`_begin`), so a new game with a deal seen
# before costs a lookup, not the rules' start played again. START_MEMO bounds the starts kept per
# game (a game that deals from a deck shuffled whole meets a new deal nearly every time).
START_MEMO = 1_000
_BEGUN: dict = {}  # (key, logged, outcomes) -> (engine state or None, chance event or None, player)
_BEGUN_LEFT: dict = {}  # key -> how many more starts may be kept
_CHANCE, _TERMINAL = int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL)


def _type(utility=pyspiel.GameType.Utility.GENERAL_SUM) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=SHORT_NAME, long_name="a cardlang rule file",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility, reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=MAX_PLAYERS, min_num_players=1,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=_PARAMETERS, default_loadable=False)


def options_text(options: dict) -> str:
    """Options as the `options` game parameter holds them: `name:value;name:value`."""
    return ";".join(f"{k}:{v}" for k, v in sorted(options.items()))


def _options(text: str) -> dict:
    out = {}
    for part in filter(None, text.split(";")):
        name, sep, value = part.partition(":")
        if not sep:
            raise ValueError(f"option `{part}` is not `name:value`")
        out[name.strip()] = value.strip()
    return out


def _engine_game(key: tuple):
    """The loaded game and its encoder for a parameter key (loaded once a process)."""
    got = _GAMES.get(key)
    if got is None:
        path, players, options, engine = key
        game = load(path, players or None, _options(options) or None, engine=engine)
        got = _GAMES[key] = (game, Encoder(game, MAX_NUMBER))
        _LAZY[key] = lazy_zones(game.program)
    return got


def load_game(path: str, players: Optional[int] = None, engine: str = "compiled", **options) -> "CardsGame":
    """The OpenSpiel game of a rule file for `players` seats and its `options`."""
    return CardsGame({"file": os.path.abspath(path), "players": int(players or 0),
                      "options": options_text(options), "engine": engine})


class CardsGame(pyspiel.Game):
    """A `.cards` game for OpenSpiel (see the module's docstring)."""

    def __init__(self, params: Optional[dict] = None):
        params = {**_PARAMETERS, **(params or {})}
        if not params["file"]:
            raise ValueError(f"{SHORT_NAME} needs a `file` parameter: the rule file to play")
        self.key = (params["file"], int(params["players"]), params["options"], params["engine"])
        self.cards, self.encoder = _engine_game(self.key)
        self.history = History(self.encoder, history_length(self.cards, int(params["history"])))
        game = self.cards
        n = game.players
        params["players"] = n
        program = game.program
        utility = _UTILITIES[game.utility]
        # a payoff's bounds are not known from the rules; without one a seat gets 0 or 1
        low, high = (0.0, 1.0) if program.payoff is None else (-PAYOFF_BOUND, PAYOFF_BOUND)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.encoder.num_actions,
            max_chance_outcomes=max(game.deck.size, MAX_DRAW),
            num_players=n, min_utility=low, max_utility=high,
            utility_sum=0.0 if game.utility == "zero_sum" else None,
            max_game_length=program.max_decisions + game.deck.size * min(program.max_rounds, 1000))
        super().__init__(_type(utility), info, params)
        self._info_observer = CardsObserver(self, pyspiel.IIGObservationType(perfect_recall=True))

    def new_initial_state(self) -> "CardsState":
        """The game's start (a chance node if the rules shuffle before the first decision)."""
        return CardsState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> "CardsObserver":
        """An observer of a seat: the information state (perfect recall) or the observation."""
        return CardsObserver(self, iig_obs_type, params)

    def info_observer(self) -> "CardsObserver":
        """The information-state observer (perfect recall), made with the game."""
        return self._info_observer


class _Core:
    """Where an OpenSpiel state stands, in plain engine terms; fields are replaced, never changed in
    place, so a copy shares them safely. Pickled as its key and moves (replayed when unpickled)."""

    __slots__ = ("key", "st", "base", "action", "script", "event", "drawn", "moves", "views", "decisions",
                 "kids",  # (player, action) -> the child core, once made (see MEMO)
                 "player",  # the seat to decide, CHANCE or TERMINAL (asked several times a step)
                 "logged")  # whether its engine states keep the game's log (see `twin`)

    def __copy__(self) -> "_Core":
        c = _Core.__new__(_Core)
        # (each field named: a loop over the slots with getattr and setattr costs more a step)
        c.key, c.st, c.base, c.action, c.script = self.key, self.st, self.base, self.action, self.script
        c.event, c.drawn, c.moves, c.views, c.decisions = self.event, self.drawn, self.moves, self.views, self.decisions
        c.kids, c.player, c.logged = self.kids, self.player, self.logged
        return c

    def __deepcopy__(self, memo) -> "_Core":
        return self  # (never changed in place: a cloned state shares its core and what it remembers)

    def __reduce__(self):
        return _revive, (self.key, self.moves)

    def twin(self) -> "_Core":
        """This position with engine states that keep the game's log, made when first asked.

        A core's engine states keep no log (`log=False`: half the engine's work on a small game);
        what reads the log (the strings: a seat's transcript, the state's) reads its twin, the same
        moves played again with the log kept (`_revive`; its own cores remember their children as
        any do). Nothing else differs: the log is text the rules never read."""
        if self.logged:
            return self
        key = ("twin", self.moves)  # (the cores of one step's successive chance picks share `views`)
        got = self.views.get(key)
        if got is None:
            got = self.views[key] = _revive(self.key, self.moves, True)
        return got

    def view(self, seat: int):
        """The seat's view where the step stands (at a chance node: where it began), kept once made;
        with its transcript (read from the `twin`)."""
        if not self.logged:
            return self.twin().view(seat)
        view = self.views.get(seat)
        if view is None:
            st = self.st if self.st is not None else self.base
            if st is None:
                return None
            view = self.views[seat] = st.view(seat, past=False)
        return view

    def table_view(self, seat: int):
        """The part of the seat's view that the vector, the mask and the action index read (cheaper:
        `runtime/encoder_view.py`), where the step stands; kept once made."""
        key = -1 - seat  # (in the same dict as the views: seats are >= 0)
        view = self.views.get(key)
        if view is None:
            st = self.st if self.st is not None else self.base
            if st is None:
                return None
            legal = self.views.get(("legal view", seat)) if st is self.st else None
            view = self.views[key] = TableView(st, seat) if legal is None else legal.with_table(st)
        return view

    def legal_view(self, seat: int):
        """The seat's view for its legal actions and `action_in` only (no table: cheaper), where
        the step stands (a decision); the whole `table_view` if it is made already."""
        views = self.views
        view = views.get(-1 - seat)
        if view is None:
            view = views.get(("legal view", seat))
            if view is None:
                view = views[("legal view", seat)] = TableView(self.st, seat, table=False)
        return view


def forget_states() -> None:
    """Forgets every state this process made and what each remembers (`MEMO`): new states are made
    afresh (for a test that changes how a tensor is made)."""
    _STARTS.clear()
    _MEMO_LEFT.clear()
    _BEGUN.clear()
    _BEGUN_LEFT.clear()


def _revive(key: tuple, moves: tuple, logged: bool = False) -> _Core:
    """A state's core played again from the start (how a serialized state comes back; `logged`:
    its `twin`)."""
    game, encoder = _engine_game(key)
    core = _start(key, game, logged)
    for player, action in moves:
        core = _child(core, game, encoder, player, action)
    return core


def _start(key: tuple, game, logged: bool = False) -> _Core:
    """The core of the game's start (made once a game: cores are never changed in place)."""
    got = _STARTS.get((key, logged))
    if got is None:
        core = _Core()
        core.key, core.base, core.action, core.script, core.moves, core.decisions = key, None, None, (), (), ()
        core.kids, core.logged = {}, logged
        got = _STARTS[(key, logged)] = _run(core, game)
    return got


def _run(core: _Core, game) -> _Core:
    """Plays the step from its start with the outcomes known so far: to a decision, or to the next
    chance event without an outcome."""
    if core.base is None:
        return _begin(core, game)
    try:
        st = core.base.clone()
        if core.script or st.rng.outcomes:  # (`Script.again`, whose answer is its script when both are empty)
            st.rng = st.rng.again(core.script)  # (the lazy piles' open cards go on)
        st.apply(core.action)
    except NeedChance as e:
        st, core.event, core.player = None, (e.kind, e.data), _CHANCE
    else:
        core.event = None
        core.player = _TERMINAL if st.terminal else st._pending[1]  # (`current_player` without its property)
        last = core.decisions[-1] if core.decisions else None
        if last is not None and last.known is None:  # its step is over: who knows the card chosen now
            core.decisions = core.decisions[:-1] + (last._replace(known=st.known[last.card]),)
        if game.program.at_once:
            core.decisions = _shown_picks(core.decisions, st)
    core.st, core.drawn, core.views = st, (), {}
    return core


def _begin(core: _Core, game) -> _Core:
    """`_run` at the game's start (no decision made yet): the start played with the outcomes known
    so far, or the engine state it reached before with them (`START_MEMO`). The engine state is
    shared, never changed in place (a step clones its base), as a remembered child's is."""
    key = (core.key, core.logged, core.script)
    got = _BEGUN.get(key)
    if got is None:
        try:
            st = game.new_initial_state(seed=0, chance=Script(core.script, 0, _LAZY[core.key]), log=core.logged)
        except NeedChance as e:
            got = (None, (e.kind, e.data), _CHANCE)
        else:
            if not core.logged:  # nothing reads its rounds' past (`TableView` takes no past): no copy of the
                st.checkpoint = False  # state at each round's first decision (`runtime.past.record`)
            got = (st, None, _TERMINAL if st.terminal else st._pending[1])
        left = _BEGUN_LEFT.get(core.key, START_MEMO)
        if left > 0:
            _BEGUN[key] = got
            _BEGUN_LEFT[core.key] = left - 1
    core.st, core.event, core.player = got
    core.drawn, core.views = (), {}
    return core


def _child(core: _Core, game, encoder: Encoder, player: int, action: int) -> _Core:
    """The core after OpenSpiel action `action` of `player`: remembered, or made (`_advance`)."""
    got = core.kids.get((player, action))
    if got is None:
        got = _advance(core, game, encoder, player, action)
        left = _MEMO_LEFT.get(core.key, MEMO)
        if left > 0:
            core.kids[(player, action)] = got
            _MEMO_LEFT[core.key] = left - 1
    return got


def _advance(core: _Core, game, encoder: Encoder, player: int, action: int) -> _Core:
    """The core after OpenSpiel action `action` of `player` (a seat, or chance)."""
    if core.event is not None:
        new = core.__copy__()
        new.kids = {}
        new.moves = core.moves + ((player, action),)
        kind, data = core.event
        if kind == "draw":
            new.script = core.script + (action,)
            return _run(new, game)
        drawn = core.drawn + (action,)
        if kind == "card":  # the cards a deal takes from a lazy pile, one after the other
            if len(drawn) < data[1]:
                new.drawn = drawn  # (the same step, the same views)
                return new
            new.script = core.script + drawn
            return _run(new, game)
        if len(drawn) < len(data) - 1:
            new.drawn = drawn  # (the same step, the same views)
            return new
        last = [c for c in data if c not in drawn]
        new.script = core.script + (drawn + tuple(last),)
        return _run(new, game)
    st = core.st
    choice = st._pending[0]
    program = game.program
    real = encoder.ids.get((choice, action))
    if real is None:
        real = encoder.ids[(choice, action)] = encoder.action_of(choice, action)
    if choice in program.card_choices:  # (its legal ids may name a card the seat does not know by its place)
        real = core.legal_view(player).action_in(st, real)
        card = value_of(real) if program.chooses[choice].alts[alt_of(real)].kind == "card" else -1
    else:  # (the view's ids are the state's)
        card = -1
    secret = (choice, real) if choice in program.at_once else None
    new = _new_core(_Core)  # (every field set here or by `_run`: no copy of the core's)
    new.key, new.logged, new.kids = core.key, core.logged, {}
    new.moves = core.moves + ((player, action),)
    new.decisions = core.decisions + (_decision((player, action, card, None if card >= 0 else 0, secret, None)),)
    new.base, new.action, new.script = st, real, ()
    return _run(new, game)


_new_core = object.__new__


_decision = partial(tuple.__new__, Decision)  # (`Decision(…)` without its Python-level `__new__`: a step makes one)


def _shown_picks(decisions: tuple, st) -> tuple:
    """The decisions with each pick made at once that has been played out marked with the seats it
    shows to (`Decision.seen`): its card's knowers then, everyone for a number or player its body
    shows (`AtOnce.shown`), nobody for an option. Pending picks stay unseen."""
    program = st.game.program
    left = len(decisions) - at_once.pending_picks(st)
    out = list(decisions)
    for i, d in enumerate(decisions[:left]):
        if d.secret is None or d.seen is not None:
            continue
        choice, real = d.secret
        k = alt_of(real)
        kind = program.chooses[choice].alts[k].kind
        shown = program.at_once[choice].shown
        seen = (st.known[value_of(real)] if kind == "card"
                else program.layout.all if kind in ("number", "player", "value") and shown and shown[k] else 0)
        out[i] = d._replace(seen=seen)
    return tuple(out)


class CardsState(pyspiel.State):
    """A state of a `.cards` game for OpenSpiel: a decision, a chance node or the end."""

    def __init__(self, game: CardsGame):
        pyspiel.State.__init__(self, game)
        key = game.key
        core = _STARTS.get((key, False))  # (`_start`'s lookup, without its call: a game begins each time)
        self._core = core if core is not None else _start(key, game.cards)  # (the only attribute: OpenSpiel
        # copies and pickles them)

    @property
    def _cards(self):
        return _GAMES[self._core.key][0]

    @property
    def _encoder(self) -> Encoder:
        return _GAMES[self._core.key][1]

    def current_player(self) -> int:
        """The seat to decide, CHANCE or TERMINAL."""
        return self._core.player

    # pyspiel's `is_chance_node`, `is_terminal`, `legal_actions` and `information_state_tensor` of
    # a Python game each call back into Python several times (the last also makes an initial state
    # and writes an initial tensor to learn the size): a Python caller gets the same answer from
    # one call. C++ callers (pyspiel's algorithms) go through the observer and `_legal_actions`.
    def is_chance_node(self) -> bool:
        """Whether chance acts next."""
        return self._core.player == _CHANCE

    def is_player_node(self) -> bool:
        """Whether a seat decides next."""
        return self._core.player >= 0

    def legal_actions(self, player: Optional[int] = None) -> list:
        """The legal actions of `player` (by default the one to act), ascending: a chance node's
        outcomes, none at the end or for a seat not deciding."""
        core = self._core
        now = core.player
        if now >= 0 and (player is None or player == now):  # (the common question: the seat to act's)
            got = core.views.get(("legal", now))
            return list(self._legal_indices(now) if got is None else got)
        if player is None:
            player = now
        if now == _TERMINAL:
            return []
        if now == _CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        if player == now:
            return list(self._legal_indices(player))
        if player < 0:
            raise pyspiel.SpielError(f"Called LegalActions for pseudo-player {player}")
        return []

    def information_state_tensor(self, player: Optional[int] = None) -> list:
        """The information-state tensor of `player` (by default the one to act), as pyspiel's."""
        if player is None:
            player = self._core.player
        observer = self.get_game()._info_observer  # (`info_observer()` without its call)
        if not 0 <= player < observer.encoder.players:
            raise pyspiel.SpielError(f"information_state_tensor of player {player}")
        return observer.tensor_of(self, player)[:]  # (a copy: the caller may change it)

    def _legal_actions(self, player: int) -> list:
        """The seat's legal action indices, ascending (from its view)."""
        return list(self._legal_indices(player))

    def _legal_indices(self, player: int) -> tuple:
        """`_legal_actions` as a tuple, kept with the core: read only."""
        core = self._core
        got = core.views.get(("legal", player))
        if got is None:
            encoder = _GAMES[core.key][1]
            pending = core.st._pending
            if pending[1] != player:
                got = ()
            elif pending[0] in _GAMES[core.key][0].program.card_choices:  # (the view names a card the seat
                # does not know by its place)
                view = core.legal_view(player)
                got = encoder.indices_of(view.choice, view.legal_action_ids())
            else:  # (the view's legal ids are the state's: no view made)
                got = encoder.indices_of(pending[0], pending[2])
            core.views[("legal", player)] = got
        return got

    def chance_outcomes(self) -> list:
        """(outcome, probability) of the chance event under way: a card drawn, or an index drawn."""
        core = self._core
        if not core.drawn:  # (the first outcome of the event: kept with the core, as a tuple)
            got = core.views.get("outcomes")
            if got is None:
                got = core.views["outcomes"] = tuple(self._outcomes())
            return list(got)
        return self._outcomes()

    def _outcomes(self) -> list:
        kind, data = self._core.event
        if kind == "draw":
            if data > max(self._cards.deck.size, MAX_DRAW):
                raise ValueError(f"a `random` draw among {data} items: this game offers OpenSpiel at most "
                                 f"{max(self._cards.deck.size, MAX_DRAW)} chance outcomes")
            return [(i, 1.0 / data) for i in range(data)]
        if kind == "card":
            drawn = self._core.drawn
            left = [c for c in data[0] if c not in drawn] if drawn else data[0]
            p = 1.0 / len(left)
            return [(c, p) for c in left]
        left = sorted(set(data).difference(self._core.drawn))
        return [(c, 1.0 / len(left)) for c in left]

    def _apply_action(self, action: int) -> None:
        core = self._core
        game, encoder = _GAMES[core.key]
        self._core = _child(core, game, encoder, core.player, int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        core = self._core.twin()  # (a label may read the log: a card shown before, named by its mark)
        if player == pyspiel.PlayerId.CHANCE:
            kind, data = core.event or ("", 0)
            if kind == "shuffle":
                # a copy of a face is its own outcome: its string names the copy (`7♥#2`)
                return f"chance: {self._cards.deck.label_of(action, copy=True)} next"
            if kind == "card":
                return f"chance: {self._cards.deck.label_of(action, copy=True)} dealt"
            return f"chance: item {action} of {data}"
        st = core.st
        if st is None or st.is_terminal() or st.current_player != player:
            return f"action {action}"
        view = core.view(player)
        try:
            a = self._encoder.action_of(view.choice, action)
        except ValueError:
            return f"action {action}"
        for x in view.legal_actions():
            if x == a:
                return x.label
        return f"action {action}"

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self._core.player == _TERMINAL

    def returns(self) -> list:
        """Each seat's return once the game is over (its payoff; without a payoff declaration 1.0 for
        a winner, 0.0 otherwise); zeros before."""
        if not self.is_terminal():
            return [0.0] * self._cards.players
        return [float(x) for x in self._core.st.returns()]

    def __str__(self) -> str:
        core = self._core.twin()
        st = core.st if core.st is not None else core.base
        lines = st.transcript() if st is not None else []
        if core.event is not None:
            kind, data = core.event
            what = (f"a shuffle of {len(data)} cards, {len(core.drawn)} drawn" if kind == "shuffle"
                    else f"a deal of {data[1]} among {len(data[0])} cards, {len(core.drawn)} drawn"
                    if kind == "card" else f"a draw among {data}")
            lines = lines + [f"chance: {what}"]
        return "\n".join(lines)


class CardsObserver:
    """A seat's observation (the vector and a string) or information state (a string), from its view."""

    def __init__(self, game: CardsGame, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observer parameters are not supported: {params}")
        kind = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        if kind.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not kind.public_info:
            raise ValueError("a cardlang seat observes its own private information and the public one; "
                             "other observation types are not offered")
        self.perfect_recall = kind.perfect_recall
        self.encoder = game.encoder
        self.history = game.history if self.perfect_recall else None
        n = game.encoder.size
        self.size = n + (self.history.size if self.perfect_recall else 0)
        self.tensor = np.zeros(self.size, np.float32)
        self.dict = {b.name: self.tensor[b.start:b.start + b.size] for b in game.encoder.blocks}
        if self.perfect_recall:  # the decisions as the seat read them (`research/history.py`)
            h = self.history
            self.dict["history"] = self.tensor[n:n + h.length * h.width].reshape(h.length, h.width)
            self.dict["decisions"] = self.tensor[-1:]

    def set_from(self, state: CardsState, player: int) -> None:
        """Fills the tensor with what `player` knows in `state` (perfect recall: and the decisions
        as it read them)."""
        self.tensor[:] = self.tensor_of(state, player)

    def tensor_of(self, state: CardsState, player: int) -> list:
        """What `set_from` writes, as a list of floats kept with the state's core (a core never
        changes): read only. (A list: cheaper than an array for a small game, and what a Python
        caller is handed.)"""
        core = state._core
        key = ("tensor", player, self.size)
        kept = core.views.get(key)
        if kept is not None:
            return kept
        n = self.encoder.size
        plan = self.encoder.plan
        if plan is not None:  # (the seat's vector straight from the state: no table made)
            st = core.st if core.st is not None else core.base  # (at a chance node: where the step began)
            out = [0.0] * self.size if st is None else vector_of(st, player, plan, self.size - n)
        else:
            view = core.table_view(player)
            out = [0.0] * self.size if view is None else self.encoder.observation_list(view, self.size - n)
        if self.perfect_recall:
            self.history.write(out, n, core.decisions, player)
        core.views[key] = out
        return out

    def string_from(self, state: CardsState, player: int) -> str:
        """The observation (or, perfect recall, the information state) of `player` as a string."""
        core = state._core
        view = core.view(player)
        head = f"P{player}"
        if core.event is not None:
            head += f" (chance: {len(core.drawn)} drawn)"
        return head if view is None else seat_string(view, head, self.perfect_recall)


def seat_string(view, head: str, perfect_recall: bool) -> str:
    """A seat's observation string from its view (its observation as JSON, after `head`); with
    `perfect_recall`, its information state: its transcript follows."""
    obs = view.observation()
    lines = obs.pop("log")
    text = head + "\n" + json.dumps(obs, sort_keys=True, ensure_ascii=False)
    if perfect_recall:
        text += "\n" + "\n".join(lines)
    return text


pyspiel.register_game(_type(), CardsGame)
