"""Choices made at once (`each player p in seats chooses at once …`): what the runtime keeps secret.

A choice made at once is a run of ordinary decisions, one per seat in the order of its seats
(`compiler.lower_at_once`); nothing the game shows changes until the last seat has chosen, and the
picks made so far wait as action ids in a slot of `state.v` (`compiler.ir.AtOnce`). So that no seat
learns another's pick before they are played out together, the runtime hides three things:
the log line of a pick (`ProgramBase._log_choice` writes it as a `log.secret`), the pending picks in
another seat's view (`mask_picks`: each replaced by a legal action of that seat, the first in a
view's canonical copy, one drawn at random in a determinized one), and the round's past actions
that are such picks (`hidden_step`). `conceal` makes a pick moved face down unknown to the others.
"""

from __future__ import annotations

from . import among
from .actions import alt_of, value_of
from .log import flush
from .zones import known_only_by

SECRET_STEP = ("secret",)  # a past action another seat picked at once, as a view replays it


def conceal(s, cards, player: int, zone_vis) -> None:
    """Each of `cards` is known only to `player` and to those who see the zone it lies in."""
    if s.fresh and s.log is not None:
        flush(s)  # (what was shown before stays shown in the log)
    bit = 1 << player
    for c in cards:
        # (a seat that saw it leave a hand it does not see knows it lies there or here: runtime/among.py)
        among.forget(s, (c,), zone_vis[s.loc[c]] | bit | ~s.known[c])
        known_only_by(s, (c,), zone_vis[s.loc[c]] | bit)


def pending_round(s):
    """(the `AtOnce` of the pending choice, its seats, the picks made so far) when a choice made at
    once is pending, else None."""
    pending = s.pending
    if pending is None or s.terminal:
        return None
    info = s.game.program.at_once.get(pending.choice)
    if info is None:
        return None
    return info, s.v[info.seats_slot], s.v[info.picks_slot]


def legal_for(s, info, seat: int) -> tuple:
    """The legal actions `seat` has at the pending choice made at once (the state is left as it was)."""
    saved_v, saved_pending, saved_pc = s.v[:], s.pending, s.pc
    s.v[info.player_slot] = seat
    try:
        s.game.program.repend(s)
        return s.pending.legal
    finally:
        s.v[:] = saved_v
        s.pending, s.pc = saved_pending, saved_pc


def mask_picks(s, seat: int, pick) -> None:
    """In place: each pending pick of another seat than `seat` becomes `pick(its legal actions)`."""
    found = pending_round(s)
    if found is None:
        return
    info, seats, picks = found
    if not picks or all(q == seat for q in seats[:len(picks)]):
        return
    s.v[info.picks_slot] = tuple(a if q == seat else pick(legal_for(s, info, q)) for q, a in zip(seats, picks))


def pending_picks(s) -> int:
    """How many of the last actions of the history are picks still pending (0 outside a choice made at once)."""
    found = pending_round(s)
    return 0 if found is None else len(found[2])


def hidden_step(program, w, a: int, seat: int, pending_pick: bool, known_now) -> bool:
    """Whether the action `a`, played in `w` (a replay of the round), is hidden from `seat`: a pick
    made at once by another seat, still pending, or whose card `seat` does not know now, or a number
    or a player that its alternative's body does not show (`AtOnce.shown`), or an option (nothing
    says which the others learnt)."""
    pending = w.pending
    info = program.at_once.get(pending.choice)
    if info is None or pending.player == seat:
        return False
    if pending_pick:
        return True
    alt = program.chooses[pending.choice].alts[alt_of(a)]
    if alt.kind == "card":
        return not known_now(value_of(a))
    return not (info.shown and info.shown[alt_of(a)])


def choosers_now(s) -> tuple:
    """The seats that decide at this moment: those of a choice made at once that have not chosen
    yet (its current chooser first), else the one seat to decide; none at the end."""
    if s.terminal:
        return ()
    found = pending_round(s)
    if found is None:
        return (s.pending.player,)
    _, seats, picks = found
    return tuple(seats[len(picks):])


def turn_of(s, seat: int):
    """A copy of `s` in which `seat`'s turn at the pending choice made at once has come (each seat
    before it having picked its first legal action), or `s` itself when it is `seat`'s turn now.
    Since no seat's view shows another's pending pick, `seat`'s view of it is its view when its turn
    comes, whatever the others pick."""
    if s.terminal or s.pending.player == seat:
        return s
    w = s.clone()
    while not w.terminal and w.pending.player != seat and w.pending.choice in s.game.program.at_once:
        w.apply(w.pending.legal[0])
    return w
