"""Rule coverage: how often each branch of each `if` and each alternative of each `chooses` was reached.

The compiler records where each such rule starts (`Program.rule_points`). `instrument(game)` gives a
twin `Game` whose program counts those steps; the plain game is untouched, so coverage costs nothing
when it is off. Counting is switched on only while the real game moves (`Coverage.on`), so a bot's
own playouts on the same twin game do not count.
"""

from __future__ import annotations

import copy
from functools import lru_cache
from .engine import Game


class Coverage:
    """Counters for one instrumented game: hits per rule, times offered per choice alternative."""

    def __init__(self, game: Game):
        self.plain = game
        program = game.program
        self.points = list(program.rule_points)
        self.hits = [0] * len(self.points)
        self.offered = [0] * len(self.points)
        self.on = False
        twin = copy.copy(program)
        twin.code = list(program.code)
        index_of_alt = {}
        for i, (kind, span, pc, extra) in enumerate(self.points):
            twin.code[pc] = self._counting(twin.code[pc], i)
            if kind == "choose":
                index_of_alt[extra] = i
        for ci, choice in enumerate(program.chooses):
            points = tuple(index_of_alt.get((ci, ai)) for ai in range(len(choice.alts)))
            twin.code[choice.pc] = self._offering(twin.code[choice.pc], points)
        self.game = Game(twin, game.symbols, game.players, game.options, game.path, game.source_hash)

    def _counting(self, op, i):
        hits = self.hits

        def counted(s):
            if self.on:
                hits[i] += 1
            return op(s)
        return counted

    def _offering(self, op, points):
        offered = self.offered

        def offer(s):
            nxt = op(s)
            if self.on and s.pending is not None:
                for ai in {a >> 16 for a in s.pending[2]}:
                    if points[ai] is not None:
                        offered[points[ai]] += 1
            return nxt
        return offer

    def counts(self) -> tuple:
        """(hits, offered) as tuples, in the order of `entries`."""
        return tuple(self.hits), tuple(self.offered)

    def entries(self) -> list:
        """One dict per rule, in file order (see `coverage_entries`)."""
        return coverage_entries(self.points, self.hits, self.offered)


def coverage_entries(points, hits, offered) -> list:
    """One dict per rule point, in file order: file, line, kind, label, hits (offered for choices)."""
    out = []
    for i, (kind, span, pc, extra) in enumerate(points):
        line, label = rule_text(kind, span)
        entry = {"file": span.file, "line": line, "kind": kind, "label": label, "hits": hits[i]}
        if kind == "choose":
            entry["offered"] = offered[i]
        out.append((span.file, line, span.column, entry))
    return [e for *_, e in sorted(out, key=lambda t: t[:3])]


@lru_cache(maxsize=64)
def _source_lines(path: str) -> tuple:
    try:
        with open(path, encoding="utf-8") as f:
            return tuple(f.read().splitlines())
    except OSError:
        return ()


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


def instrument(game: Game) -> Coverage:
    """Counters and a counting twin of `game` (`coverage.game`)."""
    return Coverage(game)
