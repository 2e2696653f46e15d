"""Tests of cardlang.runtime.poker against an independent brute-force evaluator and treys."""

from __future__ import annotations

import itertools
import json
import pickle
import random
from functools import cmp_to_key

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardlang.runtime.poker import (
    CATEGORIES,
    STANDARD_CATEGORIES,
    HandValue,
    Ranking,
    card_id,
    card_str,
)

STANDARD = list(STANDARD_CATEGORIES)
# Counter-Bluff: Quinte > Carré > Full > Brelan > Séquence > Double paire > Paire, no flush.
COUNTER_BLUFF = [
    "straight_flush",
    "four_of_a_kind",
    "full_house",
    "three_of_a_kind",
    "straight",
    "two_pair",
    "pair",
]
WITH_FIVE = ["five_of_a_kind", *STANDARD]


# ---------------------------------------------------------------------------
# The reference: slow, obviously correct.  Every category is read by trying
# every way of picking its groups out of the five cards, and the best reading
# wins; best of n cards is the best over all 5-card subsets.
# ---------------------------------------------------------------------------

def _readings(cards5, ace_low):
    """Yield (category, tiebreak tuple) for every category the 5 cards satisfy."""
    ranks = [r for r, _ in cards5]
    desc = sorted(ranks, reverse=True)
    idx = range(5)

    def others(used):
        return sorted((ranks[i] for i in idx if i not in used), reverse=True)

    def same(ix):
        return len({ranks[i] for i in ix}) == 1

    yield "high_card", tuple(desc)
    for ix in itertools.combinations(idx, 2):
        if same(ix):
            yield "pair", (ranks[ix[0]], *others(ix))
    for a in itertools.combinations(idx, 2):
        for b in itertools.combinations(idx, 2):
            if set(a) & set(b) or not same(a) or not same(b) or ranks[a[0]] == ranks[b[0]]:
                continue
            hi, lo = max(ranks[a[0]], ranks[b[0]]), min(ranks[a[0]], ranks[b[0]])
            yield "two_pair", (hi, lo, *others(a + b))
    for ix in itertools.combinations(idx, 3):
        if same(ix):
            yield "three_of_a_kind", (ranks[ix[0]], *others(ix))
            rest = [i for i in idx if i not in ix]
            if same(rest) and ranks[rest[0]] != ranks[ix[0]]:
                yield "full_house", (ranks[ix[0]], ranks[rest[0]])
    for ix in itertools.combinations(idx, 4):
        if same(ix):
            yield "four_of_a_kind", (ranks[ix[0]], *others(ix))
    if same(idx):
        yield "five_of_a_kind", (ranks[0],)
    straight_high = None
    for high in range(4, 13):
        if sorted(ranks) == list(range(high - 4, high + 1)):
            straight_high = high
    if ace_low and sorted(ranks) == [0, 1, 2, 3, 12]:
        straight_high = 3
    flush = len({s for _, s in cards5}) == 1
    if straight_high is not None:
        yield "straight", (straight_high,)
    if flush:
        yield "flush", tuple(desc)
    if flush and straight_high is not None:
        yield "straight_flush", (straight_high,)


def ref_eval5(cards5, categories, ace_low=True):
    """(score, category): score compares like poker; unlisted combos score as high card."""
    best = {}
    for name, tb in _readings(cards5, ace_low):
        if name not in best or tb > best[name]:
            best[name] = tb
    for pos, name in enumerate(categories):
        if name in best:
            return (len(categories) - pos, best[name]), name
    return (0, best["high_card"]), "high_card"


def ref_eval(cards, categories, ace_low=True):
    """Best 5 of any number of (rank, suit) cards, by brute force."""
    return max(
        (ref_eval5(sub, categories, ace_low) for sub in itertools.combinations(cards, 5)),
        key=lambda x: x[0],
    )


def as_pairs(codes):
    return [(c >> 2, c & 3) for c in codes]


def sign(x):
    return (x > 0) - (x < 0)


def assert_same_order_and_categories(ranking, hands, categories, ace_low=True):
    """Same category for each hand and same order for every pair of hands."""
    mine = [ranking.evaluate(h) for h in hands]
    ref = [ref_eval(as_pairs(h), categories, ace_low) for h in hands]
    for h, m, (score, name) in zip(hands, mine, ref):
        assert m.category == name, ([card_str(c) for c in h], m.category, name)
        assert ranking.category_of(m) == name
    for i, j in itertools.combinations(range(len(hands)), 2):
        assert sign(mine[i] - mine[j]) == sign(
            (ref[i][0] > ref[j][0]) - (ref[i][0] < ref[j][0])
        ), ([card_str(c) for c in hands[i]], [card_str(c) for c in hands[j]])


# ---------------------------------------------------------------------------
# Strategies: plain random hands are almost always pairs or high cards, so
# also draw from a few ranks and suits to make the rare categories common.
# ---------------------------------------------------------------------------

@st.composite
def hands(draw, min_size=5, max_size=10, repeats=False):
    n = draw(st.integers(min_size, max_size))
    if draw(st.booleans()):
        pool = list(range(52))
    else:
        low = draw(st.integers(-1, 8))  # -1 gives the wheel ranks (A 2 3 4 5 ..)
        ranks = sorted({r % 13 for r in range(low, low + draw(st.integers(5, 7)))})
        suits = draw(st.lists(st.integers(0, 3), min_size=1, max_size=4, unique=True))
        pool = [r * 4 + s for r in ranks for s in suits]
    if repeats:
        return draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n))
    if len(pool) < n:
        pool = list(range(52))
    return draw(st.lists(st.sampled_from(pool), min_size=n, max_size=n, unique=True))


HYP = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@HYP
@given(st.lists(hands(5, 7), min_size=2, max_size=6))
def test_standard_matches_reference_5_to_7(hs):
    assert_same_order_and_categories(Ranking.standard(), hs, STANDARD)


@HYP
@given(st.lists(hands(5, 7), min_size=2, max_size=6))
def test_counter_bluff_matches_reference_5_to_7(hs):
    assert_same_order_and_categories(Ranking.from_categories(COUNTER_BLUFF), hs, COUNTER_BLUFF)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(hands(8, 10), min_size=2, max_size=4), st.booleans())
def test_up_to_10_cards_match_reference(hs, bluff):
    cats = COUNTER_BLUFF if bluff else STANDARD
    assert_same_order_and_categories(Ranking.from_categories(cats), hs, cats)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(hands(5, 8, repeats=True), min_size=2, max_size=4), st.booleans())
def test_double_deck_repeats_match_reference(hs, five):
    cats = WITH_FIVE if five else STANDARD
    assert_same_order_and_categories(Ranking.from_categories(cats), hs, cats)


@settings(max_examples=25, deadline=None)  # each example builds a ranking (~0.15 s)
@given(
    st.permutations(CATEGORIES[1:]).flatmap(
        lambda p: st.integers(0, len(p)).map(lambda n: list(p[:n]))
    ),
    st.booleans(),
    st.lists(hands(5, 7), min_size=2, max_size=4),
)
def test_arbitrary_rankings_match_reference(cats, ace_low, hs):
    ranking = Ranking.from_categories(cats, ace_low_straight=ace_low)
    assert_same_order_and_categories(ranking, hs, cats, ace_low)


@pytest.mark.parametrize(
    "cats, ace_low",
    [(STANDARD, True), (COUNTER_BLUFF, True), (STANDARD, False)],
    ids=["standard", "counter_bluff", "standard_no_wheel"],
)
def test_every_5_card_rank_pattern_matches_reference(cats, ace_low):
    """All 6 188 unsuited rank multisets and all 1 287 suited rank sets, totally ordered."""
    ranking = Ranking.from_categories(cats, ace_low_straight=ace_low)
    hands_ = []
    for ranks in itertools.combinations_with_replacement(range(13), 5):
        # Suits 0, 1, 2, 3, 0: never five of one suit; a card repeats only in
        # five of a kind (repeats are allowed).
        hands_.append([r * 4 + (i % 4) for i, r in enumerate(ranks)])
    for ranks in itertools.combinations(range(13), 5):
        hands_.append([r * 4 + 3 for r in ranks])
    mine = [ranking.evaluate_value(h) for h in hands_]
    ref = [ref_eval(as_pairs(h), cats, ace_low) for h in hands_]
    for h, m, (_, name) in zip(hands_, mine, ref):
        assert ranking.category_of(m) == name, [card_str(c) for c in h]
    order = sorted(range(len(hands_)), key=lambda i: mine[i])
    for a, b in zip(order, order[1:]):
        assert (mine[a] < mine[b]) == (ref[a][0] < ref[b][0]), (hands_[a], hands_[b])
        assert (mine[a] == mine[b]) == (ref[a][0] == ref[b][0]), (hands_[a], hands_[b])


# ---------------------------------------------------------------------------
# Against treys.
# ---------------------------------------------------------------------------

def test_standard_matches_treys_on_10000_seven_card_hands():
    treys = pytest.importorskip("treys")
    evaluator = treys.Evaluator()
    rng = random.Random(20240601)
    deck = list(range(52))
    hands_ = [rng.sample(deck, 7) for _ in range(10_000)]
    ranking = Ranking.standard()
    mine = [ranking.evaluate(h) for h in hands_]
    theirs = [evaluator.evaluate([treys.Card.new(card_str(c)) for c in h[:2]],
                                 [treys.Card.new(card_str(c)) for c in h[2:]]) for h in hands_]
    # treys: lower is better.
    order = sorted(range(len(hands_)), key=lambda i: mine[i])
    for a, b in zip(order, order[1:]):
        assert (mine[a] == mine[b]) == (theirs[a] == theirs[b])
        assert (mine[a] < mine[b]) == (theirs[a] > theirs[b])
    names = {
        "Royal Flush": "straight_flush", "Straight Flush": "straight_flush",
        "Four of a Kind": "four_of_a_kind",
        "Full House": "full_house", "Flush": "flush", "Straight": "straight",
        "Three of a Kind": "three_of_a_kind", "Two Pair": "two_pair", "Pair": "pair",
        "High Card": "high_card",
    }
    for m, t in zip(mine, theirs):
        assert m.category == names[evaluator.class_to_string(evaluator.get_rank_class(t))]


# ---------------------------------------------------------------------------
# Named edge cases.
# ---------------------------------------------------------------------------

def ev(ranking, *cards):
    return ranking.evaluate(list(cards))


def test_wheel_is_the_lowest_straight():
    std = Ranking.standard()
    wheel = ev(std, "Ah", "2c", "3d", "4s", "5h")
    six_high = ev(std, "6h", "2c", "3d", "4s", "5h")
    trips = ev(std, "Ah", "Ac", "Ad", "Ks", "Qh")
    assert wheel.category == "straight"
    assert trips < wheel < six_high
    assert std.describe(wheel, detail=True) == "straight: 5 4 3 2 A"
    steel = ev(std, "Ah", "2h", "3h", "4h", "5h")
    assert steel.category == "straight_flush"
    assert steel < ev(std, "6h", "2h", "3h", "4h", "5h")


def test_wheel_is_not_a_straight_without_ace_low():
    no_wheel = Ranking.from_categories(STANDARD, ace_low_straight=False)
    assert ev(no_wheel, "Ah", "2c", "3d", "4s", "5h").category == "high_card"
    assert ev(no_wheel, "Ah", "2h", "3h", "4h", "5h").category == "flush"
    assert ev(no_wheel, "Ah", "Kc", "Qd", "Js", "Th").category == "straight"
    # Seven cards: the wheel does not count, the ace stays a high card.
    assert ev(no_wheel, "Ah", "2c", "3d", "4s", "5h", "9c", "Jd").category == "high_card"


def test_counter_bluff_flush_scores_as_high_card():
    bluff = Ranking.from_categories(COUNTER_BLUFF)
    suited = ev(bluff, "As", "Js", "9s", "6s", "3s")
    assert suited.category == "high_card"
    # Scored by its ranks only: the same ranks unsuited are worth the same.
    assert suited == ev(bluff, "Ah", "Js", "9d", "6s", "3c")
    assert suited < ev(bluff, "2h", "2s", "4d", "5s", "7c")  # any pair beats it
    # A suited straight is still a Quinte, the top category.
    assert ev(bluff, "9s", "8s", "7s", "6s", "5s").category == "straight_flush"
    assert ev(bluff, "As", "2s", "3s", "4s", "5s").category == "straight_flush"
    assert ev(bluff, "As", "2h", "3s", "4s", "5s").category == "straight"
    # Seven cards with five spades: the pair on the side decides.
    assert ev(bluff, "As", "Js", "9s", "6s", "3s", "3h", "8d").category == "pair"


def test_two_pair_against_two_pair():
    std = Ranking.standard()
    assert ev(std, "Ah", "Ad", "Kc", "Kd", "Qs") > ev(std, "As", "Ac", "Kh", "Ks", "Jd")  # kicker
    assert ev(std, "Ah", "Ad", "Qc", "Qd", "Ks") > ev(std, "As", "Ac", "Jh", "Js", "Kd")  # 2nd pair
    assert ev(std, "Kh", "Kd", "Qc", "Qd", "As") < ev(std, "As", "Ac", "2h", "2s", "3d")  # 1st pair
    # Seven cards, three pairs: the best two pairs, then the best kicker.
    v = ev(std, "Ah", "Ad", "Kc", "Kd", "Qs", "Qh", "2c")
    assert v.category == "two_pair"
    assert std.describe(v, detail=True) == "two pair: A A K K Q"


def test_full_house_against_full_house():
    std = Ranking.standard()
    assert ev(std, "Kh", "Kd", "Kc", "2d", "2s") > ev(std, "Qs", "Qc", "Qh", "As", "Ad")
    # Shared trips on the board: the pair decides.
    board = ["Kh", "Kd", "Kc", "9s", "4d"]
    assert ev(std, *board, "3s", "3d") > ev(std, *board, "2s", "2d")
    # Two trips in seven cards: the best full house uses the higher trips.
    v = ev(std, "7h", "7d", "7c", "9s", "9d", "9h", "Ac")
    assert std.describe(v, detail=True) == "full house: 9 9 9 7 7"


def test_equal_hands_tie():
    std = Ranking.standard()
    assert ev(std, "Ah", "Kd", "Qc", "9d", "2s") == ev(std, "As", "Kc", "Qh", "9s", "2d")
    board = ["Ah", "Kh", "Qh", "Jh", "Th"]  # royal flush on the board
    assert ev(std, *board, "2c", "3d") == ev(std, *board, "9c", "9d")
    bluff = Ranking.from_categories(COUNTER_BLUFF)
    assert ev(bluff, "Ah", "Ad", "Qc", "9d", "2s") == ev(bluff, "As", "Ac", "Qh", "9s", "2d")


def test_category_names():
    std = Ranking.standard()
    assert std.categories == (
        "straight_flush", "four_of_a_kind", "full_house", "flush", "straight",
        "three_of_a_kind", "two_pair", "pair", "high_card",
    )
    examples = {
        "straight_flush": ["9c", "8c", "7c", "6c", "5c"],
        "four_of_a_kind": ["9c", "9d", "9h", "9s", "5c"],
        "full_house": ["9c", "9d", "9h", "5s", "5c"],
        "flush": ["Kc", "9c", "7c", "6c", "5c"],
        "straight": ["9c", "8d", "7c", "6c", "5c"],
        "three_of_a_kind": ["9c", "9d", "9h", "6c", "5c"],
        "two_pair": ["9c", "9d", "6h", "6c", "5c"],
        "pair": ["9c", "9d", "7h", "6c", "5c"],
        "high_card": ["Kc", "9d", "7h", "6c", "5c"],
    }
    values = []
    for name in std.categories:
        v = std.evaluate(examples[name])
        assert v.category == name == std.category_of(v) == std.category_of(int(v))
        assert std.describe(v) == name.replace("_", " ")
        values.append(v)
    assert values == sorted(values, reverse=True)
    bluff = Ranking.from_categories(COUNTER_BLUFF)
    assert bluff.categories == tuple(COUNTER_BLUFF)
    assert bluff.evaluate(examples["flush"]).category == "high_card"


def test_five_of_a_kind_with_a_double_deck():
    five = Ranking.from_categories(WITH_FIVE)
    aces = [card_id("As"), card_id("As"), card_id("Ah"), card_id("Ad"), card_id("Ac")]
    v = five.evaluate(aces)
    assert v.category == "five_of_a_kind"
    assert v > five.evaluate(["As", "Ks", "Qs", "Js", "Ts"])
    assert five.evaluate([*aces[:4], card_id("Kd"), card_id("Kd")]) < five.evaluate(
        [card_id("2c")] * 5 + [card_id("3d")]
    )
    # Without the category it falls to four of a kind (aces with an ace kicker).
    std = Ranking.standard()
    assert std.evaluate(aces).category == "four_of_a_kind"
    assert std.evaluate(aces) > std.evaluate(["As", "Ah", "Ad", "Ac", "Ks"])
    # A flush with a pair in it (two identical cards) is a flush.
    v = std.evaluate(["As", "As", "Ks", "Qs", "9s", "2d", "3c"])
    assert v.category == "flush"
    assert std.describe(v, detail=True) == "flush: A A K Q 9"


def test_no_high_card_listed_still_ranks_below():
    r = Ranking.from_categories(["flush", "pair"])
    nothing = r.evaluate(["Ah", "Kd", "Qc", "9d", "2s"])
    pair = r.evaluate(["2h", "2d", "3c", "4d", "6s"])
    flush = r.evaluate(["2h", "3h", "4h", "5h", "7h"])
    straight = r.evaluate(["2h", "3d", "4h", "5h", "6h"])
    assert nothing.category == "high_card" and straight.category == "high_card"
    assert nothing < pair < flush
    assert straight < nothing  # a straight is just high cards here (6 high < A high)
    assert r.categories == ("flush", "pair")


def test_strings_ids_and_spellings_agree():
    std = Ranking.standard()
    assert card_id("2c") == 0 and card_id("As") == 51 and card_id("10h") == card_id("Th") == 34
    assert all(card_str(card_id(card_str(i))) == card_str(i) for i in range(52))
    strs = ["10h", "Jh", "Qh", "Kh", "Ah", "2c", "2d"]
    ids = [card_id(c) for c in strs]
    assert std.evaluate(strs) == std.evaluate(ids) == std.evaluate(tuple(ids))
    assert std.evaluate(["th", "JH", "qh", "kh", "ah"]) == std.evaluate(strs[:5])
    assert std.evaluate(["A♠", "K♠", "Q♠", "J♠", "10♠"]).category == "straight_flush"


def test_values_are_ints():
    std = Ranking.standard()
    v = std.evaluate(["Ah", "Ad", "Kc", "Kd", "Qs"])
    plain = std.evaluate_value(["Ah", "Ad", "Kc", "Kd", "Qs"])
    assert isinstance(v, HandValue) and isinstance(v, int)
    assert type(plain) is int and plain == v
    assert json.loads(json.dumps({"v": v})) == {"v": int(v)}
    back = pickle.loads(pickle.dumps(v))
    assert back == v and back.category == "two_pair"
    assert std.category_of(plain) == "two_pair"
    assert v < 1 << 28  # small ints
    # A value of another ranking with another layout is refused.
    bluff = Ranking.from_categories(COUNTER_BLUFF)
    with pytest.raises(ValueError):
        bluff.category_of(std.evaluate(["Kc", "9c", "7c", "6c", "5c"]))


@pytest.mark.parametrize(
    "cards",
    [
        ["As", "Ks", "Qs", "Js"],
        ["As"] * 11,
        [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
        ["As", "Ks", "Qs", "Js", "Xx"],
        [0, 1, 2, 3, 52],
        [0, 1, 2, 3, -1],
        "AsKsQsJsTs",
        [0, 1, 2, 3, [4]],
    ],
)
def test_bad_hands_are_rejected(cards):
    std = Ranking.standard()
    with pytest.raises(ValueError):
        std.evaluate(cards)
    with pytest.raises(ValueError):
        std.evaluate_value(cards)


def test_bad_rankings_are_rejected():
    with pytest.raises(ValueError, match="unknown"):
        Ranking.from_categories(["pair", "royal_flush"])
    with pytest.raises(ValueError, match="twice"):
        Ranking.from_categories(["pair", "pair"])
    with pytest.raises(ValueError, match="lowest"):
        Ranking.from_categories(["high_card", "pair"])
    with pytest.raises(ValueError):
        card_id("1x")
    with pytest.raises(ValueError):
        Ranking.standard().category_of(99 << 24)


def test_rankings_are_cached_and_described():
    assert Ranking.standard() is Ranking.standard()
    assert Ranking.from_categories(COUNTER_BLUFF) is Ranking.from_categories(tuple(COUNTER_BLUFF))
    assert "ace_low_straight=True" in repr(Ranking.standard())
    assert pickle.loads(pickle.dumps(Ranking.standard())) is Ranking.standard()
    std = Ranking.standard()
    v = std.evaluate(["Kh", "Kd", "Kc", "7d", "7s"])
    assert std.ranks_of(v) == (11, 11, 11, 5, 5)
    assert std.describe(v, detail=True) == "full house: K K K 7 7"
    assert std.describe(v, detail=True, rank_names="23456789TJQKA") == "full house: K K K 7 7"


def test_many_cards_memoised_path_is_consistent():
    """8-10 card hands go through the general path once, then the table."""
    std = Ranking.standard()
    rng = random.Random(7)
    for _ in range(200):
        hand = rng.sample(range(52), rng.randint(8, 10))
        first = std.evaluate_value(hand)
        assert std.evaluate_value(hand) == first == std.evaluate(hand)
        assert first == max(std.evaluate_value(list(s)) for s in itertools.combinations(hand, 7))
