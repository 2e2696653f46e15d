"""Rule coverage: how often each branch of each `if` and each alternative of each `chooses` was reached.

The compiler records where each such rule starts (`Program.rule_points`). `instrument(game)` gives a
twin `Game` compiled again with counting (`emit_program(…, counting=True)`): its generated code
adds one to a counter at each rule it reaches and at each alternative it offers, and runs as fast
as the plain game otherwise. The plain game is untouched, so coverage costs nothing when it is off.
Counting is kept only while the real game moves (`Coverage.on`): what runs while it is off (a bot's
own playouts on clones of the twin's states) is taken back when it is switched on again.
"""

from __future__ import annotations

from functools import lru_cache

from ..compiler.emit.build import emit_program
from ..runtime import bet_counts, pots
from ..runtime.engine import Game


class Coverage:
    """Counters for one instrumented game: hits per rule, times offered per choice alternative."""

    def __init__(self, game: Game):
        self.plain = game
        program = _counting_program(game)
        self.points = list(program.rule_points)
        # what the twin's code counts into: a decision a whole-game run offers and takes at once
        # counts once, in `taken`, which is both hits and offered (`compiler/emit/choose.py`)
        self._live = (program.hits, program.offered, program.taken)
        for counts in self._live:  # a new Coverage of a game starts again from zero
            counts[:] = [0] * len(counts)
        self._kept = tuple(list(counts) for counts in self._live)  # the counts while counting is off
        self._on = False
        self.game = Game(program, game.symbols, game.players, game.options, game.path, game.source_hash)

    @property
    def on(self) -> bool:
        """Whether what the twin game runs now counts. Switched off, the counts so far are kept
        aside; switched on again, they are put back, and what ran in between is forgotten."""
        return self._on

    @on.setter
    def on(self, value: bool) -> None:
        if value and not self._on:
            for live, kept in zip(self._live, self._kept):
                live[:] = kept
        elif not value and self._on:
            self._kept = tuple(list(counts) for counts in self._live)
        self._on = bool(value)

    @property
    def hits(self) -> list:
        hits, _, taken = self._live if self._on else self._kept
        return [h + t for h, t in zip(hits, taken)]

    @property
    def offered(self) -> list:
        _, offered, taken = self._live if self._on else self._kept
        return [o + t for o, t in zip(offered, taken)]

    def counts(self) -> tuple:
        """(hits, offered) as tuples, in the order of `entries`."""
        return tuple(self.hits), tuple(self.offered)

    def entries(self) -> list:
        """One dict per rule, in file order (see `coverage_entries`)."""
        return coverage_entries(self.points, self.hits, self.offered)


def coverage_entries(points, hits, offered) -> list:
    """One dict per rule point, in file order: file, line, kind, label, hits (offered for choices);
    a betting round is one entry (kind `bets`, hits: the rounds begun) with its `parts`; an
    alternative of a card and a pile (`… and a pile k from column`), which the engines offer pile by
    pile, is one entry for the alternative as written, with each pile's counts in `piles`."""
    out = []
    rounds = {span: i for i, (kind, span, _, _) in enumerate(points) if kind == bet_counts.KINDS[0]}
    piles = _pile_points(points, rounds)
    for i, (kind, span, pc, extra) in enumerate(points):
        if span in rounds and i != rounds[span]:  # a part of a betting round: in its entry
            continue
        group = piles.get((span, extra[0])) if kind == "choose" and extra is not None else None
        if group is not None and i != group[0]:  # a pile of an alternative: in its entry
            continue
        line, label = rule_text(kind, span)
        entry = {"file": span.file, "line": line, "kind": kind, "label": label, "hits": hits[i]}
        if kind == "choose":
            entry["offered"] = offered[i]
        if group is not None:
            entry["hits"], entry["offered"] = sum(hits[j] for j in group), sum(offered[j] for j in group)
            entry["piles"] = [{"pile": k, "hits": hits[j], "offered": offered[j]} for k, j in enumerate(group, 1)]
        if span in rounds:
            entry["parts"] = betting_parts(points, hits, offered, i)
        out.append((span.file, line, span.column, entry))
    return [e for *_, e in sorted(out, key=lambda t: t[:3])]


def _pile_points(points, rounds: dict) -> dict:
    """(span, choice) -> the rule points of an alternative written once and offered pile by pile
    (the lowering makes one alternative per pile, in pile order, all with the span as written)."""
    found: dict = {}
    for i, (kind, span, _, extra) in enumerate(points):
        if kind == "choose" and extra is not None and span not in rounds:
            found.setdefault((span, extra[0]), []).append(i)
    return {key: group for key, group in found.items() if len(group) > 1}


# ------------------------------------------------------------------ betting rounds

def betting_parts(points, hits, offered, first: int) -> list:
    """The parts of the betting round whose rule points start at `first` (`runtime/bet_counts.py`),
    in the order they happen: blinds posted (if it has blinds), each decision (hits: chosen; offered), all-ins, rounds
    won by folds."""
    span = points[first][1]
    decisions = [({"part": pots.DECISIONS[extra[1]], "hits": hits[i], "offered": offered[i]})
                 for i, (kind, s, _, extra) in enumerate(points) if kind == "choose" and s == span]
    k = bet_counts
    blinds = points[first + k.BLINDS][3]  # (a round without blinds has none to count)
    return ([{"part": "blinds posted", "hits": hits[first + k.BLINDS]}] * bool(blinds) + decisions
            + [{"part": "all in", "hits": hits[first + k.ALL_IN]},
               {"part": "won by folds", "hits": hits[first + k.WON_BY_FOLDS]}])


def choice_entries(entries: list) -> list:
    """The entries of a coverage list that are alternatives of a choice, a betting round's
    decisions among them (as `choose` entries labelled `LABEL: fold`)."""
    out = []
    for e in entries:
        if e["kind"] == "choose":
            out.append(e)
        for part in e.get("parts", ()):
            if "offered" in part:
                out.append({**{k: v for k, v in e.items() if k != "parts"}, "kind": "choose",
                            "label": f"{e['label']}: {part['part']}", "hits": part["hits"], "offered": part["offered"]})
    return out


def merge_entries(a: dict, b: dict) -> dict:
    """Two coverage entries of the same rule (two batches of games) as one."""
    out = dict(a, hits=a["hits"] + b["hits"], offered=(a.get("offered") or 0) + (b.get("offered") or 0))
    for detail in ("parts", "piles"):
        if detail in a:
            out[detail] = [dict(p, **{f: p[f] + q[f] for f in ("hits", "offered") if f in p})
                           for p, q in zip(a[detail], b[detail])]
    return out


@lru_cache(maxsize=64)
def _source_lines(path: str) -> tuple:
    from ..lang.files import read_source  # bounded, regular files only: the rule files the game was loaded from

    text, _ = read_source(path)
    return tuple(text.splitlines()) if text is not None else ()


def rule_text(kind: str, span) -> tuple:
    """(line, the rule as written): an `if`/`elif` condition, `else`, or a choice's alternative."""
    lines = _source_lines(span.file)
    if not lines or not 1 <= span.line <= len(lines):
        return span.line, kind
    if kind in ("if", "elif"):
        if span.end_line == span.line:
            text = lines[span.line - 1][span.column - 1:span.end_column - 1]
        else:
            text = lines[span.line - 1][span.column - 1:]
        return span.line, f"{kind} {text.strip()}"
    if kind == "else":
        # the span is the else block's first statement; `else` is on its line or above it
        for n in range(span.line, 0, -1):
            if lines[n - 1].strip().startswith("else"):
                return n, "else"
        return span.line, "else"
    text = lines[span.line - 1][span.column - 1:].strip()
    return span.line, text[:-1] if text.endswith(":") else text


@lru_cache(maxsize=8)
def _counting_program(game: Game):
    """The game compiled again with counters, once per game (a simulation makes a Coverage per batch),
    with the game's own passes."""
    return emit_program(game.program.lowered, counting=True, passes=getattr(game.program, "passes", None))


def instrument(game: Game) -> Coverage:
    """Counters and a counting twin of `game` (`coverage.game`). The twin is compiled once per game:
    a new Coverage of the same game starts its counts again, so use one at a time."""
    return Coverage(game)
