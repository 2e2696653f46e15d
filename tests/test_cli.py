"""The command line through click's CliRunner: check, play (scripted input), simulate."""

import json

import pytest

from click.testing import CliRunner

from cardlang.cli import main
from scenario import path

COUCOU = path("games/coucou.cards")


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


def test_check_valid_file_exits_0():
    result = run("check", COUCOU)
    assert result.exit_code == 0, result.output


def test_check_broken_file_exits_1_with_position_and_help(tmp_path):
    bad = tmp_path / "bad.cards"
    bad.write_text(COUCOU_TEXT().replace("move all cards to talon", "move all cards to talom"))
    result = run("check", str(bad))
    assert result.exit_code == 1
    assert f"{bad}:" in result.output and "error[E010]" in result.output
    assert "did you mean `talon`?" in result.output


def test_check_missing_file_is_a_usage_error():
    result = run("check", "no/such/file.cards")
    assert result.exit_code == 2


def test_simulate_json_has_the_documented_shape():
    result = run("simulate", COUCOU, "-n", "20", "--players", "6", "--seed", "3", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["game"] == "Coucou" and data["players"] == 6 and data["games"] == 20
    assert [s["seat"] for s in data["seats"]] == list(range(6))
    assert sum(s["wins"] for s in data["seats"]) >= 20  # a shared win counts for every winner
    assert all(abs(s["win_rate"] - s["wins"] / 20) < 1e-9 for s in data["seats"])
    assert data["mean_decisions"] > 0 and data["games_per_second"] > 0


def test_simulate_is_reproducible():
    a = json.loads(run("simulate", COUCOU, "-n", "10", "--seed", "5", "--json").output)
    b = json.loads(run("simulate", COUCOU, "-n", "10", "--seed", "5", "--json").output)
    assert a["seats"] == b["seats"]


def test_bad_player_count_names_the_allowed_range():
    result = run("simulate", COUCOU, "-n", "1", "--players", "3")
    assert result.exit_code == 2
    assert "5 to 20 players" in result.output


def test_bad_option_value_names_the_allowed_range():
    result = run("play", COUCOU, "--bots-only", "--set", "tokens=99")
    assert result.exit_code == 2
    assert "from 1 to 20" in result.output


def test_play_bots_only_prints_a_transcript_to_the_end():
    result = run("play", COUCOU, "--bots-only", "--seed", "4", "--set", "tokens=1")
    assert result.exit_code == 0, result.output
    assert "talon is shuffled" in result.output and "winner" in result.output


def test_play_with_a_person_asks_again_after_bad_input_and_plays_to_the_end():
    # seat 0 answers "1" to everything; "zzz" and "99" are refused and asked again
    answers = "zzz\n99\n" + "1\n" * 400
    result = run("play", COUCOU, "--seed", "11", "--set", "tokens=1", input=answers)
    assert result.exit_code == 0, result.output
    assert "winner" in result.output
    assert "zzz" not in result.output.split("winner")[-1]


def COUCOU_TEXT():
    with open(COUCOU, encoding="utf-8") as f:
        return f.read()


# ------------------------------------------------------------------ every number has a bound (issue 27, item 8)
def _cli(*args, timeout=60):
    """`cardlang ARGS…` in a subprocess with a time limit: a missing bound hangs or ends in a traceback."""
    import os
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "cardlang.cli", *map(str, args)], capture_output=True, text=True,
                          timeout=timeout, stdin=subprocess.DEVNULL, env=dict(os.environ, NO_COLOR="1"))


HUGE = 10 ** 12


@pytest.mark.parametrize("args, option", [
    (("play", COUCOU, "--bots-only", "--speed", "nan"), "--speed"),
    (("play", COUCOU, "--bots-only", "--speed", "inf"), "--speed"),
    (("play", COUCOU, "--bots-only", "--speed", "1e400"), "--speed"),
    (("play", COUCOU, "--bots-only", "--speed", "61"), "--speed"),
    (("play", COUCOU, "--bots-only", "--seed", 2 ** 70), "--seed"),
    (("play", COUCOU, "--bots-only", "--seat", HUGE), "--seat"),
    (("play", COUCOU, "--bots-only", "--players", 10 ** 30), "--players"),
    (("simulate", COUCOU, "-n", HUGE), "'-n' / '--games'"),
    (("simulate", COUCOU, "-n", "2", "--jobs", HUGE), "--jobs"),
    (("simulate", COUCOU, "-n", "2", "--seed", -(2 ** 64)), "--seed"),
    (("compare", COUCOU, "-n", HUGE), "'-n' / '--games'"),
    (("compare", COUCOU, "-n", "2", "--max-games", HUGE), "--max-games"),
    (("compare", COUCOU, "-n", "2", "--cap", HUGE), "--cap"),
    (("sweep", COUCOU, "--set", "tokens=1..2", "--step", 10 ** 30), "--step"),
])
def test_a_number_out_of_its_range_is_one_usage_line(args, option):
    result = _cli(*args)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and errors[0].startswith(f"Error: Invalid value for {option if option.startswith(chr(39)) else repr(option)}"), result.stderr
    assert "not in the range" in errors[0] or "not a finite number" in errors[0], errors[0]


@pytest.mark.parametrize("bot", ["ismcts:1e400s", "ismcts:infs", "ismcts:nans", "greedy:61s", "ismcts:100001",
                                 "greedy:" + "9" * 5000])
def test_a_bot_budget_out_of_its_range_is_one_line(bot):
    for args in (("play", COUCOU, "--bots-only", "--bot", bot), ("simulate", COUCOU, "-n", "1", "--bots", bot)):
        result = _cli(*args)
        assert result.returncode == 2 and "Traceback" not in result.stderr, result.stderr
        assert "budget is a number" in result.stderr and "at most 60" in result.stderr, result.stderr
        assert len(result.stderr) < 400  # a budget of 5000 digits is not printed whole


def test_the_largest_numbers_in_range_are_taken():
    from cardlang.play.bots import MAX_ITERATIONS, MAX_SECONDS, make_bot

    assert make_bot(f"ismcts:{MAX_SECONDS:g}s").budget.seconds == MAX_SECONDS
    assert make_bot(f"greedy:{MAX_ITERATIONS}").budget.iterations == MAX_ITERATIONS
    result = run("play", COUCOU, "--bots-only", "--seed", str(2 ** 63 - 1), "--speed", "0", "--set", "tokens=1")
    assert result.exit_code == 0, result.output
