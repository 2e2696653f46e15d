"""`cardlang replay SAVE`: a saved game as a transcript, from one seat's view or omniscient."""

import json
import shutil

import pytest
from click.testing import CliRunner

from cardlang.cli import main
from cardlang.play.table_view import card_labels_in
from scenario import path
from test_play import ALL_GAMES, PLAYERS, final_state
from test_play_screens import allowed_at_decisions


def saved_game(tmp_path, game="games/coucou.cards", answers=("1",) * 3000, extra=()):
    save = tmp_path / "game.json"
    result = CliRunner().invoke(main, ["play", path(game), "--players", str(PLAYERS[game]), "--seed", "3",
                                       "--save", str(save), *extra], input="".join(a + "\n" for a in answers))
    assert result.exit_code == 0, result.output
    return save


def replay(*args):
    return CliRunner().invoke(main, ["replay", *map(str, args)])


@pytest.mark.parametrize("game", ALL_GAMES)
def test_a_seat_s_replay_is_its_log_and_shows_no_card_hidden_from_it(game, tmp_path):
    save = saved_game(tmp_path, game)
    state, data = final_state(save)
    for seat in (0, 1):
        result = replay(save, "--seat", seat)
        assert result.exit_code == 0, result.output
        lines = result.output.splitlines()
        log = [line for line in lines[3:] if not line.startswith("  > ")]
        assert log[: len(state.transcript(seat))] == state.transcript(seat)
        allowed = set().union(*(labels for labels, _ in allowed_at_decisions(data, seat)))
        assert card_labels_in(result.output) <= allowed
        # at each of its decisions, the seat's hand and its choices
        decisions = [line for line in lines if line.startswith(f"  > P{seat} to choose")]
        assert len(decisions) == sum(1 for _ in _decisions(data, seat))
        assert "Final scores: " in result.output


def _decisions(data, seat):
    import cardlang

    g = cardlang.load(data["file_absolute"], players=data["players"], options=data["options"])
    state = g.new_initial_state(seed=data["seed"])
    for a in data["actions"]:
        if state.current_player == seat:
            yield a
        state.apply(a)


def test_the_omniscient_replay_shows_every_card(tmp_path):
    save = saved_game(tmp_path)
    state, data = final_state(save)
    result = replay(save, "--all")
    assert result.exit_code == 0, result.output
    assert "Every card shown (omniscient)." in result.output
    for line in state.transcript():
        assert line in result.output
    assert "a card" not in result.output
    assert "a card" in replay(save, "--seat", 0).output  # what seat 0 did not see, --all shows


def test_the_default_view_is_the_seat_the_person_played(tmp_path):
    save = saved_game(tmp_path, extra=["--seat", "2"])
    assert replay(save).output == replay(save, "--seat", 2).output
    bots = tmp_path / "bots.json"
    CliRunner().invoke(main, ["play", path("games/coucou.cards"), "--bots-only", "--seed", "2", "--save", str(bots)])
    assert replay(bots).output == replay(bots, "--all").output


def test_the_replay_of_an_unfinished_game_says_where_it_stopped(tmp_path):
    save = saved_game(tmp_path, answers=["1", "1", "quit"])
    state, data = final_state(save)
    result = replay(save)
    assert result.exit_code == 0, result.output
    assert f"The game stops here, after {len(data['actions'])} moves; P{state.current_player} is to play." \
        in result.output


def test_replay_snapshot(tmp_path, snapshot):
    save = saved_game(tmp_path, extra=["--set", "tokens=1"])
    result = CliRunner().invoke(main, ["replay", str(save), "--seat", "0"])
    assert result.exit_code == 0
    assert result.output == snapshot


def test_replay_ascii(tmp_path):
    save = saved_game(tmp_path, extra=["--set", "tokens=1"])
    result = replay(save, "--ascii", "--all")
    assert result.exit_code == 0
    assert all(ord(c) < 128 or c.isalpha() for c in result.output)


def test_replay_errors_are_one_line(tmp_path):
    save = saved_game(tmp_path, answers=["quit"])
    both = replay(save, "--seat", 1, "--all")
    assert both.exit_code == 2 and both.output.strip() == "error: give --seat K or --all, not both"
    far = replay(save, "--seat", 9)
    assert far.exit_code == 2 and far.output.strip() == "error: --seat must be from 0 to 4, not 9"
    missing = replay(tmp_path / "nothing.json")
    assert missing.exit_code == 1 and missing.output.strip() == f"error: no saved game at {tmp_path / 'nothing.json'}"


def test_a_moved_rules_file_is_found_beside_the_save_or_given(tmp_path):
    folder = tmp_path / "a"
    folder.mkdir()
    rules = folder / "game.cards"
    shutil.copy(path("games/coucou.cards"), rules)
    save = folder / "save.json"
    result = CliRunner().invoke(main, ["play", str(rules), "--seed", "1", "--save", str(save)], input="1\nquit\n")
    assert result.exit_code == 0, result.output
    moved = tmp_path / "b"
    shutil.move(str(folder), str(moved))
    # the save remembers where the rules were relative to it
    assert replay(moved / "save.json").exit_code == 0
    elsewhere = tmp_path / "c.json"
    shutil.move(str(moved / "save.json"), str(elsewhere))
    lost = replay(elsewhere)
    assert lost.exit_code == 1 and "cannot find the rules file" in lost.output
    found = replay(elsewhere, "--rules", moved / "game.cards")
    assert found.exit_code == 0, found.output
    data = json.loads(elsewhere.read_text())
    resumed = CliRunner().invoke(main, ["play", str(moved / "game.cards"), "--resume", str(elsewhere)], input="quit\n")
    assert resumed.exit_code == 0, resumed.output
    assert f"{len(data['actions'])} moves played" in resumed.output
