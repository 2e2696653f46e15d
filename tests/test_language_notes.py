"""What docs/language.md says about ends, order, indexing, parameter types, texts as definitions and
per-player variables named like options (issue 15 item 14), checked on both engines."""

import pytest

import cardlang

from scenario import ENGINES

SOURCE = '''game "Notes"
players 3..3
deck ranks 2 3 4 5 6 suits hearts
option tokens = 4 in 1..9
zone stock: pile, public
zone row: pile, public
zone under_row: pile, public
zone copy: pile, public
per player var tokens = tokens
define greeting(p) = "hello {p}"
define twice(n: number) = n * 2
order value: 2 3 4 5 6
define value_of(c: card) = value(c)
define named(n: number, t: text) = "{t} {n}"

round:
    move all cards to stock
    announce "stock {stock}"
    announce "top {top of stock}, bottom {bottom of stock}, top 2 {top 2 of stock}, bottom 2 {bottom 2 of stock}"
    announce "first {top of players}, last {bottom of players}, [1] {players[1]}, from {top of players from left of top of players}"
    move top 3 of stock to row
    announce "row {row}, top {top of row}"
    move top 2 of stock under under_row
    announce "under {under_row}"
    move row to copy
    announce "copy {copy}, top {top of copy}"
    announce "{greeting(top of players)} {twice(tokens)} {tokens(top of players)} {named(value_of(top of copy), greeting(bottom of players))}"
    top of players chooses:
        "end":
            end game
'''


@pytest.mark.parametrize("engine", ENGINES)
def test_the_documented_orders_hold(tmp_path, engine):
    path = tmp_path / "notes.cards"
    path.write_text(SOURCE, encoding="utf-8")
    state = cardlang.load(str(path), 3, engine=engine).new_initial_state(seed=1)
    lines = state.transcript()
    text = "\n".join(lines)
    assert "stock 2♥, 3♥, 4♥, 5♥, 6♥" in text  # a zone lists its cards bottom first
    assert "top 6♥, bottom 2♥, top 2 6♥, 5♥, bottom 2 2♥, 3♥" in text  # top n: the top card first
    assert "first P0, last P2, [1] P0, from P1" in text
    assert "row 6♥, 5♥, 4♥, top 4♥" in text  # a run moved from the top lands upside down
    assert "under 2♥, 3♥" in text  # under: one at a time, the 2nd ends at the very bottom
    assert "copy 6♥, 5♥, 4♥, top 4♥" in text  # a whole zone keeps its order
    assert "hello P0 8 4 hello P2 3" in text


@pytest.mark.parametrize("engine", ENGINES)
def test_a_variable_that_starts_as_an_empty_list_joins_numbers_and_cards(engine):
    game = cardlang.load("tests/check/valid/empty_list_var.cards", 2, engine=engine)
    assert game.new_initial_state(seed=1).transcript()[-1] == "6 2 2"  # sum of [1, 2, 3], item 2, two cards
