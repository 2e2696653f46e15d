"""Ascenseur (docs/rules/ascenseur.md) written directly in Python, for the engine benchmark.

Every player picks uniformly among his legal choices. The code is what a good Python programmer
would write for this one game: plain lists, card ids `rank * 4 + suit` with the ace high, no
engine. It keeps no log and no knowledge tracking, as `log=False` playouts need neither.

    python benchmarks/reference/ascenseur.py [--players 4] [--seconds 3]
"""

from __future__ import annotations

import random

RANKS = 13
KING = 11  # rank index of the King: 2 3 4 5 6 7 8 9 10 J Q K A
DECK = tuple(range(52))  # card = rank * 4 + suit


def hand_size(deal: int) -> int:
    """Rule 1: 10, 9, …, 1 cards for deals 1–10, then 1, 2, …, 10 for deals 11–20."""
    return 11 - deal if deal <= 10 else deal - 10


def play_game(players: int, rng: random.Random) -> tuple[list, int, int]:
    """One game with random legal choices: (points per seat, decisions taken, deals played)."""
    choice = rng.choice
    points = [0] * players
    dealer = rng.randrange(players)  # rule 2
    deals_played = 0
    deals = 0
    decisions = 0
    while deals_played < 20:
        deals += 1
        size = hand_size(deals_played + 1)
        # rule 3: the whole deck, shuffled, dealt one at a time from the dealer's left
        stock = list(DECK)
        rng.shuffle(stock)
        order = [(dealer + 1 + i) % players for i in range(players)]
        hands = [[] for _ in range(players)]
        for _ in range(size):
            for p in order:
                hands[p].append(stock.pop())
        # rule 4: the next card is turned; a King means no trump
        turned = stock.pop()
        trump = -1 if turned >> 2 == KING else turned & 3
        # rule 5: bids from the dealer's left, the dealer last
        bids = [0] * players
        for p in order:
            bids[p] = rng.randrange(size + 1)
            decisions += 1
        # rules 6 and 7: tricks
        tricks = [0] * players
        leader = order[0]
        for _ in range(size):
            led = -1
            best_seat = leader
            best = -1
            for i in range(players):
                p = (leader + i) % players
                hand = hands[p]
                if led >= 0:
                    follow = [c for c in hand if c & 3 == led]
                    card = choice(follow) if follow else choice(hand)
                else:
                    card = choice(hand)
                hand.remove(card)
                decisions += 1
                suit = card & 3
                if led < 0:
                    led = suit
                strength = (100 + (card >> 2)) if suit == trump else (card >> 2) if suit == led else -1
                if strength > best:
                    best, best_seat = strength, p
            tricks[best_seat] += 1
            leader = best_seat
        # rule 8: an exact bid scores 10 + bid, an exact 0 scores 5 + hand size
        made = False
        for p in range(players):
            if tricks[p] == bids[p]:
                points[p] += 5 + size if bids[p] == 0 else 10 + bids[p]
                made = True
        # rule 9: nobody made his bid: the same deal again; else the dealer's left deals next
        if made:
            deals_played += 1
            dealer = (dealer + 1) % players
    return points, decisions, deals


def winners(points: list) -> list:
    """Rule 10: the highest total wins; equal totals share the win."""
    top = max(points)
    return [p for p, x in enumerate(points) if x == top]


if __name__ == "__main__":
    from timing import main

    main(play_game, __doc__.splitlines()[0], players=4)
