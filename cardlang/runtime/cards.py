"""Cards and decks of the shared runtime: a card is a small int indexing the deck's tables.

A deck may hold several cards of one face (a shoe of six decks, two of each number): each is a card
of its own, with its own id, and its copy number (`card_copy`, from 1) tells it from the others.
Names tell copies apart only where a card must be named exactly: the short name of a second or later
copy carries its copy number (`7h#2`; the first is `7h`), as do the labels of choices; the log shows
the face (`7♥`).
"""

from __future__ import annotations

import re
from typing import Optional, Sequence

import attrs

from ..lang.vocabulary import JOKER, PRESETS, STANDARD_SUITS  # noqa: F401 (the language's words, used here)

SUIT_SYMBOLS = {"clubs": "♣", "diamonds": "♦", "hearts": "♥", "spades": "♠"}
RED_SUITS = frozenset({"diamonds", "hearts"})
COLOURS = {"clubs": "black", "diamonds": "red", "hearts": "red", "spades": "black"}  # `colour(x)`'s answers

_LITERAL = re.compile(r"^\s*(\S+)\s+of\s+(\S+)\s*$", re.I)  # `Q of spades`, as the rules write a card


@attrs.define(frozen=True)
class Deck:
    """The cards of one game: ids 0..n-1, each with a rank index and a suit index (-1: no suit).

    Card ids follow the deck's rank order and then suit (`rank_index * len(suits) + suit_index` for a
    deck of one copy of each card), so the standard deck's ids are the ones `cardlang.poker.card_id`
    gives. A face with copies has them one after the other; a shoe of N decks is N such decks in
    turn. Named suitless ranks come after the suited ones, then jokers (rank index `len(ranks)`).
    """

    name: str
    ranks: tuple  # suited ranks, then named suitless ranks
    suits: tuple
    card_rank: tuple  # card id -> rank index (into ranks; jokers use len(ranks))
    card_suit: tuple  # card id -> suit index, -1 for a suitless card
    shorts: tuple = ()  # suit index -> its one-letter short name (the suit's first letter by default)
    rank_labels: tuple = ()  # rank index -> how players read it (a named card's label), or None
    card_face: tuple = ()  # card id -> face index: cards of one rank and suit share it
    card_copy: tuple = ()  # card id -> its copy number among the cards of its face, from 1
    face_size: tuple = ()  # face index -> how many cards have it
    by_face: dict = attrs.field(factory=dict, eq=False, repr=False)  # (RANK, suit index) -> ids, for names

    @classmethod
    def build(cls, name: str, ranks: Sequence[str], suits: Sequence[str], jokers: int = 0, *,
              copies: Optional[Sequence[int]] = None, named: Sequence[tuple] = (), decks: int = 1,
              shorts: Optional[Sequence[str]] = None, rank_labels: Sequence = ()) -> "Deck":
        """A deck of `ranks` × `suits`, each rank `copies[r]` times (once by default), then the named
        suitless cards (`(rank, count, label)`), then jokers; all of it `decks` times (a shoe).
        `rank_labels`: per suited rank, how players read it (`Draw Two` for `DrawTwo`) or None."""
        nsuited = len(ranks)
        copies = tuple(copies) if copies is not None else (1,) * nsuited
        all_ranks = tuple(ranks) + tuple(r for r, _, _ in named)
        labels = (tuple(rank_labels) or (None,) * nsuited) + tuple(label for _, _, label in named)
        one: list = []  # (rank index, suit index) of one deck, in id order
        for r in range(nsuited):
            for s in range(len(suits)):
                one.extend([(r, s)] * copies[r])
        for i, (_, count, _) in enumerate(named):
            one.extend([(nsuited + i, -1)] * count)
        one.extend([(len(all_ranks), -1)] * jokers)
        cards = one * decks
        faces: dict = {}
        card_face, card_copy = [], []
        for key in cards:
            face = faces.setdefault(key, [len(faces), 0])
            face[1] += 1
            card_face.append(face[0])
            card_copy.append(face[1])
        face_size = [0] * len(faces)
        for index, count in faces.values():
            face_size[index] = count
        shorts = tuple(shorts) if shorts is not None else tuple(s[0] for s in suits)
        by_face: dict = {}
        for c, (r, s) in enumerate(cards):
            by_face.setdefault(((all_ranks[r] if r < len(all_ranks) else JOKER).upper(), s), []).append(c)
        return cls(name, all_ranks, tuple(suits), tuple(r for r, _ in cards), tuple(s for _, s in cards),
                   shorts, labels, tuple(card_face), tuple(card_copy), tuple(face_size),
                   {k: tuple(v) for k, v in by_face.items()})

    @classmethod
    def preset(cls, name: str, jokers: int = 0, **more) -> "Deck":
        """A named deck (`standard`, `piquet`), maybe with jokers, copies or `decks` (see `build`)."""
        ranks, suits = PRESETS[name]
        return cls.build(name, ranks, suits, jokers, **more)

    @property
    def size(self) -> int:
        return len(self.card_rank)

    def rank_name(self, card: int) -> str:
        r = self.card_rank[card]
        return self.ranks[r] if r < len(self.ranks) else JOKER

    def suit_name(self, card: int) -> Optional[str]:
        s = self.card_suit[card]
        return self.suits[s] if s >= 0 else None

    def suit_colours(self) -> dict:
        """Suit index -> "red" or "black", for the suits that have a colour (the French suits; a deck's
        other suits have none, as a suitless card has none: `colour(x)` is then none)."""
        return {i: COLOURS[name] for i, name in enumerate(self.suits) if name in COLOURS}

    def copies(self, card: int) -> int:
        """How many cards of the deck have this card's face (1 for a card without copies)."""
        return self.face_size[self.card_face[card]] if self.face_size else 1

    def _copy_tag(self, card: int) -> str:
        return f"#{self.card_copy[card]}" if self.card_copy and self.card_copy[card] > 1 else ""

    def face_name(self, card: int) -> str:
        """The short ASCII name of the card's face: `As`, `10h`, `Qc`; a suitless card's rank name."""
        s = self.card_suit[card]
        if s < 0:
            return self.rank_name(card)
        return self.rank_name(card) + (self.shorts[s] if self.shorts else self.suits[s][0])

    def name_of(self, card: int) -> str:
        """The short ASCII name, which tells copies apart: `As`, `10h`, `Joker`; `7h#2` for the second
        copy of a face the deck has several of (the first is `7h`)."""
        return self.face_name(card) + self._copy_tag(card)

    def label_of(self, card: int, ascii: bool = False, copy: bool = False) -> str:
        """The name players read: `A♠`, `10♥` (or the ASCII name), `Joker`, a named card's label, a
        rank of its own name in a suit as the rules write the card (`Reverser of red`, not the short
        name `Reverserr`); with `copy`, a second or later copy of a face also says which it is (`7♥#2`)."""
        tag = self._copy_tag(card) if copy else ""
        suit = self.suit_name(card)
        if suit is None:
            r = self.card_rank[card]
            label = self.rank_labels[r] if r < len(self.rank_labels) else None
            return (label or self.rank_name(card)) + tag
        rank = self.rank_name(card)
        r = self.card_rank[card]
        if r < len(self.rank_labels) and self.rank_labels[r]:  # as the deck line writes it: `Draw Two of red`
            return f"{self.rank_labels[r]} of {suit}{tag}"
        if len(rank) > 2 and rank[0].isalpha():  # a word: `Skip of blue` reads, `Skipb` does not
            return f"{rank} of {suit}{tag}"
        if ascii or suit not in SUIT_SYMBOLS:
            return self.face_name(card) + tag
        return self.rank_name(card) + SUIT_SYMBOLS[suit] + tag

    def card_ids(self, name: str) -> tuple:
        """The ids a name stands for: one card (`As`, `7h#2`), or every copy of a face named without
        its copy number (`7h`, `10♥`, `Th`, `Q of spades`, `Wild`); empty for a card not in the deck."""
        text = name.strip()
        copy = None
        m = re.fullmatch(r"(.+)#(\d{1,6})", text)
        if m:
            text, copy = m.group(1), int(m.group(2))
        found = self._face_ids(text)
        if copy is not None:
            found = tuple(c for c in found if self.card_copy[c] == copy) if self.card_copy else found[:1]
        return found

    def _face_ids(self, text: str) -> tuple:
        words = text.split()
        if len(words) > 3 and words[-2].lower() == "of":  # a rank as players read it: `Draw Two of red`
            said = " ".join(words[:-2]).lower()
            for r, label in enumerate(self.rank_labels):
                if label and label.lower() == said:
                    text = f"{self.ranks[r]} of {words[-1]}"
        literal = _LITERAL.match(text)
        if literal:  # `Q of spades`: a rank and a suit's full name
            rank, suit_name = literal.group(1), literal.group(2).lower()
            suits = [i for i, s in enumerate(self.suits) if s.lower() == suit_name]
            return self._matching(rank, suits[0]) if suits else ()
        named = self._matching(text, -1)
        if named:
            return named
        for sym_suit, sym in SUIT_SYMBOLS.items():
            if sym_suit in self.suits:
                text = text.replace(sym, self.shorts[self.suits.index(sym_suit)] if self.shorts else sym_suit[0])
        rank, short = text[:-1], text[-1:]
        if rank.upper() == "T":
            rank = "10"
        shorts = self.shorts or tuple(s[0] for s in self.suits)
        suits = ([i for i, s in enumerate(shorts) if s == short]
                 or [i for i, s in enumerate(shorts) if s.lower() == short.lower()])
        return self._matching(rank, suits[0]) if len(suits) == 1 else ()

    def _matching(self, rank: str, suit: int) -> tuple:
        return self.by_face.get((rank.upper(), suit), ())

    def card_id(self, name: str) -> int:
        """The id of a card named `As`, `10h`, `Th`, `A♠`, `Q of spades`, `7h#2` (a face with copies
        named without its number: its first copy); ValueError for a card not in this deck."""
        found = self.card_ids(name)
        if not found:
            raise ValueError(f"no card `{name}` in the {self.name} deck")
        return found[0]

    def pick(self, item, taken: set) -> int:
        """The card an item of a stacked deck names, not in `taken` (the cards listed before it): an
        id, or a name (a face named without its copy number: its first copy not listed yet).
        ValueError when the deck has no such card, or every card it names is listed already."""
        if isinstance(item, int) and not isinstance(item, bool):
            if not 0 <= item < self.size:
                raise ValueError(f"no card {item} in the {self.name} deck: ids are 0 to {self.size - 1}")
            if item in taken:
                raise ValueError(f"{self.name_of(item)} is there twice")
            return item
        found = self.card_ids(str(item))
        if not found:
            raise ValueError(f"no card `{item}` in the {self.name} deck")
        for c in found:
            if c not in taken:
                return c
        if len(found) == 1:
            raise ValueError(f"{self.name_of(found[0])} is there twice")
        raise ValueError(f"`{item}` is there {len(found) + 1} times, and the deck has {len(found)} of it")

    def stack_ids(self, names: Sequence) -> tuple:
        """The ids of one stacked shuffle's cards (see `pick`): ValueError naming the first bad item."""
        taken: set = set()
        out = []
        for j, item in enumerate(names):
            try:
                c = self.pick(item, taken)
            except ValueError as e:
                raise ValueError(f"{e} (card {j + 1})") from None
            taken.add(c)
            out.append(c)
        return tuple(out)
