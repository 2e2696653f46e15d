"""A choice of a set of cards (issue 28, item 1): tests/engine/card_sets.cards lays one card or
several of one rank at once, captures table cards whose values add up to the card in hand, and
lays one card or two face down. Both engines (the `engine` fixture); the numbering of sets
(runtime/card_sets.py) by hypothesis; what a person types at the table (`7 7`, `pair of 7s`)."""

from __future__ import annotations

from itertools import combinations
from math import comb

import cardlang
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardlang.cli.answers import match_answer
from cardlang.runtime import card_sets
from cardlang.runtime.basics import RuleError
from scenario import path

SETS = path("tests/engine/card_sets.cards")
# two players: P0 holds 7♣ 7♦ 7♥ 2♣ 3♣ 4♣, P1 9♠ 9♥ 5♦ A♠ 6♣ 8♠ (dealt one at a time from the
# top), then the table 3♥ 4♥ 2♦ 10♠ (4 cards face up; the table lists them bottom first)
P0, P1 = ["7c", "7d", "7h", "2c", "3c", "4c"], ["9s", "9h", "5d", "As", "6c", "8s"]
TABLE = ["10s", "2d", "4h", "3h"]  # top of the stock first: 10♠ is moved last, on top


def start(engine):
    stack = [c for pair in zip(P0, P1) for c in pair] + TABLE
    return cardlang.load(SETS, players=2, engine=engine).new_initial_state(seed=0, stack=stack)


def labels(s):
    return [a.label for a in s.legal_actions()]


def test_one_card_or_several_of_a_rank_are_offered_with_their_words(engine):
    s = start(engine)
    got = labels(s)
    assert got[:6] == ["7♣", "7♦", "7♥", "2♣", "3♣", "4♣"]
    assert got[6:] == ["pair of 7s: 7♣, 7♦", "pair of 7s: 7♣, 7♥", "pair of 7s: 7♦, 7♥", "three 7s: 7♣, 7♦, 7♥"]
    s.apply("three 7s: 7♣, 7♦, 7♥")
    assert sorted(s.zone("laid", 0)) == ["7c", "7d", "7h"]
    assert "P0 lays 3 card(s)" in s.transcript()
    assert "P0 chooses 7♣, 7♦, 7♥" in s.transcript()


def test_the_filter_is_applied_to_the_whole_set_a_capture_that_sums_to_the_card(engine):
    s = start(engine)
    s.apply("2♣")  # P0 lays 2♣: 4♣ is now on top of his hand
    s.apply("5♦")
    # P0 captures table cards adding up to 4 (his top card): 4♥, or 2♦ with… nothing else makes 2
    assert labels(s) == ["take 4♥", "pass"]
    s.apply("take 4♥")
    assert s.zone("captured", 0) == ["4h"]
    # P1's top card is 8♠: 10♠ is too much; 2♦ 3♥ make 5, no set makes 8
    assert labels(s) == ["pass"]


def test_the_action_ids_are_the_numbered_sets_of_places(engine):
    s = start(engine)
    sets = [a for a in s.legal_actions() if a.id >> 16 == 1]  # (alternative 0 is a single card)
    assert [a.id & 0xFFFF for a in sets] == [card_sets.value_of(p, 2) for p in [(0, 1), (0, 2), (1, 2), (0, 1, 2)]]
    for a in sets:
        places = card_sets.places_of(a.id & 0xFFFF, 2)
        cards = [s.zone("hand", 0)[i] for i in places]
        assert sorted(cards) == sorted(a.label.split(": ")[-1].replace("♣", "c").replace("♦", "d")
                                       .replace("♥", "h").split(", "))


def test_a_set_laid_face_down_stays_unknown_to_the_others(engine):
    s = start(engine)
    s.apply("7♣")
    s.apply("9♠")
    s.apply("pass")
    s.apply("pass")
    s.apply("lay 7♦, 7♥ face down")
    assert s.transcript(1)[-1] == "P0 lays 2 card(s) face down"
    assert "P0 chooses lay a card, a card face down" in s.transcript(1)
    assert "P0 chooses lay 7♦, 7♥ face down" in s.transcript(0)


def test_a_source_of_more_than_16_cards_is_a_rule_error():
    with pytest.raises(RuleError, match="at most 16 cards"):
        card_sets.checked(range(17))


@settings(deadline=None, max_examples=60)
@given(st.integers(1, 16).flatmap(lambda low: st.tuples(st.just(low), st.integers(low, 16))),
       st.integers(0, 11))
def test_every_set_has_its_own_value_below_the_width_and_back(sizes, n):
    low, high = sizes
    seen = set()
    for value, cards in card_sets.sets(tuple(range(100, 100 + n)), low, high):
        assert 0 <= value < card_sets.width(low, high) <= 0xFFFF
        assert value not in seen
        seen.add(value)
        assert card_sets.subset(tuple(range(100, 100 + n)), value, low) == cards
    assert len(seen) == sum(comb(n, k) for k in range(low, min(high, n) + 1))


def test_the_last_set_of_16_places_has_the_largest_value():
    assert card_sets.value_of(tuple(range(16)), 1) == 0xFFFF - 1 == card_sets.width(1, 16) - 1
    assert card_sets.places_of(0xFFFF - 1, 1) == tuple(range(16))


def test_the_sets_come_smallest_first_then_by_place():
    got = [cards for _, cards in card_sets.sets(("a", "b", "c"), 1, 2)]
    assert got == [("a",), ("b",), ("c",)] + list(combinations("abc", 2))


def test_a_person_types_the_ranks_or_the_words():
    got = ["7♣", "pair of 7s: 7♣, 7♦", "pair of 7s: 7♣, 7♥", "pair of 7s: 7♦, 7♥", "three 7s: 7♣, 7♦, 7♥"]
    assert match_answer("7 7 7", got) == (4, "")
    assert match_answer("three 7s", got) == (4, "")
    assert match_answer("7 7", got)[0] is None and "could be" in match_answer("7 7", got)[1]
    assert match_answer("pair of 7s: 7d, 7h", got) == (3, "")


def test_climbing_same_size_and_higher_rank_beats_and_all_passing_clears_the_trick(engine):
    """examples/climbing.cards: a pair is beaten by a higher pair only; everyone else passing in turn
    clears the trick and the last to lay leads."""
    # two players, seven cards each, dealt one at a time: P0 5♣ 5♦ 9♣ 9♦ K♣ 3♣ 4♣, P1 7♣ 7♦ 4♦ 6♦ 8♦ 10♦ J♦
    p0 = ["5c", "5d", "9c", "9d", "Kc", "3c", "4c"]
    p1 = ["7c", "7d", "4d", "6d", "8d", "10d", "Jd"]
    stack = [c for pair in zip(p0, p1) for c in pair]
    st = cardlang.load(path("examples/climbing.cards"), players=2, engine=engine).new_initial_state(stack=stack)
    st.apply("pair of 5s: 5♣, 5♦")
    assert labels(st) == ["pair of 7s: 7♣, 7♦", "pass"]  # as many cards, of a higher rank
    st.apply("pair of 7s: 7♣, 7♦")
    assert labels(st) == ["pair of 9s: 9♣, 9♦", "pass"]
    st.apply("pass")
    assert "everyone passed: P1 leads" in st.transcript()
    assert st.current_player == 1 and st.zone("trick") == []
    assert "4♦" in labels(st) and "pass" not in labels(st)  # a new trick: any single or set, no pass


def test_a_set_chosen_at_once_is_refused_not_played_out_wrong(tmp_path):
    f = tmp_path / "once.cards"
    f.write_text('game "x"\nplayers 2\ndeck standard\nzone stock: pile, hidden\nzone hand: per player, private\n'
                 'zone down: pile, hidden\nround:\n    deal 3 from stock to hand(players)\n'
                 '    each player p in players chooses at once a set cs of 1 to 2 cards from hand(p):\n'
                 '        move cs to down face down\n    end game\n')
    _, diags = cardlang.check_file(str(f))
    assert [d.code for d in diags if d.is_error] == ["E048"]
