"""The rustc-style text of one diagnostic: the `file:line:col: error[CODE]: message` line, the source
line as written with carets under the span, and its `note:` / `help:` lines.

It knows nothing of `Diagnostic` but its fields, so that `diagnostics` (the type, and the error that
prints itself) and `report` (every renderer of a whole check) both use it without importing each other.
"""

from __future__ import annotations

from typing import Optional

from .untrusted import visible

MAX_SHOWN_LINE = 160  # a longer source line is shown as a window around the span

_STYLES = {
    "error": ("red", True), "warning": ("yellow", True), "gutter": ("blue", True),
    "help": ("cyan", True), "ok": ("green", False), "bold": (None, True),
}


def paint(text: str, style: str, color: bool) -> str:
    """`text` in the style's colour and weight (ANSI codes), or as it is without `color`."""
    if not color:
        return text
    fg, bold = _STYLES[style]
    codes = (["1"] if bold else []) + ([str(30 + ["black", "red", "green", "yellow", "blue", "magenta",
                                                     "cyan", "white"].index(fg))] if fg else [])
    return f"\x1b[{';'.join(codes)}m{text}\x1b[0m"


def _printable(line: str) -> str:
    """The line as written, except each character `visible` would escape (a control character
    could drive the terminal, a bidi override reorder the line): one `\ufffd` each, so that the
    carets stay under their columns."""
    if line.isprintable():
        return line
    return "".join(c if c == "\t" or visible(c) == c else "\ufffd" for c in line)


def _window(line: str, start: int, end: int) -> tuple[str, int, int]:
    """A long line cut to a window around [start, end) (0-based); returns the text and new bounds."""
    if len(line) <= MAX_SHOWN_LINE:
        return line, start, end
    lo = max(0, min(start - 40, len(line) - MAX_SHOWN_LINE))
    hi = min(len(line), lo + MAX_SHOWN_LINE)
    prefix = "…" if lo > 0 else ""
    suffix = "…" if hi < len(line) else ""
    shown = prefix + line[lo:hi] + suffix
    offset = len(prefix) - lo
    return shown, max(len(prefix), start + offset), min(len(shown) - len(suffix), end + offset)


def _source(line: str, color: bool) -> str:
    """A quoted source line, coloured by the `.cards` Pygments lexer when colour is on."""
    if not color:
        return line
    try:
        from pygments import highlight
        from pygments.formatters import TerminalFormatter
        from pygments.lexers import get_lexer_by_name
        from pygments.util import ClassNotFound
    except ImportError:  # pragma: no cover - Pygments comes with rich
        return line
    try:  # the lexer is a tool above this layer: Pygments finds it by its name (the package's entry point)
        lexer = get_lexer_by_name("cards")
    except ClassNotFound:  # pragma: no cover - a checkout run without installing: no colour
        return line
    return highlight(line, lexer, TerminalFormatter()).rstrip("\n")


class QuotedLines:
    """The lines of a file that its diagnostics quote, by index, and how many lines it has: only those
    are cut out of the text (a list of every line of a 9 MiB file of short lines took 190 MB)."""

    def __init__(self, text: str, wanted):
        self.count = text.count("\n") + 1
        self.kept: dict = {}
        at, line = 0, 1
        for n in sorted(set(wanted)):
            if not 1 <= n <= self.count:
                continue
            while line < n:
                at = text.index("\n", at) + 1
                line += 1
            end = text.find("\n", at)
            self.kept[n - 1] = text[at:] if end < 0 else text[at:end]

    def __len__(self) -> int:
        return self.count

    def __getitem__(self, index: int) -> str:
        return self.kept[index]


def render_diagnostic(d, lines: Optional[list], color: bool = False) -> str:
    """One diagnostic: the `file:line:col: error[CODE]: message` line every editor reads, then the
    rustc-style block: `--> file:line:col`, the source line as written with carets under the whole
    span, and `= help:` / `= note:` lines."""
    s = d.span
    file = visible(s.file)  # a file name, a message quoting a text, a help: each shown as text
    sev = d.severity if d.severity in ("error", "warning") else "error"
    head = (f"{file}:{s.line}:{s.column}: " + paint(f"{sev}[{d.code}]", sev, color)
            + ": " + paint(visible(d.message), "bold", color))
    number = str(s.line)
    pad = " " * len(number)
    out = [head, f"{pad}{paint('-->', 'gutter', color)} {file}:{s.line}:{s.column}"]
    bar = paint("|", "gutter", color)
    if lines is not None and 1 <= s.line <= len(lines):
        line = lines[s.line - 1].rstrip("\r")
        start = min(max(0, s.column - 1), len(line))
        end = s.end_column - 1 if s.end_line == s.line else len(line.rstrip())
        end = max(start + 1, min(end, max(len(line), start + 1)))
        shown, start, end = _window(line, start, end)
        shown = _printable(shown)  # (after the cut: a 9 MiB line took 4.5 s character by character)
        under = "".join("\t" if c == "\t" else " " for c in shown[:start])
        out.append(f"{pad} {bar}")
        out.append(f"{paint(number, 'gutter', color)} {bar} {_source(shown, color)}".rstrip())
        out.append(f"{pad} {bar} {under}" + paint("^" * max(1, end - start), sev, color))
    for note in d.notes:
        out.append(f"{pad} = note: {visible(note)}")
    if d.help:
        out.append(f"{pad} = " + paint("help", "help", color) + f": {visible(d.help)}")
    return "\n".join(out)
