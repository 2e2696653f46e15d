"""runtime/melds.py against brute force written plainly here: the best arrangement, lay-offs and
the counting functions, on random hands (hypothesis) of the standard deck and of small decks."""

from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardlang.runtime.cards import Deck
from cardlang.runtime.melds import (MeldError, MeldRule, count_pairs, count_runs, count_subsets,
                                    longest_suit)

STD = Deck.preset("standard")
ACE = STD.ranks.index("A")
# gin rummy's points: ace 1, number cards their number, pictures 10
PIPS = tuple(1 if STD.ranks[r] == "A" else 10 if STD.ranks[r] in "JQK" else int(STD.ranks[r])
             for r in STD.card_rank)
LOW_ORDER = [STD.ranks.index(x) for x in "A 2 3 4 5 6 7 8 9 10 J Q K".split()]


def rule(ace=None, set_min=3, run_min=3, deck=STD, points=PIPS, order=LOW_ORDER):
    return MeldRule(deck.card_rank, deck.card_suit, len(deck.ranks), len(deck.suits), points,
                    set_min, run_min, order, ace, ACE)


# ---------------------------------------------------------------- the oracle, written plainly
def sequences(ace, order):
    """The rank sequences runs are windows of, and whether they wrap."""
    others = [r for r in order if r != ACE]
    if ace is None:
        return [(list(order), False)]
    if ace == "low":
        return [([ACE] + others, False)]
    if ace == "high":
        return [(others + [ACE], False)]
    if ace == "both":
        return [([ACE] + others, False), (others + [ACE], False)]
    return [(others + [ACE], True)]


def is_meld(cards, ace, set_min, run_min, deck=STD, order=LOW_ORDER):
    suits = {deck.card_suit[c] for c in cards}
    ranks = [deck.card_rank[c] for c in cards]
    if -1 in suits:
        return False
    if set_min and len(cards) >= set_min and len(set(ranks)) == 1:
        return True
    if not run_min or len(cards) < run_min or len(suits) != 1 or len(set(ranks)) != len(ranks):
        return False
    for seq, wrap in sequences(ace, order):
        n = len(seq)
        for start in range(n):
            window = [seq[(start + i) % n] for i in range(len(cards))] if wrap or start + len(cards) <= n else None
            if window is not None and len(set(window)) == len(window) and set(window) == set(ranks):
                return True
    return False


def oracle(hand, ace=None, set_min=3, run_min=3, points=PIPS):
    """(melded points, sum(1 << id) of the melded cards) of the best family of disjoint melds."""
    melds = [m for k in range(2, len(hand) + 1) for m in combinations(sorted(hand), k)
             if is_meld(m, ace, set_min, run_min)]
    best = (0, 0)

    def search(i, used, value, ids):
        nonlocal best
        if (value, ids) > best:
            best = (value, ids)
        for j in range(i, len(melds)):
            if not used & set(melds[j]):
                m = melds[j]
                search(j + 1, used | set(m), value + sum(points[c] for c in m), ids + sum(1 << c for c in m))

    search(0, set(), 0, 0)
    return best


hands = st.lists(st.integers(0, 51), min_size=0, max_size=10, unique=True)
aces = st.sampled_from([None, "low", "high", "both", "around"])


@settings(max_examples=300, deadline=None)
@given(hands, aces, st.booleans())
def test_the_best_arrangement_is_the_brute_force_one(hand, ace, fast):
    r = rule(ace)
    r._fast = r._fast and fast  # both the packed path and the general one
    value, ids = oracle(hand, ace)
    arr = r.arrange(hand)
    assert (arr[0], arr[1]) == (value, ids)
    assert r.deadwood(hand) == sum(PIPS[c] for c in hand) - value
    assert set(r.melded(hand)) == {c for c in hand if ids >> c & 1}
    # the arrangement's melds are melds, disjoint, and cover exactly the melded cards
    pieces = [list(m) for m in arr[2]] + [[c for c in hand if STD.card_suit[c] == s and mask >> STD.card_rank[c] & 1]
                                          for s, masks in arr[3] for mask in masks]
    assert all(is_meld(p, ace, 3, 3) for p in pieces)
    assert sorted(c for p in pieces for c in p) == sorted(r.melded(hand))


def dense_hands():
    # many cards of few ranks and suits: sets and runs compete for the same cards
    return st.lists(st.sampled_from([r * 4 + s for r in range(5) for s in range(4)]), max_size=10, unique=True)


@settings(max_examples=200, deadline=None)
@given(dense_hands(), st.sampled_from([2, 3, 4]), st.sampled_from([None, 2, 3]))
def test_crowded_hands_and_other_minimums(hand, set_min, run_min):
    order = list(range(13))
    r = MeldRule(STD.card_rank, STD.card_suit, 13, 4, PIPS, set_min, run_min, order, None, ACE)
    assert r.arrange(hand)[:2] == oracle_order(hand, set_min, run_min, order)
    r = MeldRule(STD.card_rank, STD.card_suit, 13, 4, PIPS, set_min, run_min, order, None, ACE)
    r._fast = False
    assert r.arrange(hand)[:2] == oracle_order(hand, set_min, run_min, order)


def oracle_order(hand, set_min, run_min, order):
    melds = [m for k in range(2, len(hand) + 1) for m in combinations(sorted(hand), k)
             if is_meld(m, None, set_min, run_min, order=order)]
    best = (0, 0)

    def search(i, used, value, ids):
        nonlocal best
        best = max(best, (value, ids))
        for j in range(i, len(melds)):
            if not used & set(melds[j]):
                m = melds[j]
                search(j + 1, used | set(m), value + sum(PIPS[c] for c in m), ids + sum(1 << c for c in m))

    search(0, set(), 0, 0)
    return best


def laid_off_plainly(cards, onto, r, ace):
    """Lay off one card at a time while one fits a meld of `onto`'s arrangement (runs first: a
    card that fits a run and a set goes on the run, where it may let another follow it)."""
    sets, runs = r.arrange(onto)[2:4]
    melds = [[c for c in onto if STD.card_suit[c] == s and mask >> STD.card_rank[c] & 1]
             for s, masks in runs for mask in masks] + [list(m) for m in sets]
    left, out = [c for c in cards if c not in onto], set()
    changed = True
    while changed:
        changed = False
        for c in list(left):
            for m in melds:
                if is_meld(m + [c], ace, 3, 3) and (len({STD.card_rank[x] for x in m}) == 1) == (len({STD.card_rank[x] for x in m + [c]}) == 1):
                    m.append(c)
                    out.add(c)
                    left.remove(c)
                    changed = True
                    break
    return out


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=3, max_size=20, unique=True), aces, st.data())
def test_layoffs_extend_the_melds_on_the_table(cards, ace, data):
    k = data.draw(st.integers(0, len(cards)))
    onto, hand = cards[:k], cards[k:]
    r = rule(ace)
    assert set(r.layoffs(hand, onto)) == laid_off_plainly(hand, onto, r, ace)


def test_a_known_gin_hand():
    from cardlang.runtime.poker import card_id
    r = rule("low")
    hand = [card_id(x) for x in "Ah 2h 3h 7c 7d 7s Kd Qd Jd 9s".split()]
    assert r.deadwood(hand) == 9
    assert r.deadwood([card_id(x) for x in "Qh Kh Ah 2c 3c".split()]) == 26  # ace low: Q-K-A is no run
    assert rule("around").deadwood([card_id(x) for x in "Kh Ah 2h".split()]) == 0
    assert rule("high").deadwood([card_id(x) for x in "Ah 2h 3h".split()]) == 6
    onto = [card_id(x) for x in "4s 5s 6s 8c 8d 8h".split()]
    assert set(r.layoffs([card_id(x) for x in "7s 9s 3s 8s 2h".split()], onto)) == {card_id(x) for x in "7s 9s 3s 8s".split()}  # 9s follows 8s


@pytest.mark.parametrize("fast", [True, False])
def test_too_many_cards_is_an_error_not_a_hang(fast):
    r = rule()
    r._fast = fast
    with pytest.raises(MeldError):
        r.arrange(list(range(52)))


# ---------------------------------------------------------------- counting
def plain_subsets(cards, values, total):
    return sum(1 for k in range(len(cards) + 1) for s in combinations(cards, k) if sum(values[c] for c in s) == total)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 51), max_size=9, unique=True), st.integers(-2, 40))
def test_count_subsets(cards, total):
    assert count_subsets(cards, PIPS, total) == plain_subsets(cards, PIPS, total)


def plain_runs(cards, positions):
    """Maximal runs by brute force: subsets of distinct consecutive positions, 3+, in no longer one."""
    runs = []
    for k in range(3, len(cards) + 1):
        for s in combinations(cards, k):
            ps = sorted(positions[c] for c in s)
            if 0 not in ps and len(set(ps)) == k and ps[-1] - ps[0] == k - 1:
                runs.append(set(s))
    return [r for r in runs if not any(r < o for o in runs)]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 51), max_size=9, unique=True))
def test_pairs_runs_and_suits(cards):
    positions = tuple(LOW_ORDER.index(STD.card_rank[c]) + 1 for c in range(52))
    runs = plain_runs(cards, positions)
    assert count_runs(cards, positions) == len(runs)
    assert count_runs(cards, positions, True) == sum(len(r) for r in runs)
    assert count_pairs(cards, STD.card_rank, STD.card_suit) == sum(
        1 for a, b in combinations(cards, 2) if STD.card_rank[a] == STD.card_rank[b])
    assert longest_suit(cards, STD.card_suit) == max([sum(1 for c in cards if STD.card_suit[c] == s) for s in range(4)] if cards else [0])


# ---------------------------------------------------------------- deadwood alone (its own fast path)
@settings(max_examples=300, deadline=None)
@given(st.one_of(hands, dense_hands()), aces, st.sampled_from([2, 3, 4]), st.sampled_from([None, 2, 3]),
       st.lists(st.integers(0, 12), min_size=13, max_size=13))
def test_deadwood_alone_is_the_brute_force_one(hand, ace, set_min, run_min, rank_points):
    # a fresh rule each time, `deadwood` first (nothing memoised by `arrange`), any points by rank
    # (a value is 0 or more: E038)
    points = tuple(rank_points[r] for r in STD.card_rank)
    value, _ = oracle_points(hand, ace, set_min, run_min, points)
    r = rule(ace, set_min, run_min, points=points)
    assert r._tables is not None  # the four-suit path
    assert r.deadwood(hand) == sum(points[c] for c in hand) - value
    assert r.deadwood(hand + hand[:2]) == r.deadwood(hand)  # a card given twice counts once
    # the emitted engine's call-site function (a fresh rule: nothing memoised)
    site = rule(ace, set_min, run_min, points=points).deadwood_function(None)
    assert site(hand) == r.deadwood(hand)
    assert site(hand + hand[:2]) == r.deadwood(hand)
    # the function for a zone's cards (never one card twice: no check)
    assert rule(ace, set_min, run_min, points=points).deadwood_function(None, True)(hand) == r.deadwood(hand)
    slow = rule(ace, set_min, run_min, points=points)
    slow._fast, slow._tables = False, None  # by `arrange`, the general path
    assert slow.deadwood(hand) == r.deadwood(hand)


def oracle_points(hand, ace, set_min, run_min, points):
    """(most points, None) over every family of disjoint melds, for any points by card."""
    melds = [m for k in range(2, len(hand) + 1) for m in combinations(sorted(hand), k)
             if is_meld(m, ace, set_min, run_min)]
    best = [0]

    def search(i, used, value):
        best[0] = max(best[0], value)
        for j in range(i, len(melds)):
            if not used & set(melds[j]):
                search(j + 1, used | set(melds[j]), value + sum(points[c] for c in melds[j]))

    search(0, set(), 0)
    return best[0], None


def test_deadwood_of_too_many_cards_is_an_error_not_a_hang():
    with pytest.raises(MeldError):
        rule().deadwood(list(range(52)))
    with pytest.raises(MeldError):  # at a call site too (with a span, a rule error there)
        rule().deadwood_function(None)(list(range(52)))


def test_the_call_site_deadwood_is_the_general_one_on_crowded_hands():
    # three-card sets (the call-site function's own path): ranks with three and four cards that
    # runs compete for, against `arrange` (the general path, itself checked against the oracle)
    import random
    rng = random.Random(7)
    pool = [r * 4 + s for r in range(6) for s in range(4)]
    for ace in (None, "low", "around"):
        site = rule(ace).deadwood_function(None, True)
        general = rule(ace)
        general._fast, general._tables = False, None
        for _ in range(1500):
            hand = rng.sample(pool, rng.randint(0, 11))
            assert site(hand) == general.deadwood(hand), hand
