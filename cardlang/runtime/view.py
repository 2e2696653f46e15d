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
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Optional

from ..lang.types import TEXT
from . import among, at_once, facts
from .actions import Pending, alt_of, value_of, with_value
from .basics import MAX_EVENTS, Action, Events, RuleError
from .log import CARD_REF, CARD_REF_RE, MARK_END

if TYPE_CHECKING:  # numpy is imported by `table()` alone: bots and `simulate` start without it
    from .seat_table import Table

UNSEEN = "unseen"  # a round step: another seat's card taken from a zone whose places the seat does not see
CANON_SEED = 0x5EA7  # the seed of the deals a view's settled copy tries (see `SeatView._settled`)
TRIES = 24  # sampled worlds rejected before `determinize` falls back to ignoring past play
CANON_TRIES = 48  # replays for a view's canonical copy before it keeps the plain one


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


def _follow(s, moved: dict) -> None:
    """What belongs to a place follows the card now there (`moved`: old card -> new card): card
    values held in variables, card ids in pending actions."""
    program = s.game.program
    v = s.v
    get = moved.get
    for slot in program.card_slots:
        c = v[slot]
        if c in moved:
            v[slot] = moved[c]
    for slot in program.cards_slots:
        if v[slot]:
            v[slot] = tuple([get(c, c) for c in v[slot]])
    for slot in text_slots(program):  # a text quoting a card names the card now in its place
        t = v[slot]
        if type(t) is str and CARD_REF in t:
            v[slot] = CARD_REF_RE.sub(lambda m: f"{CARD_REF}{get(int(m.group(1)), int(m.group(1)))}{MARK_END}", t)
    if s.pending is not None:
        index, player, legal = s.pending
        alts = program.chooses[index].alts
        s.pending = Pending(index, player, tuple([a if alts[alt_of(a)].kind != "card"
                                                  else with_value(a, get(value_of(a), value_of(a))) for a in legal]))


_TEXT_SLOTS: dict = {}  # program -> the slots of its text variables


def text_slots(program) -> tuple:
    """The slots of the variables of type text (every player's, every team's), whose values may quote
    cards (`log.CARD_REF`): what `_follow` deals again with the cards they name."""
    slots = _TEXT_SLOTS.get(program)
    if slots is None:
        widths = ((program.var_slots, 1), (program.pvar_slots, program.n),
                  (getattr(program, "tvar_slots", {}), len(getattr(program, "teams", ()) or ())))
        slots = tuple(s + i for table, width in widths for s, t in table.values() if t == TEXT
                      for i in range(width))
        if len(_TEXT_SLOTS) > 256:
            _TEXT_SLOTS.clear()
        _TEXT_SLOTS[program] = slots
    return slots


def _exchange(s, a: int, b: int) -> None:
    """In place: cards `a` and `b` trade places; what belongs to each place stays there."""
    if a == b:
        return
    za, zb = s.loc[a], s.loc[b]
    ia, ib = s.zones[za].index(a), s.zones[zb].index(b)
    s.zones[za][ia], s.zones[zb][ib] = b, a
    s.loc[a], s.loc[b] = zb, za
    s.known[a], s.known[b] = s.known[b], s.known[a]
    if s.facts is not None:
        s.facts[a], s.facts[b] = s.facts[b], s.facts[a]
    if s.among is not None:
        got = dict(s.among)
        fa, fb = got.pop(a, 0), got.pop(b, 0)
        if fb:
            got[a] = fb
        if fa:
            got[b] = fa
        s.among = got or None
    _follow(s, {a: b, b: a})


def place_of(s, card: int) -> tuple:
    """(zone index, position bottom first) of a card: what names it to a seat that does not know it."""
    z = s.loc[card]
    return z, s.zones[z].index(card)


def place_text(program, s, card: int, where: bool = True) -> str:
    """`a card from P1's hand, 3 of 4`: a card by its place, as a seat that does not know it reads it
    (without `where`: `a card from P1's hand`, as a seat that does not see the hand's places reads it)."""
    z, i = place_of(s, card)
    name = program.zone_names[z].split("(")[0].replace("_", " ")
    owner = program.zone_owner[z]
    zone = f"P{owner}'s {name}" if owner >= 0 else f"the {name}"
    return f"a card from {zone}, {i + 1} of {len(s.zones[z])}" if where else f"a card from {zone}"


def record(st, a: int) -> None:
    """Called before each action `a` is played: at the round's first decision, keeps a copy of the
    state and the length of its history then, in `st.checkpoint` (never changed in place). The
    round's actions since are the history's; `round_steps` names their cards by place, only when a
    view asks, so that a game nobody takes a view of pays one comparison a decision. A quiet state
    (`runtime.playout.quiet`) keeps none."""
    if st.quiet:
        return
    cp = st.checkpoint
    if cp is None or cp[0] != st.round:
        snap = st.clone(history=False)  # (the round's past is the history's end: see `round_steps`)
        snap.checkpoint = False
        st.checkpoint = (st.round, snap, len(st.history))


def round_steps(st, seat: Optional[int] = None, seen: Optional[set] = None) -> tuple:
    """The actions played since the round's first decision (`st.checkpoint`), each card by the place
    it lay in when it was chosen: (action without its card, zone, position), else the action. They are
    played again in a quiet copy of that decision (the same state, the same actions: the same game).
    For `seat`, a pick another seat made at once that `seat` has not learnt is `at_once.SECRET_STEP`;
    another seat's card taken from a zone whose places `seat` does not see (`runtime.among.held`) is
    the action itself if `seat` saw which card it was (it knew it once the step was over), else
    (`UNSEEN`, choice, action without its card, zone). When a seat saw cards go one of several ways
    this round (`runtime.among`), `seen` gets every card it knew after some step."""
    _, snap, start = st.checkpoint
    played = st.history[start:]
    if not played:
        return ()
    w = snap.clone()
    w.history = st.history[:start]  # (what the round's first decision had: its copy keeps none)
    w.log, w.fresh, w.quiet = None, Events(0), seat is None  # (for a seat: who knows which card, step by step)
    program = st.game.program
    steps = []
    pending_from = len(played) - at_once.pending_picks(st) if program.at_once else len(played)
    known_now = (lambda c: st.known[c] >> seat & 1) if seat is not None else None
    held = program.held
    bit = 0 if seat is None else 1 << seat
    knew = [] if seen is not None else None
    for i, a in enumerate(played):
        unseen = None
        if seat is not None and program.at_once and \
                at_once.hidden_step(program, w, a, seat, i >= pending_from, known_now):
            steps.append(at_once.SECRET_STEP)
        elif program.chooses[w.pending.choice].alts[alt_of(a)].kind == "card":
            z, i = place_of(w, value_of(a))
            if seat is not None and held[z] >> seat & 1 and w.pending.player != seat:
                # from a hand the seat does not see: its place there would tell which card it was
                unseen = (UNSEEN, w.pending.choice, with_value(a, 0), z)
                steps.append(unseen)
            else:
                steps.append((with_value(a, 0), z, i))
        else:
            steps.append(a)
        try:
            program.resume(w, a)
        except RuleError:  # the last action, which a rule stopped: its step is all that was needed
            break
        finally:
            if unseen is not None and w.known[value_of(a)] & bit:  # it saw which card (it arrived in its sight)
                steps[-1] = a
            if knew is not None:
                knew.append(w.known[:] if w.among is not None else None)
    if knew is not None and any(k is not None for k in knew):
        seen.update(c for k in knew if k is not None for c, m in enumerate(k) if m & bit)
    return tuple(steps)


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
    if s.pending is not None and s.pending.player != seat:
        s.pending = s.pending._replace(legal=())
    return s


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

    __slots__ = ("game", "seat", "_canon", "_lines", "_unknown", "_past", "_worked")

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
        cp = state.checkpoint
        if past and cp and cp[0] == state.round and len(state.history) > cp[2]:
            # the round so far: its first decision with the same cards dealt again (they lay in the
            # same places then: what moved, moved by place), and the actions since, by place
            # (a card the seat knew then, not now — it saw it go one of several ways — keeps its id there)
            # (and so does a card it saw during the round, when it saw cards go one of several ways)
            then = cp[1].known
            seen: set = set()
            steps = round_steps(state, seat, seen)
            unknown_then = [c for c in unknown if not then[c] & bit and c not in seen]
            start = _canonical(cp[1], unknown_then, seat)
            start_lines = tuple(cp[1].transcript(seat)) if cp[1].log is not None else ()
            self._past = (start, steps, start_lines, tuple(unknown_then))
        self._worked = None  # see `_settled`

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
                w = self._canon
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
        """(a determinized state, whether it fits the round's past actions). With `history`, the
        state keeps a log (this seat's transcript up to the round's first decision, then its own)
        and a checkpoint, so that a view of it can be taken again (the leak tests do)."""
        if consistent and self._past is not None:
            world = self._replayed(rng, history)
            if world is not None:
                return world, True
        base = self._settled()
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
            raise RuleError(f"no deal of the cards P{self.seat} does not know leaves P{s.pending.player} a legal action")
        if history:
            s.log = [(line, (), ()) for line in self._lines]
            s.fresh = Events(MAX_EVENTS - len(s.log))
            s.checkpoint = None
        return s, self._past is None

    def _replayed(self, rng: random.Random, history: bool, tries: int = TRIES) -> Optional[object]:
        """A world that fits the round's past, or None after `tries` replays.

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
                w.checkpoint = None
            culprit = -1
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
                        break
                    resume(w, a)
                else:
                    if self._fits(w):
                        return w
            except RuleError:
                pass
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
        wo, co = w.observation(self.seat), c.observation(self.seat)
        wo.pop("log")
        co.pop("log")
        return wo == co
