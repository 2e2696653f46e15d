"""A climbing game's combinations (`runtime/climbing.py`'s `ClimbRule.of`, `kind`, `beats`) for the
native engine: the rule as two tables built once when the game is loaded (`rule_tables`).

Functions that allocate scratch arrays say `_nrt=True`: they keep numba's reference counting when a
generated function that calls them is compiled without it (`native/options.py`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..runtime.climbing import KINDS, ONE_RANK

RUN, BOMB = KINDS.index("run"), KINDS.index("bomb")
_NEVER = 1 << 40  # a fewest count no set reaches (a kind the declaration does not name)


def rule_tables(rule) -> tuple:
    """(height of each card's rank, [run's fewest, bomb's fewest, the kind of 1..4 cards of one rank])."""
    height = np.asarray(rule.height, dtype=np.int64)
    sizes = [KINDS.index(rule.sizes[n]) if n in rule.sizes else -1 for n in range(1, 5)]
    assert set(rule.sizes) <= set(ONE_RANK.values())  # (1 to 4 cards: `rule[2:6]`)
    run = rule.run_min if rule.run_min is not None else _NEVER
    bomb = rule.bomb_min if rule.bomb_min is not None else _NEVER
    return height, np.asarray([run, bomb, *sizes], dtype=np.int64)


@njit(cache=True, _nrt=True)
def climb_of(cards, n, height, rule):
    """`ClimbRule.of`: (the kind's number in `KINDS`, size, height of the highest rank), kind -1 for
    a set that is no combination."""
    if n == 0:
        return -1, 0, 0
    top = 0
    low = _NEVER
    for i in range(n):
        h = height[cards[i]]
        if h == 0:
            return -1, 0, 0
        top = max(top, h)
        low = min(low, h)
    if low == top:  # one rank
        if n >= rule[1]:
            return BOMB, n, top
        if n <= 4 and rule[1 + n] >= 0:
            return rule[1 + n], n, top
        return -1, 0, 0
    if n >= rule[0] and top - low == n - 1:
        seen = np.zeros(n, dtype=np.bool_)
        for i in range(n):
            h = height[cards[i]] - low
            if seen[h]:
                return -1, 0, 0
            seen[h] = True
        return RUN, n, top
    return -1, 0, 0


@njit(cache=True, _nrt=True)
def climb_beats(cards, n, laid, m, height, rule):
    """`ClimbRule.beats(cards, laid)`: 1 if the n cards may be laid on the m cards laid, else 0."""
    k, kn, kt = climb_of(cards, n, height, rule)
    if k < 0:
        return 0
    if m == 0:
        return 1
    j, jn, jt = climb_of(laid, m, height, rule)
    if j < 0:
        return 0
    if k == BOMB or j == BOMB:
        return 1 if k == BOMB and (j != BOMB or kn > jn or (kn == jn and kt > jt)) else 0
    return 1 if k == j and kn == jn and kt > jt else 0
