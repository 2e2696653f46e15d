"""Worlds played again from the game's start that fit the whole past a seat saw (issue 26, finding 8).

`SeatView.sample` first asks `from_start` for a world: the game is started again with a chance of
the world's own (`past.Worlds`), every action of the past (`past.past_steps`) played again as the
seat read it, and the world mended (its shuffles, its draws, the picks the seat did not see) until
it fits at each round's first decision and where the seat stands now (docs/simulation.md, step 0;
docs/knowledge.md). With `past.CHANCE_PAST`, the past goes on across shuffles and draws.
"""

from __future__ import annotations

import random
from typing import Optional

from . import at_once, past
from .actions import alt_of, value_of, with_value
from .basics import Events, RuleError
from .past import UNSEEN, Replay, Worlds, _labels, drop_after, mend_plan, past_steps, redraw_at, shown_mends
from .places import exchange

REPICKS = 20  # (times a search takes again the picks the seat did not see in a round whose lines misfit: `from_start`)
MENDS = 5  # tries of a world played from the start before it is dealt afresh
LONG_PAST = 8  # steps past which a world of a past with no chance met is mended as it goes too (`from_start`)
SHOWN_AHEAD = 2  # lines read past those a step wrote, for cards the real step showed (`_held_before`)


def _unlike(got: Optional[tuple], want: tuple) -> Optional[tuple]:
    """None when a world's past as the seat reads it (`past_steps`) is the seat's; else the indices
    of the steps that differ (all, when it has none)."""
    if got == want:
        return None
    if got is None or len(got[0]) != len(want[0]):
        return tuple(range(len(want[0])))
    return tuple(j for j, (x, y) in enumerate(zip(got[0], want[0])) if x != y)


def _afresh(plan: list, bounds: list, kept: list, tried: dict, chancy: bool) -> tuple:
    """(the plan and bounds of a world dealt afresh from the last round's first decision `kept`, or
    from the start, 0): what chance gave before it stays (see `from_start`). Unless the worlds met
    chance after their first decision (`chancy`), from the start: in a past of no chance, the
    rounds' first decisions kept hold the deal that is to change."""
    if not chancy:
        kept.clear()
    at = kept[-1][1].rng.at if kept else 0
    drop_after(at, kept, tried)
    return plan[:at], bounds[:at], 0


def _patch(w, x: int, y: Optional[int], bit: int, rng: random.Random) -> Optional[int]:
    """Cards `x` and `y` (None: one lying in another zone), neither known to the seat of `bit`,
    exchanged in the last shuffle of the world's chance (`past.Worlds`) that held both, and in the
    world `w` as it stands, its pending actions worked out again (see `from_start`): the
    index of that shuffle, None where none held both (nothing changed). Each must have met no
    shuffle since (`_last_shuffle`): a card shuffled again later lies where that later shuffle put
    it, and exchanged in the earlier one it would take another course before it (the world played
    again would not be the world mended)."""
    known, loc = w.known, w.loc
    if known[x] & bit or y is not None and known[y] & bit:
        return None
    plan = w.rng.played
    k = _last_shuffle(plan, w.rng.at, x)
    if k is None:
        return None
    order = plan[k]
    later = {c for other in plan[k + 1:w.rng.at] if type(other) is list for c in other}
    if y is None:
        free = [c for c in order if loc[c] != loc[x] and not known[c] & bit and c not in later]
        if not free:
            return None
        y = free[int(rng.random() * len(free))]
    elif y not in order or y in later:
        # (not shuffled last together: exchanged in the last shuffle that held both, a guess that
        # the world played again from there tries, its later shuffles then dealt afresh)
        for k in range(k - 1, -1, -1):
            order = plan[k]
            if type(order) is list and x in order and y in order:
                break
        else:
            return None
    _exchange_planned(w, ((order, x, y),))
    return k


def _exchange_planned(w, pairs) -> None:
    """Each (order, x, y) of `pairs`: cards `x` and `y` exchanged in the shuffle's `order` (a world's
    planned chance) and in the world `w`, then its pending actions worked out again (a world left
    with no legal action stops there, to be played again)."""
    for order, x, y in pairs:
        i, j = order.index(x), order.index(y)
        order[i], order[j] = y, x
        exchange(w, x, y)
    try:
        w.game.program.repend(w)
    except RuleError:  # (no legal action left him: this world stops here, played again)
        w.pending = w.pending._replace(legal=())


def _mates(w, x: int, legal: list, bit: int, anyhow: bool) -> list:
    """The cards to exchange with card `x`, which the seat of `bit` saw the player to decide in the
    world `w` choose (see `from_start`): where he does not hold it there, those of `legal` (the
    cards he may choose in that way) shuffled last in the shuffle that shuffled `x` last
    (`_patch` exchanges no others), else those of the cards he holds unknown to the seat; else
    `legal`, or with `anyhow` and no `legal`, every card he holds unknown to the seat. Where he
    holds it, `legal`: another card bars it."""
    owner, loc, known, player = w.game.program.zone_owner, w.loc, w.known, w.pending.player
    if owner[loc[x]] == player:  # (he holds it, another card bars it: that one goes, `from_start`)
        return legal
    plan, at = w.rng.played, w.rng.at
    last: dict = {}  # card -> the index of the last shuffle that held it
    for k in range(at - 1, -1, -1):
        order = plan[k]
        if type(order) is list:
            for c in order:
                last.setdefault(c, k)
    where = last.get(x)
    held = [c for c in range(len(known)) if owner[loc[c]] == player and not known[c] & bit]
    if where is not None:
        fit = [c for c in legal if last.get(c) == where] or [c for c in held if last.get(c) == where]
        if fit:
            return fit
    return legal if legal or not anyhow else held


def _last_shuffle(plan: list, at: int, x: int) -> Optional[int]:
    """The index in `plan` (a world's chance up to its `at`-th event) of the last shuffle that held
    card `x`, None if none did."""
    for k in range(at - 1, -1, -1):
        order = plan[k]
        if type(order) is list and x in order:
            return k
    return None


def _shuffled_with(w, x: int, cards: list) -> list:
    """The cards of `cards` that the last shuffle of the world's chance (`past.Worlds`) to hold card
    `x` held too ([] where none held `x`, or the world's chance is not one)."""
    chance = w.rng
    if type(chance) is not Worlds:
        return []
    k = _last_shuffle(chance.played, chance.at, x)
    if k is None:
        return []
    held = set(chance.played[k])
    return [c for c in cards if c in held]


def _patch_seen(w, seen: tuple, bit: int) -> Optional[int]:
    """At a round's first decision of a world (`past.Worlds` its chance), each card the seat of
    `bit` saw there, (zone, position, card) of `seen`, that lies elsewhere in `w` and is not known
    to the seat in it exchanged with the card lying in its place, in the last shuffle of the world's
    chance that held both (each shuffled last there: see `_patch`) and in `w` as it stands, its pending actions worked out again (see
    `from_start`): the index of the first shuffle changed; None, `w` unchanged, where a card cannot
    be put in its place so (its place is missing, it is known to the seat elsewhere, or the two
    were not shuffled last together), or none was misplaced."""
    zones, known, plan = w.zones, w.known, w.rng.played
    todo = []
    for z, i, x in seen:
        if i >= len(zones[z]):
            return None
        y = zones[z][i]
        if y == x:
            continue
        if known[x] & bit:  # (the world shows it the card elsewhere: no exchange of cards it does not know)
            return None
        k = _last_shuffle(plan, w.rng.at, x)  # (both shuffled last there: see `_patch`)
        if k is None or _last_shuffle(plan, w.rng.at, y) != k:
            return None
        todo.append((k, x, y))
    if not todo or len({c for _, x, y in todo for c in (x, y)}) != 2 * len(todo):
        return None  # (a card in two pairs: mended from the shuffle, as before)
    _exchange_planned(w, [(plan[k], x, y) for k, x, y in todo])
    return min(k for k, _, _ in todo)


def from_start(view, rng: random.Random, history: bool, tries: int, cut=None) -> Optional[object]:
    """A world played again from the game's start that fits the whole past `view` (a `SeatView`)
    holds, or None after `tries` tries that got no further. With `cut` (a `cut.CutPast`), played
    on from the chance cut before the view's round instead (`runtime/cut.py`), its past since
    `cut.steps` and `cut.marks`, searched across chance.

    The game starts again with a chance of the world's own (`Worlds`: each shuffle a random
    order, each draw a random index), every action of the past is played again as the seat read
    it, by the seat that took it (`past_steps`), and the world is kept if at each round's first
    decision the seat's cards lay as it saw them, it reads the same transcript and it stands
    where the seat stands (`_fits`). What a deal made true (a pair laid down, hearts put aside)
    then holds in it, which a deal of the present alone does not see. Chance met between
    decisions is drawn again, to fit what the seat saw of it: a step after which another seat is
    to decide than the seat saw decide, or which writes lines the seat did not read, draws its
    `random(…)` again, a value not tried there yet (the world goes on from that step's round's
    first decision, kept: `kept`); a shuffle is mended (`past.mend_plan`): a card the seat saw in
    a place, or saw chosen, that lies elsewhere is exchanged, in the last shuffle that held both,
    with the card lying there (or one the chooser could choose), else two cards it does not know
    are exchanged, and the world goes on from the last round's first decision before that
    shuffle. Mended `MENDS` times without getting further, it is dealt afresh. A step whose lines
    misfit in a way no such mend reads (a showdown the seat saw only the winner of, which turns on
    cards placed face down in picks it did not see) takes those picks of its round again, the world
    played again from the round's first decision, `REPICKS` times a search at most, before it is
    played on deaf to the lines.

    With `past.CHANCE_PAST` off (no past is then kept across chance: `past_steps`), the worlds are
    searched as before the flag until one meets chance after its first decision (`start`,
    `chancy`): the lines read as a whole at the end, a misfit mended in the deal and the world dealt
    again from the start (no card exchanged as it goes), `tries` tries in all, so that a game whose
    deal is its only chance costs what it did (`benchmarks/bench_view_past.py --chance-past off`).
    Once a try's lines read at the end do not fit, the next tries read each step's lines as it is
    played (`stepwise`), as across chance: a step that went another way than the seat saw (an
    exchange refused with a King the world's player did not hold) is mended where it misfit, a card
    its lines show put where the seat sees it (`_held_before`), not by where the world's own course
    took the cards at the end.
    On, every world is searched across chance from its start: the deal's lines and each step's
    read at once (a game that shows cards in its first round fits far more often so)."""
    program = view.game.program
    seat = view.seat
    lines = list(view._lines)
    bit = 1 << seat
    c = view._canon
    steps, marks = view._whole if cut is None else (cut.steps, cut.marks)
    marks = {k: (seen, sizes) for k, seen, sizes in marks}
    plan: list = []
    bounds: list = []  # (how many items each draw of `plan` picked among; None for a shuffle)
    kept: list = []  # (step index, the world there, `patched`, `start` and `heard` there): the rounds' first decisions passed
    tried: dict = {}  # plan index of a draw -> the values drawn there in vain
    picks: dict = {}  # step index -> where among its legal actions a step the seat did not see took
    offered: dict = {}  # step index -> (the legal actions of a step the seat did not see, the world's chance before it)
    best, stalled, left = -1, 0, tries
    repicks = REPICKS
    aimed: set = set()  # (the steps whose picks `_pick_into` set: kept when picks are taken again)
    read = 0  # (the lines before it read already: with `cut`, those up to the cut, the seat's own)
    across = past.CHANCE_PAST or cut is not None or view._across  # (off, no cut: no past kept across chance; searched as before it)
    chancy = across  # (whether the worlds are searched across chance: on, or a try met chance after its first decision)
    # (whether each step's lines are read as it is played: across chance, or once a try's lines read
    # as a whole at the end did not fit (a card a step showed, in the round after the deal: `_held_before`))
    stepwise = chancy
    long = len(steps) > LONG_PAST  # (a past too long to be played again from the start at each misfit: mended as it goes)
    for n in range(tries * (len(marks) + 1) + 2 * len(steps)):  # (tries a round, and the draws drawn again)
        if n >= tries and not chancy:  # (a past of no chance as the worlds read it: `tries` tries, no more)
            break
        w = chance = None
        ended = deaf = False
        misplaced: list = []
        extra: set = set()
        last = redraw = None  # (the plan positions of the chance of the step played last, of the step that misfit)
        patched = upto = None  # (the first shuffle this world exchanged two cards in, going on; see `mend_plan`)
        pre = quiet = None  # (the world's zones before the step, and before the one before: `_held_before`)
        k = -1
        repicked = False
        try:
            if kept:
                k0, there, patched, start, heard = kept[-1]
                at = there.rng.at
                w = there.clone()
                w.rng = chance = Worlds(rng, plan, plan[:at], bounds[:at], at, w.log, there.rng.heard[:at])
                last = (at, at)
            else:
                k0 = heard = 0
                log = [] if lines else None  # (no log: none to read again)
                chance = Worlds(rng, plan, log=log)
                if cut is None:
                    w = view.game.new_initial_state(chance=chance, log=log if lines else False)
                    if not history:
                        w.checkpoint = False
                else:  # (the past before the cut as it was in public, the rest the world's own)
                    w = cut.begin(seat, chance, rng, history)
                    if w is None:
                        return None
                    read = len(cut.lines) if cut.lines is not None else 0
                # (the world's chance and log at its first decision: the lines are read step by step
                # once chance is met after it; till then, as in a past of no chance, the lines are
                # read as a whole at the end, where a misfit is mended from the cards' places)
                start = (w.rng.at, len(w.log) if lines else 0)
                last = (0, w.rng.at)
                if (stepwise or long) and lines:  # (across chance, in a long past, or once read in vain at the end: the deal's lines at once)
                    heard = start[1]
                    if lines[read:heard] != w.transcript(seat, read):
                        # (in a long past, the deal's draws kept, its lines paired each with the seat's at its
                        # index: lines shown in vain paired otherwise (`shown_mends`) went round in circles there,
                        # a one-seat game with its tableau dealt face down fitting 2 of 36 views, 9 without)
                        misplaced, entry = shown_mends(w, read, lines, bit, None if long else extra)
                        if misplaced or extra:  # (mended; in a long past the deal's draws kept: drawn again, they would undo the mend)
                            upto = w.rng.before_line(entry)
                            redraw = None if long else last
                        else:
                            redraw = last
                            deaf = True  # (the lines are read again as a whole at the end)
            for k in range(k0, len(steps)):
                if misplaced or extra:  # (the deal showed other cards than the seat saw, or cards it did not see shown)
                    break
                player, step = steps[k]
                mark = marks.get(k)
                if mark is not None:
                    seen, sizes = mark
                    zones = w.zones
                    misplaced = [(x, zones[z][i] if i < len(zones[z]) else None)
                                 for z, i, x in seen if i >= len(zones[z]) or zones[z][i] != x]
                    if misplaced and (chancy or long):  # (a long past: put in place as it goes, played again at the end)
                        at = _patch_seen(w, seen, bit)
                        if at is not None:
                            patched = at if patched is None else min(patched, at)
                            misplaced = []
                    if misplaced or not w.terminal and w.pending.player == player and \
                            any(len(pile) != size for pile, size in zip(zones, sizes)):
                        # (and the cards it did not know in zones fuller than it saw them: with every card
                        # it saw in place and the same seat to decide (else its draws go first), one of them
                        # is exchanged (`mend_plan`), a heart the world's deal laid down that the real deal
                        # left in a hidden hand)
                        extra = {x for z, pile in enumerate(zones) if len(pile) > sizes[z] for x in pile
                                 if not c.known[x] & bit}
                        if misplaced or extra:
                            break
                if w.terminal or w.pending.player != player:  # (the last step, or its chance, went otherwise)
                    redraw = last
                    break
                if mark is not None and (not kept or k > kept[-1][0]):  # (a round's first decision that fits: go on from it)
                    if cut is not None and k == 0:
                        cut.align(w)
                        if patched is None:
                            cut.learn(w)
                    kept.append((k, w.clone(), patched, start, heard))
                a = step_in(w, step, rng, picks, k, offered)
                if a is None or a not in w.pending.legal:
                    alts = program.chooses[w.pending.choice].alts
                    if a is not None and alt_of(a) < len(alts) and alts[alt_of(a)].kind == "card":
                        # (a card the seat saw chosen, not where the chooser takes from: one that is)
                        mates = [value_of(x) for x in w.pending.legal if with_value(x, 0) == with_value(a, 0)]
                        if (chancy or long) and not w.known[value_of(a)] & bit:
                            # (one shuffled last where the card was, so that it can take its place there:
                            # one he may choose, else one he holds (the seat knows not which); if none,
                            # in a long past, any he holds)
                            mates = _mates(w, value_of(a), mates, bit, long)
                        else:  # (one that the last shuffle holding the card held too, if any: exchanged in an
                            # earlier one, the world would be played again from before it, its rounds since lost)
                            mates = _shuffled_with(w, value_of(a), mates) or mates
                        if mates:
                            mate = mates[int(rng.random() * len(mates))]
                            if w.loc[value_of(a)] == w.loc[mate]:  # (there, but barred by another: that one goes)
                                pair = (mate, None)
                            else:
                                pair = (value_of(a), mate)
                            # (patched as it goes once chance was met after the first decision, the misfits
                            # of later rounds found in the same play; before, as in a past of no chance,
                            # the world stops at its first misfit, mended and dealt again: cheaper there)
                            # (and in a long past, where a play from the start a misfit would cost too much)
                            at = _patch(w, pair[0], pair[1], bit, rng) if chancy or long or w.rng.at > start[0] else None
                            if at is None:
                                misplaced.append(pair)
                            else:  # (exchanged in the shuffle and in this world, which goes on to find the next
                                # misfit: it is played again from before that shuffle to be kept)
                                patched = at if patched is None else min(patched, at)
                                if a in w.pending.legal:
                                    last = (w.rng.at, w.rng.at)
                                    program.resume(w, a)
                                    last = (last[0], w.rng.at)
                                    continue
                    break
                before = w.rng.at
                last = (before, before)
                logged = len(w.log) if lines else 0
                # (where the cards lay before the step, if its lines may be read at once: `_held_before`)
                quiet = pre  # (before the step before: the lines it wrote may have been the first of more)
                pre = [z[:] for z in w.zones] if lines and not deaf and stepwise else None
                program.resume(w, a)
                last = (before, w.rng.at)
                if lines and not deaf and (stepwise or w.rng.at > start[0]):  # (the lines this step wrote, as the seat read them)
                    new = w.transcript(seat, heard)
                    if heard < logged:  # (chance met first: the lines before this step, unread till now)
                        old, new = new[:logged - heard], new[logged - heard:]
                        if old != lines[heard:logged]:
                            misplaced, entry = shown_mends(w, heard, lines, bit, extra)  # (cards shown otherwise: mended)
                            if misplaced or extra:
                                upto = w.rng.before_line(entry)
                            elif lines[read:start[1]] != w.transcript(seat, read)[:start[1] - read]:
                                redraw = (0, start[0])  # (the deal's draws, if any)
                            else:
                                deaf = True
                            if not deaf:
                                break
                        heard = logged
                    if not deaf and new != lines[heard:heard + len(new)]:
                        if any(w.rng.bounds[i] is not None for i in range(*last)):
                            redraw = last  # (its draw went otherwise: drawn again at once)
                            break
                        misplaced, entry = shown_mends(w, heard, lines, bit, extra)  # (cards shown otherwise: mended)
                        if misplaced or extra:  # (in a shuffle met before that line; a card shown in vain, elsewhere)
                            upto = w.rng.before_line(entry)
                            break
                        if pre is not None:  # (lines of another course: a card they show held where it lies now)
                            misplaced = _held_before(view, quiet or pre, lines[heard:heard + len(new) + SHOWN_AHEAD], w.known, bit)
                            if misplaced:
                                break
                        if kept and repicks > 0:  # (picks the seat did not see, this round: taken again)
                            mine = [j for j in picks if kept[-1][0] <= j <= k and j not in aimed]
                            if mine:
                                for j in mine:
                                    del picks[j]
                                repicks -= 1
                                repicked = True
                                break
                        deaf = True  # (else read again at the end, as a whole, and the deal mended)
                    heard += len(new)
            else:
                ended = True
                k = len(steps)
                if patched is not None:  # (played again, mended, from before the first shuffle exchanged)
                    misplaced = []
                elif (not lines or len(w.log) == len(lines) and w.transcript(seat, read) == lines[read:]) \
                        and view._fits(w):
                    if cut is not None and not steps:  # (it stands at the round's first decision)
                        cut.align(w)
                        cut.learn(w)
                    final = rng.getrandbits(64)  # (chance of its own from here)
                    outcomes = tuple(w.rng.played[:w.rng.at])
                    chance, w.rng = w.rng, final
                    cp, was = w.checkpoint, []
                    while cp:  # (made by this replay; each plays its round again)
                        if cp[1] is not None and type(cp[1].rng) is Worlds:
                            was.append((cp[1], cp[1].rng))
                            cp[1].rng = Replay.at_event(outcomes, cp[1].rng.at, final)
                        cp = cp[3]
                    unlike = _unlike(past_steps(w, seat, True if view._across else None), view._whole) if history else None
                    if unlike is None:  # (its own past reads as the seat's: a twin the seat cannot tell apart)
                        w.seed = w.stacks = w.draws = None
                        if not history:
                            w.log, w.fresh, w.rounds_at = None, Events(0), None
                        return w
                    for snap, worlds in was:  # (the worlds kept share them: as they were)
                        snap.rng = worlds
                    w.rng = chance
                    for j in unlike:  # (a pick the seat did not see that this world shows it: another)
                        picks.pop(j, None)
                else:
                    if lines and not stepwise and w.transcript(seat, read) != lines[read:]:
                        stepwise = True  # (read step by step from the next try on)
                    if not misplaced:
                        redraw = last  # (the last step's draw, if any, may be what does not fit)
        except RuleError:
            if w is not None and type(w.rng) is Worlds and last is not None:
                redraw = (last[0], w.rng.at)  # (a step that erred: its draws, if any)
        if chance is None:  # (no world could be started)
            return None
        if w is not None and type(w.rng) is Worlds and w.rng.at > start[0]:
            chancy = stepwise = True
        plan, bounds = chance.played, chance.bounds
        if not plan:
            return None
        if repicked:
            continue
        further = k > best
        if further:  # (a try that gets further costs no try)
            best, stalled, left = k, 0, tries
        d = redraw_at(redraw, plan, bounds, tried)
        if d is not None:  # (a draw tried again, another value: no mend)
            plan, bounds = plan[:d] + [frozenset(tried[d])], bounds[:d]
            drop_after(d, kept, tried)
            continue
        if not further:
            stalled += 1
            left -= 1
            if left <= 0:
                break
            if stalled >= MENDS:  # (mended that often in vain: dealt afresh from the last round's first decision)
                plan, bounds, stalled = _afresh(plan, bounds, kept, tried, chancy)
                picks.clear()
                aimed.clear()
                continue
        was = dict(picks)
        if misplaced and _pick_into(plan, misplaced, picks, offered, kept, tried):
            aimed.update(j for j, i in picks.items() if was.get(j) != i)
            continue  # (played again from before the pick)
        if patched is not None:  # (cards exchanged as it went: played again, mended, from before them)
            first = mend_plan(plan, misplaced, extra, c.known, bit, rng) if misplaced else None
            drop_after(patched if first is None else min(patched, first), kept, tried)
            continue
        if ended:  # (each card the seat knows that lies elsewhere, and the card in its place, if any)
            for cz, wz in zip(c.zones, w.zones):
                for i, b in enumerate(cz):
                    if c.known[b] & bit and (i >= len(wz) or wz[i] != b):
                        misplaced.append((b, wz[i] if i < len(wz) else None))
        if ended:  # (a card the seat does not know in a zone fuller than the seat's: one that went elsewhere)
            extra = {x for cz, wz in zip(c.zones, w.zones) if len(wz) > len(cz) for x in wz
                     if not c.known[x] & bit}
        first = mend_plan(plan, misplaced, extra, c.known, bit, rng, upto)
        if first is None:
            plan, bounds, stalled = _afresh(plan, bounds, kept, tried, chancy)
            picks.clear()
            aimed.clear()
        else:
            drop_after(first, kept, tried)
    return None


def _held_before(view, pre: list, read: list, known: list, bit: int) -> list:
    """[(card, card)] to exchange in a world's chance when a step wrote other lines than the seat
    read (`read`), not merely naming other cards: each card a line the seat read names (by its
    label, one card of the deck bearing it) that the seat knows now, and the card the world held in
    its place now before the step (`pre`, the world's zones then), neither known to the seat in
    the world. The step went another way because it met another card there (an exchange refused
    with `P3 shows K♥`, where the world's P3 held no King and the cards were swapped): a card shown by
    the step, in the real course, lay where the seat sees it now unless the step moved it, and the
    search mends the deal that way first (`past.mend_plan`) rather than by where the world's step
    took the cards, which it did not take in the real course."""
    named = _labels(view.game.deck)
    c = view._canon
    out, used = [], set()
    for line in read:
        for label, cards in named.items():
            if len(cards) != 1 or label not in line:
                continue
            x = cards[0]
            if not c.known[x] & bit or x in used:
                continue
            z = c.loc[x]
            i = c.zones[z].index(x)
            y = pre[z][i] if z < len(pre) and i < len(pre[z]) else None
            if y is not None and y != x and y not in used and not known[y] & bit and not known[x] & bit:
                out.append((x, y))
                used.update((x, y))
    return out


def _pick_into(plan: list, misplaced: list, picks: dict, offered: dict, kept: list, tried: dict) -> bool:
    """For the first (card the seat knows, card lying in its place) of `misplaced` whose card the
    last shuffle that held the other did not hold (the seat saw it come out of a pile gathered and
    shuffled again; the world's player kept it in a hand hidden from the seat): the last step before
    that shuffle that the seat did not see and that could take the card (a card discarded face down)
    takes it instead (`picks`), the card it took then put in its place in the shuffle's order, and
    the world is played again from the round's first decision before that step (`kept`). Exchanged
    in an earlier shuffle instead (`past.mend_plan`), the world would be played again from before
    it, its rounds since lost and their picks drawn again. Whether one was found."""
    for want, there in misplaced:
        if there is None:
            continue
        s = _last_shuffle(plan, len(plan), there)
        if s is None or want in plan[s]:
            continue
        order = plan[s]
        for j in sorted(offered, reverse=True):
            legal, at = offered[j]
            if at > s or j not in picks:
                continue
            cards = [value_of(x) for x in legal]
            if want not in cards:
                continue
            old = cards[picks[j]] if picks[j] < len(cards) else None
            if old is None or old not in order:
                continue
            picks[j] = cards.index(want)
            i, o = order.index(there), order.index(old)
            order[i] = want  # (in the place of the card lying where the seat saw it; that one in the place of
            if o != i:  # the card taken before, which stays out of the pile now)
                order[o] = there
            while kept and kept[-1][0] > j:
                kept.pop()
            drop_after(at, kept, tried)
            for i in [i for i in offered if i >= j]:
                del offered[i]
            return True
    return False


def step_in(w, step, rng: random.Random, picks: Optional[dict] = None, k: int = -1,
            offered: Optional[dict] = None) -> Optional[int]:
    """The action of `w` that is the past's `step` (see `round_steps`), None if it has none. A
    step the seat did not see (a pick made at once, another seat's card of a zone) is any legal
    one: with `picks`, the one at the same place among them as the `k`-th step took the last
    time, so that a world mended in its shuffles takes the card mended into that place."""
    if step == at_once.SECRET_STEP:  # a pick the seat has not learnt: any legal one
        legal = w.pending.legal
    elif type(step) is int:
        return step
    elif step[0] == UNSEEN:  # any card of that zone, that way
        loc = w.loc
        legal = [x for x in w.pending.legal if with_value(x, 0) == step[2]
                 and loc[value_of(x)] == step[3]] if w.pending.choice == step[1] else []
    else:
        legal = None
    if legal is not None:
        if not legal:
            return None
        if offered is not None:  # (what it could take, and where the world's chance stood: `_pick_into`)
            offered[k] = (legal, w.rng.at if type(w.rng) is Worlds else -1)
        i = picks.get(k) if picks is not None else None
        if i is None or i >= len(legal):
            i = int(rng.random() * len(legal))
            if picks is not None:
                picks[k] = i
        return legal[i]
    if step[2] < len(w.zones[step[1]]):
        return with_value(step[0], w.zones[step[1]][step[2]])
    return None
