"""Pots: what each player has put in, betting rounds (blinds, raises, a cap), side pots and splits.

Both engines call these functions over the slots of `state.v` a `pot` declaration takes (see
`PotSpec`), so a pot behaves the same on both. Chips only move between a player's stack (the
declared per-player variable) and his contribution to the pot: their sum never changes.

The betting rules are those of docs/language.md, "Pots and betting" (they are ACPC's, which
OpenSpiel's universal_poker uses: tests/test_holdem_openspiel.py):

- an actor is a player still in play (an active seat, not folded) with chips behind;
- fold is legal only when there is something to call; check when there is nothing; call when
  there is (a call for more than the stack puts the player all in);
- a raise is legal while the round has made fewer raises than its cap and another actor is left
  to answer it; it goes to a new bet for the round of at least the minimum raise-to (the current
  bet plus the minimum raise at the round's start; after a raise to X over a bet B, the larger of
  that and X + (X - B)), at most all in; a player who cannot reach the minimum may still raise
  all in if that is more than the current bet. With `raises of N` (limit betting) a raise goes to
  the current bet plus N, or all in for less. Every raise, even a short all-in, counts toward the
  cap and makes everyone who has matched the old bet act again.
- the round is over when nobody is left to act: everyone still in has acted and matched the bet,
  or is all in, or only one player is still in.
"""

from __future__ import annotations

from typing import Optional

import attrs

from .log import player_name

FOLD, CHECK, CALL, RAISE = 0, 1, 2, 3  # a betting decision's alternatives, in this order
DECISIONS = ("fold", "check", "call", "raise")  # their names, in that order
LABELS = ("fold", "check", "call", "raise to")
NO_DECISION = (False, False, False, 1, 0)  # fold, check, call, lowest and highest raise-to: nothing


@attrs.define(frozen=True)
class PotSpec:
    """Where a pot lives in `state.v`: `n` slots from `base` for each player's contribution (`pot(p)`),
    then this round's bets, the folds, who has acted, then the round's current bet, its minimum
    raise-to, its raises, the player to act, the cap, the fixed raise (None: no limit), and what
    the player to act may do (`_decision`: worked out once when he is found)."""

    name: str
    base: int
    n: int
    stacks: int  # the first slot of the stacks variable: seat s at stacks + s
    ring: tuple  # ring[s]: every seat in the direction of play from s

    @property
    def size(self) -> int:
        """How many slots of `state.v` the pot takes."""
        return 4 * self.n + 7

    def slots(self) -> list:
        """(slot, per player, initial value) of every slot the pot takes."""
        b, n = self.base, self.n
        return [(b, True, 0), (b + n, True, 0), (b + 2 * n, True, False), (b + 3 * n, True, False),
                (b + 4 * n, False, 0), (b + 4 * n + 1, False, 0), (b + 4 * n + 2, False, 0),
                (b + 4 * n + 3, False, None), (b + 4 * n + 4, False, None), (b + 4 * n + 5, False, None),
                (b + 4 * n + 6, False, NO_DECISION)]


def _at(pot: PotSpec):
    b, n = pot.base, pot.n
    return b, b + n, b + 2 * n, b + 3 * n, b + 4 * n


def _log(st, text: str) -> None:
    if st.log is not None:
        st.fresh.append((text, ()))


# ------------------------------------------------------------------ reading
def total(st, pot: PotSpec) -> int:
    """The chips in the pot."""
    v, b = st.v, pot.base
    return sum(v[b:b + pot.n])


def contribution(st, pot: PotSpec, p) -> int:
    """What player `p` has put in the pot."""
    return st.v[pot.base + p]


def contenders(st, pot: PotSpec) -> tuple:
    """The players still in play for the pot (active seats that have not folded), in seat order."""
    fold, n = pot.base + 2 * pot.n, pot.n
    return tuple(p for p, (on, out) in enumerate(zip(st.active, st.v[fold:fold + n])) if on and not out)


def _actors(st, pot: PotSpec) -> list:
    """The players still in with chips behind, in seat order."""
    fold, stacks, n, v = pot.base + 2 * pot.n, pot.stacks, pot.n, st.v
    return [p for p, (on, out, chips) in enumerate(zip(st.active, v[fold:fold + n], v[stacks:stacks + n]))
            if on and not out and chips > 0]


def chips_in_play(st, pot: PotSpec) -> int:
    """Every stack plus the pot: what no rule of a pot ever changes."""
    return sum(st.v[pot.stacks:pot.stacks + pot.n]) + total(st, pot)


# ------------------------------------------------------------------ paying in
def _pay(st, pot: PotSpec, p: int, amount: int, bet: bool) -> int:
    """Moves up to `amount` chips of p's stack into the pot (all he has, if less); returns them."""
    v = st.v
    paid = max(0, min(amount, v[pot.stacks + p]))
    v[pot.stacks + p] -= paid
    v[pot.base + p] += paid
    if bet:
        v[pot.base + pot.n + p] += paid
    return paid


def put(st, pot: PotSpec, amount, p) -> None:
    """`put N from p into pot` (an ante): N chips of p's stack, or all he has, into the pot."""
    if p is None:
        raise ValueError("nobody to put chips into the pot")
    if amount < 0:
        raise ValueError(f"a player cannot put {amount} chips into a pot")
    paid = _pay(st, pot, p, amount, False)
    _log(st, f"{player_name(p)} puts {paid} into the {pot.name}" + (" (all in)" if st.v[pot.stacks + p] == 0 else ""))


# ------------------------------------------------------------------ betting rounds
def start_round(st, pot: PotSpec, first, blinds, minimum: Optional[int], fixed: Optional[int],
                cap: Optional[int]) -> None:
    """Starts a betting round: the blinds posted in turn from `first` by the actors, then the first
    to act the actor after the last blind (`first` itself without blinds)."""
    if first is None:
        raise ValueError("nobody to start the betting")
    blinds = tuple(blinds)
    if any(b < 0 for b in blinds) or (minimum is not None and minimum < 1) or (fixed is not None and fixed < 1) \
            or (cap is not None and cap < 0):
        raise ValueError("blinds, raises and their cap must not be negative (a raise at least 1)")
    v = st.v
    c, bet, fold, acted, s = _at(pot)
    for p in range(pot.n):
        v[bet + p] = 0
        v[acted + p] = False
    can = set(_actors(st, pot))
    order = [q for q in pot.ring[first] if q in can]
    if len(blinds) > len(order) and blinds:
        raise ValueError(f"{len(blinds)} blinds, but only {len(order)} players can post them")
    for q, amount in zip(order, blinds):
        paid = _pay(st, pot, q, amount, True)
        _log(st, f"{player_name(q)} posts a blind of {paid}")
    current = max((v[bet + q] for q in range(pot.n)), default=0)
    step = fixed if fixed is not None else minimum if minimum is not None else max(max(blinds, default=0), 1)
    v[s], v[s + 1], v[s + 2] = current, current + step, 0
    v[s + 4], v[s + 5] = cap, fixed
    _find_actor(st, pot, order[len(blinds) % len(order)] if order else None, True)


def _find_actor(st, pot: PotSpec, start, inclusive: bool) -> None:
    """Sets the next player to act from `start` in the order of play (None: the round is over), and
    what he may do."""
    v = st.v
    c, bet, fold, acted, s = _at(pot)
    actors = _actors(st, pot)
    found = None
    if start is not None and len(contenders(st, pot)) > 1:
        current, more = v[s], len(actors) > 1
        for q in (pot.ring[start] if inclusive else pot.ring[start][1:]):
            if q in actors and (v[bet + q] < current or (more and not v[acted + q])):
                found = q
                break
    v[s + 3] = found
    v[s + 6] = NO_DECISION if found is None else _decision(st, pot, found, len(actors))


def _decision(st, pot: PotSpec, p: int, actors: int) -> tuple:
    """(fold, check, call, lowest raise-to, highest raise-to) for the player to act (lowest > highest:
    no raise)."""
    v = st.v
    c, bet, fold, acted, s = _at(pot)
    current, mine = v[s], v[bet + p]
    owed = current - mine
    lo, hi = 1, 0
    cap, most = v[s + 4], mine + v[pot.stacks + p]
    # a raise needs room under the cap, someone left to answer it, and more chips than a call
    if (cap is None or v[s + 2] < cap) and actors > 1 and most > current:
        fixed = v[s + 5]
        lo = min(current + fixed if fixed is not None else v[s + 1], most)
        hi = lo if fixed is not None else most
    return owed > 0, owed == 0, owed > 0, lo, hi


def betting(st, pot: PotSpec) -> bool:
    """Whether someone is to act in the pot's betting round."""
    return st.v[pot.base + 4 * pot.n + 3] is not None


def actor(st, pot: PotSpec):
    """The player to act (None when the round is over)."""
    return st.v[pot.base + 4 * pot.n + 3]


def legal(st, pot: PotSpec, kind: int) -> bool:
    """Whether fold, check or call is legal for the player to act."""
    return st.v[pot.base + 4 * pot.n + 6][kind]


def raise_range(st, pot: PotSpec) -> tuple:
    """(lowest, highest) bet for the round the player to act may raise to (lowest > highest: none)."""
    return st.v[pot.base + 4 * pot.n + 6][3:]


def act(st, pot: PotSpec, kind: int, amount) -> None:
    """The player to act folds, checks, calls, or raises the round's bet to `amount`."""
    v = st.v
    c, bet, fold, acted, s = _at(pot)
    p = v[s + 3]
    if kind == FOLD:
        v[fold + p] = True
    elif kind == CALL:
        _pay(st, pot, p, v[s] - v[bet + p], True)
    elif kind == RAISE:
        _pay(st, pot, p, amount - v[bet + p], True)
        if v[s + 5] is None:
            v[s + 1] = max(v[s + 1], 2 * amount - v[s])
        v[s] = amount
        v[s + 2] += 1
    v[acted + p] = True
    if v[pot.stacks + p] == 0 and kind != FOLD:
        _log(st, f"{player_name(p)} is all in")
    _find_actor(st, pot, p, False)


# ------------------------------------------------------------------ the showdown
def side_pots(contrib, contenders_) -> list:
    """The pots a showdown shares out: (chips, players who may win them), the main pot first. A
    level of contributions that no contender reached goes back to those who paid it (one pot each)."""
    levels = sorted({contrib[p] for p in contenders_ if contrib[p] > 0})
    out, below = [], 0
    for level in levels:
        chips = sum(level - below if x >= level else x - below for x in contrib if x > below)
        out.append((chips, tuple(p for p in contenders_ if contrib[p] >= level)))
        below = level
    for p, x in enumerate(contrib):
        if x > below:
            out.append((x - below, (p,)))
    return out


def shares(pots: list, value: dict, order: tuple) -> list:
    """What each seat wins of the pots: each to its eligible players with the best `value`, split
    evenly, the odd chips one each to the winners first in `order`."""
    won = [0] * len(order)
    for chips, eligible in pots:
        if len(eligible) == 1:
            won[eligible[0]] += chips
            continue
        best = max(value[p] for p in eligible)
        winners = [p for p in eligible if value[p] == best]
        if len(winners) == 1:
            won[winners[0]] += chips
            continue
        winners = [p for p in order if p in winners]
        each, odd = divmod(chips, len(winners))
        for i, p in enumerate(winners):
            won[p] += each + (1 if i < odd else 0)
    return won


def award(st, pot: PotSpec, anchor, value: dict, lowest: bool = False) -> None:
    """`pay pot to highest p by …`: the side pots to the best of their contenders by `value` (a
    number or hand value per contender), odd chips from `anchor` in the order of play; the pot is
    then empty and nobody has folded."""
    v = st.v
    c, bet, fold, acted, s = _at(pot)
    contrib = v[c:c + pot.n]
    order = pot.ring[anchor if anchor is not None else 0]
    pots = side_pots(contrib, contenders(st, pot))
    won = shares(pots, {p: -x for p, x in value.items()} if lowest else value, order)
    for p in range(pot.n):
        v[pot.stacks + p] += won[p]
        v[c + p] = v[bet + p] = 0
        v[fold + p] = v[acted + p] = False
    v[s + 3], v[s + 6] = None, NO_DECISION
    if st.log is not None:
        for p in range(pot.n):
            if won[p]:
                _log(st, f"{player_name(p)} wins {won[p]} from the {pot.name}")


def _legal_fold(st, pot):
    return st.v[pot.base + 4 * pot.n + 6][0]


def _legal_check(st, pot):
    return st.v[pot.base + 4 * pot.n + 6][1]


def _legal_call(st, pot):
    return st.v[pot.base + 4 * pot.n + 6][2]


def _raise_low(st, pot):
    return st.v[pot.base + 4 * pot.n + 6][3]


def _raise_high(st, pot):
    return st.v[pot.base + 4 * pot.n + 6][4]


# what the IR's `PotValue` and `PotRule` name, for both engines
READERS = {"total": total, "contribution": contribution, "contenders": contenders, "betting": betting,
           "actor": actor, "fold": _legal_fold, "check": _legal_check, "call": _legal_call,
           "raise_low": _raise_low, "raise_high": _raise_high}
RULES = {"put": put, "start": start_round, "act": act}
