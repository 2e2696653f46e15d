"""`cardlang fmt --upgrade`: the rewrites that carry a rule file over a change of the language that
had to break it (docs/language-changes.md lists the changes; each one that breaks files has a rewrite
here, applied before the file is formatted).

A rewrite reads the file with the parser (never by searching its text for words) and changes only
the places the parse names. Today there is one: a name that is a word which alone is an expression
or a statement (`var seats = 0`, E017) is renamed where it is declared and everywhere it stands for
what was declared, `seats` becoming `seats_` (or `seats__`, … if the file already has that name).
"""

from __future__ import annotations

from typing import Callable

import attrs
from lark import Token, Tree
from lark.exceptions import UnexpectedInput

from ..lang.soft_keywords import hard_names, soft_parse
from ..lang.text_literals import interpolations

# a word of the language alone, as the parse tree names it where it stands for itself
_ALONE = {"players", "seats", "teams", "true", "false", "none"}


@attrs.frozen
class Upgrade:
    """One rewrite: its name, the change of the language it follows (as docs/language-changes.md
    says it), and the function from a file's text to the rewritten text."""

    name: str
    change: str
    rewrite: Callable[[str], str]


def _spots(tree, text: str, base: int, words: frozenset, out: list) -> None:
    """The positions (from `base`) where a name in `words` stands in a parsed text, its texts' `{…}`
    parts included."""
    for sub in tree.iter_subtrees():
        if sub.data in _ALONE and sub.data in words and not any(c is not None and not isinstance(c, Token)
                                                                  for c in sub.children):
            pos = sub.meta.start_pos
            if text[pos:pos + len(sub.data)] == sub.data:
                out.append((base + pos, str(sub.data)))
        for child in sub.children:
            if not isinstance(child, Token):
                continue
            if child.type == "NAME" and child in words:
                out.append((base + child.start_pos, str(child)))
            elif child.type == "STRING" and "{" in child:
                raw = str(child)[1:-1]
                for start, end, is_expr in interpolations(raw):
                    if not is_expr:
                        continue
                    part = raw[start + 1:end - 1]
                    try:
                        inner, _ = soft_parse(part, "expr")
                    except UnexpectedInput:
                        continue
                    if isinstance(inner, Tree):
                        _spots(inner, part, base + child.start_pos + 2 + start, words, out)
                    elif isinstance(inner, Token) and inner.type == "NAME" and inner in words:
                        out.append((base + child.start_pos + 2 + start + inner.start_pos, str(inner)))


def rename_hard_names(source: str) -> str:
    """Renames each name that is a word which alone is an expression or a statement (E017)."""
    try:
        tree, _ = soft_parse(source, "start")
    except UnexpectedInput:
        return source  # (the formatter reports the syntax error)
    words = hard_names(tree)
    if not words:
        return source
    taken = {str(t) for t in tree.scan_values(lambda v: isinstance(v, Token) and v.type == "NAME")}
    new = {}
    for w in sorted(words):
        name = w + "_"
        while name in taken:
            name += "_"
        new[w] = name
    spots: list = []
    _spots(tree, source, 0, words, spots)
    out = source
    for pos, word in sorted(set(spots), reverse=True):
        out = out[:pos] + new[word] + out[pos + len(word):]
    return out


UPGRADES = (
    Upgrade("names that are words alone", "A name may be any word of the language except those that alone "
            "are an expression (`players`, `seats`, `teams`, `true`, `false`, `none`), and a phase may not "
            "be named by a word that alone is a statement (`pass`, `break`)",
            rename_hard_names),
)


def upgrade_source(source: str) -> tuple:
    """(the rewritten text, the names of the rewrites that changed it)."""
    done = []
    for up in UPGRADES:
        after = up.rewrite(source)
        if after != source:
            done.append(up.name)
            source = after
    return source, done
