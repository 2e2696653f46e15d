"""`cardlang fmt [--check] [--diff] [--upgrade] FILE_OR_DIR...`: rewrite rule files in the one canonical
layout; with `--upgrade`, first carry them over the changes of the language that broke them
(`tools/upgrade.py`, docs/language-changes.md).

Exit status: 0 when every file is formatted (or, with `--check`, already was); 1 with `--check` when
a file would change (each is listed); 2 on a usage error or a file that cannot be formatted (it
cannot be read, or it has a syntax error: its diagnostics are printed).
"""

from __future__ import annotations

import difflib
import sys

import attrs
import click

from ..lang.report import Report, render_text
from ..load import read_source
from ..tools.fmt import FormatError, format_source
from ..tools.upgrade import upgrade_source
from .cmd_check import display_path, find_files
from .untrusted import echo, visible


def _problem(path: str, diagnostics: list, source) -> None:
    shown = display_path(path)
    report = Report(files=[shown], sources={shown: source})
    report.diagnostics = [attrs.evolve(d, span=attrs.evolve(d.span, file=shown)) for d in diagnostics]
    click.echo(render_text(report, color=False, quiet=True), err=True, nl=False)


@click.command("fmt")
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("--check", "check_only", is_flag=True, help="Change nothing; exit 1 and list the files that would change.")
@click.option("--diff", "show_diff", is_flag=True, help="Change nothing; print what would change as a unified diff.")
@click.option("--upgrade", is_flag=True,
              help="Also rewrite what a change of the language broke (docs/language-changes.md): a name that "
                   "is now a word of the language is renamed.")
def fmt_command(paths, check_only: bool, show_diff: bool, upgrade: bool = False) -> None:
    """Format rule files (or folders of `.cards` files, recursively) in the canonical layout.

    \b
    Exit status: 0 formatted (or already formatted), 1 with --check when a file
    would change, 2 usage error or a file that cannot be formatted.
    """
    files, missing, skipped = find_files(paths)
    status = 0
    for p in missing:
        echo(f"error: {p}: no such file or folder", err=True)
        status = 2
    for d in skipped:  # a link out of the folder, a FIFO: left alone, as `check` leaves them
        _problem(d.span.file, [d], None)
    changed = []
    for path in files:
        source, problems = read_source(path)
        if source is None:
            _problem(path, problems, None)
            status = 2
            continue
        done: list = []
        try:
            upgraded, done = upgrade_source(source) if upgrade else (source, [])
            formatted = format_source(upgraded, path)
        except FormatError as e:
            _problem(path, e.diagnostics, source)
            status = 2
            continue
        if formatted == source:
            continue
        changed.append(path)
        if show_diff:
            shown = visible(display_path(path))
            diff = difflib.unified_diff(source.splitlines(True), formatted.splitlines(True), shown, shown)
            # each line of the diff as text (its `\r`, a control character of the file, visible)
            click.echo("".join(visible(line[:-1] if line.endswith("\n") else line) + "\n" for line in diff), nl=False)
        elif check_only:
            echo(f"would reformat {display_path(path)}")
        else:
            with open(path, "w", encoding="utf-8", newline="") as f:
                f.write(formatted)
            echo(f"upgraded {display_path(path)} ({'; '.join(done)})" if done else f"reformatted {display_path(path)}")
    if check_only and changed and status == 0:
        status = 1
    if not files and not missing:
        click.echo("error: no .cards file found", err=True)
        status = 2
    sys.exit(status)
