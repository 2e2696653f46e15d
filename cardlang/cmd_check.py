"""`cardlang check FILE...`: every diagnostic of every file, compiler style, with exit codes."""

from __future__ import annotations

import os

import click

from .diagnostics import render_text
from .load import check_file


@click.command("check")
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("--strict", is_flag=True, help="Fail on warnings too.")
@click.option("-q", "--quiet", is_flag=True, help="Print only problems, not the OK lines.")
def check_command(paths, strict: bool, quiet: bool) -> None:
    """Check rule files (or folders of `.cards` files) and report every problem.

    Exit status: 0 when every file is valid (warnings allowed unless --strict), 1 when any file has
    errors, 2 when a file cannot be found.
    """
    files = []
    for p in paths:
        if os.path.isdir(p):
            for root, _, names in sorted(os.walk(p)):
                files += [os.path.join(root, n) for n in sorted(names) if n.endswith(".cards")]
        elif os.path.exists(p):
            files.append(p)
        else:
            click.echo(f"error: no such file: {p}", err=True)
            raise SystemExit(2)
    failed = False
    sources: dict = {}
    for path in files:
        _, diagnostics = check_file(path)
        errors = [d for d in diagnostics if d.is_error]
        for d in diagnostics:
            click.echo(render_text(d, sources))
        bad = bool(errors) or (strict and diagnostics)
        failed = failed or bad
        if not quiet and not bad:
            click.echo(f"{path}: ok" + (f" ({len(diagnostics)} warning(s))" if diagnostics else ""))
    raise SystemExit(1 if failed else 0)
