"""Coucou (seed 003): one scenario per numbered rule of docs/rules/coucou.md.

Seats are numbered clockwise, so with play to the right the dealer's right is the seat before his.
With 5 players and P0 dealing, the deal and the turns go P4, P3, P2, then P1 (the last player).
A stack lists the shuffled cards top first: one card each for P4, P3, P2, P1, three for the dealer,
then the top of the talon.
"""

import pytest

from scenario import game, labels, play, start

COUCOU = "games/coucou.cards"


def deal5(p4, p3, p2, p1, dealer3, talon_top, *rest):
    return [p4, p3, p2, p1, *dealer3, talon_top, *rest]


def first_round(stack, players=5, **options):
    """A game whose first dealer is P0, the first shuffle stacked."""
    return start(COUCOU, players, stack=stack, draws=[0], **options)


def test_rule_1_deck_has_32_cards_for_5_or_6_players_and_52_from_7():
    assert game(COUCOU, 5).deck.size == 32
    assert game(COUCOU, 6).deck.size == 32
    assert game(COUCOU, 7).deck.size == 52
    assert game(COUCOU, 20).deck.size == 52


def test_rule_1_deck_is_chosen_from_the_starting_count_not_after_eliminations():
    st = first_round(deal5("Ks", "Qs", "Js", "As", ["10s", "9s", "8s"], "7h"), tokens=1)
    play(st, "keep 10♠", "keep", "keep", "keep", "keep")
    # P1 held the ace and was eliminated: four players remain, the deck is still 32 cards
    assert st.active == [True, False, True, True, True]
    assert sum(len(z) for z in st.zones) == 32


def test_rule_2_ace_is_lowest_and_suits_do_not_count():
    # P1 holds the ace of spades; every other card is higher whatever its suit
    st = first_round(deal5("7c", "8d", "9h", "As", ["Kh", "Qh", "Jh"], "10c"))
    play(st, "keep K♥", "keep", "keep", "keep", "keep")
    assert st.var("tokens") == [5, 4, 5, 5, 5]


def test_rule_2_with_32_cards_the_seven_is_just_above_the_ace():
    st = first_round(deal5("7c", "8d", "9h", "As", ["Kh", "Qh", "Jh"], "10c"))
    play(st, "keep K♥", "keep", "keep", "keep", "keep")
    assert st.var("tokens")[4] == 5  # the 7 beat the ace
    st = first_round(deal5("7c", "8d", "9h", "10s", ["Kh", "Qh", "Jh"], "10c"))
    play(st, "keep K♥", "keep", "keep", "keep", "keep")
    assert st.var("tokens")[4] == 4  # and is the lowest when there is no ace


def test_rule_2_with_52_cards_the_order_is_ace_two_to_king():
    # 7 players, P0 deals: P6 P5 P4 P3 P2 then P1 last
    stack = ["2c", "3d", "Kc", "Qc", "Jc", "As", "Kh", "Qh", "Jh", "10c"]
    st = start(COUCOU, 7, stack=stack, draws=[0])
    play(st, "keep K♥", *["keep"] * 6)
    assert st.var("tokens") == [5, 4, 5, 5, 5, 5, 5]  # P1's ace is lowest; the 2 of P6 is not
    stack = ["2c", "3d", "Kc", "Qc", "Jc", "4s", "Kh", "Qh", "Jh", "10c"]
    st = start(COUCOU, 7, stack=stack, draws=[0])
    play(st, "keep K♥", *["keep"] * 6)
    assert st.var("tokens")[6] == 4


def test_rule_3_first_dealer_is_drawn_and_the_deal_passes_right():
    st = start(COUCOU, 5, draws=[2])
    assert st.var("dealer") == 2 and st.current_player == 2
    st = first_round(deal5("7c", "8d", "9h", "As", ["Kh", "Qh", "Jh"], "10c"))
    play(st, "keep K♥", "keep", "keep", "keep", "keep")
    assert st.var("dealer") == 4  # the player on P0's right
    assert st.current_player == 4  # who now keeps one of his three cards


def test_rule_3_first_dealer_is_random_across_seeds():
    dealers = {start(COUCOU, 5, seed=s).var("dealer") for s in range(40)}
    assert dealers == {0, 1, 2, 3, 4}


def test_rule_4_dealer_deals_one_card_each_from_his_right_then_three_to_himself():
    st = first_round(deal5("7c", "8d", "9h", "As", ["Kh", "Qh", "Jh"], "10c"))
    assert [st.zone("hand", s) for s in (4, 3, 2, 1)] == [["7c"], ["8d"], ["9h"], ["As"]]
    assert sorted(st.zone("hand", 0)) == sorted(["Kh", "Qh", "Jh"])
    assert len(st.zone("talon")) == 32 - 7


def test_rule_4_every_deal_starts_from_the_whole_deck_shuffled():
    st = first_round(deal5("7c", "8d", "9h", "As", ["Kh", "Qh", "Jh"], "10c"))
    play(st, "keep K♥", "keep", "keep", "keep", "keep")
    hands = sum(len(st.zone("hand", s)) for s in range(5))
    assert hands == 7 and len(st.zone("talon")) == 25  # the cards of round 1 went back in


def test_rule_5_dealer_keeps_any_one_card_and_puts_two_under_the_talon_face_down():
    st = first_round(deal5("7c", "8d", "9h", "As", ["Kh", "Qh", "Jh"], "10c"))
    assert st.current_player == 0
    assert sorted(labels(st)) == sorted(["keep K♥", "keep Q♥", "keep J♥"])
    play(st, "keep Q♥")  # any card, not only the highest
    assert st.zone("hand", 0) == ["Qh"]
    assert sorted(st.zone("talon")[:2]) == ["Jh", "Kh"]  # at the bottom
    assert st.zone("talon")[-1] == "10c"  # the top is unchanged
    assert st.knows(0, "Kh") and not st.knows(1, "Kh") and not st.knows(4, "Jh")


def test_rule_6_players_from_the_dealers_right_keep_or_change_except_dealer_and_last():
    st = first_round(deal5("7c", "8d", "9h", "As", ["Kh", "Qh", "Jh"], "10c"))
    play(st, "keep K♥")
    order = []
    for _ in range(3):
        order.append(st.current_player)
        assert labels(st) == ["keep", "change"]
        play(st, "keep")
    assert order == [4, 3, 2]
    assert st.current_player == 1  # the last player comes after them


def test_rule_6_change_swaps_with_the_right_hand_neighbour():
    st = first_round(deal5("7c", "8d", "9h", "As", ["Kh", "Qh", "Jh"], "10c"))
    play(st, "keep K♥", "change")  # P4 changes with P3
    assert st.zone("hand", 4) == ["8d"] and st.zone("hand", 3) == ["7c"]


def test_rule_6_a_neighbour_with_a_king_says_coucou_and_the_swap_is_refused():
    st = first_round(deal5("7c", "Kd", "9h", "As", ["Kh", "Qh", "Jh"], "10c"))
    play(st, "keep K♥", "change")
    assert st.zone("hand", 4) == ["7c"] and st.zone("hand", 3) == ["Kd"]
    assert all(st.knows(s, "Kd") for s in range(5))  # the King becomes known to all
    assert "P3: Coucou!" in st.transcript(1)


def test_rule_7_a_completed_swap_is_seen_only_by_the_two_players():
    st = first_round(deal5("7c", "8d", "9h", "As", ["Kh", "Qh", "Jh"], "10c"))
    play(st, "keep K♥", "change")
    for card in ("7c", "8d"):
        assert st.knows(4, card) and st.knows(3, card)
        assert not any(st.knows(s, card) for s in (0, 1, 2))
    obs = st.observation(2)
    assert obs["zones"]["hand"][3] == [None] and obs["zones"]["hand"][4] == [None]


def test_rule_8_the_last_player_may_change_with_the_top_of_the_talon():
    st = first_round(deal5("7c", "8d", "9h", "As", ["Kh", "Qh", "Jh"], "10c"))
    play(st, "keep K♥", "keep", "keep", "keep")
    assert st.current_player == 1 and labels(st) == ["keep", "change"]
    st2 = st.clone()
    play(st, "change")
    # P1 took the 10 of clubs and his ace went on the talon; he no longer holds the lowest card
    assert st.var("tokens") == [5, 5, 5, 5, 4]  # P4's 7 of clubs is now the lowest
    play(st2, "keep")
    assert st2.var("tokens") == [5, 4, 5, 5, 5]


def test_rule_8_a_king_on_the_talon_is_shown_and_the_swap_refused():
    st = first_round(deal5("7c", "8d", "9h", "As", ["Kh", "Qh", "Jh"], "Kc"))
    play(st, "keep Q♥", "keep", "keep", "keep", "change")
    assert st.var("tokens") == [5, 4, 5, 5, 5]  # P1 kept his ace
    assert any("a King" in line for line in st.transcript(3))
    assert any("shown: K♣" in line for line in st.transcript(3))


def test_rule_9_the_dealer_keeps_his_card_without_a_turn():
    st = first_round(deal5("7c", "8d", "9h", "As", ["Kh", "Qh", "Jh"], "10c"))
    play(st, "keep J♥", "keep", "keep", "keep", "keep")
    # the round is over after the last player: the next decision is the next dealer's
    assert st.var("dealer") == 4 and labels(st)[0].startswith("keep ")


def test_rule_10_every_player_with_the_lowest_rank_loses_a_token():
    st = first_round(deal5("7c", "7d", "9h", "10s", ["Kh", "Qh", "Jh"], "10c"))
    play(st, "keep K♥", "keep", "keep", "keep", "keep")
    assert st.var("tokens") == [5, 5, 5, 4, 4]  # both sevens lose


def test_rule_10_all_cards_are_revealed_at_the_end_of_the_round():
    st = first_round(deal5("7c", "8d", "9h", "10s", ["Kh", "Qh", "Jh"], "10c"))
    play(st, "keep K♥", "keep", "keep", "keep", "keep")
    log = st.transcript(2)
    for line in ("P4 shows 7♣", "P3 shows 8♦", "P1 shows 10♠", "P0 shows K♥"):
        assert line in log


def test_rule_10_perfect_equality_nobody_loses():
    # 5 players with the same rank: a stacked deal of five queens is impossible with one deck,
    # so use 7 players and a 52-card deck? Still four of a rank. Equality needs all equal ranks:
    # with 5 players and 4 suits that cannot happen, so two players are eliminated first.
    st = start(COUCOU, 5, tokens=1, draws=[0], stack=[
        # round 1: P2 and P1 hold the two lowest cards (aces) and are eliminated
        ["Kc", "Kd", "As", "Ac", "Kh", "Qh", "Jh", "10c"],
    ])
    play(st, "keep K♥", "keep", "keep", "keep", "keep")
    assert st.active == [True, False, False, True, True]
    # round 2: dealer P4; P3 and P0 are the others (P3 first, P0 last); all hold eights
    st2 = start(COUCOU, 5, tokens=1, draws=[0], stack=[
        ["Kc", "Kd", "As", "Ac", "Kh", "Qh", "Jh", "10c"],
        ["8c", "8d", "8h", "Kh", "Qh", "10c"],
    ])
    play(st2, "keep K♥", "keep", "keep", "keep", "keep")
    play(st2, "keep 8♥", "keep", "keep")
    assert st2.active == [True, False, False, True, True]
    assert any("égalité parfaite" in line for line in st2.transcript())


def test_rule_11_tokens_start_at_the_option_value():
    assert start(COUCOU, 5).var("tokens") == [5] * 5
    assert start(COUCOU, 5, tokens=3).var("tokens") == [3] * 5
    with pytest.raises(Exception, match="1 to 20"):
        game(COUCOU, 5, tokens=0)


def test_rule_11_a_player_without_tokens_is_eliminated_and_skipped():
    st = first_round(deal5("7c", "8d", "9h", "As", ["Kh", "Qh", "Jh"], "10c"), tokens=1)
    play(st, "keep K♥", "keep", "keep", "keep", "keep")
    assert st.active == [True, False, True, True, True]
    # next dealer P4; turns go P3, P2 and then P0 is the last player (P1 is skipped)
    play(st, labels(st)[0])
    seen = []
    while st.var("dealer") == 4 and not st.is_terminal():
        seen.append(st.current_player)
        play(st, "keep")
    assert seen == [3, 2, 0]


def test_rule_11_an_eliminated_player_is_skipped_as_dealer_and_neighbour():
    # P4 is eliminated in round 1 (dealer P0): the deal then passes to P3, not P4
    st = first_round(deal5("As", "8d", "9h", "10s", ["Kh", "Qh", "Jh"], "10c"), tokens=1)
    play(st, "keep K♥", "keep", "keep", "keep", "keep")
    assert st.active == [True, True, True, True, False]
    assert st.var("dealer") == 3


def test_rule_12_with_two_players_the_non_dealer_exchanges_with_the_talon():
    st = start(COUCOU, 5, tokens=1, draws=[0], stack=[
        ["Ac", "Ad", "Ah", "Kc", "Qh", "Jh", "10h", "9c"],  # P4, P3 and P2 hold aces: out
        ["7c", "Kh", "Qh", "Jh", "9d"],  # round 2: P0's card, the dealer's three, the talon's top
    ])
    play(st, "keep Q♥", "keep", "keep", "keep", "keep")
    assert st.active == [True, True, False, False, False]
    assert st.var("dealer") == 1  # right of P0, skipping the eliminated
    # P1 deals to P0 (his right), who is also his left: P0 is first and last at once
    play(st, "keep K♥")
    assert st.current_player == 0 and labels(st) == ["keep", "change"]
    play(st, "change")
    # P0 took the 9 of diamonds from the talon; it still loses to the King, and P1 wins
    assert st.zone("hand", 0) == ["9d"] and st.zone("talon")[-1] == "7c"
    assert st.is_terminal() and st.winners() == (1,)


def test_rule_13_the_last_player_left_wins():
    st = start(COUCOU, 5, tokens=1, draws=[0], stack=[
        ["Ac", "Ad", "Ah", "As", "Kh", "Qh", "Jh", "10c"],  # four aces: all but the dealer are out
    ])
    play(st, "keep K♥", "keep", "keep", "keep", "keep")
    assert st.is_terminal()
    assert st.winners() == (0,) and st.returns() == [1.0, 0.0, 0.0, 0.0, 0.0]
