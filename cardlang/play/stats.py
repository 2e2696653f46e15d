"""The statistics the workbench needs, in plain Python: intervals, exact and rank tests, Holm's correction.

Every random step (bootstrap, Monte Carlo p-values) draws from a generator seeded by the caller, so
the same data always give the same figures.
"""

from __future__ import annotations

import math
import random
from typing import Sequence

from .simulate import mean_ci, wilson  # (kept there: `simulate` reports them too)

__all__ = ["wilson", "mean_ci", "normal_sf", "fisher_exact", "mann_whitney", "holm", "seat_equality",
           "bootstrap_ci", "z_test"]


def normal_sf(z: float) -> float:
    """P(Z > z) for a standard normal Z."""
    return 0.5 * math.erfc(z / math.sqrt(2))


def _log_choose(n: int, k: int) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


def fisher_exact(a: int, n1: int, b: int, n2: int) -> float:
    """Two-sided Fisher exact p-value that a/n1 and b/n2 are draws of the same rate.

    Sums the hypergeometric probabilities of every table with the same margins that is no more
    likely than the one observed (the usual two-sided definition).
    """
    k = a + b
    total = n1 + n2
    if total == 0 or k == 0 or k == total:
        return 1.0
    low, high = max(0, k - n2), min(k, n1)
    base = _log_choose(total, k)

    def logp(x):
        return _log_choose(n1, x) + _log_choose(n2, k - x) - base

    observed = logp(a)
    return min(1.0, sum(math.exp(logp(x)) for x in range(low, high + 1) if logp(x) <= observed + 1e-9))


def mann_whitney(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Two-sided Mann-Whitney U p-value (normal approximation with the tie correction)."""
    n1, n2 = len(xs), len(ys)
    if n1 == 0 or n2 == 0:
        return 1.0
    pooled = sorted([(v, 0) for v in xs] + [(v, 1) for v in ys])
    ranks = [0.0] * len(pooled)
    ties = 0.0
    i = 0
    while i < len(pooled):
        j = i
        while j + 1 < len(pooled) and pooled[j + 1][0] == pooled[i][0]:
            j += 1
        rank = (i + j) / 2 + 1
        for k in range(i, j + 1):
            ranks[k] = rank
        t = j - i + 1
        ties += t ** 3 - t
        i = j + 1
    r1 = sum(r for r, (_, side) in zip(ranks, pooled) if side == 0)
    u = r1 - n1 * (n1 + 1) / 2
    n = n1 + n2
    var = n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1))) if n > 1 else 0.0
    if var <= 0:
        return 1.0
    z = (abs(u - n1 * n2 / 2) - 0.5) / math.sqrt(var)
    return min(1.0, 2 * normal_sf(max(z, 0.0)))


def z_test(a: float, se_a: float, b: float, se_b: float) -> float:
    """Two-sided p-value that two estimates with these standard errors are equal."""
    se = math.hypot(se_a, se_b)
    if se == 0:
        return 1.0 if a == b else 0.0
    return min(1.0, 2 * normal_sf(abs(a - b) / se))


def holm(pvalues: Sequence[float], alpha: float = 0.05) -> list:
    """Holm–Bonferroni: for each p-value, whether it stays significant at family-wise level `alpha`."""
    order = sorted(range(len(pvalues)), key=lambda i: pvalues[i])
    m = len(pvalues)
    out = [False] * m
    for rank, i in enumerate(order):
        if pvalues[i] > alpha / (m - rank):
            break
        out[i] = True
    return out


def seat_equality(wins: Sequence[int], draws: int = 2000, seed: int = 0) -> float:
    """P-value that every seat is equally likely to win: an exact multinomial test by Monte Carlo.

    The statistic is Pearson's chi-square of the win counts against equal shares; the p-value is
    (1 + the number of `draws` samples of the same total under equal shares with a statistic at
    least as large) / (1 + draws), which is exact in the sense of a permutation test.
    """
    k, total = len(wins), sum(wins)
    if k < 2 or total == 0:
        return 1.0
    expected = total / k

    def chi2(counts):
        return sum((c - expected) ** 2 for c in counts) / expected

    observed = chi2(wins) - 1e-9
    rng = random.Random(seed)
    at_least = 0
    for _ in range(draws):
        counts = [0] * k
        for _ in range(total):
            counts[rng.randrange(k)] += 1
        if chi2(counts) >= observed:
            at_least += 1
    return (1 + at_least) / (1 + draws)


def bootstrap_ci(groups: Sequence, statistic, resamples: int = 1000, seed: int = 0) -> tuple:
    """The statistic of `groups`, its percentile 95% bootstrap interval and standard error.

    `groups` are resampled with replacement (a group is what stays together: a deal and all its
    seat rotations in paired play); `statistic(groups)` returns a number or None.
    """
    value = statistic(groups)
    rng = random.Random(seed)
    n = len(groups)
    samples = []
    for _ in range(resamples if n else 0):
        v = statistic([groups[rng.randrange(n)] for _ in range(n)])
        if v is not None:
            samples.append(v)
    if not samples or value is None:
        return value, [value, value], 0.0
    samples.sort()
    low = samples[int(0.025 * (len(samples) - 1))]
    high = samples[int(math.ceil(0.975 * (len(samples) - 1)))]
    mean = math.fsum(samples) / len(samples)
    se = math.sqrt(math.fsum((s - mean) ** 2 for s in samples) / max(1, len(samples) - 1))
    return value, [low, high], se
