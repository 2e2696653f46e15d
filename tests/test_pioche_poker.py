"""Pioche Poker (seed 001): one scenario per numbered rule of docs/rules/pioche_poker.md.

Play moves left (to the next seat number). A deal's stack lists the shuffled cards top first: the
hands as they are dealt one card at a time from the starting player (a player with a penalty misses
the last round), then the top of the pile. A list of such stacks fixes successive deals; an empty
one leaves that deal random.
"""

import random
import re

import pytest

from scenario import game, labels, play, play_out_with_scores_never_decreasing, start

PP = "games/pioche_poker.cards"
HAND = {2: 5, 3: 4, 4: 3}
TARGET = {2: 6, 3: 7, 4: 9}
DECK = [r + s for r in "2 3 4 5 6 7 8 9 10 J Q K A".split() for s in "cdhs"]
SYMBOL = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
CARD_LABEL = re.compile(r"(?:10|[2-9JQKA])[♣♦♥♠]")


def label(card):
    return card[:-1] + SYMBOL[card[-1]]


def deal(hands, pile=(), starter=0, penalised=()):
    """The stack of one deal: `hands[seat]` (given cards first, the rest filled), then the pile."""
    n = len(hands)
    used = [c for h in hands for c in h] + list(pile)
    assert len(set(used)) == len(used), "a card is named twice"
    pool = [c for c in DECK if c not in used]
    full = [list(h) + [pool.pop() for _ in range(HAND[n] - (s in penalised) - len(h))]
            for s, h in enumerate(hands)]
    order = [(starter + i) % n for i in range(n)]
    out = []
    for r in range(HAND[n]):
        out += [full[s][r] for s in order if r < len(full[s])]
    return out + list(pile)


def to_table(st):
    play(st, next(x for x in labels(st) if x.endswith("on the table")))


def to_aside(st):
    play(st, next(x for x in labels(st) if x.endswith("aside")))


def n_players(st):
    return st.game.players


def point_deals(winners, players=2, avoid=()):
    """Stacks for deals that `give_point` plays, whose point cards are none of `avoid`.

    The k-th deal starts from seat k and is won by `winners[k]`; its pile starts with four cards
    of its own, so no card of `avoid` can become a point card.
    """
    safe = [c for c in DECK if c not in set(avoid)]
    stacks = []
    for k, _ in enumerate(winners):
        pile, safe = safe[:4], safe[4:]
        stacks.append(deal([[] for _ in range(players)], starter=k % players, pile=pile))
    return stacks


def give_point(st, seat):
    """Plays a deal that `seat` wins alone: he puts the last card on the table, the others fold."""
    n = n_players(st)
    while "call" not in labels(st):
        if len(st.zone("table")) < n - 1 or st.current_player == seat:
            to_table(st)
        else:
            to_aside(st)
    while not st.is_terminal() and "call" in labels(st):
        play(st, "fold")


# ---------------------------------------------------------------------- rule 1
@pytest.mark.parametrize("n", [2, 3, 4])
def test_rule_1_hand_size_is_5_4_or_3_so_hand_and_table_make_7(n):
    st = start(PP, n)
    assert [len(st.zone("hand", s)) for s in range(n)] == [HAND[n]] * n
    assert len(st.zone("pile")) == 52 - n * HAND[n]
    while "call" not in labels(st):
        to_table(st)
    assert len(st.zone("table")) == n and HAND[n] + n == 7


# ---------------------------------------------------------------------- rule 2
def test_rule_2_the_first_starting_player_is_random_and_the_start_moves_left():
    assert {start(PP, 3, seed=s).var("starter") for s in range(30)} == {0, 1, 2}
    st = start(PP, 3, draws=[1])
    assert st.var("starter") == 1 and st.current_player == 1
    give_point(st, 1)
    assert st.var("starter") == 2 and st.current_player == 2
    give_point(st, 1)
    assert st.var("starter") == 0 and st.current_player == 0


def test_rule_2_each_deal_starts_from_all_cards_but_the_point_cards_shuffled():
    second = deal([[], []], starter=1, pile=["Kd", "2c", "3c", "4c"])
    st = start(PP, 2, draws=[0], stack=[deal([[], []], pile=["2c", "3c", "4c", "5c"]), second])
    to_aside(st)  # P0 puts 2c aside
    to_table(st)  # P1 3c
    to_table(st)  # P0 4c: he must call
    play(st, "fold")  # P1 folds: P0 scores with 5c
    assert st.zone("won", 0) == ["5c"]
    # the next deal: hands, table and aside went back into the pile, the point card stayed
    assert st.zone("table") == [] and st.zone("aside") == []
    assert len(st.zone("pile")) == 52 - 1 - 10
    assert "5c" not in st.zone("pile")
    assert st.zone("pile")[-4:] == ["4c", "3c", "2c", "Kd"]
    assert not any(st.knows(s, c) for s in (0, 1) for c in ("2c", "3c", "4c"))  # shuffled again


# ---------------------------------------------------------------------- rule 3
def test_rule_3_a_player_with_a_penalty_is_dealt_one_card_fewer():
    first = deal([["Ac", "Ad", "7h", "8s", "2c"], ["Kc", "Kd", "3h", "4s", "9c"]], pile=["5d", "Js", "6d", "10s"])
    second = deal([["2s", "3s", "4s", "6s", "8c"], ["7s", "9s", "Jh", "Qh"]], starter=1, penalised={1},
                  pile=["Ah"])
    st = start(PP, 2, draws=[0], stack=[first, second])
    to_table(st)
    to_table(st)  # P1 puts the last card: he must call
    play(st, "call")  # P0 calls, and his aces beat P1's kings
    assert st.var("penalty") == [False, True]
    assert len(st.zone("hand", 0)) == 5 and len(st.zone("hand", 1)) == 4
    assert sorted(st.zone("hand", 1)) == sorted(["7s", "9s", "Jh", "Qh"])
    assert st.zone("pile")[-1] == "Ah"


# ---------------------------------------------------------------------- rule 4
def test_rule_4_in_turn_each_turns_the_top_card_and_puts_it_on_the_table_or_aside():
    st = start(PP, 3, draws=[2], stack=deal([[], [], []], starter=2, pile=["Qh", "2d", "9s", "Kc"]))
    assert st.current_player == 2
    assert all(st.knows(s, "Qh") for s in range(3))  # turned face up before the decision
    assert labels(st) == ["put Q♥ on the table", "put Q♥ aside"]
    to_aside(st)
    assert st.zone("aside") == ["Qh"] and st.current_player == 0
    to_table(st)
    assert st.zone("table") == ["2d"] and st.current_player == 1
    to_aside(st)
    assert st.zone("aside") == ["Qh", "9s"] and st.current_player == 2
    assert labels(st)[0] == "put K♣ on the table"


# ---------------------------------------------------------------------- rule 5
def test_rule_5_when_the_table_is_full_the_last_placer_must_call_and_the_others_decide_from_his_left():
    st = start(PP, 3, draws=[0])
    to_table(st)  # P0
    to_aside(st)  # P1
    to_table(st)  # P2
    to_table(st)  # P0 puts the third card: he must call
    assert st.var("forced") == 0 and st.var("called")[0] is True
    assert st.current_player == 1 and labels(st) == ["call", "fold"]
    play(st, "fold")
    assert st.current_player == 2 and labels(st) == ["call", "fold"]
    play(st, "call")
    for seat in range(3):  # every decision is public
        log = st.transcript(seat)
        assert "P0: I call (forced)" in log and "P1 chooses fold" in log and "P2 chooses call" in log


# ---------------------------------------------------------------------- rule 6
def test_rule_6_if_every_other_player_folds_the_forced_caller_scores_1_without_showing():
    aces = ["Ac", "Ad", "Ah", "As"]
    first = deal([[], [], aces], pile=["2c", "3c", "4c", "5c"])
    st = start(PP, 3, draws=[0], stack=[first, deal([[], [], []], starter=1, pile=["2d"])])
    to_table(st)
    to_table(st)
    to_table(st)  # P2 must call
    play(st, "fold", "fold")
    assert st.zone("won", 2) == ["5c"]
    assert st.scores() == [0, 0, 1]
    for seat in (0, 1):  # his hand was never shown
        assert not {label(c) for c in aces} & set(CARD_LABEL.findall(" ".join(st.transcript(seat))))


def test_rule_6_every_caller_shows_and_the_best_hand_scores_one_point_per_caller():
    # table 5d Js: P0 makes a pair of aces, P1 a pair of kings, P2 folds
    hands = [["Ac", "Ad", "7h", "8s"], ["Kc", "Kd", "3h", "4s"], ["Qc", "Qd", "Qh", "Qs"]]
    st = start(PP, 3, draws=[0], stack=deal(hands, pile=["5d", "2h", "Js", "6c", "7c", "8c"]))
    to_table(st)  # P0 5d
    to_aside(st)  # P1 2h
    to_table(st)  # P2 Js
    to_table(st)  # P0 6c: he must call
    play(st, "call", "fold")
    assert st.scores() == [2, 0, 0]  # two callers: two points
    assert st.zone("won", 0) == ["7c", "8c"]
    assert st.var("penalty") == [False, True, False]


def test_rule_6_the_best_five_of_hand_and_table_win():
    # table Jh Qh: P0 holds three aces; P1 holds two hearts, not enough for a flush
    hands = [["Ac", "Ad", "As", "7h", "8s"], ["2h", "9h", "Kc", "3d", "4s"]]
    st = start(PP, 2, draws=[0], stack=deal(hands, pile=["Jh", "Qh"]))
    to_table(st)
    to_table(st)
    play(st, "call")
    assert st.scores() == [2, 0]
    hands = [["Ac", "Ad", "As", "7h", "8s"], ["2h", "9h", "5h", "3d", "4s"]]
    st = start(PP, 2, draws=[0], stack=deal(hands, pile=["Jh", "Qh"]))
    to_table(st)
    to_table(st)
    play(st, "call")
    assert st.scores() == [0, 2]  # 2h 9h 5h + Jh Qh: the flush beats three aces
    assert any("P1 has flush" in line for line in st.transcript(0))


def test_rule_6_ours_tied_best_hands_each_score_and_none_is_penalised():
    hands = [["Ac", "Kc", "Qd", "9s", "5h"], ["Ad", "Kd", "Qh", "9c", "5s"]]
    st = start(PP, 2, draws=[0], stack=deal(hands, pile=["2c", "3d", "7c", "7d", "8c", "8d"]))
    to_table(st)
    to_table(st)  # P1 must call
    play(st, "call")
    assert st.scores() == [2, 2]
    assert st.zone("won", 1) == ["7c", "7d"]  # in betting order: the forced caller first
    assert st.zone("won", 0) == ["8c", "8d"]
    assert st.var("penalty") == [False, False]


# ---------------------------------------------------------------------- rule 7
def test_rule_7_the_other_callers_receive_a_penalty_and_folded_hands_are_not_shown():
    hands = [["Kc", "Kd", "7h", "8s"], ["2c", "3d", "9h", "Js"], ["Ac", "Ad", "4h", "5s"]]
    st = start(PP, 3, draws=[0], stack=deal(hands, pile=["6c", "10d", "Qs"]))
    to_table(st)
    to_table(st)
    to_table(st)  # P2 must call
    play(st, "call", "fold")  # P0 calls, P1 folds
    assert st.scores() == [0, 0, 2]
    assert st.var("penalty") == [True, False, False]
    # the callers' hands were shown, the folded one was not (in this hand's lines: the next hand,
    # dealt at random from the pile shuffled again, may show any card)
    lines = st.transcript(0)
    hand = lines[:lines.index("pile is shuffled", 1)]
    log = CARD_LABEL.findall(" ".join(hand))
    assert {label(c) for c in hands[2]} <= set(log)
    assert not {label(c) for c in hands[1]} & set(log)


# ---------------------------------------------------------------------- rule 8
P0_WINS = [["Ac", "Ad", "7h", "8s", "2c"], ["Kc", "Kd", "3h", "4s", "9c"]]  # table 5d Js


def p1_loses_first_deal(*later):
    """P0 (starter) and P1 both call in the first deal and P1 loses; `later` stacks the next deals."""
    st = start(PP, 2, draws=[0], stack=[deal(P0_WINS, pile=["5d", "Js", "6d", "10s"]), *later])
    to_table(st)
    to_table(st)
    play(st, "call")
    assert st.var("penalty") == [False, True]
    return st


def test_rule_8_a_penalty_lasts_one_deal_a_fold_gives_a_full_hand_next_time():
    st = p1_loses_first_deal()
    assert len(st.zone("hand", 1)) == 4  # the deal played with the penalty
    to_table(st)  # P1
    to_table(st)  # P0 must call
    play(st, "fold")
    assert st.var("penalty") == [False, False]
    assert len(st.zone("hand", 1)) == 5


def test_rule_8_a_penalised_player_who_wins_gets_a_full_hand_next_time():
    # second deal, P1 starts: P1 (4 cards) makes trips, P0 a pair; table Qc 2d
    second = deal([["3c", "4c", "6h", "7d", "Jd"], ["Qh", "Qs", "5s", "9d"]], starter=1, penalised={1},
                  pile=["Qc", "2d"])
    st = p1_loses_first_deal(second)
    to_table(st)  # P1
    to_table(st)  # P0 must call
    play(st, "call")
    assert st.scores() == [2, 2]
    assert st.var("penalty") == [True, False]
    assert [len(st.zone("hand", s)) for s in (0, 1)] == [4, 5]


def test_rule_8_a_penalised_player_who_calls_and_loses_again_keeps_one_card_fewer():
    second = deal([["Ac", "As", "6h", "7d", "Jd"], ["Qh", "Qs", "5s", "9d"]], starter=1, penalised={1},
                  pile=["3c", "2d"])
    st = p1_loses_first_deal(second)
    to_table(st)
    to_table(st)
    play(st, "call")
    assert st.scores() == [4, 0]
    assert st.var("penalty") == [False, True]
    assert [len(st.zone("hand", s)) for s in (0, 1)] == [5, 4]  # not cumulative: one card fewer


# ---------------------------------------------------------------------- rule 9
def test_rule_9_each_point_is_the_top_card_of_the_pile_laid_face_up():
    st = start(PP, 2, draws=[0], stack=deal([[], []], pile=["2c", "3c", "Kh"]))
    to_table(st)
    to_table(st)
    play(st, "fold")
    assert st.zone("won", 1) == ["Kh"]
    assert st.knows(0, "Kh") and "Kh" not in st.zone("pile")
    assert st.scores() == [0, 1]


def fill_by_putting_aside(st, on_table=0):
    """Puts `on_table` cards on the table, then everything aside until the pile's end (rule 10)."""
    for _ in range(on_table):
        to_table(st)
    while labels(st) and labels(st)[0].startswith("put "):
        to_aside(st)


def test_rule_9_with_the_pile_empty_points_come_from_the_cards_put_aside():
    st = start(PP, 2, draws=[0])
    fill_by_putting_aside(st)
    last_aside = st.zone("aside")[-1]
    assert st.zone("pile") == []
    play(st, "call", "fold")
    assert st.zone("won", 0) == [last_aside]


# --------------------------------------------------------------------- rule 10
def test_rule_10_the_last_cards_of_the_pile_fill_the_table_and_nobody_is_forced():
    st = start(PP, 2, draws=[0])
    fill_by_putting_aside(st)
    assert len(st.zone("aside")) == 40 and len(st.zone("table")) == 2
    assert st.var("forced") is None
    # ours: the betting starts with the player whose turn it was to turn a card (P0, after 40)
    assert st.current_player == 0 and labels(st) == ["call", "fold"]
    play(st, "fold")
    assert st.current_player == 1 and labels(st) == ["call", "fold"]
    play(st, "fold")
    assert st.scores() == [0, 0]  # nobody calls: nobody scores
    assert st.var("starter") == 1


def test_rule_10_a_single_caller_scores_1_from_the_cards_put_aside():
    st = start(PP, 3, draws=[1])
    fill_by_putting_aside(st, on_table=2)  # 40 cards in the pile: 2 on the table, 37 aside
    assert len(st.zone("table")) == 3 and len(st.zone("aside")) == 37
    last_aside = st.zone("aside")[-1]
    assert st.current_player == (1 + 39) % 3  # 39 turns from P1: P1 opens the betting
    play(st, "fold", "call", "fold")  # P1, P2, P0
    assert st.scores() == [0, 0, 1]
    assert st.zone("won", 2) == [last_aside]


def test_rule_10_several_callers_go_to_the_showdown():
    hands = [["Ac", "Ad", "7h", "8s", "2c"], ["Kc", "Kd", "3h", "4s", "9c"]]
    rest = [c for c in DECK if c not in hands[0] + hands[1] + ["5d", "Js"]]
    st = start(PP, 2, draws=[0], stack=deal(hands, pile=rest + ["5d", "Js"]))
    fill_by_putting_aside(st)
    assert sorted(st.zone("table")) == ["5d", "Js"]
    play(st, "call", "call")
    assert st.scores() == [2, 0]
    assert st.var("penalty") == [False, True]
    assert st.zone("won", 0) == [rest[-1], rest[-2]]  # the top of the cards put aside


# --------------------------------------------------------------------- rule 11
@pytest.mark.parametrize("n", [2, 3, 4])
def test_rule_11_the_first_player_with_6_7_or_9_points_wins(n):
    st = start(PP, n, draws=[0])
    assert st.var("target") == TARGET[n]
    deals = 0
    while not st.is_terminal():
        give_point(st, n - 1)
        deals += 1
    assert deals == TARGET[n]
    assert st.winners() == (n - 1,) and st.scores()[n - 1] == TARGET[n]


def test_rule_11_the_game_ends_as_soon_as_the_target_is_reached_even_in_the_middle_of_a_count():
    final = deal(P0_WINS, pile=["5d", "Js"], starter=1)
    st = start(PP, 2, draws=[0], stack=point_deals([0] * 5, avoid=final) + [final])
    for _ in range(5):
        give_point(st, 0)
    assert st.scores() == [5, 0] and st.var("starter") == 1
    to_table(st)  # P1 5d
    to_table(st)  # P0 Js: he must call
    play(st, "call")  # P1 calls and loses: P0 would score 2 but stops at 6
    assert st.is_terminal() and st.winners() == (0,)
    assert st.scores() == [6, 0]


def test_rule_11_ours_tied_winners_count_in_betting_order_so_one_player_wins():
    tie = [["Ac", "Kc", "Qd", "9s", "5h"], ["Ad", "Kd", "Qh", "9c", "5s"]]
    final = deal(tie, pile=["2c", "3d"])  # the eleventh deal starts from P0 again
    st = start(PP, 2, draws=[0], stack=point_deals([0, 1] * 5, avoid=final) + [final])
    for k in range(10):
        give_point(st, k % 2)
    assert st.scores() == [5, 5] and st.var("starter") == 0
    to_table(st)
    to_table(st)  # P1 must call: he counts first
    play(st, "call")
    assert st.is_terminal() and st.winners() == (1,)
    assert st.scores() == [5, 6]


def test_scores_never_decrease():
    for n in (2, 3, 4):
        g = game(PP, n)
        for seed in range(30):
            st = play_out_with_scores_never_decreasing(g, seed)
            (w,) = st.winners()
            assert st.scores()[w] == TARGET[n] and max(st.scores()) == TARGET[n]
