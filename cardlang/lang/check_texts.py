"""W010: a text of the rule file holds a character that is not shown as itself (a control
character such as ESC, a bidi override, a zero-width space).

The grammar lets any character but `"`, `\\` and a line end into a text, so a text can carry a
terminal escape (`ESC ] 0 ;` sets the terminal's title) or reorder how a label reads. Every
command shows such a character escaped (`lang.untrusted.visible`: `\\x1b`), never obeys it; the
warning tells the author (and the reviewer of a pull request) that the text holds one.

Names, ranks and numbers are ASCII by the grammar: only texts can hold such a character, so the
check walks every node of the tree and looks at its strings.
"""

from __future__ import annotations

import unicodedata

import attrs

from .untrusted import visible


def _hidden(text: str):
    """The first character of `text` that `visible` escapes, or None."""
    if text.isprintable():
        return None
    return next((c for c in text if visible(c) != c), None)


def _flat(value):
    """The items of a field: the value itself, or those of a tuple (of tuples) or a list."""
    todo = [value]
    while todo:
        v = todo.pop()
        if isinstance(v, (tuple, list)):
            todo.extend(v)
        else:
            yield v


def check_hidden_characters(checker) -> None:
    """One W010 per node of the tree (a text, a label, the title, a deck's named card) whose own
    texts hold a character that is not shown as itself."""
    stack = list(checker.module.decls)
    seen: set = set()
    while stack:  # (a loop, not a recursion: the tree may be deep)
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        found = None
        for field in attrs.fields(type(node)):
            for v in _flat(getattr(node, field.name)):
                if isinstance(v, str):
                    found = found or _hidden(v)
                elif attrs.has(type(v)):
                    stack.append(v)
        span = getattr(node, "span", None)
        if found is not None and span is not None:
            kind = "a control" if unicodedata.category(found) == "Cc" else "an invisible"
            checker.warn("W010", f"this text holds {kind} character, shown as `{visible(found)}`: no terminal "
                         "escape of a rule file is ever obeyed", span,
                         help="write the text in visible characters (a terminal escape, a bidi override or a "
                              "zero-width character does nothing in a text but hide what it says)")
