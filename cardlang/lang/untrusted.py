"""Text that came from outside (a rule file, a save, a file name) made safe to show at a terminal.

A rule file's texts reach the screen: the title, `about`, announcements, labels, text variables.
Written with raw control bytes (the grammar lets any character but `"`, `\\` and a line end into a
text), they could drive the terminal: `ESC ] 0 ;` sets its title, `ESC ] 52 ;` writes the
clipboard, `ESC ] 8 ;` makes a link, `ESC [ 2K` erases a line to forge another, a bidi override
turns a label around. `visible` is the one function that makes such text harmless: every
character that is not shown as itself (Unicode's "other" categories: C0 and C1 controls, DEL,
format characters such as bidi overrides and zero-width spaces, surrogates, private and unassigned
code points; and the line and paragraph separators) is written as its escape, `ESC` as `\\x1b`.
The text keeps its meaning for the reader and the terminal gets only printable characters.

It lives in `cardlang.lang`, the lowest layer, so that the checker's diagnostics, the saves' messages
and every command use the same rule (docs/security.md, "Untrusted text").
"""

from __future__ import annotations

import re
import unicodedata

_NAMED = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _escape(c: str) -> str:
    named = _NAMED.get(c)
    if named is not None:
        return named
    o = ord(c)
    if 0xDC80 <= o <= 0xDCFF:  # a byte of a file name that was not UTF-8 (`surrogateescape`): that byte
        return f"\\x{o - 0xDC00:02x}"
    if o < 0x100:
        return f"\\x{o:02x}"
    return f"\\u{o:04x}" if o < 0x10000 else f"\\U{o:08x}"


def _hidden(c: str, newlines: bool) -> bool:
    if c.isprintable():
        return False
    if c == "\n":
        return not newlines
    return unicodedata.category(c) != "Zs"  # a no-break or wide space shows as a space


def visible(text: str, newlines: bool = False) -> str:
    """`text` with every character that is not shown as itself written as its escape (`\\x1b`,
    `\\u202e`, `\\n`): what a terminal gets is only printable characters and plain spaces.

    `newlines` keeps line ends, for a text shown on several lines; by default a text is one line
    (a label, a log line, a title), and a line end in it is shown as `\\n`."""
    if text.isprintable():  # the common case, in C: nothing to do
        return text
    return "".join(_escape(c) if _hidden(c, newlines) else c for c in text)


_JSON_RAW = re.compile(r"[^\x00-\x7e]")  # json.dumps(ensure_ascii=False) escapes C0, `"` and `\`, not these


def visible_json(document: str) -> str:
    """A JSON document (from `json.dumps(..., ensure_ascii=False)`) with the characters JSON leaves
    raw but a terminal would obey (DEL, C1 controls, bidi and other format characters, lone
    surrogates) written as `\\uXXXX` escapes: the same data, safe to print."""
    def escape(m: re.Match) -> str:
        c = m.group(0)
        if not _hidden(c, True):
            return c
        o = ord(c)
        if o < 0x10000:
            return f"\\u{o:04x}"
        o -= 0x10000
        return f"\\u{0xD800 + (o >> 10):04x}\\u{0xDC00 + (o & 0x3FF):04x}"

    if document.isascii() and "\x7f" not in document:
        return document
    return _JSON_RAW.sub(escape, document)
