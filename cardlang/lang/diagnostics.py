"""Places in source files, the one `Diagnostic` type, and the error raised when a file is not valid."""

from __future__ import annotations

from typing import Iterable, Optional

import attrs

from .snippet import QuotedLines, render_diagnostic  # the one text renderer, shared with `cardlang check`


@attrs.define(frozen=True, slots=True)
class Span:
    """A range of a source file: 1-based line and column of its start and of its end (exclusive)."""

    file: str
    line: int
    column: int
    end_line: int
    end_column: int

    def to(self, other: "Span") -> "Span":
        """The span from the start of this one to the end of `other`."""
        return Span(self.file, self.line, self.column, other.end_line, other.end_column)

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"


@attrs.define(frozen=True, slots=True)
class Diagnostic:
    """One problem found in a file: a stable code, a severity, a lowercase message, where, and help."""

    code: str
    severity: str  # "error" or "warning"
    message: str
    span: Span
    help: Optional[str] = None
    notes: tuple = ()

    @property
    def is_error(self) -> bool:
        """Whether it is an error (not a warning)."""
        return self.severity == "error"


class CardlangError(Exception):
    """A file, an option or a player count that cardlang cannot accept; carries its diagnostics, and the
    text of the rule files that were read (`sources`: the only lines a message may quote)."""

    def __init__(self, diagnostics: Iterable[Diagnostic] = (), message: Optional[str] = None,
                 sources: Optional[dict] = None):
        self.diagnostics = list(diagnostics)
        self.sources = dict(sources or {})
        self.message = message or (self.diagnostics[0].message if self.diagnostics else "invalid input")
        super().__init__(self.message)

    def __str__(self) -> str:
        if not self.diagnostics:
            return self.message
        return "\n".join(render_text(d, self.sources) for d in self.diagnostics)


def did_you_mean(name: str, candidates: Iterable[str]) -> Optional[str]:
    """A `help:` text naming the closest known name, if one is close enough."""
    import difflib  # (here: only a file with a misspelt name needs it)

    close = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.6)
    return f"did you mean `{close[0]}`?" if close else None


def render_text(d: Diagnostic, sources: dict) -> str:
    """`file:line:col: error[CODE]: message`, then the rustc-style block of `cardlang.report` (the
    source line as written, carets under the span, `help:`). Lines come only from `sources` (path ->
    text of a rule file that was read): nothing is read here, so no other file is ever quoted."""
    text = sources.get(d.span.file)
    if isinstance(text, str):
        text = QuotedLines(text, [d.span.line])  # lines as the parser counts them
    lines = None if d.code == "E005" else text  # an unreadable file is not shown
    return render_diagnostic(d, lines)
