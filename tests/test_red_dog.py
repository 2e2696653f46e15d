"""Red Dog (seed 004): one scenario per numbered rule of docs/rules/red_dog.md, and the chip invariant.

Seats are numbered clockwise and play moves left, so with 3 players and P0 dealing the cards are
dealt, and the bets made, in the order P1, P2, P0. Unless a test is about rule 3, the first dealer
is fixed with `first_dealer="random"` and a fixed draw; the first shuffle is then the first deal.
A deal's stack lists the cards top first: one at a time round the table from the dealer's left,
then the stock cards turned up after the bets, in order.
"""

import random

import pytest

from scenario import game, labels, play, start

RED_DOG = "games/red_dog.cards"

# Three hands that cannot beat much: P1 holds one heart, P2 diamonds, P0 spades.
P1_HAND = ["Kh", "2c", "3c", "4c", "5c"]
P2_HAND = ["7d", "9d", "Jd", "2h", "3h"]
P0_HAND = ["As", "2s", "3s", "4s", "5s"]


def deal_stack(players, dealer, hands, turned=(), size=5):
    """The shuffle of one deal, top first: `hands[seat]` dealt one card at a time from the dealer's left."""
    order = [(dealer + 1 + i) % players for i in range(players)]
    stack = [hands[seat][k] for k in range(size) for seat in order]
    return stack + list(turned)


def new_game(turned=(), players=3, dealer=0, hands=None, later=(), **options):
    """A game whose first dealer is `dealer` and whose first deal is stacked."""
    hands = hands or {1: P1_HAND, 2: P2_HAND, 0: P0_HAND}
    options.setdefault("first_dealer", "random")
    first = deal_stack(players, dealer, hands, turned)
    return start(RED_DOG, players, stack=[first, *later], draws=[dealer], **options)


def decisions_to_end(st, move="decline"):
    n = 0
    while not st.is_terminal():
        play(st, move)
        n += 1
    return n


# ---------------------------------------------------------------------------------- rule 1
def test_rule_1_each_player_starts_with_the_chips_option():
    st = new_game()
    assert st.var("chips") == [19, 19, 19]  # 20, less the ante
    st = new_game(chips=50)
    assert st.var("chips") == [49, 49, 49]
    assert st.var("pot") == 3


def test_rule_1_chips_option_ranges_from_1_to_1000():
    game(RED_DOG, 3, chips=1000)
    for bad in (0, 1001):
        with pytest.raises(Exception, match="1 to 1000"):
            game(RED_DOG, 3, chips=bad)


# ---------------------------------------------------------------------------------- rule 2
def test_rule_2_every_player_antes_one_chip_at_the_start():
    st = new_game(players=3)
    assert st.var("chips") == [19, 19, 19] and st.var("pot") == 3
    assert any("everyone antes: the pot holds 3" in line for line in st.transcript(0))


def test_rule_2_by_default_no_ante_at_later_deals():
    st = new_game()
    play(st, "decline", "decline", "decline")
    # second deal: no new ante; the pot holds the first ante and three forfeits
    assert st.var("dealer") == 1
    assert st.var("chips") == [18, 18, 18] and st.var("pot") == 6


def test_rule_2_option_ante_every_deal_antes_at_every_deal_instead():
    st = new_game(ante_every_deal=True)
    assert st.var("chips") == [19, 19, 19] and st.var("pot") == 3  # the first deal's ante
    play(st, "decline", "decline", "decline")
    assert st.var("chips") == [17, 17, 17] and st.var("pot") == 9  # a forfeit and an ante each


def test_rule_2_an_emptied_pot_is_refilled_at_once_in_both_modes():
    for every_deal in (False, True):
        st = new_game(turned=["Qh"], ante_every_deal=every_deal)
        play(st, "bet 3", "show K♥")  # P1 bets the pot with K♥ against Q♥ and wins it
        assert st.var("chips") == [18, 21, 18]  # 19 + 3, then everyone antes again
        assert st.var("pot") == 3


# ---------------------------------------------------------------------------------- rule 3
def draws_seen(st, seat):
    """The draw for the first deal as `seat` read it in the log."""
    return [line for line in st.transcript(seat) if " draws " in line]


def test_rule_3_the_highest_card_drawn_deals_first():
    st = start(RED_DOG, 3, stack=[["5c", "Kd", "9h"]])
    assert draws_seen(st, 0) == ["P0 draws 5♣", "P1 draws K♦", "P2 draws 9♥"]
    assert st.var("dealer") == 1
    assert st.current_player == 2  # the dealer's left bets first
    assert "P1 drew highest and deals first" in st.transcript(0)


def test_rule_3_the_draw_is_face_up_and_the_ace_is_high():
    st = start(RED_DOG, 3, stack=[["Ac", "Kd", "2h"]])
    assert st.var("dealer") == 0
    for seat in range(3):  # every seat saw every card drawn
        assert draws_seen(st, seat) == ["P0 draws A♣", "P1 draws K♦", "P2 draws 2♥"]


def test_rule_3_only_those_tied_for_highest_draw_again():
    st = start(RED_DOG, 3, stack=[["Kc", "Kd", "9h", "2c", "3c"]])
    assert draws_seen(st, 2) == ["P0 draws K♣", "P1 draws K♦", "P2 draws 9♥",
                                 "P0 draws 2♣", "P1 draws 3♣"]  # P2 was not tied: no second card
    assert any("P0, P1 tie for highest" in line for line in st.transcript(2))
    assert st.var("dealer") == 1


def test_rule_3_the_drawn_cards_go_back_into_the_deck_for_the_deal():
    st = start(RED_DOG, 3, stack=[["5c", "Kd", "9h"]])
    assert all(st.zone("drawn", s) == [] for s in range(3))
    assert sum(len(st.zone("hand", s)) for s in range(3)) + len(st.zone("stock")) == 52


def test_rule_3_option_first_dealer_random():
    st = start(RED_DOG, 4, first_dealer="random", draws=[2])
    assert st.var("dealer") == 2
    assert all(st.zone("drawn", s) == [] for s in range(4))  # nobody drew a card
    dealers = {start(RED_DOG, 4, first_dealer="random", seed=s).var("dealer") for s in range(40)}
    assert dealers == {0, 1, 2, 3}


# ---------------------------------------------------------------------------------- rule 4
def test_rule_4_five_cards_each_face_down_one_at_a_time_from_the_dealers_left():
    st = new_game(dealer=0)
    # the stack went round P1, P2, P0 five times: each hand is exactly the cards stacked for it
    assert st.zone("hand", 1) == P1_HAND
    assert st.zone("hand", 2) == P2_HAND
    assert st.zone("hand", 0) == P0_HAND
    assert len(st.zone("stock")) == 52 - 15
    assert st.knows(1, "Kh") and not st.knows(2, "Kh") and not st.knows(0, "Kh")


def test_rule_4_the_deal_starts_at_the_dealers_left():
    hands = {2: P1_HAND, 0: P2_HAND, 1: P0_HAND}
    st = new_game(dealer=1, hands=hands)  # P1 deals: P2 first, the dealer last
    assert st.zone("hand", 2) == P1_HAND and st.zone("hand", 1) == P0_HAND
    assert st.current_player == 2


@pytest.mark.parametrize("players,size", [(2, 5), (8, 5), (9, 4), (10, 4)])
def test_rule_4_four_cards_each_with_more_than_eight_players(players, size):
    st = start(RED_DOG, players, seed=3)
    assert all(len(st.zone("hand", s)) == size for s in range(players))


def test_rule_4_four_or_five_cards_count_the_players_still_in():
    # 9 players, chips 4, an ante every deal: P1 loses all his chips in the first deal and cannot
    # pay the second ante, so the second deal is for 8 players, five cards each
    hands = {s: [] for s in range(9)}
    ranks = ["2", "3", "4", "5", "6", "7", "8", "9", "10"]
    for s in range(9):
        hands[s] = [ranks[s] + suit for suit in "cdhs"]
    first = deal_stack(9, 0, hands, turned=["Ac"], size=4)
    st = start(RED_DOG, 9, stack=[first], draws=[0], first_dealer="random", chips=4, ante_every_deal=True)
    assert len(st.zone("hand", 4)) == 4
    play(st, "bet 3")  # P1 holds 3♣ 3♦ 3♥ 3♠: nothing beats the A♣
    assert st.var("chips", 1) == 0
    play(st, *["decline"] * 8)
    assert st.active[1] is False
    assert all(len(st.zone("hand", s)) == 5 for s in range(9) if s != 1)


def test_rule_4_every_deal_is_shuffled_from_the_whole_deck():
    second = deal_stack(3, 1, {2: ["2c", "3c", "4c", "5c", "6c"], 0: ["2d", "3d", "4d", "5d", "6d"],
                               1: ["2h", "3h", "4h", "5h", "6h"]})
    st = new_game(turned=["Ah"], later=[second])
    play(st, "bet 1", "decline", "decline")
    assert st.zone("turned") == []  # the turned card went back into the deck
    assert st.zone("hand", 2) == ["2c", "3c", "4c", "5c", "6c"]
    assert sum(len(st.zone("hand", s)) for s in range(3)) + len(st.zone("stock")) == 52


# ---------------------------------------------------------------------------------- rule 5
def test_rule_5_betting_goes_from_the_dealers_left_and_ends_with_the_dealer():
    st = new_game(dealer=0)
    order = []
    while st.var("dealer") == 0:
        order.append(st.current_player)
        play(st, "decline")
    assert order == [1, 2, 0]


def test_rule_5_a_bet_is_from_1_up_to_the_pot():
    st = new_game()
    assert labels(st) == ["bet 1", "bet 2", "bet 3", "decline"]  # the pot holds 3


def test_rule_5_a_bet_is_no_more_than_the_player_has():
    st = new_game(chips=3)
    play(st, "decline", "decline")  # the pot grows to 5; P0 has 2 chips
    assert st.var("pot") == 5 and st.var("chips", 0) == 2
    assert labels(st) == ["bet 1", "bet 2", "decline"]


def test_rule_5_declining_forfeits_one_chip_without_showing():
    st = new_game(turned=["Qh"])
    play(st, "decline")
    assert st.var("chips", 1) == 18 and st.var("pot") == 4
    assert st.zone("turned") == []  # no card is turned for a player who declines
    assert not any(st.knows(seat, card) for seat in (0, 2) for card in P1_HAND)
    assert st.current_player == 2


# ---------------------------------------------------------------------------------- rule 6
def test_rule_6_after_a_bet_the_next_stock_card_is_turned_face_up():
    st = new_game(turned=["Qh", "8d"])
    play(st, "bet 1")
    assert st.zone("turned") == ["Qh"]
    assert all(st.knows(seat, "Qh") for seat in range(3))
    play(st, "show K♥", "bet 1")
    assert st.zone("turned") == ["Qh", "8d"]


def test_rule_6_a_higher_card_of_the_same_suit_wins_shows_only_that_card():
    st = new_game(turned=["Qh"])
    play(st, "bet 2", "show K♥")
    assert st.var("chips", 1) == 21  # his bet back, plus 2 from the pot
    assert st.var("pot") == 1
    assert st.knows(0, "Kh") and st.knows(2, "Kh")
    assert not any(st.knows(seat, card) for seat in (0, 2) for card in P1_HAND[1:])
    assert "P1 shows K♥" in st.transcript(0)


def test_rule_6_without_a_winning_card_the_whole_hand_is_shown_and_the_bet_goes_to_the_pot():
    st = new_game(turned=["Ah"])  # nothing beats the ace
    play(st, "bet 3")
    assert st.var("chips", 1) == 16 and st.var("pot") == 6
    assert all(st.knows(seat, card) for seat in (0, 2) for card in P1_HAND)


def test_rule_6_a_higher_rank_of_another_suit_does_not_win():
    st = new_game(turned=["Qc"])  # P1's K♥ is higher but not a club; his clubs are lower
    play(st, "bet 2")
    assert st.var("chips", 1) == 17 and st.var("pot") == 5


def test_rule_6_the_ace_is_high_when_betting():
    st = new_game(turned=["Ks"])
    play(st, "decline", "decline", "bet 1", "show A♠")  # P0's A♠ beats the K♠
    assert st.var("chips", 0) == 20


def test_rule_6_ours_the_winner_is_asked_which_card_to_show_even_with_only_one():
    # asking every winner keeps secret whether he had a second winning card
    st = new_game(turned=["Qh"])
    play(st, "bet 1")
    assert st.current_player == 1 and labels(st) == ["show K♥"]
    assert st.var("chips", 1) == 19  # not paid before the card is shown
    play(st, "show K♥")
    assert st.var("chips", 1) == 20 and st.current_player == 2


def test_rule_6_ours_when_several_cards_win_the_bettor_chooses_which_to_show():
    st = new_game(turned=["8d"])
    play(st, "decline", "bet 2")  # P2 holds 9♦ and J♦: both beat the 8♦
    assert st.current_player == 2 and labels(st) == ["show 9♦", "show J♦"]
    play(st, "show J♦")
    assert st.knows(0, "Jd") and not st.knows(0, "9d")
    assert st.var("chips", 2) == 21


# ---------------------------------------------------------------------------------- rule 7
def test_rule_7_shown_cards_stay_known_until_the_next_deal():
    st = new_game(turned=["Ah", "Ac"])
    play(st, "bet 1")  # P1 loses and shows his hand
    play(st, "bet 1")  # P2 loses too
    for card in P1_HAND + P2_HAND:
        assert st.knows(0, card)
    assert st.observation(0)["zones"]["hand"][1] == ["K♥", "2♣", "3♣", "4♣", "5♣"]
    play(st, "decline")  # the deal is over; the next one shuffles the whole deck
    assert not any(st.knows(0, card) for card in P1_HAND if card not in st.zone("hand", 0))


# ---------------------------------------------------------------------------------- rule 8
def test_rule_8_an_empty_pot_is_refilled_before_the_next_player_bets():
    st = new_game(turned=["Qh"])
    play(st, "bet 3", "show K♥")  # P1 bets the whole pot and wins it
    assert st.current_player == 2
    assert st.var("pot") == 3 and st.var("chips") == [18, 21, 18]
    assert labels(st) == ["bet 1", "bet 2", "bet 3", "decline"]


# ---------------------------------------------------------------------------------- rule 9
def _broke_p1(**options):
    # chips 4: after the ante 3 each and a pot of 3. P1 bets 3 and loses (0 left, pot 6); P2 bets 3
    # and wins (pot 3); P0, the dealer, bets the whole pot and wins it.
    return new_game(turned=["Ah", "8d", "Qs"], chips=4, **options)


def test_rule_9_ours_a_player_who_cannot_pay_the_ante_is_eliminated():
    st = _broke_p1()
    play(st, "bet 3", "bet 3", "show 9♦", "bet 3", "show A♠")
    # the pot was emptied: everyone antes again, and P1 has nothing to ante with
    assert st.active == [True, False, True]
    assert st.var("chips") == [5, 0, 5] and st.var("pot") == 2
    assert "P1 cannot pay the ante" in st.transcript(2)
    assert st.var("dealer") == 2  # the deal skips P1
    assert st.current_player == 0


def test_rule_9_ours_a_player_who_cannot_pay_a_forfeit_is_eliminated():
    st = new_game(turned=["Ah"], chips=4)
    play(st, "bet 3", "decline", "decline")  # P1 is left with no chip; the deal passes to P1
    assert st.var("chips") == [2, 0, 2] and st.active == [True, True, True]
    assert st.var("dealer") == 1
    play(st, "decline", "decline")  # P2 and P0; then P1 can neither bet nor forfeit
    assert st.active == [True, False, True]
    assert "P1 has no chip to bet or to forfeit" in st.transcript(0)
    assert st.var("dealer") == 2 and st.current_player == 0


def test_rule_9_ours_with_ante_every_deal_a_broke_player_is_eliminated_at_the_next_ante():
    st = new_game(turned=["Ah"], chips=4, ante_every_deal=True)
    play(st, "bet 3", "decline", "decline")
    assert st.active == [True, False, True]
    assert st.var("chips") == [1, 0, 1] and st.var("pot") == 10


# --------------------------------------------------------------------------------- rule 10
def test_rule_10_after_the_dealers_turn_the_deal_passes_left():
    st = new_game(dealer=0)
    play(st, "decline", "decline")
    assert st.var("dealer") == 0 and st.current_player == 0  # the dealer bets last
    play(st, "decline")
    assert st.var("dealer") == 1 and st.current_player == 2
    assert st.var("deals") == [1, 1, 0]


# --------------------------------------------------------------------------------- rule 11
def test_rule_11_the_game_ends_after_three_full_rotations_by_default():
    st = new_game()
    assert decisions_to_end(st) == 3 * 3 * 3  # 3 rotations of 3 deals, 3 forfeits each
    assert st.var("deals") == [3, 3, 3]


def test_rule_11_option_rounds_sets_the_number_of_rotations():
    st = new_game(players=2, hands={1: P1_HAND, 0: P0_HAND}, rounds=1)
    assert decisions_to_end(st) == 2 * 2
    assert st.var("deals") == [1, 1]
    st = new_game(players=2, hands={1: P1_HAND, 0: P0_HAND}, rounds=5)
    assert decisions_to_end(st) == 5 * 2 * 2


def test_rule_11_ours_a_rotation_counts_the_players_still_in():
    st = _broke_p1(rounds=1)
    play(st, "bet 3", "bet 3", "show 9♦", "bet 3", "show A♠")  # P1 is out; P0 has dealt, P2 deals next
    assert st.active == [True, False, True] and not st.is_terminal()
    play(st, "decline", "decline")  # P2's deal: now everyone still in has dealt once
    assert st.is_terminal()
    assert st.var("deals") == [1, 0, 1]


def test_rule_11_equal_chips_share_the_win_and_the_pot_belongs_to_no_one():
    st = new_game()
    decisions_to_end(st)
    assert st.var("chips") == [10, 10, 10] and st.var("pot") == 30
    assert st.winners() == (0, 1, 2)
    # the payoff is the chips won or lost: 10 of the 20 each started with are in the pot, nobody's
    assert st.returns() == [-10.0, -10.0, -10.0]
    assert st.scores() == [10, 10, 10]


def test_rule_11_the_most_chips_wins():
    st = new_game(turned=["Qh"], rounds=1)
    play(st, "bet 2", "show K♥")  # P1 wins 2
    decisions_to_end(st)
    assert st.winners() == (1,)
    assert st.returns() == [float(c - 20) for c in st.scores()]  # the payoff: chips won or lost
    assert st.scores()[1] == max(st.scores())


def test_rule_11_ours_the_game_ends_when_only_one_player_has_chips():
    st = new_game(players=2, hands={1: P1_HAND, 0: P0_HAND}, turned=["Ah"], chips=2)
    play(st, "bet 1")  # P1 loses his last chip
    assert st.is_terminal()
    assert st.var("chips") == [1, 0] and st.var("pot") == 3
    assert st.winners() == (0,)


# ------------------------------------------------------------------------------ our choices
@pytest.mark.parametrize("players", range(2, 11))
def test_ours_the_stock_always_holds_a_card_for_every_bet_of_a_deal(players):
    st = start(RED_DOG, players, seed=players)
    assert len(st.zone("stock")) >= 12 >= players


# ----------------------------------------------------------------------------- invariants
@pytest.mark.parametrize("players,options", [
    (2, {}), (3, {"ante_every_deal": True}), (5, {}), (7, {"chips": 3}), (10, {"first_dealer": "random"}),
])
def test_chips_are_conserved_at_every_step(players, options):
    g = game(RED_DOG, players, **options)
    total = players * g.options["chips"]
    for seed in range(60):
        rng = random.Random(seed)
        st = g.new_initial_state(seed=seed, log=False)
        steps = 0
        while True:
            assert sum(st.var("chips")) + st.var("pot") == total
            assert all(c >= 0 for c in st.var("chips"))
            assert all(c == 0 for c, on in zip(st.var("chips"), st.active) if not on)
            if st.is_terminal():
                break
            legal = st.legal_action_ids()
            st.apply(legal[rng.randrange(len(legal))])
            steps += 1
        assert st.winners()
