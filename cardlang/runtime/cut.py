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

`CutPast` is what a view keeps of it, and it holds only what the seat observed (a view keeps no
real hidden card): the round's last decision before the cut as the seat's copy of it (`start`: the
cards it did not know then dealt again in a fixed order, `view._canonical`) and the state at the
cut masked for the seat (`at_cut`: the cards it does not know dealt again among their places, the
log its transcript). Both are worked out on the state's side from the real past (`_real_cut`, kept
per round and seat), which the view never holds. A world plays the last action again from `start`
up to the cut, where the `Cut` chance source puts `at_cut` in place of what the copy's course made
(the program stands at the same shuffle: checked when they are worked out) and deals the hidden
cards again among their places before the world's own chance takes over.
"""

from __future__ import annotations

import random
from collections import OrderedDict
from typing import Callable, Optional

from . import rng as chance_module
from .actions import alt_of, value_of, with_value
from .basics import MAX_EVENTS, Events, RuleError
from .past import Worlds, kept, place_of
from .places import exchange_pairs, follow
from .rng import NoOutcome


PROBES = 24  # worlds played on from a cut to learn where its deal takes the pile (`CutPast.probe`), a world sampled
MAX_PROBES = 96  # the same, a view in all: a deal that never gives the seat's sizes stops paying for them
CUT_SEED = 0xC07  # the seed of the fixed deal of the hidden cards at the cut, before each world's own
REACH_TRIES = 8  # deals of the seat's copy before the cut tried until one reaches the same shuffle (`_reaching`)
CACHED = 64  # real cuts worked out and kept (`_real_cut`: per round's past and seat)
_CUTS: "OrderedDict" = OrderedDict()  # (id(base), at, seat) -> (base, (start, at_cut, lines) or None)


class _AtCut(Exception):
    """Raised by a `Cut` played on the state's side (`_real_cut`) where the cut lies."""

    def __init__(self, zone: int):
        super().__init__(zone)
        self.zone = zone


class Cut:
    """The chance of a world played on to a cut (see the module's docstring): until the cut, the
    chance of the state it was played from (these events happened before any round the seat must
    imagine); at the first shuffle that is a cut for `seat`, the seat's state at the cut is put in
    place (`CutPast.enter`: the cards the seat does not know dealt again with `rng`), and the world's
    own chance `then` (a `past.Worlds`) takes over. With no `past` (the state's side, `_real_cut`),
    it stops there (`_AtCut`). `met` says whether the cut was met."""

    __slots__ = ("real", "w", "seat", "rng", "then", "past", "history", "met")

    def __init__(self, real, w, seat: int, rng: random.Random, then, past: "CutPast", history: bool):
        self.real, self.w, self.seat, self.rng, self.then, self.past = real, w, seat, rng, then, past
        self.history = history
        self.met = False

    def shuffle(self, pile: list, zone: int = -1):
        """A shuffle: the cut, if every card the seat does not know lies in `pile` and the shuffle
        leaves the seat cards there it does not know (the pile holds one, or is hidden from the seat:
        a trick game's cards, all played face up, gathered and shuffled for the next deal), else
        the past's own."""
        w, bit = self.w, 1 << self.seat
        known = w.known
        inside = set(pile)
        seen = zone < 0 or w.game.program.zone_vis[zone] & bit  # (after it: who sees the zone knows its cards)
        if any(not known[c] & bit for c in range(len(known)) if c not in inside) or \
                seen and all(known[c] & bit for c in pile) or not pile:
            self.real = chance_module.shuffle(pile, self.real, zone)
            return self
        self.met = True
        if self.past is None:  # (the state's side: `_real_cut` stops here)
            raise _AtCut(zone)
        w = self.w
        if zone < 0 or pile is not w.zones[zone]:
            raise NoOutcome("a chance cut outside a zone")
        self.past.enter(w, self.seat, self.rng, self.history)
        then = self.then
        then.log = w.log
        if then.at == len(then.plan) and (self.past.learnt or self.past.sized):
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
    docstring), only what the seat observed: the round's last decision before the cut as the seat's
    copy of it (`start`), the action played there (`last`, which runs through the cut), the state at
    the cut masked for the seat (`at_cut`) and the log up to it as the seat reads it (`lines`), and
    what the seat saw since, for `whole_past.from_start`: `steps` ((seat to decide, step) a step of
    the round) and `marks` (at the round's first decision, step 0: the cards the seat knew, each
    (zone, position, card), and each zone's size). `ok` is False once a try met no cut."""

    __slots__ = ("start", "last", "at_cut", "steps", "marks", "deal", "canon", "ok", "lines", "where", "learnt",
                 "sized", "probed")

    def __init__(self, start, last: int, at_cut, lines: Optional[list], steps: tuple, marks: tuple,
                 deal: Callable, canon):
        self.start, self.last, self.at_cut, self.lines = start, last, at_cut, lines
        self.steps, self.marks, self.deal = steps, marks, deal
        self.canon = canon  # (the view's copy of the round's first decision: see `align`)
        self.ok = True
        self.where = None  # (the place at the round's first decision of each position of the cut's pile)
        self.learnt = False  # (whether `where` was learnt, from a world that fitted there)
        self.sized = False  # (whether `where` was learnt from a world whose zones there are as full as the seat saw them)
        self.probed = 0  # (worlds probed so far: `probe`, at most `MAX_PROBES`)

    def again(self, steps: tuple, marks: tuple, canon) -> "CutPast":
        """A `CutPast` from the same cut for a view of a world this one made (`enter`): the same
        copies, the world's own steps, marks and copy, nothing learnt yet."""
        out = CutPast(self.start, self.last, self.at_cut, self.lines, steps, marks, self.deal, canon)
        out.ok = self.ok
        return out

    def enter(self, w, seat: int, rng: random.Random, history: bool) -> None:
        """In place, at the cut, in a world played on from `start`: the state at the cut as the seat
        saw it (`at_cut`, in place of what the copy's course made: lists changed in place, as the
        engine may hold them), the cards the seat does not know (all in the pile) dealt again among
        their places with `rng` and what names them following (`view.redeal`)."""
        at = self.at_cut
        for wz, az in zip(w.zones, at.zones):
            wz[:] = az
        w.v[:] = at.v
        w.loc[:] = at.loc
        w.known[:] = at.known
        w.active[:] = at.active
        w.facts = None if at.facts is None else at.facts[:]
        w.among = at.among
        if w.log is not None:
            w.log[:] = self.lines
            w.rounds_at = None
        w.stacks = w.draws = w.seed = None
        del w.history[:]
        bit = 1 << seat
        self.deal(w, [c for c in range(len(w.known)) if not w.known[c] & bit], rng)
        # (a world kept with its past (`sample(history=True)`): a view of it plays worlds on from the
        # same cut, so that it decides as the seat's view does; `past.record` keeps it behind the round)
        w.checkpoint = self.mark() if history else False

    def begin(self, seat: int, chance, rng: random.Random, history: bool):
        """A world at the round's first decision, played on from the cut with the chance `chance`
        (a `past.Worlds`, its log set to the world's): None when no cut was met, which `ok` then keeps."""
        if not self.ok:
            return None
        w = self.start.clone()
        cut = Cut(w.rng, w, seat, rng, chance, self, history)
        w.rng = cut
        chance.log = w.log
        try:
            w.game.program.resume(w, self.last)
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
        on the cards it deals, laying hearts down, takes the pile elsewhere in others: `sized`), else
        the first of `PROBES`, and `SeatView.sample` probes again for the next world, until one is
        found (a deal of the seat's cards in place and hearts laid by the hands the seat saw lay them
        is rare: one world in thirty in a game of sixteen cards), `MAX_PROBES` in all."""
        sizes = self.marks[0][2]
        for _ in range(min(PROBES, MAX_PROBES - self.probed)):
            self.probed += 1
            w = self.begin(seat, Worlds(rng, []), rng, False)
            if w is None:
                return
            if tuple(len(pile) for pile in w.zones) == sizes:
                self.where = None
                self.learn(w, False)
                self.sized = True
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


def _real_cut(base, actions: tuple, seat: int, deal: Callable, mask: Callable) -> Optional[tuple]:
    """On the state's side (it reads the real past; the view gets only what it returns): (`start`,
    `last`, `at_cut`, `lines`) of `CutPast` for `seat`, from `base` (a checkpoint of `past.record`, the
    earlier round's first decision) and the `actions` played since, the last of which runs through
    the cut; None if none of its shuffles is a cut for `seat`, or the seat's copy of the decision
    before it (`mask`: `view._canonical`) does not reach the same shuffle. Kept per round and seat
    (`CACHED`), the copies never changed in place, so the views of a round share them."""
    key = (id(base), len(actions), seat)
    hit = _CUTS.get(key)
    if hit is not None and hit[0] is base:
        _CUTS.move_to_end(key)
        return hit[1]
    out = None
    try:
        pre = kept(base).clone(history=False)
        pre.checkpoint = False
        resume = pre.game.program.resume
        for a in actions[:-1]:
            resume(pre, a)
        last = actions[-1]
        bit = 1 << seat
        program = pre.game.program
        alt = program.ir.choices[pre.pending.choice].alternatives[alt_of(last)]
        played = value_of(last) if alt.slot is not None and alt.slot in program.ir.card_slots else -1
        place = place_of(pre, played) if 0 <= played < len(pre.known) else None
        unknown = [c for c in range(len(pre.known)) if not pre.known[c] & bit]
        start = mask(pre, unknown, seat)  # (the seat's copy of the decision, in a fixed deal)
        if place is not None:  # (the action names the card by its place: the copy's card there)
            last = with_value(last, start.zones[place[0]][place[1]])
        if start.pending.player != seat:  # (another's legal actions are dropped: the one he played is public)
            start.pending = start.pending._replace(legal=(last,))
        if pre.log is not None:
            start.log = [(line, (), ()) for line in pre.transcript(seat)]
            start.fresh = Events(MAX_EVENTS - len(start.log))
        real = _to_cut(pre, actions[-1], seat)
        start, last = _reaching(start, last, place, real, seat, deal) if real is not None else (None, last)
        if start is not None:
            w = real[0]
            hidden = [c for c in range(len(w.known)) if not w.known[c] & bit]
            deal(w, hidden, random.Random(CUT_SEED))
            # (who else knew which of them, by place, the shuffle forgets at once: forgotten here, as
            # where the gathering put them follows the real cards)
            for c in hidden:
                w.known[c] = 0
            if w.among is not None:
                w.among = {x: v for x, v in w.among.items() if w.known[x] & bit} or None
            lines = None if w.log is None else [(line, (), ()) for line in w.transcript(seat)]
            at_cut = w.clone(history=False)
            at_cut.rng = 0
            at_cut.log = None
            at_cut.stacks = at_cut.draws = at_cut.seed = None
            at_cut.checkpoint = False
            out = (start, last, at_cut, lines)
    except (RuleError, NoOutcome):
        out = None
    _CUTS[key] = (base, out)
    if len(_CUTS) > CACHED:
        _CUTS.popitem(last=False)
    return out


def _reaching(start, last: int, place: Optional[tuple], real: tuple, seat: int, deal: Callable) -> tuple:
    """(the seat's copy of the decision before the cut, its action) whose course reaches the shuffle
    the real course reached (`real`, from `_to_cut`: the same round, zones' sizes, pile's zone and
    cards), or (None, `last`). First `start` (its hidden cards in the fixed deal); where the last
    action turns on cards the seat learns only during it (a showdown whose lowest card eliminates a
    player and ends the game in the copy; the top cards of the pile laid face up as points), the
    copy is mended: each card the seat knows at the cut outside the pile, that the copy's course
    put another card in place of, is exchanged in the copy with that card (both hidden from the
    seat before the last action), else its hidden cards are dealt again by fixed seeds (`CUT_SEED`
    + i), `REACH_TRIES` plays in all. Whichever copy reaches the cut, a world takes the state at the
    cut (`at_cut`) in place of what its course made there, so the copy's hidden cards are a vehicle
    to the shuffle and nothing more; what picks and mends it reads only the copy and what the seat
    knows at the cut (the round, the zones' sizes, the cards it knows and their places, the rest
    lying in the pile), so it is the seat's: equal views keep equal copies."""
    bit = 1 << seat
    w_real, want = real
    cand, a = start, last
    for i in range(REACH_TRIES):
        copy = _to_cut(cand.clone(), a, seat)
        if copy is not None and copy[1] == want:
            return cand, a
        pairs = []
        if copy is not None and copy[1][:3] == want[:3]:  # (there, but other cards lie outside the pile)
            mine = copy[0].zones
            pairs = [(x, y) for z, (rz, cz) in enumerate(zip(w_real.zones, mine)) if z != want[2]
                     for x, y in zip(rz, cz) if x != y and not cand.known[x] & bit and not cand.known[y] & bit]
        cand = cand.clone()
        if pairs:
            exchange_pairs(cand, pairs)
        else:
            deal(cand, [c for c in range(len(cand.known)) if not cand.known[c] & bit], random.Random(CUT_SEED + i))
        a = with_value(last, cand.zones[place[0]][place[1]]) if place is not None else last
        if cand.pending.player != seat:
            cand.pending = cand.pending._replace(legal=(a,))
    return None, last


def _to_cut(w, a: int, seat: int) -> Optional[tuple]:
    """`w` played from its decision by action `a` up to the first shuffle that is a cut for `seat`,
    in place, and where it stands there (the round, the zones' sizes, the pile's zone and cards),
    or None if no shuffle of its course is one."""
    cut = Cut(w.rng, w, seat, None, None, None, False)
    w.rng = cut
    try:
        w.game.program.resume(w, a)
    except _AtCut as at:
        return w, (w.round, tuple(map(len, w.zones)), at.zone, sorted(w.zones[at.zone]))
    return None


def cut_past(state, seat: int, steps: tuple, players: list, deal: Callable, mask: Callable, canon) -> Optional[CutPast]:
    """The `CutPast` of a view of `state` for `seat`, whose round's steps since its first decision are
    `steps` (`past.round_steps`, `players` the seat to decide at each), `deal` dealing cards again
    at the cut (`view._mask_at_cut`), `mask` the seat's copy of a state (`view._canonical`), `canon`
    the view's copy of the round's first decision. None where no round's first decision is kept
    before the round's (a world then fits the round's past only), or no chance was met between them,
    or no shuffle since is a cut for the seat (`_real_cut`)."""
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
    real = _real_cut(base, tuple(state.history[base[2]:at]), seat, deal, mask)
    if real is None:
        return None
    return CutPast(*real, tuple(zip(players, steps)), marks, deal, canon)
