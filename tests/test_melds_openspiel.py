"""The deadwood of `runtime/melds.py` against OpenSpiel's gin rummy utilities (`pyspiel`), on the
same random hands: gin rummy's melds (sets of 3-4, runs of 3+ ace low, ace 1, pictures 10), as
`examples/knock_rummy.cards` declares them. Zero mismatches, and a rule broken on purpose (runs
wrapping past the ace) is caught.

OpenSpiel's `min_deadwood` of 11 cards is that of a hand that has just drawn: the least deadwood
after the best discard, compared with the least of ours over the eleven discards.
"""

from __future__ import annotations

import random

import pytest

import cardlang
from cardlang.runtime.poker import card_id
from scenario import path

pyspiel = pytest.importorskip("pyspiel")

HANDS = 3000


@pytest.fixture(scope="module")
def utils():
    return pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)


@pytest.fixture(scope="module")
def ours(utils):
    """(our MeldRule from the example's declaration, OpenSpiel card -> our card id)."""
    game = cardlang.load(path("examples/knock_rummy.cards"), 2, engine="reference")
    ids = [card_id(utils.card_string(c)) for c in range(52)]
    assert sorted(ids) == list(range(52))
    return game.program.layout.melds, ids


def hands(size: int, seed: int):
    rng = random.Random(seed)
    return [rng.sample(range(52), size) for _ in range(HANDS)]


def least(rule, ids, hand):
    """Our deadwood of a hand (of 11 cards: after the best discard, as OpenSpiel counts it)."""
    if len(hand) == 11:
        return min(rule.deadwood([ids[x] for x in hand if x != c]) for c in hand)
    return rule.deadwood([ids[c] for c in hand])


def mismatches(rule, ids, utils, size, seed):
    return [h for h in hands(size, seed) if least(rule, ids, h) != utils.min_deadwood(h)]


@pytest.mark.parametrize("size", [11, 10, 9, 7, 4])
def test_deadwood_agrees_with_openspiel(utils, ours, size):
    rule, ids = ours
    assert mismatches(rule, ids, utils, size, seed=size) == []


def test_knock_discards_agree_with_openspiel(utils, ours):
    # the knock filter of the example: discard c and knock if what is left counts 10 or less
    rule, ids = ours
    wrong = []
    for h in hands(11, seed=11)[:1500]:
        mine = sorted(c for c in h if rule.deadwood([ids[x] for x in h if x != c]) <= 10)
        if mine != sorted(utils.legal_discards(h, 10)):
            wrong.append(h)
    assert wrong == []


def test_the_check_catches_a_broken_rule(utils, ours):
    rule, ids = ours
    deck = cardlang.load(path("examples/knock_rummy.cards"), 2, engine="reference").deck
    from cardlang.runtime.melds import MeldRule

    order = [deck.ranks.index(r) for r in "A 2 3 4 5 6 7 8 9 10 J Q K".split()]
    broken = MeldRule(deck.card_rank, deck.card_suit, len(deck.ranks), len(deck.suits), rule.points,
                      3, 3, order, "around", deck.ranks.index("A"))  # K-A-2 would be a run
    assert len(mismatches(broken, ids, utils, 10, seed=10)) > 20
