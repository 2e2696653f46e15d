"""What an editor asks about one rule file's text: its diagnostics (the `check` pipeline on the
buffer), the name under the cursor, what may be typed there, its outline and its foldable blocks.
Positions are the parser's: lines and columns from 1; `cardlang.tools.lsp` turns them into LSP's."""

from __future__ import annotations

import os
import re
from typing import Callable, Optional

import attrs

from ..lang import ast, statements
from ..lang.check import BUILTINS, TYPE_NAMES, ZONE_WORDS, check
from ..lang.check_melds import COMBINATIONS
from ..lang.diagnostics import Diagnostic, Span
from ..lang.parse import parse
from ..load import check_source, read_source
from ..lang.vocabulary import PRESETS
from .keywords import expression_words, grammar_keywords, keyword_doc, opening_words
from .names import Declared, Index, index

_OPENING = opening_words()  # read from the grammar: a new declaration or statement is offered as it is added
_DECLARATIONS = _OPENING["declaration"]
_STATEMENTS = _OPENING["statement"]
_EXPRESSIONS = ("players", "seats", "all cards", "any", "count", "select", "sum", "min", "max", "highest",
                "lowest", "left of", "right of", "next of", "top of", "bottom of", "not", "none", "true", "false",
                "everyone else passed")
_KIND_WORDS = {"option": "option", "var": "variable", "pvar": "per-player variable", "tvar": "per-team variable",
               "zone": "zone", "pzone": "per-player zone", "order": "order", "ranking": "hand ranking", "define": "definition",
               "phase": "phase", "local": "local name"}


@attrs.define
class Completion:
    """One thing that may be typed at the cursor."""

    label: str
    kind: str  # keyword, phase, zone, variable, option, define, local, rank, suit, builtin, word
    detail: str = ""
    rank: int = 1  # 0 for what the context asks for first


@attrs.define
class Symbol:
    """One entry of a file's outline."""

    name: str
    kind: str
    span: Span
    name_span: Span


@attrs.define(eq=False)
class Analysis:
    """One version of a file's text, checked. Navigation answers from `good`, the last version that
    parsed (this one if it did), so that a half-typed line does not blank out completion or hover."""

    path: str
    text: str
    diagnostics: list
    module: Optional[ast.Module]
    merged: Optional[ast.Module]
    symbols: object
    names: Optional[Index]
    sources: Callable
    good: Optional["Analysis"] = None
    files: frozenset = frozenset()  # every file it read: itself and its bases

    def lines(self, file: Optional[str] = None) -> Optional[list]:
        """A file's lines: this buffer's own, or a base file's."""
        return self.sources(file or self.path)


class Unreadable(Exception):
    """What `analyse`'s `read` raises for a file it may not read (the language server: a file outside
    the editor's workspace that the editor did not open); the text says why."""


def analyse(text: str, path: str, read: Optional[Callable[[str], Optional[str]]] = None,
            previous: Optional[Analysis] = None) -> Analysis:
    """Checks a buffer as `cardlang check` checks a file; `read(path)` gives open buffers of other
    files (bases), None to read them from disk, or raises `Unreadable` for a file not to be read."""
    path = os.path.normpath(path)
    texts: dict = {path: text}
    refused: dict = {}  # file -> why `read` would not have it read

    def source(file: str) -> Optional[str]:
        file = os.path.normpath(file)
        if file not in texts:
            try:
                given = read(file) if read else None
            except Unreadable as e:
                refused[file] = str(e)
                texts[file] = None
            else:
                texts[file] = given or read_source(file)[0]
        return texts[file]

    def parse_base(file: str):
        body = source(file)
        if body is None:
            why = refused.get(os.path.normpath(file))
            if why is not None:
                return None, [Diagnostic("E005", "error", why, Span(file, 1, 1, 1, 2))]
            return None, read_source(file)[1]  # why it cannot be read
        return parse(body, file)

    def lines(file: str) -> Optional[list]:
        body = source(file)
        return None if body is None else body.split("\n")

    try:
        module, merged, symbols, diagnostics = check_source(text, path, parse_base)
        own = all(os.path.normpath(d.span.file) == path for d in diagnostics if d.is_error)
        if symbols is None and merged is not None and merged is not module and own:
            # as `cardlang check` does: a variant's own mistakes (E027) leave a sound merge to check
            symbols, found = check(merged)
            diagnostics = diagnostics + found
    except RecursionError:
        module = merged = symbols = None
        diagnostics = [Diagnostic("E006", "error", "this file nests expressions or blocks too deeply to check",
                                  Span(path, 1, 1, 1, 2),
                                  help="split deep expressions with `let` or `define`, or nest fewer blocks")]
    names = index(merged, lines) if merged is not None and symbols is not None else None
    result = Analysis(path, text, diagnostics, module, merged, symbols, names, lines, files=frozenset(texts))
    result.good = result if names is not None or previous is None else previous.good
    return result


def own_diagnostics(a: Analysis) -> list:
    """The diagnostics to show in this buffer: its own, and each one of a base file at the
    `extends` line that names it."""
    out = [d for d in a.diagnostics if os.path.normpath(d.span.file) == a.path]
    others = [d for d in a.diagnostics if os.path.normpath(d.span.file) != a.path]
    if others and a.module is not None:
        extends = [d for d in a.module.decls if isinstance(d, ast.ExtendsDecl)]
        where = extends[0].paths[0][1] if extends and extends[0].paths else Span(a.path, 1, 1, 1, 2)
        for d in others:
            out.append(attrs.evolve(d, span=where, message=f"in {d.span}: {d.message}"))
    return out


def suggestion(d: Diagnostic) -> Optional[str]:
    """The name a did-you-mean help offers, if any."""
    m = re.fullmatch(r"did you mean `([^`]+)`\?", d.help or "")
    return m.group(1) if m else None


# ------------------------------------------------------------------ navigation
def _word_at(a: Analysis, line: int, column: int) -> Optional[str]:
    lines = a.lines() or []
    if not 1 <= line <= len(lines):
        return None
    text = lines[line - 1]
    for m in re.finditer(r"[A-Za-z_][A-Za-z0-9_]*", text):
        if m.start() + 1 <= column <= m.end() + 1:
            return m.group(0)
    return None


def declared_at(a: Analysis, line: int, column: int) -> Optional[Declared]:
    """The declaration of the name under the cursor (in the last version that parsed)."""
    if a.good is None or a.good.names is None:
        return None
    return a.good.names.at(a.path, line, column)


def _comment_above(lines: list, line: int) -> str:
    out = []
    k = line - 2
    while k >= 0 and lines[k].lstrip().startswith("#"):
        out.append(lines[k].strip()[1:].strip())
        k -= 1
    return " ".join(reversed(out))


def hover(a: Analysis, line: int, column: int) -> Optional[tuple]:
    """(markdown, span) for the word under the cursor: a name's declaration and the comment above
    it, or what a keyword means in docs/language.md."""
    a = a.good or a
    d = declared_at(a, line, column)
    if d is not None:
        lines = a.lines(d.span.file) or []
        written = lines[d.span.line - 1].strip() if 1 <= d.span.line <= len(lines) else d.name
        comment = _comment_above(lines, d.span.line)
        where = "" if os.path.normpath(d.span.file) == a.path else f" (from {d.span.file})"
        text = f"{_KIND_WORDS.get(d.kind, d.kind)} `{d.name}`{where}\n\n```cards\n{written}\n```"
        if comment:
            text += "\n\n" + comment
        return text, None
    word = _word_at(a, line, column)
    if word in grammar_keywords():
        return keyword_doc(word), None
    if word and a.symbols is not None:
        sym = a.symbols.table.get(word)
        if sym is not None and sym.kind in ("rank", "suit", "colour", "const"):
            return f"{sym.kind} `{word}`", None
    return None


def definition(a: Analysis, line: int, column: int) -> Optional[Span]:
    """Where the name under the cursor is declared (maybe in a base file)."""
    d = declared_at(a, line, column)
    return d.span if d is not None else None


def references(a: Analysis, line: int, column: int, include_declaration: bool = True) -> list:
    """Every place the name under the cursor stands for the same thing."""
    d = declared_at(a, line, column)
    return [] if d is None else a.good.names.references(d, include_declaration)


class RenameError(ValueError):
    """A rename that cannot be done: nothing to rename there, or a new name that is not a name."""


def rename(a: Analysis, line: int, column: int, new_name: str) -> list:
    """The spans to replace with `new_name`."""
    d = declared_at(a, line, column)
    if d is None:
        raise RenameError("there is no declared name here")
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", new_name) or new_name in grammar_keywords():
        raise RenameError(f"`{new_name}` cannot be a name")
    taken = [x for x in a.good.names.visible(d.span.file, d.span.line) if x.name == new_name and x is not d]
    if taken:
        what = _KIND_WORDS.get(taken[0].kind, taken[0].kind)
        raise RenameError(f"`{new_name}` is already {'an' if what[0] in 'aeiou' else 'a'} {what} "
                          f"(line {taken[0].span.line})")
    return a.good.names.references(d)


# ------------------------------------------------------------------ completion
def _in_block(lines: list, line: int) -> bool:
    for k in range(min(line - 2, len(lines) - 1), -1, -1):  # (a cursor below the last line: from the last)
        text = lines[k]
        if text.strip() and not text.lstrip().startswith("#"):
            return text[:1].isspace() or text.split("#")[0].rstrip().endswith(":")
    return False


def complete(a: Analysis, line: int, column: int) -> list:
    """What may be typed at the cursor: keywords where a statement may start, names in scope,
    ranks and suits after `is`/`has`, phase names where a phase may be played, zones after `to`."""
    lines = a.lines() or [""]
    text = lines[line - 1] if 1 <= line <= len(lines) else ""
    before = text[: column - 1]
    prefix = re.search(r"[A-Za-z_][A-Za-z0-9_]*$", before)
    head = before[: prefix.start()] if prefix else before
    out: list = []
    good = a.good or a
    visible = good.names.visible(a.path, line) if good.names is not None else []
    if not head.strip():
        if not head and not _in_block(lines, line):
            out += [Completion(w, "keyword", "declaration", 0) for w in _DECLARATIONS]
            return out
        out += [Completion(w, "keyword", "statement", 0) for w in _STATEMENTS]
        out += [Completion(d.name, "phase", "phase", 0) for d in visible if d.kind == "phase"]
        out += [Completion(d.name, d.kind, _KIND_WORDS.get(d.kind, d.kind)) for d in visible if d.kind != "phase"]
        return _unique(out)
    words = head.split()
    last = words[-1] if words else ""
    if re.match(r"\s*zone\s+\w+\s*:", head):
        return [Completion(w, "word", "zone attribute", 0) for w in sorted(ZONE_WORDS)]
    if re.match(r"\s*deck\s*$", head):
        return [Completion(w, "word", "deck", 0) for w in [*PRESETS, "ranks"]]
    declared = sorted(good.symbols.named_values) if good.symbols is not None else []  # `values strain: …`
    if re.match(r"\s*((per\s+player\s+)?var\s+\w+|(phase|define)\s+\w+\s*\([^)]*\w)\s*:\s*$", head):
        lists = [f"list of {d}" for d in declared]  # a list of declared values: `list of strain`
        return [Completion(w, "word", "type", 0) for w in sorted(TYPE_NAMES) + declared + lists]
    table = good.symbols.table if good.symbols is not None else {}
    if re.search(r"(\bchooses|\band|^)\s+a\s+$", head):  # what a player may name: `a card`, `a rank`, `a strain`
        return [Completion(w, "word", "choice", 0) for w in ["card", "number", "player", "rank", "set", "suit", *declared]]
    out += [Completion(n, "value", s.type, 1) for n, s in table.items() if s.kind == "value"]
    if last in ("is", "has", "not"):
        out += [Completion(n, s.kind, s.kind, 0) for n, s in table.items() if s.kind in ("rank", "suit")]
    zones_first = last in ("to", "under", "from", "shuffle", "in")
    for d in visible:
        if d.kind == "phase":
            continue
        first = zones_first and d.kind in ("zone", "pzone")
        out.append(Completion(d.name, d.kind, _KIND_WORDS.get(d.kind, d.kind), 0 if first else 1))
    out += [Completion(w, "keyword", "expression", 2) for w in (*_EXPRESSIONS, *expression_words())]
    out += [Completion(w, "builtin", "builtin", 2) for w in sorted({*BUILTINS, *COMBINATIONS})]
    if last not in ("is", "has", "not"):
        out += [Completion(n, s.kind, s.kind, 3) for n, s in table.items() if s.kind in ("rank", "suit", "colour")]
    return _unique(out)


def _unique(items: list) -> list:
    seen: set = set()
    out = []
    for c in sorted(items, key=lambda c: c.rank):
        if c.label not in seen:
            seen.add(c.label)
            out.append(c)
    return out


# --------------------------------------------------------------- outline, folds
def trimmed(a: Analysis, span: Span) -> Span:
    """A declaration's span without the blank and comment lines the parser counts into its end."""
    lines = a.lines(span.file) or []
    end = span.end_line if span.end_column > 1 else span.end_line - 1
    while end > span.line and (end > len(lines) or not lines[end - 1].strip()
                               or lines[end - 1].lstrip().startswith("#")):
        end -= 1
    if end == span.end_line:
        return span
    return Span(span.file, span.line, span.column, end, len(lines[end - 1]) + 1 if end <= len(lines) else 1)


def outline(a: Analysis) -> list:
    """The file's own declarations, in order: phases, setup and round, options, zones, variables…"""
    a = a.good or a
    if a.module is None:
        return []
    out = []
    for d in a.module.decls:
        if isinstance(d, ast.BlockDecl):
            out.append(Symbol(d.name, d.kind, d.span, d.name_span))
        elif isinstance(d, ast.NamedValuesDecl):
            out.append(Symbol(d.name, "values", d.span, d.name_span))
        elif isinstance(d, (ast.OptionDecl, ast.OrderDecl, ast.RankingDecl, ast.ZoneDecl, ast.DefineDecl,
                            ast.PointsDecl, ast.ValuesDecl, ast.PotDecl)):
            out.append(Symbol(d.name, type(d).__name__[:-4].lower(), d.span, d.name_span))
        elif isinstance(d, ast.VarDecl):
            out.append(Symbol(d.name, "pvar" if d.per_player else "tvar" if d.per_team else "var", d.span, d.name_span))
        elif isinstance(d, ast.GameDecl):
            out.append(Symbol(d.title, "game", d.span, d.span))
        elif isinstance(d, ast.ScoreDecl):
            out.append(Symbol("score", "score", d.span, d.span))
        elif isinstance(d, ast.PayoffDecl):
            out.append(Symbol("payoff", "score", d.span, d.span))
    return [attrs.evolve(x, span=trimmed(a, x.span), name_span=trimmed(a, x.name_span)) for x in out]


def _last_line(stmts) -> int:
    last = stmts[-1]
    inner = [b for b in statements.child_blocks(last) if b]
    return max([last.span.line] + [_last_line(b) for b in inner])


def folds(a: Analysis) -> list:
    """(first line, last line, kind) of each block of more than one line and each run of comment lines."""
    a = a.good or a
    out = []
    if a.module is not None:
        def visit(header_line: int, stmts) -> None:
            if stmts:
                end = _last_line(stmts)
                if end > header_line:
                    out.append((header_line, end, "region"))
                for st in stmts:
                    if isinstance(st, ast.Choose) and _last_line([st]) > st.span.line:
                        out.append((st.span.line, _last_line([st]), "region"))  # the options together
                    for k, body in enumerate(statements.child_blocks(st)):
                        if body:
                            visit(_header(st, k, body), body)
        for d in a.module.decls:
            if isinstance(d, ast.BlockDecl):
                visit(d.span.line, d.body)
    lines = a.lines() or []
    start = None
    for k, text in enumerate(lines + [""], 1):
        if text.lstrip().startswith("#"):
            start = start or k
        else:
            if start is not None and k - 1 > start:
                out.append((start, k - 1, "comment"))
            start = None
    return sorted(out)


def _header(st, k: int, body) -> int:
    """The line of the header that opens a statement's k-th block (`if`, `elif`, `else`, an alternative)."""
    if isinstance(st, ast.Choose):
        return st.alternatives[k].span.line
    return body[0].span.line - 1 if k else st.span.line
