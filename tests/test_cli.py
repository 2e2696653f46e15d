"""The command line through click's CliRunner: check, play (scripted input), simulate."""

import json

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
