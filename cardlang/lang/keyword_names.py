"""E017 from the parser: a keyword of the language written where the rules mean a name.

`let left = 3` parses (after `let` only a name can come), but every later `left` is read as the
keyword of `left of p`, and the error there would say "expected `of`". A phase named `score` is
declared, but a line `score` is not a statement. These functions turn such syntax errors into one
message that says the name is a keyword, using the grammar's own words (`grammar.keywords()`).
"""

from __future__ import annotations

import re
from typing import Optional

from .diagnostics import Diagnostic, Span
from .grammar import keywords

# where a rule file gives something a name: the name is the group `name`
_DECLARING = (r"^\s*(?:let|var|per\s+player\s+var|phase|define|zone|option|order|ranking)\s+(?P<name>\w+)",
              r"\bfor\s+each\s+(?P<name>\w+)\s+in\b", r"\b(?:card|number)\s+(?P<name>\w+)\s+from\b")
_PARAMS = re.compile(r"^\s*(?:phase|define)\s+\w+\s*\(([^)]*)\)")


def _words() -> frozenset:
    return frozenset(keywords().values())


def declared(lines: list, word: str) -> Optional[int]:
    """The first line (from 1) that gives `word` as a name, if any."""
    for i, text in enumerate(lines, 1):
        code = text.split("#", 1)[0]
        for pattern in _DECLARING:
            for m in re.finditer(pattern, code):
                if m.group("name") == word:
                    return i
        m = _PARAMS.match(code)
        if m and word in re.findall(r"(\w+)\s*(?::\s*\w+)?\s*(?:,|$)", m.group(1)):
            return i
    return None


def _diagnostic(word: str, span: Span, line: Optional[int]) -> Diagnostic:
    where = f" (line {line} names something `{word}`)" if line is not None else ""
    return Diagnostic("E017", "error", f"`{word}` is a keyword of the language, so it cannot be a name{where}",
                      span, help=f"rename it where it is declared and where it is used (`{word}_`, or a word "
                                 "that says what it holds)")


def keyword_as_name(tok, accepted, lines: list, span: Span) -> Optional[Diagnostic]:
    """E017 for a syntax error at `tok` that comes from a keyword used as a name, else None: the token
    is a keyword where a name could stand, or the word before it is a keyword the file declares."""
    words = _words()
    value = str(tok)
    if value in words and "NAME" in accepted:
        return _diagnostic(value, span, declared(lines, value))
    line = lines[span.line - 1] if 1 <= span.line <= len(lines) else ""
    # the parser took the name for its keyword and went on: the error shows a word or two later
    for m in reversed(list(re.finditer(r"\w+", line[: span.column - 1]))):
        if m.group(0) in words:
            decl = declared(lines, m.group(0))
            if decl is not None and decl != span.line:
                start = m.start(0) + 1
                return _diagnostic(m.group(0), Span(span.file, span.line, start, span.line, start + len(m.group(0))),
                                   decl)
    return None


def keyword_in_text(text: str, lines: Optional[list], span: Span) -> Optional[Diagnostic]:
    """E017 for `{left}` in a text, where `left` is a keyword, else None."""
    word = text.strip()
    if word in _words():
        return _diagnostic(word, span, declared(lines, word) if lines else None)
    return None
