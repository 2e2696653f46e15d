"""Bots: they decide from a seat's view (`State.view(seat)`, a `SeatView`), never from the state.

`bot.choose(view)` returns one of the view's legal actions; `decide(bot, state)` takes the current
player's view, asks the bot and gives the state's action for the answer (the same place). A view
has no path to the cards hidden from its seat, so a bot cannot read them, and two states that
differ only in such cards give equal views, hence equal decisions for equal seeds
(tests/test_leaks.py checks it on every file). Every bot that looks ahead does so on
`view.determinize(rng)`: copies dealt to fit what the seat knows and how the others played, from
which it also takes its baseline (payoffs, or scores).

A bot is named `NAME` or `NAME:BUDGET`: `greedy:64` plays 64 playouts per decision, `ismcts:200`
runs 200 iterations, `ismcts:0.5s` searches for half a second (not reproducible: it depends on the
machine's speed). Iteration budgets make a bot's decisions a function of its seed and the view.
"""

from __future__ import annotations

import math
import random
import time
from typing import Callable, Optional, Sequence

from ..runtime.basics import RuleError
from ..runtime.playout import advance, quiet
from ..runtime.view import ChoiceCount, SeatView
from .native_rollouts import Rollouts


class BotNameError(KeyError, ValueError):
    """An unknown bot or a bad budget: a KeyError (what callers of `make_bot` catch) and a ValueError."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class RandomBot:
    """Picks uniformly among the legal actions."""

    name = "random"
    blind = True  # it needs only how many legal actions there are (`ChoiceCount`), not a `SeatView`

    def __init__(self, seed: int = 0, budget=None):
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> int:
        """One of the view's legal actions, uniformly."""
        legal = _legal(view)
        return legal[self.rng.randrange(len(legal))]


def _legal(view) -> tuple:
    """The view's legal actions; a TypeError for anything but a view (a bot never gets the state)."""
    if not isinstance(view, (SeatView, ChoiceCount)):
        raise TypeError(f"a bot decides from a seat's view (`state.view(seat)`), not from {type(view).__name__}")
    legal = view.legal_action_ids()
    if not legal:
        raise ValueError(f"P{view.seat} has nothing to decide")
    return legal


def decide(bot, state) -> int:
    """The action of `state` that `bot` plays: it decides from the current player's view."""
    seat = state.current_player
    view = ChoiceCount(state, seat) if getattr(bot, "blind", False) else state.view(seat)
    return view.action_in(state, bot.choose(view))


# ---------------------------------------------------------------------------------- playouts
def _horizon(view, rounds: Optional[int]) -> Optional[int]:
    """The round number at which a playout from the view's copies stops (None: at the end of the game).

    A game without a declared score is only judged at its end. Otherwise playouts stop once `rounds`
    rounds have ended, and are judged by how the scores moved: far cheaper than playing a long game
    out at random, and nearer to what the decision changes.
    """
    if rounds is None or view.game.program.score is None:
        return None
    return view.round + rounds


def _progress(state) -> list:
    """Where each seat stands, the baseline a playout's values are measured from: the game's payoffs
    as they stand when it declares them, else its scores (its returns without a score)."""
    payoffs = state.game.program.payoffs(state)
    return state.scores() if payoffs is None else payoffs


def _values(state, before: Sequence, after: Optional[Sequence] = None) -> list:
    """Each seat's value of a playout that started from `before` (its `_progress` then).

    A game with a payoff: the seat's own payoff's change (what it maximises, whatever the others get;
    in a game whose players share their payoff every seat gets the same). Without one: its score's
    change minus the mean change of the other seats (a fall counts as a gain where the lowest score
    wins), and at the end of a game without scores, wins. `after`: the playout's end's `_progress`,
    when it was played elsewhere (a native rollout) and `state` is only the game's.
    """
    if state.game.program.payoff is not None:
        return [a - b for a, b in zip(_progress(state) if after is None else after, before)]
    if after is None:
        after = state.scores()
    n = len(after)
    score = state.game.symbols.score
    sign = -1 if score is not None and score.order == "lowest" else 1
    gains = [sign * (a - b) for a, b in zip(after, before)]
    total = sum(gains)
    if n == 1:
        return gains
    return [(n * g - total) / (n - 1) for g in gains]


def _root_actions(view, det) -> list:
    """Pairs (the view's action, the same action in the determinized copy), in legal order.

    They differ only when a player picks among cards the seat cannot see: the same place is meant.
    An action the copy does not allow (a game whose legal actions hang on cards hidden from the
    chooser) is left out.
    """
    legal = det.legal_action_ids()
    out = []
    for a in view.legal_action_ids():
        d = view.action_in(det, a)
        if d in legal:
            out.append((a, d))
    return out


MAX_ITERATIONS = 100_000  # a budget's bound: a save received from someone may carry any budget
MAX_SECONDS = 60.0  # per decision


class _Budget:
    """Iterations, or seconds (a budget written `0.5s`), each with an upper bound: a budget comes from a
    command line or a save, and one without a bound (`ismcts:1e400s`) would never let a decision end."""

    def __init__(self, budget, default_iterations: int):
        self.seconds: Optional[float] = None
        self.iterations = default_iterations
        if budget is None or budget == "":
            return
        text = str(budget).strip()
        if text.endswith("s"):
            try:
                self.seconds = float(text[:-1])
            except ValueError:
                self.seconds = 0.0
            if not 0 < self.seconds <= MAX_SECONDS:  # (also refuses nan and inf)
                raise BotNameError(f"a time budget is a number of seconds above 0 and at most {MAX_SECONDS:g} "
                                   f"(`0.5s`), not `{_short(budget)}`")
            self.iterations = 1 << 62
        else:
            try:
                self.iterations = int(text)
            except ValueError:  # (also a number of more than 4300 digits)
                self.iterations = 0
            if not 1 <= self.iterations <= MAX_ITERATIONS:
                raise BotNameError(f"a budget is a number of iterations from 1 to {MAX_ITERATIONS:,} or of seconds "
                                   f"(`0.5s`, at most {MAX_SECONDS:g}), not `{_short(budget)}`")

    def deadline(self) -> Optional[float]:
        return None if self.seconds is None else time.perf_counter() + self.seconds

    def __str__(self) -> str:
        return f"{self.seconds:g}s" if self.seconds is not None else str(self.iterations)


class _SearchBot:
    """What the searching bots share: their seeded rng, their budget and how far a playout looks.

    A world the bot imagines (`view.determinize`) fits what its seat knows, but not always what the
    whole past made true (issue 26: a world may deal a hand that an earlier step ruled out), and
    played ahead it may then break a rule or meet a cap. Such a world is impossible: the iteration is
    discarded (its budget spent, nothing learnt from it) and counted in `discarded`, with its
    reason in `discarded_why`; it is never an error of the real game (`simulate` reports the count).
    """

    DEFAULT_BUDGET = 1
    consistent = True  # determinized copies fit how the others played (False: as bots did before views)

    LEAF = 16  # rollouts from each world when they are native (one on the compiled engine)
    REUSE = 4  # iterations a world serves when rollouts are native (one on the compiled engine)

    def __init__(self, seed: int = 0, budget=None, rounds: Optional[int] = 1, rollouts: str = "auto",
                 leaf: Optional[int] = None, reuse: Optional[int] = None):
        self.rng = random.Random(seed)
        self.rollouts = Rollouts(rollouts)  # native or compiled-engine rollouts (`play/native_rollouts.py`)
        # native rollouts cost a fraction of a world's dealing (`view.determinize`): several from each
        # world, their values averaged, make the search's samples cheaper (docs/research.md)
        self.leaf = self.LEAF if leaf is None else max(1, int(leaf))
        # and each world dealt serves `reuse` iterations in turn (a copy each, with chance of its own
        # from there): the dealing, most of an iteration, is shared by several (docs/research.md)
        self.reuse = self.REUSE if reuse is None else max(1, int(reuse))
        self._kept = None  # (the world dealt last, its baseline, iterations it may still serve)
        self._serves = 1  # (iterations a world serves in this decision: `reuse` when rollouts are native)
        self.budget = _Budget(budget, self.DEFAULT_BUDGET)
        self.rounds = rounds
        self.discarded = 0  # imagined worlds that broke a rule or met a cap, over all decisions
        self.discarded_why: dict = {}  # the first line of each such error -> how many times
        self.worlds = 0  # worlds imagined to fit how the others played, over all decisions
        self.fallbacks = 0  # of those, worlds that fit the round's past only, not the whole past the view holds

    def _discard(self, error: RuleError) -> None:
        """Counts a world that `error` showed impossible (and deals the next one afresh)."""
        self._kept = None
        self.discarded += 1
        why = str(error.args[0] if error.args else error).splitlines()[0] if error.args else "a rule error"
        if why in self.discarded_why or len(self.discarded_why) < 8:
            self.discarded_why[why] = self.discarded_why.get(why, 0) + 1

    def choose(self, view: SeatView) -> int:
        """The action to play: the only legal one, or the result of the bot's search."""
        legal = _legal(view)
        if len(legal) == 1:
            return legal[0]
        self._kept = None
        self._serves = self.reuse if self.rollouts.native_for(view.game) else 1
        try:
            return self._search(view, legal, view.seat, _horizon(view, self.rounds))
        finally:
            self._kept = None

    def _world(self, view):
        """A determinized copy and the scores it starts from (the baseline of its values). With
        native rollouts, a world serves `reuse` iterations in turn: each a copy of it whose chance
        from there is drawn anew (a world's chance after the past is its own: `whole_past`)."""
        kept = self._kept
        if kept is not None and kept[2] > 0:
            self._kept = (kept[0], kept[1], kept[2] - 1)
            det = kept[0].clone()
            if type(det.rng) is int:
                det.rng = self.rng.getrandbits(64)
            return det, kept[1]
        det, fits = view.sample(self.rng, self.consistent)
        if self.consistent:  # (counted: a world that fell back to the round's past, `SeatView.sample`)
            self.worlds += 1
            self.fallbacks += not fits
        det = quiet(det)  # (a copy nothing observes)
        before = _progress(det)
        if self._serves > 1:
            self._kept = (det.clone(), before, self._serves - 1)
        return det, before

    def _playout(self, det, rng, stop: Optional[int], before: Sequence) -> list:
        """Plays the world out at random (natively when it can: `self.rollouts`): each seat's value."""
        return _values(det, before, self.rollouts.play(det, rng, stop, self.leaf))

    def _search(self, view, legal: tuple, seat: int, stop: Optional[int]) -> int:
        raise NotImplementedError


# ------------------------------------------------------------------------------------ greedy
class GreedyBot(_SearchBot):
    """Flat Monte Carlo: playouts after each legal action from determinized copies; the best mean wins.

    The budget is the number of playouts per decision, shared in turn among the legal actions. The
    default is a few per action: a cheap bot, between `random` and `ismcts`.
    """

    name = "greedy"
    DEFAULT_BUDGET = 32

    def _search(self, view, legal: tuple, seat: int, stop: Optional[int]) -> int:
        rng = self.rng
        deadline = self.budget.deadline()
        totals: dict = {}
        counts: dict = {}
        i = 0
        while i < self.budget.iterations and (deadline is None or time.perf_counter() < deadline or i < len(legal)):
            i += 1
            try:
                det, before = self._world(view)
                moves = _root_actions(view, det)
                if not moves:
                    continue
                action, det_action = moves[(i - 1) % len(moves)]
                advance(det, det_action)
                value = self._playout(det, rng, stop, before)[seat]
            except RuleError as e:  # an impossible world (see `_SearchBot`)
                self._discard(e)
                continue
            totals[action] = totals.get(action, 0.0) + value
            counts[action] = counts.get(action, 0) + 1
        return max(legal, key=lambda a: (totals[a] / counts[a]) if a in counts else -math.inf)


# ------------------------------------------------------------------------------------ ismcts
class _Node:
    """A node of the search tree: reached by `action`, taken by seat `who` (the player it rewards)."""

    __slots__ = ("action", "who", "children", "visits", "avail", "total")

    def __init__(self, action, who):
        self.action, self.who = action, who
        self.children: dict = {}
        self.visits = 0
        self.avail = 1
        self.total = 0.0


class ISMCTSBot(_SearchBot):
    """Single-observer information-set MCTS (Cowling, Powley and Whitehouse, 2012).

    Each iteration deals the hidden cards anew (`SeatView.determinize`; with native rollouts a world
    dealt serves `reuse` iterations in turn, see `_SearchBot._world`), walks down one tree shared by
    all determinizations using only the actions legal in this one (UCB over availability counts),
    adds a node, plays at random to the end of the round (or of the game, without a score), and
    credits each node with the gain of the seat that chose it. Gains are scaled to [0, 1] by the
    smallest and largest seen so far, which keeps the search blind to the size of a game's scores.
    The most visited action is played.
    """

    name = "ismcts"
    DEFAULT_BUDGET = 200
    EXPLORATION = 0.7

    def __init__(self, seed: int = 0, budget=None, rounds: Optional[int] = 1, exploration: float = EXPLORATION,
                 rollouts: str = "auto", leaf: Optional[int] = None, reuse: Optional[int] = None):
        super().__init__(seed, budget, rounds, rollouts, leaf, reuse)
        self.c = exploration

    def _search(self, view, legal: tuple, seat: int, stop: Optional[int]) -> int:
        rng = self.rng
        root = _Node(None, None)
        lo, hi = math.inf, -math.inf
        deadline = self.budget.deadline()
        iterations = self.budget.iterations
        it = 0
        while it < iterations and (deadline is None or time.perf_counter() < deadline or it < len(legal)):
            it += 1
            try:
                found = self._iterate(view, root, rng, lo, hi, stop)
            except RuleError as e:  # an impossible world (see `_SearchBot`): the tree is as it was
                self._discard(e)
                continue
            path, values = found
            for v in values:
                if v < lo:
                    lo = v
                if v > hi:
                    hi = v
            for nd in path[1:]:
                nd.visits += 1
                nd.total += values[nd.who]
        return max(legal, key=lambda a: (root.children[a].visits, root.children[a].total / root.children[a].visits)
                   if a in root.children else (-1, 0.0))

    def _iterate(self, view, root: _Node, rng, lo: float, hi: float, stop: Optional[int]) -> tuple:
        """One iteration in a new world, down to a new node and played out: (the path of nodes, the
        seats' values). A RuleError met on the way leaves the tree as it found it."""
        c = self.c
        log = math.log
        sqrt = math.sqrt
        touched: list = []  # (children, key, made): avail counts raised and nodes made, to undo
        try:
            det, before = self._world(view)
            node = root
            path = [root]
            first = True
            span = hi - lo if hi > lo else 0.0
            # selection and expansion
            while not det.terminal and (stop is None or det.round < stop):
                moves = _root_actions(view, det) if first else None
                keys = [r for r, _ in moves] if first else det.pending.legal
                if not keys:
                    break
                who = det.pending.player
                children = node.children
                untried = [k for k in keys if k not in children]
                for k in keys:
                    child = children.get(k)
                    if child is not None:
                        child.avail += 1
                touched.append((children, keys, None))
                if untried:
                    key = untried[int(rng.random() * len(untried))]
                    child = children[key] = _Node(key, who)
                    touched.append((children, (), key))
                else:
                    best, child = -math.inf, None
                    for k in keys:
                        ch = children[k]
                        mean = ch.total / ch.visits
                        q = (mean - lo) / span if span else 0.5
                        u = q + c * sqrt(log(ch.avail) / ch.visits)
                        if u > best:
                            best, child = u, ch
                    key = child.action
                if first:
                    key = next(d for r, d in moves if r == key)
                    first = False
                advance(det, key)
                path.append(child)
                node = child
                if untried:
                    break
            # simulation
            return path, self._playout(det, rng, stop, before)
        except RuleError:
            for children, keys, made in reversed(touched):
                if made is not None:
                    del children[made]
                for k in keys:
                    child = children.get(k)
                    if child is not None:
                        child.avail -= 1
            raise


def _short(text) -> str:
    """A budget as given, cut short for a message."""
    text = str(text)
    return text if len(text) <= 40 else text[:39] + "…"


BOTS: dict[str, Callable] = {"random": RandomBot, "greedy": GreedyBot, "ismcts": ISMCTSBot}


def parse_bot(name: str) -> tuple:
    """`ismcts:200` → ("ismcts", "200"); `random` → ("random", None). BotNameError for unknown bots."""
    base, _, budget = name.strip().partition(":")
    if base not in BOTS:
        raise BotNameError(f"unknown bot `{name}` (bots: {', '.join(sorted(BOTS))})")
    return base, (budget or None)


def make_bot(name: str, seed: int = 0):
    """A bot by name, `NAME` or `NAME:BUDGET` (iterations, or seconds as `0.5s`).

    BotNameError (a KeyError and a ValueError) naming the known bots for an unknown name, or for a
    bad budget.
    """
    base, budget = parse_bot(name)
    return BOTS[base](seed=seed, budget=budget)
