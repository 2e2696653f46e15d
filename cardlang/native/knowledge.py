"""Who knows each card, in machine code: the native state's `KN[card]`, a mask of seats, as
`state.known` (kept only for a game a rule of which reads it: `is face up`).

The steps that change it are written in place by the emitter (`native/stmt.py`: a move, a deal, a
shuffle, `reveal`, `hide`, …, as `runtime.zones.learn` and `known_only_by` do). What the native
state does not keep is `state.among` ("one of these", `runtime/among.py`): it stays None as long as
no seat sees a card leave a hand it does not see the places of without seeing which card. The
functions here tell when a step would start it (`among.before` would give a group): the run then
stops (1), and that game is played on the compiled engine, which keeps it.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def _blind_aware(Z, ZN, KN, z, blind):
    """The seats of `blind` that know some card of zone z (`among.before`'s `aware`)."""
    aware = 0
    for i in range(ZN[z]):
        aware |= KN[Z[z, i]]
    return blind & aware


@njit(cache=True, _nrt=True)
def unseen(Z, ZN, LOC, KN, cards, n, HELD, after):
    """1 when moving `cards[:n]` (seen where they arrive by the seats of `after`) would leave some
    seat knowing only that one of a hand's cards went (`among.before` with no `among`), else 0."""
    if n == 0:
        return 0
    moving = np.zeros(ZN.shape[0], dtype=np.int64)  # the moving cards each zone holds
    for i in range(n):
        c = cards[i]
        if c < 0 or c >= LOC.shape[0]:  # (none, or no card: the move's rule error)
            return 1
        moving[LOC[c]] += 1
    for z in range(ZN.shape[0]):
        if moving[z] == 0 or moving[z] >= ZN[z]:  # (the whole zone goes: every seat sees which cards)
            continue
        blind = HELD[z] & ~after
        if blind and _blind_aware(Z, ZN, KN, z, blind):
            return 1
    return 0


@njit(cache=True)
def unseen_swap(Z, ZN, LOC, KN, a, b, HELD, VIS):
    """`unseen` for `swap a with b` (`among.before_swap`): each card leaves for the other's place."""
    for x, zy in ((a, LOC[b]), (b, LOC[a])):
        z = LOC[x]
        blind = HELD[z] & ~VIS[zy]
        if blind and ZN[z] > 1 and _blind_aware(Z, ZN, KN, z, blind):
            return 1
    return 0


@njit(cache=True)
def deal_known(Z, ZN, LOC, KN, n, src, targets, nt, face, VIS, HELD, everyone):
    """`deal n from src to targets` keeping who knows each card (`face`: 0 none, 1 up, 2 down), as
    the reference's `s_Deal` and `steps.deal_from_held`; 1 (nothing dealt past that card) where a
    card dealt out of a hand would start `among`."""
    for _ in range(n):
        for t in range(nt):
            z = targets[t]
            m = ZN[src] - 1
            c = Z[src, m]
            if HELD[src]:
                after = everyone if face == 1 else 0 if face == 2 else VIS[z]
                blind = HELD[src] & ~after
                if blind and m > 0 and _blind_aware(Z, ZN, KN, src, blind):
                    return 1
            ZN[src] = m
            k = ZN[z]
            Z[z, k] = c
            ZN[z] = k + 1
            LOC[c] = z
            if face == 1:
                KN[c] = everyone
            elif face == 0:
                KN[c] |= VIS[z]
    return 0
