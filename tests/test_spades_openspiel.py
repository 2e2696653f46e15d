"""`examples/spades.cards` against OpenSpiel's `spades` (`pyspiel`), deal by deal: the same deal
(OpenSpiel's 52 chance outcomes, card i to player i % 4, are our stacked deck, top first, dealt
round the table), the same legal actions at every decision (bids 0-13 with partners' bids adding up
to 13 at most, and plays), the same team scores at the end (OpenSpiel's returns: both partners get
their team's score). Zero mismatches, and a rule broken on purpose (follow suit removed) is caught.

OpenSpiel's spades never marks spades as broken (`is_spades_broken_` is never set), so a player on
lead may lead a spade only when he holds nothing else, all hand long: a public engine's mistake.
The comparison plays our file with that one rule aligned (`breaking=false`); with spades broken
as the rules say, the sets differ, and a test shows it. OpenSpiel's win bonus (500 points) and
mercy rule (-350) cannot trigger in one hand (a team scores 230 at most, -287 at least).
"""

from __future__ import annotations

import random

import pytest

import cardlang
from cardlang.runtime.actions import value_of
from scenario import path

pyspiel = pytest.importorskip("pyspiel")

DEALS = 1200
RANKS, SUITS = "23456789TJQKA", "cdhs"
BIDS = 52  # OpenSpiel's first bidding action: bid b is 52 + b


def _name(card: int) -> str:
    """OpenSpiel's card (suit * 13 + rank, suits CDHS) as our card's name (`10s`, `Qh`)."""
    rank = RANKS[card % 13]
    return ("10" if rank == "T" else rank) + SUITS[card // 13]


@pytest.fixture(scope="module")
def spiel():
    return pyspiel.load_game("spades")


def ours(variant: str = "examples/spades.cards", **options):
    """Our game, with OpenSpiel's rule for spades (never broken) unless `breaking` says otherwise."""
    return cardlang.load(path(variant), 4, {"breaking": False, **options})


def mismatches(game, spiel, deals: int, seed: int) -> list:
    """The deals (by number) on which our game and OpenSpiel's differ: legal sets or returns."""
    ids = [game.card(_name(c)) for c in range(52)]
    to_spiel = {c: k for k, c in enumerate(ids)}
    rng = random.Random(seed)
    wrong = []
    for deal in range(deals):
        order = rng.sample(range(52), 52)
        theirs = spiel.new_initial_state()
        for c in order:
            theirs.apply_action(c)
        mine = game.new_initial_state(seed=deal, stack=[_name(c) for c in order], log=False)
        while not theirs.is_terminal():
            if mine.is_terminal() or mine.current_player != theirs.current_player():
                wrong.append(deal)
                break
            bidding = theirs.legal_actions()[0] >= BIDS
            legal = {a: (BIDS + value_of(a) if bidding else to_spiel.get(value_of(a))) for a in mine.legal_action_ids()}
            if sorted(legal.values()) != sorted(theirs.legal_actions()):
                wrong.append(deal)
                break
            a = rng.choice(sorted(legal))
            mine.apply(a)
            theirs.apply_action(legal[a])
        else:
            if not mine.is_terminal() or [int(r) for r in mine.returns()] != [int(r) for r in theirs.returns()]:
                wrong.append(deal)
    return wrong


def test_spades_agrees_with_openspiel(spiel):
    assert mismatches(ours(), spiel, DEALS, seed=1) == []


@pytest.mark.slow
def test_spades_agrees_with_openspiel_on_many_deals(spiel):
    assert mismatches(ours(), spiel, 10_000, seed=2) == []


def test_spades_agrees_on_the_reference_engine(spiel):
    game = cardlang.load(path("examples/spades.cards"), 4, {"breaking": False}, engine="reference")
    assert mismatches(game, spiel, 150, seed=3) == []


def test_the_check_catches_a_broken_rule(spiel):
    # tests/engine/spades_no_follow.cards is our file with follow-suit removed
    assert len(mismatches(ours("tests/engine/spades_no_follow.cards"), spiel, 100, seed=4)) > 90


def test_spades_broken_as_the_rules_say_differs_from_openspiel(spiel):
    # OpenSpiel never breaks spades: with the rule as written, a spade lead once spades were played is
    # ours to allow and not theirs, on some deals
    assert len(mismatches(ours(breaking=True), spiel, 200, seed=5)) > 10
