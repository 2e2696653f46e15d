"""`cardlang check [--format text|json|github|sarif] [--strict] [--root DIR] FILE_OR_DIR...`: every
problem of every file, compiler style, with exit codes CI can use (what it reads: docs/security.md).

Exit status: 0 when no file has errors (warnings allowed unless `--strict`); 1 when a file has
errors (or warnings, with `--strict`); 2 on a usage error (a path that does not exist, no `.cards`
file found) or an input that cannot be read as text (E005).
"""

from __future__ import annotations

import os
import stat
import sys
from typing import Iterable, Optional

import click

from ..lang.diagnostics import Diagnostic, Span
from ..lang.files import RULE_SUFFIX, os_problem, file_kind, inside, roots_for
from ..lang.report import RENDERERS, Report, render_text
from ..load import Loader, guarded
from ..lang.untrusted import visible
from .cmd_common import ROOT_HELP

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


def find_files(paths: Iterable[str], root: Optional[str] = None) -> tuple[list, list, list]:
    """The files to check, the paths that do not exist, and a diagnostic for each file of a folder left out.

    A folder means its `*.cards` files, recursively, sorted by path, leaving out folders whose name
    starts with a dot. A file of a folder is checked only if it is a regular file, or a symbolic link
    to one, inside that folder or the root: a pull request can add a link to /dev/zero or to a secret,
    and no folder walk follows it. A path named on the command line is checked whatever it is."""
    files, missing, skipped = [], [], []
    for p in paths:
        if os.path.isdir(p):
            found = []
            for top, dirs, names in os.walk(p):
                dirs[:] = [d for d in dirs if not d.startswith(".")]  # .git, .venv, …
                found += [os.path.join(top, n) for n in names if n.endswith(RULE_SUFFIX)]
            for f in sorted(found):
                problem = _walked_problem(f, p, root)
                if problem is None:
                    files.append(f)
                else:
                    skipped.append(problem)
        elif os.path.lexists(p):
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
    return unique, missing, skipped


def _walked_problem(path: str, folder: str, root: Optional[str]) -> Optional[Diagnostic]:
    """Why a `.cards` file found in a folder is left out, without opening it (None: check it)."""
    here = Span(path, 1, 1, 1, 2)
    real = os.path.realpath(path)
    if os.path.islink(path):
        roots, _ = roots_for(path, root)
        allowed = [os.path.realpath(folder)] + [r for _, r in roots]
        if not any(inside(real, r) for r in allowed):
            return Diagnostic("E007", "error", "skipped: a symbolic link to a file outside the folder checked", here,
                              help="name the file itself on the command line to check it")
    try:
        mode = os.stat(path).st_mode
    except OSError as e:
        return Diagnostic("E005", "error", f"skipped: {os_problem(e)}", here)
    if not stat.S_ISREG(mode):
        return Diagnostic("E005", "error", f"skipped: this is {file_kind(mode)}, not a rule file", here)
    return None


class _Session(Loader):
    """A loader that checks on after a variant's own mistakes, to report as much as it can."""

    def report_file(self, path: str) -> list:
        """Every diagnostic of one file (and of the bases it reaches)."""
        from ..lang.check import check

        module, diagnostics = self.parse_file(path)
        if module is None:
            return list(diagnostics)

        def rest():
            merged, more = self.merge(module)
            # a variant's own mistakes (an option its base lacks) leave a sound merge: check on;
            # a base that is missing or broken does not
            own = all(os.path.normpath(d.span.file) == os.path.normpath(path) for d in more if d.is_error)
            if any(d.is_error for d in more) and (merged is module or not own):
                return None, more
            return None, more + check(merged)[1]

        return list(diagnostics) + guarded(path, rest)[1]


def check_paths(paths: Iterable[str], root: Optional[str] = None) -> Report:
    """Checks files (folders: their `*.cards` files); the report's paths are as they are printed.

    Raises `click.UsageError` for a path that does not exist or when no file is found."""
    files, missing, skipped = find_files(paths, root)
    if missing:
        raise click.UsageError(f"no such file or folder: {', '.join(map(visible, missing))}")
    if not files and not skipped:
        raise click.UsageError("no `.cards` file found in " + ", ".join(map(visible, paths)))
    return check_files(files, root, skipped)


def check_files(files: list, root: Optional[str] = None, skipped: Iterable[Diagnostic] = ()) -> Report:
    """Checks each file and collects one report (a diagnostic of a shared base file appears once).

    Only the files read as rule files are kept in `report.sources`, for the text output to quote."""
    session = _Session(root)
    skipped = list(skipped)
    report = Report(files=[display_path(f) for f in files])
    seen: set = set()
    for d in skipped + [d for path in files for d in session.report_file(path)]:
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
@click.option("--root", type=click.Path(exists=True, file_okay=False), default=None, metavar="DIR",
              help=ROOT_HELP)
def check_command(paths, fmt: str, strict: bool, quiet: bool, color: str, root: Optional[str]) -> None:
    """Check rule files (or folders of `.cards` files, recursively) and report every problem.

    \b
    Exit status: 0 no errors (warnings allowed unless --strict), 1 errors found,
    2 usage error or unreadable input.
    Every code is explained in docs/diagnostics.md.
    """
    report = check_paths(paths, root)
    if fmt == "text":
        use = _use_color(color)
        click.echo(render_text(report, color=use, quiet=quiet), nl=False, color=use)
    elif fmt == "sarif":
        click.echo(RENDERERS[fmt](report, version=_version()), nl=False)
    else:
        click.echo(RENDERERS[fmt](report), nl=False)
    sys.exit(exit_status(report, strict))
