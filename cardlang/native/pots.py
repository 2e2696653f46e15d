"""The showdown's split of a pot in machine code: what `cardlang.runtime.pots.award` pays each seat.

Array conventions (what the native emitter passes), one entry a seat, seats 0 .. n-1:

- `contrib`: each seat's contribution to the pot (the pot's first `n` slots, `PotSpec.base`);
- `contender`: 1 for a seat still in the showdown (active, not folded: `pots.contenders`), else 0;
- `value`: each contender's value (a number or a hand value; negated by the caller for
  `pay … to lowest`, as `award` does), read for contenders only;
- `order`: the seats in the order of play from the anchor (`PotSpec.ring[anchor]`), which gives
  the odd chips of a split.

`shares(contrib, contender, value, order)` returns what each seat wins: the runtime's
`shares(side_pots(contrib, contenders), value, order)`. Moving the chips (stacks, the pot's slots,
the log) stays with the caller, as in `award`.

Functions that allocate scratch arrays say `_nrt=True`: they keep numba's reference counting when a
generated function that calls them is compiled without it (`native/options.py`).
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, _nrt=True)
def shares(contrib, contender, value, order):
    """What each seat wins of the side pots of `contrib` (see the module's docstring)."""
    n = contrib.shape[0]
    won = np.zeros(n, dtype=np.int64)
    # the levels: the distinct contributions of the contenders above 0, lowest first
    levels = np.empty(n, dtype=np.int64)
    nlevels = 0
    for p in range(n):
        if contender[p] and contrib[p] > 0:
            x = contrib[p]
            known = False
            for j in range(nlevels):
                if levels[j] == x:
                    known = True
            if not known:
                levels[nlevels] = x
                nlevels += 1
    levels[:nlevels] = np.sort(levels[:nlevels])
    below = 0
    for j in range(nlevels):
        level = levels[j]
        chips = 0
        for p in range(n):
            x = contrib[p]
            if x > below:
                chips += (level - below) if x >= level else (x - below)
        # the pot goes to its eligible contenders with the best value
        best = 0
        neligible = 0
        for p in range(n):
            if contender[p] and contrib[p] >= level:
                if neligible == 0 or value[p] > best:
                    best = value[p]
                neligible += 1
        nwinners = 0
        for p in range(n):
            if contender[p] and contrib[p] >= level and value[p] == best:
                nwinners += 1
        each = chips // nwinners
        odd = chips - each * nwinners
        i = 0
        for k in range(n):  # the winners in the order of play: the first ones get the odd chips
            p = order[k]
            if contender[p] and contrib[p] >= level and value[p] == best:
                won[p] += each + (1 if i < odd else 0)
                i += 1
        below = level
    for p in range(n):  # what no contender reached goes back to who paid it
        if contrib[p] > below:
            won[p] += contrib[p] - below
    return won


# ------------------------------------------------------------------ betting rounds over `V`
# The pot's slots in `V` (`runtime.pots.PotSpec`): from `base`, each seat's contribution, this
# round's bets, the folds (0/1), who has acted (0/1), then the round's current bet, its minimum
# raise-to, its raises, the player to act, the cap, the fixed raise (none: `NONE`); what the player
# to act may do (`_decision`) is the row `TV[base + 4n + 6, :5]`. `ring[s]` is every seat in the
# direction of play from s. Each function returns 1 where `runtime.pots` raises (the caller stops
# the run: the compiled engine plays that game and says the error), else 0.
NONE = -(1 << 62)  # (`native.kinds.NONE`: none in an int64)


@njit(cache=True)
def _pay(V, base, n, stacks, p, amount, bet):
    """`pots._pay`: up to `amount` chips of p's stack into the pot (all he has, if less)."""
    paid = max(0, min(amount, V[stacks + p]))
    V[stacks + p] -= paid
    V[base + p] += paid
    if bet:
        V[base + n + p] += paid
    return paid


@njit(cache=True)
def _is_actor(V, ACT, base, n, stacks, q):
    return ACT[q] and V[base + 2 * n + q] == 0 and V[stacks + q] > 0


@njit(cache=True)
def _find_actor(V, TV, ACT, base, n, stacks, ring, start, inclusive):
    """`pots._find_actor`: the next player to act from `start` (NONE: the round is over), and the
    row of what he may do."""
    s = base + 4 * n
    nactors = 0
    ncontenders = 0
    for q in range(n):
        if ACT[q] and V[base + 2 * n + q] == 0:
            ncontenders += 1
            if V[stacks + q] > 0:
                nactors += 1
    found = NONE
    if start != NONE and ncontenders > 1:
        current = V[s]
        more = nactors > 1
        for k in range(0 if inclusive else 1, n):
            q = ring[start, k]
            if _is_actor(V, ACT, base, n, stacks, q) and (
                    V[base + n + q] < current or (more and V[base + 3 * n + q] == 0)):
                found = q
                break
    V[s + 3] = found
    row = s + 6
    if found == NONE:  # (`pots.NO_DECISION`)
        TV[row, 0], TV[row, 1], TV[row, 2], TV[row, 3], TV[row, 4] = 0, 0, 0, 1, 0
        return
    # `pots._decision`: fold, check, call, lowest and highest raise-to (lowest > highest: no raise)
    current, mine = V[s], V[base + n + found]
    owed = current - mine
    lo, hi = 1, 0
    cap, most = V[s + 4], mine + V[stacks + found]
    if (cap == NONE or V[s + 2] < cap) and nactors > 1 and most > current:
        fixed = V[s + 5]
        lo = min(current + fixed if fixed != NONE else V[s + 1], most)
        hi = lo if fixed != NONE else most
    TV[row, 0] = 1 if owed > 0 else 0
    TV[row, 1] = 1 if owed == 0 else 0
    TV[row, 2] = 1 if owed > 0 else 0
    TV[row, 3] = lo
    TV[row, 4] = hi


@njit(cache=True)
def put(V, base, n, stacks, amount, p):
    """`pots.put`: an ante of `amount` chips from p (all he has, if less)."""
    if p < 0 or p >= n or amount < 0:
        return 1
    _pay(V, base, n, stacks, p, amount, False)
    return 0


@njit(cache=True, _nrt=True)
def start_round(V, TV, ACT, base, n, stacks, ring, first, blinds, nb, minimum, fixed, cap):
    """`pots.start_round`: the blinds posted in turn from `first` by the actors, then the first to
    act found."""
    if first < 0 or first >= n:
        return 1
    for i in range(nb):
        if blinds[i] < 0:
            return 1
    if (minimum != NONE and minimum < 1) or (fixed != NONE and fixed < 1) or (cap != NONE and cap < 0):
        return 1
    s = base + 4 * n
    for p in range(n):
        V[base + n + p] = 0
        V[base + 3 * n + p] = 0
    order = np.empty(n, dtype=np.int64)
    m = 0
    for k in range(n):
        q = ring[first, k]
        if _is_actor(V, ACT, base, n, stacks, q):
            order[m] = q
            m += 1
    if nb > m and nb > 0:
        return 1
    for i in range(nb):
        _pay(V, base, n, stacks, order[i], blinds[i], True)
    current = 0
    for q in range(n):
        if q == 0 or V[base + n + q] > current:
            current = V[base + n + q]
    if fixed != NONE:
        step = fixed
    elif minimum != NONE:
        step = minimum
    else:
        step = 1
        for i in range(nb):
            step = max(step, blinds[i])
    V[s] = current
    V[s + 1] = current + step
    V[s + 2] = 0
    V[s + 4] = cap
    V[s + 5] = fixed
    _find_actor(V, TV, ACT, base, n, stacks, ring, order[nb % m] if m > 0 else NONE, True)
    return 0


@njit(cache=True)
def act(V, TV, ACT, base, n, stacks, ring, kind, amount):
    """`pots.act`: the player to act folds (0), checks (1), calls (2) or raises the bet to `amount` (3)."""
    s = base + 4 * n
    p = V[s + 3]
    if p < 0 or p >= n:
        return 1
    if kind == 0:
        V[base + 2 * n + p] = 1
    elif kind == 2:
        _pay(V, base, n, stacks, p, V[s] - V[base + n + p], True)
    elif kind == 3:
        if amount == NONE:
            return 1
        _pay(V, base, n, stacks, p, amount - V[base + n + p], True)
        if V[s + 5] == NONE:
            V[s + 1] = max(V[s + 1], 2 * amount - V[s])
        V[s] = amount
        V[s + 2] += 1
    V[base + 3 * n + p] = 1
    _find_actor(V, TV, ACT, base, n, stacks, ring, p, False)
    return 0


@njit(cache=True, _nrt=True)
def award(V, TV, ACT, base, n, stacks, ring, anchor, value, lowest):
    """`pots.award`: the side pots to the best of their contenders by `value` (one a seat, read for
    the contenders; `lowest`: the lowest wins), the odd chips from `anchor` (NONE: seat 0) in the
    order of play; then the pot is empty and nobody has folded."""
    if anchor != NONE and (anchor < 0 or anchor >= n):
        return 1
    s = base + 4 * n
    contrib = V[base:base + n].copy()
    contender = np.zeros(n, dtype=np.int64)
    values = np.zeros(n, dtype=np.int64)
    for p in range(n):
        if ACT[p] and V[base + 2 * n + p] == 0:
            contender[p] = 1
            values[p] = -value[p] if lowest else value[p]
    won = shares(contrib, contender, values, ring[anchor if anchor != NONE else 0])
    for p in range(n):
        V[stacks + p] += won[p]
        V[base + p] = 0
        V[base + n + p] = 0
        V[base + 2 * n + p] = 0
        V[base + 3 * n + p] = 0
    V[s + 3] = NONE
    row = s + 6
    TV[row, 0], TV[row, 1], TV[row, 2], TV[row, 3], TV[row, 4] = 0, 0, 0, 1, 0
    return 0
