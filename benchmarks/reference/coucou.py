"""Coucou (docs/rules/coucou.md) written directly in Python, for the engine benchmark.

Every player picks uniformly among his legal choices. The code is what a good Python programmer
would write for this one game: plain lists, a card is its rank's value (A=1 … K=13; suits never
count, so they are not kept), no engine, no log.

    python benchmarks/reference/coucou.py [--players 7] [--seconds 3]
"""

from __future__ import annotations

import random

KING = 13
# Rule 1: 32 cards (A 7 8 9 10 J Q K) for 5 or 6 players, 52 for 7 or more; rule 2: A lowest.
PIQUET = tuple(v for v in (1, 7, 8, 9, 10, 11, 12, 13) for _ in range(4))
STANDARD = tuple(v for v in range(1, 14) for _ in range(4))


def play_game(players: int, rng: random.Random, tokens: int = 5) -> tuple[list, int, int]:
    """One game with random legal choices: (winning seats, decisions taken, deals played)."""
    deck = PIQUET if players <= 6 else STANDARD  # chosen once (rule 1)
    randrange = rng.randrange
    token = [tokens] * players
    active = list(range(players))  # active seats in seat order; "right" is the previous seat
    dealer = active[randrange(len(active))]  # rule 3
    decisions = 0
    deals = 0
    while len(active) > 1:
        deals += 1
        n = len(active)
        d = active.index(dealer)
        # the active players from the dealer's right, going right; the dealer's left is last
        order = [active[(d - i) % n] for i in range(1, n)]
        # rule 4: the whole deck, shuffled; one card to each other player from his right
        talon = list(deck)
        rng.shuffle(talon)
        card = {}
        for p in order:
            card[p] = talon.pop()
        # rule 5: the dealer keeps one of three cards, the other two go under the talon
        three = [talon.pop(), talon.pop(), talon.pop()]
        kept = three.pop(randrange(3))
        decisions += 1
        talon[:0] = three[::-1]
        card[dealer] = kept
        # rule 6: each in turn but the last keeps or changes with his right-hand neighbour,
        # who refuses with a King
        for i in range(n - 2):
            p = order[i]
            decisions += 1
            if randrange(2):
                neighbour = order[i + 1]
                if card[neighbour] != KING:
                    card[p], card[neighbour] = card[neighbour], card[p]
        # rule 8: the last player may change with the top of the talon, unless it is a King
        last = order[-1]
        decisions += 1
        if randrange(2) and talon[-1] != KING:
            card[last], talon[-1] = talon[-1], card[last]
        # rule 10: the lowest rank loses a token, unless all hold the same rank
        low = min(card.values())
        if low != max(card.values()):
            for p in active:
                if card[p] == low:
                    token[p] -= 1
            # rule 11: no tokens, eliminated; rule 3: the deal passes right
            out = [p for p in active if token[p] == 0]
            if out:
                survivors = [p for p in active if token[p] > 0]
                if len(survivors) <= 1:
                    active = survivors
                    break
                nxt = order[0]
                while token[nxt] == 0:
                    nxt = order[order.index(nxt) + 1]
                active = survivors
                dealer = nxt
                continue
        dealer = order[0]
    return active, decisions, deals


if __name__ == "__main__":
    from timing import main

    main(play_game, __doc__.splitlines()[0], players=7)
