"""W004, the information-flow check: values computed from cards a seat cannot see must not reach
what every seat sees without a `reveal`.

The rule files of tests/check/infoflow/ each show one kind of flow; a line that must be reported
ends with `# leak`, and no other line may be. Their messages are snapshots (syrupy).
"""

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardlang.cli import main
from cardlang.cli.cmd_check import check_files

ROOT = Path(__file__).resolve().parent.parent
FLOWS = sorted((ROOT / "tests" / "check" / "infoflow").glob("*.cards"))
GAMES = sorted((ROOT / "games").glob("*.cards")) + sorted((ROOT / "examples").glob("*.cards"))
HEADER = """game "T"
players 2..4
deck standard
order value: 2 3 4 5 6 7 8 9 10 J Q K A
zone talon: pile, hidden
zone hand: per player, private
"""
DEAL = """round:
    move all cards to talon
    shuffle talon
    deal 2 from talon to hand(players)
"""


def warnings_of(path) -> list:
    return [d for d in check_files([str(path)]).diagnostics if d.code == "W004"]


def marked_lines(path: Path) -> set:
    return {i for i, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1)
            if line.rstrip().endswith("# leak")}


def check_text(tmp_path, body: str, header: str = HEADER) -> list:
    path = tmp_path / "t.cards"
    path.write_text(header + body, encoding="utf-8")
    report = check_files([str(path)])
    assert not [d for d in report.diagnostics if d.is_error], report.diagnostics
    return [d for d in report.diagnostics if d.code == "W004"]


def test_there_is_a_rule_file_per_kind_of_flow():
    names = {p.stem for p in FLOWS}
    assert {"texts", "variables", "locals_and_defines", "branches", "choices", "reveals", "phases", "scores",
            "outcomes", "idioms", "public_score"} <= names


@pytest.mark.parametrize("path", FLOWS, ids=[p.stem for p in FLOWS])
def test_exactly_the_marked_lines_are_reported(path):
    report = check_files([str(path)])
    assert [d for d in report.diagnostics if d.code != "W004"] == []
    found = {d.span.line for d in report.diagnostics if d.code == "W004"}
    assert found == marked_lines(path)
    assert all(d.severity == "warning" for d in report.diagnostics)


@pytest.mark.parametrize("path", FLOWS, ids=[p.stem for p in FLOWS])
def test_messages(path, snapshot, monkeypatch):
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("NO_COLOR", raising=False)
    result = CliRunner().invoke(main, ["check", "--color", "never", os.path.relpath(path, ROOT)])
    assert result.exit_code == 0  # a warning never fails a check without --strict
    assert result.output == snapshot


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_the_games_and_examples_show_nothing_they_hide(path):
    assert check_files([str(path)]).diagnostics == []


def test_strict_makes_the_warning_fail(monkeypatch):
    monkeypatch.chdir(ROOT)
    path = os.path.relpath(ROOT / "tests" / "check" / "infoflow" / "texts.cards", ROOT)
    assert CliRunner().invoke(main, ["check", "--strict", path]).exit_code == 1


# ------------------------------------------------------------- the examples
def test_announcing_the_suit_of_a_private_card(tmp_path):
    found = check_text(tmp_path, DEAL + "    for each p in players:\n"
                                        "        announce \"{suit(top of hand(p))}\"\n    end game\n")
    assert [d.message for d in found] == [
        "this text shows every seat a value computed from `hand(p)`, which only its owner sees"]
    assert (found[0].span.line, found[0].span.column) == (12, 20)  # the interpolated expression


def test_a_public_per_player_variable_set_from_a_private_card(tmp_path):
    found = check_text(tmp_path, DEAL + "    for each p in players:\n"
                                        "        set high(p) = value(top of hand(p))\n    end game\n",
                       HEADER + "per player var high = 0\n")
    assert [d.message for d in found] == [
        "`high(p)` is shown to every seat, but this value is computed from `hand(p)`, which only its owner sees"]


def test_labels_of_a_choice_among_a_neighbours_cards_name_places(tmp_path):
    """The engine labels a card the chooser does not know by its place (docs/knowledge.md): no leak."""
    assert check_text(tmp_path, DEAL + "    for each p in players:\n"
                                       "        p chooses a card c from hand(left of p) as \"take {c}\":\n"
                                       "            move c to hand(p)\n    end game\n") == []


def test_the_same_choice_among_ones_own_cards_is_fine(tmp_path):
    assert check_text(tmp_path, DEAL + "    for each p in players:\n"
                                       "        p chooses a card c from hand(p) as \"give {c}\":\n"
                                       "            move c to hand(left of p)\n    end game\n") == []


# ------------------------------------------------------------------ implicit flows
def test_a_branch_on_a_hidden_card_warns_once_the_branch_ends_without_showing_it(tmp_path):
    body = DEAL + ("    for each p in players:\n"
                   "        if hand(p) has K:\n"
                   "            announce \"someone has a King\"\n"
                   "            {show}\n"
                   "    end game\n")
    hidden = check_text(tmp_path, body.replace("{show}", "pass"))
    assert [d.message for d in hidden] == [
        "every seat sees this text, and whether it happens depends on `hand(p)` (tested on line 12), which only its "
        "owner sees"]
    assert check_text(tmp_path, body.replace("{show}", "reveal hand(p)")) == []
    assert check_text(tmp_path, body.replace("{show}", "p says \"I have one\"")) == []
    # another player's word proves nothing about p's hand, and tells the branch ran too
    other = check_text(tmp_path, body.replace("{show}", "left of p says \"so he says\""))
    assert [d.span.line for d in other] == [13, 14]


def test_a_nested_branch_that_shows_the_card_clears_only_itself(tmp_path):
    body = DEAL + (
        "    for each p in players:\n"
        "        if hand(p) has K:\n"
        "            if hand(p) has Q:\n"
        "                reveal hand(p)\n"
        "                announce \"both\"\n"
        "            announce \"a King\"\n"
        "    end game\n")
    found = check_text(tmp_path, body)
    assert [d.span.line for d in found] == [16]


def test_deep_nesting_ends(tmp_path):
    """Loops in loops make the analysis run bodies again; it is bounded, and gives up silently."""
    depth = 14
    lines = [DEAL.rstrip("\n"), "    let t = 0"]
    for i in range(depth):
        lines.append("    " * (i + 1) + f"for each p{i} in players:")
        lines.append("    " * (i + 2) + f"set t = t + value(top of hand(p{i}))")
    lines.append("    announce \"{t}\"")
    lines.append("    end game")
    found = check_text(tmp_path, "\n".join(lines) + "\n")
    assert len(found) <= 1


def test_a_file_with_errors_gets_no_flow_warnings(tmp_path):
    path = tmp_path / "t.cards"
    path.write_text(HEADER + DEAL + "    announce \"{suit(top of hand(p))} {unknown}\"\n    end game\n",
                    encoding="utf-8")
    codes = {d.code for d in check_files([str(path)]).diagnostics}
    assert "E010" in codes and "W004" not in codes


# variants keep their zones in their base file, which is in the list itself
ALL_FILES = [p for p in GAMES + FLOWS if "\nextends " not in "\n" + p.read_text(encoding="utf-8")]


@pytest.mark.parametrize("path", ALL_FILES, ids=[f"{p.parent.name}/{p.stem}" for p in ALL_FILES])
def test_with_every_zone_public_nothing_is_secret(path, tmp_path):
    """Only zones hide cards: the same rules with every zone public raise no W004 at all."""
    import re

    text = path.read_text(encoding="utf-8")
    opened = re.sub(r"^(zone [^\n]*?)\b(hidden|private|facing away)\b", r"\1public", text, flags=re.M)
    copy = tmp_path / path.name
    copy.write_text(opened, encoding="utf-8")
    assert warnings_of(copy) == []


# ------------------------------------------------ issue 26, finding 7: W004's holes and false alarms
HOLES = {"w004_pot_paid_without_showdown", "w004_face_down_into_public_zone"}
FALSE_ALARMS = {"w004_own_drawn_card_in_variable", "w004_tell_rank_shows_it", "w004_revealed_cards_listed_in_text",
                "w004_move_face_up_clears_branch", "w004_label_lists_own_cards", "w004_zone_parameter_own_and_public"}


@pytest.mark.parametrize("name", sorted(HOLES | FALSE_ALARMS))
def test_each_w004_finding_is_a_file_that_warns_or_does_not(name):
    """A hole's file marks the lines that must warn; a false alarm's file has none (and
    `test_exactly_the_marked_lines_are_reported` checks both)."""
    path = ROOT / "tests" / "check" / "infoflow" / f"{name}.cards"
    lines = {d.span.line for d in warnings_of(path)}
    if name in HOLES:
        assert lines and lines == marked_lines(path)
    else:
        assert lines == set() and marked_lines(path) == set()


def test_a_pot_paid_where_a_branch_has_a_single_contender_needs_the_showdown_in_the_other(tmp_path):
    header = HEADER + ("ranking hands by value: straight_flush > four_of_a_kind > full_house > flush \\\n"
                       "        > straight > three_of_a_kind > two_pair > pair > high_card, ace low\n"
                       "per player var chips = 20\npot pot: stacks chips\n")
    body = DEAL + ("    bets on pot from top of players: minimum raise 1\n"
                   "    if count(contenders(pot)) {test}:\n"
                   "        for each p in contenders(pot):\n"
                   "            reveal hand(p)\n"
                   "    pay pot to highest p by sum c in hand(p) of value(c)\n"
                   "    end game\n")
    assert check_text(tmp_path, body.replace("{test}", "> 1"), header) == []
    assert check_text(tmp_path, body.replace("{test}", ">= 2"), header) == []
    # the branch that shows the hands is the one with a single contender: the other pays unseen
    found = check_text(tmp_path, body.replace("{test}", "== 1"), header)
    assert [(d.span.line, d.message) for d in found] == [
        (19, "every seat sees who takes `pot`, and that depends on `hand(p)`, which only its owner sees")]


def test_a_pot_paid_in_a_branch_on_hidden_cards_tells_the_branch_ran(tmp_path):
    header = HEADER + "per player var chips = 20\npot pot: stacks chips\n"
    found = check_text(tmp_path, DEAL + "    if hand(top of players) has K:\n"
                                        "        pay pot to highest p by chips(p)\n    end game\n", header)
    assert [d.message for d in found] == [
        "every seat sees who takes `pot`, and whether it happens depends on `hand(top of players)` (tested on "
        "line 13), which only its owner sees"]


@pytest.mark.parametrize("body, line", [
    # told to one player only: the others still do not know the rank
    ("        tell left of p the rank of top of hand(p)\n"
     "        announce \"{rank(top of hand(p))}\"\n", 13),
    # the rank told is of the card on top then: once a card is put on it, the top is another card
    ("        tell players the rank of top of hand(p)\n"
     "        move top of talon to hand(p)\n"
     "        announce \"{rank(top of hand(p))}\"\n", 14),
    # the suit told says nothing of the rank
    ("        tell players the suit of top of hand(p)\n"
     "        announce \"{rank(top of hand(p))}\"\n", 13),
    # a card moved face up elsewhere than the tested one
    ("        if hand(p) has K:\n"
     "            move top of talon to hand(p) face up\n"
     "            announce \"a King\"\n", 14),
    # a card drawn into a hand is known to its owner, not to the chooser next to him
    ("        let c = top of talon\n"
     "        move c to hand(p)\n"
     "        left of p chooses:\n"
     "            \"go\":\n"
     "                pass\n"
     "            \"stop\" if value(c) > 7:\n"
     "                pass\n", 17),
    # leaving out a card of the same suit as the chosen one is not leaving out the chosen one
    ("        p chooses a card c from hand(p) as \"keep {select d in hand(p) where suit(d) != suit(c)}\":\n"
     "            move c to talon\n", 12),
])
def test_the_false_alarms_fixed_stay_narrow(tmp_path, body, line):
    found = check_text(tmp_path, DEAL + "    for each p in players:\n" + body + "    end game\n")
    assert [d.span.line for d in found] == [line]


def test_a_zone_parameter_given_another_players_hand_is_still_a_secret(tmp_path):
    found = check_text(tmp_path, DEAL + "    for each p in players:\n"
                                        "        play(p, hand(left of p))\n    end game\n"
                                        "phase play(q, z: zone):\n"
                                        "    q chooses:\n"
                                        "        \"pass\":\n            pass\n"
                                        "        \"knock\" if z has K:\n            pass\n")
    assert [(d.span.line, d.message) for d in found] == [
        (18, "which options `q` may choose depends on `hand(left of p)`, which only its owner sees")]


def test_telling_every_seat_which_cards_have_a_hidden_face_warns(tmp_path):
    body = DEAL + ("    for each p in players:\n"
                   "        tell {who} which cards of hand(left of p) are {face}\n"
                   "    end game\n")
    found = check_text(tmp_path, body.replace("{who}", "players").replace("{face}", "suit(top of hand(p))"))
    assert [(d.span.line, d.message) for d in found] == [
        (12, "every seat is told which cards have this face, computed from `hand(p)`, which only its owner sees")]
    assert check_text(tmp_path, body.replace("{who}", "players").replace("{face}", "hearts")) == []
    assert check_text(tmp_path, body.replace("{who}", "p").replace("{face}", "suit(top of hand(p))")) == []
