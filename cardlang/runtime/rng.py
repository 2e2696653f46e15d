"""The state's chance: one 64-bit int, the state of a SplitMix64 generator.

A draw steps the generator (`s = s + GAMMA mod 2**64`, output `mix(s)`: the standard SplitMix64
finalizer) and leaves its new state as `state.rng`, so a state stays a few flat lists and an int
(cheap to clone and to save), and every engine (reference, compiled, native: `native/rng.py`)
draws the same numbers from the same few 64-bit operations.

A shuffle of n cards is Fisher-Yates (place i from n - 1 down to 1 swapped with a place j uniform
in 0..i), its j's drawn as mixed-radix digits: the bounds n, n - 1, ..., 2 are grouped in order
into chunks whose product P stays below `CAP`; a chunk draws z until z < (2**64 // P) * P (so
z % P is uniform), then takes its digits `r, j = divmod(r, bound)` from r = z % P, bound by bound.
A 52-card shuffle is 4 generator steps. `randbelow(n)` is a one-chunk draw of bound n.

A game's first chance is `first_chance(seed)`. Games saved before this generator (save versions 1
and 2, web tables stored before it) drew from CPython's Mersenne Twister reseeded at each draw:
their chance is a `Mersenne` source (`legacy(seed)`), which draws exactly as they did.

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

MASK = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15  # SplitMix64's increment (the golden ratio's 64-bit fraction)
M1, M2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB  # its finalizer's multipliers
# A chunk's product stays below 2**60: a draw is then rejected less than once in 16 (below 2**64,
# a product just over 2**63 would be rejected half the time: 4.68 steps for 52 cards, not 4.02).
CAP = 1 << 60


class NoOutcome(Exception):
    """A chance source holds no outcome for the next chance event (OpenSpiel's `Script`, played
    again past the outcomes of its step: `cardlang.research.chance.NeedChance`). A replay of the
    past that meets it cannot be made (`runtime.past.past_steps`)."""


def mix(z: int) -> int:
    """SplitMix64's finalizer: a 64-bit state to its 64-bit output."""
    z = ((z ^ (z >> 30)) * M1) & MASK
    z = ((z ^ (z >> 27)) * M2) & MASK
    return z ^ (z >> 31)


def first_chance(seed: int) -> int:
    """A new game's chance from its seed (any int; its low 64 bits): SplitMix64's first output."""
    return mix((seed + GAMMA) & MASK)


def _plan(n: int) -> tuple:
    """The chunks of a shuffle of n cards, one (P, limit, ((place, bound), ...)) a generator draw:
    the bounds n, n - 1, ..., 2 grouped in order while their product stays below `CAP`, a draw z
    kept when z < limit (the largest multiple of P up to 2**64). Worked out once a pile length."""
    plan = _PLANS.get(n)
    if plan is None:
        chunks, product, steps = [], 1, []
        for i in range(n - 1, 0, -1):
            if product * (i + 1) >= CAP:
                chunks.append((product, ((MASK + 1) // product) * product, tuple(steps)))
                product, steps = 1, []
            product *= i + 1
            steps.append((i, i + 1))
        if steps:
            chunks.append((product, ((MASK + 1) // product) * product, tuple(steps)))
        plan = tuple(chunks)
        if n <= _PLANNED and len(_PLANS) < _KEPT:  # (a game shuffles piles of a few lengths: keep few)
            _PLANS[n] = plan
    return plan


_PLANS: dict = {}
_PLANNED, _KEPT = 1024, 32  # the longest pile whose plan is kept, and how many plans are


def shuffle(pile: list, seed: int, zone: int = -1) -> int:
    """Shuffles `pile` in place from chance `seed`; returns the next chance (the generator's state
    after its draws). (`zone`, the pile's zone id, is told to a chance source only.)"""
    if type(seed) is not int:  # a chance source (see the module's docstring)
        return seed.shuffle(pile, zone)
    written = _WRITTEN.get(len(pile))
    if written is None:
        written = _written(len(pile))
    return written(pile, seed)


def _written(n: int):
    """The shuffle of a pile of n cards written out as straight-line Python (`_plan`'s draws and
    swaps, each bound and place a constant: a fifth cheaper than the loop over the plan, the same
    draws and swaps), made once a pile length has been shuffled `_WRITE_AFTER` times (writing it
    costs as much as a thousand shuffles of 52 cards); until then, or for a pile too long to write
    out, or once `_KEPT` lengths are, the loop (`_looped`)."""
    if not _WRITTEN_FEWEST <= n <= _WRITTEN_MOST or len(_WRITTEN) >= _KEPT:
        return _looped
    seen = _SEEN[n] = _SEEN.get(n, 0) + 1
    if seen < _WRITE_AFTER:
        return _looped
    written = _WRITTEN[n] = _write(n)
    return written


def _write(n: int):
    """The shuffle of a pile of n cards as a function written out (see `_written`)."""
    lines = ["def shuffle(pile, s):"]
    for product, limit, steps in _plan(n):
        lines += ["    while True:",
                  f"        s = (s + {GAMMA:#x}) & {MASK:#x}",
                  f"        z = ((s ^ (s >> 30)) * {M1:#x}) & {MASK:#x}",
                  f"        z = ((z ^ (z >> 27)) * {M2:#x}) & {MASK:#x}",
                  "        z ^= z >> 31",
                  f"        if z < {limit}:",
                  "            break",
                  f"    r = z % {product}"]
        for k, (i, b) in enumerate(steps):
            if k < len(steps) - 1:
                lines.append(f"    j = r % {b}; r //= {b}; pile[{i}], pile[j] = pile[j], pile[{i}]")
            else:  # (the chunk's last digit: r is below its bound now)
                lines.append(f"    pile[{i}], pile[r] = pile[r], pile[{i}]")
    lines.append("    return s")
    ns: dict = {}
    exec(compile("\n".join(lines), f"<shuffle of {n} cards>", "exec"), ns)
    return ns["shuffle"]


_WRITTEN: dict = {}  # pile length -> its shuffle written out (`_written`)
_SEEN: dict = {}  # pile length -> the shuffles of that length before it is written out
# the shortest and longest piles written out (a few cards gain nothing; eight 52-card decks), and when
_WRITTEN_FEWEST, _WRITTEN_MOST, _WRITE_AFTER = 8, 416, 64


def _looped(pile: list, seed: int) -> int:
    """`shuffle` of a seeded chance, as a loop over the pile's plan (`_written` writes it out)."""
    s = seed
    for product, limit, steps in _plan(len(pile)):
        while True:  # (`mix`, inlined: this is the Python engines' hottest chance loop)
            s = (s + GAMMA) & MASK
            z = ((s ^ (s >> 30)) * M1) & MASK
            z = ((z ^ (z >> 27)) * M2) & MASK
            z ^= z >> 31
            if z < limit:
                break
        r = z % product
        for i, b in steps:  # (`%` and `//`: cheaper than `divmod`'s tuple)
            j = r % b
            r //= b
            pile[i], pile[j] = pile[j], pile[i]
    return s


def randbelow(n: int, seed: int) -> tuple[int, int]:
    """(a number uniform in 0..n - 1 drawn from chance `seed`, the next chance), for n >= 1."""
    if type(seed) is not int:  # a chance source (see the module's docstring)
        return seed.randbelow(n)
    limit = ((MASK + 1) // n) * n
    s = seed
    while True:
        s = (s + GAMMA) & MASK
        z = mix(s)
        if z < limit:
            return z % n, s


# ---------------------------------------------------------------- the old generator, for old games
try:  # CPython: seed an int in C, skipping `Random.seed`'s Python-level checks
    from _random import Random as _CRandom

    _c_seed = _CRandom.seed
except ImportError:  # pragma: no cover - other interpreters
    _c_seed = random.Random.seed
_local = threading.local()


def _generator(seed: int) -> random.Random:
    mt = getattr(_local, "mt", None)
    if mt is None:
        mt = _local.mt = random.Random()
    _c_seed(mt, seed)
    return mt


def _mt_plan(n: int) -> tuple:
    """The draws of `random.shuffle` of n cards: (place, bound, bit length) a draw."""
    plan = _MT_PLANS.get(n)
    if plan is None:
        plan = tuple((i, i + 1, (i + 1).bit_length()) for i in range(n - 1, 0, -1))
        if n <= _PLANNED and len(_MT_PLANS) < _KEPT:
            _MT_PLANS[n] = plan
    return plan


_MT_PLANS: dict = {}


def mt_shuffle(pile: list, seed: int) -> int:
    """Shuffles `pile` as `random.Random(seed).shuffle(pile)` does; returns its next 64 bits."""
    bits = _generator(seed).getrandbits
    for i, n, k in _mt_plan(len(pile)):  # (k bits until one is below n: what `randrange(n)` draws)
        j = bits(k)
        while j >= n:
            j = bits(k)
        pile[i], pile[j] = pile[j], pile[i]
    return bits(64)


def mt_randbelow(n: int, seed: int) -> tuple[int, int]:
    """(`random.Random(seed).randrange(n)`, its next 64 bits), for n >= 1."""
    bits = _generator(seed).getrandbits
    k = n.bit_length()
    r = bits(k)
    while r >= n:
        r = bits(k)
    return r, bits(64)


class Mersenne:
    """The chance of a game made before SplitMix64 (a chance source: see the module's docstring):
    each draw seeds CPython's Mersenne Twister from a 64-bit int, draws as `random.Random(seed)`
    does, and goes on from its next 64 bits. Immutable (a clone shares it)."""

    __slots__ = ("seed",)

    def __init__(self, seed: int):
        self.seed = seed

    def shuffle(self, pile: list, zone: int) -> "Mersenne":
        """The pile shuffled as `random.Random(seed).shuffle` does; the next chance."""
        return Mersenne(mt_shuffle(pile, self.seed))

    def randbelow(self, n: int) -> tuple:
        """(`random.Random(seed).randrange(n)`, the next chance)."""
        r, after = mt_randbelow(n, self.seed)
        return r, Mersenne(after)

    def settle(self, pile: list, zone: int, k: int) -> "Mersenne":
        """Nothing to choose: the pile was ordered when it was shuffled."""
        return self

    def __eq__(self, other) -> bool:
        return type(other) is Mersenne and other.seed == self.seed

    def __hash__(self) -> int:
        return hash(("Mersenne", self.seed))

    def __repr__(self) -> str:
        return f"Mersenne({self.seed})"


def legacy(seed: int) -> Mersenne:
    """The chance a game seeded `seed` started from before SplitMix64 (`random.Random(seed)`'s first
    64 bits), as a `Mersenne` source: an old save or web table replays as it was played."""
    return Mersenne(random.Random(seed).getrandbits(64))


def replay_chance(chance, seed: int):
    """The `chance` that plays a game again from `seed` (`Game.new_initial_state`), for a game whose
    chance is now `chance`: a game made before SplitMix64 its old generator's (`legacy`), else None."""
    return legacy(seed) if type(chance) is Mersenne else None
