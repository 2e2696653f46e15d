"""Stage 1, parse: what a syntax error says — the words Lark expected, an example of the construct, the
unclosed bracket or the block a broken line is in."""

from __future__ import annotations

import functools
import re
from typing import Optional

from lark import Token
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.indenter import DedentError

from .diagnostics import Diagnostic, Span
from .grammar import block_openers, expression_continuations, expression_starts, first_terminals, keywords, parser

_TERMINAL_WORDS = {
    "_NL": "the end of the line",
    "_INDENT": "an indented block",
    "_DEDENT": "the end of the block",
    "$END": "the end of the file",
    "NAME": "a name",
    "RANK": "a rank",
    "INT": "a number",
    "STRING": 'a text in quotes ("…")',
    "COMP_OP": "a comparison",
    "ADD_OP": "`+` or `-`",
    "MUL_OP": "`*`, `/` or `%`",
    "AT_ONCE": "`at once`",  # (a choice made at once: `each player p in … chooses at once`)
}


def _describe_terminal(name: str) -> str:
    if name in _TERMINAL_WORDS:
        return _TERMINAL_WORDS[name]
    for t in parser().terminals:
        if t.name == name:
            pattern = t.pattern
            if pattern.type == "str":
                return f"`{pattern.value}`"
    return name.lower()


def _expected_words(accepted) -> str:
    """What the parser would have accepted, in words: "`to` or `under`", "an expression"."""
    acc = set(accepted) - {"_DEDENT", "$END"}
    if acc & expression_continuations():  # after a name that is a whole expression, `of` would only
        acc.discard("OF")  # make it a card literal (`Q of spades`): not what the line lacks
    words = []
    starts = expression_starts()  # terminals that start an expression, from the grammar
    if len(acc & starts) >= 3:
        words.append("an expression")
        acc -= starts
    rest = acc - expression_continuations()  # those that could only make one longer
    if rest or words:
        acc = rest  # what the construct needs next says more than operators that could go on
    elif acc:
        words.append("an operator")
        acc = set()
    last = ["the end of the line"] if "_NL" in acc else []
    named = sorted({_describe_terminal(t) for t in acc - {"_NL"}})
    words = words + named[: max(0, 6 - len(words))] + last
    if not words:
        return ""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


# Labelled examples of broken input (as Lark's `match_examples`): an error in the same parser
# state, on the same kind of token, gets the label as its `help:`.
_DECLS = 'game "g"\nplayers 2..4\ndeck standard\n'
_EXAMPLES = {
    "a `chooses` needs at least one option: a text in quotes, `a card … from …` or `a number … from … to …`": [
        _DECLS + "round:\n    p chooses:\n        pass\n",
        _DECLS + "round:\n    p chooses:\n        set x = 1\n",
        _DECLS + "round:\n    p chooses:\n        move x to y\n",
    ],
    "a block starts with a line ending in `:`": [
        _DECLS + "round:\n    if x\n        pass\n",
        _DECLS + "round:\n    for each p in players\n        pass\n",
        _DECLS + "round:\n    while x\n        pass\n",
    ],
    "`move` puts cards `to` a zone (on top) or `under` it: `move c to talon`": [
        _DECLS + "round:\n    move x y\n",
        _DECLS + "round:\n    move top of x y\n",  # (a name where no card literal can start)
        _DECLS + "round:\n    move x\n",
    ],
    "`deal` reads `deal 5 from talon to hand(players)`": [
        _DECLS + "round:\n    deal 1 to x\n",
        _DECLS + "round:\n    deal 1 from x\n",
    ],
    "`set` reads `set name = value`": [
        _DECLS + "round:\n    set x 1\n",
        _DECLS + "round:\n    set x to 1\n",
    ],
    "a variable is changed with `set`: `set x = 1`": [
        _DECLS + "round:\n    x = 1\n",
    ],
    "write `for each p in players:`": [
        _DECLS + "round:\n    for p in players:\n        pass\n",
    ],
    "write `elif condition:`": [
        _DECLS + "round:\n    if x:\n        pass\n    else if y:\n        pass\n",
    ],
    "write `repeat 3 times:` or `repeat until condition:`": [
        _DECLS + "round:\n    repeat 3:\n        pass\n",
    ],
    "a range of player counts is written `players 2..5`": [
        'game "g"\nplayers 2-5\n',
        'game "g"\nplayers 2 to 5\n',
    ],
    "an option reads `option name = default in 1..10 \"help\"`": [
        'option x 5\n',
        'option x: 5\n',
    ],
    "a zone reads `zone name: per player, private`": [
        'zone x per player\n',
        'zone x = pile\n',
    ],
}


@functools.lru_cache(maxsize=1)
def _example_table() -> dict:
    table: dict = {}
    for label, snippets in _EXAMPLES.items():
        for snippet in snippets:
            try:
                parser().parse(snippet, start="start")
            except UnexpectedToken as e:
                table.setdefault((e.state.position, e.token.type), label)
            except (UnexpectedInput, DedentError):
                pass
    return table


def _labelled(e) -> Optional[str]:
    """The label of a known kind of mistake, when `e` happened where one of the examples does."""
    if not isinstance(e, UnexpectedToken) or e.state is None:
        return None
    return _example_table().get((e.state.position, e.token.type))


def _unclosed_bracket(lines: list, line: int, column: int) -> Optional[tuple]:
    """The innermost bracket still open at (line, column): (line, column, bracket), or None."""
    stack: list = []
    pairs = {")": "(", "]": "[", "}": "{"}
    for i, text in enumerate(lines[:line], 1):
        in_string = False
        j = 0
        end = column - 1 if i == line else len(text)
        while j < min(end, len(text)):
            c = text[j]
            if in_string:
                if c == "\\":
                    j += 1
                elif c == '"':
                    in_string = False
            elif c == '"':
                in_string = True
            elif c == "#":
                break
            elif c in "([{":
                stack.append((i, j + 1, c))
            elif c in pairs and stack and stack[-1][2] == pairs[c]:
                stack.pop()
            j += 1
    return stack[-1] if stack else None


def _found(tok: Token) -> str:
    if tok.type == "_NL":
        return "the end of the line"
    if tok.type == "_INDENT":
        return "an indented line"
    if tok.type == "_DEDENT":
        return "the end of a block"
    if tok.type == "$END":
        return "the end of the file"
    return f"`{tok}`"


@functools.lru_cache(maxsize=1)
def _block_header() -> re.Pattern:
    """A line that opens a block, its leading words as group 2 (`for each`, `… chooses`), from the grammar."""
    words = [w for w in block_openers() if w != "chooses"]
    chooser = r'|[^:#"]*chooses' if "chooses" in block_openers() else ""
    return re.compile(r"^(\s*)(" + "|".join(re.escape(w) for w in words) + chooser + r")\b")


def _innermost_block(lines: list, line_no: int) -> Optional[str]:
    """The block that is open at `line_no` (1-based), from the indentation of the lines above it."""
    if not 1 <= line_no <= len(lines):
        return None
    here = len(lines[line_no - 1]) - len(lines[line_no - 1].lstrip())
    for i in range(line_no - 2, -1, -1):
        text = lines[i]
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        indent = len(text) - len(text.lstrip())
        if indent < here or (indent == here and i == line_no - 2 and text.rstrip().endswith(":")):
            m = _block_header().match(text)
            if m and text.split("#")[0].rstrip().endswith(":"):
                word = m.group(2)
                return "chooses" if word.endswith("chooses") else word
            return None
    return None


_WORD = re.compile(r"[ \t]*([A-Za-z_][A-Za-z0-9_]*)")


def _close_keyword(word: str, terminals) -> Optional[str]:
    """The keyword among `terminals` (names of the grammar's terminals) that `word` is a misspelling
    of, if one is close (`shufle` -> `shuffle`); None for a keyword itself or a short word."""
    import difflib  # (only a file with a syntax error needs it)

    words = keywords()
    if len(word) < 3 or word in words.values():
        return None
    close = difflib.get_close_matches(word, sorted({words[t] for t in terminals if t in words}), n=1, cutoff=0.7)
    return close[0] if close else None


def _misspelt_keyword(tok, accepted, lines: list) -> Optional[str]:
    """"did you mean `chooses`?" for a syntax error that comes from a misspelt keyword: the word the
    parser stopped at is close to one it would have taken there (`p choses:`), or the word that starts
    the line is close to one that starts a statement or a declaration (`shufle deck`, `repaet 3
    times:`: read as a name, the line breaks a word later). The keywords come from the grammar."""
    if tok is None or tok.type in ("$END", "_INDENT", "_DEDENT"):
        return None
    if tok.type in ("NAME", "RANK"):
        kw = _close_keyword(str(tok), accepted)
        if kw is not None and not _used_elsewhere(str(tok), lines):
            return f"did you mean `{kw}`? (`{tok}` is not a keyword)"
    line = tok.line if isinstance(tok.line, int) and 1 <= tok.line <= len(lines) else None
    m = _WORD.match(lines[line - 1]) if line is not None else None
    if m is None or (tok.type != "_NL" and tok.column <= m.end(1)):
        return None
    kw = _close_keyword(m.group(1), first_terminals("stmt") | first_terminals("item"))
    if kw is None or _used_elsewhere(m.group(1), lines):
        return None
    return f"did you mean `{kw}`? (`{m.group(1)}` is not a keyword)"


_FOLD_HEAD = re.compile(r"\b(sum|min|max)\s+\w+\s+in\b")
_FOLD_NO_IN = re.compile(r"\b(sum|min|max)\s+\w+\s*$")
_FILTER_OF = re.compile(r"\b(count|any|select)\s+\w+\s+in\b[^#]*\bof\b")
_FOLD_FORM = "`sum x in s of e where c` (and `min`, `max`): the cards or numbers after `in`, what is added up " \
             "after `of`, the condition last; `count x in s where c` (and `any`, `select`) has no `of`"


def _aggregate_order(tok, lines: list) -> Optional[str]:
    """The order of an aggregate's parts, for a syntax error inside one written in another order
    (`sum c in s where … of e`, `sum c of s`, `count c in s of e where …`)."""
    if tok is None or not isinstance(tok.line, int) or not 1 <= tok.line <= len(lines) or tok.type == "$END":
        return None
    before = lines[tok.line - 1][: max(0, (tok.column or 1) - 1)]
    word = str(tok)
    if word == "where" and _FOLD_HEAD.search(before):
        return _FOLD_FORM
    if word == "of" and _FOLD_NO_IN.search(before):
        return _FOLD_FORM
    if _FILTER_OF.search(before):
        return _FOLD_FORM
    return None


def _used_elsewhere(word: str, lines: list) -> bool:
    """Whether `word` stands on two lines or more: then it names something (`zone hand`, `phase
    shufle`), and a misspelling is not the likely mistake."""
    pattern = re.compile(r"\b" + re.escape(word) + r"\b")
    seen = 0
    for text in lines:
        if word in text and pattern.search(text):
            seen += 1
            if seen > 1:
                return True
    return False


def syntax_diagnostic(e: UnexpectedInput, file: str, lines: list) -> Diagnostic:
    """The one diagnostic of a syntax error: where, what was found, what was expected, an example."""
    line = getattr(e, "line", None) or len(lines) or 1
    col = getattr(e, "column", None) or 1
    if line < 1 or line == "?" or not isinstance(line, int):
        line, col = max(1, len(lines)), 1
    help_ = None
    if isinstance(e, UnexpectedCharacters):
        text = lines[line - 1] if 1 <= line <= len(lines) else ""
        ch = text[col - 1 : col] if col - 1 < len(text) else "?"
        span = Span(file, line, col, line, col + 1)
        if ch == "\t":
            msg = "a tab mixed into the indentation"
        elif ch == '"':
            msg = "this text has no closing `\"`"
            span = Span(file, line, col, line, len(text) + 1)
        else:
            msg = f"unexpected character `{ch}`"
        try:
            accepted = e.interactive_parser.accepts()
        except Exception:  # noqa: BLE001 - no parser state to ask
            accepted = getattr(e, "allowed", None) or ()
        words = _expected_words(accepted)
        if words and ch not in ("\t", '"'):
            help_ = f"expected {words}"
        return Diagnostic("E002", "error", msg, span, help=help_)
    if isinstance(e, (UnexpectedToken, UnexpectedEOF)):
        tok = getattr(e, "token", None)
        if tok is None or tok.type == "$END":
            last = max([i for i, t in enumerate(lines, 1) if t.strip()] or [1])  # the last line with text
            end_col = len(lines[last - 1].rstrip()) + 1 if lines else 1
            span = Span(file, last, max(1, end_col - 1), last, end_col)
            found = "the end of the file"
        else:
            tline = tok.line or line
            tcol = tok.column or col
            width = max(1, len(str(tok))) if tok.type not in ("_NL", "_INDENT", "_DEDENT") else 1
            if tok.type == "_NL":
                text = lines[tline - 1] if 1 <= tline <= len(lines) else ""
                tcol = len(text.split("#")[0].rstrip()) + 1
            elif tok.type == "_INDENT":
                # the token is the newline before the indented line, with its white space
                tline = getattr(tok, "end_line", None) or tline + 1
                text = lines[tline - 1] if 1 <= tline <= len(lines) else ""
                tcol = len(text) - len(text.lstrip()) + 1
                width = max(1, len(text.rstrip()) + 1 - tcol)
            span = Span(file, tline, tcol, tline, tcol + width)
            found = _found(tok)
        if tok is not None and tok.type == "_INDENT":
            msg = "this line is indented more than the one before it"
            code = "E003"
        else:
            try:
                accepted = e.interactive_parser.accepts()  # precise, unlike LALR's merged `expected`
            except Exception:  # noqa: BLE001 - UnexpectedEOF has no parser state
                accepted = e.expected or ()
            words = _expected_words(accepted)
            msg = f"expected {words}, found {found}" if words else f"unexpected {found}"
            code = "E001" if found != "the end of the file" else "E004"
        help_ = (_misspelt_keyword(tok, accepted, lines) or _aggregate_order(tok, lines)) if code != "E003" else None
        help_ = help_ or _labelled(e)
        opened = _unclosed_bracket(lines, span.line, span.column) if tok is not None else None
        if opened is not None and opened[0] < span.line:
            bline, bcol, ch = opened
            closer = {"(": ")", "[": "]", "{": "}"}[ch]
            return Diagnostic("E001", "error", f"this `{ch}` is never closed", Span(file, bline, bcol, bline, bcol + 1),
                              help=f"add `{closer}` where the expression ends; until it is closed, the lines "
                                   "that follow are read as part of it")
        if help_ is None:
            block = _innermost_block(lines, span.line)
            if block:
                help_ = f"the innermost open block is `{block}`"
        return Diagnostic(code, "error", msg, span, help=help_)
    if isinstance(e, DedentError):
        return Diagnostic("E003", "error", "this line's indentation matches no enclosing block", Span(file, line, 1, line, 2))
    return Diagnostic("E001", "error", str(e).splitlines()[0].lower(), Span(file, line, col, line, col + 1))
