"""The words of the language, read from the grammar, and what `docs/language.md` says about each."""

from __future__ import annotations

import functools
import os
import re
from importlib import resources

from ..lang.parse import grammar_text

# Words the grammar spells inside a terminal's pattern rather than as a quoted keyword.
_IN_PATTERNS = ("ace", "low", "at", "once")
_WORD_OPERATORS = ("and", "or", "not", "in", "is", "has", "except", "of")
_CONSTANTS = ("true", "false", "none")


@functools.lru_cache(maxsize=1)
def grammar_keywords() -> tuple:
    """Every keyword of `grammar/cardlang.lark` (the quoted words of its rules), sorted."""
    text = re.sub(r"//[^\n]*", "", grammar_text())
    words = set(re.findall(r'"([a-z]+)"', text))
    words.update(w for w in _IN_PATTERNS if re.search(rf"\b{w}\b", text))
    return tuple(sorted(words))


def keyword_groups() -> dict:
    """The keywords by how editors colour them: constants, word operators, and the other keywords."""
    words = grammar_keywords()
    return {
        "constant": tuple(w for w in words if w in _CONSTANTS),
        "operator": tuple(w for w in words if w in _WORD_OPERATORS),
        "keyword": tuple(w for w in words if w not in _CONSTANTS and w not in _WORD_OPERATORS),
    }


def language_doc() -> str:
    """The text of `docs/language.md`, from the installed package or, in a checkout, from `docs/`."""
    try:
        return resources.files("cardlang.docs").joinpath("language.md").read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError):
        here = os.path.dirname(os.path.abspath(__file__))
        try:
            with open(os.path.join(here, os.pardir, os.pardir, "docs", "language.md"), encoding="utf-8") as f:
                return f.read()
        except OSError:
            return ""


def _entries(doc: str) -> list:
    """(section, code, meaning) for each example line, table row and list item of the page."""
    out, section, in_code = [], "", False
    for raw in doc.split("\n"):
        line = raw.rstrip()
        if line.startswith("#") and not in_code:
            section = line.lstrip("#").strip()
        elif line.startswith("```"):
            in_code = not in_code
        elif in_code:
            code, _, meaning = line.partition("#")
            if code.strip():
                out.append((section, code.strip(), meaning.strip()))
        elif line.startswith("|") and "`" in line and not line.startswith("|---"):
            cells = [c.strip() for c in line.strip("|").split(" | ")]
            if len(cells) >= 2:
                codes = re.findall(r"`([^`]*)`", cells[0].replace("\\|", "|"))  # `\|` is a `|` in a table
                out.append((section, "\n".join(codes), cells[1]))
        elif line.startswith("- "):
            out.append((section, "", line[2:]))
        elif line.startswith("  ") and out and out[-1][1] == "":  # a list item goes on
            out[-1] = (section, "", out[-1][2] + " " + line.strip())
    # a list item is searched by its code spans and shown as written (marked by a leading NUL)
    return [(sec, code, meaning) if code else (sec, " ".join(re.findall(r"`([^`]*)`", meaning)), "\0" + meaning)
            for sec, code, meaning in out]


@functools.lru_cache(maxsize=None)
def keyword_doc(word: str) -> str:
    """Markdown for a hover over `word`: the lines of `docs/language.md` that show it."""
    pattern = re.compile(rf"(?<![\w\"]){re.escape(word)}(?![\w\"])")
    found = [(not code.startswith(word), section, code, meaning)
             for section, code, meaning in _entries(language_doc()) if pattern.search(code)]
    found.sort(key=lambda e: e[0])  # the lines that start with the word first
    if not found:
        return f"`{word}`: a keyword of cardlang (see docs/language.md)"
    parts = [f"**{word}** ({found[0][1]})"]
    for _, _, code, meaning in found[:3]:
        if meaning.startswith("\0"):  # a list item: its text, with its own code spans
            parts.append(meaning[1:])
        else:
            parts.append(f"```cards\n{code}\n```" + (f"\n{meaning}" if meaning else ""))
    return "\n\n".join(parts)


def _rules(text: str) -> dict:
    """The grammar's rules: name -> its alternatives, each a list of symbols (`"word"`, `NAME`, `expr`)."""
    rules, name = {}, None
    for line in text.split("\n"):
        m = re.match(r"^[?!]?(\w+)\s*:(.*)$", line)
        if m:
            name, body = m.group(1), m.group(2)
            rules[name] = [body]
        elif name and re.match(r"^\s+\|", line):
            rules[name].append(line.strip()[1:])
        elif not line.strip() or not line[0].isspace():
            name = None
    return {n: [re.sub(r"->.*$", "", alt).split() for alt in alts] for n, alts in rules.items()}


def _alternatives(rules: dict, name: str) -> list:
    """The rule names `name` is a choice of (`?item: game_decl | about_decl | …`)."""
    return [sym for alt in rules[name] for sym in alt if sym != "|" and re.fullmatch(r"[a-z_]+", sym)]


def _leading_words(rules: dict, names) -> tuple:
    """The words each alternative of the rules `names` begins with (`"per" "player" "var"` is `per
    player var`), in grammar order without repeats; a rule that begins with an expression has none."""
    out = []
    for name in names:
        for alt in rules[name]:
            words = []
            for sym in alt:
                if not re.fullmatch(r'"[a-z]+"', sym):
                    break
                words.append(sym.strip('"'))
            if words and " ".join(words) not in out:
                out.append(" ".join(words))
    return tuple(out)


@functools.lru_cache(maxsize=1)
def expression_words() -> tuple:
    """The words an expression may begin with, read from the grammar's atoms (`all cards`, `position
    of`, `piles of`, `partner of`): the LSP offers them where an expression goes."""
    rules = _rules(re.sub(r"//[^\n]*", "", grammar_text()))
    return _leading_words(rules, ["atom", "plain_unary"])


@functools.lru_cache(maxsize=1)
def opening_words() -> dict:
    """What a declaration and a statement begin with, read from the grammar (the LSP offers these
    at the start of a line): {"declaration": ("game", …, "per player var", …), "statement": (…)}.
    The statements' include the clauses that go on one (`elif`, `else`)."""
    rules = _rules(re.sub(r"//[^\n]*", "", grammar_text()))
    statements = _alternatives(rules, "small_stmt") + _alternatives(rules, "compound_stmt")
    clauses = [c for n in statements for alt in rules[n] for c in re.findall(r"\w+_clause", " ".join(alt))]
    return {"declaration": _leading_words(rules, _alternatives(rules, "item")),
            "statement": _leading_words(rules, statements + list(dict.fromkeys(clauses)))}
