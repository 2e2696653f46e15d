"""Renderers over one list of `Diagnostic`s: text (rustc style), JSON, GitHub annotations, SARIF.

Every renderer takes a `Report`: the files that were checked, their diagnostics (paths already as
they should be printed) and the source text of each file, so that nothing is read twice and a
file that could not be read is never shown.
"""

from __future__ import annotations

import json
from typing import Optional

import attrs

from .untrusted import visible, visible_json
from .codes import CODES, title
from .diagnostics import Diagnostic
from .snippet import QuotedLines, paint, render_diagnostic

__all__ = ["Report", "render_diagnostic", "render_text", "render_json", "render_github", "render_sarif",
           "RENDERERS", "diagnostic_dict"]

MAX_PER_FILE = 20  # text output: after this many diagnostics of one file, "… and N more"
DOCS_URI = "https://github.com/cardlang/cardlang/blob/main/docs/diagnostics.md"


@attrs.define
class Report:
    """What one `cardlang check` run found: files checked, in order, and every diagnostic."""

    files: list = attrs.Factory(list)
    diagnostics: list = attrs.Factory(list)
    sources: dict = attrs.Factory(dict)  # path -> text (None when it could not be read)

    @property
    def errors(self) -> int:
        """How many diagnostics are errors."""
        return sum(1 for d in self.diagnostics if d.is_error)

    @property
    def warnings(self) -> int:
        """How many diagnostics are warnings."""
        return sum(1 for d in self.diagnostics if not d.is_error)

    def sorted(self) -> list:
        """Diagnostics grouped by file (in the order files were checked), then by position."""
        order = {f: i for i, f in enumerate(self.files)}
        return sorted(self.diagnostics, key=lambda d: (order.get(d.span.file, len(order)), d.span.file,
                                                       d.span.line, d.span.column, d.code))


# ------------------------------------------------------------------------ text
def _source_lines(report: Report, file: str, found: list) -> Optional[object]:
    text = report.sources.get(file)
    if text is None:
        return None
    if isinstance(text, str):
        return QuotedLines(text, [d.span.line for d in found])
    return text


def render_text(report: Report, color: bool = False, quiet: bool = False, limit: int = MAX_PER_FILE) -> str:
    """Every diagnostic, compiler style; "… and N more" after `limit` of one file; then a summary.

    Unless `quiet`, each file without errors gets an `ok` line."""
    out: list = []
    groups: dict = {}
    for d in report.sorted():
        groups.setdefault(d.span.file, []).append(d)
    for file, found in groups.items():
        lines = _source_lines(report, file, found[:limit])
        for d in found[:limit]:
            out += [render_diagnostic(d, lines, color), ""]
        if len(found) > limit:
            out += [f"… and {len(found) - limit} more in {visible(file)} (`--format json` lists them all)", ""]
    if not quiet:
        for f in report.files:
            found = groups.get(f, [])
            if not any(d.is_error for d in found):
                w = len(found)
                out.append(f"{visible(f)}: " + paint("ok", "ok", color) + (f" ({_plural(w, 'warning')})" if w else ""))
    e, w, n = report.errors, report.warnings, len(report.files)
    if e or w or not quiet:
        summary = f"{_plural(e, 'error')}, {_plural(w, 'warning')} in {_plural(n, 'file')}"
        out.append(paint(summary, "error" if e else "warning" if w else "ok", color))
    return "\n".join(out).rstrip("\n") + "\n" if out else ""


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


# ------------------------------------------------------------------------ json
def diagnostic_dict(d: Diagnostic) -> dict:
    """The stable JSON form of one diagnostic (1-based lines and columns; `end_column` exclusive)."""
    s = d.span
    return {
        "code": d.code,
        "severity": d.severity,
        "message": d.message,
        "file": s.file,
        "line": s.line,
        "column": s.column,
        "end_line": s.end_line,
        "end_column": s.end_column,
        "help": d.help,
    }


def render_json(report: Report) -> str:
    """`{"files": [...], "diagnostics": [...]}`: the stable machine-readable form, every diagnostic."""
    data = {"files": list(report.files), "diagnostics": [diagnostic_dict(d) for d in report.sorted()]}
    return visible_json(json.dumps(data, indent=2, ensure_ascii=False)) + "\n"


# ---------------------------------------------------------------------- github
def _gh_data(text: str) -> str:
    # the runner reads `%0A` as a line end of the message; every other control character (the log
    # shows the line to a browser that obeys colour codes) is made visible first
    return "%0A".join(visible(line).replace("%", "%25") for line in text.split("\n"))


def _gh_property(text: str) -> str:
    return _gh_data(text).replace(":", "%3A").replace(",", "%2C")


def render_github(report: Report) -> str:
    """GitHub Actions workflow commands, one `::error …::message` line per diagnostic."""
    out = []
    for d in report.sorted():
        s = d.span
        props = [f"file={_gh_property(s.file)}", f"line={s.line}", f"col={s.column}",
                 f"endLine={s.end_line}", f"endColumn={max(s.column, s.end_column - 1) if s.end_line == s.line else s.end_column}",
                 f"title={_gh_property(f'{d.code} {title(d.code)}')}"]
        message = d.message + (f"\nhelp: {d.help}" if d.help else "")
        kind = "error" if d.is_error else "warning"
        out.append(f"::{kind} {','.join(props)}::{_gh_data(message)}")
    return "\n".join(out) + "\n" if out else ""


# ----------------------------------------------------------------------- sarif
def render_sarif(report: Report, version: str = "0") -> str:
    """SARIF 2.1.0: one run, one rule per known code, one result per diagnostic."""
    codes = sorted(set(CODES) | {d.code for d in report.diagnostics})
    index = {c: i for i, c in enumerate(codes)}
    rules = [{
        "id": c,
        "name": "".join(w.capitalize() for w in title(c).split()),
        "shortDescription": {"text": title(c)},
        "helpUri": f"{DOCS_URI}#{c.lower()}",
        "defaultConfiguration": {"level": "warning" if c.startswith("W") else "error"},
    } for c in codes]
    results = []
    for d in report.sorted():
        s = d.span
        text = d.message + (f"\nhelp: {d.help}" if d.help else "")
        results.append({
            "ruleId": d.code,
            "ruleIndex": index[d.code],
            "level": "error" if d.is_error else "warning",
            "message": {"text": text},
            "locations": [{"physicalLocation": {
                "artifactLocation": {"uri": _uri(s.file), "uriBaseId": "%SRCROOT%"},
                "region": {"startLine": s.line, "startColumn": s.column,
                           "endLine": s.end_line, "endColumn": s.end_column},
            }}],
        })
    data = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "cardlang", "version": version, "informationUri": DOCS_URI,
                                "rules": rules}},
            "originalUriBaseIds": {"%SRCROOT%": {"description": {"text": "the working directory"}}},
            "artifacts": [{"location": {"uri": _uri(f), "uriBaseId": "%SRCROOT%"}} for f in report.files],
            "results": results,
        }],
    }
    return visible_json(json.dumps(data, indent=2, ensure_ascii=False)) + "\n"


def _uri(path: str) -> str:
    from urllib.parse import quote

    return quote(path.replace("\\", "/"))


RENDERERS = {"json": render_json, "github": render_github, "sarif": render_sarif}

