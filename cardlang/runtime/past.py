"""The past as a seat read it: each round's first decision kept (`record`), and the actions
since played again in a quiet copy of it, each card by the place it lay in (`round_steps`), round
after round back to the game's first decision (`past_steps`). `runtime/view.py` reads these to
settle a view's copy and to deal worlds that fit the past (its module docstring says how)."""

from __future__ import annotations

import random
from typing import Optional

from . import at_once
from .actions import alt_of, value_of, with_value
from .basics import Events, RuleError

UNSEEN = "unseen"  # a round step: another seat's card taken from a zone whose places the seat does not see
NO_START = (-1, None, 0, None)  # the checkpoint of a world whose past is kept from its round's first decision only
MAX_PAST_ROUNDS = 64  # rounds' first decisions kept chained for worlds played from the start (`record`)


def place_of(s, card: int) -> tuple:
    """(zone index, position bottom first) of a card: what names it to a seat that does not know it."""
    z = s.loc[card]
    return z, s.zones[z].index(card)


def record(st, a: int) -> None:
    """Called before each action `a` is played: at the round's first decision, keeps the state as it
    stands and the length of its history then, in `st.checkpoint` (never changed in place). The
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
        # (the earlier rounds' first decisions stay chained behind: `past_steps` replays each), but
        # only while they can serve: not once chance was met since (a draw or a shuffle changes the
        # state's chance; `past_steps` then answers None anyway), nor past `MAX_PAST_ROUNDS`, so
        # that a game of many rounds keeps a bounded past (a copy a round would grow without end)
        before = cp or None
        if before is not None and (before[1] is None or before[1].rng != st.rng or _kept(before) >= MAX_PAST_ROUNDS):
            before = NO_START  # (no whole past: `past_steps` answers None, and no copy is kept)
        st.checkpoint = (st.round, snap, len(st.history), before)


class Later:
    """A round's first decision kept as the way to make it again (`record`): the state of an
    earlier decision kept (`base`, never changed), and the actions played since, the slice
    `history[base_at:at]` of the state's history (which only grows); `rng`, the state's chance
    then, as a kept state's. `state()` plays them again on a copy of `base`, once, when a view
    first reads the decision: a seeded game plays the same again (its chance is an int that
    travels in the state), so the copy is the state as it stood then."""

    __slots__ = ("base", "history", "base_at", "at", "rng", "made")

    def __init__(self, base, history: list, base_at: int, at: int, rng: int):
        self.base, self.history, self.base_at, self.at, self.rng = base, history, base_at, at, rng
        self.made = None

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
    while cp and n < MAX_PAST_ROUNDS:
        n += 1
        cp = cp[3]
    return n


def past_steps(st, seat: int) -> Optional[tuple]:
    """The whole game as `seat` read it, replayed round by round from each round's first decision
    kept behind `st.checkpoint`: (every action as `round_steps` gives it, each with the seat that
    took it (every seat sees who is to decide); at each round's first decision, the index of its
    action, the cards the seat knew then, each (zone, position, card), and how many cards each zone
    held). None where a round's first decision was not kept (a state made without its past, a
    determinized copy), a round cannot be replayed, or chance was met since the game's first
    decision (a shuffle or a draw: a world played from the start would seldom meet the same, and
    the round's past is what fits then: see `SeatView._from_start`)."""
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
    chain.reverse()
    out, players, marks, chance = [], [], [], []
    bit = 1 << seat
    for k, (_, snap, start, _) in enumerate(chain):
        snap = kept(chain[k])
        marks.append((start, tuple((z, i, c) for z, pile in enumerate(snap.zones) for i, c in enumerate(pile)
                                   if snap.known[c] & bit), tuple(len(pile) for pile in snap.zones)))
        end = chain[k + 1][2] if k + 1 < len(chain) else len(st.history)
        try:
            got = round_steps(st, seat, None, (snap, start, end), players, chance)
        except Exception:  # (a chance source that holds no outcomes for a replay: no whole past)
            return None
        if len(got) != end - start or chance:  # (chance since the game's first decision: see `SeatView._from_start`)
            return None
        out.extend(got)
    return tuple(zip(players, out)), tuple(marks)


def round_steps(st, seat: Optional[int] = None, seen: Optional[set] = None, part: Optional[tuple] = None,
                players: Optional[list] = None, chance: Optional[list] = None) -> tuple:
    """The actions played since the round's first decision (`st.checkpoint`), each card by the place
    it lay in when it was chosen: (action without its card, zone, position), else the action. They are
    played again in a quiet copy of that decision (the same state, the same actions: the same game).
    For `seat`, a pick another seat made at once that `seat` has not learnt is `at_once.SECRET_STEP`;
    another seat's card taken from a zone whose places `seat` does not see (`runtime.among.held`) is
    the action itself if `seat` saw which card it was (it knew it once the step was over), else
    (`UNSEEN`, choice, action without its card, zone). When a seat saw cards go one of several ways
    this round (`runtime.among`), `seen` gets every card it knew after some step. With `part`
    (a first decision kept, the index of its action in the history and the index where its round
    ends), those of an earlier round (`past_steps`); `players` gets the seat to decide at each, and
    `chance` the index of each action after which a shuffle or a draw was met."""
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
    program = st.game.program
    steps = []
    pending_from = len(played) - at_once.pending_picks(st) if program.at_once and end == len(st.history) else len(played)
    known_now = (lambda c: st.known[c] >> seat & 1) if seat is not None else None
    held = program.held
    bit = 0 if seat is None else 1 << seat
    knew = [] if seen is not None else None
    for i, a in enumerate(played):
        unseen = None
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
        before = w.rng
        try:
            program.resume(w, a)
        except RuleError:  # the last action, which a rule stopped: its step is all that was needed
            break
        finally:
            if chance is not None and w.rng != before:  # (a draw or a shuffle gives the next chance)
                chance.append(len(steps) - 1)
            if unseen is not None and w.known[value_of(a)] & bit:  # it saw which card (it arrived in its sight)
                steps[-1] = a
            if knew is not None:
                knew.append(w.known[:] if w.among is not None else None)
    if knew is not None and any(k is not None for k in knew):
        seen.update(c for k in knew if k is not None for c, m in enumerate(k) if m & bit)
    return tuple(steps)


class Worlds:
    """The chance of a world played again from the start (`SeatView._from_start`): each shuffle
    puts its pile in the order `plan` holds for it, if it holds those cards, else in a random
    order, and each `random(…)` draw gives what `plan` holds for it, if it is in range, else a
    random index; `played` keeps what was given, to be mended and tried again. (A chance source:
    see `runtime/rng.py`.)"""

    __slots__ = ("rng", "plan", "played")

    def __init__(self, rng: random.Random, plan: list):
        self.rng = rng
        self.plan = plan
        self.played: list = []

    def shuffle(self, pile: list, zone: int = -1) -> "Worlds":
        """Orders `pile` in place (whole: this source shuffles nothing lazily); this source again."""
        k = len(self.played)
        if k < len(self.plan) and type(self.plan[k]) is list and sorted(self.plan[k]) == sorted(pile):
            pile[:] = self.plan[k]
        else:
            self.rng.shuffle(pile)
        self.played.append(pile[:])
        return self

    def settle(self, pile: list, zone: int, k: int) -> "Worlds":
        """Nothing to choose before a deal: every pile was put in its order when it was shuffled."""
        return self

    def randbelow(self, n: int) -> tuple:
        """(an index below `n`, this source again)."""
        k = len(self.played)
        got = self.plan[k] if k < len(self.plan) else None
        if type(got) is not int or got >= n:
            got = int(self.rng.random() * n)
        self.played.append(got)
        return got, self


def mend_plan(plan: list, misplaced: list, extra: set, known: list, bit: int, rng: random.Random) -> bool:
    """In place: the shuffles of `plan` changed for another try (see `SeatView._from_start`):
    each (card the seat knows, card lying in its place, or None) of `misplaced` exchanged in the last
    shuffle that held both (with None, with a card of `extra`, the cards the seat does not know in
    zones fuller than it sees them, or any it does not know), or, with none, one of `extra` (or any
    card it does not know) and another card it does not know of the same shuffle.
    False when there is nothing to exchange."""
    done = False
    moved = set()  # (a card exchanged once this time: the next pair may undo what the first did)
    for want, there in misplaced:
        if want in moved or there in moved:
            continue
        for order in reversed(plan):
            if type(order) is list and want in order and (there is None or there in order):
                if there is None:  # (no card lies there in the world: one of `extra`, else any card it does not know)
                    free = [c for c in order if c in extra] or [c for c in order if not known[c] & bit]
                    if not free:
                        continue
                    there = free[int(rng.random() * len(free))]
                i, j = order.index(want), order.index(there)
                order[i], order[j] = there, want
                moved.update((want, there))
                done = True
                break
    if done:
        return True
    unknown = [(k, i) for k, order in enumerate(plan) if type(order) is list
               for i, c in enumerate(order) if not known[c] & bit]
    if len(unknown) < 2:
        return False
    fuller = [(k, i) for k, i in unknown if plan[k][i] in extra] or unknown
    k, i = fuller[int(rng.random() * len(fuller))]
    mine = [j for kk, j in unknown if kk == k and j != i]
    if not mine:
        return False
    j = mine[int(rng.random() * len(mine))]
    plan[k][i], plan[k][j] = plan[k][j], plan[k][i]
    return True
