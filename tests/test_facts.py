"""Knowledge finer than a whole card (docs/language.md, "Finer knowledge"; docs/knowledge.md): zones
held facing away, what a seat is told of a card (`tell … the suit of …`, `tell … which cards … are
…`), facts dropped when the order is lost (`shuffle`, `hide`, `forget order of`), facts shown in
views, observations, screens and vectors, and determinizations that fit them.

The scenarios play tests/engine/facts.cards on both engines with a stacked deck: the top card goes
to hand(P0), the next to hand(P1), then hand(P0), hand(P1), then mine(P0), mine(P1).
"""

from __future__ import annotations

import io
import itertools
import random
from collections import Counter

import pytest
from rich.console import Console

import cardlang
from cardlang.play.table_view import Layout, Style, render_table
from cardlang.play.savegame import load_saved, save_data, write_save
from cardlang.runtime.basics import RuleError
from cardlang.runtime.engine import State
from cardlang.runtime.playout import quiet
from scenario import ENGINES, path

FILE = "tests/engine/facts.cards"
# hand(P0) = 1h, 3c (3c on top); hand(P1) = 2s, Ah; mine(P0) = 2h; mine(P1) = 3s; the box the rest
STACK = ["1h", "2s", "3c", "Ah", "2h", "3s", "1s", "1c", "2c", "3h", "As", "Ac"]
# `engine`: each test runs on both engines (tests/conftest.py)


def start(engine, players=2):
    g = cardlang.load(path(FILE), players, engine=engine)
    return g, g.new_initial_state(seed=0, stack=STACK)


def told(g, state, card: str, seat: int) -> tuple:
    """(ranks, suits) the seat may still think the card has."""
    table = g.program.facts
    return tuple(table.possible(table.of(state, g.card(card), seat)))


ALL_RANKS, ALL_SUITS = ["1", "2", "3", "A"], ["hearts", "spades", "clubs"]


# ------------------------------------------------------------------ a zone facing away
def test_a_hand_facing_away_is_seen_by_everyone_but_its_owner(engine):
    g, s = start(engine, 3)
    for seat in range(3):
        for c in s.zones[g.program.zone_families["hand"][0] + seat]:
            assert [s.knows(q, c) for q in range(3)] == [q != seat for q in range(3)]
        assert s.observation(seat)["zones"]["hand"][seat] == [None, None]
        assert all(x is not None for q in range(3) if q != seat for x in s.observation(seat)["zones"]["hand"][q])


def test_a_game_without_tell_keeps_no_facts():
    g = cardlang.load(path("examples/follow_suit.cards"), 3)
    s = g.new_initial_state(seed=1)
    assert s.facts is None and s.clone().facts is None and "facts" not in s.observation(0)


# ------------------------------------------------------------------ tell
def test_tell_the_suit_rules_out_every_other_suit_for_that_seat_only(engine):
    g, s = start(engine)
    s.apply("suit")  # P0: tell P1 the suit of top of hand(P1), the Ah
    assert told(g, s, "Ah", 1) == (ALL_RANKS, ["hearts"])
    assert told(g, s, "Ah", 0) == (ALL_RANKS, ALL_SUITS)  # (P0 was told nothing)
    assert told(g, s, "2s", 1) == (ALL_RANKS, ALL_SUITS)
    assert not s.knows(1, "Ah")  # a fact is not the card


def test_tell_the_rank_to_players_tells_every_seat(engine):
    g, s = start(engine)
    s.apply("rank")  # tell players the rank of bottom of hand(P1), the 2s
    assert told(g, s, "2s", 0) == told(g, s, "2s", 1) == (["2"], ALL_SUITS)


def test_tell_which_cards_are_a_suit_says_which_are_and_which_are_not(engine):
    g, s = start(engine)
    s.apply("hearts")  # tell P1 which cards of hand(P1) are hearts
    assert told(g, s, "Ah", 1) == (ALL_RANKS, ["hearts"])
    assert told(g, s, "2s", 1) == (ALL_RANKS, ["spades", "clubs"])


def test_tell_which_cards_are_a_rank_and_of_cards_of_several_zones(engine):
    g, s = start(engine)
    s.apply("aces")  # tell P1 which cards of hand(P1) + mine(P1) are A
    assert told(g, s, "Ah", 1) == (["A"], ALL_SUITS)
    assert told(g, s, "2s", 1) == (["1", "2", "3"], ALL_SUITS)


def test_tell_which_cards_are_a_rank_written_as_a_number_or_an_expression(engine):
    g, s = start(engine)
    s.apply("ones")  # tell P0 which cards of the box are 1
    for c in ("1s", "1c"):
        assert told(g, s, c, 0) == (["1"], ALL_SUITS)
    for c in ("2c", "3h", "As", "Ac"):
        assert told(g, s, c, 0) == (["2", "3", "A"], ALL_SUITS)
    g, s = start(engine)
    s.apply("same suit")  # tell P1 which cards of hand(P1) are suit(top of mine(P0)): hearts
    assert told(g, s, "Ah", 1) == (ALL_RANKS, ["hearts"])


def test_what_was_told_follows_the_card_when_it_moves(engine):
    # three players: hand(P0) = 1h, Ah; hand(P1) = 2s, 2h; hand(P2) = 3c, 3s
    g, s = start(engine, 3)
    s.apply("rank")  # P0: tell players the rank of bottom of hand(P1), the 2s
    s.apply("drop a card from P1's hand, 1 of 2")  # P1 drops the 2s, face down, into the box
    assert s.loc[g.card("2s")] == g.program.zone_families["box"][0]
    assert told(g, s, "2s", 1) == (["2"], ALL_SUITS)  # P1 still does not know it, but was told its rank
    assert not s.knows(1, "2s") and s.knows(0, "2s")


def test_tell_of_no_card_is_a_rule_error_on_both_engines():
    messages = set()
    for engine in ENGINES:
        g, s = start(engine)
        with pytest.raises(RuleError) as e:
            s.apply("tell of the last dropped")
        messages.add((e.value.message, e.value.line))
    assert len(messages) == 1 and "names no card" in messages.pop()[0]


# ------------------------------------------------------------------ forgetting
def test_forget_order_keeps_the_cards_but_nobody_knows_which_is_which(engine):
    g, s = start(engine, 3)
    s.apply("ones")  # P0 was told which cards of the box are 1s (none: 3h, As, Ac)
    box = g.program.zone_families["box"][0]
    order = list(s.zones[box])
    assert all(s.facts[c] for c in order)
    s.apply("forget")  # P1: forget order of box
    assert s.zones[box] == order
    assert all(s.known[c] == 0 and s.facts[c] == 0 for c in order)


def test_a_shuffle_drops_what_was_told(engine):
    g, s = start(engine)
    s.apply("ones")
    s.apply("suit")  # then the next round: everything goes back to the box and is shuffled
    assert not any(s.facts)


def test_hide_drops_what_was_told_of_those_cards(engine):
    g, s = start(engine, 3)
    s.apply("hearts")  # P0: tell P1 which of hand(P1) are hearts
    assert told(g, s, "2h", 1) == (ALL_RANKS, ["hearts"])
    s.apply("hide")  # P1: hide all cards
    assert not any(s.facts)
    assert s.knows(1, "1h") and not s.knows(1, "2h")  # (each card known as its zone shows it)


def test_a_quiet_state_writes_no_facts(engine):
    g, s = start(engine)
    q = quiet(s.clone())
    q.apply("hearts")
    assert not any(q.facts)
    k = quiet(s.clone(), knowledge=True)
    k.apply("hearts")
    assert any(k.facts)


# ------------------------------------------------------------------ shown
def test_the_observation_view_and_screen_show_what_the_seat_was_told(engine):
    g, s = start(engine)
    s.apply("hearts")
    obs = s.observation(1)
    assert obs["facts"]["hand"][1] == [{"ranks": ALL_RANKS, "suits": ["spades", "clubs"], "text": "not hearts"},
                                       {"ranks": ALL_RANKS, "suits": ["hearts"], "text": "hearts"}]
    assert obs["facts"]["hand"][0] == [None, None]  # (P1 sees those: nothing to tell)
    assert s.observation(0)["facts"]["hand"][1] == [None, None]  # P0 sees P1's hand
    assert s.view(1).observation()["facts"] == obs["facts"]
    console = Console(file=io.StringIO(), width=110, color_system=None)
    console.print(render_table(s.view(1).observation(), Layout.of(g), Style(ascii=True), viewer=1))
    text = console.file.getvalue()
    assert "you were told" in text and "1: not hearts | 2: hearts" in text


def test_the_table_and_the_vector_hold_what_the_seat_was_told():
    pytest.importorskip("numpy")
    from cardlang.research.encoding import Encoder

    g, s = start("compiled")
    s.apply("hearts")
    t = s.view(1).table()
    table = g.program.facts
    hand1 = g.program.zone_families["hand"][0] + 1
    mine = [f for z, f in t.told if z == hand1]
    assert [table.describe(f) for f in mine] == ["not hearts", "hearts"]
    enc = Encoder(g)
    v = enc.observation(s.view(1))
    block = next(b for b in enc.blocks if b.name == "facts")
    rows = v[block.start:block.start + block.size].reshape(g.deck.size, enc.fact_row)
    k = [z for z, _ in t.told].index(hand1)  # the first of P1's own cards among those he does not know
    hearts = len(g.deck.ranks) + 1 + g.deck.suits.index("hearts")
    assert rows[k][hearts] == 1.0 and rows[k][table.width + hand1] == 1.0
    assert rows[k + 1][hearts] == 0.0 and rows[k + 1][hearts + 1] == 1.0


# ------------------------------------------------------------------ determinization
def _consistent(g, state, seat):
    """Every deal of the cards `seat` does not know into their places that fits what it was told."""
    table = g.program.facts
    places = [(z, i) for z, pile in enumerate(state.zones) for i, c in enumerate(pile) if not state.knows(seat, c)]
    cards = [state.zones[z][i] for z, i in places]
    fields = [table.of(state, c, seat) for c in cards]
    return {tuple(perm) for perm in itertools.permutations(cards)
            if all(table.fits(c, f) for c, f in zip(perm, fields))}, places


TOLD = """game "Told"
players 2
deck ranks 1 2 3 4 suits hearts spades
zone box: pile, hidden
zone hand: per player, facing away
zone table: pile, public

round:
    shuffle box
    deal 2 from box to hand(players)
    for each p in players:
        tell p which cards of hand(p) are hearts
        tell p which cards of hand(p) are 1
    top of players chooses:
        "end":
            end game
        a card c from box as "show {c}":
            move c to table
"""


@pytest.mark.parametrize("engine", ENGINES)
def test_every_determinization_fits_the_facts_and_every_fitting_deal_comes_out(tmp_path, engine):
    f = tmp_path / "told.cards"
    f.write_text(TOLD, encoding="utf-8")
    g = cardlang.load(str(f), 2, engine=engine)
    s = g.new_initial_state(seed=0, stack=["1h", "2h", "3s", "4s"])  # hand(P0): 1h, 3s; hand(P1): 2h, 4s
    seat = 0
    # P0 does not know 6 cards (his hand, the box): 720 deals; told "hearts, 1" and "spades, not 1" of
    # his two, only the 1h fits the first place, the 2s or 3s the second: 2 * 4! = 48 deals fit
    fits, places = _consistent(g, s, seat)
    assert len(fits) == 48
    view = s.view(seat)
    seen = Counter()
    for i in range(3000):
        d = view.determinize(random.Random(i))
        deal = tuple(d.zones[z][k] for z, k in places)
        assert deal in fits, "a determinization breaks a fact"
        seen[deal] += 1
    assert set(seen) == fits, f"{len(fits) - len(seen)} deals that fit never came out"
    # and the view's own deals (a bot's sampled worlds) too
    for i in range(200):
        w, _ = view.sample(random.Random(i))
        assert tuple(w.zones[z][k] for z, k in places) in fits


def test_facts_a_deal_cannot_fit_are_a_clear_error():
    from cardlang.runtime import facts

    g = cardlang.load(path(FILE), 2)
    table = g.program.facts
    hearts = table.suits & ~table.suit_bit[g.card("1h")]  # "not spades, not clubs": hearts
    both = [hearts, hearts]
    cards = [g.card("2s"), g.card("1h")]
    assert facts.deal(both, cards, table, random.Random(0)) is None
    assert facts.deal([hearts, 0], cards, table, random.Random(0)) == [g.card("1h"), g.card("2s")]


# ------------------------------------------------------------------ clones and saves
def test_clones_and_saves_keep_the_facts(tmp_path, engine):
    g, s = start(engine)
    s.apply("ones")
    s.apply("hearts")
    assert s.clone().facts == s.facts
    assert State.from_json(g, s.to_json()).facts == s.facts
    f = tmp_path / "game.save"
    write_save(str(f), save_data(s))
    _, again, _ = load_saved(str(f))
    assert again.facts == s.facts and again.facts is not s.facts
