"""E041 (a `while` loop that can never end) compares what the condition reads with what the loop
may change: the statements of every language family count, a per-team variable and a pot too."""

from __future__ import annotations

import textwrap

import pytest

from cardlang.load import check_source

POT = """game "Pots"
players 2..2
deck standard
per player var chips = 10
pot pot: stacks chips

round:
    while {cond}:
        {body}
    pay pot to highest p by chips(p)
    end game
"""

TEAM = """game "Teams"
players 4..4
teams of 2 across
deck standard
per team var got = 0

round:
    while got(team of top of players) < 3:
        {body}
    end game
"""

CHANGED = [
    (POT, "chips(top of players) > 5", "put 1 from top of players into pot"),
    (POT, "pot < 4", "put 1 from top of players into pot"),
    (POT, "pot(top of players) < 4", "put 1 from top of players into pot"),
    (TEAM, None, "add 1 to got(team of top of players)"),
]
UNCHANGED = [
    (POT, "pot < 4", "pass"),
    (POT, "chips(top of players) > 5", "pass"),
    (TEAM, None, "pass"),
]


def _codes(template: str, cond, body: str) -> list:
    source = textwrap.dedent(template).replace("{cond}", cond or "").replace("{body}", body)
    return [d.code for d in check_source(source, "t.cards")[3]]


@pytest.mark.parametrize("template, cond, body", CHANGED)
def test_a_loop_whose_body_changes_its_pot_stack_or_team_variable_is_not_e041(template, cond, body):
    assert "E041" not in _codes(template, cond, body)


@pytest.mark.parametrize("template, cond, body", UNCHANGED)
def test_a_loop_that_changes_nothing_its_condition_reads_is_still_e041(template, cond, body):
    assert "E041" in _codes(template, cond, body)


FACES = """game "Faces"
players 2..2
deck standard
zone talon: pile, hidden
zone table: pile, public

round:
    move all cards to talon
    shuffle talon
    move top of talon to table face down
    while {cond}:
        {body}
    end game
"""


@pytest.mark.parametrize("cond, body", [
    ("not (top of table is face up)", "reveal top of table"),
    ("top of table is face up", "hide top of table"),
    ("top of table is face up", "forget order of table"),
])
def test_a_loop_that_changes_who_knows_the_cards_it_tests_is_not_e041(cond, body):
    """`is face up` reads who knows a card: reveal, hide and forget order change it."""
    assert "E041" not in _codes(FACES, cond, body)


def test_a_loop_that_only_speaks_is_still_e041():
    assert "E041" in _codes(FACES, "not (top of table is face up)", 'announce "not yet"')
