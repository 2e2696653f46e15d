"""Counter-Bluff (seed 000): one scenario per numbered rule of docs/rules/counter_bluff.md.

Most games below draw P0 as the first dealer, so P1 is dealt first and is the first round's
initiator. A stack lists the shuffled cards top first: ten cards each, alternately P1 then P0, then
the top of the talon. Hands are given as the cards a test needs; the rest of each hand is filled
with cards no hand or talon of the test names.
"""

import re

import pytest

from scenario import game, labels, play, play_out_with_scores_never_decreasing, start

CB = "games/counter_bluff.cards"
SCALE = [1, 3, 6, 10, 15, 21, 28, 36, 45, 55]
DECK = [r + s for r in "2 3 4 5 6 7 8 9 10 J Q K A".split() for s in "cdhs"]
CARD_LABEL = re.compile(r"(?:10|[2-9JQKA])[♣♦♥♠]")
SYMBOL = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}

# One hand of each category, highest first, no two sharing a card.
QUINTE = ["5h", "6h", "7h", "8h", "9h"]
CARRE = ["Kc", "Kd", "Kh", "Ks", "2c"]
FULL = ["Qc", "Qd", "Qh", "3c", "3d"]
BRELAN = ["Jc", "Jd", "Jh", "4c", "6d"]
SEQUENCE = ["7c", "8d", "9s", "10c", "Js"]
DOUBLE_PAIRE = ["As", "Ad", "5c", "5d", "2d"]
PAIRE = ["10s", "10h", "4d", "6s", "8s"]
RIEN = ["Ac", "3s", "7d", "Qs", "2h"]
CATEGORIES = [QUINTE, CARRE, FULL, BRELAN, SEQUENCE, DOUBLE_PAIRE, PAIRE, RIEN]
NAMES = ["quinte", "carre", "full", "brelan", "sequence", "double_paire", "paire", "rien"]


def label(card):
    return card[:-1] + SYMBOL[card[-1]]


def begin(p1=(), p0=(), talon=(), dealer=0, **options):
    """A game whose first dealer is `dealer`, with these cards in the hands and on the talon."""
    used = set(p1) | set(p0) | set(talon)
    assert len(used) == len(p1) + len(p0) + len(talon), "a card is named twice"
    pool = [c for c in DECK if c not in used]
    first, second = list(p1), list(p0)  # dealt first: the non-dealer
    first += [pool.pop() for _ in range(10 - len(first))]
    second += [pool.pop() for _ in range(10 - len(second))]
    stack = [c for pair in zip(first, second) for c in pair] + list(talon)
    return start(CB, 2, stack=stack, draws=[dealer], **options)


def lay(st, *cards):
    """Lays these cards in turn (the players alternate)."""
    play(st, *cards)


def full_round(st, initiator_cards, other_cards):
    """Both players lay five cards, alternately, the initiator first."""
    for a, b in zip(initiator_cards, other_cards):
        play(st, a, b)


def shown_cards(lines):
    return set(CARD_LABEL.findall(" ".join(lines)))


def observed_cards(obs):
    out = set()
    for cards in obs["zones"].values():
        for item in cards:
            for c in item if isinstance(item, list) else [item]:
                if c is not None:
                    out.add(c)
    return out


def first_round_won_by_p1(st, card):
    """P1 lays `card`, P0 passes: P1 wins the first round (1 point) and P0, the loser, decides."""
    play(st, card, "pass")


# ---------------------------------------------------------------------- rule 1
def test_rule_1_first_dealer_is_drawn_and_deals_ten_cards_each_the_rest_is_the_talon():
    st = start(CB, 2, draws=[1])
    assert st.var("dealer") == 1
    assert len(st.zone("hand", 0)) == len(st.zone("hand", 1)) == 10
    assert len(st.zone("talon")) == 32
    assert {start(CB, 2, seed=s).var("dealer") for s in range(30)} == {0, 1}


def test_rule_1_the_dealers_opponent_is_dealt_first_and_starts():
    st = begin(p1=["As"], p0=["Ks"], talon=["Qs"])
    assert st.zone("hand", 1)[0] == "As" and st.zone("hand", 0)[0] == "Ks"
    assert st.zone("talon")[-1] == "Qs"
    assert st.current_player == 1
    st = begin(p1=["As"], p0=["Ks"], dealer=1)
    assert st.zone("hand", 0)[0] == "As"  # with P1 dealing, P0 is dealt first and starts
    assert st.current_player == 0


# ---------------------------------------------------------------------- rule 2
def test_rule_2_the_initiator_must_lay_a_card_on_his_first_turn():
    st = begin()
    assert st.current_player == 1
    assert "pass" not in labels(st)
    assert len(labels(st)) == 10 and all(x.startswith("lay ") for x in labels(st))


def test_rule_2_cards_are_laid_face_up_and_the_players_alternate():
    st = begin(p1=["As", "Ks"], p0=["Qs"])
    play(st, "As")
    assert st.zone("laid", 1) == ["As"] and st.knows(0, "As")
    assert st.current_player == 0 and "pass" in labels(st)
    play(st, "Qs")
    assert st.knows(1, "Qs")
    assert st.current_player == 1
    assert "pass" in labels(st)  # after his first card the initiator may pass too
    play(st, "Ks")
    assert st.zone("laid", 1) == ["As", "Ks"] and st.current_player == 0


# ---------------------------------------------------------------------- rule 3
def test_rule_3_a_pass_ends_the_round_at_once_and_the_other_player_wins():
    st = begin(p1=["As", "Ks"], p0=["Qs"])
    play(st, "As", "Qs", "Ks", "pass")
    assert st.var("points") == [0, SCALE[2]]  # P1 wins with three cards exposed
    assert st.current_player == 0 and labels(st) == ["inverted round", "hand over"]


def test_rule_3_the_initiator_passing_loses_the_round():
    st = begin(p1=["As"], p0=["Qs"])
    play(st, "As", "Qs", "pass")
    assert st.var("points") == [SCALE[1], 0]
    assert st.current_player == 1  # the loser decides next (rule 7)


# ---------------------------------------------------------------------- rule 4
@pytest.mark.parametrize("k", range(len(CATEGORIES) - 1), ids=[f"{NAMES[k]}>{NAMES[k + 1]}" for k in range(7)])
def test_rule_4_after_five_cards_each_the_better_poker_hand_wins(k):
    higher, lower = CATEGORIES[k], CATEGORIES[k + 1]
    st = begin(p1=lower, p0=higher)  # the initiator holds the lower hand
    full_round(st, lower, higher)
    assert st.var("points") == [55, 0]
    st = begin(p1=higher, p0=lower)
    full_round(st, higher, lower)
    assert st.var("points") == [0, 55]


def test_rule_4_there_is_no_flush_five_cards_of_one_suit_lose_to_a_pair():
    suited = ["2h", "5h", "8h", "Jh", "Kh"]
    pair = ["3c", "3d", "5c", "8d", "9s"]
    st = begin(p1=suited, p0=pair)
    full_round(st, suited, pair)
    assert st.var("points") == [55, 0]


def test_rule_4_suited_cards_out_of_sequence_count_only_by_their_high_cards():
    suited = ["2h", "5h", "8h", "Jh", "Kh"]
    ace_high = ["As", "3c", "5d", "8c", "9s"]
    st = begin(p1=suited, p0=ace_high)
    full_round(st, suited, ace_high)
    assert st.var("points") == [55, 0]  # the ace beats the king: the hearts are no flush


def test_rule_4_ace_two_three_four_five_is_a_sequence():
    wheel = ["Ac", "2d", "3h", "4s", "5c"]
    brelan = ["9c", "9d", "9h", "Ks", "Qs"]
    st = begin(p1=brelan, p0=wheel)
    full_round(st, brelan, wheel)
    assert st.var("points") == [0, 55]  # Brelan beats Séquence
    two_pair = ["Kc", "Kd", "Qc", "Qd", "Js"]
    st = begin(p1=wheel, p0=two_pair)
    full_round(st, wheel, two_pair)
    assert st.var("points") == [0, 55]  # Séquence beats Double paire


def test_rule_4_equal_categories_are_compared_by_ranks_and_kickers():
    kings = ["9c", "9d", "Kc", "7c", "4d"]
    queens = ["9h", "9s", "Qd", "7d", "4h"]
    st = begin(p1=queens, p0=kings)
    full_round(st, queens, kings)
    assert st.var("points") == [55, 0]  # same pair, the king kicker beats the queen


def test_rule_4_a_tie_goes_to_the_initiator():
    initiator = ["Ac", "Kd", "9c", "7h", "4s"]
    other = ["Ad", "Kh", "9d", "7c", "4d"]
    st = begin(p1=initiator, p0=other)
    full_round(st, initiator, other)
    assert st.var("points") == [0, 55]
    st = begin(p1=other, p0=initiator, dealer=1)  # now P0 is the initiator
    full_round(st, other, initiator)
    assert st.var("points") == [55, 0]


# ---------------------------------------------------------------------- rule 5
@pytest.mark.parametrize("exposed", range(1, 11))
def test_rule_5_the_winner_scores_by_the_number_of_cards_exposed(exposed):
    p1, p0 = QUINTE, RIEN
    st = begin(p1=p1, p0=p0)
    order = [c for pair in zip(p1, p0) for c in pair][:exposed]
    play(st, *order)
    if exposed < 10:
        play(st, "pass")
    winner = 1 if exposed % 2 or exposed == 10 else 0  # the player who did not pass
    expected = [0, 0]
    expected[winner] = SCALE[exposed - 1]
    assert st.var("points") == expected
    assert st.scores() == expected


# ---------------------------------------------------------------------- rule 6
def test_rule_6_exposed_cards_leave_play_and_hands_are_refilled_winner_first_one_at_a_time():
    talon = ["2s", "3s", "4s", "5s", "6s", "7s"]
    st = begin(p1=["Ac", "Ad", "Ah"], p0=["Kc", "Kd"], talon=talon)
    play(st, "Ac", "Kc", "Ad", "Kd", "Ah", "pass")  # P1 wins with five cards exposed
    assert st.var("points") == [0, SCALE[4]]
    assert sorted(st.zone("discard")) == sorted(["Ac", "Kc", "Ad", "Kd", "Ah"])
    assert st.zone("laid", 0) == st.zone("laid", 1) == []
    # P1 (the winner, 7 cards) takes 2s, P0 (8 cards) 3s, P1 4s, P0 5s, P1 6s; 7s stays
    assert st.zone("hand", 1)[-3:] == ["2s", "4s", "6s"]
    assert st.zone("hand", 0)[-2:] == ["3s", "5s"]
    assert len(st.zone("hand", 0)) == len(st.zone("hand", 1)) == 10
    assert st.zone("talon")[-1] == "7s" and len(st.zone("talon")) == 27


def test_rule_6_option_refill_non_dealer_first():
    talon = ["2s", "3s", "4s", "5s"]
    # P0 (the dealer) wins with four cards exposed; both hands hold 8 cards
    for option, p1_gets, p0_gets in [("winner", ["3s", "5s"], ["2s", "4s"]),
                                      ("non-dealer", ["2s", "4s"], ["3s", "5s"])]:
        st = begin(p1=["Ac", "Ad"], p0=["Kc", "Kd"], talon=talon, refill_first=option)
        play(st, "Ac", "Kc", "Ad", "Kd", "pass")
        assert st.var("points") == [SCALE[3], 0]
        assert st.zone("hand", 1)[-2:] == p1_gets
        assert st.zone("hand", 0)[-2:] == p0_gets


# ---------------------------------------------------------------------- rule 7
def test_rule_7_the_loser_may_play_an_inverted_round_as_its_initiator():
    st = begin(p1=["As"])
    first_round_won_by_p1(st, "As")
    assert st.current_player == 0 and labels(st) == ["inverted round", "hand over"]
    play(st, "inverted round")
    assert st.var("initiator") == 0
    assert st.current_player == 0 and all(x.endswith(" face down") for x in labels(st))


def test_rule_7_hand_over_then_the_winner_starts_a_normal_round():
    st = begin(p1=["As"])
    first_round_won_by_p1(st, "As")
    play(st, "hand over")
    assert st.current_player == 1 and labels(st) == ["normal round", "inverted round"]
    play(st, "normal round")
    assert st.var("initiator") == 1 and st.current_player == 1
    assert "pass" not in labels(st) and all(x.startswith("lay ") for x in labels(st))


def test_rule_7_hand_over_then_the_winner_may_play_an_inverted_round():
    st = begin(p1=["As"])
    first_round_won_by_p1(st, "As")
    play(st, "hand over", "inverted round")
    assert st.var("initiator") == 1
    assert st.current_player == 1 and all(x.endswith(" face down") for x in labels(st))


# ---------------------------------------------------------------------- rule 8
def inverted(initiator_cards, responder_cards):
    """P1 wins a first round with Kc; P0 (the loser) plays an inverted round with these cards."""
    st = begin(p1=["Kc"] + responder_cards, p0=initiator_cards)
    first_round_won_by_p1(st, "Kc")
    play(st, "inverted round", *initiator_cards)
    return st


def test_rule_8_the_initiator_places_five_cards_face_down_then_the_other_decides():
    st = inverted(RIEN, PAIRE)
    assert sorted(st.zone("concealed", 0)) == sorted(RIEN)
    assert not any(st.knows(1, c) for c in RIEN)
    assert all(st.knows(0, c) for c in RIEN)
    assert st.current_player == 1 and labels(st) == ["accept", "refuse"]


def test_rule_8_accept_the_lower_hand_wins_and_the_initiator_shows_it():
    st = inverted(RIEN, PAIRE)
    play(st, "accept", *PAIRE)
    assert all(st.knows(1, c) for c in PAIRE)  # laid face up
    assert st.var("points") == [55, 1]
    assert all(st.knows(1, c) for c in RIEN)  # turned face up to show he won
    assert {label(c) for c in RIEN} <= shown_cards(st.transcript(1))
    assert set(RIEN) <= set(st.zone("discard"))
    assert st.current_player == 1  # P1 did not score: he decides (rule 7)


def test_rule_8_accept_a_higher_initiator_discards_his_cards_unseen():
    st = inverted(PAIRE, RIEN)
    play(st, "accept", *RIEN)
    assert st.var("points") == [0, 1 + 55]
    assert set(PAIRE) <= set(st.zone("discard"))
    assert not any(st.knows(1, c) for c in PAIRE)
    hidden = {label(c) for c in PAIRE}
    assert not hidden & shown_cards(st.transcript(1))
    assert not hidden & observed_cards(st.observation(1))
    assert hidden <= shown_cards(st.transcript(0))  # his own log shows what he placed
    assert st.current_player == 0  # the initiator did not score: he decides


def test_rule_8_accept_a_tie_goes_to_the_initiator():
    initiator = ["Ac", "Kd", "9c", "7h", "4s"]
    other = ["Ad", "Kh", "9d", "7c", "4d"]
    st = inverted(initiator, other)
    play(st, "accept", *other)
    assert st.var("points") == [55, 1]


def test_rule_8_inverted_round_ranks_the_same_categories_without_flush():
    suited = ["2h", "5h", "8h", "Jh", "Kh"]  # only a king high: lower than any pair
    st = inverted(suited, PAIRE)
    play(st, "accept", *PAIRE)
    assert st.var("points") == [55, 1]


def test_rule_8_refuse_the_other_discards_five_unseen_and_the_initiator_scores_15():
    discards = ["2s", "3d", "5h", "7s", "9c"]
    st = inverted(RIEN, discards)
    play(st, "refuse")
    assert st.current_player == 1 and all(x.startswith("discard ") for x in labels(st))
    play(st, *discards)
    assert st.var("points") == [15, 1]
    assert set(discards) | set(RIEN) <= set(st.zone("discard"))
    # neither player ever sees the other's discarded cards, in his observation or his log
    assert not any(st.knows(0, c) for c in discards)
    assert not any(st.knows(1, c) for c in RIEN)
    assert not {label(c) for c in discards} & (shown_cards(st.transcript(0)) | observed_cards(st.observation(0)))
    assert not {label(c) for c in RIEN} & (shown_cards(st.transcript(1)) | observed_cards(st.observation(1)))
    assert st.current_player == 1  # the refuser did not score: he is the loser for rule 7


# (seeds whose game, always answering 1, has a discard seat 0 never learns; seed 3 stopped having one
# when the choices naming cards came to be numbered in the hand's order)
@pytest.mark.parametrize("seed", [1, 4, 5])
def test_rule_8_the_terminal_never_shows_a_card_discarded_face_down_by_the_opponent(seed, tmp_path):
    """`cardlang play` with a person in seat 0 (always answering 1) never prints a card he does not know."""
    import json

    from click.testing import CliRunner

    from cardlang.cli import main
    from scenario import path

    save = tmp_path / "game.json"
    result = CliRunner().invoke(main, ["play", path(CB), "--seat", "0", "--seed", str(seed), "--save", str(save)],
                                input="1\n" * 3000)
    assert result.exit_code == 0, result.output

    # the same game, replayed from its save: which cards did seat 0 ever know, which went face down unseen?
    st = game(CB, 2).new_initial_state(seed=seed)
    ever_known, unseen_discards = set(), set()
    for action in json.loads(save.read_text())["actions"]:
        ever_known |= {c for c in range(52) if st.knows(0, c)}
        unseen_discards |= {c for c in range(52) if c in st.zones[_zone(st, "discard")] and not st.knows(0, c)}
        st.apply(action)
    assert st.is_terminal()
    ever_known |= {c for c in range(52) if st.knows(0, c)}
    ever_known |= {st.game.deck.card_id(x) for x in CARD_LABEL.findall(" ".join(st.transcript(0)))}
    never_known = {st.game.deck.label_of(c) for c in range(52) if c not in ever_known}
    assert never_known & {st.game.deck.label_of(c) for c in unseen_discards}

    last_award = [line for line in st.transcript(0) if "wins the round and scores" in line][-1]
    assert last_award in result.output  # the same game was played
    assert not never_known & set(CARD_LABEL.findall(result.output))


def _zone(st, name):
    return st.game.program.zone_families[name][0]


# ---------------------------------------------------------------------- rule 9
def play_full_normal_rounds(st, rounds):
    """Plays normal rounds of ten cards (the loser hands over, the winner starts a normal round).

    Returns the labels of the cards laid.
    """
    laid = []
    for _ in range(rounds):
        if "hand over" in labels(st):
            play(st, "hand over", "normal round")
        for _ in range(10):
            laid.append(labels(st)[0][len("lay "):])
            play(st, labels(st)[0])
    return laid


def test_rule_9_play_goes_on_while_both_players_hold_five_cards_then_a_new_talon():
    st = begin(target=10000)
    play_full_normal_rounds(st, 3)
    assert len(st.zone("talon")) == 2 and len(st.zone("discard")) == 30
    play_full_normal_rounds(st, 1)
    # the talon is used up: the hands hold 6 cards each, enough for a new round
    assert st.zone("talon") == [] and [len(st.zone("hand", s)) for s in (0, 1)] == [6, 6]
    assert labels(st) == ["inverted round", "hand over"]
    points_before = sum(st.var("points"))
    held = {label(c) for s in (0, 1) for c in st.zone("hand", s)}
    laid = play_full_normal_rounds(st, 1)
    # one card each is left: the round was scored, then everything played since the start made a
    # new talon and the hands were refilled
    assert sum(st.var("points")) == points_before + 55
    assert st.zone("discard") == []
    assert [len(st.zone("hand", s)) for s in (0, 1)] == [10, 10]
    assert len(st.zone("talon")) == 32
    kept = {label(c) for s in (0, 1) for c in st.zone("hand", s)}
    assert len(held - set(laid)) == 2 and held - set(laid) <= kept  # the cards still held stay
    assert not any(st.knows(s, c) for s in (0, 1) for c in st.zone("talon"))
    assert any("new talon" in line for line in st.transcript(0))


def test_rule_9_the_new_talon_holds_only_cards_played_since_the_last_reshuffle():
    st = begin(target=10000)
    play_full_normal_rounds(st, 5)
    talon_after_first = set(st.zone("talon"))
    play_full_normal_rounds(st, 3)
    # 30 cards were played since the reshuffle: they wait in the discard, not in the talon
    assert len(st.zone("discard")) == 30
    assert not set(st.zone("discard")) & set(st.zone("talon"))
    assert set(st.zone("talon")) <= talon_after_first


# --------------------------------------------------------------------- rule 10
def test_rule_10_the_first_player_to_reach_the_target_wins():
    st = begin(p1=["As", "Ks"], p0=["Qs"], target=6)
    play(st, "As", "Qs", "Ks", "pass")  # P1 scores 6
    assert st.is_terminal() and st.winners() == (1,)
    assert st.scores() == [0, 6]


def test_rule_10_the_target_is_200_by_default():
    assert game(CB, 2).options["target"] == 200
    st = begin(p1=QUINTE, p0=RIEN)
    full_round(st, QUINTE, RIEN)
    assert st.var("points") == [0, 55] and not st.is_terminal()
    st = begin(p1=QUINTE, p0=RIEN, target=55)
    full_round(st, QUINTE, RIEN)
    assert st.is_terminal() and st.winners() == (1,)


def test_scores_never_decrease_and_the_winner_reaches_the_target():
    g = game(CB, 2, target=120)
    for seed in range(40):
        st = play_out_with_scores_never_decreasing(g, seed)
        (w,) = st.winners()
        assert st.scores()[w] >= 120 > st.scores()[1 - w]
