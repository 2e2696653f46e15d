"""The web table's messages (docs/web.md): what a seat and a spectator are sent, what a client may send.

A seat's `view` message is made from `State.view(seat)` alone (its observation, its legal actions
with the labels it may read and the ids of the view, its transcript); a spectator's from the public
view (`runtime.public_view`). `encode` writes a message the same way every time, so that two
histories a seat cannot tell apart give byte-identical messages (the leak test compares them).
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Optional

from ..play.table_view import score_order
from ..runtime.public_view import public_observation

MAX_MESSAGE = 4096  # bytes of one message from a client
MAX_COMMENT = 2000  # characters of a rating's comment
CLIENT_TYPES = ("act", "undo", "rate", "ping")


class BadMessage(ValueError):
    """A client's message that is refused: its one-line reason."""


def _invisible_class() -> re.Pattern:
    """The characters that are not shown as themselves (controls, format characters such as bidi
    overrides and zero-width spaces, line separators, private use, unassigned): `encode` writes
    them as `\\uXXXX` escapes, as `lang.untrusted.visible` does for a terminal."""
    ranges, start = [], None
    for code in range(0x10000):
        bad = 0xD800 <= code <= 0xDFFF or unicodedata.category(chr(code)) in ("Cc", "Cf", "Zl", "Zp", "Co", "Cn")
        if bad and start is None:
            start = code
        elif not bad and start is not None:
            ranges.append((start, code - 1))
            start = None
    if start is not None:
        ranges.append((start, 0xFFFF))
    parts = [re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}" for a, b in ranges]
    parts.append("\U00010000-\U0010ffff")  # (above the BMP: escaped whatever it is, rare in a game)
    return re.compile("[" + "".join(parts) + "]")


_INVISIBLE = _invisible_class()


def _escape(m: re.Match) -> str:
    code = ord(m.group(0))
    if code < 0x10000:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def encode(message: dict) -> str:
    """A message as sent: compact JSON, keys in the order built, text as UTF-8 (no HTML anywhere),
    every character that is not shown as itself escaped (JSON reads it back the same)."""
    return _INVISIBLE.sub(_escape, json.dumps(message, ensure_ascii=False, separators=(",", ":"), allow_nan=False))


def error(message: str) -> str:
    """An error message: one line."""
    return encode({"type": "error", "message": " ".join(str(message).split())[:500]})


def player_names(n: int) -> list:
    """`["P0", "P1", …]`: how the engine names the seats."""
    return [f"P{s}" for s in range(n)]


def result_of(state) -> Optional[dict]:
    """Who won and the scores, once the game is over (None before): public at the end."""
    if not state.is_terminal():
        return None
    return {"winners": list(state.winners()), "scores": [_number(x) for x in state.scores()],
            "returns": [_number(x) for x in state.returns()], "order": score_order(state.game)}


def _number(x):
    return int(x) if isinstance(x, float) and x.is_integer() else x


def to_act(state) -> list:
    """The seats the table waits for."""
    return [] if state.is_terminal() else [state.current_player]


def seat_view(state, seat: int, seq: int, extra: Optional[dict] = None) -> dict:
    """The `view` message of seat `seat`: built from `state.view(seat)` only."""
    view = state.view(seat)
    obs = view.observation()
    log = obs.pop("log", [])
    obs.pop("legal_actions", None)
    actions = [{"id": int(a.id), "label": a.label} for a in view.legal_actions()]
    msg = {"type": "view", "seq": seq, "seat": seat, "to_act": to_act(state), "observation": obs,
           "actions": actions, "log": log, "over": state.is_terminal(), "result": result_of(state)}
    if extra:
        msg.update(extra)
    return msg


def spectator_view(state, seq: int, extra: Optional[dict] = None) -> dict:
    """The `view` message of a spectator: the public view (what every seat knows)."""
    obs = public_observation(state)
    log = obs.pop("log", [])
    msg = {"type": "view", "seq": seq, "seat": None, "to_act": to_act(state), "observation": obs,
           "actions": [], "log": log, "over": state.is_terminal(), "result": result_of(state)}
    if extra:
        msg.update(extra)
    return msg


def parse_client(raw) -> dict:
    """A client's message, checked: `BadMessage` (one line) for anything that is not one of
    `act`, `undo`, `rate`, `ping` with fields of the right types and sizes."""
    if isinstance(raw, bytes):
        raise BadMessage("messages are JSON text, not binary")
    if not isinstance(raw, str):
        raise BadMessage("messages are JSON text")
    if len(raw.encode("utf-8", "surrogatepass")) > MAX_MESSAGE:
        raise BadMessage(f"a message is at most {MAX_MESSAGE} bytes")
    try:
        data = json.loads(raw, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        raise BadMessage("a message is one JSON object") from None
    if not isinstance(data, dict):
        raise BadMessage("a message is one JSON object")
    kind = data.get("type")
    if kind not in CLIENT_TYPES:
        raise BadMessage(f"unknown message type (types: {', '.join(CLIENT_TYPES)})")
    if kind == "act":
        a, seq = data.get("id"), data.get("seq")
        if not _whole(a) or not 0 <= a < 2 ** 62:
            raise BadMessage("`act` needs `id`, the whole number of one of your actions")
        if seq is not None and (not _whole(seq) or seq < 0):
            raise BadMessage("`seq` is the whole number of the view you acted on")
        return {"type": "act", "id": a, "seq": seq}
    if kind == "rate":
        stars, comment = data.get("stars"), data.get("comment", "")
        if not _whole(stars) or not 1 <= stars <= 5:
            raise BadMessage("`stars` is a whole number from 1 to 5")
        if not isinstance(comment, str):
            raise BadMessage("`comment` is a text")
        if len(comment) > MAX_COMMENT:
            raise BadMessage(f"a comment is at most {MAX_COMMENT} characters")
        return {"type": "rate", "stars": stars, "comment": comment}
    return {"type": kind}


def _whole(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _no_constant(name):
    raise ValueError(name)
