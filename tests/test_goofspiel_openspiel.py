"""`examples/goofspiel.cards` against OpenSpiel's `goofspiel` (`pyspiel`), game by game on the same
prize order: at each turn both give every player the same bids (OpenSpiel's simultaneous node,
`legal_actions(p)` for each p; ours, the choice made at once, seat by seat), the same joint bid is
played in both, the prizes left are OpenSpiel's chance outcomes, and at the end the returns agree
(ours are whole numbers: OpenSpiel's times the factor the file names). Zero mismatches, and a rule
broken on purpose (a tie for the highest bid gives the prize to the first of the tied) is caught.

OpenSpiel card `k` (0-based) is our card of rank k + 1 (ace 1 … king 13); prizes are clubs.
"""

from __future__ import annotations

import random

import pytest

import cardlang
from cardlang.runtime.actions import value_of
from scenario import path

pyspiel = pytest.importorskip("pyspiel")

FILE = path("examples/goofspiel.cards")
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
GAMES = 1500  # for each setting below, in the default run (`-m slow`: ten times as many)


def value(game, card: int) -> int:
    """The rank of a card as a number, ace 1 to king 13."""
    return RANKS.index(game.card_name(card)[:-1]) + 1


def scale(returns_type: str, points: list) -> float:
    """What our payoffs are OpenSpiel's times (see the example's header)."""
    n = len(points)
    if returns_type == "point_difference":
        return n
    leaders = sum(1 for x in points if x == max(points))
    return 1 if leaders == n else leaders * (n - leaders)


def play_both(game, spiel, rng: random.Random, returns_type: str) -> list:
    """One game in both engines; the list of what differed (empty when they agree throughout)."""
    n, cards = game.players, spiel.get_parameters()["num_cards"]
    order = rng.sample(range(1, cards + 1), cards)  # the prizes, in the order they are turned
    ours = game.new_initial_state(seed=rng.getrandbits(32), stack=[f"{RANKS[v - 1]} of clubs" for v in order],
                                  log=False)
    theirs = spiel.new_initial_state()
    values = [value(game, c) if c < 52 else 0 for c in range(game.deck.size)]
    bad = []
    for turn, prize in enumerate(order):
        if theirs.is_chance_node():  # (OpenSpiel plays the last turn's chance and bids by itself)
            left = sorted(a + 1 for a, _ in theirs.chance_outcomes())
            mine = sorted([values[c] for c in ours.zones[ours.game.program.zone_families["prizes"][0]]] + [prize])
            if left != mine:
                bad.append(("prizes left", turn, left, mine))
            theirs.apply_action(prize - 1)
        if theirs.is_terminal():
            break
        prize_zone = ours.game.program.zone_families["prize"][0]
        if [values[c] for c in ours.zones[prize_zone]] != [prize]:
            bad.append(("prize", turn, prize))
        if turn == cards - 1:
            break  # the last cards: no decision in either
        joint = []
        for q in range(n):
            if ours.is_terminal() or ours.current_player != q:
                bad.append(("chooser", turn, q, ours.current_player))
                return bad
            legal = {values[value_of(a)] - 1: a for a in ours.legal_action_ids()}
            if sorted(legal) != sorted(theirs.legal_actions(q)):
                bad.append(("bids", turn, q, sorted(legal), theirs.legal_actions(q)))
                return bad
            joint.append(rng.choice(sorted(legal)))
            ours.apply(legal[joint[-1]])
        theirs.apply_actions(joint)
    if not (ours.is_terminal() and theirs.is_terminal()):
        bad.append(("end", ours.is_terminal(), theirs.is_terminal()))
        return bad
    points = ours.var("points")
    expected = [r * scale(returns_type, points) for r in theirs.returns()]
    if [round(x, 9) for x in ours.returns()] != [round(x, 9) for x in expected]:
        bad.append(("returns", ours.returns(), expected, points))
    return bad


def mismatches(file, players: int, returns_type: str, games: int, seed: int, cards: int = 13) -> list:
    game = cardlang.load(file, players, {"returns": returns_type, "cards": cards})
    spiel = pyspiel.load_game("goofspiel", {"num_cards": cards, "players": players, "points_order": "random",
                                            "returns_type": returns_type})
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        out += play_both(game, spiel, rng, returns_type)
    return out


SETTINGS = [(2, "win_loss"), (2, "point_difference"), (3, "win_loss"), (3, "point_difference")]


@pytest.mark.parametrize("players,returns_type", SETTINGS)
def test_goofspiel_agrees_with_openspiel(players, returns_type):
    assert mismatches(FILE, players, returns_type, GAMES, seed=players) == []


@pytest.mark.parametrize("cards", [2, 3, 5])
def test_goofspiel_agrees_with_few_cards(cards):
    assert mismatches(FILE, 2, "win_loss", 300, seed=cards, cards=cards) == []


@pytest.mark.slow
@pytest.mark.parametrize("players,returns_type", SETTINGS)
def test_goofspiel_agrees_with_openspiel_many(players, returns_type):
    assert mismatches(FILE, players, returns_type, 10 * GAMES, seed=100 + players) == []


def test_the_check_catches_a_broken_rule(tmp_path):
    """A tie for the highest bid that gives the prize to the first of the tied, as OpenSpiel does not."""
    text = open(FILE).read()
    broken = text.replace("if count(top_bidders) == 1:", "if count(top_bidders) >= 1:")
    assert broken != text
    variant = tmp_path / "goofspiel_broken.cards"
    variant.write_text(broken)
    found = mismatches(str(variant), 2, "win_loss", 200, seed=7)
    assert found and all(kind == "returns" for kind, *_ in found)
