"""Text literals of a rule file: the text a quoted literal holds (`unquote`) and where its `{…}`
parts stand (`interpolations`), both in time linear in the literal (a file may hold a 9 MiB one)."""

from __future__ import annotations

import re

_ESCAPE = re.compile(r"\\(.)")
_ESCAPED = {"n": "\n", "t": "\t"}


def unquote(raw: str) -> str:
    """The text of a string literal, quotes removed and escapes applied (`\\n`, `\\t`; `\\x` is `x`)."""
    body = raw[1:-1]
    if "\\" not in body:
        return body
    if "\n" in body:  # (never in a text of a file: a `\\` before a line's end stays as it is)
        return _ESCAPE.sub(lambda m: _ESCAPED.get(m.group(1), m.group(1)), body)
    # with string methods, not a function per escape: a 9 MiB text of `\\n`s took 17 s that way.
    # Split at escaped backslashes (leftmost pairs, as escapes pair); in each piece every `\\`
    # escapes the character after it, and only the last piece may end with a lone `\\` (kept)
    pieces = body.split("\\\\")
    last = pieces[-1]
    lone = last.endswith("\\")  # (a piece holds no `\\\\`: at most one at its end)
    if lone:
        pieces[-1] = last[:-1]
    out = "\\".join(p.replace("\\n", "\n").replace("\\t", "\t").replace("\\", "") for p in pieces)
    return out + "\\" if lone else out


def interpolations(raw: str):
    """Where the `{…}` parts of a text stand in its source: (start, end, True) for each, skipping
    the texts quoted inside one; (start, end, False) for a `{{` or `}}` (a brace). A generator: a
    text of millions of braces is read only as far as the budget of parts allows."""
    i, n = 0, len(raw)
    while i < n:
        if raw.startswith(("{{", "}}"), i):
            yield (i, i + 2, False)
            i += 2
            continue
        if raw[i] == "{":
            j = i + 1
            while j < n and raw[j] not in "{}":
                if raw[j] == '"':  # a text inside the part: its braces are its own
                    j += 1
                    while j < n and raw[j] != '"':
                        j += 2 if raw[j] == "\\" else 1
                j += 1
            if j < n and raw[j] == "}":
                yield (i, j + 1, True)
                i = j + 1
                continue
        i += 1
