"""The pipeline in one place: read → parse → merge variants → check → compile → `Game`."""

from __future__ import annotations

import hashlib
import os
from typing import Callable, Optional

from .lang import ast
from .lang.check import check
from .lang.diagnostics import CardlangError, Diagnostic, Span
from .lang.files import MAX_FILE_BYTES, read_bytes, read_source, roots_for
from .lang.parse import parse
from .lang.variants import resolve

class Loader:
    """Reads and parses each rule file at most once (variants share their bases) and keeps the text of
    every file it read: the only lines a report may quote. `root` widens where `extends` may reach."""

    def __init__(self, root: Optional[str] = None):
        self.root = root
        self.sources: dict = {}  # path -> text, or None when it could not be read
        self.parsed: dict = {}
        self._settings: dict = {}  # folder -> the root its settings file gives

    def parse_file(self, path: str) -> tuple[Optional[ast.Module], list[Diagnostic]]:
        """One file read (bounded, regular files only) and parsed, without merging its bases."""
        key = os.path.normpath(path)
        if key not in self.parsed:
            source, diagnostics = read_source(path)
            self.sources[path] = source
            if source is None:
                self.parsed[key] = (None, diagnostics)
            else:
                self.parsed[key] = guarded(path, lambda: parse(source, path))
        return self.parsed[key]

    def roots(self, module: ast.Module) -> tuple[Optional[tuple], list]:
        """Where the bases of `module` may lie, and problems with the settings (only for a variant)."""
        if not any(isinstance(d, ast.ExtendsDecl) for d in module.decls):
            return None, []
        return roots_for(module.path, self.root, self._settings)

    def merge(self, module: ast.Module, parse_base=None) -> tuple[ast.Module, list[Diagnostic]]:
        """The module with its bases merged in (read with `parse_base`, by default `parse_file`), and
        the diagnostics of reaching and reading them."""
        roots, problems = self.roots(module)
        if problems:
            return module, problems
        return resolve(module, parse_base or self.parse_file, roots)

    def check_source(self, source: str, path: str, parse_base=None) -> tuple:
        """`check_source` of this module, with this loader's root and cache."""
        self.sources[path] = source
        module, diagnostics = guarded(path, lambda: parse(source, path))
        if module is None:
            return None, None, None, list(diagnostics)

        def rest():
            merged, more = self.merge(module, parse_base)
            if any(d.is_error for d in more):
                return (merged, None), more
            symbols, found = check(merged)
            return (merged, symbols), more + found

        built, more = guarded(path, rest)
        merged, symbols = built if built is not None else (None, None)
        return module, merged, symbols, list(diagnostics) + more

    def check_file(self, path: str, warnings: bool = True):
        """Parses, merges and checks a file: (symbols or None, every diagnostic; with `warnings=False`,
        every error but maybe not every warning: see `check`)."""
        module, diagnostics = self.parse_file(path)
        if module is None:
            return None, list(diagnostics)

        def rest():
            merged, more = self.merge(module)
            if any(d.is_error for d in more):
                return None, more
            symbols, found = check(merged, warnings)
            return symbols, more + found

        symbols, more = guarded(path, rest)
        return symbols, list(diagnostics) + more


def guarded(path: str, run: Callable) -> tuple:
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


def parse_file(path: str) -> tuple[Optional[ast.Module], list[Diagnostic]]:
    """Reads and parses one file (without merging its bases)."""
    return Loader().parse_file(path)


def check_file(path: str, root: Optional[str] = None):
    """Parses, merges and checks a file: (symbols or None, every diagnostic); `root` widens `extends`."""
    return Loader(root).check_file(path)


def check_source(source: str, path: str, parse_base=None, root: Optional[str] = None) -> tuple:
    """Parses, merges and checks the text of a file (a file on disk, an editor's buffer), its bases
    read with `parse_base` (default: from disk, bounded) inside the root: (its module, the merged
    module, symbols, every diagnostic); what could not be built is None (no symbols when merging
    found errors)."""
    return Loader(root).check_source(source, path, parse_base)


OPTION_MAX = 10**9  # the largest whole number `--set` gives an option, whatever its declared range
OPTION_TEXT_MAX = 1_000  # the longest text it gives one


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


OPTION_ITEMS_MAX = 1_000  # the most items `--set` gives a list option


def _convert_list(d, raw) -> tuple:
    """A list option's value: `20,30,40` or `[20, 30, 40]` (or a list), each item a whole number
    within its range."""
    if isinstance(raw, (list, tuple)):
        items = list(raw)
    else:
        text = str(raw).strip()
        if text.startswith("[") and text.endswith("]"):
            text = text[1:-1]
        items = [t.strip() for t in text.split(",")] if text.strip() else []
    if not 1 <= len(items) <= OPTION_ITEMS_MAX:
        raise CardlangError(message=f"option `{d.name}` is a list of 1 to {OPTION_ITEMS_MAX:,} whole numbers "
                                    f"(`{','.join(map(str, d.default))}`), not {_short(raw)}")
    values = []
    for item in items:
        try:
            value = int(item) if not isinstance(item, bool) else None
        except (TypeError, ValueError):
            value = None
        if value is None:
            raise CardlangError(message=f"option `{d.name}` is a list of whole numbers, not `{_short(raw)}`")
        if not -OPTION_MAX <= value <= OPTION_MAX or (d.low is not None and not d.low <= value <= d.high):
            low, high = (d.low, d.high) if d.low is not None else (-OPTION_MAX, OPTION_MAX)
            raise CardlangError(message=f"the items of option `{d.name}` must be from {low:,} to {high:,}, "
                                        f"not {_short(item)}")
        values.append(value)
    return tuple(values)


def _convert(d, raw):
    default = d.default
    if isinstance(default, tuple):
        return _convert_list(d, raw)
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
            raise CardlangError(message=f"option `{d.name}` is a whole number, not `{_short(raw)}`") from None
        if not -OPTION_MAX <= value <= OPTION_MAX:  # whatever the file's range: a game counts, it does not compute
            raise CardlangError(message=f"option `{d.name}` must be from {-OPTION_MAX:,} to {OPTION_MAX:,}, "
                                        f"not {_short(raw)}")
        if d.low is not None and not d.low <= value <= d.high:
            raise CardlangError(message=f"option `{d.name}` must be from {d.low} to {d.high}, not {value}")
        if d.choices is not None and value not in d.choices:
            raise CardlangError(message=f"option `{d.name}` is one of {', '.join(map(str, d.choices))}, not {value}")
        return value
    value = str(raw)
    if d.choices is not None and value not in d.choices:
        raise CardlangError(message=f"option `{d.name}` is one of {', '.join(map(str, d.choices))}, not "
                                    f"`{_short(value)}`")
    if len(value) > OPTION_TEXT_MAX:
        raise CardlangError(message=f"option `{d.name}` is at most {OPTION_TEXT_MAX:,} characters, not {len(value):,}")
    return value


ENGINES = ("compiled", "reference", "native")


def _short(raw) -> str:
    """A value as a one-line message quotes it: its first characters."""
    text = " ".join(str(raw).split())
    return text if len(text) <= 40 else text[:40] + "…"


def load(path: str, players: Optional[int] = None, options: Optional[dict] = None,
         root: Optional[str] = None, engine: str = "compiled", passes=None) -> "Game":
    """Loads a `.cards` file as a `Game` for `players` seats (default: the smallest count allowed).

    `extends` reaches only files inside the root (the file's folder, widened by `root`, by
    `$CARDLANG_ROOT` or by a cardlang.toml: docs/security.md). `engine` is "compiled" (the fast
    engine) or "reference" (the plain interpreter over the IR that defines what a game does; slow);
    both give the same `Game`/`State` API and the same games. "native" is the compiled engine with
    its whole random-bot games in machine code (`game.native`, or None and `game.native_note`
    saying why: docs/engine.md, "The native engine"). `passes` picks the compiled engine's
    optimisation passes (default: `$CARDLANG_PASSES`, else all; e.g. "-fusion,-chaining" or a set of
    names to run: docs/engine.md). Raises `CardlangError` with every
    diagnostic (and the text of the files read, to quote) when the file is not valid, or with a
    one-line message when the player count or an option value is outside what the game allows.
    """
    if engine not in ENGINES:
        raise CardlangError(message=f"no engine `{engine}` (engines: {', '.join(ENGINES)})")
    if engine in ("compiled", "native"):
        from .compiler.passes import select

        passes = select(passes)  # (an unknown pass is refused before the file is read)
    loader = Loader(root)
    symbols, diagnostics = loader.check_file(path, warnings=False)  # (a warning never stops a game)
    errors = [d for d in diagnostics if d.is_error]
    if symbols is None or errors:
        raise CardlangError(errors or diagnostics, sources=loader.sources)
    players, values = resolve_options(symbols, players, options)
    from .runtime.engine import Game  # here, so that checking files never loads the engine
    from .compiler.lowered import lower_game

    lowered = lower_game(symbols, players, values)  # (once, whichever engine runs it)
    if engine == "reference":
        from .compiler.reference import reference_program

        program = reference_program(lowered)
    else:
        from .compiler.emit.build import emit_program

        program = emit_program(lowered, passes=passes)
    game = Game(program, symbols, players, values, os.path.normpath(path), source_hash(path, symbols))
    if engine == "native":
        _attach_native(game, lowered)
    return game


def _attach_native(game, lowered) -> None:
    """The native engine (issue 29) on a compiled game: `game.native`, its whole random-bot games in
    machine code (`native.game.NativeProgram`), or None with `game.native_note`, the one line that
    says why the game runs on the compiled engine (numba missing, a construct not supported yet)."""
    from .native.game import fallback_line, native_program
    from .native.kinds import NativeUnsupported

    game.engine = "native"
    game.native, game.native_note = None, None
    try:
        game.native = native_program(lowered)
    except NativeUnsupported as e:
        game.native_note = fallback_line(e)
    except ImportError:
        game.native_note = fallback_line("numba is not installed (pip install 'cardlang[native]')")
    except Exception as e:  # numba refused the generated code: a defect of the emitter, said in one line
        game.native_note = fallback_line(f"the generated code did not compile ({type(e).__name__})")


def source_hash(path: str, symbols) -> str:
    """The SHA-256 of the rule file, or, for a variant, of it and every base file it draws on."""
    files = {os.path.normpath(path)}
    blocks = [symbols.setup, symbols.round, symbols.deck, symbols.score, *symbols.phases.values()]
    spans = [b.span for b in blocks if b is not None] + [s.span for s in symbols.table.values() if s.span]
    files.update(os.path.normpath(span.file) for span in spans)
    digests = []
    for name in sorted(files):  # the rule files the game was loaded from, read again within the same bounds
        data, _ = read_bytes(name, MAX_FILE_BYTES)
        digests.append(hashlib.sha256(data or b"").hexdigest())
    if len(digests) == 1:
        return digests[0]
    return hashlib.sha256("\n".join(digests).encode()).hexdigest()
