"""examples/klondike.cards against OpenSpiel's `solitaire` (Klondike as open_spiel/games/solitaire
plays it), on the same deals: the same legal actions at every decision, the same end (OpenSpiel's
depth limit counts its chance steps too) and the same return. Zero mismatches, and a rule broken
on purpose is caught.

How the two are aligned:
- deals: OpenSpiel turns its hidden cards up by chance (the seven column tops, then the 24 waste
  cards from the first, then each card a move uncovers); each of its chance steps is given the
  card our game turned up at the same place (our deck is shuffled and dealt face down);
- actions: an OpenSpiel move is (target, source): the card moved and the card (or the empty
  foundation of a suit, or an empty column) it goes onto; ours is the card with the pile it goes
  to, mapped to OpenSpiel's id by `Move::ActionId` (ported below);
- OpenSpiel keeps a set of positions seen since the last irreversible move and forbids a
  reversible move back to one of them, but never uses it: `DoApplyAction` asks whether the
  move's source is reversible with a card rebuilt from the action id, whose location is always
  "missing", so the answer is always no and the set is cleared after every move. Our game has no
  such rule, and the comparison needs none: every decision is compared whole.
"""

from __future__ import annotations

import random
import re

import pytest

import cardlang
from scenario import path

pyspiel = pytest.importorskip("pyspiel")

SUITS = "shcd"  # OpenSpiel's suits, 1 to 4: spades, hearts, clubs, diamonds
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
LABEL = re.compile(r"to (foundation|column)\((\d)\)$")
DEALS = 40  # in CI (about 20 s); `-m slow` plays more


def card(name: str) -> tuple:
    """(rank 1-13, suit 1-4) of one of our cards' short names (`10d`)."""
    return RANKS.index(name[:-1]) + 1, SUITS.index(name[-1]) + 1


def chance_id(name: str) -> int:
    """OpenSpiel's chance outcome that turns this card up."""
    rank, suit = card(name)
    return (suit - 1) * 13 + rank


def action_id(target: tuple, source: tuple) -> int:
    """`Move::ActionId` of solitaire.cc: target and source as (rank, suit), rank 0 for an empty
    pile (suit 0 for an empty column)."""
    (tr, ts), (sr, ss) = target, source
    if tr == 0:
        return (132 if sr == 1 else 136) + ss + 52
    if tr == 1:
        return 140 + ss + 52
    if tr == 13:
        return 144 + 2 * ts + (-1 if ss <= 2 else 0) + 52
    base = (ts - 1) * 33 + (tr - 2) * 3
    return base + (1 if ts == ss else 2 if ss <= 2 else 3) + 52


def our_moves(st) -> dict:
    """Our legal actions by OpenSpiel's ids."""
    out = {}
    for a in st.legal_actions():
        if a.label == "end":
            out[0] = a
            continue
        family, k = LABEL.search(a.label).groups()
        source = card(st.game.deck.name_of(int(a) & 0xFFFF))
        pile = st.zone(family, int(k))
        target = card(pile[-1]) if pile else (0, int(k) if family == "foundation" else 0)
        out[action_id(target, source)] = a
    return out


def face_up(st) -> set:
    """The cards our seat knows (every card turned up, wherever it went)."""
    return {c for c in range(52) if st.knows(0, c)}


def play(game, seed: int, depth_limit: int = 150) -> list:
    """One deal played on both, random moves among the legal ones; the mismatches found."""
    st = game.new_initial_state(seed=seed)
    os = pyspiel.load_game("solitaire", {"depth_limit": depth_limit}).new_initial_state()
    # the deal: OpenSpiel turns up the column tops 1 to 7, then the waste from its first card
    order = [st.zone("column", k)[-1] for k in range(1, 8)] + st.zone("waste")
    known = face_up(st)
    rng = random.Random(seed)
    while True:
        while os.is_chance_node():
            if not order:
                return [f"seed {seed}: OpenSpiel turns a card up where ours turned none"]
            os.apply_action(chance_id(order.pop(0)))
        if order:
            return [f"seed {seed}: ours turned {order} up, OpenSpiel did not"]
        if os.is_terminal() or st.is_terminal():
            if os.is_terminal() != st.is_terminal():
                return [f"seed {seed}: ended {'in OpenSpiel only' if os.is_terminal() else 'in ours only'}"]
            if os.returns()[0] != st.returns()[0] or len(os.history()) != st.var("depth"):
                return [f"seed {seed}: returns {os.returns()} against {st.returns()}, "
                        f"{len(os.history())} steps against {st.var('depth')}"]
            return []
        mine = our_moves(st)
        theirs = sorted(os.legal_actions())
        if sorted(mine) != theirs:
            extra = [mine[a].label for a in sorted(set(mine) - set(theirs))]
            missing = [os.action_to_string(a) for a in theirs if a not in mine]
            return [f"seed {seed}, step {len(os.history())}: ours only {extra}, OpenSpiel only {missing}"]
        a = rng.choice(theirs)
        os.apply_action(a)
        st.apply(mine[a])
        turned = face_up(st) - known
        known |= turned
        order = [st.game.deck.name_of(c) for c in turned]


@pytest.fixture(scope="module")
def game():
    return cardlang.load(path("examples/klondike.cards"), 1)


def test_klondike_agrees_with_openspiel(game):
    wrong = [m for seed in range(DEALS) for m in play(game, seed)]
    assert wrong == []


@pytest.mark.slow
def test_klondike_agrees_with_openspiel_on_many_deals(game):
    wrong = [m for seed in range(DEALS, DEALS + 400) for m in play(game, seed)]
    assert wrong == []


def test_a_longer_game_agrees_too():
    # a depth limit of 400: more of the game (most deals end before, with "end" or its limit)
    game = cardlang.load(path("examples/klondike.cards"), 1, options={"depth_limit": 400})
    wrong = [m for seed in range(5) for m in play(game, 1000 + seed, depth_limit=400)]
    assert wrong == []


@pytest.mark.parametrize("old, new", [
    ("(position of c in waste - 1) % 3 == 0", "(position of c in waste - 1) % 2 == 0"),  # every other card
    ("and (in_waste(c) or position of c in column(column_of(c)) > 1)", ""),  # a bottom king moves
])
def test_the_check_catches_a_broken_rule(tmp_path, old, new):
    text = open(path("examples/klondike.cards"), encoding="utf-8").read()
    assert old in text
    broken = tmp_path / "klondike.cards"
    broken.write_text(text.replace(old, new), encoding="utf-8")
    game = cardlang.load(str(broken), 1)
    assert sum(1 for seed in range(DEALS) if play(game, seed)) > 0
