"""What the emitted code calls for the rules about seats and winners: sitting out a round, the
winners a score decides, `seat(p)`, a reversed direction. Plain functions over the state, as the
reference interpreter does them (`compiler/reference.py`, `reference_expr.py`)."""

from __future__ import annotations

from ...runtime import effects


def sit_out(s, p, sitting: int) -> None:
    """`p sits out`: out of play until the next round (nothing if already out)."""
    if s.active[p]:
        s.active[p] = False
        s.v[sitting] = (s.v[sitting] or ()) + (p,)
        if s.log is not None:
            effects.sits_out(s, p)


def leave_sitting(s, p, sitting: int) -> None:
    """Before `eliminate p`: a seat sitting out is out for good, so it no longer comes back."""
    if p in (s.v[sitting] or ()):
        s.v[sitting] = tuple(q for q in s.v[sitting] if q != p)
        s.active[p] = True  # (the elimination that follows takes it out, and logs it)


def back_in(s, sitting: int) -> None:
    """A new round: the seats that sat out the last one come back."""
    for q in s.v[sitting]:
        s.active[q] = True
    s.v[sitting] = ()


def set_direction(s, slot: int, reversed_: bool, direction: str) -> None:
    """`direction left|right`: play goes that way now (`reversed_`: against the declared direction)."""
    turns = bool(s.v[slot]) != reversed_  # (None before any: the declared way)
    s.v[slot] = reversed_
    if turns and s.log is not None:
        effects.direction_now(s, direction)


def best_scorers(s, slot: int, score, lowest: bool, sitting, everyone: bool = False) -> tuple:
    """The seats still in (sitting out counts as in; every seat with `everyone`) whose score is the
    best, seat by seat from 0."""
    sit = (s.v[sitting] or ()) if sitting is not None else ()
    scores = {}
    for q in range(len(s.active)):
        if everyone or s.active[q] or q in sit:
            s.v[slot] = q
            scores[q] = score(s)
    if not scores:
        return ()
    best = (min if lowest else max)(scores.values())
    return tuple(q for q, v in scores.items() if v == best)


def seat_number(p, span) -> int:
    """`seat(p)`: 1 for P0, as `seats[k]` counts."""
    if p is None:
        effects.seat_of_none(span)
    return p + 1


def reverse(s, slot: int) -> None:
    """`reverse direction`."""
    s.v[slot] = not s.v[slot]
    if s.log is not None:
        effects.reversed_play(s)
