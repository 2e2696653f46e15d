"""Declared values and choices of a value (issue 28, items 1 and 3), played as a rulebook says them.

tests/engine/declared_values.cards: a game kind (`values kind: grand, null, suit`) and a strain
(`values strain: clubs … notrump`) chosen, kept, compared in the order listed, shown by name, a
trump named by a strain (`suit(s)`), and named cards with a value of their own.
tests/engine/ask_for_rank.cards: a bid of a number of a list, a suit named as trump, a rank asked
of a player ("have you got any sevens?": a player and a rank at once).
Each runs on both engines (the `engine` fixture).
"""

from __future__ import annotations

import cardlang
import pytest

from scenario import path

DECLARED = path("tests/engine/declared_values.cards")
ASK = path("tests/engine/ask_for_rank.cards")


def start(file, players, engine, stack=None, seed=0):
    return cardlang.load(file, players=players, engine=engine).new_initial_state(seed=seed, stack=stack)


def labels(st):
    return [a.label for a in st.legal_actions()]


# ------------------------------------------------------------------------- declared values
def test_a_game_kind_is_chosen_by_name_in_the_order_listed(engine):
    st = start(DECLARED, 2, engine)
    assert labels(st) == ["play grand", "play null", "play suit"]
    st.apply("play suit")
    # the strains below notrump, by name; ids are the values' places in the list
    assert labels(st) == ["trumps: clubs", "trumps: diamonds", "trumps: hearts", "trumps: spades"]
    assert [a.id & 0xFFFF for a in st.legal_actions()] == [0, 1, 2, 3]
    st.apply("trumps: hearts")
    assert st.var("game_kind") == 2 and st.var("contract") == 2
    obs = st.observation(1)["variables"]
    assert (obs["game_kind"], obs["contract"], obs["trump"]) == ("suit", "hearts", "hearts")
    lines = st.transcript()
    assert "P0 plays suit, trump hearts, hearts" in lines
    assert "a suit game outranks null" in lines  # `game_kind > null`: suit is listed after null


def test_no_trump_names_no_suit_and_null_does_not_outrank_null(engine):
    st = start(DECLARED, 2, engine)
    st.apply("play null")
    lines = st.transcript()
    assert "P0 plays null, trump none, notrump" in lines
    assert "a suit game outranks null" not in lines
    assert st.var("trump") is None


def test_a_named_card_has_the_value_its_line_gives_it(engine):
    # P0 gets both Jesters first (the deal goes one card at a time round the table)
    stack = ["Jester", "7c", "Jester", "8c", "Ac", "9c", "Kc", "10c", "Qc", "Jc"]
    st = start(DECLARED, 2, engine, stack=stack)
    st.apply("play grand")
    assert "Jester" in labels(st)
    st.apply(next(a for a in st.legal_actions() if a.label == "Jester"))
    st.apply("7♣")
    assert st.returns() is not None
    assert st.scores()[0] == 5  # `worth: … Jester=5`: no longer 0 for a suitless card


# ------------------------------------------------------------------------- choices of a value
def test_a_suit_is_chosen_from_a_list_and_a_number_from_a_list(engine):
    st = start(ASK, 2, engine)
    assert labels(st) == ["trumps: hearts", "trumps: spades"]
    st.apply("trumps: spades")
    assert st.observation(0)["variables"]["trump"] == "spades"
    assert labels(st) == ["18", "20", "22", "23", "24", "27", "pass"]
    st.apply("22")
    assert st.var("bid", 0) == 22


def test_a_player_and_a_rank_at_once_offer_only_ranks_the_asker_holds(engine):
    # P0: 7c 7d 9c K... ; P1: 7h 2c ...
    stack = ["7c", "7h", "7d", "2c", "9c", "3c", "Kc", "4c", "Ks", "5c"]
    st = start(ASK, 2, engine, stack=stack)
    st.apply("trumps: hearts")
    st.apply("pass")
    # every rank P0 holds, each with each other player: `P1 7`, by rank order of the deck
    assert labels(st) == ["P1 7", "P1 9", "P1 K"]
    st.apply("P1 7")
    assert "P1: here are 1 card(s) of rank 7" in st.transcript()
    assert sorted(st.zone("hand", 0)) == sorted(["7c", "7d", "9c", "Kc", "Ks", "7h"])
    assert labels(st) == ["show your 7s", "show your 9s", "show your Ks"]
    st.apply("show your 7s")
    assert sorted(st.zone("shown", 0)) == ["7c", "7d", "7h"]


def test_asking_for_a_rank_the_other_lacks_draws(engine):
    stack = ["7c", "8h", "9c", "2c", "Jc", "3c", "Kc", "4c", "Ks", "5c", "Ad"]
    st = start(ASK, 2, engine, stack=stack)
    st.apply("trumps: hearts")
    st.apply("pass")
    st.apply("P1 K")
    assert "P1: no K: draw" in st.transcript()
    assert "Ad" in st.zone("hand", 0)


def test_the_pair_of_things_has_stable_ids_by_the_second_then_the_first(engine):
    st = start(ASK, 3, engine, stack=["7c", "7h", "7d", "2c", "9c", "3c", "Kc", "4c", "Ks", "5c",
                                      "6c", "6d", "6h", "6s", "8c"])
    st.apply("trumps: hearts")
    st.apply("pass")
    ranks = cardlang.load(ASK, players=3).deck.ranks
    for a in st.legal_actions():
        seat, rank = a.label.split()
        assert a.id >> 16 == ranks.index(rank) and a.id & 0xFFFF == int(seat[1:])


@pytest.mark.parametrize("bad, message", [
    ("values number: a b", "is a type of the language"),
    ("values strain: a b a", "listed twice"),
])
def test_a_bad_values_list_is_an_error(tmp_path, bad, message):
    f = tmp_path / "bad.cards"
    f.write_text(f'game "x"\nplayers 2\ndeck standard\n{bad}\nround:\n    end game\n')
    _, diags = cardlang.check_file(str(f))
    assert any(message in d.message for d in diags if d.is_error)


@pytest.mark.parametrize("relative", ["tests/engine/declared_values.cards", "tests/engine/ask_for_rank.cards",
                                      "tests/engine/card_sets.cards", "examples/contract_bids.cards"])
def test_fmt_keeps_the_new_choices_and_declarations(relative):
    """`cardlang fmt` lays out `values strain: …`, `a rank r`, `… and a strain s`, `a set cs of …` and
    gives back the same syntax tree, formatted files unchanged, a badly laid out copy the same text."""
    import random

    from test_fmt import ast_of, read, scramble
    from cardlang.tools.fmt import format_source

    original = read(relative)
    assert format_source(original, relative) == original
    messy = next(m for k in range(100) if (m := scramble(original, random.Random(f"{relative}:{k}"))) != original)
    once = format_source(messy, relative)
    assert ast_of(once) == ast_of(original)
    assert once == original


def test_a_file_that_names_things_like_the_new_choices_still_checks(tmp_path):
    """No new word: `strain`, `kind`, `level`, `rank`-like names and a zone named `set`-free still name things."""
    f = tmp_path / "old.cards"
    f.write_text('game "old"\nplayers 2\ndeck standard\nzone hand: per player, private\n'
                 'var strain = 0\nvar kind = 1\nper player var level = 0\ndefine values_of(p) = level(p) + strain\n'
                 'round:\n    for each p in players:\n        p chooses a number n from 0 to 2 as "{n}":\n'
                 '            set level(p) = n + kind + values_of(p)\n    end game\n')
    _, diags = cardlang.check_file(str(f))
    assert not [d for d in diags if d.is_error]


def test_a_rank_of_its_own_name_in_a_suit_reads_as_the_rules_write_it(engine):
    """`Reverser` of the suit red reads `Reverser of red` (not `Reverserr`, its short name), in labels
    and in the log; its short name still names it (`Reverserr` in a stacked deck or a save)."""
    g = cardlang.load(path("examples/colour_match.cards"), players=3, engine=engine, options={"hand_size": 3})
    c = g.deck.card_id("Skipr")
    assert g.deck.label_of(c) == "Skip of red" and g.deck.name_of(c) == "Skipr"
    assert g.deck.card_ids("Skip of red") == g.deck.card_ids("Skipr")
    st = g.new_initial_state(stack=["Skipr", "3b", "4b", "5r", "5y", "6y", "7y", "8y", "9y", "2r"], draws=[1])
    assert "play Skip of red" in [a.label for a in st.legal_actions()]
    st.apply("play Skip of red")
    assert any("Skip of red" in line for line in st.transcript())


def test_completion_offers_declared_types_values_and_what_a_player_may_name():
    from cardlang.tools import analysis

    text = open(path("examples/contract_bids.cards"), encoding="utf-8").read()
    lines = text.split("\\n") if False else text.split("\n")
    a = analysis.analyse(text, path("examples/contract_bids.cards"))
    var_line = lines.index("var contract: strain = none") + 1
    types = [c.label for c in analysis.complete(a, var_line, len("var contract: ") + 1)]
    assert "strain" in types and "number" in types
    choose = lines.index("    turn chooses:") + 1
    inside = [c.label for c in analysis.complete(a, choose + 4, 50)]
    assert "notrump" in inside and "clubs" in inside
    assert ("strain", "values") in [(s.name, s.kind) for s in analysis.outline(a)]
    bid = [c.label for c in analysis.complete(a, choose + 3, len("        a ") + 1)]
    assert {"card", "number", "player", "rank", "suit", "set", "strain"} <= set(bid)
