"""`cardlang play` at the terminal: scripted sessions through click's CliRunner.

Each session feeds answers as a person would type them: a full game to the end, bad input, `?`,
quitting and resuming (which must give the same final state as the uninterrupted game), a changed
rules file refusing to resume, and the one-line errors of bad arguments.
"""

import json
import os
import shutil

import pytest
from click.testing import CliRunner

import cardlang
from cardlang.cli import main
from cardlang.cli.answers import match_answer
from cardlang.play.savegame import save_data, write_save
from scenario import path

GAMES = ["games/coucou.cards", "games/ascenseur.cards"]
PLAYERS = {"games/coucou.cards": 5, "games/ascenseur.cards": 5}  # 5 at Ascenseur: fewer deals played again
ALWAYS_FIRST = ["1"] * 3000  # more than a whole game needs; what is left over is never read


def game_param(relative):
    missing = not os.path.exists(path(relative))
    return pytest.param(relative, id=os.path.basename(relative),
                        marks=pytest.mark.skipif(missing, reason=f"{relative} is not in this checkout"))


ALL_GAMES = [game_param(g) for g in GAMES]


def play(args, answers=(), game="games/coucou.cards"):
    """Runs `cardlang play GAME ARGS…` with the answers typed one a line."""
    text = "".join(a + "\n" for a in answers)
    head = ["play", path(game)] if game else ["play"]
    return CliRunner().invoke(main, head + list(args), input=text)


def final_state(save_file):
    """The state a save file describes, its moves replayed."""
    with open(save_file) as f:
        data = json.load(f)
    g = cardlang.load(data["file_absolute"], players=data["players"], options=data["options"])
    return cardlang.State.from_json(g, data), data


def human_moves(data, seat=0):
    """How many of the saved moves the person at `seat` made."""
    g = cardlang.load(data["file_absolute"], players=data["players"], options=data["options"])
    state = g.new_initial_state(seed=data["seed"])
    n = 0
    for a in data["actions"]:
        n += state.current_player == seat
        state.apply(a)
    return n


@pytest.mark.parametrize("game", ALL_GAMES)
def test_a_whole_game_to_the_end(game, tmp_path):
    save = tmp_path / "game.json"
    result = play(["--players", str(PLAYERS[game]), "--seed", "5", "--save", str(save)], ALWAYS_FIRST, game)
    assert result.exit_code == 0, result.output
    state, data = final_state(save)
    assert state.is_terminal() and data["finished"]
    out = result.output
    assert "Your turn, P0." in out
    assert "  1. " in out  # the numbered list of actions
    winners = [f"P{w}" for w in state.winners()]
    if len(winners) == 1:
        assert f"The game is over: {winners[0]}" in out
    else:
        assert "The game is over: " + ", ".join(winners) in out
    assert f"cardlang replay {save}" in out  # the way to replay it
    assert data["winners"] == list(state.winners())
    assert len(data["labels"]) == len(data["actions"])


def test_without_a_save_the_end_tells_how_to_deal_the_same_game_again():
    result = play(["--seed", "5", "--set", "tokens=1", "--bot", "random"], ALWAYS_FIRST)
    assert result.exit_code == 0, result.output
    command = [line for line in result.output.splitlines() if line.startswith("Play the same deal again: ")]
    assert command == [f"Play the same deal again: cardlang play {path('games/coucou.cards')} --players 5 "
                       "--seed 5 --set tokens=1"]
    # and that command does deal the same game: the same answers give the same output
    again = CliRunner().invoke(main, command[0].split(": ", 1)[1].split()[1:], input="1\n" * 3000)
    assert again.output == result.output


@pytest.mark.parametrize("game", [g for g in ALL_GAMES if "coucou" in g.values[0]])  # a list of cards first
def test_bad_input_asks_again_with_a_reason(game):
    answers = ["", "0", "99", "-3", "1.5", "no such move", "€€€", "x" * 500] + ["1"] * 5 + ["quit", "n"]
    result = play(["--players", str(PLAYERS[game]), "--seed", "2"], answers, game)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "type the number of your choice" in out
    assert "99 is not on the list" in out
    assert "0 is not on the list" in out
    assert "-3 is not on the list" in out
    assert "`no such move` is not one of your choices" in out
    assert "`€€€` is not one of your choices" in out
    assert "Traceback" not in out
    assert out.count("Your turn, P0.") == 6  # the first screen, then one per move made
    assert "Leaving the game." in out


def test_bad_input_at_a_bid_asks_again_with_a_reason():
    # Ascenseur opens with a bid: numbers answer with themselves, so 0 is a bid and 99 is not
    answers = ["", "99", "-3", "1.5", "no such move", "x" * 500, "2", "quit", "n"]
    result = play(["--players", "5", "--seed", "2"], answers, "games/ascenseur.cards")
    assert result.exit_code == 0, result.output
    out = result.output
    bids = ", ".join(str(k) for k in range(11))
    assert f"  choose: bid 0, bid 1," in out and "  1. bid 0" not in out  # no list numbers to confuse
    assert f"type a number ({bids}), or ? for help" in out
    assert f"`99` is not a number you may choose: {bids}" in out
    assert f"`-3` is not a number you may choose: {bids}" in out
    assert f"`no such move` is not one of your choices: answer a number ({bids}) or a label" in out
    assert "P0 chooses bid 2" in out  # `2` is bid 2, not the second entry (bid 1)
    assert "Traceback" not in out


def test_answers_by_label_prefix_and_card():
    labels = ["keep 7♠", "keep 7♥", "keep A♣"]
    assert match_answer("keep 7♥", labels) == (1, "")
    assert match_answer("KEEP 7h", labels) == (1, "")  # suit letters, any case
    assert match_answer("keep a", labels) == (2, "")  # the start of one label is enough
    index, reason = match_answer("keep", labels)
    assert index is None and "could be keep 7♠, keep 7♥, keep A♣" in reason
    assert match_answer("7s", labels, card_of=lambda t: {"7s": "7♠"}.get(t)) == (0, "")
    index, reason = match_answer("Ks", labels, card_of=lambda t: {"Ks": "K♠"}.get(t))
    assert index is None and "not a card you can choose" in reason
    assert match_answer("3", labels) == (2, "")
    assert match_answer("4", labels)[0] is None


def test_a_choice_of_numbers_is_answered_with_the_number_itself():
    labels = ["0", "1", "2", "3"]  # `chooses a number n from 0 to 3` without a label
    assert match_answer("2", labels) == (2, "")
    assert match_answer("0", labels) == (0, "")
    index, reason = match_answer("4", labels)
    assert index is None and reason == "`4` is not a number you may choose: 0, 1, 2, 3"


def test_question_mark_shows_the_rules_summary_and_the_game_goes_on():
    about = cardlang.load(path("games/coucou.cards")).symbols.about
    result = play(["--seed", "1"], ["?", "quit", "n"])
    assert result.exit_code == 0, result.output
    flat = " ".join(result.output.split())
    assert " ".join(about.split()) in flat
    assert "option tokens = 5" in flat
    assert "Leaving the game." in result.output


def test_quit_offers_to_save_and_the_offered_file_resumes(tmp_path):
    save = tmp_path / "offered.json"
    result = play(["--seed", "4"], ["1", "quit", str(save)])
    assert result.exit_code == 0, result.output
    assert "Save the game to resume it later?" in result.output
    assert f"cardlang play --resume {save}" in result.output
    _, data = final_state(save)
    assert human_moves(data) == 1 and not data["finished"]
    resumed = CliRunner().invoke(main, ["play", "--resume", str(save)], input="1\n" * 3000)
    assert resumed.exit_code == 0, resumed.output
    assert "Resuming Coucou" in resumed.output
    assert "The game is over" in resumed.output


def test_quit_without_saving_writes_nothing(tmp_path):
    result = CliRunner().invoke(main, ["play", path("games/coucou.cards"), "--seed", "4"], input="quit\nn\n")
    assert result.exit_code == 0
    assert "The game was not saved." in result.output
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("game", ALL_GAMES)
def test_quit_and_resume_ends_exactly_like_the_game_played_through(game, tmp_path):
    # the person's answers: a fixed pattern that exercises more than the first action
    answers = [str(1 + (i * 7) % 3) for i in range(3000)]
    whole = tmp_path / "whole.json"
    args = ["--players", str(PLAYERS[game]), "--seed", "9"]
    result = play(args + ["--save", str(whole)], answers, game)
    assert result.exit_code == 0, result.output
    # an answer outside the list is asked again and never played, so drop those from the count
    expected, expected_data = final_state(whole)
    assert expected.is_terminal()

    split = 3
    parts = tmp_path / "parts.json"
    first = play(args + ["--save", str(parts)], answers[:split] + ["quit"], game)
    assert first.exit_code == 0, first.output
    assert "The game is saved in" in first.output
    _, data = final_state(parts)
    assert not data["finished"]
    consumed = _answers_used(first.output)
    second = CliRunner().invoke(main, ["play", "--resume", str(parts)],
                                input="".join(a + "\n" for a in answers[consumed:]))
    assert second.exit_code == 0, second.output
    state, data = final_state(parts)
    assert data["actions"] == expected_data["actions"]
    assert state.scores() == expected.scores() and state.winners() == expected.winners()
    assert state.transcript() == expected.transcript()


def _answers_used(output: str) -> int:
    """How many answers a session read before `q` (each prompt echoes its answer)."""
    return sum(1 for line in output.splitlines() if line.startswith("P0 > ") and line != "P0 > quit")


def test_an_interrupted_game_loses_nothing(tmp_path):
    # the input closes in the middle of the game: every move made so far is in the save
    save = tmp_path / "cut.json"
    result = play(["--seed", "3", "--save", str(save)], ["2", "1"])
    assert result.exit_code == 0, result.output
    assert "The input closed" in result.output
    _, data = final_state(save)
    assert human_moves(data) == 2
    assert not data["finished"]


def test_a_changed_rules_file_refuses_to_resume(tmp_path):
    rules = tmp_path / "game.cards"
    shutil.copy(path("games/coucou.cards"), rules)
    save = tmp_path / "save.json"
    first = CliRunner().invoke(main, ["play", str(rules), "--seed", "3", "--save", str(save)], input="1\nquit\n")
    assert first.exit_code == 0, first.output
    with open(rules, "a") as f:
        f.write("\n# a change\n")
    again = CliRunner().invoke(main, ["play", "--resume", str(save)], input="1\n")
    assert again.exit_code == 1
    assert "has changed since this game was saved" in again.output
    assert "cannot be resumed" in again.output
    assert "Traceback" not in again.output
    replay = CliRunner().invoke(main, ["replay", str(save)])
    assert replay.exit_code == 1 and "has changed since this game was saved" in replay.output


def test_resume_of_a_file_that_is_not_a_save(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    result = CliRunner().invoke(main, ["play", "--resume", str(bad)])
    assert result.exit_code == 1
    assert "is not a saved game" in result.output
    result = CliRunner().invoke(main, ["play", "--resume", str(tmp_path / "none.json")])
    assert result.exit_code == 1 and "no saved game at" in result.output


def test_resume_keeps_the_seed_and_options_of_the_save(tmp_path):
    save = tmp_path / "s.json"
    play(["--seed", "3", "--save", str(save)], ["quit"])
    result = CliRunner().invoke(main, ["play", "--resume", str(save), "--seed", "4"])
    assert result.exit_code == 2
    assert result.output.strip() == "error: --seed cannot be changed when resuming: they come from the save"


@pytest.mark.parametrize("args, message", [
    (["--players", "3"], "error: Coucou is for 5 to 20 players, not 3"),
    (["--set", "tokens=99"], "error: option `tokens` must be from 1 to 20, not 99"),
    (["--seat", "7"], "error: --seat must be from 0 to 4, not 7"),
    (["--bot", "nobody"], "error: unknown bot `nobody` (bots: "),
])
def test_bad_arguments_give_one_line(args, message):
    result = play(args)
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(message), result.output


def test_no_file_and_no_resume_is_a_one_line_error():
    result = CliRunner().invoke(main, ["play"])
    assert result.exit_code == 2
    assert result.output.strip() == "error: give a rules file (cardlang play games/NAME.cards) or --resume SAVE"


def test_ascii_shows_suits_as_letters():
    result = play(["--seed", "3", "--ascii"], ["quit", "n"])
    assert result.exit_code == 0
    assert all(ord(c) < 128 or c.isalpha() for c in result.output)
    assert "your hand  [Qd] [Qh] [Kh]" in result.output


def test_hotseat_asks_the_next_person_to_take_the_seat_before_showing_a_hand():
    result = play(["--seed", "11", "--seat", "0", "--seat", "2"], ["", "1", "", "1", "", "1", "quit", "n"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "P2's turn. Pass the terminal to P2." in out
    assert "P0's turn. Pass the terminal to P0." in out
    # every hand shown comes after the handover to that seat, and before the next handover
    blocks = out.split("Pass the terminal to ")
    for block in blocks[1:]:
        seat = block[1]
        assert "P" + seat + " you" in block or "Your turn" not in block
        for other in "01234":
            if other != seat:
                assert f"P{other} you" not in block


def test_hotseat_with_every_seat_a_person():
    result = play(["--seed", "1", "--hotseat"], ["", "quit", "n"])
    assert result.exit_code == 0, result.output
    assert "people: P0, P1, P2, P3, P4" in result.output


def test_bots_play_without_a_pause_when_the_output_is_not_a_terminal():
    import time

    start = time.perf_counter()
    result = play(["--seed", "5"], ALWAYS_FIRST)
    assert result.exit_code == 0
    assert time.perf_counter() - start < 20  # a pause of 0.8 s per bot move would take minutes


def test_a_bots_only_game_saved_and_resumed_ends_like_the_whole_one(tmp_path):
    save = tmp_path / "bots.json"
    whole = CliRunner().invoke(main, ["play", path("games/coucou.cards"), "--bots-only", "--seed", "8",
                                      "--save", str(save)])
    assert whole.exit_code == 0, whole.output
    _, data = final_state(save)
    assert data["finished"] and data["humans"] == []
    # the save as an interruption after a third of its moves would have left it (a save cut by hand
    # is refused as edited: test_saves.py)
    g = cardlang.load(data["file_absolute"], players=data["players"], options=data["options"])
    cut = cardlang.State.from_json(g, dict(data, actions=data["actions"][: len(data["actions"]) // 3]))
    write_save(str(save), save_data(cut, humans=(), bot=data["bot"], save_path=str(save)))
    resumed = CliRunner().invoke(main, ["play", "--resume", str(save)])
    assert resumed.exit_code == 0, resumed.output
    assert resumed.output == whole.output
    _, again = final_state(save)
    assert again["actions"] == data["actions"]


PICK = '''game "Pick"
about "Each player picks a number from 0 to 3; the highest wins."
players 2..2
deck standard
zone stock: pile, hidden
per player var picked = 0
score of p: picked(p)

round:
    for each p in players:
        p chooses a number n from 0 to 3:
            set picked(p) = n
    end game winners select p in players where picked(p) == (max q in players of picked(q))
'''


def test_a_session_where_the_choice_is_a_number(tmp_path):
    rules = tmp_path / "pick.cards"
    rules.write_text(PICK)
    save = tmp_path / "pick.json"
    result = CliRunner().invoke(main, ["play", str(rules), "--seed", "1", "--save", str(save)], input="7\n2\n")
    assert result.exit_code == 0, result.output
    assert "choose a number: 0, 1, 2, 3" in result.output
    assert "`7` is not a number you may choose: 0, 1, 2, 3" in result.output
    state, data = final_state(save)
    assert data["labels"][0] == "2" and state.var("picked", 0) == 2


# ------------------------------------------------------------------ leaving, numbers, end of input
NO_QUEENS = '''game "No queens"
players 2..2
deck ranks 1 2 3 suits stars moons
zone talon: pile, hidden
zone hand: per player, private
zone table: pile, public

setup:
    shuffle talon
    deal 3 from talon to hand(players)

round:
    for each p in players:
        p chooses a card c from hand(p):
            move c to table
    if count(hand(top of players)) == 0:
        end game
'''


def test_q_leaves_unless_it_is_exactly_a_label():
    from cardlang.cli.answers import means_quit, quit_word

    # issue 27: `q` never left a game with queens; now it leaves unless a choice reads exactly `q`
    assert means_quit("q", ["keep 7♠", "change"]) and means_quit(" Q ", ["keep Q♠", "change"])
    assert means_quit("q", ["queen of hearts", "pass"])  # the start of a label is typed in full
    assert not means_quit("q", ["Q", "K"])  # a choice of ranks: `q` is the queen...
    assert means_quit("quit", ["Q", "K"]) and quit_word(["Q", "K"]) == "quit"  # ...and quit leaves
    assert means_quit("quit", ["quit the pot", "stay"])  # a label's start, not the label
    assert not means_quit("quit", ["quit", "stay"]) and quit_word(["quit", "q"]) == "exit"
    assert not means_quit("qs", ["play Q♠"]) and quit_word(["keep"]) == "q"


def test_typing_q_in_a_game_with_queens_leaves(tmp_path):
    save = tmp_path / "s.json"
    # Coucou's deck has queens: `q` used to be refused there ("type quit")
    result = play(["--seed", "4", "--save", str(save)], ["1", "q"])
    assert result.exit_code == 0, result.output
    out = result.output
    assert "q quit" in out and "to leave the table, type" not in out
    assert out.index("Leaving the game.") > out.index("P0 > q")
    _, data = final_state(save)
    assert human_moves(data) == 1


def test_q_leaves_a_game_whose_deck_has_no_q(tmp_path):
    rules = tmp_path / "noq.cards"
    rules.write_text(NO_QUEENS, encoding="utf-8")
    result = CliRunner().invoke(main, ["play", str(rules), "--seed", "1"], input="q\nn\n")
    assert result.exit_code == 0, result.output
    assert "q quit" in result.output and "Leaving the game." in result.output


def test_numbered_labels_are_answered_with_their_number():
    from cardlang.cli.answers import label_numbers

    bids = ["bid 0", "bid 1", "bid 2", "bid 3"]
    assert label_numbers(bids) == [0, 1, 2, 3]
    assert match_answer("2", bids) == (2, "")  # bid 2, not the second entry (bid 1)
    assert match_answer("0", bids) == (0, "")
    index, reason = match_answer("4", bids)
    assert index is None and reason == "`4` is not a number you may choose: 0, 1, 2, 3"
    assert match_answer("bid 3", bids) == (3, "")  # a label still answers
    mixed = ["pass", "bet 1", "bet 2", "bet 5"]  # a number beside a word
    assert label_numbers(mixed) == [None, 1, 2, 5]
    assert match_answer("1", mixed) == (1, "") and match_answer("5", mixed) == (3, "")
    assert match_answer("3", mixed)[0] is None  # not the third entry either
    assert match_answer("pass", mixed) == (0, "")
    # cards are not numbers: a list of cards keeps its positions
    cards = ["play 7♠", "play 10♥", "play A♣"]
    assert label_numbers(cards) is None and match_answer("2", cards) == (1, "")
    assert label_numbers(["take 1", "take 1 more"]) is None  # the same number twice: positions
    assert label_numbers(["bid 3"]) is None  # one number alone is no choice of numbers


def test_the_end_of_piped_input_saves_nothing_and_says_so(tmp_path):
    result = CliRunner().invoke(main, ["play", path("games/coucou.cards"), "--seed", "4"], input="1\n")
    assert result.exit_code == 0, result.output
    assert "The input closed" in result.output and "The game was not saved." in result.output
    assert not list(tmp_path.iterdir())


def test_ctrl_d_at_a_terminal_saves_the_game_as_a_closed_terminal_does(tmp_path, monkeypatch):
    import io

    from rich.console import Console

    from cardlang.cli.cmd_play import Session
    from cardlang.play.table_bots import Bots
    from cardlang.play.table_view import Style

    monkeypatch.chdir(tmp_path)
    g = cardlang.load(path("games/coucou.cards"), players=5)
    state = g.new_initial_state(seed=4)

    def closed():
        raise EOFError

    console = Console(file=io.StringIO(), width=100, color_system=None)
    session = Session(g, state, humans=[0], bots=Bots("random", 4), console=console, style=Style(),
                      read=closed, terminal=True, discard=lambda: None)
    assert session.run() == 0
    out = console.file.getvalue()
    saved = list(tmp_path.glob("coucou-*.save.json"))  # named by the date and time, not the seed
    assert len(saved) == 1 and f"The game is saved in {saved[0].name}" in out and "not saved" not in out


def test_type_ahead_is_discarded_when_each_turn_begins():
    from cardlang.cli.cmd_play import Session
    from cardlang.play.table_bots import Bots
    from cardlang.play.table_view import Style
    import io

    from rich.console import Console

    g = cardlang.load(path("games/coucou.cards"), players=5)
    events = []
    answers = iter(["1", "1", "quit", "n"])

    def read():
        events.append("read")
        return next(answers)

    session = Session(g, g.new_initial_state(seed=4), humans=[0], bots=Bots("random", 4),
                      console=Console(file=io.StringIO(), width=100, color_system=None), style=Style(),
                      read=read, discard=lambda: events.append("discard"))
    session.run()
    assert events[:2] == ["discard", "read"] and events.count("discard") == 3  # once a turn, first


def test_interrupted_without_save_exits_130_after_offering_to_save(tmp_path, monkeypatch):
    import io

    from rich.console import Console

    from cardlang.cli.cmd_play import Session
    from cardlang.play.table_bots import Bots
    from cardlang.play.table_view import Style

    monkeypatch.chdir(tmp_path)
    g = cardlang.load(path("games/coucou.cards"), players=5)
    answers = iter([KeyboardInterrupt, "kept.json"])

    def read():
        a = next(answers)
        if a is KeyboardInterrupt:
            raise KeyboardInterrupt
        return a

    console = Console(file=io.StringIO(), width=100, color_system=None)
    session = Session(g, g.new_initial_state(seed=4), humans=[0], bots=Bots("random", 4), console=console,
                      style=Style(), read=read, discard=lambda: None)
    assert session.run() == 130
    out = console.file.getvalue()
    assert "Interrupted." in out and "Save the game to resume it later?" in out
    assert (tmp_path / "kept.json").is_file() and "The game is saved in kept.json" in out
