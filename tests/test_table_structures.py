"""Structures on the table (issue 28 item 4): a row of piles addressed as a family (`piles of column`,
a range `1..7` as a list, a choice of a pile of the family), the groups of melds (`melds(cards)`).
Each test writes a tiny game, stacks the deck, plays and asserts, on both engines. Without a shuffle
the talon holds the whole deck in id order, bottom first: its top cards are A♠, A♥, A♦, A♣, K♠, …
"""

from __future__ import annotations

import textwrap

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardlang
from cardlang import RuleError
from scenario import ENGINES
from test_melds_runtime import LOW_ORDER, STD, aces, hands, is_meld, rule, sequences

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


# ------------------------------------------------------------------ the groups of melds
MELDS = """\
values pips: A=1 2=2 3=3 4=4 5=5 6=6 7=7 8=8 9=9 10=10 J=10 Q=10 K=10
melds: sets 3, runs 3 in value, {ace}, deadwood pips
zone laid: per player, public
"""


def log(st, seat=None) -> list:
    return st.game.program.render_log(st, seat)


def lay(tmp_path, engine, cards: str, ace: str = "ace low", where: str = "laid"):
    """The log line of P0 laying the melds of `cards` (card literals) from `where`."""
    facing = " face up" if where == "laid" else ""
    moves = "\n".join(f"        move {c} to {where}(top of players){facing}" for c in cards.split(", "))
    st = start(tmp_path, engine, f"""
        {moves.strip()}
        announce "P0 lays {{melds({where}(top of players))}}"
        end game
    """, decls=MELDS.format(ace=ace))
    return st


@pytest.mark.parametrize("engine", ENGINES)
def test_the_melds_of_cards_read_as_groups_in_the_order_they_lie(tmp_path, engine):
    st = lay(tmp_path, engine, "7 of hearts, 4 of clubs, 7 of diamonds, K of diamonds, 6 of clubs, 7 of spades, 5 of clubs")
    assert log(st)[-2] == "P0 lays 7♥ 7♦ 7♠ | 4♣ 5♣ 6♣"  # the king is in no meld
    assert log(st, 1)[-2] == log(st)[-2]  # a public zone: every seat reads the cards


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("ace, cards, read", [
    ("ace low", "3 of spades, A of spades, 2 of spades, Q of spades", "A♠ 2♠ 3♠"),
    ("ace high", "K of hearts, A of hearts, Q of hearts, J of hearts", "J♥ Q♥ K♥ A♥"),
    ("ace around", "2 of clubs, K of clubs, A of clubs", "K♣ A♣ 2♣"),
    ("ace around", "8 of clubs, 9 of clubs", ""),
])
def test_a_run_reads_from_its_lowest_rank_up_past_the_ace_where_runs_wrap(tmp_path, engine, ace, cards, read):
    assert log(lay(tmp_path, engine, cards, ace))[-2] == f"P0 lays {read}"  # (no meld: an empty text)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_seat_reads_the_melds_of_cards_it_does_not_know_as_cards_it_does_not_know(tmp_path, engine):
    st = lay(tmp_path, engine, "7 of hearts, 7 of diamonds, 7 of spades", where="hand")
    assert log(st, 0)[-2] == "P0 lays 7♥ 7♦ 7♠"
    assert log(st, 1)[-2] == "P0 lays a card a card a card"  # the groups, not the cards


MELD_ROW = ('game "t"\nplayers 2\ndeck standard\n{melds}zone stock: pile, hidden\nvar x = ""\n'
            "round:\n    move all cards to stock\n    set x = {call}\n    end game\n")


def test_melds_needs_a_melds_declaration_and_cards(snapshot):
    found = diagnostics_of(MELD_ROW.format(melds="", call="melds(stock)"))
    found += diagnostics_of(MELD_ROW.format(melds="melds: sets 3\n", call="melds(3)"))
    found += diagnostics_of(MELD_ROW.format(melds="melds: sets 3\n", call="melds(stock, stock)"))
    assert [d.split()[0] for d in found] == ["E018", "E012", "E013"]
    assert found == snapshot


@pytest.mark.parametrize("engine", ENGINES)
def test_knock_rummy_shows_the_melds_laid_with_the_lay_offs_in_the_groups_they_extend(engine):
    from test_melds_games import RUMMY, choose, dealt
    from test_melds_games import start as deal

    knocker = "4s 5s 6s 8c 8d 8h Ac Ad 2c 9h".split()
    defender = "7s 3s 8s Kd Kc Kh Qd Jd 10d 2h".split()
    _, st = deal(RUMMY, 2, engine, dealt(knocker, defender, "Qc", "3h"), hands=1)
    choose(st, "draw from the stock")
    choose(st, "discard 9♥ and knock")
    # P0 lays 3♠ 7♠ 8♠ off onto the knocker's 4♠ 5♠ 6♠ and 8♣ 8♦ 8♥
    assert [line for line in st.transcript() if " lays " in line] == [
        "P1 lays 3♠ 4♠ 5♠ 6♠ 7♠ | 8♣ 8♦ 8♥ 8♠", "P0 lays K♦ K♣ K♥ | 10♦ J♦ Q♦"]


@settings(max_examples=200, deadline=None)
@given(hands, aces, st.booleans())
def test_the_groups_are_the_melded_cards_each_group_one_meld_reading_in_order(hand, ace, fast):
    r = rule(ace)
    r._fast = r._fast and fast  # both the packed path and the general one
    groups = r.groups(hand)
    flat = [c for g in groups for c in g]
    assert sorted(flat) == sorted(r.melded(hand))  # every melded card once, nothing else
    assert all(is_meld(g, ace, 3, 3) for g in groups)
    assert [min(hand.index(c) for c in g) for g in groups] == sorted(min(hand.index(c) for c in g) for g in groups)
    for g in groups:  # a run reads rank by rank up its sequence: each next rank follows the one before
        if len({STD.card_rank[c] for c in g}) > 1:
            seqs = sequences(ace, LOW_ORDER)
            assert any(all(seq.index(STD.card_rank[b]) == (seq.index(STD.card_rank[a]) + 1) % len(seq)
                           for a, b in zip(g, g[1:])) for seq, _ in seqs)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_file_that_declares_melds_keeps_its_own(tmp_path, engine):
    st = start(tmp_path, engine, """
        set x = melds(3)
        end game
    """, decls="define melds(n: number) = n * 2\n")
    assert st.var("x") == 6


def test_fmt_writes_the_structures_as_the_page_does_and_keeps_them():
    from cardlang.tools.fmt import format_source

    src = ROW.format(body="    for each k in piles  of column:\n        set x = count(1 .. k-1)\n"
                          "    set x = sum j in 1..count( piles of column ) of j\n")
    out = format_source(src)
    assert "    for each k in piles of column:\n        set x = count(1..k - 1)\n" in out
    assert "    set x = sum j in 1..count(piles of column) of j\n" in out
    assert format_source(out) == out
    assert diagnostics_of(out) == diagnostics_of(src)


# ------------------------------------------------------------------ attack and defence, as pairs of a row
ATTACK = "examples/attack_defence.cards"


def attack_game(engine, p0="6h 7h 8h 9h 10h Jh"):
    """P0 attacks first, holding `p0` (6♥ … J♥); P1 holds 7♣ 8♣ A♣ A♠ K♦ 6♠; the stock's bottom
    card, 10♦, makes diamonds trumps."""
    p0, p1 = p0.split(), "7c 8c Ac As Kd 6s".split()
    dealt = [c for two in zip(p0, p1) for c in two]
    deck = [r + s for r in "6 7 8 9 10 J Q K A".split() for s in "cdhs"]
    rest = [c for c in deck if c not in dealt and c != "10d"] + ["10d"]  # (the stock's bottom card last)
    st = cardlang.load(ATTACK, engine=engine).new_initial_state(seed=1, stack=dealt + rest)
    assert st.var("attacker") == 0 and st.zone("stock")[0] == "10d"
    return st


@pytest.mark.parametrize("engine", ENGINES)
def test_an_attack_is_beaten_on_its_own_pile_and_the_beaten_pairs_go_away(engine):
    st = attack_game(engine)
    st.apply("attack with 6♥")
    assert st.zone("table", 1) == ["6h"]
    # no heart in P1's hand: only the trump beats the 6♥
    assert [a.label for a in st.legal_actions()] == ["beat 6♥ with K♦", "take the table"]
    st.apply("beat 6♥ with K♦")
    assert st.zone("table", 1) == ["6h", "Kd"]  # the pair: the attack, and the card that beat it
    assert [a.label for a in st.legal_actions()] == ["stop"]  # P0 has no 6 and no K to add
    st.apply("stop")
    assert all(st.zone("table", k) == [] for k in range(1, 7)) and len(st.zone("discard")) == 2
    assert st.var("attacker") == 1 and len(st.zone("hand", 0)) == 6 and len(st.zone("hand", 1)) == 6


@pytest.mark.parametrize("engine", ENGINES)
def test_a_rank_on_the_table_joins_the_attack_on_the_next_pile_and_the_defender_may_take_them_all(engine):
    st = attack_game(engine, p0="6h 6c 8h 9h 10h Jh")
    st.apply("attack with 6♥")
    st.apply("beat 6♥ with K♦")
    assert [a.label for a in st.legal_actions()] == ["attack with 6♣", "stop"]  # a 6 is on the table
    st.apply("attack with 6♣")
    assert st.zone("table", 1) == ["6h", "Kd"] and st.zone("table", 2) == ["6c"]
    assert [a.label for a in st.legal_actions()] == ["beat 6♣ with 7♣", "beat 6♣ with 8♣", "beat 6♣ with A♣",
                                                      "take the table"]
    st.apply("take the table")  # the beaten pair too
    assert sorted(st.zone("hand", 1)) == sorted("7c 8c Ac As 6s 6h Kd 6c".split())
    assert st.var("attacker") == 0 and "P1 takes the table" in st.transcript()
    assert len(st.zone("hand", 0)) == 6 and st.zone("discard") == []
