"""Saved games: the JSON file `cardlang play --save` keeps up to date, and reading it back.

A game is fully determined by its rules file, options, player count, seed and the actions taken
(`State.to_json`); a save adds who played which seat, the bot, readable labels of the moves, and
the SHA-256 of the rules file, so that a game whose rules changed since is refused rather than
replayed into something else. The file is replaced atomically after every action: an interrupted
game (Ctrl-C, a closed terminal, a crash) loses nothing.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import time
from typing import Optional, Sequence

from ..lang.diagnostics import CardlangError
from ..runtime.engine import Game, IllegalActionError, State

FORMAT = "cardlang-save"
VERSION = 1


class SaveError(Exception):
    """A save that cannot be read, resumed or replayed; the message is one line for the person."""


def save_data(state: State, *, humans: Sequence[int] = (), bot: str = "random", labels: Optional[list] = None,
              save_path: Optional[str] = None) -> dict:
    """What a save file holds for `state` (JSON-ready)."""
    game = state.game
    data = {"format": FORMAT, "version": VERSION, "game": game.title}
    data.update(state.to_json())
    absolute = os.path.abspath(game.path)
    data["file"] = game.path
    data["file_absolute"] = absolute
    if save_path is not None:
        try:
            data["file_from_save"] = os.path.relpath(absolute, os.path.dirname(os.path.abspath(save_path)))
        except ValueError:  # another drive (Windows)
            pass
    data["humans"] = sorted(set(humans))
    data["bot"] = bot
    if labels is not None:
        data["labels"] = list(labels)
    data["finished"] = state.is_terminal()
    data["winners"] = list(state.winners())
    data["saved_at"] = time.strftime("%Y-%m-%dT%H:%M:%S%z")
    return data


def write_save(path: str, data: dict) -> None:
    """Writes a save atomically: a temporary file in the same folder, flushed, then renamed."""
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".cardlang-save-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(dumps(data))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def dumps(data: dict) -> str:
    """JSON with one top-level key a line (a long action list stays on one line)."""
    items = [f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in data.items()]
    return "{\n" + ",\n".join(items) + "\n}\n"


def read_save(path: str) -> dict:
    """The data of a save file; `SaveError` saying why when it is not a readable cardlang save."""
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except FileNotFoundError:
        raise SaveError(f"no saved game at {path}") from None
    except OSError as e:
        raise SaveError(f"cannot read {path}: {e.strerror or e}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise SaveError(f"{path} is not a saved game (not valid JSON: {e})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveError(f"{path} is not a cardlang saved game")
    if data.get("version", 0) > VERSION:
        raise SaveError(f"{path} was saved by a newer cardlang (save format {data.get('version')})")
    for key in ("hash", "players", "options", "seed", "actions"):
        if key not in data:
            raise SaveError(f"{path} is damaged: it has no `{key}`")
    if not isinstance(data["actions"], list) or not all(isinstance(a, int) for a in data["actions"]):
        raise SaveError(f"{path} is damaged: its actions are not a list of numbers")
    return data


def rules_path(data: dict, save_path: str, override: Optional[str] = None) -> str:
    """Where the save's rules file is now: `override`, its absolute path, or beside the save as it was."""
    if override:
        return override
    candidates = [data.get("file_absolute")]
    if data.get("file_from_save"):
        candidates.append(os.path.join(os.path.dirname(os.path.abspath(save_path)), data["file_from_save"]))
    candidates.append(data.get("file"))
    for c in candidates:
        if c and os.path.isfile(c):
            return c
    raise SaveError(f"cannot find the rules file of this game ({data.get('file')}); "
                    f"give it: cardlang play RULES.cards --resume {save_path}")


def file_hash(path: str) -> str:
    """The SHA-256 of a file's bytes, as `Game.source_hash` has it."""
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError as e:
        raise SaveError(f"cannot read {path}: {e.strerror or e}") from None


def load_saved(save_path: str, rules: Optional[str] = None, *, replay: bool = True) -> tuple[Game, State, dict]:
    """The game, the state with every saved action replayed, and the save's data.

    Refuses (`SaveError`) a save whose rules file changed since it was written: the same action
    numbers could mean other moves, so resuming it would not continue the same game.
    """
    from ..load import load  # late: the loader pulls in the whole pipeline

    data = read_save(save_path)
    path = rules_path(data, save_path, rules)
    digest = file_hash(path)
    if digest != data["hash"]:
        raise SaveError(
            f"{path} has changed since this game was saved, so its saved moves may no longer mean the "
            f"same: it cannot be resumed or replayed (saved with rules {data['hash'][:12]}, the file is "
            f"now {digest[:12]}); restore the file as it was to continue")
    try:
        game = load(path, players=data["players"], options=data["options"])
    except CardlangError as e:
        raise SaveError(f"the rules file {path} does not load: {e.message}") from None
    state = game.new_initial_state(seed=data["seed"], stack=data.get("stack"), draws=data.get("draws"))
    if replay:
        for i, a in enumerate(data["actions"], 1):
            try:
                state.apply(int(a))
            except IllegalActionError as e:  # (a RuleError is the rules' own: the caller reports it)
                raise SaveError(f"{save_path} is damaged: move {i} cannot be played ({e})") from None
    return game, state, data
