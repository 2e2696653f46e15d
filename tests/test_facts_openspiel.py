"""examples/hints.cards against OpenSpiel's `hanabi` (the Hanabi Learning Environment), two players,
its default parameters (5 colours, 5 ranks, hands of 5, 8 clues, 3 fuses, player 0 first), on the
same deals: OpenSpiel's chance nodes are given the cards our engine dealt. At every decision: the
same player, the same set of legal moves, and for every card in every hand the same knowledge of
its holder (the colours and ranks it may still have, which OpenSpiel prints as `XX|RYGWB12345` and
our engine keeps as facts); at the end, the same score. Zero mismatches over thousands of deals,
and a rule broken on purpose is caught.
"""

from __future__ import annotations

import random
import re

import pytest

import cardlang
from cardlang.runtime.actions import alt_of, value_of
from scenario import path

pyspiel = pytest.importorskip("pyspiel")

GAME = "examples/hints.cards"
DEALS = 2000
COLOURS = "RYGWB"  # OpenSpiel's colours, in the order examples/hints.cards declares its suits
CARD_LINE = re.compile(r"^([RYGWB][1-5]) \|\| ([RYGWBX][1-5X])\|([RYGWB]*)([1-5]*)$")


def moves_of(game, state) -> set:
    """Our legal actions as OpenSpiel writes its moves (`(Play 0)`, `(Reveal player +1 color R)`)."""
    p = state.current_player
    hand = state.zones[game.program.zone_families["hand"][0] + p]
    out = set()
    for a in state.legal_action_ids():
        alt, value = alt_of(a), value_of(a)
        if alt <= 1:
            out.add(f"({('Discard', 'Play')[alt]} {hand.index(value)})")
        else:
            offset = (value - p) % game.players
            what = f"color {COLOURS[alt - 2]}" if alt < 7 else f"rank {alt - 6}"
            out.add(f"(Reveal player +{offset} {what})")
    return out


def action_of(game, state, move: str) -> int:
    """Our action for one of OpenSpiel's moves (the first of ours that maps to it)."""
    for a in state.legal_action_ids():
        probe = state.clone()
        probe.pending = probe.pending._replace(legal=(a,))
        if moves_of(game, probe) == {move}:
            return a
    raise AssertionError(move)


def knowledge_of(game, state) -> list:
    """Each hand, card by card: (card, colours it may have, ranks it may have) as its holder knows it."""
    table = game.program.facts
    base = game.program.zone_families["hand"][0]
    deck = game.deck
    out = []
    for p in range(game.players):
        hand = []
        for c in state.zones[base + p]:
            ranks, suits = table.possible(table.of(state, c, p))
            name = COLOURS[deck.card_suit[c]] + deck.ranks[deck.card_rank[c]]
            hand.append((name, "".join(s[0].upper() for s in suits if s != "none"), "".join(ranks)))
        out.append(hand)
    return out


def spiel_knowledge(spiel) -> list:
    """The same, read from OpenSpiel's state text."""
    hands, hand = [], None
    for line in str(spiel).splitlines():
        if line == "Hands:":
            hand = []
            continue
        if hand is None:
            continue
        if line == "-----" or line.startswith("Deck size"):
            hands.append(hand)
            hand = [] if line == "-----" else None
            continue
        m = CARD_LINE.match(line)
        if m:
            hand.append((m[1], m[3], m[4]))
    return hands


def outcome(game, card: int) -> int:
    """OpenSpiel's chance outcome for dealing our card: colour * 5 + rank."""
    return game.deck.card_suit[card] * 5 + game.deck.card_rank[card]


def deal_spiel(game, state, spiel, dealt: list) -> None:
    """Feeds OpenSpiel's chance nodes the cards `dealt` (ours), in turn (none once it is over: it
    deals no card after the last move, where our rules draw one before they end the game)."""
    if spiel.is_terminal():
        return
    for c in dealt:
        assert spiel.is_chance_node()
        spiel.apply_action(outcome(game, c))
    assert not spiel.is_chance_node()


def policy(game, state, rng: random.Random) -> int:
    """Mostly a sensible move (a card that fits played, a hint or a discard), now and then any: games
    then reach the end of the deck, fives played and clues won back, not only three burnt fuses."""
    legal = state.legal_action_ids()
    if rng.random() < 0.08:
        return legal[rng.randrange(len(legal))]
    fire = [game.deck.card_suit[c] * 5 + game.deck.card_rank[c] for c in state.zones[game.program.zone_families["fireworks"][0]]]
    height = [sum(1 for f in fire if f // 5 == s) for s in range(5)]
    plays = [a for a in legal if alt_of(a) == 1 and game.deck.card_rank[value_of(a)] == height[game.deck.card_suit[value_of(a)]]]
    sensible = plays + [a for a in legal if alt_of(a) != 1]
    return sensible[rng.randrange(len(sensible))] if sensible else legal[rng.randrange(len(legal))]


def mismatches(game, deals: int, seed: int) -> list:
    """Plays `deals` games on both, returns what differs (deal, step, what)."""
    hand_base = game.program.zone_families["hand"][0]
    found = []
    for deal in range(deals):
        rng = random.Random(seed * 100_003 + deal)
        state = game.new_initial_state(seed=seed * 100_003 + deal, log=False)
        spiel = pyspiel.load_game("hanabi", {"players": 2}).new_initial_state()
        deal_spiel(game, state, spiel, [c for p in range(2) for c in state.zones[hand_base + p]])
        step = 0
        while True:
            if state.is_terminal() or spiel.is_terminal():
                if state.is_terminal() != spiel.is_terminal():
                    found.append((deal, step, "end", state.is_terminal(), spiel.is_terminal()))
                elif state.returns()[0] != spiel.returns()[0]:
                    found.append((deal, step, "score", state.returns(), spiel.returns()))
                break
            ours = moves_of(game, state)
            theirs = {spiel.action_to_string(a) for a in spiel.legal_actions()}
            if state.current_player != spiel.current_player() or ours != theirs:
                found.append((deal, step, "moves", sorted(ours ^ theirs)))
                break
            if knowledge_of(game, state) != spiel_knowledge(spiel):
                found.append((deal, step, "knowledge", knowledge_of(game, state), spiel_knowledge(spiel)))
                break
            a = policy(game, state, rng)
            move = next(iter(moves_of(game, _only(state, a))))
            p = state.current_player
            before = len(state.zones[game.program.zone_families["deck"][0]])
            state.apply(a)
            spiel.apply_action(next(x for x in spiel.legal_actions() if spiel.action_to_string(x) == move))
            after = len(state.zones[game.program.zone_families["deck"][0]])
            deal_spiel(game, state, spiel, [state.zones[hand_base + p][-1]] if after < before else [])
            step += 1
    return found


def _only(state, a):
    probe = state.clone()
    probe.pending = probe.pending._replace(legal=(a,))
    return probe


@pytest.fixture(scope="module")
def game():
    return cardlang.load(path(GAME), 2)


def test_hints_agrees_with_openspiel_hanabi(game):
    assert mismatches(game, DEALS, seed=1) == []


def test_the_games_reach_every_ending(game):
    """The deals above end each way: three fuses, the deck out (a turn each after it)."""
    endings = set()
    for deal in range(200):
        rng = random.Random(100_003 + deal)
        state = game.new_initial_state(seed=100_003 + deal, log=False)
        while not state.is_terminal():
            state.apply(policy(game, state, rng))
        endings.add("fuses" if state.var("fuses") == 0 else "deck" if not state.zone("deck") else "fireworks")
    assert {"fuses", "deck"} <= endings


def test_the_check_catches_a_broken_rule(tmp_path):
    """Discarding with every clue in hand (which Hanabi forbids) makes the move sets differ."""
    text = open(path(GAME), encoding="utf-8").read()
    broken = text.replace('where clues < 8 as "discard {c}"', 'as "discard {c}"')
    assert broken != text
    f = tmp_path / "broken.cards"
    f.write_text(broken, encoding="utf-8")
    found = mismatches(cardlang.load(str(f), 2), 50, seed=2)
    assert found and found[0][2] == "moves"


def test_the_check_catches_a_broken_fact(tmp_path):
    """A hint that tells the colour but not which cards lack it (no negative facts) is caught."""
    text = open(path(GAME), encoding="utf-8").read()
    broken = text.replace("tell q which cards of hand(q) are red",
                          "for each c in hand(q) where suit(c) == red:\n                tell q the suit of c")
    assert broken != text
    f = tmp_path / "broken.cards"
    f.write_text(broken, encoding="utf-8")
    found = mismatches(cardlang.load(str(f), 2), 100, seed=3)
    assert found and found[0][2] == "knowledge"
