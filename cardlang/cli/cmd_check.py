"""`cardlang check [--format text|json|github|sarif] [--strict] FILE_OR_DIR...`: every problem of every
file, compiler style, with exit codes CI can use.

Exit status: 0 when no file has errors (warnings allowed unless `--strict`); 1 when a file has
errors (or warnings, with `--strict`); 2 on a usage error (a path that does not exist, no `.cards`
file found) or an input that cannot be read as text (E005).
"""

from __future__ import annotations

import os
import sys
from typing import Callable, Iterable, Optional

import click

from ..lang.diagnostics import Diagnostic, Span
from ..lang.report import RENDERERS, Report, render_text

FORMATS = ("text", "json", "github", "sarif")


def display_path(path: str) -> str:
    """A path as printed: relative to the working directory when it lies under it, else as given."""
    try:
        rel = os.path.relpath(path)
    except ValueError:  # another drive (Windows)
        return path
    if rel == os.pardir or rel.startswith(os.pardir + os.sep):
        return path
    return rel


def find_files(paths: Iterable[str]) -> tuple[list, list]:
    """The files to check (a folder means its `*.cards` files, recursively, sorted by path, leaving out
    folders whose name starts with a dot) and the paths that do not exist."""
    files, missing = [], []
    for p in paths:
        if os.path.isdir(p):
            found = []
            for root, dirs, names in os.walk(p):
                dirs[:] = [d for d in dirs if not d.startswith(".")]  # .git, .venv, …
                found += [os.path.join(root, n) for n in names if n.endswith(".cards")]
            files += sorted(found)
        elif os.path.exists(p):
            files.append(p)
        else:
            missing.append(p)
    seen: set = set()
    unique = []
    for f in files:
        key = os.path.normcase(os.path.abspath(f))
        if key not in seen:
            seen.add(key)
            unique.append(f)
    return unique, missing


class _Session:
    """Reads and parses each file at most once per run (variants share their bases)."""

    def __init__(self):
        self.sources: dict = {}  # path -> text or None
        self.parsed: dict = {}

    def parse_file(self, path: str):
        from ..load import read_source
        from ..lang.parse import parse

        key = os.path.normpath(path)
        if key not in self.parsed:
            source, diagnostics = read_source(path)
            self.sources[path] = source
            if source is None:
                self.parsed[key] = (None, diagnostics)
            else:
                self.parsed[key] = _guarded(path, lambda: parse(source, path))
        return self.parsed[key]

    def check_file(self, path: str) -> list:
        from ..lang.check import check
        from ..lang.variants import resolve

        module, diagnostics = self.parse_file(path)
        if module is None:
            return list(diagnostics)

        def rest():
            merged, more = resolve(module, self.parse_file)
            # a variant's own mistakes (an option its base lacks) leave a sound merge: check on;
            # a base that is missing or broken does not
            own = all(os.path.normpath(d.span.file) == os.path.normpath(path) for d in more if d.is_error)
            if any(d.is_error for d in more) and (merged is module or not own):
                return None, more
            return None, more + check(merged)[1]

        return list(diagnostics) + _guarded(path, rest)[1]


def _guarded(path: str, run: Callable) -> tuple:
    """Runs a stage; an input too deep for the checker, or a bug, becomes a diagnostic, never a traceback."""
    here = Span(path, 1, 1, 1, 2)
    try:
        return run()
    except RecursionError:
        return None, [Diagnostic("E006", "error", "this file nests expressions or blocks too deeply to check", here,
                                 help="split deep expressions with `let` or `define`, or nest fewer blocks")]
    except Exception as e:  # noqa: BLE001 - the last line of defence of a command that must not crash
        return None, [Diagnostic("E900", "error", f"the checker failed on this file ({type(e).__name__}: {e})", here,
                                 help="this is a bug in cardlang: please report it with this file")]


def check_paths(paths: Iterable[str]) -> Report:
    """Checks files (folders: their `*.cards` files); the report's paths are as they are printed.

    Raises `click.UsageError` for a path that does not exist or when no file is found."""
    files, missing = find_files(paths)
    if missing:
        raise click.UsageError(f"no such file or folder: {', '.join(missing)}")
    if not files:
        raise click.UsageError("no `.cards` file found in " + ", ".join(paths))
    return check_files(files)


def check_files(files: list) -> Report:
    """Checks each file and collects one report (a diagnostic of a shared base file appears once)."""
    session = _Session()
    report = Report(files=[display_path(f) for f in files])
    seen: set = set()
    for path in files:
        for d in session.check_file(path):
            shown = Diagnostic(d.code, d.severity, d.message,
                               Span(display_path(d.span.file), d.span.line, d.span.column,
                                    d.span.end_line, d.span.end_column), d.help, d.notes)
            key = (shown.code, shown.span, shown.message)
            if key not in seen:
                seen.add(key)
                report.diagnostics.append(shown)
    for path, text in session.sources.items():
        report.sources.setdefault(display_path(path), text)
    return report


def exit_status(report: Report, strict: bool) -> int:
    """0 clean, 1 errors (or warnings when strict), 2 an input that could not be read."""
    if any(d.code == "E005" for d in report.diagnostics):
        return 2
    if report.errors or (strict and report.warnings):
        return 1
    return 0


def _use_color(choice: str) -> bool:
    if choice != "auto":
        return choice == "always"
    if os.environ.get("NO_COLOR"):
        return False
    stream = click.get_text_stream("stdout")
    return bool(getattr(stream, "isatty", lambda: False)())


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("cardlang")
    except Exception:  # noqa: BLE001 - not installed: a checkout
        return "0"


@click.command("check")
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("-f", "--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True,
              help="text for people, json for tools, github for Actions annotations, sarif for code scanning.")
@click.option("--strict", is_flag=True, help="Fail (exit 1) on warnings too.")
@click.option("-q", "--quiet", is_flag=True, help="Text: print only problems and the summary, not the ok lines.")
@click.option("--color", type=click.Choice(["auto", "always", "never"]), default="auto", show_default=True,
              help="Colour the text output (auto: on a terminal, unless NO_COLOR is set).")
def check_command(paths, fmt: str, strict: bool, quiet: bool, color: str) -> None:
    """Check rule files (or folders of `.cards` files, recursively) and report every problem.

    \b
    Exit status: 0 no errors (warnings allowed unless --strict), 1 errors found,
    2 usage error or unreadable input.
    Every code is explained in docs/diagnostics.md.
    """
    report = check_paths(paths)
    if fmt == "text":
        use = _use_color(color)
        click.echo(render_text(report, color=use, quiet=quiet), nl=False, color=use)
    elif fmt == "sarif":
        click.echo(RENDERERS[fmt](report, version=_version()), nl=False)
    else:
        click.echo(RENDERERS[fmt](report), nl=False)
    sys.exit(exit_status(report, strict))
