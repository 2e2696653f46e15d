"""`cardlang play` in a real pseudo-terminal (pexpect): colours, screen clearing, Ctrl-C, resume.

A person plays the first action at every turn, presses Ctrl-C after a few moves, resumes and plays
to the end; the game must end exactly as the same game played through without a break.
"""

import json
import re
import os
import sys
import time

import pytest
from click.testing import CliRunner

from cardlang.cli import main
from scenario import ROOT, path
from test_play import ALL_GAMES, ALWAYS_FIRST, PLAYERS, final_state, human_moves

pexpect = pytest.importorskip("pexpect")

PROMPT = r"P0 > "


def spawn(args, cwd=ROOT):
    env = dict(os.environ, TERM="xterm-256color", COLUMNS="100", LINES="50")
    env.pop("NO_COLOR", None)
    child = pexpect.spawn(sys.executable, ["-m", "cardlang.cli", "play"] + args, cwd=str(cwd), env=env,
                         encoding="utf-8", dimensions=(50, 100), timeout=60)
    child.delaybeforesend = None  # answer at once, as a script can
    return child


def answer_until_the_end(child, answer="1", limit=5000):
    """Answers every prompt until the game ends; returns the number of answers given."""
    n = 0
    while True:
        i = child.expect([PROMPT, "The game is over", pexpect.EOF])
        if i != 0:
            child.expect(pexpect.EOF)
            child.close()
            return n
        child.sendline(answer)
        n += 1
        assert n < limit


@pytest.mark.parametrize("game", ALL_GAMES)
def test_in_a_terminal_ctrl_c_then_resume_ends_like_the_game_played_through(game, tmp_path):
    save = tmp_path / "pty.json"
    args = [path(game), "--players", str(PLAYERS[game]), "--seed", "5", "--speed", "0", "--save", str(save)]
    child = spawn(args)
    # a terminal gets colours and a cleared screen
    child.expect(PROMPT)
    assert "\x1b[" in child.before
    assert "Your turn, P0." in child.before
    child.sendline("nonsense")
    child.expect("is not one of your choices")
    for _ in range(3):
        child.expect(PROMPT)
        child.sendline("1")
    child.expect(PROMPT)
    child.sendintr()
    child.expect("Interrupted.")
    child.expect("cardlang play --resume")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130  # the shell's status for Ctrl-C, although the game is saved
    with open(save) as f:
        data = json.load(f)
    assert not data["finished"] and data["actions"]

    child = spawn(["--resume", str(save), "--speed", "0"])
    child.expect("Resuming")
    answer_until_the_end(child)
    assert child.exitstatus == 0
    resumed, data = final_state(save)
    assert resumed.is_terminal()

    whole = tmp_path / "whole.json"
    result = CliRunner().invoke(main, ["play"] + args[:-1] + [str(whole)], input="".join(a + "\n" for a in ALWAYS_FIRST))
    assert result.exit_code == 0, result.output
    expected, expected_data = final_state(whole)
    assert data["actions"] == expected_data["actions"]
    assert resumed.scores() == expected.scores() and resumed.winners() == expected.winners()


def test_in_a_terminal_q_offers_to_save(tmp_path):
    child = spawn([path("games/coucou.cards"), "--seed", "2", "--speed", "0"])
    child.expect(PROMPT)
    child.sendline("?")
    child.expect("players; this game has 5")
    child.expect(PROMPT)
    child.sendline("quit")
    child.expect("File name")
    save = tmp_path / "offered.json"
    child.sendline(str(save))
    child.expect("cardlang play --resume")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert save.exists()


def test_a_closed_terminal_saves_the_game_to_resume_it(tmp_path):
    import signal

    child = spawn([path("games/coucou.cards"), "--seed", "4", "--speed", "0"], cwd=tmp_path)
    for _ in range(2):
        child.expect(PROMPT)
        child.sendline("2")
    child.expect(PROMPT)
    child.kill(signal.SIGHUP)
    child.expect(pexpect.EOF)
    child.close()
    # without --save, the game goes to the file `q` would have offered: named by the game and the
    # time, never by the seed (which deals every hand)
    saves = list(tmp_path.glob("coucou-*.save.json"))
    assert len(saves) == 1 and re.fullmatch(r"coucou-\d{8}-\d{6}\.save\.json", saves[0].name), saves
    save = saves[0]
    with open(save) as f:
        data = json.load(f)
    assert len(data["labels"]) == len(data["actions"]) and not data["finished"]
    assert human_moves(data) == 2
    resumed = CliRunner().invoke(main, ["play", "--resume", str(save)], input="quit\n")
    assert resumed.exit_code == 0 and f"{len(data['actions'])} moves played" in resumed.output


def test_in_a_terminal_ctrl_c_without_save_offers_to_save_and_exits_130(tmp_path):
    child = spawn([path("games/coucou.cards"), "--seed", "2", "--speed", "0"], cwd=tmp_path)
    child.expect(PROMPT)
    child.sendintr()
    child.expect("Interrupted.")
    child.expect("File name")
    child.sendline("offered.json")
    child.expect("cardlang play --resume")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130
    assert (tmp_path / "offered.json").is_file()


def test_in_a_terminal_ctrl_d_saves_the_game_and_says_where(tmp_path):
    child = spawn([path("games/coucou.cards"), "--seed", "4", "--speed", "0"], cwd=tmp_path)
    child.expect(PROMPT)
    child.sendline("1")
    child.expect(PROMPT)
    child.sendeof()
    child.expect("The input closed")
    child.expect(r"The game is saved in (coucou-\d{8}-\d{6}\.save\.json)")  # the date and time, not the seed
    name = child.match.group(1)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0 and "not saved" not in child.before
    with open(tmp_path / name) as f:
        assert human_moves(json.load(f)) == 1


def test_in_a_terminal_what_is_typed_while_the_bots_play_is_not_an_answer(tmp_path):
    save = tmp_path / "ahead.json"
    child = spawn([path("games/coucou.cards"), "--seed", "4", "--speed", "0.4", "--save", str(save)])
    child.expect(PROMPT)
    child.sendline("1")
    child.expect(r"P\d is playing")  # the bots' moves, shown one by one
    child.sendline("2")  # typed ahead, while no question is asked
    child.expect(PROMPT)
    time.sleep(1.0)  # had `2` been kept, it would have been played by now
    with open(save) as f:
        assert human_moves(json.load(f)) == 1
    child.sendline("1")
    child.expect([PROMPT, "The game is over"])
    with open(save) as f:
        assert human_moves(json.load(f)) == 2
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
