"""No input makes `cardlang check` fail: every problem is a diagnostic placed inside the file.

Empty, binary and non-UTF-8 files, a 10 MB file, deep nesting, every line prefix of every game
file, and (hypothesis) game files with lines and tokens deleted, duplicated, swapped or mixed with junk.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardlang.cli import main
from cardlang.cli.cmd_check import check_files
from cardlang.lang.codes import CODES

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted([*(ROOT / "games").glob("*.cards"), *(ROOT / "examples").glob("*.cards")])
JUNK = ["(", ")", "[", "]", "{", "}", ":", ",", '"', "'", "#", "\\", "..", "==", "=", "+", "-", "*", "\t", "    ",
        "if", "else", "elif", "chooses", "for each", "end", "game", "round:", "phase", "a card", "players", "x",
        "0", "-1", "99999999999999999999", "é", "♠", "\r", "\ufeff", "\x00", "{p}", '"{', "pass", "deal", "none"]


@pytest.fixture(scope="module")
def copy(tmp_path_factory):
    """games/ and examples/ copied, so that mutated variants still find their bases."""
    base = tmp_path_factory.mktemp("tree")
    for folder in ("games", "examples"):
        shutil.copytree(ROOT / folder, base / folder)
    (base / "cardlang.toml").write_text('root = "."\n')  # as the project's pyproject.toml: examples/ reach games/
    return base


def assert_inside(report, texts: dict) -> None:
    """Every diagnostic has a known code (never E900, a checker bug) and a position inside its file."""
    for d in report.diagnostics:
        assert d.code in CODES and d.code != "E900", d
        s = d.span
        text = texts.get(Path(s.file).name)
        if text is None:
            continue  # a base file, unchanged
        if isinstance(text, bytes):
            assert (s.line, s.column) >= (1, 1), d
            continue
        lines = (text if text.endswith("\n") else text + "\n").split("\n")
        assert 1 <= s.line <= s.end_line <= len(lines), d
        assert 1 <= s.column <= len(lines[s.line - 1]) + 1, d
        assert s.end_column <= len(lines[s.end_line - 1]) + 2, d
        assert (s.line, s.column) < (s.end_line, s.end_column), d


def check_text(folder: Path, name: str, text) -> None:
    path = folder / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8", newline="")
    assert_inside(check_files([str(path)]), {name: text})


# ------------------------------------------------------------------ odd inputs
@pytest.mark.parametrize("data", [
    b"", b"\n", b"   \n\t\n", b"# only a comment", b"\x00\x01\x02\x03", bytes(range(256)),
    b"game \"x\xff\"\n", b"\xef\xbb\xbfgame \"bom\"\n", b"\r\n\r\n", b"game \"x\"\rplayers 2\r",
], ids=["empty", "newline", "blank", "comment", "binary", "all-bytes", "bad-utf8", "bom", "crlf-only", "cr-only"])
def test_odd_files_give_diagnostics(tmp_path, data):
    path = tmp_path / "odd.cards"
    path.write_bytes(data)
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code in (1, 2)
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    assert_inside(check_files([str(path)]), {"odd.cards": data if b"\x00" in data else data.decode("utf-8", "replace")})


def test_crlf_line_endings_check_like_lf(copy):
    for source in SOURCES:
        text = source.read_text(encoding="utf-8")
        crlf = copy / source.parent.name / ("crlf_" + source.name)
        crlf.write_bytes(text.replace("\n", "\r\n").encode("utf-8"))
        lf = check_files([str(source)])
        assert [d.code for d in check_files([str(crlf)]).diagnostics] == [d.code for d in lf.diagnostics]


def test_a_10_mb_file(tmp_path):
    game = (ROOT / "games" / "coucou.cards").read_text(encoding="utf-8")
    filler = ("# " + "x" * 97 + "\n") * 52_000  # 5.2 MB of comments the lexer must go through
    junk = "set x = " + "y" * 5_000_000  # and a 5 MB line with an error near its start
    text = game + filler + junk + "\n"
    assert len(text.encode()) > 10_000_000
    check_text(tmp_path, "big.cards", text)
    report = check_files([str(tmp_path / "big.cards")])
    assert [d.code for d in report.diagnostics] == ["E001"]
    from cardlang.lang.report import render_text

    shown = render_text(report)
    assert max(len(line) for line in shown.splitlines()) < 300  # long lines are cut around the span


@pytest.mark.parametrize("text", [
    "round:\n    let x = " + "(" * 5000 + "1" + ")" * 5000 + "\n",  # brackets add no level: checked as usual
    "round:\n    let x = " + "+".join(["1"] * 5000) + "\n",
    "round:\n    let x = " + "not " * 5000 + "true\n",
    "round:\n    let x = " + "[" * 3000 + "1" + "]" * 3000 + "\n",
    "round:\n    announce \"{" + "- " * 3000 + "1}\"\n",
    "round:\n" + "".join("    " * (i + 1) + "if true:\n" for i in range(300)) + "    " * 301 + "pass\n",
    "round:\n" + "".join(" " * (i + 1) + "while true:\n" for i in range(2000)) + " " * 2001 + "pass\n",
], ids=["parens", "sum", "not", "lists", "interpolation", "blocks", "one-space-blocks"])
def test_deep_nesting_is_a_diagnostic(tmp_path, text):
    check_text(tmp_path, "deep.cards", 'game "deep"\nplayers 2\ndeck standard\n' + text)
    codes = {d.code for d in check_files([str(tmp_path / "deep.cards")]).diagnostics}
    assert ("E006" in codes) == (not text.startswith("round:\n    let x = ((")), codes


# ------------------------------------------------------------------ prefixes
@pytest.mark.parametrize("source", SOURCES, ids=[p.name for p in SOURCES])
def test_every_line_prefix_of_every_game_file(copy, source):
    lines = source.read_text(encoding="utf-8").split("\n")
    folder = copy / source.parent.name
    for n in range(len(lines) + 1):
        check_text(folder, "prefix.cards", "\n".join(lines[:n]))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_character_prefixes(copy, data):
    source = data.draw(st.sampled_from(SOURCES))
    text = source.read_text(encoding="utf-8")
    cut = data.draw(st.integers(0, len(text)))
    check_text(copy / source.parent.name, "cut.cards", text[:cut])


# ------------------------------------------------------------------ mutations
def mutate(text: str, ops) -> str:
    lines = text.split("\n")
    for kind, a, b, junk in ops:
        if not lines:
            lines = [""]
        i, j = a % len(lines), b % len(lines)
        tokens = lines[i].split(" ")
        if kind == "delete line":
            del lines[i]
        elif kind == "duplicate line":
            lines.insert(i, lines[i])
        elif kind == "swap lines":
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == "delete token":
            del tokens[b % len(tokens)]
            lines[i] = " ".join(tokens)
        elif kind == "duplicate token":
            k = b % len(tokens)
            tokens.insert(k, tokens[k])
            lines[i] = " ".join(tokens)
        elif kind == "swap tokens":
            k, m = b % len(tokens), (b // 7) % len(tokens)
            tokens[k], tokens[m] = tokens[m], tokens[k]
            lines[i] = " ".join(tokens)
        else:  # insert junk
            tokens.insert(b % (len(tokens) + 1), junk)
            lines[i] = " ".join(tokens)
    return "\n".join(lines)


OPS = st.lists(st.tuples(
    st.sampled_from(["delete line", "duplicate line", "swap lines", "delete token", "duplicate token",
                     "swap tokens", "insert junk"]),
    st.integers(0, 10_000), st.integers(0, 10_000), st.sampled_from(JUNK)), min_size=1, max_size=5)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(source=st.sampled_from(SOURCES), ops=OPS)
def test_mutated_game_files(copy, source, ops):
    text = mutate(source.read_text(encoding="utf-8"), ops)
    check_text(copy / source.parent.name, "mutated.cards", text)
