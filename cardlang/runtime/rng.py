"""The state's chance: one 64-bit int, expanded into a Mersenne Twister only when a rule draws.

A draw seeds `random.Random` from `state.rng`, draws, and stores the generator's next 64 bits as
the new `state.rng`, so a state stays a few flat lists and an int (cheap to clone and to save).
These functions give exactly what `random.Random(seed).shuffle(...)` and `.randrange(n)` give, so
seeded games do not change, but without `Random.__init__`, the Python-level `seed()` and the
per-card method calls of `random.shuffle`: the generator is reseeded in C, one per thread.

A state's chance may instead be a *chance source* (any object that is not an int, with the methods
`shuffle(pile, zone) -> next chance`, `randbelow(n) -> (value, next chance)` and
`settle(pile, zone, k) -> next chance`): both engines draw only through these functions, so an
adapter that must supply the outcomes itself (OpenSpiel's chance nodes: `cardlang.research.chance`)
sets one as `state.rng` and every shuffle and `random` draw of either engine asks it. A source may
shuffle a pile lazily: leave its order open and choose each card when a deal takes it
(`runtime.steps.settle`, which both engines call before a deal). A seeded game never meets one
(its chance is an int, its piles are ordered when shuffled).
"""

from __future__ import annotations

import random
import threading

try:  # CPython: seed an int in C, skipping `Random.seed`'s Python-level checks
    from _random import Random as _CRandom

    _c_seed = _CRandom.seed
except ImportError:  # pragma: no cover - other interpreters
    _c_seed = random.Random.seed
_local = threading.local()


class NoOutcome(Exception):
    """A chance source holds no outcome for the next chance event (OpenSpiel's `Script`, played
    again past the outcomes of its step: `cardlang.research.chance.NeedChance`). A replay of the
    past that meets it cannot be made (`runtime.past.past_steps`)."""


def _generator(seed: int) -> random.Random:
    mt = getattr(_local, "mt", None)
    if mt is None:
        mt = _local.mt = random.Random()
    _c_seed(mt, seed)
    return mt


def _plan(n: int) -> tuple:
    """The draws of a shuffle of n cards, one (place, bound, bits) a draw: what `random.shuffle`'s
    loop works out at each step (i, i + 1, its bit length), worked out once a pile length."""
    plan = _PLANS.get(n)
    if plan is None:
        plan = tuple((i, i + 1, (i + 1).bit_length()) for i in range(n - 1, 0, -1))
        if n <= _PLANNED and len(_PLANS) < _KEPT:  # (a game shuffles piles of a few lengths: keep few)
            _PLANS[n] = plan
    return plan


_PLANS: dict = {}
_PLANNED, _KEPT = 1024, 32  # the longest pile whose plan is kept, and how many plans are


def shuffle(pile: list, seed: int, zone: int = -1) -> int:
    """Shuffles `pile` in place as `random.Random(seed).shuffle(pile)` does; returns the next seed.
    (`zone`, the pile's zone id, is told to a chance source only.)"""
    if type(seed) is not int:  # a chance source (see the module's docstring)
        return seed.shuffle(pile, zone)
    bits = _generator(seed).getrandbits
    for i, n, k in _plan(len(pile)):  # (k bits until one is below n: what `randrange(n)` draws)
        j = bits(k)
        while j >= n:
            j = bits(k)
        pile[i], pile[j] = pile[j], pile[i]
    return bits(64)


def randbelow(n: int, seed: int) -> tuple[int, int]:
    """(`random.Random(seed).randrange(n)`, the next seed), for n >= 1."""
    if type(seed) is not int:  # a chance source (see the module's docstring)
        return seed.randbelow(n)
    mt = _generator(seed)
    bits = mt.getrandbits
    k = n.bit_length()
    r = bits(k)
    while r >= n:
        r = bits(k)
    return r, bits(64)
