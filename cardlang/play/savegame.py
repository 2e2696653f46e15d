"""Saved games: the JSON file `cardlang play --save` keeps up to date, and reading it back.

A game is fully determined by its rules file, options, player count, seed and the actions taken
(`State.to_json`); a save adds who played which seat, the bot, each move's label as the table saw
it (`seen.table_labels`: no card a person at the table did not know), the SHA-256 of the rules file
and a checksum. The file is replaced atomically after every action: an interrupted game (Ctrl-C, a
closed terminal, a crash) loses nothing.

Reading a save is checked in this order, and stops at the first problem with one line naming the
file and the field: a bounded read of a regular file, JSON, the schema (`save_schema`), the rules
file's hash, the player count and options against the game, the stacked deck against the deck, then
every move replayed (each must be legal, each label the one the table saw), and last the checksum.
Nothing of the game runs or shows before all of it passed. docs/saves.md describes the format.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
import tempfile
import time
from typing import Optional, Sequence

from ..lang.diagnostics import CardlangError
from ..lang.files import file_kind
from ..runtime.engine import Game, RuleError, State
from ..runtime.rng import Mersenne, legacy
from .save_schema import (FORMAT, MAX_SAVE_BYTES, SPLITMIX, VERSION, FieldError, Save, checksum, printable, shown,
                          structure, unstructure)
from .seen import labels_at, table_labels, table_seats

__all__ = ["FORMAT", "VERSION", "SaveError", "NotASaveTarget", "save_data", "write_save", "check_save_target",
           "read_save", "load_saved", "rules_path"]


class SaveError(Exception):
    """A save that cannot be read, resumed or replayed; the message is one line for the person."""

    def __init__(self, message: str):
        super().__init__(printable(message))  # whatever a save holds, no terminal sequence is printed


def save_data(state: State, *, humans: Sequence[int] = (), bot: str = "random", labels: Optional[list] = None,
              save_path: Optional[str] = None) -> dict:
    """What a save file holds for `state` (JSON-ready), its checksum last.

    `labels` are the moves' labels as the table (`seen.table_seats(humans)`) saw them; they are
    worked out again, by replaying the game, when not given.
    """
    game = state.game
    seats = table_seats(humans, game.players)
    if labels is None or len(labels) != len(state.history):
        labels = table_labels(state, seats)
    # (a game resumed from a save before SplitMix64 goes on drawing from its Mersenne Twister: saved
    # again, it keeps the version that says so)
    version = VERSION if type(state.rng) is not Mersenne else SPLITMIX - 1
    data = {"format": FORMAT, "version": version, "game": game.title}
    data.update(state.to_json())
    data["stack"] = data["stack"] or None
    data["humans"] = sorted(set(humans))
    data["bot"] = bot
    data["labels"] = list(labels)
    data["finished"] = state.is_terminal()
    data["winners"] = list(state.winners())
    data["saved_at"] = time.strftime("%Y-%m-%dT%H:%M:%S%z")
    absolute = os.path.abspath(game.path)
    data["file_absolute"] = absolute
    if save_path is not None:
        try:
            data["file_from_save"] = os.path.relpath(absolute, os.path.dirname(os.path.abspath(save_path)))
        except ValueError:  # another drive (Windows)
            pass
    data["checksum"] = checksum(data)
    return data


class NotASaveTarget(OSError):
    """A path a save may not be written to: something is there that is not a save of cardlang.

    An OSError, as a full disk is: every caller that reports a failed save reports this one too.
    """

    def __init__(self, message: str):
        super().__init__(printable(message))


# how every save cardlang writes begins (`dumps` writes "format" first); a save laid out otherwise is
# recognised by its JSON
_SAVE_HEAD = re.compile(rb'\A\s*\{\s*"format"\s*:\s*"' + FORMAT.encode() + rb'"')


def check_save_target(path: str) -> str:
    """The file a save to `path` replaces (a symbolic link followed), once it is safe to replace:
    nothing is there, or a save of cardlang is. `NotASaveTarget` (one line) for anything else: the
    rules file being played, another file, a device, a FIFO, a folder, what cannot be read.
    """
    name = printable(path)
    target = os.path.realpath(path)
    try:
        info = os.stat(target)
    except FileNotFoundError:
        return target  # a new file
    except (OSError, ValueError) as e:
        raise NotASaveTarget(f"cannot save to {name}: {getattr(e, 'strerror', None) or e}") from None
    rule = "a save writes a new file or replaces a saved game, nothing else: choose another name"
    refusal = f"will not save to {name}: it is not a saved game ({rule})"
    if not stat.S_ISREG(info.st_mode):  # a device, a FIFO, a folder, a socket: never opened
        raise NotASaveTarget(f"will not save to {name}: it is {file_kind(info.st_mode)} ({rule})")
    if info.st_size > MAX_SAVE_BYTES:
        raise NotASaveTarget(refusal)
    try:  # O_NONBLOCK: a file swapped for a FIFO since the stat does not make the open wait
        fd = os.open(target, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise NotASaveTarget(refusal)
            with os.fdopen(fd, "rb", closefd=False) as f:
                head = f.read(256)
                if not _SAVE_HEAD.match(head):  # (a save laid out by another program: read it whole)
                    raw = head + f.read(MAX_SAVE_BYTES + 1 - len(head))
                    if not _is_save_json(raw):
                        raise NotASaveTarget(refusal)
        finally:
            os.close(fd)
    except OSError as e:
        if isinstance(e, NotASaveTarget):
            raise
        raise NotASaveTarget(f"cannot save to {name}: {e.strerror or e}") from None
    return target


def _is_save_json(raw: bytes) -> bool:
    try:
        data = json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError):  # (UnicodeDecodeError is a ValueError)
        return False
    return isinstance(data, dict) and data.get("format") == FORMAT


def write_save(path: str, data: dict) -> None:
    """Writes a save atomically: a temporary file in the same folder, flushed, then renamed.

    Only a new file or a save of cardlang is replaced (`check_save_target`): anything else at
    `path` is left as it is and `NotASaveTarget` raised.
    """
    path = check_save_target(path)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    replace_atomically(path, dumps(data), ".cardlang-save-")


def replace_atomically(path: str, text: str, prefix: str) -> None:
    """Writes `text` to `path` atomically: a temporary file (named `prefix`…) in the same folder,
    flushed to the disk, then renamed over `path`; nothing is left behind if it fails. The caller
    has checked that `path` is ours to write (`check_save_target`, the web export's own check)."""
    fd, tmp = tempfile.mkstemp(prefix=prefix, suffix=".tmp", dir=os.path.dirname(path))
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
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


def read_save(path: str) -> Save:
    """The checked fields of a save file; `SaveError` naming the file and the field when it is not one.

    Only a regular file is read, and at most `MAX_SAVE_BYTES` of it.
    """
    name = printable(path)
    try:
        info = os.stat(path)
    except FileNotFoundError:
        raise SaveError(f"no saved game at {name}") from None
    except (OSError, ValueError) as e:
        raise SaveError(f"cannot read {name}: {getattr(e, 'strerror', None) or e}") from None
    if not stat.S_ISREG(info.st_mode):  # a FIFO would hang the read, a device never end it
        raise SaveError(f"{name} is not a saved game (not a regular file)")
    if info.st_size > MAX_SAVE_BYTES:
        raise SaveError(f"{name} is not a saved game (it has {info.st_size} bytes; a save has at most "
                        f"{MAX_SAVE_BYTES})")
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_SAVE_BYTES + 1)  # bounded even if the file grows after the stat
    except OSError as e:
        raise SaveError(f"cannot read {name}: {e.strerror or e}") from None
    if len(raw) > MAX_SAVE_BYTES:
        raise SaveError(f"{name} is not a saved game (more than {MAX_SAVE_BYTES} bytes)")
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise SaveError(f"{name} is not a saved game (not UTF-8 text)") from None
    except RecursionError:
        raise SaveError(f"{name} is not a saved game (its JSON is nested too deeply)") from None
    except ValueError as e:  # JSONDecodeError, or a number of more than 4300 digits
        raise SaveError(f"{name} is not a saved game (not valid JSON: {printable(str(e))[:200]})") from None
    try:
        return structure(data)
    except FieldError as e:
        raise SaveError(f"{name}: {e}") from None
    except ValueError as e:
        raise SaveError(f"{name} is not a cardlang saved game ({e})") from None
    except RecursionError:  # nested values inside a field, within the size limit
        raise SaveError(f"{name} is not a saved game (its JSON is nested too deeply)") from None


def rules_path(data: Save, save_path: str, override: Optional[str] = None) -> str:
    """Where the save's rules file is now: `override`, its absolute path, or beside the save as it was."""
    if override:
        return override
    candidates = [data.file_absolute]
    if data.file_from_save:
        candidates.append(os.path.join(os.path.dirname(os.path.abspath(save_path)), data.file_from_save))
    candidates.append(data.file)
    for c in candidates:  # a save names only rule files: it is no way to make cardlang read another file
        if c and c.endswith(".cards") and os.path.isfile(c):
            return c
    raise SaveError(f"{printable(save_path)}: cannot find the rules file of this game ({printable(data.file)}); "
                    f"give it: cardlang play RULES.cards --resume {printable(save_path)}")


def load_saved(save_path: str, rules: Optional[str] = None, *, replay: bool = True) -> tuple[Game, State, Save]:
    """The game, the state with every saved action replayed, and the save's checked fields.

    Refuses (`SaveError`) a save that is malformed, whose rules file changed since it was written
    (the same action numbers could mean other moves), or that was edited: a move that is not legal,
    a label that is not what the table saw, a checksum that does not match. `replay=False` returns
    the initial state, every check done all the same.
    """
    game, state, data, stopped = load_saved_or_stop(save_path, rules)
    if not replay:  # (a replay of its moves meets the error again; one before the first decision is raised)
        return game, _initial_state(data, game), data
    if stopped is not None:
        raise stopped
    return game, state, data


def load_saved_or_stop(save_path: str, rules: Optional[str] = None) -> tuple[Game, State, Save, Optional[RuleError]]:
    """As `load_saved`, with every check, playing the saved moves once: (game, state, save, the rule
    error the saved game stopped on or None); a game a rule stopped gives its initial state."""
    data = read_save(save_path)
    name = printable(save_path)
    path = rules_path(data, save_path, rules)
    game = _game(data, path, name)
    stopped = None  # a rule error the saved game met (a game a rule stopped is saved as it stood)
    try:
        _check_game_fields(data, game)
        state = _initial_state(data, game)
        _replay(data, game, state)
    except FieldError as e:
        raise SaveError(f"{name}: {e}") from None
    except RuleError as e:
        stopped = e
    if data.checksum is not None and data.checksum != checksum(unstructure(data)):
        raise SaveError(f'{name}: field "checksum": it does not match the file\'s contents: the file was '
                        f"edited or damaged since cardlang wrote it, so it cannot be resumed or replayed")
    if stopped is not None:
        state = _initial_state(data, game)  # (raises a rule error met before the first decision)
    return game, state, data, stopped


def _game(data: Save, path: str, name: str) -> Game:
    """The save's game, compiled for its players and options, once its rules are the saved ones."""
    from ..load import check_file, load, source_hash  # late: the loader pulls in the whole pipeline

    symbols, diagnostics = check_file(path)
    errors = [d for d in diagnostics if d.is_error]
    digest = source_hash(path, symbols) if symbols is not None and not errors else _file_hash(path)
    if digest != data.hash:
        raise SaveError(
            f'{name}: field "hash": the rules file {path} has changed since this game was saved, so its '
            f"saved moves may no longer mean the same: it cannot be resumed or replayed (saved with rules "
            f"{data.hash[:12]}, the file is now {digest[:12]}); restore the file as it was to continue")
    if symbols is None or errors:
        first = (errors or diagnostics)[0].message if (errors or diagnostics) else "it does not load"
        raise SaveError(f"{name}: the rules file {path} does not load: {first}")
    low, high = symbols.players
    if not low <= data.players <= high:
        raise SaveError(f'{name}: field "players": {symbols.title} is for {low} to {high} players, '
                        f"not {data.players}")
    for option, value in data.options.items():
        decl = symbols.options.get(option)
        if decl is None:
            raise SaveError(f'{name}: field "options": {symbols.title} has no option {shown(option)}')
        wanted = str if isinstance(decl.default, tuple) else type(decl.default)  # (a list option: its text)
        if type(value) is not wanted:
            kind = {bool: "true or false", int: "a whole number", str: "a text"}[wanted]
            raise SaveError(f'{name}: field "options.{printable(option)}": expected {kind}, got {shown(value)}')
    try:
        game = load(path, players=data.players, options=data.options)
    except CardlangError as e:  # an option out of its range; the file's own errors were caught above
        raise SaveError(f'{name}: field "options": {e.message}') from None
    if game.source_hash != data.hash:  # the file changed in between
        raise SaveError(f'{name}: field "hash": the rules file {path} has changed since this game was saved: '
                        "it cannot be resumed or replayed")
    return game


def _check_game_fields(data: Save, game: Game) -> None:
    """The stacked deck names cards of this game's deck, each at most once a shuffle; the bot is known."""
    deck = game.deck
    for i, shuffle in enumerate(data.stack or ()):
        seen: set = set()
        for j, card in enumerate(shuffle):
            where = f"shuffle {i + 1}, card {j + 1}"
            if isinstance(card, str) and not deck.card_ids(card):
                raise FieldError("stack", f"no card {shown(card)} in the {deck.name} deck ({where})")
            try:  # (a face named without its copy number names its next copy not listed yet)
                seen.add(deck.pick(card, seen))
            except ValueError as e:
                raise FieldError("stack", f"{e} ({where})") from None
    from .bots import BotNameError, make_bot  # late: the bots pull in the search code

    try:
        make_bot(data.bot, seed=0)
    except BotNameError as e:
        raise FieldError("bot", str(e.args[0] if e.args else e)) from None


def _initial_state(data: Save, game: Game) -> State:
    try:
        return game.new_initial_state(seed=data.seed, stack=data.stack, draws=data.draws, chance=initial_chance(data))
    except RuleError as e:
        if data.draws and "fixed draw" in str(e):
            raise FieldError("draws", f"the game cannot start: {e.message}") from None
        raise  # the rules stop the game before its first decision, as they did when it was saved


def initial_chance(data: Save) -> Optional[Mersenne]:
    """The chance a saved game starts from (`Game.new_initial_state`'s `chance`): a save before
    version 3 was played with CPython's Mersenne Twister (`runtime.rng.legacy`), a later one from
    its seed (None)."""
    return legacy(data.seed) if data.version < SPLITMIX else None


def _replay(data: Save, game: Game, state: State) -> None:
    """Plays every saved move on `state`, checking each against what the save says the table saw.

    The first problem is reported: a move that cannot be played is checked after the labels of
    the moves before it, so that an edited move is named where it was edited.
    """
    seats = table_seats(data.humans, game.players)
    program = game.program
    lines = []  # the log line of each move's choice

    def check_labels():
        if data.version >= 2:
            for i, label in enumerate(labels_at(state, seats, lines)):
                _same_label(i, data.labels[i], label)

    for i, action in enumerate(data.actions):
        if state.is_terminal():
            check_labels()
            raise FieldError(f"actions[{i}]", f"move {i + 1}: the game was over after {i} moves; "
                                              "the file was edited or damaged")
        if action not in state.legal_action_ids():
            check_labels()
            # the legal moves are not listed: their labels could name cards hidden from the table
            raise FieldError(f"actions[{i}]", f"move {i + 1} (action {action}) is not a legal move there; "
                                              "the file was edited or damaged")
        if data.version == 1 and data.labels is not None:  # version 1 wrote every label unmasked
            _same_label(i, data.labels[i], program.label(state, action))
        lines.append(len(state.log))
        try:
            state.apply(action)
        except RuleError as e:
            lines.pop()
            check_labels()
            if data.draws and "fixed draw" in str(e):
                raise FieldError("draws", f"move {i + 1} cannot be played: {e.message}") from None
            raise  # the rules' own error at this move, as the game met it: the caller reports it
    check_labels()
    if data.version >= 2:
        for name, value, played in (("finished", data.finished, state.is_terminal()),
                                    ("winners", data.winners, list(state.winners()))):
            if value != played:
                raise FieldError(name, f"{shown(value)}, but the game its moves play says {shown(played)}: "
                                       "the file was edited")


def _same_label(i: int, saved: str, replayed: str) -> None:
    if saved != replayed:
        raise FieldError(f"labels[{i}]", f"move {i + 1} reads {shown(replayed)} when replayed, but the save "
                                         f"says the table saw {shown(saved)}: the file was edited, so it "
                                         f"cannot be resumed or replayed")


def _file_hash(path: str) -> str:
    """The SHA-256 of a file's bytes (for a rules file that no longer loads)."""
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError as e:
        raise SaveError(f"cannot read {path}: {e.strerror or e}") from None
