"""`cardlang play` as a newcomer finds it (issue 27's "found as a newcomer", issue 26's hot-seat
scrollback): what the table shows, how it asks, what it writes where. Each test plays the game
through click's CliRunner; tests/test_play_table_pty.py checks the visible ones in a real terminal.
"""

import os
import re

import pytest
from click.testing import CliRunner

from cardlang.cli import main
from scenario import path

SYMBOLS = re.compile("[♣♦♥♠]")


def run(args, answers=()):
    """`cardlang ARGS…` with the answers typed one a line."""
    return CliRunner().invoke(main, list(args), input="".join(a + "\n" for a in answers))


# ------------------------------------------------------------------ bots only
def test_bots_only_ascii_writes_suits_as_letters():
    result = run(["play", path("examples/war.cards"), "--bots-only", "--seed", "1", "--ascii"])
    assert result.exit_code == 0, result.output
    assert not SYMBOLS.search(result.output), result.output[-400:]
    assert re.search(r"face up on battle: \w+[cdhs]\b", result.output)  # the cards are there, as letters


def test_bots_only_without_ascii_keeps_the_suit_symbols():
    result = run(["play", path("examples/war.cards"), "--bots-only", "--seed", "1"])
    assert result.exit_code == 0, result.output
    assert SYMBOLS.search(result.output)


def test_bots_only_game_without_a_score_prints_whole_numbers():
    # coin_flip declares no `score of p`: the scores are the payoffs, floats inside the engine
    result = run(["play", path("examples/coin_flip.cards"), "--bots-only", "--seed", "1"])
    assert result.exit_code == 0, result.output
    final = next(line for line in result.output.splitlines() if line.startswith("final scores"))
    assert final == "final scores: P0: 0, P1: 1", final


# ------------------------------------------------------------------ save-file names
SAVE_NAME = re.compile(r"[\w.-]*\.save\.json")


def test_the_save_file_name_is_the_same_in_the_docs_the_help_and_what_play_writes(tmp_path, monkeypatch):
    from cardlang.cli.cmd_play import SAVE_NAME_SHAPE
    from scenario import ROOT

    shape = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*-\d{8}-\d{6}\.save\.json")  # GAME-YYYYMMDD-HHMMSS
    help_text = run(["play", "--help"]).output
    texts = {"play --help": help_text}
    for doc in ("README.md", "docs/language.md", "docs/saves.md"):
        texts[doc] = open(os.path.join(ROOT, doc), encoding="utf-8").read()
    for where, text in texts.items():
        names = SAVE_NAME.findall(text)
        if where != "docs/saves.md":  # (saves.md gives an example only)
            assert SAVE_NAME_SHAPE in names, (where, names)
        for name in names:
            assert name == SAVE_NAME_SHAPE or shape.fullmatch(name), (where, name)
    # what play writes when `q` offers to save and Enter takes the name offered
    monkeypatch.chdir(tmp_path)
    result = run(["play", path("games/coucou.cards"), "--seed", "2"], ["1", "q", ""])
    assert result.exit_code == 0, result.output
    written = [p.name for p in tmp_path.iterdir()]
    assert len(written) == 1 and shape.fullmatch(written[0]) and written[0].startswith("coucou-"), written
    assert f"[{written[0]}]" in result.output  # the name offered is the name written


# ------------------------------------------------------------------ --auto-single
def test_auto_single_plays_a_lone_legal_move_without_asking_and_says_so(tmp_path):
    import json

    game = path("examples/follow_suit.cards")
    asked, auto = tmp_path / "asked.json", tmp_path / "auto.json"
    plain = run(["play", game, "--seed", "3", "--save", str(asked)], ["1"] * 200)
    quick = run(["play", game, "--seed", "3", "--save", str(auto), "--auto-single"], ["1"] * 200)
    assert plain.exit_code == 0 and quick.exit_code == 0, quick.output
    with open(asked) as f, open(auto) as g:
        asked_data, auto_data = json.load(f), json.load(g)
    assert asked_data["actions"] == auto_data["actions"]  # the same game: `1` was the only move anyway
    singles = quick.output.count("P0 had a single legal move, played without asking (--auto-single): ")
    assert singles == 7  # (this deal gives P0 seven turns with one legal card)
    assert "single legal move" not in plain.output
    assert quick.output.count("P0 > ") == plain.output.count("P0 > ") - singles  # never asked for those
    assert "--auto-single" in run(["play", "--help"]).output


# ------------------------------------------------------------------ the numbered choices
CARD = re.compile(r"(?:10|[2-9AJQK])[♣♦♥♠]")
CHOICE = re.compile(r"(\d+)\. (.+?)(?=\s{2,}\d+\. |\s*$)")


def screens(output: str):
    """Each turn of a played session: (the hand shown, the numbered choices in number order)."""
    for block in output.split("Your turn, P0.")[1:]:
        head = output[:output.index(block)].rsplit("your hand", 1)[-1].split("\n", 1)[0]
        choices = {}
        for line in block.split("\n"):
            if line.startswith("P0 > ") or line.startswith("answer with"):
                break
            for m in CHOICE.finditer(line):
                choices[int(m.group(1))] = m.group(2)
        yield CARD.findall(head), [choices[k] for k in sorted(choices)]


def test_display_order_sorts_card_choices_as_the_hand_and_keeps_the_others_in_place():
    import cardlang
    from types import SimpleNamespace as A

    from cardlang.cli.table_view import Layout

    layout = Layout.of(cardlang.load(path("games/ascenseur.cards"), players=3))
    actions = [A(label=x, id=k) for k, x in enumerate(["draw", "play K♠", "play 2♣", "pass", "play 9♠", "play 2♣"])]
    shown = layout.display_order(actions)
    assert [a.label for a in shown] == ["draw", "play 2♣", "play 2♣", "pass", "play 9♠", "play K♠"]
    assert [a.id for a in shown] == [0, 2, 5, 3, 4, 1]  # the ids are the actions' own: only the list is sorted
    hand = ["K♠", "2♣", "9♠"]
    assert layout.sorted_hand(hand) == ["2♣", "9♠", "K♠"]
    # the same cards in another order (a hand dealt otherwise) give the same list
    again = layout.display_order([actions[k] for k in (4, 0, 5, 3, 1, 2)])
    assert [a.label for a in again] == ["play 2♣", "draw", "play 2♣", "pass", "play 9♠", "play K♠"]


@pytest.mark.parametrize("game", ["examples/follow_suit.cards", "examples/knock_rummy.cards"])
def test_the_numbered_choices_follow_the_hand_shown_above_every_turn(game):
    result = run(["play", path(game), "--seed", "3", "--speed", "0"], ["1"] * 40 + ["q", "n"])
    assert result.exit_code == 0, result.output
    turns = list(screens(result.output))
    assert len(turns) >= 12
    for hand, choices in turns:
        cards = [m.group(0) for m in map(CARD.search, choices) if m and m.group(0) in hand]
        assert cards == [c for c in hand if c in cards], (hand, choices)  # in the hand's order
