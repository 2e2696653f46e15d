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
        # (in the temporary folder: a game the closing pane hangs up on is saved there, not in the checkout)
        self.run("new-session", "-d", "-c", str(tmp_path), "-x", str(width), "-y", str(height), command, env=env)

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
    # (seed 10: SplitMix64 deals P3 the dealer's three cards, as seed 3 did with the Mersenne Twister)
    command = (f"{sys.executable} -m cardlang.cli play {path('games/coucou.cards')} --hotseat --seed 10 "
               "--speed 0; sleep 60")
    t = tmux(command)
    t.wait_for("press Enter when only you can see the screen")
    t.keys("", "Enter")
    screen = t.wait_for("Your turn, P3.")
    assert "your hand  [J♦] [Q♥] [10♠]" in screen  # P3 sees his own hand...
    t.keys("1", "Enter")
    history = t.wait_for("P2, press Enter when only you can see the screen")
    assert "Pass the terminal to P2" in history  # ...then the screen that hands the terminal over,
    assert "your hand" not in history and "J♦" not in history and "keep" not in history  # and nothing of his


def test_hot_seat_hand_over_erases_screen_and_scrollback_before_asking_for_the_next_person(tmp_path):
    child = spawn([path("games/coucou.cards"), "--hotseat", "--seed", "10", "--speed", "0"], cwd=tmp_path)
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


ANSI = __import__("re").compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def plain_lines(text: str) -> list:
    """The lines a terminal shows of raw output: escapes and carriage returns left out."""
    return [line.rstrip() for line in ANSI.sub("", text).replace("\r", "").split("\n")]


def test_in_a_terminal_q_leaves_a_game_with_queens(tmp_path):
    # Ascenseur is played with the standard deck: Q is a rank of it
    child = spawn([path("games/ascenseur.cards"), "--players", "3", "--seed", "3", "--speed", "0"], cwd=tmp_path)
    child.expect("P0 > ")
    assert "q quit" in child.before
    child.sendline("q")
    child.expect("Leaving the game.")
    child.expect("File name")
    child.sendline("n")
    assert close(child) == 0


def test_in_a_terminal_the_help_is_wrapped_to_its_width(tmp_path):
    child = spawn([path("games/ascenseur.cards"), "--players", "3", "--seed", "3", "--speed", "0"], cwd=tmp_path,
                  columns=60)
    child.expect("P0 > ")
    child.sendline("?")
    child.expect("P0 > ")
    help_text = child.before
    lines = plain_lines(help_text)
    assert any("q always leaves" in line for line in lines)
    words = [line for line in lines if line and not line.startswith("2 to 5 players")]  # (a file name: whole)
    assert max(len(line) for line in words) <= 60, max(words, key=len)
    # broken between words: every word of the help is whole on one line
    joined = " ".join(line.strip() for line in lines)
    assert "its label (the start of it is enough) or a card such as 10h." in joined
    child.sendline("quit")
    child.expect("File name")
    child.sendline("n")
    assert close(child) == 0


def test_in_a_terminal_auto_single_plays_lone_moves_and_says_so(tmp_path):
    child = spawn([path("examples/follow_suit.cards"), "--seed", "3", "--speed", "0", "--auto-single"], cwd=tmp_path)
    said = 0
    while True:
        i = child.expect(["P0 > ", "single legal move, played without asking", "The game is over"])
        if i == 0:
            child.sendline("1")
        elif i == 1:
            said += 1
        else:
            break
    assert close(child) == 0
    assert said == 8  # (as test_play_table: this deal gives P0 eight turns with one legal card)


def test_in_a_terminal_the_choices_are_numbered_in_the_hand_s_order(tmp_path):
    from test_play_table import CARD, screens

    child = spawn([path("examples/knock_rummy.cards"), "--seed", "3", "--speed", "0"], cwd=tmp_path)
    seen = ""
    for _ in range(8):
        child.expect("P0 > ")
        seen += child.before + "P0 > \n"
        child.sendline("1")
    child.expect("P0 > ")
    child.sendline("q")
    child.expect("File name")
    child.sendline("n")
    assert close(child) == 0
    turns = list(screens("\n".join(plain_lines(seen))))
    assert len(turns) == 8 and any(len(choices) > 5 for _, choices in turns)
    for hand, choices in turns:
        cards = [m.group(0) for m in map(CARD.search, choices) if m and m.group(0) in hand]
        assert cards == [c for c in hand if c in cards], (hand, choices)


def test_in_a_terminal_the_events_name_zones_as_words(tmp_path):
    child = spawn([path("games/coucou.cards"), "--seed", "2", "--speed", "0"], cwd=tmp_path)
    child.expect("P0 > ")
    events = "\n".join(plain_lines(child.before))
    assert "dealt 1 card each from talon to" in events and "'s hand" in events
    assert "hand(P" not in events
    child.sendline("q")
    child.expect("File name")
    child.sendline("n")
    assert close(child) == 0


def test_in_a_terminal_the_card_drawn_is_named_in_the_events(tmp_path):
    child = spawn([path("examples/knock_rummy.cards"), "--seed", "3", "--speed", "0"], cwd=tmp_path)
    child.expect("P0 > ")
    child.sendline("1")  # draw from the stock
    child.expect("P0 > ")
    events = plain_lines(child.before)
    i = next(k for k, line in enumerate(events) if line.strip() == "P0 chooses draw from the stock")
    assert events[i + 1].strip().startswith("P0's hand gets "), events[i:i + 2]
    child.sendline("q")
    child.expect("File name")
    child.sendline("n")
    assert close(child) == 0


def test_in_a_terminal_a_bid_not_made_is_a_dash(tmp_path):
    from test_play_table import ROW

    # (seed 4: with SplitMix64 P2 bids before P0's first turn, as seed 3 had with the Mersenne Twister)
    child = spawn([path("games/ascenseur.cards"), "--players", "3", "--seed", "4", "--speed", "0"], cwd=tmp_path)
    child.expect("P0 > ")
    rows = {m.group(1): (m.group(2), m.group(3)) for m in ROW.finditer("\n".join(plain_lines(child.before)))}
    assert rows["P0"][1] == "—" and rows["P1"][1] == "—" and rows["P2"][1] == "10", rows  # only P2 has bid
    assert not any("leader" in tags for tags, _ in rows.values())
    child.sendline("q")
    child.expect("File name")
    child.sendline("n")
    assert close(child) == 0
