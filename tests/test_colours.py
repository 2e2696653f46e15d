"""`colour(x)`, a card's or a suit's colour (issue 28), played as a rulebook says it: "the jack of
the same colour as trumps" (the left bower), "a red card on a black card".

tests/engine/colours.cards: a trump turned up, the left bower found by colour, a card that must be
of the other colour than the last one, a wild card (no suit) that has no colour.
tests/engine/colour_names.cards: a file written before `colour` that names its own `colour`, `red`
and `black`. Each runs on both engines (the `engine` fixture); tests/test_differential.py compares
the engines on both files and on generated programs that use `colour`.
"""

from __future__ import annotations

import os

import cardlang
import pytest

from cardlang.runtime.cards import Deck
from cardlang.tools import analysis
from scenario import ROOT, path

COLOURS = path("tests/engine/colours.cards")
NAMES = path("tests/engine/colour_names.cards")


def start(file, players, engine, stack):
    return cardlang.load(file, players=players, engine=engine).new_initial_state(seed=0, stack=stack)


def labels(st):
    return [a.label for a in st.legal_actions()]


def test_the_jack_of_the_same_colour_as_trumps_is_the_left_bower(engine):
    # P0: J♦ 9♣ K♥, P1: Wild A♣ Q♠ (the deal goes round one card at a time); 10♥ turned: hearts
    st = start(COLOURS, 2, engine, ["Jd", "Wild", "9c", "Ac", "Kh", "Qs", "10h"])
    assert "trumps are hearts, which are red; no trump is none" in st.transcript()
    st.apply("play J♦")
    # on a red card only a black one: the wild card has no colour, and no colour is not black
    assert labels(st) == ["pass", "play A♣", "play Q♠"]
    st.apply("play Q♠")
    lines = st.transcript()
    assert "P0 plays a red card" in lines and "P0 plays the left bower" in lines
    assert "P1 plays a black card" in lines
    assert st.var("points") == [10, 2]


def test_the_jack_of_the_other_colour_is_no_bower_and_a_red_card_scores_one(engine):
    # P0: J♣ 9♣ K♥, P1: A♦ A♣ Q♠; 10♥ turned: hearts (red), so the jack of clubs is no bower
    st = start(COLOURS, 2, engine, ["Jc", "Ad", "9c", "Ac", "Kh", "Qs", "10h"])
    st.apply("play J♣")
    assert labels(st) == ["pass", "play A♦"]
    st.apply("play A♦")
    assert "P0 plays the left bower" not in st.transcript()
    assert st.var("points") == [2, 1]


def test_a_card_without_a_suit_has_no_colour(engine):
    # P0: Wild 9♣ K♥, P1: A♦ A♣ Q♠; the wild card first: every card with a colour may follow it
    st = start(COLOURS, 2, engine, ["Wild", "Ad", "9c", "Ac", "Kh", "Qs", "10s"])
    assert "trumps are spades, which are black; no trump is none" in st.transcript()
    st.apply("play Wild card")
    assert "P0 plays a none card" in st.transcript()
    assert labels(st) == ["pass", "play A♦", "play A♣", "play Q♠"]
    assert st.var("points") == [0, 0]


def test_a_deck_whose_suits_are_not_the_french_ones_has_no_colours():
    assert Deck.preset("standard").suit_colours() == {0: "black", 1: "red", 2: "red", 3: "black"}
    assert Deck.build("x", ["1", "2"], ["red", "stars"]).suit_colours() == {}


def test_a_file_that_names_its_own_colour_red_and_black_checks_and_plays(engine):
    # `var colour`, `define red(c)`, `per player var black` keep their meaning
    st = start(NAMES, 2, engine, ["Kh", "9c", "Qs", "Ad"])
    st.apply("play K♥")
    st.apply("play 9♣")
    lines = st.transcript()
    assert "P0 names hearts, 1" in lines and "P1 names clubs, 0" in lines
    assert st.var("colour") is not None and st.var("black") == [1, 0]


@pytest.mark.parametrize("relative", ["examples/hints.cards", "examples/klondike.cards",
                                      "examples/colour_match.cards"])
def test_older_games_that_name_red_or_colour_still_check(relative):
    # a suit named `red` (hints, colour_match), `define red(c)` (klondike), `var colour` (colour_match)
    game = cardlang.check_file(os.path.join(ROOT, relative))
    assert game is not None


def test_completion_and_hover_know_colour_red_and_black():
    text = open(COLOURS, encoding="utf-8").read()
    a = analysis.analyse(text, COLOURS)
    lines = text.split("\n")
    at = next(i for i, line in enumerate(lines) if "elif colour(c) == red" in line) + 1
    column = lines[at - 1].index("red:") + 1  # (1 for the first character)
    got = {c.label for c in analysis.complete(a, at, column)}
    assert {"colour", "red", "black"} <= got
    assert analysis.hover(a, at, column) == ("colour `red`", None)


LEAK = '''game "Leak"
players 2
deck standard
zone stock: pile, hidden
zone hand: per player, private
round:
    shuffle stock
    deal 1 from stock to hand(players)
    announce "the top of the stock is {colour(top of stock)}"
    for each p in players:
        announce "{p} holds a {colour(suit(top of hand(p)))} card"
    end game
'''


def test_the_colour_of_a_card_no_seat_sees_is_a_secret_the_checker_guards():
    from cardlang.load import check_source

    diagnostics = check_source(LEAK, "leak.cards")[-1]
    assert [(d.code, d.span.line) for d in diagnostics] == [("W004", 9), ("W004", 11)]


@pytest.mark.parametrize("file", [COLOURS, NAMES])
def test_fmt_keeps_colour_files_as_written(file):
    from cardlang.tools.fmt import format_source

    text = open(file, encoding="utf-8").read()
    squeezed = text.replace("colour(c) == colour(trump)", "colour( c )==colour( trump )")
    assert format_source(squeezed, file) == text and format_source(text, file) == text
