"""The table as a newcomer sees it, in a real terminal: pexpect in a pseudo-terminal, and tmux where
what matters is what the terminal keeps (its scrollback). See tests/test_play_table.py for the
same behaviours through CliRunner.
"""

import os
import shutil
import subprocess
import sys
import time

import pytest

from scenario import ROOT, path

pexpect = pytest.importorskip("pexpect")

ENV = dict(os.environ, TERM="xterm-256color", COLUMNS="100", LINES="50")
ENV.pop("NO_COLOR", None)


def spawn(args, cwd=ROOT, columns=100):
    env = dict(ENV, COLUMNS=str(columns))
    child = pexpect.spawn(sys.executable, ["-m", "cardlang.cli", "play"] + args, cwd=str(cwd), env=env,
                          encoding="utf-8", dimensions=(50, columns), timeout=60)
    child.delaybeforesend = None
    return child


def close(child):
    child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus


# ------------------------------------------------------------------ tmux: what the terminal keeps
class Tmux:
    """A tmux server of its own (its socket in a temporary folder) running one command in one pane."""

    def __init__(self, tmp_path, command: str, width=100, height=30):
        self.socket = str(tmp_path / "tmux.sock")
        env = dict(ENV, PYTHONPATH=os.pathsep.join([str(ROOT)] + sys.path[1:]))
        self.run("new-session", "-d", "-x", str(width), "-y", str(height), command, env=env)

    def run(self, *args, env=None):
        return subprocess.run(["tmux", "-S", self.socket, *args], check=True, capture_output=True, text=True,
                              env=env or ENV, timeout=30)

    def history(self) -> str:
        """The pane's scrollback and screen, as text."""
        return self.run("capture-pane", "-p", "-S", "-", "-E", "-").stdout

    def wait_for(self, text: str, timeout=30.0) -> str:
        end = time.monotonic() + timeout
        while True:
            screen = self.history()
            if text in screen:
                return screen
            if time.monotonic() > end:
                raise AssertionError(f"{text!r} never shown:\n{screen}")
            time.sleep(0.2)

    def keys(self, *keys):
        self.run("send-keys", *keys)

    def kill(self):
        subprocess.run(["tmux", "-S", self.socket, "kill-server"], capture_output=True, timeout=30)


@pytest.fixture
def tmux(tmp_path):
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed")
    made = []

    def start(command, **kw):
        made.append(Tmux(tmp_path, command, **kw))
        return made[-1]

    yield start
    for t in made:
        t.kill()


def test_hot_seat_leaves_no_hand_in_the_scrollback(tmux):
    # issue 26, finding 6: the screen was cleared between two people, its scrollback was not
    command = (f"{sys.executable} -m cardlang.cli play {path('games/coucou.cards')} --hotseat --seed 3 "
               "--speed 0; sleep 60")
    t = tmux(command)
    t.wait_for("press Enter when only you can see the screen")
    t.keys("", "Enter")
    screen = t.wait_for("Your turn, P3.")
    assert "your hand  [A♣] [7♥] [7♠]" in screen  # P3 sees his own hand...
    t.keys("1", "Enter")
    history = t.wait_for("P2, press Enter when only you can see the screen")
    assert "Pass the terminal to P2" in history  # ...then the screen that hands the terminal over,
    assert "your hand" not in history and "A♣" not in history and "keep" not in history  # and nothing of his


def test_hot_seat_hand_over_erases_screen_and_scrollback_before_asking_for_the_next_person():
    child = spawn([path("games/coucou.cards"), "--hotseat", "--seed", "3", "--speed", "0"])
    child.expect("P3, press Enter")
    child.sendline("")
    child.expect("P3 > ")
    child.sendline("1")
    child.expect("Pass the terminal to P2")
    assert child.before.endswith("\x1b[2J\x1b[3J\x1b[H") or "\x1b[2J\x1b[3J\x1b[H" in child.before[-40:]
    child.expect("P2, press Enter")
    child.sendline("")
    child.expect("P2 > ")
    child.sendline("quit")
    child.expect("File name")
    child.sendline("n")
    assert close(child) == 0
