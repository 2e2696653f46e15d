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
