"""The semantics of every statement and expression of docs/language.md, one tiny game per test.

Each test writes a game around a `round:` body (see `game`), stacks the deck or the random draws,
plays scripted choices and asserts the outcome, on each engine: the reference interpreter (the
definition) and the compiled one (`engine`, tests/conftest.py; every game here is loaded by `load`). Without a shuffle the talon holds the whole deck in
id order, bottom first: with the standard deck its top cards are A♠, A♥, A♦, A♣, K♠, …
"""

from __future__ import annotations

import json
import os
import textwrap

import pytest

import cardlang
import cardlang.runtime.engine
from cardlang import CardlangError, IllegalActionError, RuleError

PRELUDE = """\
game "Test"
players {players}
deck {deck}
zone talon: pile, hidden
zone hand: per player, private
zone table: pile, public
zone box: pile, hidden
"""


_ENGINE = {"name": "reference"}  # the engine of the test running: set by `_on_each_engine`


@pytest.fixture(autouse=True)
def _on_each_engine(engine):
    """Every test of this file runs once on each engine (the `engine` fixture's parameters)."""
    _ENGINE["name"] = engine
    yield
    _ENGINE["name"] = "reference"


def load(path, **kw):
    """`cardlang.load` on the engine of the test running."""
    return cardlang.load(path, engine=_ENGINE["name"], **kw)


def source(body: str, decls: str = "", phases: str = "", players: str = "2..6", deck: str = "standard") -> str:
    """A minimal game: the prelude's zones, `decls`, a `round:` made of `body`, then `phases`."""
    return (PRELUDE.format(players=players, deck=deck) + textwrap.dedent(decls) + "\nround:\n"
            + textwrap.indent(textwrap.dedent(body).strip("\n"), "    ") + "\n" + textwrap.dedent(phases))


def line_of(text: str, fragment: str) -> int:
    """The number of the first line of `text` that contains `fragment`."""
    return next(i for i, line in enumerate(text.split("\n"), 1) if fragment in line)


def write(tmp_path, text: str, name: str = "game.cards") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def game(tmp_path, body: str, decls: str = "", phases: str = "", n: int = 3, players: str = "2..6",
         deck: str = "standard", options=None):
    return load(write(tmp_path, source(body, decls, phases, players, deck)), players=n, options=options)


def run(tmp_path, body: str, decls: str = "", phases: str = "", n: int = 3, stack=None, draws=None, seed=0, **kw):
    """A new state of the game made of `body`, run to its first decision (or its end)."""
    g = game(tmp_path, body, decls, phases, n=n, **kw)
    return g.new_initial_state(seed=seed, stack=stack, draws=draws)


def labels(st) -> list:
    return [a.label for a in st.legal_actions()]


# ------------------------------------------------------------------ set, let, add, subtract
def test_set_a_variable_a_players_variable_and_a_list_item(tmp_path):
    st = run(tmp_path, """
        set x = 7
        set pts(seats[2]) = 4
        set xs[2] = 9
        end game
    """, "var x = 0\nvar xs = [1, 2, 3]\nper player var pts = 0\n")
    assert st.var("x") == 7
    assert st.var("pts") == [0, 4, 0]
    assert tuple(st.var("xs")) == (1, 9, 3)


def test_let_is_a_local_name_for_the_rest_of_the_block(tmp_path):
    st = run(tmp_path, """
        let a = 4
        let b = a * 10
        set x = a + b
        end game
    """, "var x = 0\n")
    assert st.var("x") == 44


def test_add_and_subtract_change_numbers_variables_players_and_list_items(tmp_path):
    st = run(tmp_path, """
        add 5 to x
        subtract 2 from x
        add 3 to pts(seats[3])
        subtract 1 from pts(seats[1])
        add 10 to xs[1]
        subtract 4 from xs[3]
        end game
    """, "var x = 1\nvar xs = [1, 2, 3]\nper player var pts = 5\n")
    assert st.var("x") == 4
    assert st.var("pts") == [4, 5, 8]
    assert tuple(st.var("xs")) == (11, 2, -1)


def test_list_items_count_from_one(tmp_path):
    st = run(tmp_path, """
        set first = xs[1]
        set last = xs[3]
        end game
    """, "var xs = [10, 20, 30]\nvar first = 0\nvar last = 0\n")
    assert (st.var("first"), st.var("last")) == (10, 30)


@pytest.mark.parametrize("index", [0, 4, -1])
def test_reading_a_list_item_out_of_range_is_a_rule_error(tmp_path, index):
    with pytest.raises(RuleError, match="item"):
        run(tmp_path, f"""
            set x = xs[k]
            end game
        """, f"var xs = [10, 20, 30]\nvar x = 0\nvar k = {index}\n")


@pytest.mark.parametrize("index", [0, 4, -1])
def test_setting_a_list_item_out_of_range_is_a_rule_error(tmp_path, index):
    with pytest.raises(RuleError, match="item"):
        run(tmp_path, f"""
            set xs[k] = 1
            end game
        """, f"var xs = [10, 20, 30]\nvar k = {index}\n")


@pytest.mark.parametrize("index", [0, 4, -1])
def test_adding_to_a_list_item_out_of_range_is_a_rule_error(tmp_path, index):
    with pytest.raises(RuleError, match="item"):
        run(tmp_path, f"""
            add 1 to xs[k]
            end game
        """, f"var xs = [10, 20, 30]\nvar k = {index}\n")


# ------------------------------------------------------------------ move
def test_move_puts_cards_on_top_and_under_puts_them_at_the_bottom(tmp_path):
    st = run(tmp_path, """
        move top of talon to box
        move top of talon to box
        move top of talon under box
        end game
    """)
    assert st.zone("box") == ["Ad", "As", "Ah"]  # bottom first: A♦ went under the two others
    assert st.zone("talon")[-1] == "Ac"


def test_move_a_whole_zone_or_a_list_of_cards(tmp_path):
    st = run(tmp_path, """
        move top 3 of talon to box
        move box to table
        move all cards to talon
        move [top of talon, bottom of talon] to box
        end game
    """)
    assert len(st.zone("table")) == 0 and len(st.zone("talon")) == 50
    assert sorted(st.zone("box")) == ["2c", "As"]


def test_a_card_moved_into_a_zone_becomes_known_to_those_the_zone_shows_it_to(tmp_path):
    st = run(tmp_path, """
        move top of talon to hand(seats[2])
        move top of talon to table
        move top of talon to box
        end game
    """)
    assert [st.knows(s, "As") for s in range(3)] == [False, True, False]  # P1's private hand
    assert [st.knows(s, "Ah") for s in range(3)] == [True, True, True]  # public
    assert [st.knows(s, "Ad") for s in range(3)] == [False, False, False]  # hidden


def test_a_card_stays_known_to_those_who_knew_it(tmp_path):
    st = run(tmp_path, """
        move top of talon to hand(seats[1])
        move top of hand(seats[1]) to hand(seats[2])
        move top of hand(seats[2]) to box
        end game
    """)
    assert [st.knows(s, "As") for s in range(3)] == [True, True, False]


def test_move_face_up_shows_the_card_to_everyone_and_logs_it(tmp_path):
    st = run(tmp_path, """
        move top of talon to box face up
        end game
    """)
    assert all(st.knows(s, "As") for s in range(3))
    assert any("A♠" in line for line in st.transcript(2))


def test_move_face_down_shows_it_to_nobody_new_even_on_a_public_zone(tmp_path):
    st = run(tmp_path, """
        move top of talon to hand(seats[1])
        move hand(seats[1]) to table face down
        move top of talon to table face down
        end game
    """)
    assert [st.knows(s, "As") for s in range(3)] == [True, False, False]
    assert not any(st.knows(s, "Ah") for s in range(3))


# ------------------------------------------------------------------ deal
def test_deal_gives_one_card_at_a_time_to_each_zone_in_order(tmp_path):
    st = run(tmp_path, """
        deal 2 from talon to hand(players)
        end game
    """)
    assert st.zone("hand", 0) == ["As", "Ac"]
    assert st.zone("hand", 1) == ["Ah", "Ks"]
    assert st.zone("hand", 2) == ["Ad", "Kh"]
    assert len(st.zone("talon")) == 46


def test_deal_follows_the_order_of_the_players_given(tmp_path):
    st = run(tmp_path, """
        deal 1 from talon to hand(players from seats[3])
        deal 1 from talon to table
        end game
    """)
    assert [st.zone("hand", s) for s in (2, 0, 1)] == [["As"], ["Ah"], ["Ad"]]
    assert st.zone("table") == ["Ac"]


def test_dealt_cards_are_known_to_their_zones_owner_or_to_all_face_up(tmp_path):
    st = run(tmp_path, """
        deal 1 from talon to hand(players)
        deal 1 from talon to hand(players) face up
        end game
    """)
    assert [st.knows(s, "As") for s in range(3)] == [True, False, False]
    assert all(st.knows(s, "Ac") for s in range(3))  # the first card of the face-up round


def test_deal_from_a_pile_that_runs_out_is_a_rule_error(tmp_path):
    with pytest.raises(RuleError, match="cannot deal"):
        run(tmp_path, """
            move top 5 of talon to box
            deal 2 from box to hand(players)
            end game
        """)


# ------------------------------------------------------------------ shuffle
def test_shuffle_honours_a_stacked_deck_top_first(tmp_path):
    st = run(tmp_path, """
        shuffle talon
        deal 1 from talon to hand(players)
        end game
    """, stack=["7h", "2c", "Qs"])
    assert [st.zone("hand", s) for s in range(3)] == [["7h"], ["2c"], ["Qs"]]


def test_shuffle_makes_the_cards_unknown_again(tmp_path):
    st = run(tmp_path, """
        move top 2 of talon to table
        move table to talon
        shuffle talon
        end game
    """)
    assert not any(st.knows(s, c) for s in range(3) for c in ("As", "Ah"))


def test_shuffling_a_public_zone_leaves_its_cards_shown(tmp_path):
    st = run(tmp_path, """
        move top 2 of talon to table
        shuffle table
        end game
    """)
    assert all(st.knows(s, c) for s in range(3) for c in ("As", "Ah"))


def test_shuffle_without_a_stack_depends_on_the_seed(tmp_path):
    g = game(tmp_path, """
        shuffle talon
        end game
    """)
    orders = {tuple(g.new_initial_state(seed=s).zone("talon")) for s in range(5)}
    assert len(orders) == 5
    assert g.new_initial_state(seed=3).zone("talon") == g.new_initial_state(seed=3).zone("talon")


# ------------------------------------------------------------------ swap
def test_swap_two_zones_exchanges_their_cards_and_both_owners_see_both(tmp_path):
    st = run(tmp_path, """
        move top of talon to hand(seats[1])
        move top 2 of talon to hand(seats[2])
        swap hand(seats[1]) with hand(seats[2])
        end game
    """)
    assert st.zone("hand", 0) == ["Ah", "Ad"] and st.zone("hand", 1) == ["As"]
    for card in ("As", "Ah", "Ad"):
        assert st.knows(0, card) and st.knows(1, card) and not st.knows(2, card)


def test_swap_two_cards_exchanges_their_places(tmp_path):
    st = run(tmp_path, """
        move top 2 of talon to hand(seats[1])
        move top of talon to box
        swap bottom of hand(seats[1]) with top of box
        end game
    """)
    assert st.zone("hand", 0) == ["Ad", "Ah"]  # A♦ took the bottom place of A♠
    assert st.zone("box") == ["As"]
    assert st.knows(0, "Ad")  # it came into P0's private hand
    assert st.knows(0, "As")  # he held it before
    assert not st.knows(1, "As") and not st.knows(1, "Ad")


def test_swap_with_a_public_zone_shows_the_card_to_all(tmp_path):
    st = run(tmp_path, """
        move top of talon to hand(seats[1])
        move top of talon to table
        swap top of hand(seats[1]) with top of table
        end game
    """)
    assert st.zone("table") == ["As"] and st.zone("hand", 0) == ["Ah"]
    assert all(st.knows(s, "As") for s in range(3))


# ------------------------------------------------------------------ reveal, hide
def test_reveal_shows_cards_to_all(tmp_path):
    st = run(tmp_path, """
        move top of talon to hand(seats[1])
        reveal hand(seats[1])
        end game
    """)
    assert all(st.knows(s, "As") for s in range(3))
    assert "P0 shows A♠" in st.transcript(2)


def test_reveal_to_shows_cards_only_to_those_players(tmp_path):
    st = run(tmp_path, """
        move top of talon to hand(seats[1])
        reveal hand(seats[1]) to seats[2]
        end game
    """)
    assert [st.knows(s, "As") for s in range(3)] == [True, True, False]
    assert "P0 shows A♠ to P1" in st.transcript(1)
    assert "P0 shows a card to P1" in st.transcript(2)


def test_hide_leaves_the_cards_known_only_to_those_their_zone_shows_them_to(tmp_path):
    st = run(tmp_path, """
        move top of talon to hand(seats[1])
        move top of talon to table
        move top of talon to box
        reveal [top of hand(seats[1]), top of table, top of box]
        hide [top of hand(seats[1]), top of table, top of box]
        end game
    """)
    assert [st.knows(s, "As") for s in range(3)] == [True, False, False]
    assert all(st.knows(s, "Ah") for s in range(3))
    assert not any(st.knows(s, "Ad") for s in range(3))


# ------------------------------------------------------------------ announce, says
def test_announce_interpolates_numbers_players_lists_suits_and_ranks(tmp_path):
    st = run(tmp_path, """
        announce "x is {x}, {x * 2 + 1} doubled plus one"
        announce "dealer {seats[2]}, all {players}, list {xs}, suit {suit(top of talon)}, rank {rank(top of talon)}"
        announce "braces {{ and }} stay"
        end game
    """, "var x = 5\nvar xs = [1, 3, 6]\n")
    lines = st.transcript()
    assert "x is 5, 11 doubled plus one" in lines
    assert "dealer P1, all P0, P1, P2, list 1, 3, 6, suit spades, rank A" in lines
    assert "braces { and } stay" in lines


def test_says_puts_the_speaker_before_the_text(tmp_path):
    st = run(tmp_path, """
        seats[3] says "hello {seats[1]}"
        end game
    """)
    assert "P2: hello P0" in st.transcript()


def test_says_by_a_player_that_is_none_reads_nobody(tmp_path):
    """The reference's reading: the compiled engine once left the speaker out (issue 32: the line
    is now one runtime function, `runtime/effects.announce`, both engines call)."""
    st = run(tmp_path, """
        who says "hello"
        end game
    """, "var who: player = none\n")
    assert "nobody: hello" in st.transcript()


def test_cards_in_texts_are_shown_only_to_the_seats_that_know_them(tmp_path):
    st = run(tmp_path, """
        move top of talon to hand(seats[2])
        announce "P1 holds {top of hand(seats[2])}"
        announce "P1's hand: {hand(seats[2])}"
        end game
    """)
    assert "P1 holds A♠" in st.transcript(1)
    assert "P1 holds A♠" in st.transcript()  # omniscient
    assert "P1 holds a card" in st.transcript(0)
    assert "P1's hand: a card" in st.transcript(2)


def test_a_card_in_a_text_is_shown_to_those_who_learn_it_in_the_same_step(tmp_path):
    st = run(tmp_path, """
        move top of talon to hand(seats[2])
        announce "P1 shows {top of hand(seats[2])}"
        reveal hand(seats[2])
        end game
    """)
    assert "P1 shows A♠" in st.transcript(0)


# ------------------------------------------------------------------ eliminate
def test_an_eliminated_player_is_skipped_by_players_and_neighbours(tmp_path):
    st = run(tmp_path, """
        eliminate seats[2]
        set left_in = players
        set everyone = seats
        set l = left of seats[1]
        set r = right of seats[3]
        set nx = next of seats[1]
        set n = count(players)
        end game
    """, "var left_in = [seats[1]]\nvar everyone = [seats[1]]\nvar l = seats[1]\nvar r = seats[1]\n"
         "var nx = seats[1]\nvar n = 0\n", n=4)
    assert tuple(st.var("left_in")) == (0, 2, 3)
    assert tuple(st.var("everyone")) == (0, 1, 2, 3)
    assert (st.var("l"), st.var("r"), st.var("nx"), st.var("n")) == (2, 0, 2, 3)
    assert st.active == [True, False, True, True]
    assert "P1 is eliminated" in st.transcript()


def test_an_eliminated_player_gets_no_deal(tmp_path):
    st = run(tmp_path, """
        eliminate seats[1]
        deal 1 from talon to hand(players)
        end game
    """)
    assert st.zone("hand", 0) == [] and st.zone("hand", 1) == ["As"] and st.zone("hand", 2) == ["Ah"]


# ------------------------------------------------------------------ end game, end round
def test_end_game_with_winners(tmp_path):
    st = run(tmp_path, """
        end game winners [seats[1], seats[3]]
    """)
    assert st.is_terminal() and st.winners() == (0, 2)
    assert st.returns() == [1.0, 0.0, 1.0]
    assert st.legal_actions() == [] and st.current_player == cardlang.TERMINAL


def test_end_game_with_one_winner_or_none(tmp_path):
    st = run(tmp_path, "end game winner seats[2]")
    assert st.winners() == (1,)
    st = run(tmp_path, "end game")
    assert st.is_terminal() and st.winners() == () and st.returns() == [0.0, 0.0, 0.0]


def test_end_game_stops_everything_after_it(tmp_path):
    st = run(tmp_path, """
        set x = 1
        end game
        set x = 2
    """, "var x = 0\n")
    assert st.var("x") == 1


def test_end_round_skips_the_rest_of_the_round_even_from_a_phase(tmp_path):
    st = run(tmp_path, """
        add 1 to rounds
        maybe_stop
        add 1 to after
        if rounds == 4:
            end game
    """, "var rounds = 0\nvar after = 0\n", phases="""
        phase maybe_stop:
            if rounds < 3:
                end round
    """)
    assert st.var("rounds") == 4 and st.var("after") == 2


def test_rounds_repeat_until_the_game_ends(tmp_path):
    st = run(tmp_path, """
        add 1 to rounds
        if rounds == 5:
            end game
    """, "var rounds = 0\n")
    assert st.var("rounds") == 5


def test_setup_runs_once_before_the_rounds(tmp_path):
    st = run(tmp_path, """
        add 1 to rounds
        if rounds == 3:
            end game
    """, "var rounds = 0\nvar started = 0\nsetup:\n    add 1 to started\n    set rounds = 10 * started - 10\n")
    assert st.var("started") == 1 and st.var("rounds") == 3


# ------------------------------------------------------------------ phases
def test_phases_run_where_they_are_named_with_their_parameters(tmp_path):
    st = run(tmp_path, """
        give(seats[2], 5)
        give(seats[3], 1)
        twice
        end game
    """, "per player var pts = 0\n", phases="""
        phase give(p, n: number):
            add n to pts(p)
        phase twice:
            give(seats[1], 2)
            give(seats[1], 2)
    """)
    assert st.var("pts") == [4, 5, 1]


# ------------------------------------------------------------------ control flow
@pytest.mark.parametrize("x, branch", [(1, "one"), (2, "two"), (3, "other")])
def test_if_elif_else_takes_the_first_branch_whose_condition_holds(tmp_path, x, branch):
    st = run(tmp_path, """
        if x == 1:
            announce "one"
        elif x == 2:
            announce "two"
        elif x >= 2:
            announce "other"
        else:
            announce "none"
        end game
    """, f"var x = {x}\n")
    assert [line for line in st.transcript() if line in ("one", "two", "other", "none")] == [branch]


def test_for_each_over_players_cards_and_numbers_with_where(tmp_path):
    st = run(tmp_path, """
        for each p in players where p != seats[2]:
            add 1 to pts(p)
        for each c in top 5 of talon where c is hearts or c is spades:
            move c to box
        for each k in [1, 2, 3, 4]:
            add k to x
        end game
    """, "per player var pts = 0\nvar x = 0\n")
    assert st.var("pts") == [1, 0, 1]
    assert st.zone("box") == ["As", "Ah", "Ks"]
    assert st.var("x") == 10


def test_for_each_goes_through_the_sequence_as_it_was_when_the_loop_started(tmp_path):
    st = run(tmp_path, """
        for each c in top 3 of talon:
            move c to box
            add 1 to x
        end game
    """, "var x = 0\n")
    assert st.var("x") == 3 and st.zone("box") == ["As", "Ah", "Ad"]


def test_repeat_n_times(tmp_path):
    st = run(tmp_path, """
        repeat k + 1 times:
            add 1 to x
        repeat 0 - 2 times:
            add 100 to x
        end game
    """, "var x = 0\nvar k = 3\n")
    assert st.var("x") == 4


def test_repeat_until_tests_before_each_pass(tmp_path):
    st = run(tmp_path, """
        repeat until x >= 3:
            add 1 to x
        repeat until y >= 3:
            add 1 to y
        end game
    """, "var x = 0\nvar y = 5\n")
    assert st.var("x") == 3 and st.var("y") == 5


def test_while_loops_while_its_condition_holds(tmp_path):
    st = run(tmp_path, """
        while count(talon) > 40:
            move top of talon to box
        while false or x > 0:
            add 1 to x
        end game
    """, "var x = 0\n")
    assert len(st.zone("talon")) == 40 and len(st.zone("box")) == 12 and st.var("x") == 0


# ------------------------------------------------------------------ chooses
CHOICE_DECLS = "var x = 0\nvar picked = 0\n"


def test_options_are_offered_when_their_condition_holds(tmp_path):
    st = run(tmp_path, """
        seats[2] chooses:
            "keep":
                set x = 1
            "double" if x > 0:
                set x = 2
            "change" if x == 0:
                set x = 3
        end game
    """, CHOICE_DECLS)
    assert st.current_player == 1
    assert labels(st) == ["keep", "change"]
    st.apply("change")
    assert st.is_terminal() and st.var("x") == 3
    assert "P1 chooses change" in st.transcript()


def test_a_card_from_a_zone_with_a_filter(tmp_path):
    st = run(tmp_path, """
        deal 4 from talon to hand(seats[1])
        seats[1] chooses:
            "skip":
                pass
            a card c from hand(seats[1]) where c is not hearts:
                move c to table
        end game
    """)
    assert labels(st) == ["skip", "A♠", "A♦", "A♣"]
    st.apply("A♦")
    assert st.zone("table") == ["Ad"] and st.is_terminal()


def test_a_number_from_a_range_with_a_filter_and_a_label(tmp_path):
    st = run(tmp_path, """
        seats[1] chooses a number n from 1 to k + 2 where n != 3 as "bid {n}":
            set picked = n * 10
        end game
    """, CHOICE_DECLS + "var k = 3\n")
    assert labels(st) == ["bid 1", "bid 2", "bid 4", "bid 5"]
    st.apply("bid 4")
    assert st.var("picked") == 40


def test_card_labels_interpolate_the_card(tmp_path):
    st = run(tmp_path, """
        deal 2 from talon to hand(seats[1])
        seats[1] chooses card c from hand(seats[1]) as "play {c} ({suit(c)})":
            move c to table
        end game
    """)
    assert labels(st) == ["play A♠ (spades)", "play A♥ (hearts)"]


def test_mixed_alternatives_and_stable_action_ids(tmp_path):
    st = run(tmp_path, """
        deal 2 from talon to hand(seats[2])
        seats[2] chooses:
            "pass":
                set x = 1
            a card c from hand(seats[2]):
                move c to table
                set x = 2
            a number n from 2 to 3:
                set x = n * 100
        end game
    """, CHOICE_DECLS)
    ids = st.legal_action_ids()
    as_, ah = st.game.card("As"), st.game.card("Ah")
    assert list(ids) == [0 << 16, 1 << 16 | as_, 1 << 16 | ah, 2 << 16 | 2, 2 << 16 | 3]
    assert [a.id for a in st.legal_actions()] == list(ids)
    assert labels(st) == ["pass", "A♠", "A♥", "2", "3"]
    other = st.clone()
    st.apply(2 << 16 | 3)
    assert st.var("x") == 300
    other.apply(1 << 16 | ah)
    assert other.var("x") == 2 and other.zone("table") == ["Ah"]


def test_a_single_alternative_on_the_chooses_line(tmp_path):
    st = run(tmp_path, """
        seats[1] chooses "go":
            set x = 5
        end game
    """, CHOICE_DECLS)
    assert labels(st) == ["go"]
    st.apply("go")
    assert st.var("x") == 5


def test_an_illegal_action_raises_and_leaves_the_state_unchanged(tmp_path):
    st = run(tmp_path, """
        seats[1] chooses:
            "keep":
                set x = 1
            "change" if false:
                set x = 2
        end game
    """, CHOICE_DECLS)
    def snapshot():
        return (json.dumps(st.observation(0)), st.legal_action_ids(), list(st.history), list(st.v),
                [list(z) for z in st.zones], list(st.known), st.pending, st.pc, len(st.transcript()))
    before = snapshot()
    for bad in ("change", "nonsense", 1 << 16, 5, "As", -1):
        with pytest.raises(IllegalActionError):
            st.apply(bad)
    assert snapshot() == before
    st.apply("keep")
    with pytest.raises(IllegalActionError):
        st.apply("keep")  # the game is over


def test_a_choice_with_no_legal_option_is_a_rule_error(tmp_path):
    with pytest.raises(RuleError, match="no legal choice"):
        run(tmp_path, """
            seats[1] chooses a card c from box:
                move c to table
            end game
        """)


def test_choices_follow_each_other_in_order(tmp_path):
    st = run(tmp_path, """
        for each p in players:
            p chooses a number n from 0 to 2:
                add n to pts(p)
        end game
    """, "per player var pts = 0\n")
    order = []
    while not st.is_terminal():
        order.append(st.current_player)
        st.apply(str(st.current_player))
    assert order == [0, 1, 2] and st.var("pts") == [0, 1, 2]
    assert st.history == [0, 1, 2]


# ------------------------------------------------------------------ aggregates
def test_any_count_select(tmp_path):
    st = run(tmp_path, """
        deal 3 from talon to hand(players)
        set has_king = any p in players where hand(p) has K
        set has_two = any p in players where hand(p) has 2
        set aces = count c in all cards where c is A
        set holders = select p in players where hand(p) has hearts
        end game
    """, "var has_king = false\nvar has_two = true\nvar aces = 0\nvar holders = [seats[1]]\n")
    # P0: A♠ A♣ K♦   P1: A♥ K♠ K♣   P2: A♦ K♥ Q♠
    assert st.var("has_king") is True and st.var("has_two") is False
    assert st.var("aces") == 4
    assert tuple(st.var("holders")) == (1, 2)


def test_sum_min_max_with_and_without_where(tmp_path):
    st = run(tmp_path, """
        set total = sum k in xs of k * 2
        set odd = sum k in xs of k where k % 2 == 1
        set low = min k in xs of 10 - k
        set high = max k in xs of k where k < 5
        end game
    """, "var xs = [1, 3, 6, 4]\nvar total = 0\nvar odd = 0\nvar low = 0\nvar high = 0\n")
    assert (st.var("total"), st.var("odd"), st.var("low"), st.var("high")) == (28, 4, 4, 4)


def test_min_over_nothing_is_a_rule_error(tmp_path):
    with pytest.raises(RuleError, match="over nothing"):
        run(tmp_path, """
            set x = min k in xs of k where k > 100
            end game
        """, "var xs = [1, 2]\nvar x = 0\n")


def test_highest_and_lowest_take_the_first_in_order_on_ties(tmp_path):
    st = run(tmp_path, """
        set best = highest p in players by pts(p)
        set worst = lowest p in players by pts(p)
        set best_odd = highest p in players by pts(p) where p != seats[2]
        end game
    """, "per player var pts = 0\nvar best = seats[1]\nvar worst = seats[1]\nvar best_odd = seats[1]\n"
         "setup:\n    set pts(seats[1]) = 1\n    set pts(seats[2]) = 5\n    set pts(seats[3]) = 1\n"
         "    set pts(seats[4]) = 5\n", n=4)
    assert (st.var("best"), st.var("worst"), st.var("best_odd")) == (1, 0, 3)


def test_an_aggregate_extends_as_far_right_as_it_can(tmp_path):
    st = run(tmp_path, """
        set a = count k in xs where k > 1 and k < 4
        set b = (count k in xs where k > 1) + 10
        end game
    """, "var xs = [1, 2, 3, 4]\nvar a = 0\nvar b = 0\n")
    assert (st.var("a"), st.var("b")) == (2, 13)


def test_builtins_count_min_max_abs_sum_any(tmp_path):
    st = run(tmp_path, """
        set a = count(xs) + count(players) + count(talon)
        set b = min(3, 0 - 2) + max(3, 7) + abs(0 - 5) + sum(xs)
        set c = any(box)
        set d = any(xs)
        end game
    """, "var xs = [1, 2, 3]\nvar a = 0\nvar b = 0\nvar c = true\nvar d = false\n")
    assert st.var("a") == 3 + 3 + 52
    assert st.var("b") == -2 + 7 + 5 + 6
    assert st.var("c") is False and st.var("d") is True


# ------------------------------------------------------------------ players and seats
PLAYER_VARS = "var ps = [seats[1]]\nvar q = seats[1]\n"


@pytest.mark.parametrize("expr, expected", [
    ("players", (0, 1, 2, 3)),
    ("players from seats[3]", (2, 3, 0, 1)),
    ("players from seats[2] to seats[4]", (1, 2, 3)),
    ("players from seats[4] to seats[2]", (3, 0, 1)),
    ("players from seats[2] to seats[2]", (1,)),
    ("players from left of seats[4]", (0, 1, 2, 3)),
    ("seats", (0, 1, 2, 3)),
    ("players except seats[2]", (0, 2, 3)),
    ("players except [seats[2], seats[4]]", (0, 2)),
    ("players from seats[2] except [seats[1]]", (1, 2, 3)),
    ("top 2 of players from seats[3]", (2, 3)),
])
def test_sequences_of_players(tmp_path, expr, expected):
    st = run(tmp_path, f"""
        set ps = {expr}
        end game
    """, PLAYER_VARS, n=4)
    assert tuple(st.var("ps")) == expected


def test_players_from_to_skips_eliminated_players_but_stops_at_the_end_seat(tmp_path):
    st = run(tmp_path, """
        eliminate seats[3]
        eliminate seats[1]
        set ps = players from seats[2] to seats[3]
        set q = top of players
        end game
    """, PLAYER_VARS, n=4)
    assert tuple(st.var("ps")) == (1,)
    assert st.var("q") == 1


def test_direction_right_turns_players_and_next_of_the_other_way(tmp_path):
    decls = "direction right\n" + PLAYER_VARS + "var l = seats[1]\nvar r = seats[1]\nvar nx = seats[1]\n"
    st = run(tmp_path, """
        set ps = players from seats[2]
        set l = left of seats[1]
        set r = right of seats[1]
        set nx = next of seats[1]
        end game
    """, decls, n=4)
    assert tuple(st.var("ps")) == (1, 0, 3, 2)
    assert (st.var("l"), st.var("r"), st.var("nx")) == (1, 3, 3)


def test_direction_in_the_rules_sets_the_way_play_goes_whatever_it_was(tmp_path):
    """`direction left|right` as a statement: play goes that way from now on (the declared way, or
    against it), whether or not `reverse direction` turned it; a line in the log when play turns."""
    st = run(tmp_path, """
        announce "next {next of seats[1]}, order {players}"
        reverse direction
        announce "next {next of seats[1]}, order {players}"
        direction left
        announce "next {next of seats[1]}, order {players}"
        direction right
        announce "next {next of seats[1]}, order {players}"
        direction right
        reverse direction
        announce "next {next of seats[1]}, order {players}"
        end game
    """, n=4)
    assert st.transcript()[:-1] == [
        "next P1, order P0, P1, P2, P3",
        "play now goes the other way",
        "next P3, order P0, P3, P2, P1",
        "play now goes left",  # (back to the declared way, `direction left` by default)
        "next P1, order P0, P1, P2, P3",
        "play now goes right",
        "next P3, order P0, P3, P2, P1",  # (`direction right` again: no turn, no line)
        "play now goes the other way",
        "next P1, order P0, P1, P2, P3",
    ]


def test_direction_at_the_start_of_each_hand_undoes_a_reversal_of_the_last():
    """tests/engine/direction_each_hand.cards: `direction left` opens each hand (as in Uno)."""
    g = load(os.path.join(os.path.dirname(__file__), "engine", "direction_each_hand.cards"), players=4)
    st = g.new_initial_state(seed=1)
    for move in ["pass", "reverse", "pass", "pass"]:  # the first hand: P1 turns play the other way
        st.apply(move)
    assert st.transcript()[-3:] == ["P3 chooses pass", "play now goes left", "P0 plays; then P1"]
    for move in ["pass", "right", "pass", "left"]:  # the second: against the declaration, then back
        st.apply(move)
    lines = st.transcript()
    assert lines[lines.index("P1 chooses right") + 1:] == [
        "play now goes right", "P0 plays; then P3", "P0 chooses pass", "P3 plays; then P2",
        "P3 chooses left", "play now goes left", "P0 plays; then P1"]


def test_random_takes_the_fixed_draws_then_the_seeded_generator(tmp_path):
    g = game(tmp_path, """
        set q = random(players)
        set k = random([4, 5, 6])
        end game
    """, PLAYER_VARS + "var k = 0\n", n=4)
    st = g.new_initial_state(draws=[2, 6])
    assert (st.var("q"), st.var("k")) == (2, 6)
    seen = {(g.new_initial_state(seed=s).var("q"), g.new_initial_state(seed=s).var("k")) for s in range(60)}
    assert {q for q, _ in seen} == {0, 1, 2, 3} and {k for _, k in seen} == {4, 5, 6}
    with pytest.raises(RuleError, match="fixed draw"):
        g.new_initial_state(draws=[7])


# ------------------------------------------------------------------ cards
def test_top_bottom_and_top_n_of_a_zone(tmp_path):
    st = run(tmp_path, """
        move top 3 of talon to box
        move bottom 2 of talon to table
        move top of talon to hand(seats[1])
        move bottom of talon to hand(seats[2])
        set c = top of box
        set d = bottom of box
        end game
    """, "var c: card = none\nvar d: card = none\n")
    assert st.zone("box") == ["As", "Ah", "Ad"]
    assert st.zone("table") == ["2c", "2d"]
    assert st.zone("hand", 0) == ["Ac"] and st.zone("hand", 1) == ["2h"]
    assert st.game.card_name(st.var("c")) == "Ad" and st.game.card_name(st.var("d")) == "As"


def test_top_of_an_empty_zone_is_none(tmp_path):
    st = run(tmp_path, """
        set found = top of box is none
        set missing = bottom of box is not none
        end game
    """, "var found = false\nvar missing = true\n")
    assert st.var("found") is True and st.var("missing") is False


def test_cards_plus_cards_and_except(tmp_path):
    st = run(tmp_path, """
        deal 2 from talon to hand(seats[1])
        deal 2 from talon to hand(seats[2])
        move hand(seats[1]) + hand(seats[2]) except top of hand(seats[2]) to box
        move top of talon + bottom of talon to table
        end game
    """)
    assert st.zone("box") == ["As", "Ah", "Ad"]
    assert st.zone("hand", 1) == ["Ac"]
    assert st.zone("table") == ["Ks", "2c"]


@pytest.mark.parametrize("test, expected", [
    ("top of talon is A", True),
    ("top of talon is K", False),
    ("top of talon is spades", True),
    ("top of talon is not hearts", True),
    ("bottom of talon is 2", True),
    ("bottom of talon is 10", False),
    ("rank(bottom of talon) is 2", True),
    ("suit(top of talon) is spades", True),
    ("suit(top of talon) == spades", True),
    ("rank(top of talon) == A", True),
    ("rank(top of talon) != K", True),
    ("talon has K", True),
    ("box has K", False),
    ("talon has 10", True),
    ("talon has hearts", True),
    ("talon has trump", True),
    ("box has trump", False),
    ("top of talon is trump", False),
    ("seats[1] is seats[1]", True),
    ("seats[1] is not seats[2]", True),
    ("top of box is none", True),
    ("top of talon in talon", True),
    ("top of talon in box", False),
    ("seats[2] in players from seats[2]", True),
    ("3 in [1, 2, 3]", True),
    ("not (4 in [1, 2, 3])", True),
])
def test_card_and_membership_tests(tmp_path, test, expected):
    st = run(tmp_path, f"""
        set out = {test}
        end game
    """, "var out = false\nvar trump: suit = hearts\n")
    assert st.var("out") is expected


def test_has_a_card(tmp_path):
    st = run(tmp_path, """
        let c = top of talon
        set here = talon has c
        move c to box
        set gone = talon has c
        end game
    """, "var here = false\nvar gone = true\n")
    assert st.var("here") is True and st.var("gone") is False


def test_has_a_rank_held_in_a_variable(tmp_path):
    st = run(tmp_path, """
        set r = rank(top of talon)
        move top 4 of talon to box
        set out = box has r and not (talon has r)
        end game
    """, "var r: rank = none\nvar out = false\n")
    assert st.var("out") is True


def test_a_deck_with_jokers_and_custom_ranks(tmp_path):
    st = run(tmp_path, """
        set n = count(talon)
        set jokers = count c in talon where suit(c) is none
        set sevens = count c in talon where c is 7
        end game
    """, "var n = 0\nvar jokers = 0\nvar sevens = 0\n", deck="ranks 7 8 9 suits hearts spades with 2 jokers")
    assert (st.var("n"), st.var("jokers"), st.var("sevens")) == (8, 2, 2)
    assert st.zone("talon")[:2] == ["7h", "7s"]


def test_the_deck_can_depend_on_the_player_count(tmp_path):
    for n, size in ((2, 32), (3, 32), (4, 52)):
        g = game(tmp_path, "end game", n=n, deck="piquet if player_count <= 3 else standard")
        assert g.deck.size == size


# ------------------------------------------------------------------ arithmetic, conditionals, define, orders
@pytest.mark.parametrize("expr, expected", [
    ("7 / 2", 3),
    ("7 % 3", 1),
    ("0 - 7 / 2", -3),
    ("-7 / 2", -4),  # integer division rounds down
    ("2 + 3 * 4", 14),
    ("(2 + 3) * 4", 20),
    ("10 - 4 - 3", 3),
    ("-2 * -3", 6),
    ("1 if 2 > 1 else 0", 1),
    ("1 if 2 < 1 else 5 if true else 6", 5),
    ("player_count * 10", 30),
    ("xs[2] + xs[count(xs)]", 9),
])
def test_arithmetic_and_conditional_expressions(tmp_path, expr, expected):
    st = run(tmp_path, f"""
        set out = {expr}
        end game
    """, "var out = 0\nvar xs = [1, 3, 6]\n")
    assert st.var("out") == expected


def test_division_by_zero_is_a_rule_error(tmp_path):
    with pytest.raises(RuleError, match="division by zero"):
        run(tmp_path, """
            set out = 5 % zero
            end game
        """, "var out = 0\nvar zero = 0\n")


def test_and_or_not(tmp_path):
    st = run(tmp_path, """
        set a = true and not false
        set b = false or x == 1
        set c = not x == 1 and true
        end game
    """, "var x = 1\nvar a = false\nvar b = false\nvar c = true\n")
    assert (st.var("a"), st.var("b"), st.var("c")) == (True, True, False)


def test_define_names_an_expression_with_parameters(tmp_path):
    st = run(tmp_path, """
        deal 1 from talon to hand(players)
        set out = points(seats[1]) + points(seats[3]) + twice(5)
        end game
    """, "var out = 0\norder value: 2 3 4 5 6 7 8 9 10 J Q K A\n"
         "define card(p) = top of hand(p)\ndefine points(p) = value(card(p))\ndefine twice(n: number) = n * 2\n")
    # P0 holds A♠ (13), P2 holds A♦ (13)
    assert st.var("out") == 13 + 13 + 10


def test_a_define_reads_global_names_not_the_locals_where_it_is_used(tmp_path):
    st = run(tmp_path, """
        let total = 99
        set out = current()
        for each k in [5]:
            set out2 = plus(1)
        end game
    """, "var total = 1\nvar k = 1000\nvar out = 0\nvar out2 = 0\n"
         "define current() = total\ndefine plus(n: number) = n + k\n")
    assert st.var("out") == 1
    assert st.var("out2") == 1001


def test_a_defines_parameter_is_the_argument_not_a_local_of_the_same_name(tmp_path):
    st = run(tmp_path, """
        let n = 7
        set out = twice(n + 1)
        end game
    """, "var out = 0\ndefine twice(n: number) = n * 2\n")
    assert st.var("out") == 16


def test_a_defines_argument_is_evaluated_once(tmp_path):
    g = game(tmp_path, """
        set out = twice(random([1, 2, 3, 4, 5, 6, 7, 8, 9]))
        set out2 = pair(top of talon)
        end game
    """, "var out = 0\nvar out2 = false\ndefine twice(n: number) = n + n\n"
         "define pair(c: card) = rank(c) == rank(c) and c is c\n")
    assert g.new_initial_state(draws=[4]).var("out") == 8
    assert all(g.new_initial_state(seed=s).var("out") % 2 == 0 for s in range(20))
    assert g.new_initial_state().var("out2") is True


def test_an_order_numbers_ranks_from_one_and_leaves_others_at_zero(tmp_path):
    st = run(tmp_path, """
        set a = value(top of talon)
        set b = value(bottom of talon)
        set c = value(top of box)
        move top 4 of talon to box
        set d = value(top of box)
        end game
    """, "order value: A 2 3 4 5 6 7 8 9 10 J Q K\norder court: J Q K\n"
         "var a = 0\nvar b = 0\nvar c = 0\nvar d = 0\n")
    assert (st.var("a"), st.var("b"), st.var("c"), st.var("d")) == (1, 2, 0, 1)


def test_an_order_ranks_with_highest(tmp_path):
    st = run(tmp_path, """
        deal 1 from talon to hand(players)
        set q = highest p in players by court(top of hand(p))
        end game
    """, "order court: A J Q K\nvar q = seats[1]\n")
    # P0 A♠ (1), P1 A♥ (1), P2 A♦ (1): a tie, the first in order wins
    assert st.var("q") == 0


# ------------------------------------------------------------------ options
OPTION_DECLS = 'option tokens = 5 in 1..20 "tokens each"\noption blind = false\n' \
               'option first = "draw" in {"draw", "random"}\nvar t = 0\nvar b = false\nvar f = 0\n'
OPTION_BODY = """
    set t = tokens
    set b = blind
    set f = 1 if first == "random" else 2
    end game
"""


def test_options_have_their_defaults(tmp_path):
    st = run(tmp_path, OPTION_BODY, OPTION_DECLS)
    assert (st.var("t"), st.var("b"), st.var("f")) == (5, False, 2)
    assert st.game.options == {"tokens": 5, "blind": False, "first": "draw"}


def test_options_given_as_text_are_converted(tmp_path):
    g = game(tmp_path, OPTION_BODY, OPTION_DECLS, options={"tokens": "12", "blind": "yes", "first": "random"})
    st = g.new_initial_state()
    assert (st.var("t"), st.var("b"), st.var("f")) == (12, True, 1)


@pytest.mark.parametrize("name, value, message", [
    ("tokens", "many", "whole number"),
    ("tokens", "21", "from 1 to 20"),
    ("tokens", 0, "from 1 to 20"),
    ("blind", "maybe", "true or false"),
    ("first", "last", "one of"),
    ("colour", "red", "no option"),
])
def test_bad_option_values_are_refused_with_a_message(tmp_path, name, value, message):
    with pytest.raises(CardlangError, match=message):
        game(tmp_path, OPTION_BODY, OPTION_DECLS, options={name: value})


def test_the_player_count_must_be_allowed(tmp_path):
    with pytest.raises(CardlangError, match="2 to 6 players"):
        game(tmp_path, "end game", n=7)
    assert game(tmp_path, "end game", n=None).players == 2


def test_set_on_the_command_line_converts_and_refuses_values(tmp_path):
    from click.testing import CliRunner

    from cardlang.cli import main

    path = write(tmp_path, source(OPTION_BODY, OPTION_DECLS))
    ok = CliRunner().invoke(main, ["simulate", path, "-n", "1", "--json", "--set", "tokens=7", "--set", "blind=on"])
    assert ok.exit_code == 0, ok.output
    assert json.loads(ok.output)["games"] == 1
    for setting, message in (("tokens=lots", "whole number"), ("tokens=0", "from 1 to 20"),
                             ("blind=maybe", "true or false"), ("colour=red", "no option")):
        bad = CliRunner().invoke(main, ["simulate", path, "-n", "1", "--set", setting])
        assert bad.exit_code == 2 and message in bad.output, (setting, bad.output)
    bad = CliRunner().invoke(main, ["simulate", path, "-n", "1", "--set", "tokens"])
    assert bad.exit_code == 2 and "NAME=VALUE" in bad.output


# ------------------------------------------------------------------ variants
BASE = source("""
    announce "base round"
    scoring
    end game
""", 'option bonus = 1 in 0..9\noption mode = "a" in {"a", "b"}\nvar x = 0\n', phases="""
    phase scoring:
        set x = bonus * 10
""")


def test_a_variant_changes_an_option_default_and_replaces_a_phase(tmp_path):
    write(tmp_path, BASE, "base.cards")
    path = write(tmp_path, textwrap.dedent("""\
        game "Variant"
        extends "base.cards"
        option bonus = 3 in 0..9
        phase scoring:
            set x = bonus * 100
    """), "variant.cards")
    g = load(path, players=2)
    assert g.title == "Variant" and g.options == {"bonus": 3, "mode": "a"}
    st = g.new_initial_state()
    assert st.var("x") == 300 and "base round" in st.transcript()
    base = load(str(tmp_path / "base.cards"), players=2).new_initial_state()
    assert base.var("x") == 10  # the base is unchanged


def test_a_variant_may_add_new_declarations_and_a_phase_it_plays(tmp_path):
    write(tmp_path, BASE, "base.cards")
    path = write(tmp_path, textwrap.dedent("""\
        game "Variant"
        extends "base.cards"
        var y = 0
        phase scoring:
            extra
            set x = 1
        phase extra:
            set y = 2
    """), "variant.cards")
    st = load(path, players=2).new_initial_state()
    assert (st.var("x"), st.var("y")) == (1, 2)


@pytest.mark.parametrize("decl, message", [
    ("option bonsu = 3 in 0..9", "option `bonsu`"),
    ("phase scorign:\n    set x = 1", "phase `scorign`"),
])
def test_a_variant_changing_what_its_base_does_not_have_is_E027(tmp_path, decl, message):
    write(tmp_path, BASE, "base.cards")
    path = write(tmp_path, 'game "Variant"\nextends "base.cards"\n' + decl + "\n", "variant.cards")
    symbols, diagnostics = cardlang.check_file(path)
    errors = [d for d in diagnostics if d.is_error]
    assert [d.code for d in errors] == ["E027"] and message in errors[0].message
    assert errors[0].span.file == path
    with pytest.raises(CardlangError, match="E027"):
        load(path, players=2)


def test_a_missing_base_is_E027(tmp_path):
    path = write(tmp_path, 'game "Variant"\nextends "nowhere.cards"\n', "variant.cards")
    _, diagnostics = cardlang.check_file(path)
    assert any(d.code == "E027" and "does not exist" in d.message for d in diagnostics)


def test_several_variants_of_one_base_merge_left_to_right(tmp_path):
    write(tmp_path, BASE, "base.cards")
    write(tmp_path, 'game "A"\nextends "base.cards"\noption bonus = 4 in 0..9\noption mode = "b" in {"a", "b"}\n',
          "a.cards")
    write(tmp_path, 'game "B"\nextends "base.cards"\noption bonus = 5 in 0..9\n'
                    'phase scoring:\n    set x = bonus + 1000\n', "b.cards")
    path = write(tmp_path, 'game "A and B"\nextends "a.cards", "b.cards"\n', "ab.cards")
    g = load(path, players=2)
    assert g.title == "A and B"
    assert g.options == {"bonus": 5, "mode": "b"}  # b's bonus wins over a's; a's mode stays
    assert g.new_initial_state().var("x") == 1005


# ------------------------------------------------------------------ loops that never end
def test_a_rule_that_loops_forever_stops_with_a_rule_error_after_the_step_budget(tmp_path, monkeypatch):
    monkeypatch.setattr(cardlang.runtime.engine, "STEP_BUDGET", 5_000)
    text = source("while x >= 0:\n    add 1 to x\nend game", "var x = 0\n")
    g = load(write(tmp_path, text), players=3)
    with pytest.raises(RuleError, match="5,000 steps") as info:
        g.new_initial_state()
    assert info.value.line in (line_of(text, "while x"), line_of(text, "add 1 to x"))
    assert str(info.value).startswith(f"{tmp_path / 'game.cards'}:{info.value.line}:{info.value.col}: rule error: ")


def test_a_loop_between_decisions_is_judged_per_run(tmp_path, monkeypatch):
    monkeypatch.setattr(cardlang.runtime.engine, "STEP_BUDGET", 5_000)
    st = run(tmp_path, """
        repeat 1000 times:
            add 1 to x
        seats[1] chooses "go":
            pass
        if x >= 4000:
            end game
    """, "var x = 0\n")
    for _ in range(4):
        st.apply("go")  # each run is under the budget, even if the game as a whole is not
    assert st.is_terminal() and st.var("x") == 4000


# ------------------------------------------------------------------ saving
def test_to_json_and_from_json_replay_a_game_exactly(tmp_path):
    g = game(tmp_path, """
        move all cards to talon
        shuffle talon
        deal 2 from talon to hand(players)
        set dealer = random(players)
        for each p in players from dealer:
            p chooses:
                "pass":
                    pass
                a card c from hand(p):
                    move c to table face up
        add 1 to rounds
        if rounds == 3:
            end game winner dealer
    """, "var dealer = seats[1]\nvar rounds = 0\n")
    st = g.new_initial_state(seed=11, stack=[["Qs", "Jh"], ["2c", "3c", "4c"]], draws=[2, 1])
    moves = 0
    while not st.is_terminal():
        legal = st.legal_actions()
        st.apply(legal[moves % len(legal)])
        moves += 1
    data = json.loads(json.dumps(st.to_json()))
    assert data["players"] == 3 and data["seed"] == 11 and data["actions"] == st.history
    again = cardlang.State.from_json(g, data)
    assert again.is_terminal() and again.winners() == st.winners()
    assert again.zones == st.zones and again.known == st.known and again.v == st.v
    assert again.transcript() == st.transcript()
    assert st.transcript()[0:1] and "2 cards" in " ".join(st.transcript())


def test_from_json_refuses_a_save_for_another_player_count(tmp_path):
    st = run(tmp_path, "end game")
    data = st.to_json()
    data["players"] = 5
    with pytest.raises(ValueError, match="5 players"):
        cardlang.State.from_json(st.game, data)


# ------------------------------------------------------------------ what texts show, and errors with their line
def test_texts_write_true_and_false_as_the_language_does(tmp_path):
    st = run(tmp_path, """
        announce "{x > 1} {flag} {not flag}"
        end game
    """, "var x = 5\nvar flag = false\n")
    assert "true false true" in st.transcript()


def test_a_text_shows_the_cards_of_several_zones(tmp_path):
    st = run(tmp_path, """
        deal 1 from talon to hand(players)
        announce "hands: {hand(players)}"
        end game
    """)
    assert "hands: A♠, A♥, A♦" in st.transcript()
    assert "hands: a card, A♥, a card" in st.transcript(1)


def test_top_a_negative_number_of_cards_is_a_rule_error(tmp_path):
    text = source("move top k of talon to box\nend game", "var k = 0 - 1\n")
    g = load(write(tmp_path, text), players=3)
    with pytest.raises(RuleError, match="cannot be negative") as info:
        g.new_initial_state()
    assert info.value.line == line_of(text, "move top k")
    assert str(info.value).startswith(f"{tmp_path / 'game.cards'}:{info.value.line}:")


def test_swapping_a_card_that_is_none_is_a_rule_error_with_its_line(tmp_path):
    text = source("swap top of box with top of talon\nend game")
    g = load(write(tmp_path, text), players=3)
    with pytest.raises(RuleError, match="`swap` needs two cards") as info:
        g.new_initial_state()
    assert info.value.line == line_of(text, "swap")
    assert str(info.value).startswith(f"{tmp_path / 'game.cards'}:{info.value.line}:")


def test_a_definition_that_uses_itself_is_a_diagnostic_not_a_crash(tmp_path):
    path = write(tmp_path, source("set out = f(3) + g(1)\nend game", "var out = 0\n"
                                  "define f(n: number) = f(n - 1) if n > 0 else 0\n"
                                  "define g(n: number) = h(n) + 1\ndefine h(n: number) = 2 * g(n)\n"))
    _, diagnostics = cardlang.check_file(path)
    cycles = [d for d in diagnostics if d.code == "E023"]
    text = open(path, encoding="utf-8").read()
    assert [(d.span.line, d.message) for d in cycles] == [
        (line_of(text, "define f"), "definition `f` uses itself (f → f)"),
        (line_of(text, "define g"), "definition `g` uses itself (g → h → g)")]
    with pytest.raises(CardlangError, match="E023"):
        load(path, players=3)


# ------------------------------------------------------------------ decisions in loops, what others see, scores
def test_a_choice_inside_a_loop_resumes_where_it_stopped(tmp_path):
    st = run(tmp_path, """
        deal 3 from talon to hand(seats[1])
        while count(hand(seats[1])) > 0:
            seats[1] chooses a card c from hand(seats[1]):
                move c to box
            add 1 to x
        end game
    """, "var x = 0\n")
    order = []
    while not st.is_terminal():
        order.append(labels(st))
        st.apply(st.legal_actions()[-1])
    assert order == [["A♠", "A♥", "A♦"], ["A♠", "A♥"], ["A♠"]]
    assert st.zone("box") == ["Ad", "Ah", "As"] and st.var("x") == 3


def test_the_log_of_a_card_chosen_in_secret_hides_it_from_the_others(tmp_path):
    st = run(tmp_path, """
        deal 2 from talon to hand(seats[1])
        seats[1] chooses a card c from hand(seats[1]):
            move c to box
        seats[2] chooses a card c from hand(seats[1]):
            move c to table
        end game
    """)
    st.apply("A♥")
    st.apply("A♠")
    assert "P0 chooses A♥" in st.transcript(0)
    assert "P0 chooses a card" in st.transcript(1)
    assert "P1 chooses A♠" in st.transcript(0)  # the card went to the public table
    assert "P1 chooses A♠" in st.transcript(2)


def test_an_observation_shows_only_the_cards_the_seat_knows(tmp_path):
    st = run(tmp_path, """
        deal 1 from talon to hand(players)
        move top of talon to table
        seats[1] chooses "go":
            end game
    """)
    obs = st.observation(1)
    assert obs["zones"]["hand"] == [[None], ["A♥"], [None]]
    assert obs["zones"]["table"] == ["A♣"] and obs["zones"]["talon"] == [None] * 48
    assert "legal_actions" not in obs and st.observation(0)["legal_actions"] == ["go"]


def test_score_of_each_seat(tmp_path):
    st = run(tmp_path, """
        add 2 to tokens(seats[2])
        end game winner seats[2]
    """, 'option tokens = 3 in 1..9\nper player var tokens = tokens\nscore of p: tokens(p) * 10\n')
    assert st.var("tokens") == [3, 5, 3]  # a per-player variable may share its option's name
    assert st.scores() == [30, 50, 30]
    assert st.returns() == [0.0, 1.0, 0.0]


def test_a_variants_hash_changes_when_its_base_file_changes(tmp_path):
    import hashlib
    import shutil

    from scenario import path as repo_path

    games = tmp_path / "games"
    examples = tmp_path / "examples"
    games.mkdir()
    examples.mkdir()
    shutil.copy(repo_path("games/ascenseur.cards"), games / "ascenseur.cards")
    shutil.copy(repo_path("examples/ascenseur_blind.cards"), examples / "ascenseur_blind.cards")
    (tmp_path / "cardlang.toml").write_text('root = "."\n')  # as the project's pyproject.toml: examples/ reach games/
    plain = load(str(games / "ascenseur.cards"), players=3)
    assert plain.source_hash == hashlib.sha256((games / "ascenseur.cards").read_bytes()).hexdigest()
    before = load(str(examples / "ascenseur_blind.cards"), players=3).source_hash
    with open(games / "ascenseur.cards", "a", encoding="utf-8") as f:
        f.write("\n# a comment changes the bytes\n")
    after = load(str(examples / "ascenseur_blind.cards"), players=3).source_hash
    assert before != after
