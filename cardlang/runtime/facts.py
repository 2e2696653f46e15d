"""Knowledge finer than a whole card: what a seat was told of a card it does not see (its suit, its
rank, "not red", "not a 5"), kept by the engine per card and seat, and deals that respect it.

`state.facts` is None for a game with no `tell` statement (it costs nothing there), else a list by
card id of one int: for each seat a field of `Facts.width` bits (seat s at `s * width`), each bit a
face the card is known NOT to have: bits 0..R for its rank (R = the jokers' rank), then one bit for
each suit and one for "no suit". A card fits a seat's field `m` when `m & face[c] == 0` (`face[c]`
holds its rank's bit and its suit's bit). Facts follow the card as knowledge does (`state.known`):
where a card is dealt again in a view or a determinization, the facts of its place go with the card
now there, and the deal makes that card fit them (`deal`).

Every write goes through `_add` (and `forget`), which leave a quiet state as it stands
(`runtime.playout.quiet`): nothing a rule reads depends on facts.
"""

from __future__ import annotations

import random
from typing import Optional

from . import among
from .basics import RuleError
from .log import flush


class Facts:
    """A deck's tables for facts: each card's face bits, the masks of all ranks and of all suits."""

    __slots__ = ("width", "players", "face", "rank_bit", "suit_bit", "ranks", "suits", "deck", "field")

    def __init__(self, deck, players: int):
        nranks = len(deck.ranks) + 1  # (jokers: rank index len(ranks))
        nsuits = len(deck.suits) + 1  # (the last: no suit)
        self.deck = deck
        self.players = players
        self.width = nranks + nsuits
        self.field = (1 << self.width) - 1
        self.rank_bit = tuple(1 << r for r in deck.card_rank)
        self.suit_bit = tuple(1 << (nranks + (u if u >= 0 else nsuits - 1)) for u in deck.card_suit)
        self.face = tuple(r | u for r, u in zip(self.rank_bit, self.suit_bit))
        self.ranks = (1 << nranks) - 1
        self.suits = ((1 << nsuits) - 1) << nranks

    def of(self, s, card: int, seat: int) -> int:
        """The seat's field of a card: the faces it knows the card has not."""
        return s.facts[card] >> (seat * self.width) & self.field

    def fits(self, card: int, field: int) -> bool:
        """Whether a card fits a seat's field of facts."""
        return not field & self.face[card]

    def possible(self, field: int) -> tuple:
        """(rank names, suit names) of the deck's that a card with this field may still have (`none`:
        no suit)."""
        deck = self.deck
        names = tuple(deck.ranks) + ("Joker",)
        ranks = [names[r] for r in sorted(set(deck.card_rank)) if not field >> r & 1]
        base = len(deck.ranks) + 1
        suits = [deck.suits[u] if u >= 0 else "none" for u in sorted(set(deck.card_suit), key=lambda u: (u < 0, u))
                 if not field >> (base + (u if u >= 0 else len(deck.suits))) & 1]
        return ranks, suits

    def describe(self, field: int) -> str:
        """What a seat was told of a card, in short: `hearts`, `5`, `not red`, `not 5, not 1`."""
        ranks, suits = self.possible(field)
        all_ranks, all_suits = self.possible(0)
        parts = []
        for have, every in ((suits, all_suits), (ranks, all_ranks)):
            if len(have) == 1:
                parts.append(have[0])
            elif len(have) < len(every):
                parts.append(" ".join("not " + x for x in every if x not in have))
        return ", ".join(parts) if parts else "nothing"

    def observed(self, s, seat: int, cards) -> list:
        """What the seat was told of each of `cards` it does not know, for its observation: None where
        nothing, else {"ranks": [...], "suits": [...], "text": …} (the faces the card may still have)."""
        out = []
        known, shift, field = s.known, seat * self.width, self.field
        for c in cards:
            m = 0 if known[c] >> seat & 1 else s.facts[c] >> shift & field
            if not m:
                out.append(None)
                continue
            ranks, suits = self.possible(m)
            out.append({"ranks": ranks, "suits": suits, "text": self.describe(m)})
        return out


# ------------------------------------------------------------------ the writes (both engines call these)
def _add(s, seats, card: int, bits: int, width: int) -> None:
    """Each seat of `seats` learns that `card` has none of the faces of `bits`; nothing in a quiet state."""
    if s.quiet or not bits:
        return
    f = s.facts
    for p in seats:
        f[card] |= bits << (p * width)


def tell_face(s, table: Facts, seats, card, kind: str, at=None) -> None:
    """`tell p the suit of c` / `tell p the rank of c`: every other suit (rank) is ruled out."""
    if card is None:
        raise RuleError(f"`tell … the {kind} of …` names no card (none)", at)
    if kind == "suit":
        bits = table.suits & ~table.suit_bit[card]
    else:
        bits = table.ranks & ~table.rank_bit[card]
    _add(s, seats, card, bits, table.width)


def tell_which(s, table: Facts, seats, cards, kind: str, value, at=None) -> None:
    """`tell p which cards of z are v`: each card of v is known to be v, every other one not to be."""
    if value is None:
        raise RuleError(f"`tell … which cards … are …` names no {kind} (none)", at)
    if s.quiet:  # (what `_add` would skip card by card)
        return
    deck = table.deck
    of = deck.card_suit if kind == "suit" else deck.card_rank
    for c in cards:
        if of[c] == value:
            bits = (table.suits & ~table.suit_bit[c]) if kind == "suit" else (table.ranks & ~table.rank_bit[c])
        else:  # not this one: its bit (a suit index is a suit's bit; a rank index a rank's)
            bits = (1 << (len(deck.ranks) + 1 + value)) if kind == "suit" else (1 << value)
        _add(s, seats, c, bits, table.width)


def clear(s, cards) -> None:
    """Everyone forgets what was told of these cards (they were shuffled, hidden, their order lost)."""
    f = s.facts
    if f is None or s.quiet:
        return
    for c in cards:
        f[c] = 0


def forget_order(s, z: int, vis) -> None:
    """`forget order of z`: the cards stay where they are, but only those who see the zone know which
    is which (as after a shuffle) and nobody keeps a fact about one of them."""
    if s.quiet:
        return
    if s.fresh and s.log is not None:
        flush(s)  # a card shown before its order is lost stays shown in the log (as before a `hide`)
    pile = s.zones[z]
    mask = vis[z]
    among.forget(s, pile, mask)
    known = s.known
    for c in pile:
        known[c] = mask
    clear(s, pile)


# ------------------------------------------------------------------ views and deals that respect facts
def seen_by(s, placed, unknown, seat: int) -> list:
    """The facts of a view's canonical copy (`runtime.view._canonical`), where the cards `placed` (in
    the order of their places) become `unknown` (in id order): what belongs to a place goes with the
    card now there, and of a card the seat does not know only what the seat itself was told stays
    (what others were told of it would tell of the card)."""
    table = s.game.program.facts
    shift, field, f = seat * table.width, table.field, s.facts
    out = f[:]
    for c, d in zip(placed, unknown):
        out[d] = (f[c] >> shift & field) << shift
    return out


def seat_fields(s, table: Facts, cards, seat: int) -> list:
    """The seat's field of each card of `cards`, in order."""
    shift, field, f = seat * table.width, table.field, s.facts
    return [f[c] >> shift & field for c in cards]


def deal(fields: list, cards: list, table: Facts, rng: random.Random) -> Optional[list]:
    """The cards dealt to places whose facts are `fields` (one per place), each fitting its place, or
    None if no deal fits. Any deal that fits can come out: the places with facts take their cards in
    a random order, each a random card among those that fit and leave the rest of those places a
    fitting card (a matching), then the other places take the rest, shuffled."""
    face = table.face
    told = [i for i, m in enumerate(fields) if m]
    rng.shuffle(told)
    left = list(cards)
    out: list = [None] * len(fields)
    for k, i in enumerate(told):
        m = fields[i]
        fits = [c for c in left if not m & face[c]]
        rest = [fields[j] for j in told[k + 1:]]
        while fits:  # a random one of them, then another, without repeats
            j = int(rng.random() * len(fits))
            fits[j], fits[-1] = fits[-1], fits[j]
            c = fits.pop()
            if not rest or _matches(rest, left, face, c):
                out[i] = c
                left.remove(c)
                break
        else:
            return None
    rng.shuffle(left)
    nxt = iter(left).__next__
    for i in range(len(fields)):
        if out[i] is None:
            out[i] = nxt()
    return out


def _matches(fields: list, cards: list, face, taken: int) -> bool:
    """Whether each field can take a distinct card of `cards` but `taken` that fits it (Kuhn's
    augmenting paths)."""
    owner: dict = {taken: -1}  # card -> the field holding it (`taken` is held already)

    def place(i: int, seen: set) -> bool:
        for c in cards:
            if c in seen or fields[i] & face[c]:
                continue
            seen.add(c)
            h = owner.get(c)
            if h is None or (h >= 0 and place(h, seen)):
                owner[c] = i
                return True
        return False

    return all(place(i, {taken}) for i in range(len(fields)))


def told_in_place(s, seat: int) -> tuple:
    """(zone, the seat's field) for each card the seat does not know, in place order (`view.Table.told`)."""
    table = s.game.program.facts
    shift, field, f, bit, known = seat * table.width, table.field, s.facts, 1 << seat, s.known
    return tuple((z, f[c] >> shift & field) for z, pile in enumerate(s.zones) for c in pile if not known[c] & bit)


def fits_view(w, c, seat: int) -> bool:
    """Whether a replayed world `w` keeps what the seat was told, as the view's copy `c` holds it: place
    by place, the same facts for the seat, and each card the seat does not know fitting them."""
    table = w.game.program.facts
    shift, field, face, bit = seat * table.width, table.field, table.face, 1 << seat
    wf, cf, ck = w.facts, c.facts, c.known
    for wz, cz in zip(w.zones, c.zones):
        for a, b in zip(wz, cz):
            m = cf[b] >> shift & field
            if wf[a] >> shift & field != m or (not ck[b] & bit and m & face[a]):
                return False
    return True
