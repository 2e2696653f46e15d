"""Where the web tables live: SQLite (WAL, one commit per move), behind one small interface.

A table is stored as what it takes to play it again from the start: its rules' text (every file it
was built from), player count, options, seats, seed, the generator its chance draws from (`generator`:
1, CPython's Mersenne Twister, for the tables stored before SplitMix64; 2, SplitMix64) and every
action in order; the live state is
never stored, it is replayed (`tables.Table.resume`). Seats and spectators are known by the SHA-256
of their tokens only. Ratings and comments are kept with the table. Another store (a server of
many processes would share one) needs only these methods.
"""

from __future__ import annotations

import json
import os
import sqlite3
import time
from dataclasses import dataclass, field
from typing import Optional

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY, game TEXT NOT NULL, title TEXT NOT NULL, path TEXT NOT NULL,
    rules TEXT NOT NULL, players INTEGER NOT NULL, options TEXT NOT NULL, seats TEXT NOT NULL,
    seed INTEGER NOT NULL, undo INTEGER NOT NULL, idle_seconds INTEGER NOT NULL,
    created TEXT NOT NULL, status TEXT NOT NULL, seq INTEGER NOT NULL DEFAULT 0,
    generator INTEGER NOT NULL DEFAULT 2);
CREATE TABLE IF NOT EXISTS tokens (
    hash TEXT PRIMARY KEY, table_id TEXT NOT NULL REFERENCES tables(id), seat INTEGER);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL REFERENCES tables(id), n INTEGER NOT NULL, action INTEGER NOT NULL,
    seat INTEGER NOT NULL, at TEXT NOT NULL, PRIMARY KEY (table_id, n));
CREATE TABLE IF NOT EXISTS ratings (
    table_id TEXT NOT NULL REFERENCES tables(id), seat INTEGER NOT NULL, stars INTEGER NOT NULL,
    comment TEXT NOT NULL, at TEXT NOT NULL, PRIMARY KEY (table_id, seat));
"""
FORMAT = "cardlang-web-store"  # the `meta` row that says a database is ours
VERSION = 1
MERSENNE, SPLITMIX = 1, 2  # a table's `generator` (`runtime/rng.py`)
TABLE_COLUMNS = ("id, game, title, path, rules, players, options, seats, seed, undo, idle_seconds, created, status, "
                 "seq, generator")


class StoreError(Exception):
    """A database that cannot be used as the server's store (one line)."""


@dataclass
class TableRecord:
    """One table as stored: everything needed to play it again from its start."""

    id: str
    game: str  # the game's id in the lobby (the file's name)
    title: str
    path: str  # the rule file the rules were read from
    rules: dict  # path -> text of every file the game was built from
    players: int
    options: dict
    seats: list  # "person" or "bot:NAME" for each seat
    seed: int
    undo: bool
    idle_seconds: int
    created: str
    status: str = "playing"
    seq: int = 0
    generator: int = SPLITMIX  # what its chance draws from: MERSENNE for a table stored before SplitMix64
    actions: list = field(default_factory=list)  # (action id, seat) in order


def now() -> str:
    """The time as the store writes it (UTC, to the second)."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


class Store:
    """The SQLite store. Every write is one transaction, committed before it returns."""

    def __init__(self, path: str):
        self.path = path
        try:
            self.db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")  # (WAL: a killed process loses no commit)
            self.db.execute("PRAGMA foreign_keys=ON")
            self._check_ours()
            self.db.executescript(SCHEMA)
            self._add_generator()
            self.db.execute("INSERT OR IGNORE INTO meta VALUES ('format', ?), ('version', ?)", (FORMAT, str(VERSION)))
        except sqlite3.DatabaseError as e:
            raise StoreError(f"cannot use {path} as the tables' database: {e}") from None

    def _check_ours(self) -> None:
        """A database that holds anything but our tables is not ours: refused, never changed."""
        names = {r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if not names:
            return
        if "meta" not in names:
            raise StoreError(f"{self.path} is a database of another program: choose another --db")
        row = self.db.execute("SELECT value FROM meta WHERE key='format'").fetchone()
        if row is None or row[0] != FORMAT:
            raise StoreError(f"{self.path} is a database of another program: choose another --db")

    def _add_generator(self) -> None:
        """A store made before the `generator` column gets it, its tables marked MERSENNE (they
        were played with CPython's Mersenne Twister, and replay so)."""
        columns = {r[1] for r in self.db.execute("PRAGMA table_info(tables)")}
        if "generator" not in columns:
            self.db.execute(f"ALTER TABLE tables ADD COLUMN generator INTEGER NOT NULL DEFAULT {MERSENNE}")

    def close(self) -> None:
        """Closes the database (every write is committed already)."""
        self.db.close()

    def _write(self, statements: list) -> None:
        with self.db:  # (one transaction: BEGIN … COMMIT, or ROLLBACK on an error)
            self.db.execute("BEGIN")
            for sql, args in statements:
                self.db.execute(sql, args)

    # ------------------------------------------------------------------ writes
    def create_table(self, t: TableRecord, tokens: list) -> None:
        """A new table and its token hashes: (hash, seat or None for the spectator)."""
        self._write([(f"INSERT INTO tables ({TABLE_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                       (t.id, t.game, t.title, t.path, json.dumps(t.rules), t.players, json.dumps(t.options),
                        json.dumps(t.seats), t.seed, int(t.undo), t.idle_seconds, t.created, t.status, t.seq,
                        t.generator))]
                     + [("INSERT INTO tokens VALUES (?,?,?)", (h, t.id, seat)) for h, seat in tokens])

    def add_action(self, table_id: str, n: int, action: int, seat: int, seq: int, status: str) -> None:
        """Move number `n` (0-based) of a table, with the table's new change count and status."""
        self._write([("INSERT INTO actions VALUES (?,?,?,?,?)", (table_id, n, action, seat, now())),
                     ("UPDATE tables SET seq=?, status=? WHERE id=?", (seq, status, table_id))])

    def drop_actions(self, table_id: str, keep: int, seq: int, status: str) -> None:
        """An undo: every move from number `keep` on is taken back."""
        self._write([("DELETE FROM actions WHERE table_id=? AND n>=?", (table_id, keep)),
                     ("UPDATE tables SET seq=?, status=? WHERE id=?", (seq, status, table_id))])

    def rate(self, table_id: str, seat: int, stars: int, comment: str) -> None:
        """A seat's rating of a finished game (a second one replaces the first)."""
        self._write([("INSERT OR REPLACE INTO ratings VALUES (?,?,?,?,?)", (table_id, seat, stars, comment, now()))])

    # ------------------------------------------------------------------ reads
    def tables(self) -> list:
        """Every table with its actions, oldest first."""
        out = []
        rows = self.db.execute(f"SELECT {TABLE_COLUMNS} FROM tables ORDER BY created, rowid").fetchall()
        for r in rows:
            t = TableRecord(r[0], r[1], r[2], r[3], json.loads(r[4]), r[5], json.loads(r[6]), json.loads(r[7]),
                            r[8], bool(r[9]), r[10], r[11], r[12], r[13], r[14])
            t.actions = [(a, s) for a, s in self.db.execute(
                "SELECT action, seat FROM actions WHERE table_id=? ORDER BY n", (t.id,))]
            out.append(t)
        return out

    def token(self, digest: str) -> Optional[tuple]:
        """(table id, seat or None) of a token's hash, or None."""
        row = self.db.execute("SELECT table_id, seat FROM tokens WHERE hash=?", (digest,)).fetchone()
        return None if row is None else (row[0], row[1])

    def ratings(self, table_id: str) -> list:
        """The ratings of a table: {"seat", "stars", "comment", "at"}."""
        return [{"seat": s, "stars": st, "comment": c, "at": at} for s, st, c, at in self.db.execute(
            "SELECT seat, stars, comment, at FROM ratings WHERE table_id=? ORDER BY seat", (table_id,))]


def open_store(path: Optional[str]) -> Store:
    """The store at `path` (a new file is made), or in memory when `path` is None."""
    if path is not None and path != ":memory:":
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            raise StoreError(f"cannot use {path}: no folder {folder}")
    return Store(path or ":memory:")
