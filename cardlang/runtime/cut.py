"""Chance cuts: worlds that fit the whole past by starting where chance wiped it (issue 26).

A *chance cut* for seat k is a shuffle after which every card k does not know lies in the
shuffled pile (a round that gathers every card and shuffles them: `move all cards to talon`,
`shuffle talon`). Whatever the earlier rounds showed or implied of the cards k does not know, the
shuffle puts them in an order nobody saw: the present cards owe the past before the cut nothing
beyond what k knows. A world that fits the whole past is then the game played on from the cut with
a chance of the world's own (`past.Worlds`, mended by `whole_past.from_start` to fit what k saw
since: the deal's lines, each round's first decision, each step), and the past before the cut as
it was in public. What the past before the cut held hidden from k (a text or a card variable
naming a card k does not know, the log's lines k did not read, the stacked deck) is imagined: the
cards k does not know are dealt again among their places at the cut, what names them follows
(`view.redeal`), and the log is k's transcript (docs/knowledge.md, "Chance cuts").

`CutPast` is what a view keeps of it: the round's last decision before the cut as a handle (the
state of the round's first decision before it, kept by `past.record`, and the actions since, to be
played once when a world is first asked for), never read but to play the last action again up to
the cut, where the `Cut` chance source deals the hidden cards again before any of it is kept.
"""

from __future__ import annotations

import random
from typing import Callable, Optional

from . import rng as chance_module
from .basics import RuleError
from .past import Worlds, kept
from .places import follow
from .rng import NoOutcome


PROBES = 12  # worlds played on from a cut to learn where its deal takes the pile (`CutPast.probe`)


class Cut:
    """The chance of a world played on to a cut (see the module's docstring): until the cut, the
    state's own chance (the past as it was: these events happened before any round the seat must
    imagine); at the first shuffle that is a cut for `seat`, the cards the seat does not know are
    dealt again with `rng` (`deal`: `view.redeal`), what the state keeps hidden from the seat is
    masked, and the world's own chance `then` (a `past.Worlds`) takes over. `met` says whether the
    cut was met."""

    __slots__ = ("real", "w", "seat", "rng", "then", "past", "history", "met")

    def __init__(self, real, w, seat: int, rng: random.Random, then, past: "CutPast", history: bool):
        self.real, self.w, self.seat, self.rng, self.then, self.past = real, w, seat, rng, then, past
        self.history = history
        self.met = False

    def shuffle(self, pile: list, zone: int = -1):
        """A shuffle: the cut, if every card the seat does not know lies in `pile`, else the past's own."""
        w, bit = self.w, 1 << self.seat
        known = w.known
        inside = set(pile)
        if any(not known[c] & bit for c in range(len(known)) if c not in inside) or \
                all(known[c] & bit for c in pile):
            self.real = chance_module.shuffle(pile, self.real, zone)
            return self
        self.met = True
        self._mask()
        then = self.then
        if then.at == len(then.plan) and self.past.learnt:
            then.plan.append(self._order(pile))
        return then.shuffle(pile, zone)

    def _order(self, pile: list) -> list:
        """A random order of the cut's pile in which each card the seat knew at the round's first
        decision lies where the deal takes it to its place then (`CutPast.where`, learnt from a
        world's first deal), so that a pure deal fits the seat's cards at once; the search mends
        the rest (`whole_past.from_start`)."""
        order = pile[:]
        self.rng.shuffle(order)
        at = {place: p for p, place in enumerate(self.past.where)}
        for z, i, c in self.past.marks[0][1]:
            p = at.get((z, i))
            if p is not None and p < len(order) and c in order:
                q = order.index(c)
                order[p], order[q] = order[q], order[p]
        return order

    def _mask(self) -> None:
        """In place, just before the cut's shuffle: every card the seat does not know dealt again
        among their places (all in the pile), what names them following; the log the seat's
        transcript; the stacked deck and draws, the seed and the history dropped."""
        w, seat, past = self.w, self.seat, self.past
        bit = 1 << seat
        past.deal(w, [c for c in range(len(w.known)) if not w.known[c] & bit], self.rng)
        if w.log is not None:  # (in place: an engine may hold the list)
            if past.lines is None:  # (the same at every try: the past up to the cut is the real one)
                past.lines = [(line, (), ()) for line in w.transcript(seat)]
            w.log[:] = past.lines
            w.rounds_at = None
        w.stacks = w.draws = w.seed = None
        del w.history[:]
        # (a world kept with its past (`sample(history=True)`): a view of it plays worlds on from the
        # same cut, so that it decides as the seat's view does; `past.record` keeps it behind the round)
        w.checkpoint = past.mark() if self.history else False

    def randbelow(self, n: int) -> tuple:
        """A draw before the cut: the past's own."""
        got, self.real = chance_module.randbelow(n, self.real)
        return got, self

    def settle(self, pile: list, zone: int, k: int) -> "Cut":
        """Before a deal, before the cut: as the past's own chance settles it."""
        if type(self.real) is not int:
            self.real = self.real.settle(pile, zone, k)
        return self


class CutPast:
    """What a view keeps to play worlds from the last chance cut before its round (see the module's
    docstring): the round's first decision kept before the cut (`base`, a checkpoint of
    `past.record`), the actions played from there up to the round's first decision (`actions`, the
    last of which runs through the cut), and what the seat saw since, for `whole_past.from_start`:
    `steps` ((seat to decide, step) a step of the round) and `marks` (at the round's first
    decision, step 0: the cards the seat knew, each (zone, position, card), and each zone's size).
    `ok` is False once a try met no cut (the last action's course holds none for the seat)."""

    __slots__ = ("base", "actions", "steps", "marks", "deal", "canon", "pre", "ok", "lines", "where", "learnt")

    def __init__(self, base, actions: tuple, steps: tuple, marks: tuple, deal: Callable, canon):
        self.base, self.actions, self.steps, self.marks, self.deal = base, actions, steps, marks, deal
        self.canon = canon  # (the view's copy of the round's first decision: see `align`)
        self.pre = None
        self.ok = True
        self.lines = None  # (the log up to the cut as the seat reads it, once worked out)
        self.where = None  # (the place at the round's first decision of each position of the cut's pile)
        self.learnt = False  # (whether `where` was learnt, from a world that fitted there)

    def again(self, steps: tuple, marks: tuple, canon) -> "CutPast":
        """A `CutPast` from the same cut for a view of a world this one made (`Cut._mask`): the
        same last decision before the cut, the world's own steps, marks and copy, nothing learnt yet."""
        out = CutPast(self.base, self.actions, steps, marks, self.deal, canon)
        out.pre = self._pre() if self.ok else None
        out.ok = self.ok and out.pre is not None
        return out

    def _pre(self):
        """The last decision before the cut, as it was (played once from `base`, then kept)."""
        if self.pre is None:
            w = kept(self.base).clone(history=False)
            w.checkpoint = False
            resume = w.game.program.resume
            for a in self.actions[:-1]:
                resume(w, a)
            self.pre = w
            self.base = None  # (what made it is no longer needed)
        return self.pre

    def begin(self, seat: int, chance, rng: random.Random, history: bool):
        """A world at the round's first decision, played on from the cut with the chance `chance`
        (a `past.Worlds`, its log set to the world's): None when no cut was met (or the past could
        not be played again), which `ok` then keeps."""
        if not self.ok:
            return None
        try:
            w = self._pre().clone()
        except (RuleError, NoOutcome):
            self.ok = False
            return None
        w.checkpoint = False
        cut = Cut(w.rng, w, seat, rng, chance, self, history)
        w.rng = cut
        chance.log = w.log
        try:
            w.game.program.resume(w, self.actions[-1])
        except NoOutcome:
            self.ok = False
            return None
        if not cut.met:
            self.ok = False
            return None
        return w

    def align(self, w) -> None:
        """In place: the variables of `w`, a world at the round's first decision that fits what the
        seat saw there, become those of the view's copy of that decision, each card named by its
        place (the card `w` holds there), as a world of the round's past alone has them. What the
        round's start worked out from cards the seat does not know and left behind (a loop's items
        over another's hand, in the order they were dealt) would otherwise tell a world from the real
        course where the view holds it by place (a world kept with its past must read as the real one)."""
        canon = self.canon
        moved = {c: d for cz, wz in zip(canon.zones, w.zones) for c, d in zip(cz, wz) if c != d}
        w.v[:] = canon.v
        if moved:
            pending, w.pending = w.pending, None  # (its own legal actions stay: they name its cards)
            follow(w, moved)
            w.pending = pending

    def learn(self, w, fits: bool = True) -> None:
        """Keeps where the deal took each position of the cut's pile in `w`, a world standing at the
        round's first decision: from any world at first (`probe`), for good from one that stands
        there as the seat saw it (`fits`). `verify` reads a world of the round's past back into the
        cut's pile by it; `Cut._order` deals the search's new worlds by a `where` learnt for good."""
        if (self.where is None or fits and not self.learnt) and type(w.rng.played[0]) is list:
            zones, loc = w.zones, w.loc
            self.where = tuple((loc[c], zones[loc[c]].index(c)) for c in w.rng.played[0])
            self.learnt = fits

    def probe(self, seat: int, rng: random.Random) -> None:
        """Worlds played on from the cut, to learn where the deal takes the pile (`learn`): the first
        whose zones at the round's first decision are as full as the seat saw them (a deal that acts
        on the cards it deals, laying hearts down, takes the pile elsewhere in others), else the last
        of `PROBES`."""
        sizes = self.marks[0][2]
        for _ in range(PROBES):
            w = self.begin(seat, Worlds(rng, []), rng, False)
            if w is None:
                return
            if tuple(len(pile) for pile in w.zones) == sizes:
                self.where = None
                self.learn(w, False)
                return
            if self.where is None:
                self.learn(w, False)

    def mark(self) -> tuple:
        """The checkpoint a world kept with its past starts with after the cut: `past.NO_START` with
        this cut, so that a view of the world plays worlds on from the same cut (`past.record`)."""
        return (-1, None, 0, None, self)

    def verify(self, dealt, seat: int, rng: random.Random, lines: tuple) -> bool:
        """Whether `dealt`, the round's first decision of a world fitted to the round's past alone
        (`SeatView._replayed`), is what the cut's shuffle and the deal after it make: its cards read
        back by place into the pile's order (`where`), played on from the cut in that order, give
        the same cards in every place, the same lines and the same seat to decide. Such a world
        fits the whole past; the search across the cut is then not needed (a deal that lays cards
        down as they come, for instance, makes another: `whole_past.from_start` searches then)."""
        zones = dealt.zones
        try:
            order = [zones[z][i] for z, i in self.where]
        except IndexError:
            return False
        chance = Worlds(rng, [order])
        w = self.begin(seat, chance, rng, False)
        if w is None or w.zones != zones or chance.played[:1] != [order] or w.terminal != dealt.terminal:
            return False
        if w.pending is not None and (dealt.pending is None or w.pending[:2] != dealt.pending[:2]):
            return False
        if lines and w.log is not None:
            read = len(self.lines) if self.lines is not None else 0
            return w.transcript(seat, read) == list(lines[read:len(w.log)])
        return True


def cut_past(state, seat: int, steps: tuple, players: list, deal: Callable, canon) -> Optional[CutPast]:
    """The `CutPast` of a view of `state` for `seat`, whose round's steps since its first decision are
    `steps` (`past.round_steps`, `players` the seat to decide at each), `deal` dealing cards again
    at the cut (`view._mask_at_cut`), `canon` the view's copy of the round's first decision. None
    where no round's first decision is kept before the round's (a world then fits the round's past
    only), or no chance was met between them (no cut: the chain goes on, `past.past_steps`).
    Whether a cut lies between is found when a world is first asked for."""
    cp = state.checkpoint
    if not cp:
        return None
    if cp[0] == state.round:
        base, at, first = cp[3], cp[2], kept(cp)
    else:  # (the round's first decision is now: nothing played in it yet)
        base, at, first = cp, len(state.history), state
        steps, players = (), []
    if not base:
        return None
    again = base[4] if len(base) > 4 else None  # (a world's: played on from the cut of the view that made it)
    if again is None and (base[1] is None or at <= base[2]
                          or base[1].rng == (cp[1].rng if first is not state else state.rng)):
        return None
    bit = 1 << seat
    seen = tuple((z, i, c) for z, pile in enumerate(first.zones) for i, c in enumerate(pile) if first.known[c] & bit)
    marks = ((0, seen, tuple(len(pile) for pile in first.zones)),)
    if again is not None:
        return again.again(tuple(zip(players, steps)), marks, canon)
    return CutPast(base, tuple(state.history[base[2]:at]), tuple(zip(players, steps)), marks, deal, canon)
