"""Soft keywords: a word of the language is a name wherever the rules read a name and the word's
own meaning does not go on (docs/language.md, "Words of the language as names").

Lark's contextual lexer already reads `team` as a name where only a name can come (`var team = 0`).
Where both could come (the start of an expression: `team + 1` or `team of p`), it reads the keyword,
and the line fails a token or two later. Then the parse is tried again with the nearest keyword
before the failure read as a name; the name reading is kept only if it gets further than the
keyword reading did. The keyword's meaning goes first, so no file that parsed before parses
differently; only files that failed can parse now.

A word read as a name is written, for the parser only, as a name of the same length that no keyword
can be (`_eam` for `team`), so every position in the file stays where it was; the tree gets the
word back (`restore`).

A few words stand alone as a whole expression or statement (`players`, `none`, `pass`, …:
`hard_words()`): where one stands alone it keeps its meaning, so a file cannot name a variable with
it (E017, one error at the declaration, which `cardlang fmt --upgrade` renames).
"""

from __future__ import annotations

import functools
import re
from typing import Optional

from lark import Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedInput

from .grammar import keywords, parser

MAX_TRIES_PER_ERROR = 4  # keywords before a failure tried as names (nearest first)
SOFT_BUDGET = 2_000_000  # characters the retries may parse again, besides 20 times the file's length
_LINE_START = re.compile(r"\n")
_WORD_CHAR = re.compile(r"[A-Za-z_]")
_WORD_START = re.compile(r"[A-Za-z0-9_]")


@functools.lru_cache(maxsize=1)
def _words() -> frozenset:
    return frozenset(keywords().values())


@functools.lru_cache(maxsize=1)
def _scanner() -> re.Pattern:
    """Texts, comments and words, in one pattern: a keyword inside a text or a comment is no token."""
    string = next(t.pattern.to_regexp() for t in parser().terminals if t.name == "STRING")
    return re.compile(rf"(?P<s>{string})|(?P<c>#[^\n]*)|(?P<w>[A-Za-z_][A-Za-z0-9_]*)|(?P<o>[^\sA-Za-z_\"#]+)")


def _error_pos(e, text: str) -> int:
    if isinstance(e, (UnexpectedCharacters, _Split)):
        return e.pos_in_stream
    tok = getattr(e, "token", None)
    if tok is None or tok.type == "$END" or getattr(tok, "start_pos", None) is None:
        return len(text)
    return tok.start_pos


def _statement_start(text: str, pos: int) -> int:
    """Where the logical line holding `pos` starts: lines joined by `\\` or an open bracket go with it."""
    start = text.rfind("\n", 0, pos) + 1
    while start > 0:
        prev_start = text.rfind("\n", 0, start - 1) + 1
        prev = text[prev_start:start - 1].split("#", 1)[0].rstrip()
        if not (prev.endswith("\\") or prev.count("(") + prev.count("[") > prev.count(")") + prev.count("]")):
            break
        start = prev_start
    return start


def _candidates(text: str, pos: int, forced: dict) -> list:
    """Keywords before `pos` on its logical line, nearest first, not yet read as names."""
    start = _statement_start(text, pos)
    words = _words()
    out = []
    end = text.find("\n", pos)
    for m in _scanner().finditer(text, start, len(text) if end == -1 else end):
        if m.end() > pos:  # (a word the error cuts in two is not before it)
            break
        w = m.group("w")
        if w is not None and w in words and m.start() not in forced:
            out.append((m.start(), w))
    return out[::-1][:MAX_TRIES_PER_ERROR]


def as_names(text: str, forced: dict) -> str:
    """The text with each forced keyword written as a name of the same length."""
    if not forced:
        return text
    parts, last = [], 0
    for pos in sorted(forced):
        word = forced[pos]
        parts.append(text[last:pos])
        parts.append("_" + word[1:] if len(word) > 1 else "_")
        last = pos + len(word)
    parts.append(text[last:])
    return "".join(parts)


def restore(tree, forced: dict):
    """The tree with each forced name's token given back its word."""
    if not forced or not isinstance(tree, Tree):
        return tree
    for sub in tree.iter_subtrees():
        for i, child in enumerate(sub.children):
            if isinstance(child, Token) and child.start_pos in forced:
                sub.children[i] = child.update(value=forced[child.start_pos])
    return tree


def _items(text: str) -> list:
    """(start, end) of each top-level item (a declaration, or a block with its lines): each starts at
    a line that starts at the left margin. The parser is in the same state at every such line, so
    an item parses alone."""
    starts = [0] + [m.end() for m in _LINE_START.finditer(text) if _opens_item(text, m.end())]
    starts = sorted(set(starts))
    return list(zip(starts, starts[1:] + [len(text)]))


def _opens_item(text: str, at: int) -> bool:
    ch = text[at:at + 1]
    return ch not in ("", " ", "\t", "\n", "\r", "#", "\f")


class _Split:
    """A parse that cut a word in two: the lexer took a keyword for the start of a longer word
    (`total` read as `to` and `tal` where a name cannot come but `to` can); a word is one token."""

    def __init__(self, pos: int):
        self.pos_in_stream = pos


def _try(p, text: str, start: str, forced: dict):
    """(tree, None), or (None, the error): the parser's, or a `_Split` where a token starts inside a
    word, whichever comes first."""
    ip = p.parse_interactive(as_names(text, forced), start=start)
    last = None
    try:
        for tok in ip.iter_parse():
            at = tok.start_pos
            if at and tok.type != "_NL" and _WORD_CHAR.match(text, at - 1) and _WORD_START.match(text, at):
                return None, _Split(at)
            last = tok
        return ip.feed_eof(last), None
    except UnexpectedInput as e:
        if getattr(e, "interactive_parser", None) is None:  # (as `Lark.parse` gives it: what was expected)
            e.interactive_parser = ip
        return None, e


def _improve(p, text: str, start: str, forced: dict, budget: list) -> None:
    """Reads keywords of `text` as names (into `forced`) while that gets the parse further. A line's
    names are kept once the parse gets past the line: a reading that only moves the failure along
    the line (`else if x:` read as a name `else`) is dropped, and the keyword reading's error stands."""
    tentative: dict = {}
    line = -1  # where the logical line with tentative names starts
    while budget[0] > 0:
        budget[0] -= len(text)
        both = {**forced, **tentative}
        tree, err = _try(p, text, start, both)
        if err is None:
            forced.update(tentative)
            return
        where = _error_pos(err, text)
        if tentative and _statement_start(text, where) > line:
            forced.update(tentative)  # the line parsed with its names: keep them
            tentative = {}
        both = {**forced, **tentative}
        for cand, word in _candidates(text, where, both):
            budget[0] -= len(text)
            tree, err2 = _try(p, text, start, {**both, cand: word})
            if err2 is None or _error_pos(err2, text) > where:  # the name reading goes further
                tentative[cand] = word
                line = _statement_start(text, cand)
                break
        else:
            return


def soft_parse(text: str, start: str) -> tuple:
    """(tree, forced) for `text`, reading keywords as names where only that parses (see the module's
    docstring); `forced` maps each such word's position to the word. Raises the parser's error, from
    the reading that got furthest, when the text does not parse. The retries parse only the
    top-level items that fail alone, within a budget of characters, so a file's time stays bounded."""
    p = parser()
    tree, err = _try(p, text, start, {})
    if err is None:
        return tree, {}
    forced: dict = {}
    budget = [SOFT_BUDGET + 20 * len(text)]
    if start == "start":
        for lo, hi in _items(text):
            local: dict = {}
            _improve(p, text[lo:hi], start, local, budget)
            forced.update({lo + k: v for k, v in local.items()})
    else:
        _improve(p, text, start, forced, budget)
    tree, err2 = _try(p, text, start, forced) if forced else (None, err)
    if err2 is None:
        return restore(tree, forced), forced
    if isinstance(err2, _Split) or isinstance(err, _Split):
        # the lexer cut a word in two, as it always did where nothing else parses: that reading stands
        try:
            return restore(p.parse(as_names(text, forced), start=start), forced), forced
        except UnexpectedInput:
            return p.parse(text, start=start), {}
    raise (err2 if _error_pos(err2, text) > _error_pos(err, text) else err) from None


def _keyword_reads(word: str, text: str, start: str) -> bool:
    """Whether `text` parses with `word` read as the keyword (not as a name, as the lexer reads it
    where no keyword can stand)."""
    try:
        tree = parser().parse(text, start=start)
    except UnexpectedInput:
        return False
    return not any(isinstance(t, Token) and t.type == "NAME" and t == word for t in tree.scan_values(lambda _: True))


@functools.lru_cache(maxsize=1)
def hard_words() -> dict:
    """The keywords that alone make a whole expression or statement (`none`, `players`, `pass`),
    each with what it makes: where one stands alone the language's meaning goes first, so it cannot
    be a name. Found by parsing each word of the grammar alone."""
    out = {}
    for w in sorted(set(keywords().values())):
        if _keyword_reads(w, w, "expr"):
            out[w] = "an expression"
        elif _keyword_reads(w, f"round:\n    {w}\n", "start"):
            out[w] = "a statement"
    return out


@functools.lru_cache(maxsize=1)
def hard_callables() -> frozenset:
    """The keywords that, followed by `(x)`, make an expression of the language (`not(x)`,
    `count(x)`): they cannot name what is called so (a definition or a phase with parameters, a
    per-player variable or zone, an order, points or a ranking)."""
    return frozenset(w for w in set(keywords().values())
                     if hard_words().get(w) == "an expression" or _keyword_reads(w, f"{w}(x)", "expr"))


HARD_WORD_HELP = ("rename it (`{name}_`, or a word that says what it holds); `cardlang fmt --upgrade` renames it "
                  "where it is declared and everywhere it stands for it")


def hard_word_message(word: str) -> str:
    """What E017 says of a name that is one of `hard_words()`."""
    return f"`{word}` alone is {hard_words()[word]} of the language, so it cannot be a name"


def hard_callable_message(word: str, what: str) -> str:
    """What E017 says of a called name that is one of `hard_callables()`."""
    return f"`{word}(…)` is an expression of the language, so `{word}` cannot name {what}"


def hard_names(tree) -> frozenset:
    """The words of `hard_words()` that a parsed file gives as names (`var players = 0`); a word that
    alone is a statement (`pass`, `break`) only where it names a phase (a line that names it)."""
    hard = {w for w, what in hard_words().items() if what == "an expression"}
    phases = {str(t.children[0]) for t in tree.find_data("phase_decl")}
    hard |= {w for w in hard_words() if w in phases}
    return frozenset(str(t) for t in tree.scan_values(lambda v: isinstance(v, Token) and v.type == "NAME" and v in hard))


def forced_names(text: str, start: str = "start") -> Optional[dict]:
    """The positions of the keywords that `text` uses as names (None if it does not parse)."""
    try:
        return soft_parse(text, start)[1]
    except UnexpectedInput:
        return None
