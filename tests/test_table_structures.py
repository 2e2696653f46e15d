"""Structures on the table (issue 28 item 4): a row of piles addressed as a family (`piles of column`,
a range `1..7` as a list, a choice of a pile of the family), the groups of melds (`melds(cards)`).
Each test writes a tiny game, stacks the deck, plays and asserts, on both engines. Without a shuffle
the talon holds the whole deck in id order, bottom first: its top cards are A♠, A♥, A♦, A♣, K♠, …
"""

from __future__ import annotations

import textwrap

import pytest

import cardlang
from cardlang import RuleError
from scenario import ENGINES

PRELUDE = """\
game "Table"
players 2
deck standard
order value: A 2 3 4 5 6 7 8 9 10 J Q K
zone talon: pile, hidden
zone column: 3 piles, public
zone hand: per player, private
var x = 0
var l = [0]
"""


def start(tmp_path, engine, body: str, decls: str = "", **kw):
    """The state of a game whose round is `body`, at its first decision (or its end)."""
    text = PRELUDE + textwrap.dedent(decls) + "\nround:\n" + textwrap.indent(textwrap.dedent(body).strip("\n"), "    ")
    file = tmp_path / "table.cards"
    file.write_text(text + "\n", encoding="utf-8")
    return cardlang.load(str(file), players=2, engine=engine).new_initial_state(seed=0, **kw)


def diagnostics_of(source: str) -> list:
    """Every diagnostic of one `check` run, as `code line:column message (help)`."""
    from cardlang.load import check_source

    found = check_source(source, "t.cards")[3]
    return [f"{d.code} {d.span.line}:{d.span.column} {d.message}" + (f" ({d.help})" if d.help else "")
            for d in found]


# ------------------------------------------------------------------ a row of piles, a range
@pytest.mark.parametrize("engine", ENGINES)
def test_a_range_is_the_list_of_its_numbers(tmp_path, engine):
    st = start(tmp_path, engine, """
        set x = 5
        set l = 1..x
        add count(4..3) * 1000 to x
        for each k in 2..4:
            add k * 10 to x
        if 3 in 1..x and not (0 in 1..x):
            add 100000 to x
        set x = x + sum j in 1..3 of j * 100
        end game
    """)
    assert tuple(st.var("l")) == (1, 2, 3, 4, 5)
    assert st.var("x") == 5 + 90 + 100000 + 600  # `4..3` is empty; `sum … of` reaches past `+`


@pytest.mark.parametrize("engine", ENGINES)
def test_a_range_of_more_than_65536_numbers_is_a_rule_error(tmp_path, engine):
    with pytest.raises(RuleError, match=r"`0\.\.65536` holds 65537 numbers; a range holds at most 65536"):
        start(tmp_path, engine, """
            set x = 65536
            set l = 0..x
            end game
        """)


@pytest.mark.parametrize("engine", ENGINES)
def test_piles_of_a_family_are_its_pile_numbers_and_each_pile_is_reached_by_them(tmp_path, engine):
    st = start(tmp_path, engine, """
        set l = piles of column
        for each k in piles of column:
            move top k of talon to column(k)
        set x = sum k in piles of column of count(column(k)) * k
        end game
    """)
    assert tuple(st.var("l")) == (1, 2, 3)
    assert st.var("x") == 1 * 1 + 2 * 2 + 3 * 3
    assert st.zone("column", 1) == ["As"] and st.zone("column", 3) == ["Ac", "Ks", "Kh"]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_choice_of_a_pile_that_no_pile_meets_is_a_rule_error(tmp_path, engine):
    with pytest.raises(RuleError, match="P0 must choose but has no legal choice"):
        start(tmp_path, engine, """
            for each k in piles of column:
                move top of talon to column(k) face up
            set x = 1
            top of players chooses a number k from piles of column where value(top of column(k)) > x:
                set x = k
            end game
        """)  # columns 1..3 hold A♠, A♥, A♦: no top is above an ace


@pytest.mark.parametrize("engine", ENGINES)
def test_the_pile_chosen_is_the_one_played(tmp_path, engine):
    st = start(tmp_path, engine, """
        move top 3 of talon to hand(top of players)
        for each k in piles of column:
            move top of talon to column(k) face up
        top of players chooses a number k from piles of column where value(top of column(k)) > 1 as "onto column {k}":
            move top of hand(top of players) to column(k)
            set x = k
        end game
    """)
    # the hand holds A♠ A♥ A♦ (A♦ on top); columns 1..3 hold A♣, K♠, K♥
    assert [a.label for a in st.legal_actions()] == ["onto column 2", "onto column 3"]
    st.apply("onto column 3")
    assert st.var("x") == 3 and st.zone("column", 3) == ["Kh", "Ad"]


ROW = 'game "t"\nplayers 2\ndeck standard\nzone stock: pile, hidden\nzone column: 3 piles, public\n' \
      'var x = 0\nround:\n{body}    end game\n'


def test_piles_of_something_not_a_family_and_a_range_of_no_numbers_are_errors(snapshot):
    found = diagnostics_of(ROW.format(body="    for each k in piles of stock:\n        add k to x\n"
                                           "    set x = count(piles of colum)\n"
                                           "    for each s in 1..hearts:\n        add 1 to x\n"))
    assert [d.split()[0] for d in found] == ["E043", "E043", "E012"]
    assert found == snapshot


def test_a_pile_chosen_from_the_family_is_known_to_be_open_where_an_any_says_so():
    body = ("    move top 3 of stock to column(2)\n"
            "    if any k in piles of column where count(column(k)) > 2:\n"
            "        top of players chooses a number k from piles of column where count(column(k)) > 2:\n"
            "            set x = k\n")
    assert diagnostics_of(ROW.format(body=body)) == []
    # with another `if`, the check cannot tell (W005); and a filter no pile meets is never open (E042)
    unsure = body.replace("    if any k in piles of column where count(column(k)) > 2:\n", "    if x == 0:\n")
    assert [d.split()[0] for d in diagnostics_of(ROW.format(body=unsure))] == ["W005"]
    never = "    move all cards to stock\n    top of players chooses a number k from piles of column where k > 3:\n        set x = k\n"
    assert [d.split()[0] for d in diagnostics_of(ROW.format(body=never))] == ["E042"]


def test_a_range_whose_end_a_seat_cannot_see_is_shown_by_a_variable():
    hidden = ('    move all cards to stock\n    shuffle stock\n    deal 1 from stock to hand(players)\n'
              '    set l = 1..value(top of hand(top of players))\n')
    decls = "order value: A 2 3 4 5 6 7 8 9 10 J Q K\nzone hand: per player, private\nvar l = [0]\n"
    src = ROW.format(body=hidden).replace("var x = 0\n", "var x = 0\n" + decls)
    assert [d.split()[0] for d in diagnostics_of(src)] == ["W001", "W004"]  # (and `x` is unused)


def test_completion_offers_piles_of_where_an_expression_goes():
    from cardlang.tools import analysis

    text = ROW.format(body="    for each k in \n")
    line = text.split("\n").index("    for each k in ") + 1
    got = [c.label for c in analysis.complete(analysis.analyse(text, "x.cards"), line, len("    for each k in ") + 1)]
    assert "piles of" in got and "position of" in got  # (read from the grammar's atoms)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_file_that_names_something_piles_keeps_working(tmp_path, engine):
    st = start(tmp_path, engine, """
        let piles = count(piles of column)
        for each k in 1..piles:
            add k to x
        end game
    """, decls="zone heap: pile, public\nper player var pile = 0\n")
    assert st.var("x") == 6
    assert diagnostics_of(ROW.format(body="    let piles = 2\n    set x = piles + count(piles of column)\n")) \
        == ["W001 4:6 zone `stock` is never used (remove the declaration, or use `stock` in the rules)"]
