"""Cards and decks of the shared runtime: a card is a small int indexing the deck's tables."""

from __future__ import annotations

from typing import Optional, Sequence

import attrs

STANDARD_SUITS = ("clubs", "diamonds", "hearts", "spades")
SUIT_SYMBOLS = {"clubs": "♣", "diamonds": "♦", "hearts": "♥", "spades": "♠"}
RED_SUITS = frozenset({"diamonds", "hearts"})

# Presets list ranks from low to high as poker players order them; a game declares its own orders.
PRESETS = {
    "standard": ("2 3 4 5 6 7 8 9 10 J Q K A".split(), STANDARD_SUITS),
    "piquet": ("7 8 9 10 J Q K A".split(), STANDARD_SUITS),
}
JOKER = "Joker"


@attrs.define(frozen=True)
class Deck:
    """The cards of one game: ids 0..n-1, each with a rank index and a suit index (-1 for jokers).

    Card ids follow the preset's rank order and then suit (`rank_index * len(suits) + suit_index`),
    so the standard deck's ids are the ones `cardlang.poker.card_id` gives.
    """

    name: str
    ranks: tuple
    suits: tuple
    card_rank: tuple  # card id -> rank index (into ranks; jokers use len(ranks))
    card_suit: tuple  # card id -> suit index, -1 for a joker

    @classmethod
    def build(cls, name: str, ranks: Sequence[str], suits: Sequence[str], jokers: int = 0) -> "Deck":
        card_rank, card_suit = [], []
        for r in range(len(ranks)):
            for s in range(len(suits)):
                card_rank.append(r)
                card_suit.append(s)
        for _ in range(jokers):
            card_rank.append(len(ranks))
            card_suit.append(-1)
        return cls(name, tuple(ranks), tuple(suits), tuple(card_rank), tuple(card_suit))

    @classmethod
    def preset(cls, name: str, jokers: int = 0) -> "Deck":
        ranks, suits = PRESETS[name]
        return cls.build(name, ranks, suits, jokers)

    @property
    def size(self) -> int:
        return len(self.card_rank)

    def rank_name(self, card: int) -> str:
        r = self.card_rank[card]
        return self.ranks[r] if r < len(self.ranks) else JOKER

    def suit_name(self, card: int) -> Optional[str]:
        s = self.card_suit[card]
        return self.suits[s] if s >= 0 else None

    def name_of(self, card: int) -> str:
        """The short ASCII name: `As`, `10h`, `Qc`; `Joker` for a joker."""
        suit = self.suit_name(card)
        if suit is None:
            return JOKER
        return self.rank_name(card) + suit[0]

    def label_of(self, card: int, ascii: bool = False) -> str:
        """The name players read: `A♠`, `10♥` (or the ASCII name)."""
        suit = self.suit_name(card)
        if suit is None:
            return JOKER
        if ascii or suit not in SUIT_SYMBOLS:
            return self.name_of(card)
        return self.rank_name(card) + SUIT_SYMBOLS[suit]

    def card_id(self, name: str) -> int:
        """The id of a card named `As`, `10h`, `Th`, `A♠`; ValueError for a card not in this deck."""
        text = name.strip()
        for sym_suit, sym in SUIT_SYMBOLS.items():
            text = text.replace(sym, sym_suit[0])
        rank, suit = text[:-1], text[-1:].lower()
        if rank.upper() == "T":
            rank = "10"
        for card in range(self.size):
            if self.card_suit[card] >= 0 and self.rank_name(card).upper() == rank.upper() and self.suits[self.card_suit[card]][0] == suit:
                return card
        raise ValueError(f"no card `{name}` in the {self.name} deck")
