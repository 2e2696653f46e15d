"""Rule errors at run time, and games that would never end.

A corpus of hostile rule files that pass `cardlang check` but fail while they run
(`tests/hostile_runtime/`, each naming the error it must give and the line it comes from) is run
through `play --bots-only`, `simulate` with one process and with two, and `replay` of the game
`play` saved: each must end with status 1 and one line `FILE:LINE:COL: rule error: message (seed
S, move M)`, never a traceback, within a CPU-time and memory cap (the subprocesses run under
RLIMIT_CPU and RLIMIT_AS). Then the caps on decisions and rounds, the `limit` declaration, and
worker processes that must not outlive a `simulate` however it was killed.
"""

import json
import os
import re
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import cardlang
from cardlang import RuleError
from cardlang.load import check_file
from cardlang.runtime import engine

HOSTILE = Path(__file__).resolve().parent / "hostile_runtime"
CORPUS = sorted(HOSTILE.glob("*.cards"))
CPU_SECONDS = 5  # per process: what "under 5 s" means on a machine shared with other work
MEMORY = 300 * 2**20  # address space per process


def header(path: Path, key: str) -> str:
    """The value of a `# key: value` line at the top of a corpus file ('' without one)."""
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            break
        if line.startswith(f"# {key}: "):
            return line.split(": ", 1)[1]
    return ""


def expected_lines(path: Path) -> set:
    """The lines the error may name: for each `|`-separated text of `# at:`, the first line after the
    header holding it (a runaway log is met at its announcement with a log, at its loop without)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return {next(i for i, line in enumerate(lines, 1) if not line.startswith("#") and fragment in line)
            for fragment in header(path, "at").split("|")}


def settings(path: Path) -> list:
    extra = header(path, "run with")
    return extra.split() if extra else []


def _caps():  # pragma: no cover - runs in the child, between fork and exec
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS))


def cardlang_cli(args, cwd, timeout=120):
    """`cardlang ARGS…` in a subprocess under the CPU and memory caps (they hold in its workers too)."""
    env = dict(os.environ, MALLOC_ARENA_MAX="2", COLUMNS="100")  # threads' malloc arenas reserve no 64 MB each
    return subprocess.run([sys.executable, "-m", "cardlang.cli", *map(str, args)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=timeout, preexec_fn=_caps)


def rule_error_line(result, path: Path) -> re.Match:
    """Checks a command ended on one rule error line for `path`; the line's parts."""
    assert result.returncode == 1, (result.returncode, result.stdout[-2000:], result.stderr[-2000:])
    assert "Traceback" not in result.stdout + result.stderr, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    pattern = (re.escape(str(path)) + r":(?P<line>\d+):(?P<col>\d+): rule error: (?P<message>.*(?:"
               + "|".join(map(re.escape, header(path, "rule error").split("|"))) + r").*) \(seed (?P<seed>\d+), move (?P<move>\d+)"
               r"(?:, met by a bot playing ahead)?(?:; saved in (?P<saved>.+))?\)")
    match = re.fullmatch(pattern, lines[0])
    assert match, lines[0]
    assert int(match["line"]) in expected_lines(path)
    text = path.read_text(encoding="utf-8").splitlines()[int(match["line"]) - 1]
    assert 1 <= int(match["col"]) <= len(text)
    return match


def test_the_corpus_is_there_and_checks_clean():
    assert len(CORPUS) >= 8
    for path in CORPUS:
        assert header(path, "rule error") and header(path, "at"), path
        symbols, diagnostics = check_file(str(path))
        assert symbols is not None and diagnostics == [], path  # the checker passes it: the error is the run's


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_play_bots_only_then_replay_end_on_the_rule_error_line(path, tmp_path):
    result = cardlang_cli(["play", path, "--bots-only", "--seed", "1", *settings(path)], tmp_path)
    match = rule_error_line(result, path)
    assert match["seed"] == "1"
    save = tmp_path / match["saved"]  # play saved the game first, and said where
    assert save.is_file()
    again = cardlang_cli(["replay", save], tmp_path)
    replayed = rule_error_line(again, path)
    assert replayed["saved"] is None
    for part in ("line", "col", "message", "seed", "move"):
        assert replayed[part] == match[part] or "log passed" in match["message"] + replayed["message"]
    resumed = cardlang_cli(["play", "--resume", save], tmp_path)
    assert rule_error_line(resumed, path)["move"] == match["move"]


@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_simulate_names_the_failing_games_seed(path, jobs, tmp_path):
    result = cardlang_cli(["simulate", path, "-n", "3", "--seed", "5", "--jobs", jobs, *settings(path)], tmp_path)
    match = rule_error_line(result, path)
    assert match["saved"] is None
    if jobs == 1:
        assert match["seed"] == "5"  # games run in seed order: the first fails first
    else:
        assert match["seed"] in ("5", "6", "7")
    # `simulate -n 1 --seed S` plays that very game again, with the same bots: the same error
    alone = cardlang_cli(["simulate", path, "-n", "1", "--seed", match["seed"], "--jobs", "1", *settings(path)],
                         tmp_path)
    assert rule_error_line(alone, path)["move"] == match["move"]


def test_a_rule_error_at_the_table_saves_the_game_and_names_the_move(tmp_path):
    path = HOSTILE / "division_by_zero.cards"
    result = subprocess.run([sys.executable, "-m", "cardlang.cli", "play", str(path), "--seed", "2",
                             "--save", "t.json"], cwd=tmp_path, input="1\n" * 10, capture_output=True, text=True,
                            timeout=120, preexec_fn=_caps)
    match = rule_error_line(result, path)
    assert match["saved"] == "t.json" and match["move"] == "2"
    data = json.loads((tmp_path / "t.json").read_text(encoding="utf-8"))
    assert data["labels"][0] == "a" and len(data["actions"]) == 2  # the person's move, then the bot's


# ------------------------------------------------------------------ caps in the engine
ENDLESS = '''game "Endless"
players 2..2
deck standard
{limit}var x = 0

round:
    while x >= 0:
        for each p in players:
            p chooses:
                "a":
                    add 1 to x
                "b":
                    add 2 to x
    end game
'''


def endless(tmp_path, limit="", name="endless.cards") -> str:
    path = tmp_path / name
    path.write_text(ENDLESS.format(limit=limit), encoding="utf-8")
    return str(path)


def play_to_the_error(state) -> RuleError:
    with pytest.raises(RuleError) as info:
        while True:
            ids = state.legal_action_ids()
            state.apply(ids[len(state.history) % len(ids)])
    return info.value


def test_a_game_that_never_ends_stops_at_the_default_cap_of_decisions(tmp_path):
    game = cardlang.load(endless(tmp_path))
    state = game.new_initial_state(seed=4)
    error = play_to_the_error(state)
    assert error.move == engine.MAX_DECISIONS == len(state.history)
    assert error.seed == 4 and error.line == 9 and error.file == endless(tmp_path)
    assert f"took {engine.MAX_DECISIONS:,} decisions without ending" in str(error)
    assert len(state.log) <= engine.MAX_EVENTS  # and its log stayed bounded


def test_limit_sets_the_caps_of_one_game(tmp_path):
    game = cardlang.load(endless(tmp_path, "limit 300 decisions, 1000 rounds\n"))
    assert (game.program.max_decisions, game.program.max_rounds) == (300, 1000)
    error = play_to_the_error(game.new_initial_state(seed=1))
    assert error.move == 300 and "took 300 decisions" in error.message
    # one decision a round: the rounds run out first
    rounds = (tmp_path / "rounds.cards")
    rounds.write_text('game "R"\nplayers 2..2\ndeck standard\nlimit 50 rounds\nvar x = 0\n\nround:\n'
                      '    top of players chooses:\n        "a":\n            add 1 to x\n'
                      '    if x < 0:\n        end game\n', encoding="utf-8")
    error = play_to_the_error(cardlang.load(str(rounds)).new_initial_state())
    assert error.line == 7 and error.move == 50 and "played 50 rounds without ending" in error.message


def test_the_decision_cap_is_met_again_by_a_replay_of_the_moves(tmp_path):
    game = cardlang.load(endless(tmp_path, "limit 40 decisions\n"))
    state = game.new_initial_state(seed=2)
    first = play_to_the_error(state)
    with pytest.raises(RuleError) as again:
        cardlang.State.from_json(game, state.to_json())
    assert str(again.value) == str(first)


@pytest.mark.parametrize("line, message", [
    ("limit 500 turns", "a `limit` caps `decisions` or `rounds`, not `turns`"),
    ("limit 5 decisions, 6 decisions", "`decisions` is limited twice"),
    ("limit 0 rounds", "a game may be limited to 1 to 1,000,000 rounds, not 0"),
    ("limit 2000000 decisions", "a game may be limited to 1 to 1,000,000 decisions, not 2,000,000"),
])
def test_a_bad_limit_is_e030(tmp_path, line, message):
    path = endless(tmp_path, line + "\n")
    with pytest.raises(cardlang.CardlangError) as info:
        cardlang.load(path)
    assert [(d.code, d.message) for d in info.value.diagnostics] == [("E030", message)]


def test_a_variant_changes_the_limit_of_its_base(tmp_path):
    endless(tmp_path, "limit 100 decisions\n", "base.cards")
    (tmp_path / "variant.cards").write_text('extends "base.cards"\nlimit 60 decisions\n', encoding="utf-8")
    assert cardlang.load(str(tmp_path / "variant.cards")).program.max_decisions == 60


def test_a_log_that_runs_away_stops_before_the_memory_does(tmp_path):
    game = cardlang.load(str(HOSTILE / "runaway_log.cards"))
    state = game.new_initial_state(seed=0)
    with pytest.raises(RuleError, match="log passed") as info:
        state.apply(state.legal_action_ids()[0])
    assert len(state.log) <= engine.MAX_EVENTS + 1 and info.value.line == 12


def test_a_rule_error_pickles_with_its_fields_and_without_its_state(tmp_path):
    import pickle

    with pytest.raises(RuleError) as info:
        cardlang.load(str(HOSTILE / "huge_option.cards"), options={"n": 10**8}).new_initial_state(seed=3)
    assert info.value.state is not None  # what `play` saves
    back = pickle.loads(pickle.dumps(info.value))
    assert (back.file, back.line, back.col, back.seed, back.move, back.state) == \
        (info.value.file, info.value.line, info.value.col, 3, 0, None)
    assert str(back) == str(info.value)


@pytest.mark.parametrize("value, message", [
    ("1" + "0" * 12, "must be from -1,000,000,000 to 1,000,000,000, not 1000000000000"),
    ("9" * 5000, "is a whole number, not `" + "9" * 40 + "…`"),
    ("0", "must be from 1 to 100000000, not 0"),
])
def test_absurd_option_values_are_one_line_errors_before_the_game_starts(value, message, tmp_path):
    result = cardlang_cli(["play", HOSTILE / "huge_option.cards", "--bots-only", "--set", f"n={value}"], tmp_path)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert result.stderr.strip().splitlines() == [f"error: option `n` {message}"]
    assert not list(tmp_path.iterdir())  # nothing saved: no game began


# ------------------------------------------------------------------ workers and their parent
def processes() -> dict:
    """pid -> (parent pid, process group, state, command line) of every process /proc shows."""
    out = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmdline = f.read().replace(b"\0", b" ").decode(errors="replace")
        except OSError:  # gone meanwhile
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        out[int(entry)] = (int(fields[1]), int(fields[2]), fields[0], cmdline)
    return out


def alive_in_group(group: int) -> list:
    return [pid for pid, (_, pgrp, state, _) in processes().items() if pgrp == group and state != "Z"]


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="looks for processes in /proc")
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM, signal.SIGINT], ids=lambda s: s.name)
def test_no_worker_outlives_a_simulation_killed_while_it_runs(sig, tmp_path):
    path = endless(tmp_path, "limit 1000000 decisions, 1000000 rounds\n")  # each game takes long
    log = open(tmp_path / "out.txt", "w")
    parent = subprocess.Popen([sys.executable, "-m", "cardlang.cli", "simulate", path, "-n", "1000", "--jobs", "2"],
                              stdout=log, stderr=log, start_new_session=True, env=dict(os.environ, MALLOC_ARENA_MAX="2"))
    try:
        deadline = time.monotonic() + 90
        workers: list = []
        while len(workers) < 2:  # both workers started and busy with their first batch
            assert time.monotonic() < deadline and parent.poll() is None, (tmp_path / "out.txt").read_text()
            time.sleep(0.2)
            workers = [pid for pid, (ppid, _, _, cmd) in processes().items()
                       if ppid == parent.pid and "spawn_main" in cmd]
        time.sleep(1.0)
        os.kill(parent.pid, sig)
        parent.wait(timeout=30)
        deadline = time.monotonic() + 5  # the workers' watchdogs look every PARENT_POLL seconds
        while alive_in_group(parent.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert alive_in_group(parent.pid) == [], processes()
        if sig == signal.SIGINT:  # Ctrl-C: the parent stops its workers and reports what finished
            assert parent.returncode == 130
    finally:
        log.close()
        for pid in alive_in_group(parent.pid):  # never leave a process behind, even when failing
            os.kill(pid, signal.SIGKILL)


def test_a_rule_error_while_the_game_loads_is_one_line_too(tmp_path):
    rules = tmp_path / "deck.cards"
    rules.write_text('game "D"\nplayers 2..4\ndeck piquet if 10 / (player_count - 2) > 1 else standard\n\n'
                     'round:\n    top of players chooses:\n        "go":\n            end game\n', encoding="utf-8")
    for args in (["play", rules, "--bots-only"], ["simulate", rules, "-n", "2", "--jobs", "2"], ["play", rules]):
        result = cardlang_cli(args, tmp_path)
        assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
        # before any game: no seed, no move, nothing saved
        assert result.stderr.strip().splitlines() == [f"{rules}:3:16: rule error: division by zero"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deck.cards"]
