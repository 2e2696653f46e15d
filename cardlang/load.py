"""The pipeline in one place: read → parse → merge variants → check → compile → `Game`."""

from __future__ import annotations

import hashlib
import os
from typing import Optional

from .lang import ast
from .lang.check import check
from .lang.diagnostics import CardlangError, Diagnostic, Span
from .lang.parse import parse
from .lang.variants import resolve

MAX_FILE_BYTES = 10 * 1024 * 1024 + 1024


def read_source(path: str) -> tuple[Optional[str], list[Diagnostic]]:
    """The text of a file, or a diagnostic saying why it cannot be read as a rule file."""
    here = Span(path, 1, 1, 1, 2)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        return None, [Diagnostic("E005", "error", f"cannot read the file: {e.strerror or e}", here)]
    if b"\0" in data:
        return None, [Diagnostic("E005", "error", "this is a binary file, not a rule file", here)]
    try:
        return data.decode("utf-8"), []
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        col = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        return None, [Diagnostic("E005", "error", "the file is not valid UTF-8 text", Span(path, line, col, line, col + 1),
                                 help="save the file as UTF-8")]


def parse_file(path: str) -> tuple[Optional[ast.Module], list[Diagnostic]]:
    """Reads and parses one file (without merging its bases)."""
    source, diagnostics = read_source(path)
    if source is None:
        return None, diagnostics
    return parse(source, path)


def check_file(path: str):
    """Parses, merges and checks a file: (symbols or None, every diagnostic)."""
    module, diagnostics = parse_file(path)
    if module is None:
        return None, diagnostics
    module, more = resolve(module, parse_file)
    diagnostics = diagnostics + more
    if any(d.is_error for d in more):
        return None, diagnostics
    symbols, found = check(module)
    return symbols, diagnostics + found


def resolve_options(symbols, players: Optional[int], options: Optional[dict]) -> tuple[int, dict]:
    """The player count and the full option values, each checked against what the game allows."""
    low, high = symbols.players
    if players is None:
        players = low
    if not low <= players <= high:
        raise CardlangError(message=f"{symbols.title} is for {low} to {high} players, not {players}")
    values = {name: d.default for name, d in symbols.options.items()}
    for name, raw in (options or {}).items():
        if name not in symbols.options:
            known = ", ".join(sorted(symbols.options)) or "none"
            raise CardlangError(message=f"{symbols.title} has no option `{name}` (options: {known})")
        d = symbols.options[name]
        values[name] = _convert(d, raw)
    return players, values


def _convert(d, raw):
    default = d.default
    if isinstance(default, bool):
        text = str(raw).lower()
        if text in ("true", "yes", "1", "on"):
            return True
        if text in ("false", "no", "0", "off"):
            return False
        raise CardlangError(message=f"option `{d.name}` is true or false, not `{raw}`")
    if isinstance(default, int):
        try:
            value = int(raw)
        except (TypeError, ValueError):
            raise CardlangError(message=f"option `{d.name}` is a whole number, not `{raw}`") from None
        if d.low is not None and not d.low <= value <= d.high:
            raise CardlangError(message=f"option `{d.name}` must be from {d.low} to {d.high}, not {value}")
        if d.choices is not None and value not in d.choices:
            raise CardlangError(message=f"option `{d.name}` is one of {', '.join(map(str, d.choices))}, not {value}")
        return value
    value = str(raw)
    if d.choices is not None and value not in d.choices:
        raise CardlangError(message=f"option `{d.name}` is one of {', '.join(map(str, d.choices))}, not `{value}`")
    return value


ENGINES = ("compiled", "reference")


def load(path: str, players: Optional[int] = None, options: Optional[dict] = None,
         engine: str = "compiled") -> "Game":
    """Loads a `.cards` file as a `Game` for `players` seats (default: the smallest count allowed).

    `engine` is "compiled" (the fast engine) or "reference" (the plain interpreter over the IR that
    defines what a game does; slow). Both give the same `Game`/`State` API and the same games.
    Raises `CardlangError` with every diagnostic when the file is not valid, or with a one-line
    message when the player count or an option value is outside what the game allows.
    """
    if engine not in ENGINES:
        raise CardlangError(message=f"no engine `{engine}` (engines: {', '.join(ENGINES)})")
    symbols, diagnostics = check_file(path)
    errors = [d for d in diagnostics if d.is_error]
    if symbols is None or errors:
        raise CardlangError(errors or diagnostics)
    players, values = resolve_options(symbols, players, options)
    from .runtime.engine import Game  # here, so that checking files never loads the engine

    if engine == "reference":
        from .compiler.reference import reference_program

        program = reference_program(symbols, players, values)
    else:
        from .compiler.compile import compile_program

        program = compile_program(symbols, players, values)
    return Game(program, symbols, players, values, os.path.normpath(path), source_hash(path, symbols))


def source_hash(path: str, symbols) -> str:
    """The SHA-256 of the rule file, or, for a variant, of it and every base file it draws on."""
    files = {os.path.normpath(path)}
    blocks = [symbols.setup, symbols.round, symbols.deck, symbols.score, *symbols.phases.values()]
    spans = [b.span for b in blocks if b is not None] + [s.span for s in symbols.table.values() if s.span]
    files.update(os.path.normpath(span.file) for span in spans)
    digests = []
    for name in sorted(files):
        with open(name, "rb") as f:
            digests.append(hashlib.sha256(f.read()).hexdigest())
    if len(digests) == 1:
        return digests[0]
    return hashlib.sha256("\n".join(digests).encode()).hexdigest()
