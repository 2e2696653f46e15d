"""The past as a seat read it: each round's first decision kept (`record`), and the actions
since played again in a quiet copy of it, each card by the place it lay in (`round_steps`), round
after round back to the game's first decision (`past_steps`). `runtime/view.py` reads these to
settle a view's copy and to deal worlds that fit the past (its module docstring says how)."""

from __future__ import annotations

import random
import re
from typing import Optional

from . import at_once
from .actions import alt_of, value_of, with_value
from .basics import MAX_EVENTS, Events, RuleError
from .log import MARK_RE, SECRET_OPEN
from .rng import NoOutcome

UNSEEN = "unseen"  # a round step: another seat's card taken from a zone whose places the seat does not see
NO_START = (-1, None, 0, None)  # the checkpoint of a world whose past is kept from its round's first decision only
CAPPED = (-2, None, 0, None)  # the same, in a game past `MAX_PAST_DECISIONS` (`record`): its worlds are fallbacks (`capped`)
MAX_PAST_ROUNDS = 64  # rounds' first decisions kept chained with their copies (`record`); older ones are dropped
# from the chain but for the game's first (`_compact`): the whole past is replayed from it (`past_steps`)
MAX_PAST_DECISIONS = 10_000  # decisions past which no whole past is read (`past_steps`), nor kept (`_compact`): a replay from the start
# costs a view and each world it deals a step a decision (in a game whose rounds are turns: about 0.4 s a world
# at 1,000 to 4,000 decisions), and no game played meets that many (that game played at random: at most 4,122
# in 40 games); a hostile file of a million turns then gets worlds that fit the round's past,
# counted as fallbacks (`capped`, `SeatView.sample`), never an error
# Whether the chain goes on across chance (a shuffle or a draw between two rounds' first decisions),
# so that worlds fit the whole past after chance too (docs/knowledge.md, "Worlds that fit the whole
# past, across chance"). Off: chance met since the game's first decision cuts the chain, and the
# worlds fit the round's past only (as before issue 26's last part; `bench_view_past.py` measures both).
# Off by default: on, a search bot's decision costs up to about 40 times as much where every round
# deals again (ismcts:30 at 5 players of such a game in games/: 5.9 -> 228 ms CPU), for worlds that
# fit in fewer than half its views; the search has to get cheaper before it is the default (issue 26).
# By default instead, a round whose start shuffled every card the seat does not know (a chance cut)
# has worlds played on from that shuffle (`runtime/cut.py`): they fit the whole past too.
CHANCE_PAST = False


def place_of(s, card: int) -> tuple:
    """(zone index, position bottom first) of a card: what names it to a seat that does not know it."""
    z = s.loc[card]
    return z, s.zones[z].index(card)


def record(st, a: int) -> None:
    """Called before each action `a` is played: at the round's first decision, keeps a copy of the
    state and the length of its history then, in `st.checkpoint` (never changed in place). The
    round's actions since are the history's; `round_steps` names their cards by place, only when a
    view asks, so that a game nobody takes a view of pays one comparison a decision. A quiet state
    (`runtime.playout.quiet`) keeps none. A seeded state without a log keeps the way to make that
    decision again (`Later`: the decision kept before it and the actions since), made only when a
    view reads it: a game nobody takes a view of copies no state a round."""
    if st.quiet:
        return
    cp = st.checkpoint
    if cp is None or cp[0] != st.round:
        later = _later(st, cp)
        if later is None:
            snap = st.clone(history=False)  # (the round's past is the history's end: see `round_steps`)
            snap.checkpoint = False
        else:
            snap = later
        # (the earlier rounds' first decisions stay chained behind: `past_steps` replays the game from
        # the first, chance met since too (its copy keeps the chance it had); at most `MAX_PAST_ROUNDS`
        # copies are kept, the chain then cut back to the last round's and the game's first (`_compact`),
        # so that a game of many rounds keeps a bounded past (a copy a round would grow without end),
        # and no whole past at all past `MAX_PAST_DECISIONS` (a replay of them all would cost too much)
        before = cp or None
        n = 0  # (the copies kept behind the new one: `_kept(before)`)
        if before is not None and before[1] is None and len(before) > 4 and before[0] == -1:
            pass  # (a world played on from a chance cut, at its first round: `cut.Cut._mask`)
        elif before is not None and before[1] is None:
            before = NO_START  # (no whole past: `past_steps` answers None, and no copy is kept)
        elif before is not None and (n := _kept(before)) >= MAX_PAST_ROUNDS:
            before = _compact(before, len(st.history) > MAX_PAST_DECISIONS)
            n, link = 0, before  # (the copies the chain cut back holds, counted link by link: the
            while link and link[1] is not None:  # count its head's `Later` keeps is the chain's before)
                n, link = n + 1, link[3]
        st.checkpoint = (st.round, snap, len(st.history), before)
        if type(snap) is Later:
            snap.kept = min(n + 1, MAX_PAST_ROUNDS)  # (`_kept` of the new checkpoint, read there at once)


class Later:
    """A round's first decision kept as the way to make it again (`record`): the state of an
    earlier decision kept (`base`, never changed), and the actions played since, the slice
    `history[base_at:at]` of the state's history (which only grows); `rng`, the state's chance
    then, as a kept state's. `state()` plays them again on a copy of `base`, once, when a view
    first reads the decision: a seeded game plays the same again (its chance is an int that
    travels in the state), so the copy is the state as it stood then."""

    __slots__ = ("base", "history", "base_at", "at", "rng", "made",
                 "kept")  # `_kept` of the checkpoint that holds it (set by `record`, which made it)

    def __init__(self, base, history: list, base_at: int, at: int, rng: int):
        self.base, self.history, self.base_at, self.at, self.rng = base, history, base_at, at, rng
        self.made = None
        self.kept = 0

    def state(self):
        """The decision as a state (made on the first call, then kept)."""
        made = self.made
        if made is None:
            w = self.base.clone(history=False)
            resume = w.game.program.resume
            for a in self.history[self.base_at:self.at]:
                resume(w, a)
            w.history = []
            made = self.made = w
            self.base = self.history = None  # (what made it is no longer needed)
        return made


def kept(cp):
    """The state of the round's first decision a checkpoint holds (see `record`)."""
    snap = cp[1]
    return snap.state() if type(snap) is Later else snap


def _later(st, cp) -> Optional[Later]:
    """A `Later` for the round's first decision of `st`, or None where the decision must be copied:
    a state with a log (its copy keeps the log up to there), one whose chance is not a seeded int
    (a chance source answers as it likes: a replay could go otherwise; a determinized copy or a
    world has no seed), or with no decision kept before to start from."""
    if st.log is not None or st.seed is None or type(st.rng) is not int or not cp or cp[1] is None:
        return None
    snap = cp[1]
    if type(snap) is Later:
        if snap.made is None:
            return Later(snap.base, st.history, snap.base_at, len(st.history), st.rng)
        snap = snap.made
    if type(snap.rng) is not int:
        return None
    return Later(snap, st.history, cp[2], len(st.history), st.rng)


def _kept(cp) -> int:
    """How many rounds' first decisions the chain from `cp` holds (counted up to `MAX_PAST_ROUNDS`)."""
    n = 0
    while cp and cp[1] is not None and n < MAX_PAST_ROUNDS:  # (`NO_START` ends it: it holds no copy)
        if type(cp[1]) is Later:  # (its count, kept when `record` made it: a game's rounds walk no chain)
            return min(n + cp[1].kept, MAX_PAST_ROUNDS)
        n += 1
        cp = cp[3]
    return n


def _compact(cp, over: bool) -> tuple:
    """The chain from `cp` cut back to `cp` itself (the last round's first decision, which a chance
    cut reads: `cut.cut_past`) and the game's first decision, the last link (see `record`): the rounds
    between need no copy, `past_steps` replays the game from its first decision and finds where each
    round began as it goes. `over` (the game went on past `MAX_PAST_DECISIONS`): `CAPPED` instead of
    the game's first decision, whose copy is then dropped. A chain that ends with no first decision
    of the game keeps its end (`CAPPED`, `NO_START`), but a world's played on from a chance cut, cut
    there (`NO_START`, as before the chain was cut back)."""
    first = cp
    while first[3]:
        first = first[3]
    if first[1] is None:  # (no whole past kept: a world's, or past the cap)
        return NO_START if len(first) > 4 else (cp[0], cp[1], cp[2], first)
    if over:
        return (cp[0], cp[1], cp[2], CAPPED)
    return cp if first is cp else (cp[0], cp[1], cp[2], first)


def capped(st) -> bool:
    """Whether the whole past of `st` is not read because the game went on past `MAX_PAST_DECISIONS`
    (`record`, `past_steps`): a world then fits the round's past only, which search bots count as a
    fallback."""
    if len(st.history) <= MAX_PAST_DECISIONS:
        return False
    cp = st.checkpoint
    while cp:
        if cp[1] is None:
            return cp == CAPPED  # (else a world's past, which begins in its round or at a cut)
        cp = cp[3]
    return cp is None  # (the chain ends with the game's first decision; False: a copy that keeps no past)


def past_steps(st, seat: int, across: Optional[bool] = None) -> Optional[tuple]:
    """The whole game as `seat` read it, replayed from the game's first decision, the last kept behind
    `st.checkpoint`: (every action as `round_steps` gives it, each with the seat that took it (every
    seat sees who is to decide); at each round's first decision, the index of its action, the cards
    the seat knew then, each (zone, position, card), and how many cards each zone held). The game is
    replayed with the chance its first decision's copy kept, so the shuffles and draws met since
    come out as they did; none of their outcomes is in the answer (a world draws them again to fit
    what the seat saw: `whole_past.from_start`). None where the game's first decision was not kept
    (a state made without its past, a determinized copy, a game of more than `MAX_PAST_DECISIONS`
    decisions), the game cannot be replayed (a rule stops it), or its copy's
    chance holds no outcome for a replay (`rng.NoOutcome`: OpenSpiel's script of one step). Unless
    `across` (default: `CHANCE_PAST`), None too where chance was met since the game's first decision
    (the chain is kept across chance for the views that find no chance cut: `SeatView`)."""
    cp = st.checkpoint
    if cp is None:  # no decision yet: the past is the game's start
        return ((), ()) if not st.history else None
    chain = []
    while cp:
        if cp[1] is None:  # (`NO_START`: a world whose past begins in its round)
            return None
        chain.append(cp)
        cp = cp[3]
    if not chain or chain[-1][2] != 0:  # (the first decision kept is not the game's first)
        return None
    if len(st.history) > MAX_PAST_DECISIONS:  # (a replay that long would cost every view and world too much)
        return None
    players: list = []
    marks: list = []
    if not (CHANCE_PAST if across is None else across) and \
            any(link[1].rng != st.rng for link in chain):
        return None  # (chance met between two rounds' first decisions, or in this round)
    try:  # (the game played again from its first decision, once: each round's first decision found as it goes)
        got = round_steps(st, seat, None, (kept(chain[-1]), 0, len(st.history)), players, marks)
    except NoOutcome:  # (a chance source that holds no outcomes for a replay: no whole past)
        return None
    if len(got) != len(st.history):  # (a rule stopped the replay before the end)
        return None
    return tuple(zip(players, got)), tuple(marks)


def round_steps(st, seat: Optional[int] = None, seen: Optional[set] = None, part: Optional[tuple] = None,
                players: Optional[list] = None, marks: Optional[list] = None) -> tuple:
    """The actions played since the round's first decision (`st.checkpoint`), each card by the place
    it lay in when it was chosen: (action without its card, zone, position), else the action. They are
    played again in a quiet copy of that decision (the same state, the same actions: the same game).
    For `seat`, a pick another seat made at once that `seat` has not learnt is `at_once.SECRET_STEP`;
    another seat's card taken from a zone whose places `seat` does not see (`runtime.among.held`) is
    the action itself if `seat` saw which card it was (it knew it once the step was over), else
    (`UNSEEN`, choice, action without its card, zone). When a seat saw cards go one of several ways
    this round (`runtime.among`), `seen` gets every card it knew after some step. With `part`
    (a first decision kept, the index of its action in the history and the index where its round
    ends), those of an earlier round (`past_steps`); `players` gets the seat to decide at each. With
    `marks`, the replay goes on across rounds (`part` from the game's first decision: `past_steps`),
    and `marks` gets at each round's first decision (a decision in another round than the one
    before, as `record` finds them) the index of its action, the cards the seat knew then, each
    (zone, position, card), and how many cards each zone held."""
    if part is None:
        _, snap, start = st.checkpoint[:3]
        snap = kept(st.checkpoint)
        end = len(st.history)
    else:
        snap, start, end = part
    played = st.history[start:end]
    if not played:
        return ()
    w = snap.clone()
    w.history = st.history[:start]  # (what the round's first decision had: its copy keeps none)
    w.log, w.fresh, w.rounds_at, w.quiet = None, Events(0), None, seat is None  # (for a seat: who knows which card, step by step)
    if seat is not None:  # (and what its log showed it: a card shown, then shuffled away in the same step)
        w.log, w.fresh = [], Events(MAX_EVENTS)
    program = st.game.program
    steps = []
    pending_from = len(played) - at_once.pending_picks(st) if program.at_once and end == len(st.history) else len(played)
    known_now = (lambda c: st.known[c] >> seat & 1) if seat is not None else None
    held = program.held
    bit = 0 if seat is None else 1 << seat
    knew = [] if seen is not None else None
    now = None  # (the round of the replay's last decision, with `marks`)
    for i, a in enumerate(played):
        unseen = None
        if marks is not None and w.round != now:  # (a round's first decision: what the seat knew there)
            now = w.round
            marks.append((start + i, tuple((z, j, c) for z, pile in enumerate(w.zones) for j, c in enumerate(pile)
                                           if w.known[c] & bit), tuple(len(pile) for pile in w.zones)))
            if seat is not None:  # (and its log, a round's as before: `_saw` reads the step's lines)
                w.log, w.fresh = [], Events(MAX_EVENTS)
        if players is not None:
            players.append(w.pending.player)
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
        logged = len(w.log) if w.log is not None else 0
        try:
            program.resume(w, a)
        except RuleError:  # the last action, which a rule stopped: its step is all that was needed
            break
        finally:
            if unseen is not None and _saw(w, value_of(a), bit, logged):  # it saw which card (it arrived in its sight)
                steps[-1] = a
            if knew is not None:
                knew.append(w.known[:] if w.among is not None else None)
    if knew is not None and any(k is not None for k in knew):
        seen.update(c for k in knew if k is not None for c, m in enumerate(k) if m & bit)
    return tuple(steps)


def _saw(w, card: int, bit: int, logged: int) -> bool:
    """Whether the seat of `bit` saw which card `card` was in the step just played in `w`: it knows it
    now, or a line of the step showed it (a card shown, then shuffled away: `steps.shuffle_zone`)."""
    if w.known[card] & bit:
        return True
    return w.log is not None and any(c == card and m & bit for _, cards, masks in w.log[logged:]
                                     for c, m in zip(cards, masks))


class Worlds:
    """The chance of a world played again from the start (`whole_past.from_start`), at its `at`-th
    chance event: each shuffle puts its pile in the order `plan` holds for it, if it holds those
    cards, else in a random order, and each `random(…)` draw gives what `plan` holds for it, if it
    is in range, else a random index (one not in the set `plan` holds there: the values tried in vain,
    if any is left). `played` keeps what was given (and `bounds`, how many items each draw picked
    among), to be mended and tried again. Each event gives a new source, one event further, so that
    a copy of the world (a round's first decision kept, a world kept to go on from) knows where it
    stands; they share `played`, which a copy played on from an earlier place writes over. (A
    chance source: see `runtime/rng.py`.)"""

    __slots__ = ("rng", "plan", "played", "bounds", "at", "log", "heard")

    def __init__(self, rng: random.Random, plan: list, played: Optional[list] = None,
                 bounds: Optional[list] = None, at: int = 0, log: Optional[list] = None,
                 heard: Optional[list] = None):
        self.rng = rng
        self.plan = plan
        self.played: list = [] if played is None else played
        self.bounds: list = [None] * len(self.played) if bounds is None else bounds
        self.at = at
        self.log = log  # (the world's log, once it has one: `heard` keeps its length at each event)
        self.heard: list = [0] * len(self.played) if heard is None else heard

    def _next(self, got, bound) -> "Worlds":
        k, played = self.at, self.played
        if len(played) > k:  # (a copy played on from an earlier place: what came after is gone)
            del played[k:], self.bounds[k:], self.heard[k:]
        played.append(got)
        self.bounds.append(bound)
        self.heard.append(len(self.log) if self.log is not None else 0)
        nxt = Worlds.__new__(Worlds)
        nxt.rng, nxt.plan, nxt.played, nxt.bounds, nxt.at = self.rng, self.plan, self.played, self.bounds, k + 1
        nxt.log, nxt.heard = self.log, self.heard
        return nxt

    def before_line(self, entry: int) -> int:
        """How many events were met before the log's entry `entry` was written (a shuffle writes
        the lines before it first: `steps.shuffle_zone`)."""
        return sum(1 for n in self.heard[:self.at] if n <= entry)

    def shuffle(self, pile: list, zone: int = -1) -> "Worlds":
        """Orders `pile` in place (whole: this source shuffles nothing lazily); the source one event on.
        A plan that holds as many cards as the pile, not all of them the pile's (a card discarded face
        down into it by another pick: `whole_past._pick_into`), keeps its order for the cards they
        share, the pile's others put at random in the places of the plan's others: what the search
        mended of that order stays."""
        k = self.at
        want = self.plan[k] if k < len(self.plan) else None
        if type(want) is list and len(want) == len(pile):
            held = set(pile)
            if held.issuperset(want):
                pile[:] = want
            else:
                planned = set(want)
                free = [c for c in pile if c not in planned]
                self.rng.shuffle(free)
                nxt = iter(free).__next__
                pile[:] = [c if c in held else nxt() for c in want]
        else:
            self.rng.shuffle(pile)
        return self._next(pile[:], None)

    def settle(self, pile: list, zone: int, k: int) -> "Worlds":
        """Nothing to choose before a deal: every pile was put in its order when it was shuffled."""
        return self

    def randbelow(self, n: int) -> tuple:
        """(an index below `n`, the source one event on)."""
        k = self.at
        got = self.plan[k] if k < len(self.plan) else None
        if type(got) is not int or got >= n:
            free = [i for i in range(n) if i not in got] if type(got) is frozenset else ()
            got = free[int(self.rng.random() * len(free))] if free else int(self.rng.random() * n)
        return got, self._next(got, n)


class Replay:
    """The chance of a world's round replayed (`past_steps` of a world `whole_past.from_start` made):
    the outcomes the world drew, from the `at`-th, then the seed `then`, the world's own chance
    from there on. What the rounds' first decisions kept behind such a world hold, so that each
    round plays again as it was played. (A chance source: see `runtime/rng.py`.)"""

    __slots__ = ("outcomes", "at", "then")

    def __init__(self, outcomes: tuple, at: int, then: int):
        self.outcomes = outcomes
        self.at = at
        self.then = then

    @staticmethod
    def at_event(outcomes: tuple, at: int, then: int):
        """The chance of a copy made before the world's `at`-th event: a `Replay`, or `then` past them all."""
        return Replay(outcomes, at, then) if at < len(outcomes) else then

    def shuffle(self, pile: list, zone: int = -1):
        """Puts `pile` in the order the world gave it; the chance one event on."""
        pile[:] = self.outcomes[self.at]
        return Replay.at_event(self.outcomes, self.at + 1, self.then)

    def settle(self, pile: list, zone: int, k: int) -> "Replay":
        """Nothing to choose before a deal: every pile was put in its order when it was shuffled."""
        return self

    def randbelow(self, n: int) -> tuple:
        """(the index the world drew, the chance one event on)."""
        return self.outcomes[self.at], Replay.at_event(self.outcomes, self.at + 1, self.then)


def shown_mends(w, heard: int, lines: list, bit: int, vain: Optional[set] = None) -> tuple:
    """[(card, card)] to exchange in a world's chance when the log lines `w` wrote from entry `heard`
    on are not those the seat read (`lines` from the same place): where a line says the same but
    for the cards it names, each card the seat read there (by its label) and the card the world
    named in its place (see `whole_past.from_start`: a card shown at a showdown, then shuffled away),
    and the index of the first entry that names one; [] where the lines differ otherwise.

    With `vain`, a line of the world that shows the seat cards none of which the seat read in the
    lines it was written among (as many as the world wrote from `heard` on, and `VAIN_AHEAD` more),
    where the seat read at its place a line that a later line of the world writes (the cards it
    names shown there), is a line the seat never read: its cards go into `vain` (the world showed
    them in vain: a deal that laid one more heart down than the seat saw laid), and the lines after
    it are paired with the seat's as if it were not there, rather than each with the seat's line at
    its index (which would exchange every card shown after it with the next one); its entry counts
    as one named. (A line showing another card than the seat read there, none later, is paired.)
    A card shown in vain is paired with a card the seat read in as many lines as the world wrote and
    the world did not show (a heart the seat saw laid down, not the world), in order, as a card
    the seat read in its place; the rest stay in `vain`."""
    deck = w.game.deck
    out = []
    named = first = None
    entries = w.log[heard:]
    read = set(_read_labels(entries, lines[heard:heard + len(entries) + VAIN_AHEAD], bit)) if vain is not None else None
    shown_vain: list = []
    at = heard  # (the seat's line paired with the next entry)
    for e, (text, cards, masks) in enumerate(entries, heard):
        if at >= len(lines):
            break
        line = lines[at]
        if read is not None and cards and SECRET_OPEN not in text:
            shown = [c for c, m in zip(cards, masks) if m & bit]
            if shown and not any(deck.label_of(c) in read for c in shown) and \
                    _shown_later(deck, entries[e - heard + 1:], line, bit):
                shown_vain.extend(shown)
                first = e if first is None else first
                continue  # (the seat read no such line: the next is paired with the seat's line here)
        at += 1
        if not cards or SECRET_OPEN in text:
            continue
        pattern, marks = _line_pattern(text)
        got = pattern.fullmatch(line)
        if got is None:
            continue
        for label, i in zip(got.groups(), marks):
            x = cards[i]
            if named is None:
                named = _labels(deck)
            want = named.get(label)
            if want and x not in want:
                out.append((want[0], x))
                first = e if first is None else first
    if shown_vain:
        shown = {deck.label_of(c) for _, cards, masks in entries for c, m in zip(cards, masks) if m & bit}
        missing = [label for label in _read_labels(entries, lines[heard:heard + len(entries)], bit)
                   if label not in shown]
        if named is None:
            named = _labels(deck)
        for label, x in zip(missing, shown_vain[:]):
            want = named.get(label)
            if want and x not in want:
                out.append((want[0], x))
                shown_vain.remove(x)
        vain.update(shown_vain)
    return out, first


VAIN_AHEAD = 2  # the seat's lines read past those the world wrote, for the cards a line of the world shows (`shown_mends`)


def _shown_later(deck, entries: list, line: str, bit: int) -> bool:
    """Whether one of `entries` shows the seat of `bit` the cards the seat's `line` names, by the
    pattern of its text (a line the world writes later)."""
    for text, cards, masks in entries:
        if not cards or SECRET_OPEN in text or not any(m & bit for m in masks):
            continue
        pattern, marks = _line_pattern(text)
        got = pattern.fullmatch(line)
        if got is not None and all(masks[i] & bit and deck.label_of(cards[i]) == label
                                   for label, i in zip(got.groups(), marks)):
            return True
    return False


def _read_labels(entries: list, lines: list, bit: int) -> list:
    """The labels of the cards the seat read in `lines`, in the order read, as the entries' texts
    that show it cards name them (each line read by the pattern of each such text that matches it)."""
    patterns = {}
    for text, cards, masks in entries:
        if cards and SECRET_OPEN not in text and any(m & bit for m in masks):
            patterns.setdefault(text, _line_pattern(text)[0])
    read: list = []
    for line in lines:
        for pattern in patterns.values():
            got = pattern.fullmatch(line)
            if got is not None:
                read.extend(label for label in got.groups() if label not in read)
                break
    return read


_PATTERNS: dict = {}  # a log entry's text -> (the pattern of its lines, the index of each card it names)
_LABELS: dict = {}  # id of a deck -> (the deck, {label: the cards of that label})


def _line_pattern(text: str) -> tuple:
    """(a pattern a line of the log entry `text` matches whatever cards it names, one group a card;
    the index in the entry's cards of each), made once a text (`shown_mends` meets the same few)."""
    got = _PATTERNS.get(text)
    if got is None:
        parts = MARK_RE.split(text)  # (text, index, place, text, index, place, …, text)
        pattern = "".join(re.escape(part) if j % 3 == 0 else "(.+?)" if j % 3 == 1 else ""
                          for j, part in enumerate(parts) if part is not None or j % 3 == 1)
        got = (re.compile(pattern), tuple(int(i) for i in parts[1::3]))
        if len(_PATTERNS) > 4096:
            _PATTERNS.clear()
        _PATTERNS[text] = got
    return got


def _labels(deck) -> dict:
    """{the label players read (`Deck.label_of`): the cards of the deck that bear it}, made once a deck."""
    held = _LABELS.get(id(deck))
    if held is not None and held[0] is deck:
        return held[1]
    got: dict = {}
    for c in range(deck.size):
        got.setdefault(deck.label_of(c), []).append(c)
    if len(_LABELS) > 64:
        _LABELS.clear()
    _LABELS[id(deck)] = (deck, got)  # (by identity: a deck's fields are lists; kept, so its id is not another's)
    return got


def redraw_at(span: Optional[tuple], plan: list, bounds: list, tried: dict) -> Optional[int]:
    """The index in `plan` of the draw a world draws again when the step whose chance is `span`
    (its first and last plan index) did not fit what the seat saw (see `whole_past.from_start`):
    the step's last draw with a value not tried there yet (each value drawn in vain is kept in
    `tried`; one that has tried every value is forgotten, and the draw before it is tried again),
    None when it drew nothing left to try."""
    if span is None:
        return None
    for i in range(min(span[1], len(plan)) - 1, span[0] - 1, -1):
        if bounds[i] is None:
            continue
        gone = tried.setdefault(i, set())
        gone.add(plan[i])
        if len(gone) < bounds[i]:
            return i
        del tried[i]
    return None


def drop_after(first: int, kept: list, tried: dict) -> None:
    """In place: what a world mended from `plan[first]` on no longer has: the worlds `kept` at the
    rounds' first decisions that met it, and the draws tried after it."""
    while kept and kept[-1][1].rng.at > first:
        kept.pop()
    for i in [i for i in tried if i > first]:
        del tried[i]


def mend_plan(plan: list, misplaced: list, extra: set, known: list, bit: int, rng: random.Random,
              upto: Optional[int] = None) -> Optional[int]:
    """In place: the shuffles of `plan` changed for another try (see `whole_past.from_start`):
    each (card the seat knows, card lying in its place, or None) of `misplaced` exchanged in the last
    shuffle that held both (with None, with a card of `extra`, the cards the seat does not know in
    zones fuller than it sees them, or any it does not know), or, with none, one of `extra` (or any
    card it does not know) and another card it does not know of the same shuffle.
    With `upto`, the pairs are exchanged in a shuffle before `plan[upto]` if one held both (cards
    shown at the end of a round, before the next round's shuffle). The index in `plan` of the first
    shuffle changed (the world is played again from before it), None when there is nothing to exchange."""
    first = None
    moved = set()  # (a card exchanged once this time: the next pair may undo what the first did)
    for want, there in misplaced:
        if want in moved or there in moved:
            continue
        ks = range(len(plan) - 1, -1, -1)
        if upto is not None:
            ks = [*range(min(upto, len(plan)) - 1, -1, -1), *range(len(plan) - 1, min(upto, len(plan)) - 1, -1)]
        for k in ks:
            order = plan[k]
            if type(order) is list and want in order and (there is None or there in order):
                if there is None:  # (no card lies there in the world: one of `extra`, else any card it does not know)
                    # (not `want` itself: a card the seat knew then, not now, may be one of `extra`)
                    free = [c for c in order if c in extra and c != want] or \
                        [c for c in order if not known[c] & bit and c != want]
                    if not free:
                        continue
                    there = free[int(rng.random() * len(free))]
                i, j = order.index(want), order.index(there)
                order[i], order[j] = there, want
                moved.update((want, there))
                first = k if first is None else min(first, k)
                break
    if first is not None:
        return first
    unknown = [(k, i) for k, order in enumerate(plan) if type(order) is list
               for i, c in enumerate(order) if not known[c] & bit]
    if len(unknown) < 2:
        return None
    fuller = [(k, i) for k, i in unknown if plan[k][i] in extra] or unknown
    k, i = fuller[int(rng.random() * len(fuller))]
    mine = [j for kk, j in unknown if kk == k and j != i]
    if not mine:
        return None
    j = mine[int(rng.random() * len(mine))]
    plan[k][i], plan[k][j] = plan[k][j], plan[k][i]
    return k
