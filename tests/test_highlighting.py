"""Highlighting: the Pygments lexer and the TextMate grammar (VS Code) know every word of the grammar
and colour every game without an error token."""

import glob
import importlib.util
import json
import os
import re
import shutil
import subprocess

import pytest
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
from pygments.token import Error, Keyword, Name, String

from cardlang.tools import keyword_lists
from cardlang.tools.keywords import grammar_keywords
from cardlang.tools.lexer import CardsLexer
from scenario import ROOT

FILES = sorted(glob.glob(os.path.join(ROOT, "games", "*.cards")) + glob.glob(os.path.join(ROOT, "examples", "*.cards")))
VSCODE = os.path.join(ROOT, "editors", "vscode")


def _generator():
    spec = importlib.util.spec_from_file_location("generate_keywords", os.path.join(ROOT, "editors", "generate_keywords.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_generated_keyword_lists_are_up_to_date_with_the_grammar():
    assert _generator().main(["--check"]) == 0, "run editors/generate_keywords.py"


def test_the_lexer_and_the_textmate_grammar_know_exactly_the_grammar_keywords():
    words = set(grammar_keywords())
    assert {"chooses", "deal", "phase", "extends", "winners", "true", "except"} <= words
    listed = keyword_lists.CONSTANTS + keyword_lists.OPERATORS + keyword_lists.KEYWORDS
    assert sorted(listed) == sorted(words)
    with open(os.path.join(VSCODE, "syntaxes", "cards.tmLanguage.json"), encoding="utf-8") as f:
        grammar = json.load(f)
    in_textmate = set()
    for pattern in grammar["repository"]["expression"]["patterns"]:
        m = re.fullmatch(r"\\b\(\?:([a-z|]+)\)\\b", pattern.get("match", ""))
        if m:
            in_textmate.update(m.group(1).split("|"))
    assert in_textmate == words


def test_pygments_finds_the_lexer_by_file_name_through_its_entry_point():
    assert isinstance(get_lexer_for_filename("coucou.cards"), CardsLexer)
    assert isinstance(get_lexer_by_name("cards"), CardsLexer)


@pytest.mark.parametrize("path", FILES, ids=os.path.basename)
def test_pygments_colours_every_game_without_an_error_token(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    tokens = list(CardsLexer().get_tokens(text))
    assert [v for t, v in tokens if t in Error] == []
    assert "".join(v for _, v in tokens) == text


def test_pygments_tokens_say_what_the_words_are():
    text = 'phase turn(p):\n    announce "{p} has {count(hand(p))} cards"  # why\n    $\n'
    tokens = [(t, v) for t, v in CardsLexer().get_tokens(text) if v.strip()]
    assert (Keyword.Declaration, "phase") in tokens and (Name.Function, "turn") in tokens
    assert (String.Interpol, "{") in tokens and (Name, "hand") in tokens and (Keyword, "count") in tokens
    assert [v for t, v in tokens if t in Error] == ["$"]  # what the language does not have is an error


def _tokenize_with_textmate(paths, scopes=False):
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node and npm are not installed: the TextMate grammar is tokenized with vscode-textmate under node")
    if not os.path.isdir(os.path.join(VSCODE, "node_modules", "vscode-textmate")):
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=VSCODE, check=True, capture_output=True)
    result = subprocess.run(["node", os.path.join("test", "tokenize.js"), *(["--scopes"] if scopes else []), *paths],
                            cwd=VSCODE,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode in (0, 1), result.stderr
    return result.returncode, [json.loads(line) for line in result.stdout.splitlines()]


def test_the_textmate_grammar_tokenizes_every_game_without_an_invalid_token():
    status, reports = _tokenize_with_textmate(FILES)
    assert [r["file"] for r in reports] == FILES
    assert {r["file"]: r["invalid"] for r in reports} == {f: [] for f in FILES}
    assert all(r["tokens"] > r["lines"] for r in reports if r["lines"] > 5)
    assert status == 0


def test_the_textmate_harness_reports_what_the_grammar_does_not_know(tmp_path):
    odd = tmp_path / "odd.cards"
    odd.write_text('game "g"\nround:\n    set x = 1 $ 2\n')
    status, (report,) = _tokenize_with_textmate([str(odd)])
    assert status == 1 and report["invalid"] == [[3, 15, "$"]]


def test_cardlang_check_colours_the_quoted_source_line_with_the_lexer():
    from pygments import highlight
    from pygments.formatters import TerminalFormatter

    from cardlang.lang.diagnostics import Diagnostic, Span
    from cardlang.lang.report import render_diagnostic

    line = '    announce "{p} wins"  # why'
    d = Diagnostic("E010", "error", "unknown name `p`", Span("x.cards", 1, 20, 1, 21))
    coloured = render_diagnostic(d, [line], color=True)
    assert highlight(line, CardsLexer(), TerminalFormatter()).rstrip("\n") in coloured
    assert line in render_diagnostic(d, [line], color=False)


def test_the_textmate_grammar_scopes_say_what_the_words_are(tmp_path):
    snippet = tmp_path / "snippet.cards"
    snippet.write_text('phase turn(p):  # why\n    if true and count(hand(p)) > 2:\n        announce "{p} wins {{1}}"\n')
    _, (report,) = _tokenize_with_textmate([str(snippet)], scopes=True)
    scopes = {(line, text.strip()): scope for line, text, scope in report["scopes"] if text.strip()}
    assert scopes[(1, "phase")] == "keyword.control.cards"
    assert scopes[(1, "turn")] == "entity.name.function.cards"
    assert scopes[(1, "# why")] == "comment.line.number-sign.cards"
    assert scopes[(2, "true")] == "constant.language.cards"
    assert scopes[(2, "and")] == "keyword.operator.word.cards"
    assert scopes[(2, "count")] == "keyword.control.cards" and scopes[(2, "hand")] == "variable.other.cards"
    assert scopes[(2, "2")] == "constant.numeric.cards" and scopes[(2, ">")] == "keyword.operator.cards"
    assert scopes[(3, "p")] == "variable.other.cards"  # inside `{…}` of the text
    assert scopes[(3, "{{")] == "constant.character.escape.cards"
    assert report["invalid"] == []
