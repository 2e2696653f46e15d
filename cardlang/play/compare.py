"""Several rule files (or option values) measured on the same seeds and bots, and which differences hold.

Each measure of every file is tested against the same measure of the first file (the reference):
Fisher's exact test for rates, Mann-Whitney's U for per-game values (lengths, choice, drama), a z
test with bootstrap standard errors for skill. The p-values of a whole report are corrected
together with Holm–Bonferroni, and a verdict is given only where the corrected test is significant.
"""

from __future__ import annotations

from typing import Callable, Optional, Sequence

from .measures import collect, merge, option_labels, samples, summarize
from .stats import fisher_exact, holm, mann_whitney, z_test

ALPHA = 0.05
TESTS = {"rate": "Fisher exact", "mean": "Mann-Whitney U", "skill": "z test (bootstrap standard errors)"}
SKIP = {"seat_spread"}  # tested within each file (equality of seats), not between files


def _pvalue(name: str, a: dict, b: dict, raw_a: dict, raw_b: dict) -> Optional[float]:
    ea, eb = a["measures"].get(name), b["measures"].get(name)
    if ea is None or eb is None or not ea["n"] or not eb["n"]:
        return None
    if ea["kind"] == "rate":
        return fisher_exact(ea["successes"], ea["n"], eb["successes"], eb["n"])
    if ea["kind"] == "mean":
        return mann_whitney(samples(raw_a, name), samples(raw_b, name))
    if ea["kind"] == "skill":
        return z_test(ea["value"], ea["se"], eb["value"], eb["se"])
    return None


def comparisons(summaries: Sequence[dict], raws: Sequence[dict], alpha: float = ALPHA) -> list:
    """Every measure of every file against the first file's: test, p-value, Holm verdict."""
    rows = []
    for j in range(1, len(summaries)):
        for name, entry in summaries[0]["measures"].items():
            if name in SKIP:
                continue
            p = _pvalue(name, summaries[0], summaries[j], raws[0], raws[j])
            if p is None:
                continue
            rows.append({"measure": name, "a": 0, "b": j, "test": TESTS[entry["kind"]], "p": p})
    for row, significant in zip(rows, holm([r["p"] for r in rows], alpha)):
        row["significant"] = significant
        a = summaries[row["a"]]["measures"][row["measure"]]["value"]
        b = summaries[row["b"]]["measures"][row["measure"]]["value"]
        row["verdict"] = ("higher" if b > a else "lower") if significant else None
    return rows


def run_all(games_list: Sequence, n: int, seed: int, bots: Sequence[str], skill: Optional[tuple],
            restricted: bool, paired: bool, cap: int, jobs: int,
            progress: Optional[Callable[[int], None]] = None, until_significant: bool = False,
            max_games: Optional[int] = None, cluster: Optional[str] = None) -> dict:
    """Measures every game on the same seeds; with `until_significant`, adds batches of `n` games
    until a corrected test is significant or `max_games` per game is reached.

    `progress(done)` counts the games of every run. The result has `summaries`, `comparisons`,
    `stopped` (`significant`, `cap`, `interrupted` or None) and `raws` (the records, for tests).
    """
    max_games = max_games or (10 * n if until_significant else n)
    raws: list = [None] * len(games_list)
    labels: list = [() for _ in games_list]
    batch, stopped, done = 0, None, 0

    def tick(base):
        return (lambda d: progress(base + d)) if progress else None

    summaries: list = []
    rows: list = []
    while True:
        for i, game in enumerate(games_list):
            first = _batch_seed(seed, batch, n, game, skill, paired)
            raw = collect(game, n, first, bots, skill, labels[i], paired, cap, jobs, tick(done), cluster=cluster)
            done += sum(len(v) for v in raw["runs"].values())
            if batch == 0 and restricted and not raw["interrupted"]:
                # the labels to try come from the first batch's own play
                labels[i] = tuple(option_labels(raw))
                if labels[i]:
                    extra = collect(game, n, first, bots, skill, labels[i], paired, cap, jobs, tick(done),
                                    kinds=("restricted",), cluster=cluster)
                    done += sum(len(v) for v in extra["runs"].values())
                    raw["runs"].update(extra["runs"])
                    raw["interrupted"] = extra["interrupted"]
            raws[i] = raw if raws[i] is None else merge(raws[i], raw)
            if raw["interrupted"]:
                stopped = "interrupted"
                break
        summaries = [summarize(r) for r in raws if r is not None]
        rows = comparisons(summaries, raws) if len(summaries) == len(raws) else []
        batch += 1
        if stopped or not until_significant:
            break
        if any(r["significant"] for r in rows):
            stopped = "significant"
            break
        if batch * n >= max_games:
            stopped = "cap"
            break
    return {"summaries": summaries, "comparisons": rows, "stopped": stopped, "raws": raws, "batches": batch}


def expected_games(games_list: Sequence, n: int, bots, skill) -> int:
    """The games of one batch over every file, restricted play left out (its labels come from play)."""
    return sum(_runs_per_game(g, bots, skill, ()) * n for g in games_list)


def _runs_per_game(game, bots, skill, labels) -> int:
    runs = 1 + len(labels)
    if skill:
        runs += game.players + (1 if any(b != skill[1] for b in bots) else 0)
    return runs


def _batch_seed(seed: int, batch: int, n: int, game, skill, paired: bool) -> int:
    """The first seed of a batch: batches never share a seed, whatever runs a batch holds."""
    span = n * (1 + (game.players if skill and not paired else 0))
    return seed + batch * span
