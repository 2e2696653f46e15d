"""What makes a game good, measured on seeded games: length, choice, drama, seat fairness, skill.

Each measure is defined, with its formula, in docs/simulation.md ("The designer's workbench"). The
games are played by `simulate` with a record hook (`Recorder`) that counts the legal actions of every
decision, keeps the scores at the end of every round, may cap a game's length, and may restrict one
seat to a single action label (restricted play). `collect` plays one batch of seeds and keeps every
game's record; `merge` joins batches; `summarize` turns the records into measures with intervals.
Everything depends only on the seeds, never on `jobs`: records are kept in seed order.
"""

from __future__ import annotations

import math
import random
from typing import Callable, Optional, Sequence

from .coverage import choice_entries, merge_entries
from .simulate import _action_key, simulate
from .stats import bootstrap_ci, mean_ci, seat_equality, wilson

RECORDER = "cardlang.play.measures:Recorder"
RARE = 0.01  # an option chosen in fewer than 1% of the decisions that offered it is "almost never taken"
SAMPLE_LIMIT = 2000  # rounds of scores kept per game: beyond, only the final scores are (bounded memory)


class Recorder:
    """The record hook of one game (see `simulate.play_one`): legal actions, scores by round, a cap."""

    def __init__(self, game, seed: int, cap: int = 0, restrict: str = ""):
        self.cap, self.restrict = cap, restrict
        self.seat = seed % game.players  # the restricted seat turns with the seed
        self.rng = random.Random(seed * 7919 + 17)
        self.decisions = self.legal = self.forced = self.used = 0
        self.round = 1
        self.trail: list = []
        self.stop = False

    def decide(self, state, seat: int, action: int) -> int:
        """Counts the decision; a restricted seat plays an action with its label whenever one is legal."""
        legal = state.legal_action_ids()
        self.decisions += 1
        self.legal += len(legal)
        self.forced += len(legal) == 1
        if self.restrict and seat == self.seat:
            allowed = [a for a in legal if _action_key(state, a) == self.restrict]
            if allowed:
                self.used += 1
                action = allowed[self.rng.randrange(len(allowed))] if len(allowed) > 1 else allowed[0]
        if self.cap and self.decisions >= self.cap:
            self.stop = True
        return action

    def after(self, state) -> None:
        """Keeps the scores when a round has ended (the engine's round counter moved on)."""
        if state.round != self.round and not state.is_terminal():
            self.round = state.round
            if len(self.trail) < SAMPLE_LIMIT:
                self.trail.append(list(state.scores()))

    def result(self, state) -> dict:
        """The game's record: counts, the scores at each round's end and at the end, capped or not."""
        trail = self.trail + [list(state.scores())]
        return {"legal": self.legal, "forced": self.forced, "decisions": self.decisions, "trail": trail,
                "capped": not state.is_terminal(), "used": self.used, "seat": self.seat}


# ------------------------------------------------------------------------------ playing
def _bots_with(strong: str, weak: str, seat: int, players: int) -> list:
    return [strong if s == seat else weak for s in range(players)]


def plan(game, games: int, bots: Sequence[str], skill: Optional[tuple], restricted: Sequence[str],
         paired: bool) -> list:
    """The runs of one batch: (kind, key, bots, seed offset, restriction), in a fixed order."""
    n = game.players
    runs = [("main", None, tuple(bots), 0, "")]
    if skill:
        strong, weak = skill
        if any(b != weak for b in bots):
            runs.append(("baseline", None, (weak,), 0, ""))
        for s in range(n):
            runs.append(("skill", s, tuple(_bots_with(strong, weak, s, n)), 0 if paired else (s + 1) * games, ""))
    for label in restricted:
        runs.append(("restricted", label, (skill[1] if skill else bots[0],), 0, label))
    return runs


def collect(game, games: int, seed: int, bots: Sequence[str] = ("random",), skill: Optional[tuple] = None,
            restricted: Sequence[str] = (), paired: bool = False, cap: int = 0, jobs: int = 1,
            progress: Optional[Callable[[int], None]] = None, kinds: Sequence[str] = (),
            cluster: Optional[str] = None) -> dict:
    """Plays one batch of `games` seeds from `seed` for every run of `plan`: the raw records.

    `skill` is (strong bot, weak bot); `restricted` lists action labels to try in restricted play.
    `kinds` plays only those runs of the plan; `jobs` and `cluster` are passed to `simulate`. Ctrl-C keeps the games finished and marks the batch
    `interrupted`.
    """
    raw = {"players": game.players, "games": games, "seed": seed, "paired": paired, "cap": cap,
           "bots": [bots[s % len(bots)] for s in range(game.players)], "skill": list(skill) if skill else None,
           "runs": {}, "coverage": None, "interrupted": False}
    done = 0
    for kind, key, run_bots, offset, label in plan(game, games, bots, skill, restricted, paired):
        if kinds and kind not in kinds:
            continue
        record = (RECORDER, (cap, label))
        tick = (lambda d, base=done: progress(base + d)) if progress else None
        try:
            stats = simulate(game, games, seed + offset, run_bots, jobs=jobs, cluster=cluster, per_game=True,
                             record=record, progress=tick, coverage=kind == "main")
        except KeyboardInterrupt:
            raw["interrupted"] = True
            break
        raw["runs"][_run_name(kind, key)] = stats["per_game"]
        if kind == "main":
            raw["coverage"] = stats.get("coverage")
            raw["actions"] = {a["label"]: a["count"] for a in stats["actions"]}
        done += stats["games"]
        if stats["interrupted"]:
            raw["interrupted"] = True
            break
    return raw


def _run_name(kind: str, key) -> str:
    return kind if key is None else f"{kind}:{key}"


def merge(first: dict, more: dict) -> dict:
    """Two batches of the same runs as one (games of the second follow those of the first)."""
    out = dict(first)
    out["games"] = first["games"] + more["games"]
    out["runs"] = {k: first["runs"].get(k, []) + more["runs"].get(k, [])
                   for k in list(first["runs"]) + [k for k in more["runs"] if k not in first["runs"]]}
    if first.get("coverage") and more.get("coverage"):
        out["coverage"] = [merge_entries(a, b) for a, b in zip(first["coverage"], more["coverage"])]
    actions = dict(first.get("actions") or {})
    for k, v in (more.get("actions") or {}).items():
        actions[k] = actions.get(k, 0) + v
    out["actions"] = actions
    out["interrupted"] = first["interrupted"] or more["interrupted"]
    return out


def option_labels(raw: dict, limit: int = 8) -> list:
    """The labels of options (not card choices) taken in the main run, most frequent first."""
    actions = raw.get("actions") or {}
    labels = [k for k, _ in sorted(actions.items(), key=lambda kv: (-kv[1], kv[0])) if "a card" not in k]
    return labels[:limit]


# ------------------------------------------------------------------------------ measures
def lead_story(trail: Sequence[Sequence[float]], winners: Sequence[int]) -> Optional[tuple]:
    """(lead changes, when the winner leads for good as a share of the rounds, decided in the last round).

    The leader after a round is the one seat ahead of all others in the direction the winner's final
    score shows (highest, or lowest if the winner ends lowest); a tie has no leader. A lead change is
    a new leader after a round that had another. None when the game has fewer than two rounds, no
    single winner, or a winner not alone at the top (or bottom) of the final scores.
    """
    if len(trail) < 2 or len(winners) != 1:
        return None
    w = winners[0]
    final = trail[-1]
    others = [v for s, v in enumerate(final) if s != w]
    if not others:
        return None
    if final[w] > max(others):
        sign = 1
    elif final[w] < min(others):
        sign = -1
    else:
        return None

    def leader(scores):
        best = max(sign * v for v in scores)
        top = [s for s, v in enumerate(scores) if sign * v == best]
        return top[0] if len(top) == 1 else None

    leaders = [leader(t) for t in trail]
    changes, last = 0, None
    for lead in leaders:
        if lead is not None:
            if last is not None and lead != last:
                changes += 1
            last = lead
    good = len(leaders)
    while good > 0 and leaders[good - 1] == w:
        good -= 1
    rounds = len(leaders)
    return changes, (good + 1) / rounds, good + 1 == rounds


def _mean_entry(values: Sequence[float], unit: str = "") -> dict:
    n = len(values)
    mean = math.fsum(values) / n if n else 0.0
    sd = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    return {"kind": "mean", "value": mean, "ci95": mean_ci(values), "n": n, "sd": sd,
            "min": min(values) if n else None, "max": max(values) if n else None, "unit": unit}


def _rate_entry(successes: int, n: int) -> dict:
    return {"kind": "rate", "value": successes / n if n else 0.0, "ci95": wilson(successes, n), "n": n,
            "successes": successes}


def _skill_value(groups) -> Optional[float]:
    pairs = [p for g in groups for p in g]
    if not pairs:
        return None
    w = math.fsum(p[0] for p in pairs) / len(pairs)
    e = math.fsum(p[1] for p in pairs) / len(pairs)
    return None if e >= 1 else (w - e) / (1 - e)


def _skill_entry(groups: list, paired: bool, seed: int) -> Optional[dict]:
    """Skill (or restricted-play balance) from (won, expected) pairs grouped by what stays together."""
    pairs = [p for g in groups for p in g]
    if not pairs:
        return None
    value, ci, se = bootstrap_ci(groups, _skill_value, seed=seed)
    if value is None:
        return None
    w = math.fsum(p[0] for p in pairs) / len(pairs)
    e = math.fsum(p[1] for p in pairs) / len(pairs)
    entry = {"kind": "skill", "value": value, "ci95": ci, "se": se, "n": len(pairs), "win_rate": w, "expected": e}
    if paired and len(groups) > 1:
        means = [math.fsum(p[0] for p in g) / len(g) for g in groups]
        var_all = _var([p[0] for p in pairs]) / len(pairs)
        var_paired = _var(means) / len(groups)
        entry["variance_reduction"] = 1 - var_paired / var_all if var_all > 0 else 0.0
    return entry


def _var(values) -> float:
    n = len(values)
    if n < 2:
        return 0.0
    mean = math.fsum(values) / n
    return math.fsum((v - mean) ** 2 for v in values) / (n - 1)


def _won(game: dict, seat: int) -> float:
    return 1.0 if seat in game["winners"] else 0.0


def _skill(raw: dict) -> Optional[dict]:
    runs, n = raw["runs"], raw["players"]
    base = runs.get("baseline", runs.get("main"))
    if not raw.get("skill") or not base:
        return None
    by_seed = {g["seed"]: g for g in base}
    order = [g["seed"] for g in base]
    deals: dict = {}
    for s in range(n):
        for i, g in enumerate(runs.get(f"skill:{s}", [])):
            baseline = by_seed.get(g["seed"]) if raw["paired"] else by_seed.get(order[i]) if i < len(order) else None
            if baseline is None:
                continue
            key = g["seed"] if raw["paired"] else (s, i)
            deals.setdefault(key, []).append((_won(g, s), _won(baseline, s)))
    groups = [deals[k] for k in sorted(deals, key=str)]
    if raw["paired"]:  # a deal counts only with every rotation played (Ctrl-C may cut a rotation short)
        groups = [g for g in groups if len(g) == n]
    entry = _skill_entry(groups, raw["paired"], raw["seed"])
    if entry is not None:
        entry.update(strong=raw["skill"][0], weak=raw["skill"][1])
    return entry


def _restricted(raw: dict) -> list:
    runs = raw["runs"]
    base = runs.get("baseline", runs.get("main"))
    by_seed = {g["seed"]: g for g in base or ()}
    out = []
    for name, games in runs.items():
        if not name.startswith("restricted:"):
            continue
        groups = [[(_won(g, g["record"]["seat"]), _won(by_seed[g["seed"]], g["record"]["seat"]))]
                  for g in games if g["seed"] in by_seed]
        entry = _skill_entry(groups, False, raw["seed"])
        if entry is not None:
            used = sum(g["record"]["used"] for g in games)
            entry.update(label=name.split(":", 1)[1], used_per_game=used / len(games))
            out.append(entry)
    return out


def summarize(raw: dict) -> dict:
    """Every measure of the raw records of one game: each with its value, 95% interval and size."""
    games = raw["runs"].get("main", [])
    n = raw["players"]
    records = [g["record"] for g in games]
    decided = [g for g in games if not g["record"]["capped"]]
    stories = [s for s in (lead_story(g["record"]["trail"], g["winners"]) for g in decided) if s is not None]
    wins = [sum(1 for g in decided if s in g["winners"]) for s in range(n)]
    m: dict = {
        "decisions": _mean_entry([r["decisions"] for r in records], "decisions"),
        "rounds": _mean_entry([g["rounds"] for g in games], "rounds"),
        "capped": _rate_entry(sum(r["capped"] for r in records), len(records)),
        "legal_actions": _mean_entry([r["legal"] / r["decisions"] for r in records if r["decisions"]], "actions"),
        "forced_share": _mean_entry([r["forced"] / r["decisions"] for r in records if r["decisions"]], "share"),
        "lead_changes": _mean_entry([s[0] for s in stories], "changes"),
        "lead_for_good": _mean_entry([s[1] for s in stories], "share of rounds"),
        "decided_late": _rate_entry(sum(s[2] for s in stories), len(stories)),
        "no_winner": _rate_entry(sum(1 for g in decided if not g["winners"]), len(games)),
    }
    seats = [{"seat": s, "bot": raw["bots"][s], **_rate_entry(wins[s], len(games))} for s in range(n)]
    rates = [e["value"] for e in seats]
    m["seat_spread"] = {"kind": "spread", "value": max(rates) - min(rates) if rates else 0.0, "n": len(games),
                        "p_equal": seat_equality(wins, seed=raw["seed"]),
                        "test": "exact multinomial (Monte Carlo, 2000 draws) of equal win rates by seat"}
    skill = _skill(raw)
    if skill is not None:
        m["skill"] = skill
    coverage = raw.get("coverage") or []
    choices = choice_entries(coverage)  # (a betting round's decisions among them)
    rare = [dict(e) for e in choices if (e.get("offered") or 0) > 0 and e["hits"] < RARE * e["offered"]]
    unoffered = [dict(e) for e in choices if not e.get("offered")]
    return {"games": len(games), "players": n, "seed": raw["seed"], "bots": raw["bots"], "paired": raw["paired"],
            "cap": raw["cap"], "interrupted": raw["interrupted"], "measures": m, "seats": seats,
            "restricted": _restricted(raw), "rare_options": rare, "never_offered": unoffered,
            "rules_never_reached": [dict(e) for e in coverage if e["hits"] == 0]}


def samples(raw: dict, name: str) -> list:
    """The per-game values behind a mean measure, for rank tests between files."""
    games = raw["runs"].get("main", [])
    records = [g["record"] for g in games]
    if name == "decisions":
        return [r["decisions"] for r in records]
    if name == "rounds":
        return [g["rounds"] for g in games]
    if name == "legal_actions":
        return [r["legal"] / r["decisions"] for r in records if r["decisions"]]
    if name == "forced_share":
        return [r["forced"] / r["decisions"] for r in records if r["decisions"]]
    stories = [s for s in (lead_story(g["record"]["trail"], g["winners"]) for g in games if not g["record"]["capped"])
               if s is not None]
    if name == "lead_changes":
        return [s[0] for s in stories]
    if name == "lead_for_good":
        return [s[1] for s in stories]
    raise KeyError(name)
