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
