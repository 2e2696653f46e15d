"""Running out of cards (issue 15 item 8): a `move` takes what is there, a `deal` needs every card it
deals, and `move … strictly` stops the game when the cards it names are not all there.

The reference interpreter defines what a game does; the compiled engine must agree (see
test_differential.py, which plays examples/last_card.cards on both).
"""

import pytest

import cardlang
from cardlang import RuleError
from cardlang.load import check_source

from scenario import ENGINES

GAME = '''game "T"
players 2..2
deck standard
zone box: pile, hidden
zone stock: pile, public
zone pile: pile, public
var n = {n}

round:
    move all cards to box
    move top {stock} of box to stock
    {rule}
    announce "pile {{count(pile)}}, stock {{count(stock)}}"
    top of players chooses:
        "end":
            end game
'''


def run(tmp_path, rule: str, stock: int = 2, n: int = 3, engine: str = "reference"):
    """The line the game announces after `rule` ran (a rule error is raised)."""
    path = tmp_path / "t.cards"
    path.write_text(GAME.format(rule=rule, stock=stock, n=n), encoding="utf-8")
    game = cardlang.load(str(path), 2, engine=engine)
    state = game.new_initial_state(seed=1)
    return [line for line in state.transcript() if "pile " in line][-1]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_move_from_an_empty_zone_moves_nothing(tmp_path, engine):
    assert run(tmp_path, "move top of stock to pile", stock=0, engine=engine).endswith("pile 0, stock 0")


@pytest.mark.parametrize("engine", ENGINES)
def test_a_move_of_more_cards_than_there_are_moves_those_there(tmp_path, engine):
    assert run(tmp_path, "move top n of stock to pile", stock=2, engine=engine).endswith("pile 2, stock 0")


@pytest.mark.parametrize("engine", ENGINES)
def test_a_strict_move_with_the_cards_there_moves_them(tmp_path, engine):
    assert run(tmp_path, "move top n of stock to pile strictly", stock=5, engine=engine).endswith("pile 3, stock 2")
    assert run(tmp_path, "move top of stock to pile strictly", stock=1, engine=engine).endswith("pile 1, stock 0")
    assert run(tmp_path, "move bottom 2 of stock under pile strictly", stock=2,
               engine=engine).endswith("pile 2, stock 0")


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("rule, stock, message", [
    ("move top n of stock to pile strictly", 2, "this `move … strictly` must move 3 cards, but only 2 are there"),
    ("move top n of stock to pile strictly", 1, "this `move … strictly` must move 3 cards, but only 1 is there"),
    ("move top of stock to pile strictly", 0, "this `move … strictly` must move 1 card, but none is there"),
    ("move bottom of stock to pile face up strictly", 0, "this `move … strictly` must move 1 card, but none is there"),
])
def test_a_strict_move_short_of_cards_stops_the_game_where_it_stands(tmp_path, engine, rule, stock, message):
    with pytest.raises(RuleError) as info:
        run(tmp_path, rule, stock=stock, engine=engine)
    assert info.value.message == message
    assert (info.value.line, info.value.col) == (12, 5)
    assert info.value.move == 0


@pytest.mark.parametrize("engine", ENGINES)
def test_a_strict_move_of_nothing_asked_is_no_error(tmp_path, engine):
    assert run(tmp_path, "move top n of stock to pile strictly", stock=0, n=0,
               engine=engine).endswith("pile 0, stock 0")


@pytest.mark.parametrize("engine", ENGINES)
def test_a_deal_short_of_cards_stops_the_game_before_dealing_any(tmp_path, engine):
    with pytest.raises(RuleError) as info:
        run(tmp_path, "deal 2 from stock to pile", stock=1, engine=engine)
    assert info.value.message == "cannot deal 2 card(s) to 1 place(s): `stock` holds 1"


def test_strictly_on_a_whole_zone_changes_nothing_and_says_so():
    source = GAME.format(rule="move stock to pile strictly", stock=2, n=3)
    diags = check_source(source, "t.cards")[3]
    assert [(d.code, d.message) for d in diags if d.code != "W001"] == [
        ("W003", "`strictly` changes nothing here: this `move` moves all the cards it names, however many they are")]


def test_the_example_plays_to_its_end_on_the_reference_engine():
    game = cardlang.load("examples/last_card.cards", 3, engine="reference")
    state = game.new_initial_state(seed=4)
    while not state.is_terminal():
        state.apply(state.legal_action_ids()[-1])  # always "draw up to three": the last draw takes what is left
    assert any("draws the last card" in line for line in state.transcript())
