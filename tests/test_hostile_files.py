"""Hostile rule files (issue 14, the files side; docs/security.md): `extends` stays inside the root
and is refused before anything is opened, only regular files are read and only so far, nothing but
a rule file that was read is ever quoted, and the limits are the ones the stages really accept.

Each hostile input runs the real command in a subprocess capped at 300 MB of address space and 5 s
of CPU, with a 5-second time-out (stretched by the machine's load, when more processes want to run
than it has cores): no traceback, exit status 1 or 2, a message naming the file.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardlang
from cardlang.cli.cmd_check import check_files
from cardlang.lang.codes import CODES
from cardlang.lang.diagnostics import CardlangError
from cardlang.lang.limits import MAX_BLOCK_DEPTH, MAX_EXPRESSION_DEPTH, MAX_FILE_BYTES, MAX_PLAYERS, MAX_TOKENS

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = ROOT / "tests" / "hostile"
SOURCES = sorted([*(ROOT / "games").glob("*.cards"), *(ROOT / "examples").glob("*.cards")])
FORMATS = ("text", "json", "github", "sarif")
SECRET = "SECRET_TOKEN=hunter2-never-shown"
MEMORY = 300 * 1024 * 1024
BOOT = (
    "import resource, sys\n"
    f"resource.setrlimit(resource.RLIMIT_AS, ({MEMORY}, {MEMORY}))\n"
    "resource.setrlimit(resource.RLIMIT_CPU, (5, 5))\n"
    "from cardlang.cli import main\n"
    "main(prog_name='cardlang')\n"
)
HEADER = 'game "T"\nplayers 2\ndeck standard\nzone talon: pile, hidden\nvar x = 0\n'


def timeout() -> float:
    """5 seconds, times how many processes share each core: the CPU limit is the exact guard."""
    return 5 * max(1.0, os.getloadavg()[0] / (os.cpu_count() or 1))


def cardlang_cli(*args, cwd=None, env=None):
    """The `cardlang` command in a subprocess, within 300 MB, 5 s of CPU and a 5-second time-out."""
    full_env = {k: v for k, v in os.environ.items() if k != "CARDLANG_ROOT"}
    full_env.update({"NO_COLOR": "1", **(env or {})})
    return subprocess.run([sys.executable, "-c", BOOT, *map(str, args)], cwd=cwd, env=full_env,
                          capture_output=True, text=True, timeout=timeout(), stdin=subprocess.DEVNULL)


def assert_refused(result, name: str, codes=()) -> None:
    """A clean refusal: exit 1 or 2, no traceback, the file named, the expected codes."""
    out = result.stdout + result.stderr
    assert result.returncode in (1, 2), out
    assert "Traceback" not in out and "the checker failed" not in out, out
    assert name in out, out
    for code in codes:
        assert f"[{code}]" in out or f"E{code[1:]}" in out, out


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def variant(folder: Path, base: str, name: str = "variant.cards") -> Path:
    return write(folder, name, f'game "Variant"\nextends "{base}"\n')


@pytest.fixture
def secret_tree(tmp_path):
    """A project with a `.env`, a secret outside the project, and links pointing at both."""
    project = tmp_path / "project"
    project.mkdir()
    (project / ".env").write_text(SECRET + "\n")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.cards").write_text(SECRET + "\n")
    os.symlink(outside / "secret.cards", project / "out_link.cards")
    os.symlink(project / ".env", project / "env_link.cards")
    return project


# ------------------------------------------------------------------ extends and the root
@pytest.mark.parametrize("base, code, words", [
    ("/etc/passwd", "E007", "is an absolute path"),
    ("../../x.cards", "E007", "leaves the root"),
    ("../outside/secret.cards", "E007", "leaves the root"),
    ("out_link.cards", "E007", "is a symbolic link to a file outside the root"),
    (".env", "E027", "is not a `.cards` file"),
    ("env_link.cards", "E027", "is a symbolic link to a file that is not a `.cards` file"),
], ids=["etc-passwd", "dotdot", "dotdot-to-secret", "symlink-out", "dotenv", "symlink-to-dotenv"])
@pytest.mark.parametrize("fmt", FORMATS)
def test_extends_outside_the_root_is_refused_and_nothing_of_the_target_is_shown(secret_tree, base, code, words, fmt):
    path = variant(secret_tree, base)
    result = cardlang_cli("check", "--format", fmt, path)
    assert_refused(result, "variant.cards", [code])
    out = result.stdout + result.stderr
    assert words in out
    assert "hunter2" not in out and "SECRET_TOKEN" not in out and "root:x:" not in out


@pytest.mark.parametrize("command", [("play", "--bots-only"), ("simulate", "-n", "1", "--jobs", "1")])
@pytest.mark.parametrize("base", ["/etc/passwd", "out_link.cards", ".env", "env_link.cards"])
def test_play_and_simulate_refuse_the_same_bases_and_show_nothing_of_them(secret_tree, command, base):
    result = cardlang_cli(*command, variant(secret_tree, base))
    assert_refused(result, "variant.cards")
    out = result.stdout + result.stderr
    assert "hunter2" not in out and "root:x:" not in out
    assert f'extends "{base}"' in out  # the variant's own line is quoted


def test_the_report_keeps_only_the_text_of_rule_files_it_read(secret_tree):
    write(secret_tree, "base.cards", HEADER + "round:\n    end game\n")
    paths = [variant(secret_tree, "base.cards"), variant(secret_tree, ".env", "v2.cards"),
             variant(secret_tree, "out_link.cards", "v3.cards"), variant(secret_tree, "/etc/passwd", "v4.cards")]
    report = check_files([str(p) for p in paths])
    assert {Path(f).name for f in report.sources} == {"variant.cards", "base.cards", "v2.cards", "v3.cards", "v4.cards"}
    assert not any("hunter2" in (text if isinstance(text, str) else "\n".join(text or ()))
                   for text in report.sources.values())


def test_an_absolute_path_is_refused_even_inside_the_root(tmp_path):
    write(tmp_path, "base.cards", HEADER + "round:\n    end game\n")
    path = variant(tmp_path, str(tmp_path / "base.cards"))
    assert_refused(cardlang_cli("check", path), "variant.cards", ["E007"])


def test_a_refused_base_is_never_opened(secret_tree, monkeypatch):
    """Not even opened to look: the path is judged from its text, `stat` and `realpath` alone."""
    import builtins

    opened = []

    def spy(real):
        def opening(path, *args, **kwargs):
            if isinstance(path, (str, os.PathLike)):
                opened.append(os.path.realpath(path))
            return real(path, *args, **kwargs)
        return opening

    monkeypatch.setattr(os, "open", spy(os.open))
    monkeypatch.setattr(builtins, "open", spy(builtins.open))
    for base in ("/etc/passwd", "../outside/secret.cards", "out_link.cards", ".env", "env_link.cards"):
        report = check_files([str(variant(secret_tree, base))])
        assert report.errors == 1, report.diagnostics
    targets = {os.path.realpath(p) for p in ("/etc/passwd", secret_tree / ".env",
                                             secret_tree.parent / "outside" / "secret.cards")}
    assert opened and not targets & set(opened), opened  # the variants themselves were read


@pytest.mark.parametrize("make, words", [
    (lambda d: (d / "folder.cards").mkdir(), "is a folder, not a rule file"),
    (lambda d: os.mkfifo(d / "folder.cards"), "is a named pipe (FIFO), not a rule file"),
    (lambda d: os.symlink("folder.cards", d / "folder.cards"), "leads back to itself, in a loop"),
    (lambda d: os.symlink("/dev/zero", d / "folder.cards"), "outside the root"),
    (lambda d: None, "does not exist"),
], ids=["folder", "fifo", "symlink-loop", "device", "missing"])
def test_a_base_that_is_not_a_regular_file_is_named_for_what_it_is(tmp_path, make, words):
    make(tmp_path)
    result = cardlang_cli("check", variant(tmp_path, "folder.cards"))
    assert_refused(result, "variant.cards")
    assert words in result.stdout


def test_the_root_is_widened_by_the_option_the_environment_and_the_settings_files(tmp_path):
    write(tmp_path, "shared/base.cards", HEADER + "round:\n    end game\n")
    path = variant(tmp_path / "rules", "../shared/base.cards")
    assert_refused(cardlang_cli("check", path), "variant.cards", ["E007"])
    assert cardlang_cli("check", "--root", tmp_path, path).returncode == 0
    assert cardlang_cli("check", path, env={"CARDLANG_ROOT": str(tmp_path)}).returncode == 0
    assert cardlang_cli("play", "--bots-only", "--seed", "1", "--root", tmp_path, path).returncode == 0
    assert cardlang_cli("simulate", "-n", "2", "--jobs", "1", "--root", tmp_path, path).returncode == 0
    assert_refused(cardlang_cli("play", "--bots-only", "--seed", "1", path), "variant.cards", ["E007"])
    with pytest.raises(CardlangError, match="leaves the root"):
        cardlang.load(str(path))
    assert cardlang.load(str(path), root=str(tmp_path)).players == 2
    assert cardlang.check_file(str(path), root=str(tmp_path))[0] is not None
    (tmp_path / "cardlang.toml").write_text('root = "."\n')
    assert cardlang_cli("check", path).returncode == 0
    (tmp_path / "cardlang.toml").unlink()
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n\n[tool.cardlang]\nroot = "."\n')
    assert cardlang_cli("check", path).returncode == 0
    assert cardlang.load(str(path)).players == 2


@pytest.mark.parametrize("setting", ['root = ".."', 'root = "/"', 'root = "../.."'])
def test_a_settings_file_cannot_widen_the_root_above_its_own_folder(tmp_path, setting):
    """A pull request can add a settings file; only the command line may reach further."""
    write(tmp_path, "base.cards", HEADER + "round:\n    end game\n")
    project = tmp_path / "project"
    write(project, "cardlang.toml", setting + "\n")
    path = variant(project, "../base.cards")
    result = cardlang_cli("check", path)
    assert_refused(result, "cardlang.toml", ["E007"])
    assert "leaves the folder of this file" in result.stdout


def test_a_broken_settings_file_is_one_line(tmp_path):
    write(tmp_path, "cardlang.toml", "root = [unclosed\n")
    write(tmp_path, "base.cards", HEADER + "round:\n    end game\n")
    assert_refused(cardlang_cli("check", variant(tmp_path, "base.cards")), "cardlang.toml", ["E005"])


def test_the_repository_s_examples_reach_games_through_pyproject():
    result = cardlang_cli("check", "-q", "games/", "examples/", cwd=ROOT)
    assert result.returncode == 0, result.stdout


# ------------------------------------------------------------------ what is read
def test_a_file_over_the_size_limit_is_refused_from_its_size(tmp_path):
    big = tmp_path / "big.cards"
    game = (ROOT / "games" / "coucou.cards").read_text(encoding="utf-8")
    big.write_text(game + ("# " + "x" * 97 + "\n") * 117_000)  # 11.7 MB
    assert big.stat().st_size > MAX_FILE_BYTES
    result = cardlang_cli("check", big)
    assert_refused(result, "big.cards", ["E005"])
    assert result.returncode == 2 and "MiB" in result.stdout
    assert_refused(cardlang_cli("check", variant(tmp_path, "big.cards")), "big.cards", ["E005"])
    assert_refused(cardlang_cli("play", "--bots-only", big), "big.cards", ["E005"])


def test_dev_zero_is_answered_at_once_in_one_line():
    result = cardlang_cli("check", "--format", "github", "/dev/zero")
    assert_refused(result, "/dev/zero", ["E005"])
    assert result.returncode == 2
    assert len(result.stdout.splitlines()) == 1
    assert "character device" in result.stdout


def test_a_fifo_is_never_opened(tmp_path):
    os.mkfifo(tmp_path / "pipe.cards")
    result = cardlang_cli("check", tmp_path / "pipe.cards")
    assert_refused(result, "pipe.cards", ["E005"])
    assert "named pipe" in result.stdout
    assert_refused(cardlang_cli("play", "--bots-only", tmp_path / "pipe.cards"), "pipe.cards")


def test_a_folder_skips_links_out_of_it_and_files_that_are_not_regular(tmp_path):
    rules = tmp_path / "rules"
    write(rules, "good.cards", HEADER + "round:\n    set x = 1\n    end game\n")
    os.symlink("/dev/zero", rules / "zero.cards")
    os.mkfifo(rules / "pipe.cards")
    write(tmp_path, "outside/secret.cards", SECRET + "\n")
    os.symlink(tmp_path / "outside" / "secret.cards", rules / "secret.cards")
    os.symlink("loop.cards", rules / "loop.cards")
    os.symlink(tmp_path / "outside", rules / "linked_folder")  # not followed
    for fmt in FORMATS:
        result = cardlang_cli("check", "--format", fmt, rules)
        out = result.stdout + result.stderr
        assert_refused(result, "zero.cards")
        for name in ("pipe.cards", "secret.cards", "loop.cards"):
            assert name in out
        assert "hunter2" not in out
    text = cardlang_cli("check", rules).stdout
    assert "rules/good.cards: ok" in text.replace(str(tmp_path) + "/", "")
    lines = [line for line in text.splitlines() if "skipped" in line]
    assert len(lines) == 4, text  # one line each
    assert "zero.cards:1:1: error[E007]: skipped: a symbolic link to a file outside the folder checked" in text
    assert "pipe.cards:1:1: error[E005]: skipped: this is a named pipe (FIFO), not a rule file" in text


def test_messages_quote_only_rule_files_that_were_read(secret_tree):
    """The text output quotes the variant's own line, never a line of what it names."""
    write(secret_tree, "base.cards", HEADER + "round:\n    end gme\n")  # a rule file inside the root: quoted
    result = cardlang_cli("check", variant(secret_tree, "base.cards"), variant(secret_tree, ".env", "v2.cards"))
    assert "    end gme" in result.stdout
    assert 'extends ".env"' in result.stdout
    assert "hunter2" not in result.stdout


# ------------------------------------------------------------------ limits
def nested_ifs(n: int) -> str:
    return HEADER + "round:\n" + "".join("    " * (i + 1) + "if x == 0:\n" for i in range(n)) \
        + "    " * (n + 1) + "set x = 1\n    end game\n"


def test_nested_blocks_up_to_the_limit_check_compile_and_play(tmp_path):
    for n in (49, MAX_BLOCK_DEPTH):
        path = write(tmp_path, f"ifs{n}.cards", nested_ifs(n))
        result = cardlang_cli("check", path)
        assert result.returncode == 0, result.stdout
        assert cardlang_cli("play", "--bots-only", "--seed", "1", path).returncode == 0
    path = write(tmp_path, "too_deep.cards", nested_ifs(MAX_BLOCK_DEPTH + 1))
    result = cardlang_cli("check", path)
    assert_refused(result, "too_deep.cards", ["E006"])
    assert f"too_deep.cards:{6 + MAX_BLOCK_DEPTH + 1}:" in result.stdout  # the if whose block is too many
    assert f"blocks nest more than {MAX_BLOCK_DEPTH} deep here" in result.stdout


def expression(kind: str, depth: int) -> str:
    """An expression of one kind nested exactly `depth` levels deep, as E006 counts them."""
    return {
        "sum": "+".join(["1"] * (depth + 1)),
        "not": "0 if " + "not " * (depth - 1) + "true else 1",
        "and": "0 if " + " and ".join(["true"] * depth) + " else 1",
        "lists": "count(" + "[" * (depth - 1) + "1" + "]" * (depth - 1) + ")",
        "negation": "-" * depth + "1",
        "conditional": "1 if x == 0 else " * (depth - 1) + "2",
    }[kind]


@pytest.mark.parametrize("kind", ["sum", "not", "and", "lists", "negation", "conditional"])
def test_the_deepest_file_the_limits_allow_is_checked_compiled_and_played(tmp_path, kind):
    """Each kind of expression at the limit, inside blocks at the limit: no stage runs out of stack
    (this runs under pytest's own stack, deeper than the command's); one level more is E006."""
    source = nested_ifs(MAX_BLOCK_DEPTH).replace("set x = 1\n", f"set x = {expression(kind, MAX_EXPRESSION_DEPTH)}\n")
    path = write(tmp_path, f"{kind}.cards", source)
    report = check_files([str(path)])
    assert report.errors == 0, report.diagnostics
    state = cardlang.load(str(path)).new_initial_state(seed=1)
    while not state.is_terminal():
        state.apply(state.legal_action_ids()[0])
    deeper = nested_ifs(MAX_BLOCK_DEPTH).replace(
        "set x = 1\n", f"set x = {expression(kind, MAX_EXPRESSION_DEPTH + 1)}\n")
    report = check_files([str(write(tmp_path, f"{kind}_deeper.cards", deeper))])
    assert [d.code for d in report.diagnostics if d.is_error] == ["E006"]
    assert report.diagnostics[0].message.startswith(f"this expression nests more than {MAX_EXPRESSION_DEPTH} operators deep")


def flat_sum(terms: int) -> str:
    return HEADER + "round:\n    set x = " + "+".join(["1"] * terms) + "\n    end game\n"


def test_a_flat_sum_of_100_000_terms_gets_an_honest_message(tmp_path):
    """200 001 tokens: the parse stops at the token limit, after half the file."""
    path = write(tmp_path, "sum.cards", flat_sum(100_000))
    result = cardlang_cli("check", path)
    assert_refused(result, "sum.cards", ["E009"])
    limit = f"{MAX_TOKENS:,}".replace(",", " ")
    assert f"this file has more than {limit} words, numbers and symbols" in result.stdout
    for fmt in ("json", "sarif", "github"):
        assert_refused(cardlang_cli("check", "--format", fmt, path), "sum.cards", ["E009"])
    assert_refused(cardlang_cli("play", "--bots-only", path), "sum.cards", ["E009"])


def test_a_long_row_of_one_operator_is_named_as_such(tmp_path):
    path = write(tmp_path, "sum.cards", flat_sum(10_000))
    result = cardlang_cli("check", path)
    assert_refused(result, "sum.cards", ["E006"])
    assert "this expression nests more than 100 operators deep: it is a row of 9999 operators" in result.stdout
    assert check_files([str(write(tmp_path, "fine.cards", flat_sum(MAX_EXPRESSION_DEPTH + 1)))]).errors == 0


def test_players_1_to_100000_is_refused_and_e040_names_the_smallest_count_that_fails(tmp_path):
    path = write(tmp_path, "crowd.cards", HEADER.replace("players 2", "players 1..100000") + "round:\n    end game\n")
    result = cardlang_cli("check", path)
    assert_refused(result, "crowd.cards", ["E029"])
    assert f"a game has at most {MAX_PLAYERS} players, not 100000" in result.stdout
    assert_refused(cardlang_cli("play", "--bots-only", path), "crowd.cards", ["E029"])
    deal = HEADER.replace("players 2", f"players 1..{MAX_PLAYERS}").replace("var x = 0", "zone hand: per player, private")
    path = write(tmp_path, "deal.cards", deal + "round:\n    deal 1 from talon to hand(players)\n    end game\n")
    messages = [d.message for d in check_files([str(path)]).diagnostics if d.code == "E040"]
    assert messages == ["this `deal` takes 53 cards with 53 players, but the deck has 52"]


@pytest.mark.parametrize("text, code", [
    ("round:\n    set x = " + "9" * 5000 + "\n    end game\n", "E008"),
    ("round:\n    announce \"{" + "9" * 5000 + "}\"\n    end game\n", "E008"),
    ("round:\n    set x = 1000000000000000000\n    end game\n", "E008"),
], ids=["5000-digits", "in-a-text", "19-digits"])
def test_numbers_too_long_for_python_are_a_diagnostic(tmp_path, text, code):
    path = write(tmp_path, "number.cards", HEADER + text)
    assert_refused(cardlang_cli("check", path), "number.cards", [code])


def test_a_deck_of_a_hundred_million_jokers_is_refused_before_it_is_built(tmp_path):
    path = write(tmp_path, "jokers.cards", HEADER.replace("deck standard", "deck standard with 100000000 jokers")
                 + "round:\n    shuffle talon\n    end game\n")
    assert_refused(cardlang_cli("check", path), "jokers.cards", ["E020"])
    assert_refused(cardlang_cli("play", "--bots-only", path), "jokers.cards", ["E020"])


def test_the_corpus_of_hostile_files(tmp_path):
    """tests/hostile/: files a pull request could hold, each refused cleanly."""
    corpus = sorted(HOSTILE.glob("*.cards"))
    assert len(corpus) >= 5
    for path in corpus:
        result = cardlang_cli("check", path.relative_to(ROOT), cwd=ROOT)
        assert_refused(result, path.name)
        assert "root:x:" not in result.stdout


# ------------------------------------------------------------------ mutations
def byte_mutation(data: bytes, ops) -> bytes:
    out = bytearray(data)
    for kind, at, value, chunk in ops:
        i = at % (len(out) + 1)
        if kind == "flip" and out:
            out[i % len(out)] ^= 1 << (value % 8)
        elif kind == "set" and out:
            out[i % len(out)] = value % 256
        elif kind == "insert":
            out[i:i] = chunk
        elif kind == "delete":
            del out[i:i + value % 64]
        elif kind == "duplicate":
            out[i:i] = out[i:i + value % 200]
        else:  # truncate
            del out[i:]
    return bytes(out)


BYTE_OPS = st.lists(st.tuples(
    st.sampled_from(["flip", "set", "insert", "delete", "duplicate", "truncate"]),
    st.integers(0, 20_000), st.integers(0, 1_000),
    st.one_of(st.binary(max_size=12), st.text(max_size=8).map(lambda t: t.encode("utf-8")),
              st.sampled_from([b"(" * 300, b"[" * 300, b"not " * 300, b"1+" * 500, b"9" * 5000, b"\t" * 50,
                               b'extends "/etc/passwd"\n', b'extends "../../x.cards"\n', b"players 1..100000\n"]))),
    min_size=1, max_size=6)


@pytest.fixture(scope="module")
def copied(tmp_path_factory):
    base = tmp_path_factory.mktemp("tree")
    for folder in ("games", "examples"):
        shutil.copytree(ROOT / folder, base / folder)
    (base / "cardlang.toml").write_text('root = "."\n')  # as the project's pyproject.toml
    return base


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(source=st.sampled_from(SOURCES), ops=BYTE_OPS)
def test_byte_mutations_of_every_game_never_break_the_checker(copied, source, ops):
    data = byte_mutation(source.read_bytes(), ops)
    path = copied / source.parent.name / "mutated.cards"
    path.write_bytes(data)
    report = check_files([str(path)])  # raises nothing
    for d in report.diagnostics:
        assert d.code in CODES and d.code != "E900", d
    from cardlang.lang.report import RENDERERS, render_text

    render_text(report)
    for render in RENDERERS.values():
        render(report)


def test_every_hostile_fixture_is_a_regular_small_file():
    for path in HOSTILE.iterdir():
        assert stat.S_ISREG(path.lstat().st_mode) and path.stat().st_size < 10_000, path
