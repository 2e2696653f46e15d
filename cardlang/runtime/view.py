"""A seat's information state: what one seat knows, as the object bots, adapters and screens decide from.

`State.view(seat)` builds a `SeatView`. It holds no real hidden card, no seed and no action history:
it is made from a canonical copy of the state in which the cards the seat does not know are dealt
again in a fixed order (the lowest ids into the first places), so two states that differ only in
cards hidden from the seat give equal views. Its action ids are those of that copy: a card the seat
knows keeps its id, a card it does not know is named by its place, and `action_in(state, a)` gives
the same place's action in any state of the same public course (the real one, or a determinized
copy). Values the program worked out since the round's first decision from cards the seat does not
know (a local such as "must P0 follow suit?") are worked out again from canonical cards by
replaying the round (`SeatView._settled`); locals worked out before that stay as they were, and
another player's pending legal actions are left out.

`determinize(rng)` deals the unknown cards again so that every action taken since the round's
first decision stays legal: the deal is made at that decision (the state's `checkpoint`, kept by
`record`), the round's actions are replayed in it by place, and a deal in which one of them is
illegal (a player who did not follow suit is dealt the suit) is repaired by exchanging one of that
player's unknown cards with another, and replayed again, until it is legal throughout and ends
where the seat stands now. After `TRIES` replays, or when the round's course cannot be replayed (a
shuffle or a random draw since its first decision gives another outcome in the copy), the copy is
the plain one: the unknown cards dealt into their places, blind to how the others played.

`determinize` first plays the whole game again from its start (`whole_past.from_start`: the
rounds' first decisions are kept chained behind `checkpoint`, across shuffles and draws with
`past.CHANCE_PAST`, and `past_steps` reads every action as the seat read it), so that the worlds
fit what the deal made true too (issue 26, finding 8; docs/simulation.md, step 0). Where chance was
met since the round before and the round began by shuffling every card the seat does not know (a
chance cut), the world is played on from that shuffle instead (`runtime/cut.py`, by default).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Optional

from . import among, at_once, facts
from . import past as past_module
from .actions import alt_of, value_of, with_value
from .basics import MAX_EVENTS, Action, Events, RuleError
from .past import NO_START, UNSEEN, kept, past_steps, place_of, record, round_steps  # noqa: F401  (`view.record`: the engines call it)
from .places import exchange as _exchange, exchange_pairs as _exchange_pairs, follow as _follow
from .cut import cut_past
from .local_slots import round_locals
from .whole_past import from_start

if TYPE_CHECKING:  # numpy is imported by `table()` alone: bots and `simulate` start without it
    from .seat_table import Table

CANON_SEED = 0x5EA7  # the seed of the deals a view's settled copy tries (see `SeatView._settled`)
TRIES = 24  # sampled worlds rejected before `determinize` falls back to ignoring past play
WHOLE_TRIES = 48  # games played again from the start before `determinize` falls back to the round's past
FEW_TRIES = 8  # the same, once a view's searches failed more often than they found one (`SeatView._tries`)
CANON_TRIES = 48  # replays for a view's canonical copy before it keeps the plain one
VERIFIED_TRIES = 1  # worlds of the round's past checked against the deal from a chance cut before it is searched


def redeal(s, unknown: list, rng: random.Random, seat: Optional[int] = None) -> None:
    """In place: the cards `unknown` (in id order) are shuffled with `rng` and dealt back into the
    places they occupy, zone by zone, bottom first. What belongs to a place stays with it: who knows
    the card there, what was told of it (`state.facts`), card values held in variables, card ids in
    pending actions. Where `seat` was told facts of those places (`runtime.facts`), the deal fits
    them: any deal that fits can come out."""
    if not unknown:
        return
    hidden = set(unknown)
    dealt = None
    tracked = among.constraints(s, seat, [c for pile in s.zones for c in pile if c in hidden], unknown) \
        if s.among is not None and seat is not None else None
    if tracked is not None:  # cards the seat knows lie in one of some places (runtime/among.py)
        dealt = _deal_tracked(s, seat, [c for pile in s.zones for c in pile if c in hidden], unknown, tracked, rng)
    elif s.facts is not None and seat is not None:
        placed = [c for pile in s.zones for c in pile if c in hidden]
        table = s.game.program.facts
        fields = facts.seat_fields(s, table, placed, seat)
        if any(fields):
            dealt = facts.deal(fields, unknown, table, rng)
            if dealt is None:
                raise RuleError(f"no deal of the cards P{seat} does not know fits what P{seat} was told of them")
    if dealt is None:
        dealt = unknown[:]
        rng.shuffle(dealt)
    before = s.known[:]
    told = s.facts[:] if s.facts is not None else None
    kept = s.among
    if kept is not None:
        s.among = {x: v for x, v in kept.items() if x not in hidden}
    new_of = {}  # old card -> the card dealt into its place
    nxt = iter(dealt).__next__
    known, loc = s.known, s.loc
    for z, pile in enumerate(s.zones):
        if hidden.isdisjoint(pile):
            continue
        for j, c in enumerate(pile):
            if c in hidden:
                d = nxt()
                pile[j] = d
                new_of[c] = d
                known[d] = before[c]
                loc[d] = z
                if told is not None:
                    s.facts[d] = told[c]
                if kept is not None and c in kept:
                    s.among[d] = kept[c]
    if kept is not None and not s.among:
        s.among = None
    _follow(s, new_of)


def _mask_at_cut(s, unknown: list, rng: random.Random) -> None:
    """In place, at a chance cut (`runtime/cut.py`): the cards `unknown` dealt again among their
    places, what names them following (`redeal`), and what the variables keep of picks made at once
    and played out dropped (`_forget_picks_played`), as in a view's copy: a world keeps nothing of
    the past before the cut that the seat did not see."""
    redeal(s, unknown, rng)
    if s.game.program.at_once:
        _forget_picks_played(s)


def _deal_tracked(s, seat: int, placed: list, unknown: list, tracked: tuple, rng: random.Random) -> list:
    """The cards `unknown` dealt to the places of `placed` so that each fits what `seat` was told of
    its place (`runtime.facts`) and each card it tracks lies in a place that lists it (`runtime.among`)."""
    fields, ids = tracked
    free = 1 << len(s.known)
    table = s.game.program.facts
    told = facts.seat_fields(s, table, placed, seat) if s.facts is not None else [0] * len(placed)
    face = table.face if table is not None else None

    def fits(i, c):
        return among.allows(fields[i], ids, free, c) and not (told[i] and told[i] & face[c])

    bound = [i for i in range(len(placed)) if fields[i] or told[i]]
    dealt = among.deal_fits(fits, len(placed), bound, [c for c in unknown if ids >> c & 1], unknown, rng)
    if dealt is None:
        raise RuleError(f"no deal of the cards P{seat} does not know fits what P{seat} knows of them")
    return dealt


def place_text(program, s, card: int, where: bool = True) -> str:
    """`a card from P1's hand, 3 of 4`: a card by its place, as a seat that does not know it reads it
    (without `where`: `a card from P1's hand`, as a seat that does not see the hand's places reads it)."""
    z, i = place_of(s, card)
    name = program.zone_names[z].split("(")[0].replace("_", " ")
    owner = program.zone_owner[z]
    zone = f"P{owner}'s {name}" if owner >= 0 else f"the {name}"
    return f"a card from {zone}, {i + 1} of {len(s.zones[z])}" if where else f"a card from {zone}"


def _canonical(state, unknown: list, seat: int, placed: Optional[list] = None):
    """A copy of `state` with `unknown` dealt in the fixed order, no log, history or chance of its own:
    the unknown cards in the order of their places (`placed`, if known) get the unknown ids in
    increasing order.

    Another player's pending legal actions are dropped: which of his cards he may play tells of
    cards the seat does not know (`_repend` works them out again in a deal of its own).
    """
    s = state.__class__.__new__(state.__class__)  # (what `clone` copies, but none of the game's past)
    s.game = state.game
    s.pc = state.pc
    s.stack = state.stack[:]
    s.active = state.active[:]
    s.rng = 0
    s.log = None
    s.rounds_at = None
    s.frame = None  # (the copy plays on through the ops: compiler/emit/frames.py)
    s.fresh = []
    s.history = []
    s.terminal = state.terminal
    s.winner_seats = state.winner_seats
    s.stacks = s.draws = s.seed = None  # (the seed would deal every hand again)
    s.round = state.round
    s.checkpoint = False
    s.quiet = state.quiet
    known, loc, v, pending = state.known, state.loc, state.v[:], state.pending
    if not unknown:
        s.zones = [z[:] for z in state.zones]
        s.known, s.loc = known[:], loc[:]
    else:
        if placed is None:
            hidden = set(unknown)
            placed = [c for pile in state.zones for c in pile if c in hidden]
        new_of = dict(zip(placed, unknown))
        s.zones = [[new_of[c] if c in new_of else c for c in pile] for pile in state.zones]
        s.known, s.loc = nk, nl = known[:], loc[:]
        for c, d in zip(placed, unknown):
            nk[d] = known[c]
            nl[d] = loc[c]
    s.facts = None if state.facts is None else facts.seen_by(state, placed or (), unknown, seat)
    s.among = among.seen_by(state, placed or (), unknown, seat)
    s.v = v
    s.pending = pending
    if unknown:
        _follow(s, new_of)
    if state.game.program.at_once:  # the picks others made at once: the first legal action of each
        at_once.mask_picks(s, seat, lambda legal: legal[0])
        _forget_picks_played(s)
    _forget_chosen_cards(s, seat)
    if s.pending is not None and s.pending.player != seat:
        s.pending = s.pending._replace(legal=())
    return s


def _without_stale_locals(s, seat: int, then: Optional[list] = None):
    """`s`, or a copy whose locals (`local_slots.round_locals`) that name a card the seat does not
    know are emptied. A view whose round's past no fixed deal fits (`SeatView._settled`) keeps the
    state's own values; a local the round worked out from another seat's hidden cards and left
    behind (the cards of his hand that beat the turned card, of which he showed one) would tell the
    seat how many there were (found by the leak tests' twins played on from a chance cut, issue 26).
    Another seat's pending choice among them is emptied with them, as its legal actions are
    (`_canonical`): a world is then dealt from the state's own copy instead (`SeatView._dealt`),
    which says it fits no past; a loop over them around the decision would end early in a world.
    With `then` (who knew each card at the round's first decision, the view's copy of it), a local
    naming a card the seat came to know only since is emptied too: worked out while the card was
    hidden, what it leaves out tells as much (the other seat's one card that beats, shown since: he
    had no second one; found by the leak tests' twins played on from a chance cut, issue 26)."""
    if s.terminal or s.pending is None:
        return s
    bit = 1 << seat
    known, v = s.known, s.v
    if then is not None:
        known = [k if then[c] & bit else 0 for c, k in enumerate(known)]
    stale = []
    for slot in round_locals(s.game.program):
        x = v[slot]
        if (type(x) is int and x >= 0 and not known[x] & bit) or \
                (type(x) is tuple and any(type(c) is int and not known[c] & bit for c in x)):
            stale.append(slot)
    if not stale:
        return s
    out = s.clone()
    for slot in stale:
        out.v[slot] = () if type(out.v[slot]) is tuple else None
    return out


def _forget_chosen_cards(s, seat: int, across: bool = False) -> None:
    """In place: a choice's card variable (`a card c from …`) that holds a card the seat does not
    know is emptied. It outlives its alternative's body in the state, and the card it names may
    since have been shuffled into a pile (the card a player discarded face down, now somewhere in
    a new talon): dealt again by its place, it would pin where that card lies, which no seat saw
    (issue 26). The copy then knows less than it might (where the card went face down), never more.
    The same holds of a set of cards (`a set cs of … from …`) and of the source it was chosen
    from, kept beside it: a tuple in the order of places the seat did not see, with a card it saw
    played among cards it does not know, would pin where that card lay. Such a tuple is emptied,
    except the source of the choice the seat itself is making now (its own cards: it decodes it).
    A card variable that holds a card the seat knows but not every seat does is emptied too: the
    seat may have come to know the card later (the discarded card drawn from the new talon), and
    the variable would tell it which card was chosen, which it did not see (found by worlds played
    again from the start across a reshuffle, issue 26). (A local set in an earlier round, which
    would name a card shuffled since, is gone: a round starts with its locals empty,
    `program.round_locals`.)"""
    v, known = s.v, s.known
    program = s.game.program
    cards, sets = chosen_card_slots(program)
    # (across chance only: `past.CHANCE_PAST`, or a view whose whole past spans chance, `across`)
    everyone = (1 << program.n) - 1 if past_module.CHANCE_PAST or across else 1 << seat
    for slot in cards:
        c = v[slot]
        if c is not None and known[c] & everyone != everyone:
            v[slot] = None
    pending = s.pending
    keep = set()
    if pending is not None and pending.player == seat:
        keep = {alt.card_set[1] for alt in program.chooses[pending.choice].alts if alt.card_set is not None}
    for slot in sets:
        held = v[slot]
        if held and slot not in keep and not all(known[c] >> seat & 1 for c in held):
            v[slot] = ()


_CHOSEN_SLOTS: dict = {}  # program -> the slots of its choices' card variables, and of its sets'


def chosen_card_slots(program) -> tuple:
    """(the slots of the card variables the choices set (`a card c from …`), the slots of the sets
    of cards they set and of those sets' sources)."""
    slots = _CHOSEN_SLOTS.get(program)
    if slots is None:
        alts = [alt for ch in program.chooses for alt in ch.alts]
        slots = (tuple(sorted({alt.slot for alt in alts if alt.kind == "card" and alt.slot is not None})),
                 tuple(sorted({slot for alt in alts if alt.card_set is not None for slot in alt.card_set[:2]})))
        if len(_CHOSEN_SLOTS) > 256:
            _CHOSEN_SLOTS.clear()
        _CHOSEN_SLOTS[program] = slots
    return slots


def _card_mend(w, a: int, hidden: set, rng: random.Random) -> list:
    """[(card, card)] to exchange in a round's deal when the seat saw card action `a` taken and it
    is not legal in the replay `w`: the card where the chooser takes from (with one he could take),
    or, when it lies there but another card bars it (he must follow suit), that card elsewhere
    (with a card the seat does not know); [] when it names no card or the cards are not to move."""
    alts = w.game.program.chooses[w.pending.choice].alts
    if alt_of(a) >= len(alts) or alts[alt_of(a)].kind != "card":  # (the replay went another way)
        return []
    x = value_of(a)
    mates = [value_of(m) for m in w.pending.legal if with_value(m, 0) == with_value(a, 0) and value_of(m) in hidden]
    if x not in hidden or not mates:
        return []
    y = mates[int(rng.random() * len(mates))]
    if w.loc[x] != w.loc[y]:
        return [(x, y)]
    away = [c for c in hidden if w.loc[c] != w.loc[y]]
    return [(y, away[int(rng.random() * len(away))])] if away else []


def _forget_picks_played(s) -> None:
    """In place: what the variables still hold of picks made at once and played out (the round's
    picks, the last one played out, and the number or player of an alternative whose body does not
    show it, which stays in the alternative's variable after its body) is dropped: it would tell
    another seat's secret pick (issue 26). The round of picks still pending keeps its picks (masked:
    `at_once.mask_picks`)."""
    program = s.game.program
    found = at_once.pending_round(s)
    live = found[0].choice if found is not None else -1
    v = s.v
    for index, info in program.at_once.items():
        if index == live:
            continue
        if v[info.picks_slot]:
            v[info.picks_slot] = ()
        if info.action_slot >= 0:
            v[info.action_slot] = 0
        for k, alt in enumerate(program.chooses[index].alts):
            if alt.kind in ("number", "player", "value") and alt.slot is not None and not (info.shown and info.shown[k]):
                v[alt.slot] = None if alt.kind == "player" else 0


def _repend(s) -> None:
    """Works out the pending legal actions again in the deal `s` holds (the choice runs again: it
    only reads the state), not by place from another deal; a RuleError if the deal leaves none."""
    if s.pending is not None:
        s.game.program.repend(s)


class ChoiceCount:
    """The least a seat may be told when it decides: how many legal actions it has, nothing of
    what they are. A bot that picks among them blindly (the random bot) needs no more, and this
    costs nothing to build, where a `SeatView` copies the table. Action `i` is the state's `i`-th
    legal action, in the order the view's legal actions have too."""

    __slots__ = ("seat", "count")

    def __init__(self, state, seat: int):
        self.seat = seat
        pending = state.pending
        self.count = len(pending.legal) if not state.terminal and pending.player == seat else 0

    def legal_action_ids(self) -> tuple:
        """The legal actions as their positions, 0 to count - 1."""
        return tuple(range(self.count))

    def action_in(self, state, a: int) -> int:
        """The action of `state` that is this view's action `a` (its position)."""
        return state.pending.legal[a]


class SeatView:
    """What one seat knows at one moment: its observation, its legal actions with labels it may read,
    its transcript, and `determinize(rng)`, a playable state dealt to fit all that."""

    __slots__ = ("game", "seat", "_canon", "_lines", "_unknown", "_past", "_worked", "_whole", "_cut", "_across",
                 "_search", "_seen", "_capped")

    def __init__(self, state, seat: int, past: bool = True):
        self.game = state.game
        self.seat = seat
        bit = 1 << seat
        known = state.known
        placed = [c for pile in state.zones for c in pile if not known[c] & bit]  # (every card has a place)
        unknown = sorted(placed)
        self._unknown = tuple(unknown)
        self._canon = _canonical(state, unknown, seat, placed)
        self._lines = tuple(state.transcript(seat)) if state.log is not None else ()
        self._past = None
        steps, players = (), []
        cp = state.checkpoint
        if past and cp and cp[0] == state.round and len(state.history) > cp[2]:
            # the round so far: its first decision with the same cards dealt again (they lay in the
            # same places then: what moved, moved by place), and the actions since, by place
            # (a card the seat knew then, not now — it saw it go one of several ways — keeps its id there)
            # (and so does a card it saw during the round, when it saw cards go one of several ways)
            first = kept(cp)
            then = first.known
            steps = round_steps(state, seat, None, None, players)
            # (a card it knows now but did not then keeps no place there: where it lay, in the stock or
            # in a hand, the seat did not see; the round's replays put it where the steps need it)
            unknown_then = [c for c in range(len(then)) if not then[c] & bit]
            start = _canonical(first, unknown_then, seat)
            start_lines = tuple(first.transcript(seat)) if first.log is not None else ()
            self._past = (start, steps, start_lines, tuple(unknown_then))
        self._worked = None  # see `_settled`
        self._seen = None  # the canonical copy's observation less its log, once a world is checked (`_fits`)
        self._search = [0, 0]  # (searches of the whole past that found a world, that did not: `_tries`)
        # the whole game as the seat read it, for worlds played again from the start (`whole_past.from_start`)
        self._whole = past_steps(state, seat) if past and unknown else None
        # where chance cut that past: the seat's copies of the decision before the chance cut and of the
        # state at the cut, to play worlds on from there (`runtime/cut.py`: worked out from the real
        # past on the state's side; the view holds no real state)
        # (`align` gives the worlds played on from the cut the variables of `canon`: where the round's
        # first decision is now, those the view holds (`fingerprint`: the settled copy's), not the
        # canonical copy's, whose locals left behind by the round's start may name cards the seat does
        # not know by place (a loop's items over another's hand): else two equal views, the real one
        # and that of a world dealt blind to them, would sample different worlds)
        self._cut = cut_past(state, seat, steps, players, _mask_at_cut, _canonical,
                             self._past[0] if self._past else self._settled()) \
            if past and unknown and self._whole is None else None
        # chance met since the game's first decision and no cut: the whole past across it, from the
        # game's start (the draws and shuffles drawn again to fit what the seat saw, `whole_past`),
        # a choice's card variable emptied unless every seat knows its card, as across chance it may
        # name a card the seat came to know only later (`_forget_chosen_cards`)
        self._across = False
        # (a game past `past.MAX_PAST_DECISIONS` keeps no whole past: its worlds fit the round's, counted as fallbacks)
        self._capped = bool(past and unknown and self._whole is None and past_module.capped(state))
        if past and unknown and self._whole is None and self._cut is None:
            self._whole = past_steps(state, seat, True)
            if self._whole is not None:
                self._across = True
                _forget_chosen_cards(self._canon, seat, True)
                if self._past is not None:
                    _forget_chosen_cards(self._past[0], seat, True)
                self._worked = None

    def _settled(self):
        """The canonical copy with the round replayed in a fixed deal that fits its past (or the
        plain canonical copy if none does, or there is no past): what the program worked out since
        the round's first decision from cards the seat does not know (a local such as "must P0
        follow suit?") is then worked out from canonical cards. Worked out once, when first needed
        (a random bot, which only reads the legal ids, never needs it)."""
        if self._worked is None:
            w = None
            if self._past is not None:
                w = self._replayed(random.Random(CANON_SEED), False, CANON_TRIES)
            if w is None:
                w = _without_stale_locals(self._canon, self.seat, self._past[0].known if self._past else None)
            else:
                w.rng = 0
                w.history = []
            self._worked = w
        return self._worked

    # ------------------------------------------------------------ what the seat sees
    @property
    def current_player(self) -> int:
        """The seat that must decide now, or TERMINAL."""
        return self._canon.current_player

    @property
    def round(self) -> int:
        """The number of rounds started so far."""
        return self._canon.round

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self._canon.terminal

    @property
    def choice(self) -> int:
        """The index of the pending choice among the game's `chooses` (-1 once the game is over)."""
        c = self._canon
        return -1 if c.terminal or c.pending is None else c.pending[0]

    def legal_action_ids(self) -> tuple:
        """The current player's legal action ids, in this view's terms (see `action_in`); empty
        unless the seat is the one to decide."""
        if self._canon.terminal or self._canon.pending.player != self.seat:
            return ()
        return self._canon.pending.legal

    def legal_actions(self) -> list:
        """The seat's legal actions, each labelled as the seat may read it (a card it does not know
        by its place)."""
        legal = self.legal_action_ids()
        if not legal:
            return []
        w = self._settled()
        label = self.game.program.label
        return [Action(a, label(w, self.action_in(w, a))) for a in legal]

    def observation(self) -> dict:
        """`State.observation(seat)`: the cards the seat knows, counts of the others, public values."""
        obs = self._settled().observation(self.seat)
        obs["log"] = list(self._lines)
        if "legal_actions" in obs:
            obs["legal_actions"] = [a.label for a in self.legal_actions()]
        return obs

    def transcript(self) -> list:
        """The log as this seat reads it."""
        return list(self._lines)

    def table(self) -> Table:
        """What the seat knows as flat data, for encoders (the research adapters' vectors): see
        `seat_table.Table`. Built from the same copy as `observation()`."""
        from .seat_table import table_of

        return table_of(self._settled(), self.seat, self.current_player, self.choice)

    def action_in(self, state, a: int) -> int:
        """The action of `state` that is this view's action `a`: the same, or for a card the card
        lying in `state` at the place where the view's card lies."""
        canon = self._canon
        if canon.game.program.chooses[canon.pending.choice].alts[alt_of(a)].kind != "card":
            return a
        z, i = place_of(canon, value_of(a))
        return with_value(a, state.zones[z][i])

    def fingerprint(self) -> tuple:
        """What the view holds, as plain data: two views are equal when these are. (The values in
        variables are those of the settled copy: see `_settled`.)"""
        c, w = self._canon, self._settled()
        past = None
        if self._past is not None:
            s = self._past[0]
            past = (s.zones, s.known, s.facts, s.among, s.v, s.pending, s.pc, s.stack, s.round, self._past[1:])
        past = (past, self._whole)
        return (self.seat, c.zones, c.known, c.facts, c.among, c.loc, c.pending, c.pc, c.stack, c.active, c.round,
                c.terminal, c.winner_seats, w.zones, w.known, w.facts, among.only(w, self.seat), w.v, w.pending,
                [(a.id, a.label) for a in self.legal_actions()], self._lines, past)

    def __eq__(self, other) -> bool:
        return isinstance(other, SeatView) and self.fingerprint() == other.fingerprint()

    def __repr__(self) -> str:
        return f"<SeatView of P{self.seat} in {self.game.title}, round {self.round}>"

    # ------------------------------------------------------------- determinization
    def determinize(self, rng: random.Random, consistent: bool = True):
        """A playable state dealt to fit what the seat knows and, with `consistent`, how the others
        played this round (see the module's note); it depends only on this view and on `rng`."""
        return self.sample(rng, consistent)[0]

    def sample(self, rng: random.Random, consistent: bool = True, history: bool = False) -> tuple:
        """(a determinized state, whether it fits the past the view holds: the whole game's where
        it holds it (`whole_past.from_start`), else the round's). With `history`, the state keeps a log (a
        world played from the start: its own; else this seat's transcript up to the round's first
        decision, then its own) and a checkpoint, so that a view of it can be taken again (the leak
        tests do). A world played from the start that fits nothing in `WHOLE_TRIES` gives way to one
        that fits the round's past, which is no fit of the whole past (False); so does every world of
        a view whose whole past was not kept, the game having gone on past `past.MAX_PAST_DECISIONS`."""
        whole = consistent and self._whole is not None
        if whole:
            world = self._searched(from_start(self, rng, history, self._tries()))
            if world is not None:
                return world, True
        elif consistent and self._cut is not None and self._cut.ok:
            cut = self._cut
            if not (cut.sized or cut.learnt):  # (until learnt from a world of the seat's sizes: `CutPast.probe`)
                cut.probe(self.seat, rng)
            for _ in range(VERIFIED_TRIES if cut.where is not None else 0):
                # (a world of the round's past that the deal from the cut makes: `CutPast.verify`)
                mark = cut.mark() if history else NO_START
                if self._past is not None:
                    dealt: list = []
                    world = self._replayed(rng, history, TRIES, mark, dealt)
                    deal = dealt[0] if world is not None else None
                else:  # (the round's first decision is now)
                    try:
                        world = deal = self._dealt(rng, history, mark)
                    except RuleError:
                        world = None
                if world is None:
                    break
                if cut.verify(deal, self.seat, rng, self._lines):
                    return world, True
            world = self._searched(from_start(self, rng, history, self._tries(), cut))
            if world is not None:
                return world, True
            whole = cut.ok  # (a cut was met, yet no world fitted: a world of the round's past fits no whole past)
        whole = whole or consistent and self._capped  # (a whole past not kept, past the cap: no fit of it either)
        if consistent and self._past is not None:
            world = self._replayed(rng, history)
            if world is not None:
                return world, not whole
        return self._dealt(rng, history), self._past is None and not whole

    def _tries(self) -> int:
        """The tries of the next search of the whole past (`whole_past.from_start`): `WHOLE_TRIES`,
        or `FEW_TRIES` once this view's searches failed more often than they found a world, by more
        than one: a view whose past the search rarely fits (a deal whose hearts must come out in the
        order the seat saw them laid) stops paying for it in every world a bot imagines."""
        found, failed = self._search
        return WHOLE_TRIES if failed <= found + 1 else FEW_TRIES

    def _searched(self, world):
        """`world`, a search's answer, counted (`_tries`)."""
        self._search[world is None] += 1
        return world

    def _dealt(self, rng: random.Random, history: bool, mark: tuple = NO_START):
        """The view's settled copy with the cards the seat does not know dealt again (blind to how
        the others played this round); with `history`, its log the seat's and its checkpoint `mark`."""
        settled = self._settled()  # (then the state's own copy, where the settled one left out a choice's cards)
        bases = (settled,) if settled is self._canon else (settled, self._canon)
        for base in bases:
            for _ in range(TRIES):
                s = base.determinize(self.seat, rng)
                try:
                    if s.game.program.at_once:  # the others' pending picks: any of their legal actions
                        at_once.mask_picks(s, self.seat, lambda legal: legal[int(rng.random() * len(legal))])
                    _repend(s)
                    break
                except RuleError:
                    continue
            else:
                continue
            break
        else:
            raise RuleError(f"no deal of the cards P{self.seat} does not know leaves P{s.pending.player} a legal action")
        if history:
            s.log = [(line, (), ()) for line in self._lines]
            s.fresh = Events(MAX_EVENTS - len(s.log))
            s.checkpoint = mark
        return s

    def _replayed(self, rng: random.Random, history: bool, tries: int = TRIES, mark: tuple = NO_START,
                  dealt: Optional[list] = None) -> Optional[object]:
        """A world that fits the round's past, or None after `tries` replays. With `history`, its
        checkpoint starts as `mark`; `dealt` gets its round's first decision as dealt.

        The round's first decision is dealt with `rng` and its actions replayed by place. When the
        action of a player is illegal there (he did not follow suit, yet this deal gives him the
        suit), one of the unknown cards he held then is exchanged with an unknown card elsewhere,
        and the round is replayed again; any other misfit exchanges two unknown cards at random.
        """
        start, steps, lines, unknown = self._past
        resume = self.game.program.resume
        owner = self.game.program.zone_owner
        unknown = list(unknown)
        deal = start.clone()
        deal.rng = rng.getrandbits(64)
        redeal(deal, unknown, rng, self.seat)
        hidden = set(unknown)
        places = [(z, i) for z, pile in enumerate(deal.zones) for i, c in enumerate(pile) if c in hidden]
        for _ in range(tries):
            w = deal.clone()
            if history:
                w.log = [(line, (), ()) for line in lines]
                w.fresh = Events(MAX_EVENTS - len(w.log))
                w.checkpoint = mark
            culprit = -1
            mend: list = []  # (card, card) pairs to exchange in the deal, when the misfit names them
            try:
                _repend(w)
                for step in steps:
                    if w.terminal:
                        break
                    if step == at_once.SECRET_STEP:  # a pick the seat has not learnt: any legal one
                        legal = w.pending.legal
                        a = legal[int(rng.random() * len(legal))]
                    elif type(step) is not int and step[0] == UNSEEN:  # any card of that zone, that way
                        loc = w.loc
                        legal = [x for x in w.pending.legal if with_value(x, 0) == step[2]
                                 and loc[value_of(x)] == step[3]] if w.pending.choice == step[1] else []
                        a = legal[int(rng.random() * len(legal))] if legal else None
                    elif type(step) is int:
                        a = step
                    elif step[2] < len(w.zones[step[1]]):
                        a = with_value(step[0], w.zones[step[1]][step[2]])
                    else:  # (a pick drawn again left fewer cards there: this world does not fit)
                        a = None
                    if a is None or a not in w.pending.legal:
                        culprit = w.pending.player
                        if type(step) is int and a is not None:
                            mend = _card_mend(w, a, hidden, rng)
                        break
                    resume(w, a)
                else:
                    if self._fits(w):
                        if dealt is not None:
                            dealt.append(deal)
                        return w
                    c, bit = self._canon, 1 << self.seat  # (a card the seat knows now that lies elsewhere)
                    mend = [(b, wz[i]) for cz, wz in zip(c.zones, w.zones) if len(cz) == len(wz)
                            for i, b in enumerate(cz) if c.known[b] & bit and wz[i] != b
                            and b in hidden and wz[i] in hidden]
            except RuleError:
                pass
            if mend:
                _exchange_pairs(deal, mend)
                continue
            if len(places) < 2:
                return None
            his = [pl for pl in places if owner[pl[0]] == culprit]
            rest = [pl for pl in places if owner[pl[0]] != culprit]
            if his and rest:
                x, y = his[int(rng.random() * len(his))], rest[int(rng.random() * len(rest))]
            else:
                x, y = rng.sample(places, 2)
            _exchange(deal, deal.zones[x[0]][x[1]], deal.zones[y[0]][y[1]])
        return None

    def _fits(self, w) -> bool:
        """Whether a replayed world stands where the seat stands: the same point of the program, the
        same places, and each card the seat knows in its place, known by the same seats."""
        c, bit = self._canon, 1 << self.seat
        if (w.terminal, w.pc, w.round, w.active, w.stack) != (c.terminal, c.pc, c.round, c.active, c.stack):
            return False
        if not w.terminal and ((w.pending.choice, w.pending.player) != (c.pending.choice, c.pending.player)
                               or w.pending.player == self.seat and len(w.pending.legal) != len(c.pending.legal)):
            return False
        wk, ck = w.known, c.known
        for wz, cz in zip(w.zones, c.zones):
            if len(wz) != len(cz):
                return False
            for a, b in zip(wz, cz):
                if wk[a] != ck[b] or (ck[b] & bit and a != b):
                    return False
        if c.facts is not None and not facts.fits_view(w, c, self.seat):
            return False
        if not among.fits_view(w, c, self.seat):
            return False
        co = self._seen
        if co is None:  # (the same for every world a view checks: worked out once)
            co = self._seen = c.observation(self.seat)
            co.pop("log")
        wo = w.observation(self.seat)
        wo.pop("log")
        return wo == co
