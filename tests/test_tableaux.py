"""Tableau games (issue 16, family 6): numbered families of zones (`zone column: 3 piles, public`,
`column(k)`), `c is face up`, `position of c in z`, and a choice of a card with the pile it goes to.

Each test writes a tiny game, stacks the deck, plays and asserts, on both engines. Without a shuffle
the talon holds the whole deck in id order, bottom first: its top cards are A♠, A♥, A♦, A♣, K♠, …
"""

from __future__ import annotations

import random
import textwrap

import pytest

import cardlang
from cardlang import RuleError
from scenario import ENGINES, path, random_playout

PRELUDE = """\
game "Piles"
players 2
deck standard
zone talon: pile, hidden
zone column: 3 piles, public
zone hand: per player, private
var x = 0
var k = 1
"""


def start(tmp_path, engine, body: str, decls: str = "", **kw):
    """The state of a game whose round is `body`, at its first decision (or its end)."""
    text = PRELUDE + textwrap.dedent(decls) + "\nround:\n" + textwrap.indent(textwrap.dedent(body).strip("\n"), "    ")
    file = tmp_path / "piles.cards"
    file.write_text(text + "\n", encoding="utf-8")
    return cardlang.load(str(file), players=2, engine=engine).new_initial_state(seed=0, **kw)


@pytest.mark.parametrize("engine", ENGINES)
def test_each_pile_of_a_family_is_its_own_zone(tmp_path, engine):
    st = start(tmp_path, engine, """
        move top of talon to column(1)
        move top 2 of talon to column(3)
        set x = count(column(1)) * 100 + count(column(2)) * 10 + count(column(3))
        end game
    """)
    assert st.var("x") == 102
    assert st.zone("column", 1) == ["As"] and st.zone("column", 2) == [] and st.zone("column", 3) == ["Ah", "Ad"]
    assert st.observation(1)["zones"]["column"] == [["A♠"], [], ["A♥", "A♦"]]  # public: every pile, in order


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("pile", [0, 4, -1])
def test_a_pile_number_outside_the_family_is_a_rule_error(tmp_path, engine, pile):
    with pytest.raises(RuleError, match=rf"`column\({pile}\)`: `column` has piles 1 to 3"):
        start(tmp_path, engine, f"""
            set k = {pile}
            move top of talon to column(k)
            end game
        """)


@pytest.mark.parametrize("engine", ENGINES)
def test_face_up_means_every_seat_knows_the_card(tmp_path, engine):
    st = start(tmp_path, engine, """
        deal 1 from talon to hand(players)
        move top of talon to column(1) face down
        move top of talon to column(2)
        set x = 0
        if top of column(1) is face up:
            add 1 to x
        if top of column(2) is face up:
            add 10 to x
        if top of hand(players[1]) is face up:
            add 100 to x
        reveal top of column(1)
        if top of column(1) is face up:
            add 1000 to x
        if top of talon is face up:
            add 10000 to x
        end game
    """)
    assert st.var("x") == 1010  # a public pile's card and a revealed one; not a face-down, private or hidden one


@pytest.mark.parametrize("engine", ENGINES)
def test_position_counts_from_the_bottom_and_is_0_when_the_card_is_elsewhere(tmp_path, engine):
    st = start(tmp_path, engine, """
        move top 3 of talon to column(2)
        set x = position of bottom of column(2) in column(2) * 100 + position of top of column(2) in column(2) * 10
        add position of top of talon in column(2) to x
        add position of top of column(2) in top 2 of column(2) to x
        end game
    """)
    assert st.var("x") == 100 + 30 + 0 + 1  # (`top 2 of z` lists its top card first)


CHOICE = """
    deal 2 from talon to hand(players)
    move top of talon to column(1)
    players[1] chooses:
        a card c from hand(players[1]) and a pile k from column where k != 2:
            move c to column(k)
            set x = k
        "stop":
            pass
    end game
"""


@pytest.mark.parametrize("engine", ENGINES)
def test_a_card_and_a_pile_are_chosen_together_with_stable_labelled_ids(tmp_path, engine):
    # P0 holds A♠ and A♦ (dealt in turn: A♠ to P0, A♥ to P1, A♦ to P0); column(1) has A♣ face up
    st = start(tmp_path, engine, CHOICE)
    acts = [(a.id, a.label) for a in st.legal_actions()]
    spade, diamond = st.game.card("As"), st.game.card("Ad")
    assert acts == [(0 << 16 | spade, "A♠ to column(1)"), (0 << 16 | diamond, "A♦ to column(1)"),
                    (2 << 16 | spade, "A♠ to column(3)"), (2 << 16 | diamond, "A♦ to column(3)"),
                    (3 << 16, "stop")]
    st.apply("A♦ to column(3)")
    assert st.var("x") == 3 and st.zone("column", 3) == ["Ad"] and st.zone("hand", 0) == ["As"]
    assert "P0 chooses A♦ to column(3)" in st.transcript()


@pytest.mark.parametrize("engine", ENGINES)
def test_the_pile_number_is_a_constant_in_the_filter_and_the_label(tmp_path, engine):
    st = start(tmp_path, engine, """
        deal 1 from talon to hand(players)
        move top of talon to column(2)
        players[1] chooses:
            a card c from hand(players[1]) and a pile k from column where count(column(k)) == 0 as "{c} on empty {k}":
                set x = k * 10 + count(column(k))
            "stop":
                pass
        end game
    """)
    assert [a.label for a in st.legal_actions()] == ["A♠ on empty 1", "A♠ on empty 3", "stop"]
    st.apply("A♠ on empty 3")
    assert st.var("x") == 30


@pytest.mark.parametrize("engine", ENGINES)
def test_a_hidden_card_chosen_with_a_pile_is_named_by_its_place(tmp_path, engine):
    st = start(tmp_path, engine, """
        move top of talon to column(1)
        players[1] chooses:
            a card c from top of talon and a pile k from column where k == 2:
                move c to column(k)
            "stop":
                pass
        end game
    """)
    [label, _] = [a.label for a in st.legal_actions()]
    assert "A♥" not in label and label.endswith("to column(2)")  # the card stays secret, the pile is said


def test_the_example_game_plays_on_both_engines_to_the_same_end():
    for seed in range(20):
        ends = []
        for engine in ENGINES:
            st = cardlang.load(path("examples/columns.cards"), players=3, engine=engine).new_initial_state(seed=seed)
            n = random_playout(st, random.Random(seed))
            ends.append((n, st.winners(), st.transcript()))
        assert ends[0] == ends[1]
        assert ends[0][1]  # somebody wins: the first to empty a hand, or the fewest cards
