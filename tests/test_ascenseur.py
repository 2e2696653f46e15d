"""Ascenseur (seed 002): one scenario per numbered rule of docs/rules/ascenseur.md, and its variants.

Seats are numbered clockwise and play moves left (clockwise), so with P0 dealing the deal, the
bids and the first trick go P1, P2, …, then P0. A stack lists the shuffled cards top first: one
card to each player in that order, round after round, then the card that is turned.
"""

import random
import shutil

import pytest

from scenario import game, labels, path, play, play_out_with_scores_never_decreasing, start

ASCENSEUR = "games/ascenseur.cards"
BLIND = "examples/ascenseur_blind.cards"
CONSTRAINED = "examples/ascenseur_constrained.cards"
BOTH = "examples/ascenseur_blind_constrained.cards"
ALL_FILES = [ASCENSEUR, BLIND, CONSTRAINED, BOTH]

# Three hands for three players: P1 holds hearts, P2 spades and the 2 of diamonds, P0 the ace,
# 3 and 2 of hearts and low clubs. Unused: 3 and 4 of spades, diamonds from the 3, clubs from the 9.
P1_HEARTS = ["Kh", "Qh", "Jh", "10h", "9h", "8h", "7h", "6h", "5h", "4h"]
P2_SPADES = ["As", "Ks", "Qs", "Js", "10s", "9s", "8s", "7s", "6s", "2d"]
P0_MIXED = ["Ah", "3h", "2h", "2c", "3c", "4c", "5c", "6c", "7c", "8c"]


def stack_for(hands, turned, dealer=0):
    """The shuffled stock, top first, that deals `hands` (one list per seat) and then turns `turned`."""
    n = len(hands)
    order = [(dealer + i) % n for i in range(1, n + 1)]
    out = [hands[seat][k] for k in range(len(hands[0])) for seat in order]
    return out + [turned]


def three(turned, hands=(P0_MIXED, P1_HEARTS, P2_SPADES), relative=ASCENSEUR, **options):
    """A 3-player game dealt by P0, its first deal stacked."""
    return start(relative, 3, stack=stack_for(list(hands), turned), draws=[0], **options)


# Two players: P1 holds the ten highest hearts and P0 ten clubs; with hearts trump (the 2 turned)
# P1 wins every trick whatever anyone plays.
TWO_HEARTS = ["Ah", "Kh", "Qh", "Jh", "10h", "9h", "8h", "7h", "6h", "5h"]
TWO_CLUBS = ["2c", "3c", "4c", "5c", "6c", "7c", "8c", "9c", "10c", "Jc"]


def two(*more_stacks, relative=ASCENSEUR):
    stacks = [stack_for([TWO_CLUBS, TWO_HEARTS], "2h")] + list(more_stacks)
    return start(relative, 2, stack=stacks, draws=[0])


def finish_deal(st):
    """Plays the first legal card until the next deal's bidding (or the end of the game)."""
    while not st.is_terminal() and not labels(st)[0].startswith("bid "):
        st.apply(st.legal_action_ids()[0])


def bids(n):
    return [f"bid {k}" for k in range(n + 1)]


def obs_trump(st, seat):
    return st.observation(seat)["variables"]["trump"]


# ---------------------------------------------------------------- rule 1: 20 deals, 10..1..10
def _deal_sizes(relative, players, seed):
    """Plays a whole game at random; the hand size seen at every bid, by deals counted so far."""
    st = game(relative, players).new_initial_state(seed=seed, log=False)
    rng = random.Random(seed)
    sizes = {}
    while not st.is_terminal():
        if labels(st)[0].startswith("bid "):
            k, size = st.var("deals_played"), st.var("hand_size")
            assert len(st.zone("hand", st.current_player)) == size
            offered = labels(st)
            assert set(offered) <= set(bids(size)) and len(offered) >= size
            sizes.setdefault(k, set()).add(size)
        legal = st.legal_action_ids()
        st.apply(legal[rng.randrange(len(legal))])
    return st, sizes


@pytest.mark.parametrize("players", [2, 3, 5])
def test_rule_1_twenty_deals_of_10_down_to_1_then_1_up_to_10(players):
    st, sizes = _deal_sizes(ASCENSEUR, players, seed=players)
    expected = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    assert sizes == {k: {expected[k]} for k in range(20)}
    assert st.var("deals_played") == 20


# ---------------------------------------------------------------- rule 2: dealer
def test_rule_2_the_first_dealer_is_random():
    dealers = {start(ASCENSEUR, 4, seed=s).var("dealer") for s in range(60)}
    assert dealers == {0, 1, 2, 3}
    assert start(ASCENSEUR, 4, draws=[2]).var("dealer") == 2


def test_rule_2_the_dealers_left_leads_the_first_trick_then_deals_next():
    st = three("9c")
    play(st, "bid 1", "bid 1", "bid 1")
    assert st.current_player == 1  # P1, the dealer's left, leads
    st = two()
    play(st, "bid 10", "bid 0")
    assert st.current_player == 1  # P1 leads the first trick
    finish_deal(st)
    assert st.var("dealer") == 1  # and deals the second deal
    assert st.current_player == 0  # whose left bids first


def test_rule_2_the_deal_goes_round_to_the_left_over_a_whole_game():
    st = game(ASCENSEUR, 3).new_initial_state(seed=11, draws=[0])
    rng = random.Random(11)
    seen = [(0, 0)]
    while not st.is_terminal():
        legal = st.legal_action_ids()
        st.apply(legal[rng.randrange(len(legal))])
        if not st.is_terminal():
            now = (st.var("deals_played"), st.var("dealer"))
            if now != seen[-1]:
                seen.append(now)
    assert [d for _, d in seen] == [k % 3 for k in range(20)]


# ---------------------------------------------------------------- rule 3: the deal
def test_rule_3_ours_the_dealer_deals_one_card_at_a_time_from_his_left():
    st = three("9c")
    assert st.zone("hand", 1) == P1_HEARTS
    assert st.zone("hand", 2) == P2_SPADES
    assert st.zone("hand", 0) == P0_MIXED
    assert len(st.zone("stock")) == 52 - 30 - 1
    # each player sees his own hand only
    assert st.knows(1, "Kh") and not st.knows(0, "Kh") and not st.knows(2, "Kh")


def test_rule_3_each_deal_starts_from_the_whole_deck_shuffled():
    st = two()
    play(st, "bid 10", "bid 0")
    finish_deal(st)
    assert st.var("hand_size") == 9
    assert [len(st.zone("hand", s)) for s in (0, 1)] == [9, 9]
    assert st.zone("played", 0) == [] and st.zone("won") == []
    assert len(st.zone("stock")) == 52 - 18 - 1 and len(st.zone("turned")) == 1
    assert sum(1 for line in st.transcript() if line == "stock is shuffled") == 2


# ---------------------------------------------------------------- rule 4: the turned card
def test_rule_4_the_turned_card_is_trump_and_seen_by_all():
    st = three("9c")
    assert st.zone("turned") == ["9c"]
    for seat in range(3):
        assert st.knows(seat, "9c")
        assert st.observation(seat)["zones"]["turned"] == ["9♣"]
        assert obs_trump(st, seat) == "clubs"
    play(st, "bid 0", "bid 0", "bid 0")
    finish_deal(st)  # it stays visible for the whole deal
    assert "face up on turned: 9♣" in st.transcript(2)


def test_rule_4_a_king_turned_means_no_trump():
    st = three("Kd")
    assert st.zone("turned") == ["Kd"] and obs_trump(st, 0) is None
    assert "a King is turned: no trump this deal" in st.transcript(1)
    # hearts led: the ace of spades is just a card of another suit, the 5 of hearts wins
    play(st, "bid 1", "bid 1", "bid 1", "5h", "As", "2h")
    assert st.var("tricks") == [0, 1, 0]


def test_rule_4_a_king_of_the_suit_held_is_still_no_trump():
    # same trick, with the King of spades turned (P2 holds the other spades): still no trump
    hands = (P0_MIXED, P1_HEARTS, ["As", "Qs", "Js", "10s", "9s", "8s", "7s", "6s", "5s", "2d"])
    st = three("Ks", hands=hands)
    play(st, "bid 1", "bid 1", "bid 1", "5h", "As", "2h")
    assert st.var("tricks") == [0, 1, 0]
    # with the 3 of spades turned the same ace is a trump and wins
    st = three("3s", hands=hands)
    play(st, "bid 1", "bid 1", "bid 1", "5h", "As", "2h")
    assert st.var("tricks") == [0, 0, 1]


# ---------------------------------------------------------------- rule 5: bidding
def test_rule_5_bids_from_the_dealers_left_dealer_last_0_to_hand_size():
    st = three("9c")
    order = []
    for k in (3, 4, 0):
        order.append(st.current_player)
        assert labels(st) == bids(10)
        play(st, f"bid {k}")
    assert order == [1, 2, 0]
    assert st.var("bid") == [0, 3, 4]


def test_rule_5_bids_are_public():
    st = three("9c")
    play(st, "bid 3", "bid 4")
    for seat in range(3):
        assert st.observation(seat)["player_variables"]["bid"][1:] == [3, 4]
        assert "P1 chooses bid 3" in st.transcript(seat)


# ---------------------------------------------------------------- rule 6: play
def test_rule_6_the_dealers_left_leads_any_card():
    st = three("9c")
    play(st, "bid 1", "bid 1", "bid 1")
    assert st.current_player == 1
    assert sorted(labels(st)) == sorted(st.game.deck.label_of(st.game.card(c)) for c in P1_HEARTS)


def test_rule_6_follow_suit_without_duty_to_play_higher():
    st = three("9c")
    play(st, "bid 1", "bid 1", "bid 1", "5h", "6s")
    assert st.current_player == 0
    assert sorted(labels(st)) == sorted(["A♥", "3♥", "2♥"])  # hearts only, low ones too
    play(st, "2h")
    assert st.var("tricks") == [0, 1, 0]


def test_rule_6_a_player_without_the_suit_led_plays_any_card_no_duty_to_trump():
    st = three("3d")  # diamonds trump: P2 holds one, the 2
    play(st, "bid 1", "bid 1", "bid 1", "5h")
    assert st.current_player == 2
    assert len(labels(st)) == 10  # void in hearts: any card, the trump or a spade
    play(st, "6s", "2h")  # P2 discards a spade rather than trump
    assert st.var("tricks") == [0, 1, 0]


def test_rule_6_an_illegal_card_is_refused():
    st = three("9c")
    play(st, "bid 1", "bid 1", "bid 1", "5h", "6s")
    with pytest.raises(ValueError):
        play(st, "2c")  # P0 holds hearts
    assert st.current_player == 0


# ---------------------------------------------------------------- rule 7: who wins a trick
def test_rule_7_a_trump_beats_the_suit_led_and_its_winner_leads():
    st = three("3s")  # spades trump
    play(st, "bid 1", "bid 1", "bid 1", "5h", "6s", "Ah")
    assert st.var("tricks") == [0, 0, 1]
    assert st.var("leader") == 2 and st.current_player == 2
    assert "P2 wins the trick (1 so far)" in st.transcript(0)


def test_rule_7_without_trump_the_highest_card_of_the_suit_led_wins():
    st = three("9c")  # clubs trump, nobody plays one
    play(st, "bid 1", "bid 1", "bid 1", "5h", "As", "3h")
    assert st.var("tricks") == [0, 1, 0]  # the ace of spades is of another suit
    assert st.current_player == 1
    st = three("9c")
    play(st, "bid 1", "bid 1", "bid 1", "5h", "As", "Ah")
    assert st.var("tricks") == [1, 0, 0]
    assert st.current_player == 0


def test_rule_7_the_highest_trump_wins():
    hands = (["6s", "3c", "4c", "5c", "6c", "7c", "8c", "9c", "10c", "Jc"], P1_HEARTS,
             ["5s", "7s", "8s", "9s", "10s", "Js", "Qs", "Ks", "As", "2c"])
    st = three("2s", hands=hands)
    play(st, "bid 1", "bid 1", "bid 1", "5h", "5s", "6s")
    assert st.var("tricks") == [1, 0, 0]
    assert st.current_player == 0


def test_rule_7_ours_the_trick_goes_to_the_won_pile_and_trick_counts_are_public():
    st = three("9c")
    play(st, "bid 1", "bid 1", "bid 1", "5h", "As", "3h")
    assert sorted(st.zone("won")) == sorted(["5h", "As", "3h"])
    assert all(st.zone("played", s) == [] for s in range(3))
    # ours: the number of tricks each player has taken is public
    assert all(st.observation(s)["player_variables"]["tricks"] == [0, 1, 0] for s in range(3))


# ---------------------------------------------------------------- rule 8: scoring (ours)
def test_rule_8_ours_an_exact_bid_scores_10_plus_bid_an_exact_zero_5_plus_hand_size():
    st = two()
    play(st, "bid 10", "bid 0")
    finish_deal(st)
    assert st.var("tricks") == [0, 0]  # reset for the next deal
    assert st.var("points") == [5 + 10, 10 + 10]
    assert "P1 bid 10, took 10: 20 points" in st.transcript(0)


def test_rule_8_ours_a_miss_scores_nothing():
    st = two()
    play(st, "bid 9", "bid 0")  # P1 takes 10, one too many
    finish_deal(st)
    assert st.var("points") == [15, 0]
    st = two()
    play(st, "bid 10", "bid 1")  # P0 takes none
    finish_deal(st)
    assert st.var("points") == [0, 20]


def test_rule_8_ours_an_exact_zero_scores_5_plus_the_hand_size_of_the_deal():
    # deal 2 has 9 cards and P1 deals: P0 holds nine hearts (trump), P1 nine clubs
    second = stack_for([TWO_HEARTS[:9], TWO_CLUBS[:9]], "2h", dealer=1)
    st = two(second)
    play(st, "bid 10", "bid 0")
    finish_deal(st)
    assert st.var("hand_size") == 9 and st.current_player == 0
    play(st, "bid 9", "bid 0")
    finish_deal(st)
    assert st.var("points") == [15 + 19, 20 + 5 + 9]


def test_rule_8_ours_the_formula_is_in_the_file_and_a_variant_can_replace_it(tmp_path):
    variant = tmp_path / "flat.cards"
    shutil.copy(path(ASCENSEUR), tmp_path / "ascenseur.cards")  # `extends` reaches only the variant's root
    variant.write_text('game "Flat"\nextends "ascenseur.cards"\n'
                       "define deal_points(p) = 1 if tricks(p) == bid(p) else 0\n")
    import cardlang

    st = cardlang.load(str(variant), players=2).new_initial_state(
        stack=stack_for([TWO_CLUBS, TWO_HEARTS], "2h"), draws=[0])
    play(st, "bid 10", "bid 0")
    finish_deal(st)
    assert st.var("points") == [1, 1]


# ---------------------------------------------------------------- rule 9: replayed deal
def test_rule_9_if_nobody_makes_his_bid_the_deal_is_replayed():
    again = stack_for([["As", "Ks", "Qs", "Js", "10s", "9s", "8s", "7s", "6s", "5s"],
                       ["Ad", "Kd", "Qd", "Jd", "10d", "9d", "8d", "7d", "6d", "5d"]], "2c")
    st = two(again)
    play(st, "bid 9", "bid 1")  # P1 takes 10, P0 none: both miss
    finish_deal(st)
    assert "nobody made his bid: the deal is played again" in st.transcript(0)
    assert st.var("points") == [0, 0]
    assert st.var("deals_played") == 0  # it does not count
    assert st.var("hand_size") == 10  # same hand size
    assert st.var("dealer") == 0 and st.current_player == 1  # same dealer
    assert st.zone("hand", 1)[0] == "Ad" and st.zone("hand", 0)[0] == "As"  # a new shuffle
    assert st.zone("turned") == ["2c"]
    play(st, "bid 0", "bid 0")
    finish_deal(st)
    assert st.var("deals_played") == 1 and st.var("hand_size") == 9 and st.var("dealer") == 1


def test_rule_9_one_exact_bid_is_enough_for_the_deal_to_count():
    st = two()
    play(st, "bid 9", "bid 0")
    finish_deal(st)
    assert st.var("deals_played") == 1 and st.var("hand_size") == 9


# ---------------------------------------------------------------- rule 10: the end
@pytest.mark.parametrize("relative", ALL_FILES)
def test_rule_10_after_20_deals_the_highest_total_wins(relative):
    for seed in range(3):
        st, sizes = _deal_sizes(relative, 4, seed)
        points = st.var("points")
        assert st.var("deals_played") == 20 and len(sizes) == 20
        assert set(st.winners()) == {s for s in range(4) if points[s] == max(points)}
        assert st.scores() == points


def test_rule_10_equal_totals_share_the_win_and_rule_9_ours_a_replayed_deal_scores_nothing(tmp_path):
    # a variant in which every counted deal gives every player one point: all end level on 20
    variant = tmp_path / "level.cards"
    shutil.copy(path(ASCENSEUR), tmp_path / "ascenseur.cards")  # `extends` reaches only the variant's root
    variant.write_text('game "Level"\nextends "ascenseur.cards"\ndefine deal_points(p) = 1\n')
    import cardlang

    st = cardlang.load(str(variant), players=3).new_initial_state(seed=5)
    rng = random.Random(5)
    while not st.is_terminal():
        legal = st.legal_action_ids()
        st.apply(legal[rng.randrange(len(legal))])
    replays = st.transcript().count("nobody made his bid: the deal is played again")
    assert replays > 0  # and they added nothing
    assert st.var("points") == [20, 20, 20] and st.var("deals_played") == 20
    assert st.winners() == (0, 1, 2) and st.returns() == [20.0, 20.0, 20.0]  # the payoff: the points


# ---------------------------------------------------------------- invariants
@pytest.mark.parametrize("relative", ALL_FILES)
def test_scores_never_decrease(relative):
    for players in (2, 5):
        g = game(relative, players)
        for seed in range(4):
            st = play_out_with_scores_never_decreasing(g, seed)
            assert st.scores() == st.var("points")


# ---------------------------------------------------------------- variant: blind
def test_blind_bidders_cannot_see_the_trump_card():
    st = three("9c", relative=BLIND)
    assert st.zone("stock")[-1] == "9c"  # still the next card of the stock
    for k in range(3):
        seat = st.current_player
        assert labels(st) == bids(10)
        obs = st.observation(seat)
        assert obs["zones"]["turned"] == [] and obs["variables"]["trump"] is None
        assert "9♣" not in str(obs)
        assert not any(st.knows(s, "9c") for s in range(3))
        play(st, "bid 1")
    # after the last bid the card is turned, and the dealer's left leads
    assert st.zone("turned") == ["9c"]
    assert all(obs_trump(st, s) == "clubs" and st.knows(s, "9c") for s in range(3))
    assert st.current_player == 1
    log = st.transcript(0)
    assert log.index("face up on turned: 9♣") > log.index("P0 chooses bid 1")


def test_blind_the_trump_turned_after_the_bids_rules_the_tricks():
    st = three("3s", relative=BLIND)
    play(st, "bid 1", "bid 1", "bid 1", "5h", "6s", "Ah")
    assert st.var("tricks") == [0, 0, 1]


def test_blind_base_game_shows_the_trump_before_the_bids():
    st = three("9c")
    assert labels(st) == bids(10)
    assert st.observation(1)["zones"]["turned"] == ["9♣"]


# ---------------------------------------------------------------- variant: constrained
def test_constrained_the_dealer_may_not_make_the_bids_add_up_to_the_hand_size():
    st = three("9c", relative=CONSTRAINED)
    assert labels(st) == bids(10)  # the first bidders are free
    play(st, "bid 3")
    assert labels(st) == bids(10)
    play(st, "bid 4")
    assert st.current_player == 0  # the dealer
    assert labels(st) == [b for b in bids(10) if b != "bid 3"]
    with pytest.raises(ValueError):
        play(st, "bid 3")


def test_constrained_base_game_offers_that_bid():
    st = three("9c")
    play(st, "bid 3", "bid 4")
    assert "bid 3" in labels(st) and labels(st) == bids(10)
    play(st, "bid 3")
    assert sum(st.var("bid")) == 10


def test_constrained_nothing_is_forbidden_when_the_others_already_bid_more():
    st = three("9c", relative=CONSTRAINED)
    play(st, "bid 6", "bid 5")
    assert labels(st) == bids(10)


@pytest.mark.parametrize("relative", [CONSTRAINED, BOTH])
def test_constrained_bids_never_add_up_to_the_hand_size(relative):
    for players in (2, 4):
        for seed in range(3):
            st = game(relative, players).new_initial_state(seed=seed, log=False)
            rng = random.Random(seed)
            checked = 0
            while not st.is_terminal():
                bidding = labels(st)[0].startswith("bid ")
                dealer_bids = bidding and st.current_player == st.var("dealer")
                legal = st.legal_action_ids()
                st.apply(legal[rng.randrange(len(legal))])
                if dealer_bids:
                    assert sum(st.var("bid")) != st.var("hand_size")
                    checked += 1
            assert checked >= 20


# ---------------------------------------------------------------- both variants together
def test_blind_and_constrained_together():
    st = three("9c", relative=BOTH)
    play(st, "bid 3", "bid 4")
    assert st.current_player == 0
    obs = st.observation(0)
    assert obs["zones"]["turned"] == [] and obs["variables"]["trump"] is None
    assert labels(st) == [b for b in bids(10) if b != "bid 3"]
    play(st, "bid 2")
    assert st.zone("turned") == ["9c"] and obs_trump(st, 0) == "clubs"
    assert st.game.title == "Ascenseur (blind, constrained)"
