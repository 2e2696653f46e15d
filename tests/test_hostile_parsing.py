"""Hostile rule files that attack the parser itself (issue 27; docs/security.md, "Parsing limits"):
texts the lexer could read in exponential time, `extends` diamonds, 9 MiB files that made `check`
take gigabytes. Each runs the real command in a subprocess capped at 300 MB of address space and a
few seconds of CPU (the exact guard; the wall-clock time-out only stops a process that hangs).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardlang.lang.limits import MAX_LINES, MAX_TEXT_PARTS
from cardlang.lang.parse import parse
from cardlang.lang.text_literals import unquote
from cardlang.lang.variants import resolve
from cardlang.load import Loader

ROOT = Path(__file__).resolve().parent.parent
MEMORY = 300 * 1024 * 1024
HEADER = 'game "T"\nplayers 2\ndeck standard\nzone talon: pile, hidden\nvar x = 0\n'
NINE_MIB = 9 * 1024 * 1024


def limited(code: str, *args, cpu: int = 5, cwd=None) -> subprocess.CompletedProcess:
    """`code` (Python) in a subprocess within 300 MB of address space and `cpu` seconds of CPU."""
    boot = ("import resource, sys\n"
            f"resource.setrlimit(resource.RLIMIT_AS, ({MEMORY}, {MEMORY}))\n"
            f"resource.setrlimit(resource.RLIMIT_CPU, ({cpu}, {cpu}))\n" + code)
    env = {k: v for k, v in os.environ.items() if k != "CARDLANG_ROOT"}
    env["NO_COLOR"] = "1"
    stretch = max(1.0, os.getloadavg()[0] / (os.cpu_count() or 1))  # a busy machine: CPU is the guard
    return subprocess.run([sys.executable, "-c", boot, *map(str, args)], capture_output=True, text=True,
                          timeout=4 * cpu * stretch + 10, stdin=subprocess.DEVNULL, env=env, cwd=cwd)


def cardlang_cli(*args, cpu: int = 5, cwd=None) -> subprocess.CompletedProcess:
    """The `cardlang` command, limited as `limited`."""
    return limited("from cardlang.cli import main\nmain(prog_name='cardlang')\n", *args, cpu=cpu, cwd=cwd)


def clean(result, name: str, statuses=(0, 1, 2)) -> str:
    """The output of a run that ended on its own: an expected status, no traceback, the file named."""
    out = result.stdout + result.stderr
    assert result.returncode in statuses, (result.returncode, out[-2000:])
    assert "Traceback" not in out and "MemoryError" not in out, out[-2000:]
    assert name in out or result.returncode == 0, out[-2000:]
    return out


# ------------------------------------------------------------------ the text pattern
def unclosed_parts(n: int) -> str:
    return HEADER + 'about "' + "{a}" * n + "\nround:\n    end game\n"


@pytest.mark.parametrize("parts", [30, 3000])
@pytest.mark.parametrize("command", [["check"], ["fmt", "--check"], ["play", "--bots-only"],
                                     ["simulate", "-n", "1"]])
def test_an_unclosed_text_of_many_parts_is_answered_at_once(tmp_path, parts, command):
    """30 parts took 2^30 steps of the old pattern (24 took 19.5 s): now a one-line E002."""
    path = tmp_path / "parts.cards"
    path.write_text(unclosed_parts(parts), encoding="utf-8")
    out = clean(cardlang_cli(*command, path), "parts.cards", statuses=(1, 2))
    assert "E002" in out or "no closing" in out, out


def test_the_language_server_analyses_an_unclosed_text_of_many_parts_at_once(tmp_path):
    code = ("from cardlang.tools.analysis import analyse\n"
            "a = analyse(sys.argv[1], 'parts.cards')\n"
            "print(sorted({d.code for d in a.diagnostics}))\n")
    result = limited(code, unclosed_parts(3000))
    assert result.returncode == 0, result.stderr
    assert "E002" in result.stdout


@pytest.mark.parametrize("text, closed", [
    ('"{a}{b}"', True), ('"{"x" if y else "{z}"}"', True), ('"{ {a}"', True), ('"a {"', True),
    ('"{{"', True), ('"\\"{"', True), ('"{a}', False), ('"{"x"}', False),
])
def test_the_text_pattern_keeps_its_meaning(text, closed):
    """A `{` that no `}` closes on the line is a brace; a closed part may hold texts of its own."""
    from cardlang.lang.grammar import parser

    pattern = next(t.pattern.to_regexp() for t in parser().terminals if t.name == "STRING")
    m = re.match(pattern, text)
    assert (m is not None and m.end() == len(text)) == closed, (text, m)


def test_every_grammar_pattern_that_loops_over_a_group_gives_nothing_back():
    """Python's matcher keeps a record for each pass of a loop over a group that may give back: 280
    bytes a pass (9 MiB of blank lines took 2.6 GB), and two readings of one place make it exponential.
    Every such loop in the grammar is possessive (`*+`, `++`)."""
    from cardlang.lang.grammar import parser

    for t in parser().terminals:
        if t.pattern.type != "re":
            continue
        source = t.pattern.value
        # a group closed by `)` and repeated: `)*`, `)+`, `){n,}` not followed by `+`
        loose = re.findall(r"\)(?:\*|\+|\{\d*,\d*\})(?!\+)", source)
        assert not loose, (t.name, source)


# ------------------------------------------------------------------ extends
def diamond(folder: Path, levels: int) -> Path:
    """Files f0 … f{levels}: each extends the next one twice; the last is a real game."""
    (folder / f"f{levels}.cards").write_text((ROOT / "games" / "coucou.cards").read_text(encoding="utf-8"),
                                             encoding="utf-8")
    for i in range(levels):
        (folder / f"f{i}.cards").write_text(f'extends "f{i + 1}.cards"\nextends "f{i + 1}.cards", "f{i + 1}.cards"\n',
                                            encoding="utf-8")
    return folder / "f0.cards"


def test_an_extends_diamond_of_41_files_is_checked_at_once(tmp_path):
    """18 levels took 15 s (2^18 merges), 41 hung: each base is now read and resolved once."""
    top = diamond(tmp_path, 41)
    out = clean(cardlang_cli("check", top), "f0.cards", statuses=(0,))
    assert "0 errors" in out


def test_each_base_of_a_diamond_is_loaded_once_and_its_problems_reported_once(tmp_path):
    top = diamond(tmp_path, 12)
    (tmp_path / "f12.cards").write_text(HEADER + "round:\n    set x 1\n", encoding="utf-8")  # E001
    loader = Loader()
    loads: list = []

    def load(path):
        loads.append(os.path.basename(path))
        return loader.parse_file(path)

    module, _ = loader.parse_file(str(top))
    merged, diagnostics = resolve(module, load)
    assert sorted(loads) == sorted(f"f{i}.cards" for i in range(1, 13))  # each once, not 2^12 times
    assert [(d.code, os.path.basename(d.span.file)) for d in diagnostics] == [("E001", "f12.cards")]


# ------------------------------------------------------------------ 9 MiB files
def with_announce(body: str) -> str:
    game = (ROOT / "games" / "coucou.cards").read_text(encoding="utf-8")
    i = game.index('announce "')
    return game[:i] + 'announce "' + body + '"' + game[game.index("\n", i):]


SHAPES = {  # name: (text, the code `check` gives, or "ok")
    "a plain text": (lambda: with_announce("a" * NINE_MIB), "ok"),
    "a text of escapes": (lambda: with_announce("\\n" * (NINE_MIB // 2)), "ok"),
    "a text of parts": (lambda: with_announce("{1}" * (NINE_MIB // 3)), "E009"),
    "a text of braces": (lambda: with_announce("{{" * (NINE_MIB // 2)), "E009"),
    "one long part": (lambda: with_announce("{" + "(1)+" * (NINE_MIB // 4) + "1}"), "E009"),
    "blank lines": (lambda: HEADER + "\n" * NINE_MIB + "round:\n    end game\n", "E009"),
    "comment lines": (lambda: HEADER + "#x\n" * (NINE_MIB // 3) + "round:\n    end game\n", "E009"),
    "short broken lines": (lambda: HEADER + "x y\n" * (NINE_MIB // 4), "E009"),
    "one comment": (lambda: HEADER + "#" + "x" * NINE_MIB + "\nround:\n    end game\n", "ok"),
}


@pytest.fixture(scope="module")
def nine_mib(tmp_path_factory):
    folder = tmp_path_factory.mktemp("nine")
    out = {}
    for k, (make, _) in SHAPES.items():
        out[k] = folder / (re.sub(r"\W+", "_", k) + ".cards")
        out[k].write_text(make(), encoding="utf-8")
    return out


@pytest.mark.parametrize("shape", SHAPES)
def test_a_9_mib_file_is_checked_within_300_mb(nine_mib, shape):
    """A 9 MiB text took 2 GB (the matcher's record of each pass of the text's loop), 3 million `{1}`
    parts 1.2 GB and 62 s, 9 MiB of blank lines 2.6 GB: `check` now stays within 300 MB."""
    path = nine_mib[shape]
    assert path.stat().st_size < 10 * 1024 * 1024
    result = cardlang_cli("check", path, cpu=15)
    out = clean(result, path.name, statuses=(0, 1))
    code = SHAPES[shape][1]
    if code == "ok":
        assert result.returncode == 0 and "0 errors" in out, out[-2000:]
    else:
        assert f"[{code}]" in out and out.count("error[") == 1, out[-2000:]
        assert max(len(line) for line in out.splitlines()) < 400  # the long line is cut around the span


@pytest.mark.parametrize("shape", ["a plain text", "a text of parts", "blank lines"])
def test_fmt_of_a_9_mib_file_works_or_says_why_in_one_diagnostic(nine_mib, tmp_path, shape):
    path = tmp_path / "big.cards"
    path.write_bytes(nine_mib[shape].read_bytes())
    result = cardlang_cli("fmt", path, cpu=15)
    out = clean(result, "big.cards", statuses=(0, 2))
    if SHAPES[shape][1] != "ok":
        assert "E009" in out


def test_the_limits_are_what_the_messages_say(tmp_path):
    at_limit = HEADER + "\n" * (MAX_LINES - 10) + "round:\n    end game\n"
    assert parse(at_limit)[0] is not None
    module, diagnostics = parse(at_limit + "\n" * 20)
    assert module is None and [d.code for d in diagnostics] == ["E009"]
    assert "more than 100 000 lines" in diagnostics[0].message
    parts = 'round:\n    announce "' + "{x}" * (MAX_TEXT_PARTS // 2) + '"\n    end game\n'
    assert parse(HEADER + parts)[0] is not None  # each `{x}` costs 2: exactly the limit
    module, diagnostics = parse(HEADER + parts.replace("{x}", "{x}{{", 1))
    assert module is None and [d.code for d in diagnostics] == ["E009"]


# ------------------------------------------------------------------ texts
def reference_unquote(raw: str) -> str:
    """The escape rule as first written: `\\n`, `\\t`, and `\\x` is `x`."""
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), raw[1:-1])


@settings(max_examples=300, derandomize=True)
@given(st.text(alphabet='\\ntx"{}\n ', max_size=30))
def test_unquote_applies_the_escape_rule(body):
    raw = '"' + body + '"'
    assert unquote(raw) == reference_unquote(raw)


def test_the_report_of_a_file_of_many_lines_quotes_its_line(tmp_path):
    from cardlang.lang.snippet import QuotedLines

    text = "a\nb\n\nd"
    lines = QuotedLines(text, [4, 2, 9])
    assert len(lines) == 4 and lines[3] == "d" and lines[1] == "b"
    with pytest.raises(KeyError):
        lines[0]  # (a line no diagnostic names is not kept)
