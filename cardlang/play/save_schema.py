"""The save file's schema: one attrs class, each field's type checked by cattrs, its values by attrs.

A save is untrusted input (someone may send you one), so a file is parsed in bounded memory and
every field is checked, with its type and then its values, before anything of the game runs; the
first problem found is reported in one line naming the field (`field "players": expected a whole
number, got "5"`). Format versions: 1 (cardlang 0.1: the moves' labels were written unmasked,
no checksum) and 2 (the chance drawn from CPython's Mersenne Twister) are still read; 3 (the chance
drawn from SplitMix64, `runtime/rng.py`) is written. What the fields mean is in docs/saves.md.
"""

from __future__ import annotations

import hashlib
import json
import re
import unicodedata
from typing import Optional, Union

import attrs
import cattrs
from cattrs.cols import is_mapping, is_sequence, list_structure_factory
from cattrs.gen import make_mapping_structure_fn

FORMAT = "cardlang-save"
VERSION = 3  # the format written; 1 and 2 are still read (docs/saves.md says what changed)
READS = (1, 2, 3)
SPLITMIX = 3  # the first version whose game draws from SplitMix64 (before: `runtime.rng.Mersenne`)
MAX_SAVE_BYTES = 4 * 1024 * 1024  # 100 times the longest game of games/; a bigger file is not read
MAX_MOVES = 100_000  # moves in a save: its lists are counted before any of their items is looked at
MAX_TEXT = 4096  # characters in any text of a save (a path, a label)
MAX_ACTION = 1 << 32  # action ids are 32-bit (`runtime.actions`: alternative index, then a 16-bit value)
MAX_SEED = 1 << 64

# every field a save of version 2 or later must have; version 1 required only these five
REQUIRED_V1 = ("hash", "players", "options", "seed", "actions")
# the fields the checksum covers: everything that decides the game, and what the table saw
CHECKED = ("format", "version", "hash", "players", "options", "seed", "stack", "draws", "actions", "humans",
           "bot", "labels")


class FieldError(Exception):
    """A field of a save that is missing or has a wrong value: `field` names it, the text says why."""

    def __init__(self, field: str, text: str):
        super().__init__(f'field "{field}": {text}')
        self.field = field
        self.text = text


class _Wrong(Exception):
    """A value of the wrong type (raised in a structure hook; cattrs adds where it was)."""


def shown(value, limit: int = 40) -> str:
    """A value as JSON, shortened, with control characters escaped: safe to print in a message."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = type(value).__name__
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return printable(text)


def printable(text: str) -> str:
    """`text` with every control or format character written as an escape (no terminal sequence)."""
    return "".join(c if unicodedata.category(c) not in ("Cc", "Cf", "Cs", "Co", "Cn") else f"\\u{ord(c):04x}" for c in text)


# ---------------------------------------------------------------- values
def _whole(low: int, high: int):
    def check(_, attribute, value):
        for i, v in enumerate(value if isinstance(value, list) else [value]):
            if not low <= v < high:
                where = attribute.name + (f"[{i}]" if isinstance(value, list) else "")
                raise FieldError(where, f"{shown(v)} is out of range ({low} to {high - 1})")
    return check


def _text(_, attribute, value):
    for i, v in enumerate(value if isinstance(value, list) else [value]):
        if v is None:
            continue
        where = attribute.name + (f"[{i}]" if isinstance(value, list) else "")
        if len(v) > MAX_TEXT:
            raise FieldError(where, f"a text of {len(v)} characters (at most {MAX_TEXT})")
        if "\0" in v:
            raise FieldError(where, "a text with a NUL character")


def _hex64(_, attribute, value):
    if value is not None and not re.fullmatch(r"[0-9a-f]{64}", value):
        raise FieldError(attribute.name, f"expected a SHA-256 in hexadecimal, got {shown(value)}")


def _distinct(_, attribute, value):
    seen = set()
    for i, v in enumerate(value):
        if v in seen:
            raise FieldError(f"{attribute.name}[{i}]", f"{shown(v)} is there twice")
        seen.add(v)


def _options(_, attribute, value):
    for name, v in value.items():
        if len(name) > 100:
            raise FieldError("options", f"an option name of {len(name)} characters")
        if isinstance(v, str) and len(v) > MAX_TEXT:
            raise FieldError(f"options.{printable(name)}", f"a text of {len(v)} characters (at most {MAX_TEXT})")
        if type(v) is int and not -MAX_SEED < v < MAX_SEED:
            raise FieldError(f"options.{printable(name)}", f"{shown(v)} is out of range")


def _stack(_, attribute, value):
    for i, shuffle in enumerate(value or ()):
        if len(shuffle) > 1000:
            raise FieldError(f"stack[{i}]", f"{len(shuffle)} cards (at most 1000)")
        for j, card in enumerate(shuffle):
            if isinstance(card, str) and len(card) > 20:
                raise FieldError(f"stack[{i}][{j}]", f"{shown(card)} is not a card name")


def _stack_shape(value):
    """One shuffle (a list of cards) is also accepted, as `new_initial_state` takes it."""
    if isinstance(value, list) and value and all(type(c) in (str, int) for c in value):
        return [value]
    return value


Card = Union[str, int]  # a card by name (`10h`, `A♠`) or by id
OptionValue = Union[bool, int, str]


@attrs.frozen(kw_only=True)
class Save:
    """A save file's fields (docs/saves.md): what resuming needs, who sat where, the table's labels."""

    format: str
    version: int
    game: str = attrs.field(default="", validator=_text)
    file: str = attrs.field(default="", validator=_text)
    hash: str = attrs.field(validator=_hex64)
    players: int = attrs.field(validator=_whole(1, 1001))
    options: dict[str, OptionValue] = attrs.field(validator=_options)
    seed: int = attrs.field(validator=_whole(-MAX_SEED + 1, MAX_SEED))
    stack: Optional[list[list[Card]]] = attrs.field(default=None, validator=_stack)
    draws: Optional[list[int]] = attrs.field(default=None,
                                             validator=attrs.validators.optional(_whole(-(1 << 31), 1 << 31)))
    actions: list[int] = attrs.field(validator=_whole(0, MAX_ACTION))
    humans: list[int] = attrs.field(factory=lambda: [0], validator=[_whole(0, 1000), _distinct])
    bot: str = attrs.field(default="random", validator=_text)
    # each move's label as the table saw it (version 2); version 1 wrote them unmasked, or not at all
    labels: Optional[list[str]] = attrs.field(default=None, validator=attrs.validators.optional(_text))
    finished: bool = False
    winners: list[int] = attrs.field(factory=list, validator=_whole(0, 1000))
    saved_at: str = attrs.field(default="", validator=_text)
    file_absolute: Optional[str] = attrs.field(default=None, validator=_text)
    file_from_save: Optional[str] = attrs.field(default=None, validator=_text)
    checksum: Optional[str] = attrs.field(default=None, validator=_hex64)

    def __attrs_post_init__(self):
        for name in ("humans", "winners"):
            for i, seat in enumerate(getattr(self, name)):
                if seat >= self.players:
                    raise FieldError(f"{name}[{i}]", f"seat {seat}, but the game has {self.players} seats "
                                                     f"(0 to {self.players - 1})")
        if self.version >= 2:
            for name in ("labels", "checksum"):
                if getattr(self, name) is None:
                    raise FieldError(name, "missing (null)")
        if self.labels is not None and len(self.labels) != len(self.actions):
            raise FieldError("labels", f"{len(self.labels)} labels for {len(self.actions)} moves")


FIELDS = tuple(a.name for a in attrs.fields(Save))


# ---------------------------------------------------------------- types
def _strict(kind: type, expected: str):
    return _one_of((kind,), expected)


def _one_of(kinds: tuple, expected: str):
    def hook(value, _):
        if type(value) in kinds:
            return value
        raise _Wrong(f"expected {expected}, got {shown(value)}")
    return hook


def _converter() -> cattrs.Converter:
    conv = cattrs.Converter(forbid_extra_keys=True, detailed_validation=True)
    conv.register_structure_hook(int, _strict(int, "a whole number"))  # not "5", 5.0 or true
    conv.register_structure_hook(str, _strict(str, "a text"))
    conv.register_structure_hook(bool, _strict(bool, "true or false"))
    conv.register_structure_hook(Card, _one_of((str, int), "a card name or a card id"))
    conv.register_structure_hook(OptionValue, _one_of((bool, int, str), "a number, true, false or a text"))

    def lists(t, c):
        inner = list_structure_factory(t, c)

        def hook(value, _):
            if type(value) is not list:  # a text or an object is not a list, even though it iterates
                raise _Wrong(f"expected a list, got {shown(value)}")
            return inner(value, t)
        return hook

    def mappings(t, c):
        inner = make_mapping_structure_fn(t, c)

        def hook(value, _):
            if type(value) is not dict:
                raise _Wrong(f"expected an object, got {shown(value)}")
            return inner(value, t)
        return hook

    conv.register_structure_hook_factory(is_sequence, lists)
    conv.register_structure_hook_factory(is_mapping, mappings)
    return conv


CONVERTER = _converter()


def _first_problem(error: Exception) -> FieldError:
    """The first leaf of cattrs' error tree as a FieldError (cattrs' path `$.stack[0]` → `stack[0]`)."""
    found = _find(error, FieldError)  # a value check of the class, raised once every type was right
    if found is not None:
        return found
    def describe(exc, _type):
        if isinstance(exc, _Wrong):
            return str(exc)
        if isinstance(exc, KeyError):
            return "missing"
        if isinstance(exc, cattrs.ForbiddenExtraKeysError):
            return "unknown: " + ", ".join(sorted(map(str, exc.extra_fields)))
        return f"a wrong value ({type(exc).__name__})"

    message = cattrs.transform_error(error, path="$", format_exception=describe)[0]
    text, _, where = message.rpartition(" @ ")
    where = re.sub(r"\['([^']*)'\]", r".\1", where).removeprefix("$").removeprefix(".")
    if text.startswith("unknown: "):
        return FieldError(text.removeprefix("unknown: "), f"not a field of a save (fields: "
                                                          f"{', '.join(FIELDS)})")
    return FieldError(printable(where) or "(the file)", text)


def structure(data) -> Save:
    """A save's JSON data as a `Save`, or the first problem (`FieldError`, `ValueError` for no save)."""
    if not isinstance(data, dict):
        raise ValueError(f"a JSON object was expected, got {_json_kind(data)}")
    if data.get("format") != FORMAT:
        raise ValueError(f'it has no "format": "{FORMAT}"')
    version = data.get("version")
    if type(version) is not int:
        raise FieldError("version", "missing" if version is None else f"expected a whole number, got {shown(version)}")
    if version > max(READS):
        raise FieldError("version", f"saved by a newer cardlang (save format {version}; this one reads "
                                    f"{_versions()})")
    if version not in READS:
        raise FieldError("version", f"no save format {version} exists (this cardlang reads "
                                    f"{_versions()})")
    required = REQUIRED_V1 if version == 1 else FIELDS
    for name in required:
        if name not in data and name not in ("file_absolute", "file_from_save"):
            raise FieldError(name, "missing")
    for name, limit in (("actions", MAX_MOVES), ("labels", MAX_MOVES), ("draws", MAX_MOVES), ("stack", 1000),
                        ("humans", 1000), ("winners", 1000), ("options", 1000)):
        value = data.get(name)
        if isinstance(value, (list, dict)) and len(value) > limit:
            raise FieldError(name, f"{len(value)} items (at most {limit})")
    if "stack" in data:
        data = dict(data, stack=_stack_shape(data["stack"]))
    try:
        return CONVERTER.structure(data, Save)
    except FieldError:
        raise
    except Exception as e:  # cattrs' validation errors: the first one, with its place
        raise _first_problem(e) from None


def _versions() -> str:
    return ", ".join(map(str, READS[:-1])) + f" and {READS[-1]}"


def unstructure(save: Save) -> dict:
    """The JSON-ready dict of a save, its fields in order (a field that is None and optional left out)."""
    data = CONVERTER.unstructure(save)
    for name in ("file_from_save", "file_absolute"):
        if data.get(name) is None:
            data.pop(name, None)
    return data


def checksum(data: dict) -> str:
    """The SHA-256 of the fields that decide the game and of the table's labels, canonical JSON.

    It is not a signature (anyone can compute it again): it tells an edited or damaged file from
    the one cardlang wrote, including a change to a move that the table never saw.
    """
    covered = {name: data.get(name) for name in CHECKED}
    text = json.dumps(covered, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _find(error: BaseException, kind: type):
    if isinstance(error, kind):
        return error
    for inner in getattr(error, "exceptions", ()):
        found = _find(inner, kind)
        if found is not None:
            return found
    return None


def _json_kind(value) -> str:
    return {list: "a list", str: "a text", bool: "true or false", type(None): "null"}.get(
        type(value), "a number")
