"""The grammar as data: the Lark parser built from `grammar/cardlang.lark`, and the sets of words
that error messages use, read from the grammar's terminals and rules so that nothing else restates
the syntax.

- `expression_starts()`: terminals that can start an expression ("expected an expression").
- `expression_continuations()`: terminals that can only make a complete expression longer
  (operators, `[`, `(` after a name, `if` of `a if c else b`, `from` after `players`).
- `block_openers()`: the leading words of the statements and declarations that open a block
  (`for each`, `repeat until`, `if`, …, and `chooses`, which follows its player).
"""

from __future__ import annotations

import functools
import os
import re
from importlib import resources
from typing import Optional

from lark import Lark
from lark.grammar import NonTerminal, Terminal
from lark.indenter import Indenter

from .limits import MAX_TOKENS
from .parser_cache import cached_parser

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class _Indenter(Indenter):
    """Turns the white space at the start of lines into _INDENT and _DEDENT tokens."""

    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB", "LBRACE"]
    CLOSE_PAREN_types = ["RPAR", "RSQB", "RBRACE"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 8

    def process(self, stream):
        """The tokens, stopped past MAX_TOKENS: the parse's time is bounded before it starts."""
        for n, token in enumerate(super().process(stream)):
            if n >= MAX_TOKENS:
                raise TooManyTokens(token)
            yield token


class TooManyTokens(Exception):
    """A rule file longer than MAX_TOKENS tokens: the parse stops there (E009)."""

    def __init__(self, token):
        super().__init__("too many tokens")
        self.token = token


def grammar_text() -> str:
    """The grammar of the checkout this module is in (`grammar/` beside the package), else the installed
    package's. (The checkout's first: an editable install maps `cardlang.grammar` to the folder it was
    installed from, which is another checkout's grammar when this code runs from a second work tree.)"""
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        with open(os.path.join(here, os.pardir, os.pardir, "grammar", "cardlang.lark"), encoding="utf-8") as f:
            return f.read()
    except OSError:
        return resources.files("cardlang.grammar").joinpath("cardlang.lark").read_text(encoding="utf-8")


PARSER_OPTIONS = {"parser": "lalr", "propagate_positions": True, "maybe_placeholders": True,
                  "start": ["start", "expr"]}


def build_parser(text: Optional[str] = None) -> Lark:
    """The LALR parser built from the grammar's text (50–70 ms: `parser()` keeps it between processes)."""
    return Lark(grammar_text() if text is None else text, postlex=_Indenter(), **PARSER_OPTIONS)


@functools.lru_cache(maxsize=1)
def parser() -> Lark:
    """The LALR parser, built once per process and kept between processes in the user's cache
    folder (`parser_cache`: read back in a fifth of the time a build takes)."""
    text = grammar_text()
    return cached_parser(text, PARSER_OPTIONS, lambda: build_parser(text))


@functools.lru_cache(maxsize=1)
def keywords() -> dict:
    """Terminal name -> word, for the grammar's literal words (`PASS` -> "pass", `CHOOSES` -> "chooses")."""
    return {t.name: t.pattern.value for t in parser().terminals
            if t.pattern.type == "str" and _WORD.fullmatch(t.pattern.value)}


@functools.lru_cache(maxsize=1)
def _first_sets() -> dict:
    """Rule name -> the terminal names that can start it (the FIRST sets of the LALR tables; Lark's
    own `calculate_sets` computes FOLLOW sets too, which costs a start-up ten times as long)."""
    rules = parser().rules
    first: dict = {r.origin.name: set() for r in rules}
    nullable: set = set()
    changed = True
    while changed:
        changed = False
        for r in rules:
            name, out = r.origin.name, first[r.origin.name]
            size = len(out)
            for sym in r.expansion:
                if sym.is_term:
                    out.add(sym.name)
                    break
                out |= first[sym.name]
                if sym.name not in nullable:
                    break
            else:
                if name not in nullable:
                    nullable.add(name)
                    changed = True
            changed = changed or len(out) != size
    return first


def first_terminals(rule: str) -> frozenset:
    """The names of the terminals that can start `rule` (a rule of the grammar, e.g. "stmt")."""
    return frozenset(_first_sets()[rule])


@functools.lru_cache(maxsize=1)
def expression_starts() -> frozenset:
    """Terminal names that can start an expression."""
    return first_terminals("expr")


def _expression_levels() -> set:
    """The rules that each stand for a whole expression: `expr` and those it is through `?rule: other`."""
    levels, todo = {"expr"}, ["expr"]
    rules = parser().rules
    while todo:
        name = todo.pop()
        for r in rules:
            if r.origin.name == name and len(r.expansion) == 1 and not r.expansion[0].is_term:
                inner = r.expansion[0].name
                if inner not in levels:
                    levels.add(inner)
                    todo.append(inner)
    return levels


@functools.lru_cache(maxsize=1)
def expression_continuations() -> frozenset:
    """Terminal names that follow a complete expression inside a longer one (`a + b`, `x[1]`, `f(…)`,
    `players from p`): after an expression, they could only make it longer."""
    rules = parser().rules
    levels = _expression_levels()
    whole = {r.expansion[0].name for r in rules  # terminals that are an expression alone: NAME, INT, …
             if r.origin.name in levels and len(r.expansion) == 1 and r.expansion[0].is_term}
    out = set()
    for r in rules:
        exp = r.expansion
        if r.origin.name in levels and len(exp) >= 2 and exp[1].is_term and (
                exp[0].name in levels or exp[0].name in whole):
            out.add(exp[1].name)
    return frozenset(out)


@functools.lru_cache(maxsize=1)
def block_openers() -> tuple:
    """The words that start a statement or declaration with a block, longest first ("repeat until"
    before "repeat"), and "chooses", which comes after the chooser. The options of a `chooses` are
    left out: the innermost block they name is their `chooses`'s own line's."""
    words = keywords()
    out = set()
    for r in parser().rules:
        exp = r.expansion
        opens = any(s == NonTerminal("block") or s == Terminal("_INDENT") for s in exp)
        if not opens or r.origin.name in ("block", "alternative"):
            continue
        lead = []
        for s in exp:
            if not (s.is_term and s.name in words):
                break
            lead.append(words[s.name])
        if lead:
            out.add(" ".join(lead))
        else:  # `expr "chooses" …`: the word after the expression
            out.add(next(words[s.name] for s in exp if s.is_term and s.name in words))
    return tuple(sorted(out, key=lambda w: (-len(w), w)))
