"""Shoes, copies, named suitless cards, suits' short names and card literals (docs/language.md,
"Decks" and "Card literals"): each test writes a tiny game, stacks the deck, plays and asserts.

Every scenario runs on both engines: the reference interpreter, which defines what a game does,
and the emitted one (the decks are built by the layout both share).
"""

from __future__ import annotations

import random
import textwrap
from collections import Counter

import pytest

import cardlang
from cardlang import CardlangError
from cardlang.lang.parse import parse

from scenario import ENGINES, path as repo_path


def source(body: str, deck: str = "standard", decls: str = "") -> str:
    return ('game "Test"\nplayers 2..4\ndeck ' + deck + "\nzone talon: pile, hidden\nzone hand: per player, private\n"
            "zone table: pile, public\n" + textwrap.dedent(decls) + "\nround:\n"
            + textwrap.indent(textwrap.dedent(body).strip("\n"), "    ") + "\n")


def load(tmp_path, body: str, deck: str = "standard", decls: str = "", n: int = 2, engine: str = "reference"):
    p = tmp_path / "game.cards"
    p.write_text(source(body, deck, decls), encoding="utf-8")
    return cardlang.load(str(p), players=n, engine=engine)


def check_codes(tmp_path, body: str, deck: str = "standard", decls: str = "") -> list:
    with pytest.raises(CardlangError) as e:
        load(tmp_path, body, deck, decls)
    return [(d.code, d.message) for d in e.value.diagnostics if d.is_error]


CHOOSE = """
p_chooses a card c from hand(top of players):
    move c to table
end game
""".replace("p_chooses", "top of players chooses")


# ------------------------------------------------------------------------------------ shoes
@pytest.mark.parametrize("engine", ENGINES)
def test_a_shoe_of_six_decks_has_six_cards_of_each_face_each_with_its_own_id_and_name(tmp_path, engine):
    g = load(tmp_path, "shuffle talon\ndeal 2 from talon to hand(players)\n" + CHOOSE,
             deck="standard with 6 decks", engine=engine)
    assert g.deck.size == 312
    assert Counter(g.deck.face_name(c) for c in range(312)) == Counter({g.deck.face_name(c): 6 for c in range(52)})
    spades = [g.card("As")] + [g.card(f"As#{k}") for k in range(2, 7)]
    assert len(set(spades)) == 6 and [g.card_name(c) for c in spades] == ["As"] + [f"As#{k}" for k in range(2, 7)]
    # a stack names a face again for its next copy: P0 gets two aces of spades, P1 two more
    st = g.new_initial_state(stack=["As", "As", "As", "As"])
    assert st.zone("hand", 0) == ["As", "As#3"] and st.zone("hand", 1) == ["As#2", "As#4"]
    # the two copies in P0's hand are two choices whose labels tell them apart; the log shows the face
    assert [a.label for a in st.legal_actions()] == ["A♠", "A♠#3"]
    st.apply("A♠#3")
    assert st.zone("table") == ["As#3"] and st.zone("hand", 0) == ["As"]
    assert st.transcript()[-2] == "P0 chooses A♠"


def test_a_stack_that_lists_a_card_more_often_than_the_deck_has_it_is_refused(tmp_path):
    g = load(tmp_path, "shuffle talon\n" + CHOOSE.replace("hand(top of players)", "talon"))
    with pytest.raises(ValueError, match=r"stacked deck: As is there twice \(card 3\)"):
        g.new_initial_state(stack=["As", "Kd", "As"])
    with pytest.raises(ValueError, match=r"Kd is there twice \(card 2\), shuffle 2"):
        g.new_initial_state(stack=[["As"], [g.card("Kd"), "Kd"]])
    shoe = load(tmp_path, "shuffle talon\n" + CHOOSE.replace("hand(top of players)", "talon"), deck="standard with 2 decks")
    with pytest.raises(ValueError, match=r"`7h` is there 3 times, and the deck has 2 of it \(card 3\)"):
        shoe.new_initial_state(stack=["7h", "7h#2", "7h"])
    with pytest.raises(ValueError, match="7h#2 is there twice"):
        shoe.new_initial_state(stack=["7h#2", "7h#2"])
    st = shoe.new_initial_state(stack=["7h#2", "7h"])  # the bare name takes the copy not listed yet
    assert shoe.deck.name_of(st.zones[0][-1]) == "7h#2" and shoe.deck.name_of(st.zones[0][-2]) == "7h"


def test_a_save_whose_stack_lists_a_copy_twice_is_refused_and_one_naming_both_copies_is_not(tmp_path):
    from cardlang.play.savegame import SaveError, load_saved, save_data, write_save

    p = tmp_path / "shoe.cards"
    p.write_text(source("shuffle talon\n" + CHOOSE.replace("hand(top of players)", "talon"), "standard with 2 decks"))
    g = cardlang.load(str(p), players=2)
    save = tmp_path / "g.save.json"
    write_save(str(save), save_data(g.new_initial_state(seed=3, stack=["Qs", "Qs"]), save_path=str(save)))
    _, st, data = load_saved(str(save))
    assert data.stack == [["Qs", "Qs"]] and st.zone("talon")[-2:] == ["Qs#2", "Qs"]
    write_save(str(save), save_data(g.new_initial_state(seed=3, stack=["Qs#2", "Qs"]), save_path=str(save)))
    text = save.read_text().replace('"Qs#2", "Qs"', '"Qs#2", "Qs", "Qs"')
    assert '"Qs", "Qs"' in text
    save.write_text(text)
    with pytest.raises(SaveError, match=r"`Qs` is there 3 times, and the deck has 2 of it \(shuffle 1, card 3\)"):
        load_saved(str(save))


# --------------------------------------------------------------- copies and suitless cards
COLOURS = "ranks 0 1 2 Skip suits red blue with 2 copies, 1 copy of 0, 4 Wild, 2 WildFour \"Wild Draw Four\""


@pytest.mark.parametrize("engine", ENGINES)
def test_copies_per_rank_and_named_suitless_cards(tmp_path, engine):
    g = load(tmp_path, textwrap.dedent("""
        set wilds = count c in all cards where c is Wild
        set zeros = count c in all cards where c is 0
        set ones = count c in all cards where c is 1 and suit(c) == red
        set suitless = count c in all cards where suit(c) is none
        set fours = count c in all cards where rank(c) == WildFour
        """) + CHOOSE.replace("hand(top of players)", "talon"),
             deck=COLOURS, decls="var wilds = 0\nvar zeros = 0\nvar ones = 0\nvar suitless = 0\nvar fours = 0\n",
             engine=engine)
    assert g.deck.size == 2 + 2 * 3 * 2 + 4 + 2
    st = g.new_initial_state()
    assert [st.var(v) for v in ("wilds", "zeros", "ones", "suitless", "fours")] == [4, 2, 2, 6, 2]
    names = [g.card_name(c) for c in range(g.deck.size)]
    assert names[:4] == ["0r", "0b", "1r", "1r#2"] and names[-6:] == ["Wild", "Wild#2", "Wild#3", "Wild#4",
                                                                      "WildFour", "WildFour#2"]
    assert g.deck.label_of(g.card("WildFour#2")) == "Wild Draw Four"
    assert g.deck.label_of(g.card("WildFour#2"), copy=True) == "Wild Draw Four#2"


@pytest.mark.parametrize("engine", ENGINES)
def test_every_copy_is_in_exactly_one_place_through_a_random_game(engine):
    g = cardlang.load(repo_path("examples/colour_match.cards"), players=3, engine=engine)
    faces = Counter(g.deck.face_name(c) for c in range(g.deck.size))
    assert faces["Wild"] == 4 and faces["0r"] == 1 and faces["5r"] == 2 and g.deck.size == 96
    rng = random.Random(5)
    st = g.new_initial_state(seed=5)
    while not st.is_terminal():
        held = [c for z in st.zones for c in z]
        assert sorted(held) == list(range(g.deck.size))  # each card once, none lost, none doubled
        assert Counter(g.deck.face_name(c) for c in held) == faces
        legal = st.legal_action_ids()
        st.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("engine", ENGINES)
def test_colour_match_a_wild_names_the_colour_and_a_draw_two_skips_the_next_player(engine):
    g = cardlang.load(repo_path("examples/colour_match.cards"), players=3, engine=engine,
                      options={"hand_size": 3})
    # P1 starts (the draw); deal: P1, P2, P0 in turn, top of the stack first; then the pile's first card
    stack = ["Wild", "3b", "4b", "DrawTwo g", "5y", "6y", "7y", "8y", "9y", "2r", "1g", "9g", "9b"]
    stack[3] = "DrawTwog"
    st = g.new_initial_state(stack=stack, draws=[1])
    assert st.zone("hand", 1) == ["Wild", "DrawTwog", "7y"] and st.zone("discard") == ["2r"]
    assert st.var("colour") == g.deck.suits.index("red")
    st.apply("play Wild card")
    assert [a.label for a in st.legal_actions()] == ["red", "yellow", "green", "blue"]
    st.apply("green")
    assert st.var("colour") == g.deck.suits.index("green") and st.transcript()[-1] == "P1 names green"
    assert st.current_player == 2
    st.apply("draw")  # P2 draws the 1 of green
    st.apply("draw")  # P0 draws the 9 of green
    assert "play DrawTwo of green" in [a.label for a in st.legal_actions()]  # a word rank reads as written
    st.apply("play DrawTwo of green")  # P2 gets two cards and loses his turn
    assert len(st.zone("hand", 2)) == 3 + 1 + 2 and st.current_player == 0


def test_a_ranking_counts_two_copies_of_a_card_as_a_pair_and_a_flush_may_hold_them(tmp_path):
    body = """
        set value_pair = hands(top 5 of talon)
        set shown = "{hands(top 5 of talon)}"
        end game
        """
    decls = ("order poker: 2 3 4 5 6 7 8 9 10 J Q K A\nranking hands by poker: straight_flush > four_of_a_kind > "
             "full_house > flush > straight > three_of_a_kind > two_pair > pair > high_card\n"
             "var value_pair = 0\nvar shown = \"\"\n")
    for engine in ENGINES:
        g = load(tmp_path, "shuffle talon\n" + textwrap.dedent(body), deck="standard with 2 decks", decls=decls, engine=engine)
        assert g.new_initial_state(stack=["As", "As", "Kd", "7c", "2h"]).var("shown") == "pair"
        assert g.new_initial_state(stack=["As", "As", "Ks", "7s", "2s"]).var("shown") == "flush"


def test_a_ranking_the_evaluator_cannot_follow_is_e022_not_a_wrong_value(tmp_path):
    body = CHOOSE.replace("hand(top of players)", "talon")
    ranking = "ranking hands by v: flush > pair > high_card\nvar x = 0\n"
    long_order = "order v: " + " ".join(map(str, range(1, 15))) + "\n" + ranking
    assert check_codes(tmp_path, body, deck="ranks " + " ".join(map(str, range(1, 15))) + " suits a b c d",
                       decls=long_order) == [("E022", "a hand ranking orders at most 13 ranks; order `v` has 14")]
    assert check_codes(tmp_path, body, deck="ranks 1 2 3 4 5 suits a b c d e", decls="order v: 1 2 3 4 5\n" + ranking) == [
        ("E022", "a hand ranking needs a deck of at most 4 suits; this one has 5")]
    assert check_codes(tmp_path, body, deck="standard with 2 jokers", decls="order v: 2 3 4 5 6 7 8 9 10 J Q K A\n"
                       + ranking) == [("E022", "a hand ranking cannot value suitless cards, and the deck has jokers")]


# ------------------------------------------------------------------------- suit short names
@pytest.mark.parametrize("engine", ENGINES)
def test_a_suit_may_declare_its_short_name(tmp_path, engine):
    g = load(tmp_path, "shuffle talon\n" + CHOOSE.replace("hand(top of players)", "talon"),
             deck="ranks 7 8 suits stars as t suns moons", engine=engine)
    assert g.card_name(g.card("7t")) == "7t" and g.deck.suit_name(g.card("7t")) == "stars"
    assert g.deck.suit_name(g.card("7s")) == "suns" and g.deck.suit_name(g.card("8 of moons")) == "moons"
    st = g.new_initial_state(stack=["8t", "7 of moons"])  # a stack may name a card as the rules do
    assert st.zone("talon")[-2:] == ["7m", "8t"]


def test_colliding_short_names_and_bad_deck_items_are_e020(tmp_path):
    body = CHOOSE.replace("hand(top of players)", "talon")
    assert check_codes(tmp_path, body, deck="ranks 7 8 suits stars suns") == [
        ("E020", "suits `stars` and `suns` have the same short name `s`")]
    assert check_codes(tmp_path, body, deck="ranks 7 8 suits stars as st suns") == [
        ("E020", "the short name of suit `stars` must be one letter, not `st`")]
    assert check_codes(tmp_path, body, deck="standard with 6 deks") == [
        ("E020", "a deck can add jokers, decks, copies or named cards, not `deks`")]
    assert check_codes(tmp_path, body, deck="standard with 2 copies of 1") == [
        ("E020", "`1` is not a suited rank of the deck")]
    assert check_codes(tmp_path, body, deck="ranks 7 8 suits a b with 2 Wild, 3 Wild") == [
        ("E020", "the deck adds `Wild` twice")]
    assert check_codes(tmp_path, body, deck="ranks 7 8 suits a b with 2 decks of 7") == [
        ("E020", "only copies are counted by rank (`2 copies of 7 8`), not decks")]
    assert check_codes(tmp_path, body, deck="standard with 2000 decks") == [
        ("E020", "this deck has 104000 cards; a deck has at most 65536")]


# ----------------------------------------------------------------------------- literals
@pytest.mark.parametrize("engine", ENGINES)
def test_card_literals_in_comparisons_has_in_filters_moves_and_texts(tmp_path, engine):
    g = load(tmp_path, engine=engine, body="""
        shuffle talon
        deal 2 from talon to hand(players)
        move Q of spades to table
        move [2 of clubs, 10 of hearts] to table
        set seen = table has Q of spades and 2 of clubs in table and not (table has 3 of hearts)
        set queens = count c in all cards where c is Q of spades or c == 10 of hearts
        set top_not = top of table != 10 of hearts
        top of players chooses:
            a card c from hand(top of players) where c is not 3 of hearts as "play {c}":
                move c to table
            "pass":
                pass
        announce "{Q of spades} was moved"
        end game
        """, decls="var seen = false\nvar queens = 0\nvar top_not = true\n")
    st = g.new_initial_state(stack=["3h", "Ah", "Kc", "Qs"])
    assert st.zone("table") == ["Qs", "2c", "10h"] and st.zone("hand", 1) == ["Ah"]
    assert (st.var("seen"), st.var("queens"), st.var("top_not")) == (True, 2, False)
    assert [a.label for a in st.legal_actions()] == ["play K♣", "pass"]
    st.apply("play K♣")
    assert st.transcript()[-2] == "Q♠ was moved"


@pytest.mark.parametrize("engine", ENGINES)
def test_in_a_shoe_a_literal_names_every_copy_of_its_face(tmp_path, engine):
    g = load(tmp_path, engine=engine, body="""
        shuffle talon
        deal 1 from talon to hand(players)
        set same = top of hand(top of players) == Q of spades
        move Q of spades to table
        set moved = count(table)
        end game
        """, deck="standard with 3 decks", decls="var same = false\nvar moved = 0\n")
    st = g.new_initial_state(stack=["Qs#3"])
    assert st.var("same") is True and st.var("moved") == 3 and st.zone("table") == ["Qs", "Qs#2", "Qs#3"]


def test_a_literal_of_a_card_the_deck_lacks_is_e036(tmp_path):
    assert check_codes(tmp_path, "if talon has 2 of clubs:\n    end game\nend game", deck="piquet") == [
        ("E037", "the deck has no card `2 of clubs`: `2` is not one of its ranks")]
    assert check_codes(tmp_path, "move Q of stars to talon\nend game") == [
        ("E037", "the deck has no card `Q of stars`: `stars` is not one of its suits")]
    assert check_codes(tmp_path, "move Wild of red to talon\nend game", deck=COLOURS) == [
        ("E037", "`Wild` cards have no suit")]
    assert check_codes(tmp_path, "for each p in players where p == Q of spades:\n    pass\nend game") == [
        ("E012", "what `==` compares with a card must be a card, but this is a player")]


def test_a_literal_is_never_read_where_an_of_belongs_to_top_or_sum():
    text = source("""
        let k = 2
        let a = top k of talon
        let b = top 2 of hand(top of players)
        let t = sum x in talon except top of talon of 1
        let u = sum x in talon except k of x is Q of spades
        end game
        """)
    module, diagnostics = parse(text)
    assert diagnostics == []
    lets = module.decls[-1].body
    assert lets[1].value.count.name == "k" and lets[1].value.zone.name == "talon"
    assert lets[2].value.count.value == 2
    u = lets[4].value  # `sum x in talon except k` of `x is Q of spades`
    assert u.source.right.name == "k" and u.body.right.rank == "Q"
