"""E042/W005 over numbered families of piles (`lang/pile_facts.py`): the pile of a card-and-pile
choice ranges over 1..N, each pile is its own zone, and a loop over numbers written out is
followed pass by pass. Before, a pile's number was any number and a move to a pile forgot
everything known of the zones, so each of these was W005."""

import textwrap

import pytest

from cardlang.load import check_source

HEAD = '''game "T"
players 2..4
deck standard
zone talon: pile, hidden
zone column: 3 piles, public
zone hand: per player, private

round:
    move all cards to talon
    shuffle talon
    deal 3 from talon to hand(players)
    for each k in [1, 2, 3]:
        move top of talon to column(k) face up
    let p = random(players)
'''


def codes(body: str) -> list:
    """The E042/W005 codes `check` gives HEAD + body (no other error)."""
    _, _, _, diags = check_source(HEAD + textwrap.indent(textwrap.dedent(body), "    ") + "    end game\n", "t.cards")
    assert [d for d in diags if d.is_error and d.code != "E042"] == []
    return [d.code for d in diags if d.code in ("E042", "W005")]


@pytest.mark.parametrize("where, expected", [
    ("k >= 1", []),             # every pile number is 1 or more
    ("k == 2", []),             # pile 2 is one of them
    ("k > 3", ["E042"]),        # no pile is numbered above 3
    ("k == 0 or k == 4", ["E042"]),
    ("count(column(k)) > 0", []),       # the loop above put a card on each pile
    ("count(column(k)) == 1", []),
    ("count(column(k)) > 5", ["E042"]),
    ("count(column(k)) == 0", ["E042"]),
])
def test_the_pile_of_a_choice_ranges_over_the_family(where, expected):
    assert codes(f'''
        p chooses:
            a card c from hand(p) and a pile k from column where {where}:
                move c to column(k)
    ''') == expected


def test_dealing_a_card_to_each_pile_in_a_loop_is_known_pile_by_pile():
    assert codes('''
        p chooses:
            "take" if count(column(3)) > 0:
                move top of column(3) to hand(p)
    ''') == []
    assert codes('''
        p chooses:
            "take" if count(column(3)) > 1:
                move top of column(3) to hand(p)
    ''') == ["E042"]


def test_a_move_from_one_pile_leaves_what_is_known_of_the_others():
    assert codes('''
        move top of column(1) to hand(p)
        p chooses:
            "take" if count(column(2)) > 0:
                move top of column(2) to hand(p)
    ''') == []
    assert codes('''
        move top of column(1) to hand(p)
        p chooses:
            "take" if count(column(1)) > 0:
                move top of column(1) to hand(p)
    ''') == ["E042"]


def test_a_pile_numbered_by_a_variable_may_be_any_of_them():
    # `column(j)` may be pile 1: what is known of pile 1 no longer holds after a move from it
    assert codes('''
        let j = random([1, 2, 3])
        move top of column(j) to hand(p)
        p chooses:
            "take" if count(column(1)) > 0:
                move top of column(1) to hand(p)
    ''') == ["W005"]
