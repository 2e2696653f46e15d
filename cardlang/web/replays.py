"""Replays and the export of finished web tables: the game played again from its seed, move by move.

A replay is given only once the game is over. Seat by seat it is the `view` messages that seat was
sent (its view after each move); whole, it is every seat's and the spectator's view after each
move, with the transcript as an omniscient reader reads it (nothing is secret any more).
"""

from __future__ import annotations

import json
import os
import stat
from typing import Optional

from ..play.savegame import replace_atomically
from ..runtime.basics import RuleError
from . import protocol
from .rules import build
from .tables import first_state

MAX_STEPS = 2_000  # moves a replay shows
EXPORT_FORMAT = "cardlang-web-export"
MAX_EXPORT_READ = 64 * 1024 * 1024


def replay_steps(table, seat: Optional[int]) -> dict:
    """The replay of a finished table: seat `seat`'s views, or every view when None."""
    record = table.record
    state = first_state(table.game, record)
    steps = []
    for n in range(len(record.actions) + 1):
        if n > MAX_STEPS:
            break
        if seat is None:
            views = [protocol.seat_view(state, k, n) for k in range(record.players)]
            views.append(protocol.spectator_view(state, n))
        else:
            views = [protocol.seat_view(state, seat, n)]
        steps.append({"seq": n, "views": views})
        if n < len(record.actions):
            try:
                state.apply(record.actions[n][0])
            except RuleError:
                break
    out = {"table": record.id, "game": table.game.title, "players": protocol.player_names(record.players),
           "seat": seat, "steps": steps}
    if seat is None:
        out["log"] = state.transcript()
    return out


class NotOurs(OSError):
    """A path the export may not write to (one line)."""


def check_export_target(path: str) -> str:
    """The file an export replaces: nothing there, or an export of ours; `NotOurs` for anything
    else (another file, a folder, a device), as saves do (`play.savegame.check_save_target`)."""
    target = os.path.realpath(path)
    try:
        info = os.stat(target)
    except FileNotFoundError:
        return target
    except OSError as e:
        raise NotOurs(f"cannot export to {path}: {e.strerror or e}") from None
    refusal = f"will not export to {path}: it is not an export of cardlang serve (choose another name)"
    if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_EXPORT_READ:
        raise NotOurs(refusal)
    try:
        with open(target, "rb") as f:
            data = json.loads(f.read(MAX_EXPORT_READ).decode("utf-8"))
    except (OSError, ValueError, RecursionError):
        raise NotOurs(refusal) from None
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        raise NotOurs(refusal)
    return target


def export_data(store) -> dict:
    """Every table of the store with its game, transcript (omniscient: for the designer) and ratings."""
    tables = []
    for record in store.tables():
        entry = {"id": record.id, "game": record.game, "title": record.title, "file": record.path,
                 "players": record.players, "options": record.options, "seats": record.seats,
                 "seed": record.seed, "generator": record.generator, "created": record.created, "status": record.status,
                 "actions": [a for a, _ in record.actions], "movers": [s for _, s in record.actions],
                 "ratings": store.ratings(record.id)}
        try:
            game = build(record.rules, record.path, record.players, record.options)
            state = first_state(game, record)
            for a, _ in record.actions:
                state.apply(a)
            entry["transcript"] = state.transcript()
            entry["result"] = protocol.result_of(state)
        except Exception as e:  # noqa: BLE001 - one table's rules gone bad does not stop the export
            entry["transcript"] = None
            entry["problem"] = " ".join(str(e).split())[:300]
        tables.append(entry)
    return {"format": EXPORT_FORMAT, "version": 1, "tables": tables}


def write_export(path: str, store) -> int:
    """Writes the export atomically; the number of tables. `NotOurs` for a file not ours."""
    target = check_export_target(path)
    data = export_data(store)
    replace_atomically(target, json.dumps(data, ensure_ascii=False, indent=1), ".cardlang-export-")
    return len(data["tables"])
