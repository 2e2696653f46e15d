"""Issue 15, items 5, 6, 11 and 13: zones as parameters, texts (joined, quoted inside `{…}`, a
definition without `()`), a text nested in a text keeps its cards, points by rank and lists
(of `none`, of suits, an item of a per-player list). Each test plays a tiny game on every engine.
"""

from __future__ import annotations

import textwrap

import pytest

import cardlang

from scenario import ENGINES

PRELUDE = """\
game "Test"
players 2..4
deck ranks 7 8 9 10 J Q K A W suits hearts spades
zone talon: pile, hidden
zone hand: per player, private
zone second: per player, private
zone table: pile, public
"""


def load(tmp_path, engine: str, body: str, decls: str = "", phases: str = "", n: int = 2):
    """The game made of the prelude, `decls`, a `round:` of `body`, then `phases`."""
    text = (PRELUDE + textwrap.dedent(decls) + "\nround:\n"
            + textwrap.indent(textwrap.dedent(body).strip("\n"), "    ") + "\n" + textwrap.dedent(phases))
    path = tmp_path / "game.cards"
    path.write_text(text, encoding="utf-8")
    return cardlang.load(str(path), players=n, engine=engine)


def start(tmp_path, engine, body, decls="", phases="", n=2, stack=None):
    return load(tmp_path, engine, body, decls, phases, n).new_initial_state(seed=0, stack=stack)


def labels(st) -> list:
    return [a.label for a in st.legal_actions()]


def log(st, seat=None) -> list:
    return st.game.program.render_log(st, seat)


# ------------------------------------------------------------ 11: a text nested in a text
NAME = 'define name(c: card) = "Wild" if c is W else "{c}"\n'


@pytest.mark.parametrize("engine", ENGINES)
def test_a_text_from_a_definition_keeps_its_card_in_a_label_and_an_announcement(tmp_path, engine):
    st = start(tmp_path, engine, """
        shuffle talon
        deal 2 from talon to hand(players)
        top of players chooses a card c from hand(top of players) as "play {name(c)}":
            move c to table face up
            announce "{top of players} played {name(c)}, {name(top of hand(top of players))} is left"
        end game
    """, NAME, stack=["W♠", "A♠", "7♥", "K♥"])
    assert labels(st) == ["play Wild", "play 7♥"]
    st.apply("play 7♥")
    assert log(st)[-2] == "P0 played 7♥, Wild is left"
    assert log(st, 1)[-2] == "P0 played 7♥, Wild is left"
    st2 = start(tmp_path, engine, """
        shuffle talon
        deal 2 from talon to hand(players)
        top of players chooses a card c from hand(top of players) as "play {name(c)}":
            move c to table face up
            announce "{top of players} played {name(c)}, {name(top of hand(top of players))} is left"
        end game
    """, NAME, stack=["7♠", "A♠", "K♥", "Q♥"])
    st2.apply("play K♥")
    # the card of the inner text shows to those who know it, like any card of a text
    assert log(st2)[-2] == "P0 played K♥, 7♠ is left"
    assert log(st2, 0)[-2] == "P0 played K♥, 7♠ is left"
    assert log(st2, 1)[-2] == "P0 played K♥, a card is left"  # P1 does not know P0's card


@pytest.mark.parametrize("engine", ENGINES)
def test_a_text_variable_keeps_its_cards_and_shows_them_to_who_knows_them(tmp_path, engine):
    st = start(tmp_path, engine, """
        shuffle talon
        deal 1 from talon to hand(players)
        set said = "{top of hand(top of players)} and {count(table)}"
        announce "said: {said}"
        top of players chooses:
            "stop":
                end game
    """, 'var said = ""\n', stack=["Q♠", "J♥"])
    assert log(st)[-1] == "said: Q♠ and 0"
    assert log(st, 1)[-1] == "said: a card and 0"
    assert st.observation(0)["variables"]["said"] == "Q♠ and 0"
    assert st.observation(1)["variables"]["said"] == "hidden and 0"


# ------------------------------------------------------------------------- 6: texts
@pytest.mark.parametrize("engine", ENGINES)
def test_texts_join_with_plus_and_a_part_may_quote_a_text(tmp_path, engine):
    st = start(tmp_path, engine, """
        shuffle talon
        deal 2 from talon to hand(players)
        announce "{soft}; {best}; {best()}; {"quoted"}; {"a {{brace}} " + "{total}"}"
        announce "{"Wild" if top of hand(top of players) is W else "{top of hand(top of players)}"}!"
        top of players chooses a card c from hand(top of players) as "{"play " + name(c)}":
            end game
    """, textwrap.dedent("""
        define total = count(hand(top of players))
        define soft = "soft " + "{total}" + "{" and more"}"
        define best() = "{"Wild" if total > 5 else "tame"}"
    """) + NAME, stack=["Q♠", "J♥", "W♥", "7♠"])
    assert log(st)[-2:] == ["soft 2 and more; tame; tame; quoted; a {brace} 2", "Wild!"]
    assert log(st, 1)[-1] == "Wild!"  # the text says it, whether P1 knows the card or not
    assert labels(st) == ["play Q♠", "play Wild"]


def check_codes(tmp_path, decls: str, body: str) -> list:
    """The codes of the errors `cardlang check` reports for a game."""
    from cardlang.load import check_file

    path = tmp_path / "bad.cards"
    path.write_text(PRELUDE + textwrap.dedent(decls) + "\nround:\n"
                    + textwrap.indent(textwrap.dedent(body).strip("\n"), "    ") + "\n    end game\n")
    return [(d.code, d.message) for d in check_file(str(path))[1] if d.is_error]


def test_a_text_joins_only_a_text_with_one_error(tmp_path):
    errors = check_codes(tmp_path, "var t = \"a\" + 3\n", 'announce "{t}"')
    assert errors == [("E012", "what `+` joins to a text must be a text, but this is a number")]


# ------------------------------------------------------------- 5: zones as parameters
@pytest.mark.parametrize("engine", ENGINES)
def test_a_zone_given_where_cards_are_wanted_is_its_cards(tmp_path, engine):
    st = start(tmp_path, engine, """
        let me = top of players
        let you = next of me
        shuffle talon
        deal 3 from talon to hand(players)
        move top of talon to second(me)
        announce "{n(hand(me))} {high(hand(me))} {high(second(me) + hand(you))} {n(table)}"
        set kept = hand(you)
        announce "{n(kept)} {n(top of hand(you) if true else second(me))}"
        me chooses:
            "stop":
                end game
    """, """
        order value: 7 8 9 10 J Q K A W
        var kept: cards = table
        define n(z: cards) = count(z)
        define high(z: cards) = sum c in z of value(c) where value(c) > 4
    """, stack=["A♠", "7♥", "K♠", "8♥", "9♠", "10♥", "J♠"])
    # P0: A♠ K♠ 9♠ (8 + 7 + 0), P1: 7♥ 8♥ 10♥ (0), second(me): J♠ (5)
    assert log(st)[-2:] == ["3 15 5 0", "3 1"]


@pytest.mark.parametrize("engine", ENGINES)
def test_one_phase_plays_either_hand_given_as_a_zone(tmp_path, engine):
    st = start(tmp_path, engine, """
        let me = top of players
        shuffle talon
        deal 2 from talon to hand(players)
        deal 2 from talon to second(me)
        play_hand(me, hand(me))
        play_hand(me, second(me))
        end game
    """, phases="""
        phase play_hand(p, z: zone):
            p chooses a card c from z:
                move c to table
            move top of z to table
            announce "{p} played {count(z)} left, {count(table)} on the table"
    """, stack=["A♠", "7♥", "K♠", "8♥", "9♠", "10♥"])
    assert labels(st) == ["A♠", "K♠"]
    st.apply("K♠")
    assert log(st)[-1] == "P0 played 0 left, 2 on the table"
    assert labels(st) == ["9♠", "10♥"]
    st.apply("9♠")
    assert log(st)[-2] == "P0 played 0 left, 4 on the table"
    assert [len(z) for z in st.zones] == [12, 0, 2, 0, 0, 4]  # talon, hand(0), hand(1), second(0), second(1), table


# ---------------------------------------------------------- 13: tables by rank, lists
@pytest.mark.parametrize("engine", ENGINES)
def test_a_points_table_gives_each_card_the_points_of_its_rank(tmp_path, engine):
    st = start(tmp_path, engine, """
        shuffle talon
        deal 3 from talon to hand(players)
        let me = top of players
        announce "{sum c in hand(me) of worth(c)} {worth(top of hand(me))} {worth(top of table)}"
        add worth(top of hand(me)) to total
        me chooses a card c from hand(me) as "{c} for {worth(c)}":
            end game
    """, """
        points worth: J 20, 9 14, A 11, 10 10, K 4, Q 3, 7 -1
        var total = 0
    """, stack=["J♠", "7♥", "8♠", "9♥", "W♠", "Q♥"])
    # P0 holds J♠ 8♠ W♠: 20 + 0 + 0; none (an empty table's top) is worth 0
    assert log(st)[-1] == "20 0 0"
    assert labels(st) == ["J♠ for 20", "8♠ for 0", "W♠ for 0"]
    assert st.observation(0)["variables"]["total"] == 0


@pytest.mark.parametrize("engine", ENGINES)
def test_a_players_list_of_suits_starts_as_none_has_items_set_and_prints_by_name(tmp_path, engine):
    st = start(tmp_path, engine, """
        for each p in players:
            set told(p)[2] = hearts
            set heard(p)[1] = Q
        set told(next of top of players)[3] = spades
        add 5 to counts(top of players)[2]
        let me = top of players
        announce "{me} was told {told(me)}, then {told(next of me)}; {told(me)[2]} {heard(me)} {counts(me)}"
        me chooses a number n from 1 to 3 as "ask {told(next of me)[n]}":
            end game
    """, """
        per player var told: suits = [none, none, none]
        per player var heard: ranks = [none, K]
        per player var counts = [1, 2]
    """)
    assert log(st)[-1] == "P0 was told none, hearts, none, then none, hearts, spades; hearts Q, K 1, 7"
    assert labels(st) == ["ask none", "ask hearts", "ask spades"]
    assert st.observation(1)["player_variables"]["told"] == [[None, "hearts", None], [None, "hearts", "spades"]]


@pytest.mark.parametrize("engine", ENGINES)
def test_an_item_of_a_players_list_out_of_range_is_a_rule_error(tmp_path, engine):
    with pytest.raises(cardlang.RuleError, match=r"item 4 of a list of 3"):
        start(tmp_path, engine, """
            set told(top of players)[4] = hearts
            end game
        """, "per player var told: suits = [none, none, none]\n")


@pytest.mark.parametrize("decls, body, expected", [
    ("var t = [none, none]\n", 'announce "{t}"',
     [("E012", "the type of `t` cannot be told from a list of `none`")]),
    ("var t: list = [none, none]\n", 'announce "{t}"',
     [("E012", "`t` is declared a list but starts as a list of none")]),
    ("per player var t: suits = [none]\n", "set t(top of players)[1] = 3",
     [("E012", "`t` holds a suit, not a number")]),
    ("per player var t = 3\n", "set t(top of players)[1] = 3",
     [("E012", "`t(…)` is not a list; only list items can be set with `[…]`")]),
    ("var t = [1]\n", "set t(top of players)[1] = 3", [("E028", "`t` is a variable, not a per-player or per-team variable")]),
    ("points w: J 2, J 3, X 1\n", 'announce "{w(top of talon)}"',
     [("E021", "rank `J` is given points twice in `w`"), ("E021", "`X` is not a rank of the deck")]),
    ("points w: J 2\n", 'announce "{w(talon)} {w}"',
     [("E012", "the card `w` gives points to must be a card, but this is a zone"),
      ("E012", "`w` is a points table, not a value")]),
])
def test_misused_lists_and_points_tables_are_reported(tmp_path, decls, body, expected):
    assert check_codes(tmp_path, decls, body) == expected


def test_a_local_list_of_none_says_it_needs_a_declared_type(tmp_path):
    errors = check_codes(tmp_path, "", 'let told = [none, none]\nannounce "{told}"')
    assert errors == [("E012", "the type of `told` cannot be told from a list of `none`")]


def test_a_bad_part_of_a_text_quoted_inside_a_text_is_reported_where_it_stands():
    from cardlang.lang.parse import parse

    source = 'var t = "{"a{1 +}b"}"\n'
    _, (problem,) = parse(source)
    assert (problem.code, problem.message) == ("E001", "`{1 +}` in a text is not an expression")
    assert source[problem.span.column - 1 : problem.span.end_column - 1] == "1 +"
