"""`examples/euchre.cards` against OpenSpiel's `euchre` (`pyspiel`), deal by deal: the same dealer
and deal (OpenSpiel's first chance outcome is the dealer, our option `dealer_seat`; its next 20 are
the hands, card i to player (dealer + i) % 4, and the 21st the turned card: our stacked deck, top
first, dealt round the table from the dealer), the same legal actions at every decision (pass,
order up, a trump named, the dealer's discard, going alone, defending alone, the cards played,
bowers and all), and the same returns at the end (makers 1, 2 or 4, euchred -2 or -4; the
defenders the opposite). Every combination of OpenSpiel's two options is compared, and a rule
broken on purpose (the left bower left in its own suit) is caught.
"""

from __future__ import annotations

import random

import pytest

import cardlang
from scenario import path

pyspiel = pytest.importorskip("pyspiel")

RANKS, SUITS = "9TJQKA", "cdhs"  # OpenSpiel's card is rank * 4 + suit, suits CDHS
SUIT_NAMES = ["clubs", "diamonds", "hearts", "spades"]
PASS, TRUMP, ALONE, PARTNER = 24, 25, 29, 30  # OpenSpiel's actions: pass, clubs + suit, alone, partner
OPTIONS = [(False, True), (True, True), (False, False), (True, False)]  # (allow_lone_defender, stick_the_dealer)


def _name(card: int) -> str:
    """OpenSpiel's card as our card's name (`10d`, `Js`)."""
    rank = RANKS[card // 4]
    return ("10" if rank == "T" else rank) + SUITS[card % 4]


def spiel(lone: bool, stick: bool):
    return pyspiel.load_game("euchre", {"allow_lone_defender": lone, "stick_the_dealer": stick})


def ours(lone: bool, stick: bool, dealer: int, variant: str = "examples/euchre.cards", engine: str = "compiled"):
    """Our game with OpenSpiel's options, dealt by `dealer` (0 to 3)."""
    options = {"allow_lone_defender": lone, "stick_the_dealer": stick, "dealer_seat": dealer + 1}
    return cardlang.load(path(variant), 4, options, engine=engine)


def _their_action(game, state, a: int, upcard: int, to_spiel: dict) -> int:
    """OpenSpiel's action for our legal action `a`: a card by its name, the rest by its label."""
    if game.program.is_card_action(state, a):
        return to_spiel[a & 0xFFFF]
    label = game.program.label(state, a)
    if label == "pass":
        return PASS
    if label == "order up":
        return TRUMP + upcard % 4
    if label in SUIT_NAMES:
        return TRUMP + SUIT_NAMES.index(label)
    return {"go alone": ALONE, "defend alone": ALONE, "with partner": PARTNER}[label]


def mismatches(lone: bool, stick: bool, deals: int, seed: int, variant: str = "examples/euchre.cards",
               engine: str = "compiled", passing: bool = False) -> list:
    """The deals (by number) on which our game and OpenSpiel's differ: whose turn, legal sets or returns.
    Each player picks at random among the legal actions; `passing`: passes whenever he may."""
    games, theirs_game = [ours(lone, stick, d, variant, engine) for d in range(4)], spiel(lone, stick)
    to_spiel = {games[0].card(_name(c)): c for c in range(24)}
    rng = random.Random(seed)
    wrong = []
    for deal in range(deals):
        dealer = rng.randrange(4)
        order = rng.sample(range(24), 24)  # 20 dealt, the turned card, 3 never seen
        theirs = theirs_game.new_initial_state()
        for outcome in [dealer] + order[:21]:
            theirs.apply_action(outcome)
        game = games[dealer]
        mine = game.new_initial_state(seed=deal, stack=[_name(c) for c in order], log=False)
        while not theirs.is_terminal():
            if mine.is_terminal() or mine.current_player != theirs.current_player():
                wrong.append(deal)
                break
            legal = {a: _their_action(game, mine, a, order[20], to_spiel) for a in mine.legal_action_ids()}
            if sorted(legal.values()) != sorted(theirs.legal_actions()):
                wrong.append(deal)
                break
            a = rng.choice(sorted(legal))
            if passing and PASS in legal.values():
                a = next(x for x in legal if legal[x] == PASS)
            mine.apply(a)
            theirs.apply_action(legal[a])
        else:
            if not mine.is_terminal() or [int(r) for r in mine.returns()] != [int(r) for r in theirs.returns()]:
                wrong.append(deal)
    return wrong


@pytest.mark.parametrize("lone, stick", OPTIONS)
def test_euchre_agrees_with_openspiel(lone, stick):
    assert mismatches(lone, stick, 500, seed=1) == []


@pytest.mark.slow
@pytest.mark.parametrize("lone, stick", OPTIONS)
def test_euchre_agrees_with_openspiel_on_many_deals(lone, stick):
    assert mismatches(lone, stick, 10_000, seed=2) == []


@pytest.mark.parametrize("stick", [True, False])
def test_everyone_passing_throws_the_hand_in_or_sticks_the_dealer(stick):
    # random play almost never passes eight times: here everyone passes while he may, so the dealer
    # is stuck with naming trumps, or (without stick_the_dealer) the hand is thrown in for 0 points
    assert mismatches(False, stick, 100, seed=6, passing=True) == []
    game = ours(False, stick, 0)
    state = game.new_initial_state(seed=0)
    for _ in range(7):
        state.apply("pass")
    labels = [a.label for a in state.legal_actions()]
    assert ("pass" in labels) == (not stick) and len([x for x in labels if x in SUIT_NAMES]) == 3
    if not stick:
        state.apply("pass")
        assert state.is_terminal() and state.returns() == [0, 0, 0, 0]


def test_euchre_agrees_on_the_reference_engine():
    assert mismatches(True, False, 150, seed=3, engine="reference") == []


def test_the_check_catches_a_left_bower_left_in_its_own_suit():
    # tests/engine/euchre_no_left_bower.cards is our file with the left bower an ordinary jack
    assert len(mismatches(False, True, 200, seed=4, variant="tests/engine/euchre_no_left_bower.cards")) > 20
