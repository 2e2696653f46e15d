"""The fuzzing job (issue 27; docs/security.md, "Fuzzing"): rule files and saves generated from the
grammar and from the repository's own games and saves, mutated, with the hostile shapes of
`test_hostile_parsing.py` spliced in. Whatever comes in, `check` and `fmt` end with diagnostics or a
one-line error and loading a save with a one-line refusal, never a Python exception; each example
stays within a CPU time and a memory budget. Rule files are checked in a worker process of 400 MB
that the test kills when an example does not finish (tests/fuzz_worker.py): a hang fails the test.

The budget is fixed: `CARDLANG_FUZZ_EXAMPLES` examples a property (40 by default, about 40 s of CPU
for the whole file in CI); set it higher for a longer run by hand. `derandomize` keeps CI
reproducible; a longer run with `CARDLANG_FUZZ_SEED` explores other inputs.
"""

from __future__ import annotations

import json
import os
import re
import resource
import time
from datetime import timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, Phase, given, seed, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark
from lark import Lark

from cardlang.cli import main
from cardlang.lang.grammar import PARSER_OPTIONS, grammar_text
from cardlang.play.save_schema import checksum
from fuzz_worker import Worker, check_and_format

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted([*(ROOT / "games").glob("*.cards"), *(ROOT / "examples").glob("*.cards")])
EXAMPLES = int(os.environ.get("CARDLANG_FUZZ_EXAMPLES", "40"))
SEED = int(os.environ.get("CARDLANG_FUZZ_SEED", "0"))
CPU_SECONDS = 5.0  # one example: checked and formatted, or one save loaded
GROWTH = 200 * 1024 * 1024  # how far the test process's peak memory may grow with saves (rule files: the
# worker's own limit, fuzz_worker.MEMORY)
# no shrinking: a failing example is reported as drawn (shrinking an input that hangs would wait
# out the time-out again for each smaller try)
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=SEED == 0, database=None,
                suppress_health_check=list(HealthCheck), phases=[Phase.explicit, Phase.generate])
_BASELINE: list = []


def _peak() -> int:
    """The peak resident memory of this process so far, in bytes (Linux counts kilobytes)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def budgeted(run):
    """Runs `run()` and asserts the CPU time it took and the peak memory of the process are within
    the budget (the peak only grows: an example that took more than GROWTH fails, and all after it)."""
    if not _BASELINE:
        _BASELINE.append(_peak())
    start = time.process_time()
    try:
        return run()
    finally:
        used = time.process_time() - start
        assert used < CPU_SECONDS, f"{used:.1f} s of CPU"
        assert _peak() < _BASELINE[0] + GROWTH, f"peak {_peak() / 1e6:.0f} MB"


# ------------------------------------------------------------------ rule files from the grammar
def _spaced(s: st.SearchStrategy) -> st.SearchStrategy:
    return s.map(lambda t: f" {t} ")


def grammar_strategy(start: str) -> st.SearchStrategy:
    """Texts of the grammar's rule `start` (hypothesis's `from_lark`), words spaced apart; texts,
    names and numbers drawn from small sets so that the checker gets past the names."""
    lark = Lark(grammar_text(), **{**PARSER_OPTIONS, "propagate_positions": False})
    terminals, _, ignored = lark.grammar.compile([start], ())
    reachable = {t.name for t in terminals} | {"_INDENT", "_DEDENT"} | set(ignored)
    explicit = {t.name: st.just(f" {t.pattern.value} ") for t in terminals if t.pattern.type == "str"}
    explicit.update({
        "NAME": _spaced(st.sampled_from(["p", "q", "x", "talon", "hand", "tokens", "players", "c", "n"])),
        "RANK": _spaced(st.sampled_from(["A", "K", "2", "10"])),
        "INT": _spaced(st.sampled_from(["0", "1", "3", "52", "999999999999999999", "1" * 19])),
        "STRING": st.sampled_from(['"a"', '"{p}"', '"{x + 1}"', '"{{"', '"{"t" if x else "{p}"}"', '"\\n"']),
        "COMP_OP": _spaced(st.sampled_from(["==", "!=", "<", ">=", "<=", ">"])),
        "ADD_OP": _spaced(st.sampled_from(["+", "-"])), "MUL_OP": _spaced(st.sampled_from(["*", "/", "%"])),
        "_NL": st.just("\n"), "_INDENT": st.just(""), "_DEDENT": st.just(""),
        "ACE_LOW": st.just(", ace low"), "AT_ONCE": st.just(" at once "), "STRICTLY": st.just(" strictly "),
        "TRUE": st.just(" true "), "FALSE": st.just(" false "), "MINUS": st.just(" -"),
        "COMMENT": st.just("# c"),
    })
    # what the grammar ignores between tokens (spaces, a `\` that goes on): a plain space, since
    # drawing them from their patterns took most of the time of a draw
    explicit.update({name: st.just(" ") for name in ignored if name != "COMMENT"})
    return from_lark(lark, start=start, explicit={k: v for k, v in explicit.items() if k in reachable})


_STATEMENT = None


def statements() -> st.SearchStrategy:
    global _STATEMENT
    if _STATEMENT is None:
        _STATEMENT = grammar_strategy("small_stmt")
    return _STATEMENT


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


HOSTILE_PIECES = [  # small forms of the attacks of tests/test_hostile_parsing.py
    '"' + "{a}" * 40, '"' + "{{" * 500 + '"', '"' + "{1}" * 3000 + '"', "(" * 300 + "1" + ")" * 300,
    "not " * 300 + "true", "\ufeff", "\x1b[2J", '"\\', "\t", "\r", "{", "}", "#" * 50,
]


@st.composite
def rule_files(draw) -> str:
    """A game of the repository with grammar-made statements put into its blocks, its tokens
    mutated, and hostile pieces spliced in."""
    lines = _read(draw(st.sampled_from(GAMES))).split("\n")
    for _ in range(draw(st.integers(0, 1))):  # a statement of the grammar, at a block's indentation
        at = draw(st.integers(0, len(lines)))
        indent = re.match(r"[ \t]*", lines[at - 1] if at else "").group(0) or "    "
        stmt = draw(statements()).strip("\n").replace("\n", "\n" + indent)
        lines.insert(at, indent + stmt)
    text = "\n".join(lines)
    tokens = re.findall(r"\s+|\w+|[^\w\s]", text)
    for _ in range(draw(st.integers(0, 6))):
        if not tokens:
            break
        i = draw(st.integers(0, len(tokens) - 1))
        op = draw(st.sampled_from(["delete", "repeat", "swap", "keyword", "hostile", "cut"]))
        if op == "delete":
            del tokens[i]
        elif op == "repeat":
            tokens.insert(i, tokens[i] * draw(st.integers(1, 40)))
        elif op == "swap":
            j = draw(st.integers(0, len(tokens) - 1))
            tokens[i], tokens[j] = tokens[j], tokens[i]
        elif op == "keyword":
            tokens.insert(i, draw(st.sampled_from(["if", "chooses", "extends", "of", "each", ":", "\n    ",
                                                   "\n", "=", "players", "top", "card"])))
        elif op == "hostile":
            tokens.insert(i, draw(st.sampled_from(HOSTILE_PIECES)))
        else:
            tokens = tokens[:i]
    return "".join(tokens)


@pytest.fixture(scope="module")
def worker():
    """The limited process that checks and formats each example (tests/fuzz_worker.py)."""
    w = Worker()
    yield w
    w.close()


def assert_checked_and_formatted(worker: Worker, path: Path) -> None:
    """`check` and `fmt` of the file, in the worker: within its memory, its time-out and CPU_SECONDS."""
    used, problem = worker.run(check_and_format, str(path), timeout=20)
    assert problem is None, problem
    assert used < CPU_SECONDS, f"{used:.1f} s of CPU"


@FUZZ
@given(text=rule_files())
def test_check_and_fmt_of_fuzzed_rule_files_end_in_diagnostics(tmp_path_factory, worker, text):
    path = tmp_path_factory.mktemp("fuzz") / "fuzz.cards"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    assert_checked_and_formatted(worker, path)


@settings(FUZZ, max_examples=max(1, EXAMPLES // 2))  # (a grammar-made expression takes 0.5 s to draw)
@given(expr=grammar_strategy("expr"), where=st.sampled_from(["let", "announce", "if"]))
def test_grammar_made_expressions_in_a_game_end_in_diagnostics(tmp_path_factory, worker, expr, where):
    """Every expression of the grammar, where a game evaluates it: the checker's analyses are total."""
    game = _read(ROOT / "games" / "coucou.cards")
    expr = expr.replace("\n", " ")
    line = {"let": f"let fuzz = {expr}", "announce": f'announce "{{{expr}}}"', "if": f"if {expr}:\n        pass"}[where]
    assert "\nround:\n" in game
    text = game.replace("\nround:\n", f"\nround:\n    {line}\n", 1)
    path = tmp_path_factory.mktemp("fuzz") / "expr.cards"
    path.write_text(text, encoding="utf-8")
    assert_checked_and_formatted(worker, path)


# ------------------------------------------------------------------ saves
@pytest.fixture(scope="module")
def real_save(tmp_path_factory):
    """A save of a game in progress, written by `play --save`."""
    folder = tmp_path_factory.mktemp("save")
    save = folder / "game.json"
    result = CliRunner().invoke(main, ["play", str(ROOT / "games" / "coucou.cards"), "--players", "5",
                                       "--seed", "3", "--save", str(save)], input="1\n1\nq\n")
    assert result.exit_code == 0, result.output
    return json.loads(save.read_text(encoding="utf-8"))


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(1 << 70), 1 << 70) | st.floats(allow_nan=True) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=20,
)


@st.composite
def saves(draw, data: dict) -> bytes:
    """A save changed at one place of its JSON tree, or its text cut, repeated or spliced."""
    data = json.loads(json.dumps(data))
    kind = draw(st.sampled_from(["tree", "text"]))
    if kind == "tree":
        node, key = data, None
        for _ in range(draw(st.integers(1, 3))):  # walk down to a field, an item, or deeper
            keys = list(node) if isinstance(node, dict) else list(range(len(node))) if isinstance(node, list) else []
            if not keys:
                break
            key = draw(st.sampled_from(keys))
            if isinstance(node[key], (dict, list)) and node[key] and draw(st.booleans()):
                node, key = node[key], None
            else:
                break
        if key is not None:
            node[key] = draw(JSON_VALUES)
        if draw(st.booleans()):  # the checksum made again: the change reaches the checks behind it
            try:
                data["checksum"] = checksum(data)
            except (TypeError, ValueError):  # (a tree that is not JSON any more: NaN, a junk key)
                pass
        return json.dumps(data, ensure_ascii=False, allow_nan=True).encode("utf-8", "surrogatepass")
    raw = json.dumps(data).encode()
    i = draw(st.integers(0, len(raw)))
    op = draw(st.sampled_from(["cut", "repeat", "insert", "nest"]))
    if op == "cut":
        return raw[:i]
    if op == "repeat":
        j = draw(st.integers(i, min(len(raw), i + 200)))
        return raw[:i] + raw[i:j] * draw(st.integers(2, 50)) + raw[i:]
    if op == "insert":
        return raw[:i] + draw(st.binary(min_size=1, max_size=20)) + raw[i:]
    depth = draw(st.integers(100, 5000))
    return raw[:i] + b"[" * depth + b"]" * depth + raw[i:]


@settings(FUZZ, deadline=timedelta(seconds=30))
@given(data=st.data(), command=st.sampled_from(["replay", "resume"]))
def test_fuzzed_saves_are_loaded_or_refused_in_one_line(real_save, tmp_path_factory, data, command):
    raw = data.draw(saves(real_save))
    save = tmp_path_factory.mktemp("fuzz") / "fuzz.json"
    save.write_bytes(raw)
    args = ["replay", str(save)] if command == "replay" else ["play", "--resume", str(save)]
    result = budgeted(lambda: CliRunner().invoke(main, args, input="quit\n"))
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    if result.exit_code != 0:  # refused, or stopped by a rule: said in words on one of the last lines
        assert any("error" in line for line in result.output.splitlines()[-3:]), result.output[-2000:]


def test_the_worker_fails_an_example_that_hangs(worker):
    with pytest.raises(AssertionError, match="the input hangs"):
        worker.run(time.sleep, 3600, timeout=2)
    assert worker.run(check_and_format, str(GAMES[0]), timeout=60)[1] is None  # a new worker after it


if SEED:  # a longer run by hand explores other inputs than CI's
    for _test in (test_check_and_fmt_of_fuzzed_rule_files_end_in_diagnostics,
                  test_grammar_made_expressions_in_a_game_end_in_diagnostics,
                  test_fuzzed_saves_are_loaded_or_refused_in_one_line):
        seed(SEED)(_test)
