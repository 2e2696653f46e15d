"""The games a server offers: its rule files, checked, with their text kept for the tables.

A table keeps the text of every file its game was built from (`Rules.texts`), so a table goes on
with the rules it started with when the file changes (`--reload`), and after a restart. A file that
does not check is listed with its problems (one line each) and no table can start with it.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from typing import Callable, Optional

from ..lang.diagnostics import CardlangError, Diagnostic, Span
from ..lang.parse import parse
from ..lang.untrusted import visible
from ..load import Loader, resolve_options
from ..play.bots import BOTS

MAX_GAMES = 500  # files one server lists
MAX_PROBLEMS = 20  # problems listed for one file


@dataclass
class Rules:
    """One checked rule file: what the lobby lists and what a table is built from."""

    id: str
    path: str
    texts: dict  # path -> text of every file read (the file and its bases)
    symbols: object = None  # None when the file does not check
    problems: list = field(default_factory=list)
    mtimes: dict = field(default_factory=dict)

    @property
    def title(self) -> str:
        """The game's title, or the file's name when it does not check."""
        return self.symbols.title if self.symbols is not None else os.path.basename(self.path)

    def info(self) -> dict:
        """The lobby's entry for the game (`GET /api/games`)."""
        s = self.symbols
        out = {"id": self.id, "title": self.title, "about": getattr(s, "about", "") or "",
               "players": {"min": s.players[0], "max": s.players[1]} if s is not None else None,
               "options": [], "bots": sorted(BOTS), "problems": list(self.problems)}
        if s is not None:
            for name, d in s.options.items():
                out["options"].append({"name": name, "values": option_values(d), "default": plain(d.default),
                                       "help": d.help or ""})
        return out


def plain(value):
    """A value as JSON holds it (a list option's tuple as a list)."""
    return list(value) if isinstance(value, tuple) else value


def option_values(d) -> str:
    """What an option may be, as the rule file writes it."""
    if isinstance(d.default, bool):
        return "yes/no"
    if d.choices is not None:
        return ", ".join(map(str, d.choices))
    if d.low is not None:
        return f"{d.low}..{d.high}"
    return "a list of whole numbers" if isinstance(d.default, tuple) else "any"


def problem_line(d: Diagnostic) -> str:
    """`file:line: E123 message`, on one line."""
    return visible(f"{d.span.file}:{d.span.line}: {d.code} {d.message}")


def check_rules(path: str, game_id: str, root: Optional[str] = None) -> Rules:
    """Reads and checks one rule file (and its bases), keeping their text."""
    loader = Loader(root)
    symbols, diagnostics = loader.check_file(path, warnings=False)
    errors = [d for d in diagnostics if d.is_error]
    texts = {os.path.normpath(p): t for p, t in loader.sources.items() if t is not None}
    mtimes = {}
    for p in texts:
        try:
            mtimes[p] = os.stat(p).st_mtime_ns
        except OSError:
            mtimes[p] = None
    if not texts:
        mtimes[os.path.normpath(path)] = None
    problems = [problem_line(d) for d in errors[:MAX_PROBLEMS]]
    if symbols is None and not problems:
        problems = [f"{visible(path)}:1: the file does not check"]
    return Rules(game_id, os.path.normpath(path), texts, symbols if not problems else None, problems, mtimes)


class Catalog:
    """The games of a server. `find()` lists the rule files (a folder is looked at again on each
    `refresh`, for `--reload`); `refresh()` checks again the files whose time of change moved."""

    def __init__(self, find: Callable[[], list], root: Optional[str] = None):
        self.find = find
        self.root = root
        self.games: dict = {}  # id -> Rules
        self.refresh(force=True)

    def refresh(self, force: bool = False) -> list:
        """Checks new and changed files again; the ids of those that changed."""
        files = self.find()[:MAX_GAMES]
        by_path = {r.path: r for r in self.games.values()}
        games, changed = {}, []
        for f in files:
            key = os.path.normpath(f)
            old = by_path.get(key)
            if old is not None and not force and not _moved(old):
                games[old.id] = old
                continue
            game_id = old.id if old is not None else _unique_id(key, games, by_path)
            games[game_id] = check_rules(f, game_id, self.root)
            changed.append(game_id)
        self.games = games
        return changed

    def get(self, game_id: str) -> Optional[Rules]:
        """The game of an id, or None."""
        return self.games.get(game_id)


def _moved(r: Rules) -> bool:
    for p, m in r.mtimes.items():
        try:
            if os.stat(p).st_mtime_ns != m:
                return True
        except OSError:
            if m is not None:
                return True
    return False


def _unique_id(path: str, taken: dict, by_path: dict) -> str:
    base = os.path.splitext(os.path.basename(path))[0] or "game"
    used = set(taken) | {r.id for r in by_path.values()}
    name, k = base, 2
    while name in used:
        name, k = f"{base}-{k}", k + 1
    return name


# ---------------------------------------------------------------------------------- games
_GAMES: dict = {}  # (rules digest, players, options) -> Game: tables of the same rules share one
CACHE = 64


def digest(texts: dict) -> str:
    """The SHA-256 of a game's texts (what the cache and a table's hash are keyed by)."""
    return hashlib.sha256(json.dumps(texts, sort_keys=True).encode()).hexdigest()


def build(texts: dict, path: str, players: int, options: dict, root: Optional[str] = None):
    """The `Game` of stored rules (`Rules.texts`) for a player count and options (as the lobby gives
    them: checked here). `CardlangError` with a one-line message when it cannot be built."""
    key = (digest(texts), players, json.dumps(options, sort_keys=True, default=str))
    game = _GAMES.get(key)
    if game is not None:
        return game
    path = os.path.normpath(path)
    if path not in texts:
        raise CardlangError(message="the table's rules are missing their file")

    def parse_base(file: str):
        body = texts.get(os.path.normpath(file))
        if body is None:
            return None, [Diagnostic("E005", "error", "a base file the table's rules did not keep",
                                     Span(file, 1, 1, 1, 2))]
        return parse(body, file)

    loader = Loader(root)
    _, _, symbols, diagnostics = loader.check_source(texts[path], path, parse_base)
    errors = [d for d in diagnostics if d.is_error]
    if symbols is None or errors:
        raise CardlangError(message=problem_line(errors[0]) if errors else "the table's rules do not check")
    players, values = resolve_options(symbols, players, options)
    from ..compiler.emit.build import emit_program
    from ..compiler.lowered import lower_game
    from ..runtime.engine import Game

    program = emit_program(lower_game(symbols, players, values))
    game = Game(program, symbols, players, values, path, digest(texts))
    if len(_GAMES) >= CACHE:
        _GAMES.pop(next(iter(_GAMES)))
    _GAMES[key] = game
    return game
