"""Combinations that beat combinations (climbing games): the kinds a `combinations` declaration
names and how one play beats another (docs/language.md, "Combinations that beat combinations").

A :class:`ClimbRule` is built once per game from `combinations by ORDER: single, pair, triple,
four, run N, bomb N`. ``kind(cards)`` says which declared kind a set of cards is (or None):

- `single`, `pair`, `triple`, `four`: 1, 2, 3, 4 cards of one rank;
- `run N`: N or more cards of ranks next to each other in the order, one card of each rank, any
  suits (3♣ 4♦ 5♥ in an order 3 4 5 …);
- `bomb N`: N or more cards of one rank (4 when N is left out).

A rank the order leaves out (a joker, a named card) is in no combination. ``beats(cs, ys)`` is
whether `cs` may be laid on `ys`: a combination beats nothing laid (an empty `ys`, a lead); a bomb
beats anything that is not a bomb, and a bomb of more cards, or as many of a higher rank; any other
combination beats one of its kind and size whose highest rank is lower.
"""

from __future__ import annotations

__all__ = ["ClimbRule", "ONE_RANK", "KINDS"]

#: the kinds of one rank and their sizes
ONE_RANK = {"single": 1, "pair": 2, "triple": 3, "four": 4}
#: every kind a declaration may name
KINDS = tuple(ONE_RANK) + ("run", "bomb")
_COUNTS = {2: "pair of", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}


class ClimbRule:
    """The declared kinds over one deck and one rank order (see the module's docstring)."""

    def __init__(self, height, card_rank, rank_name, kinds: dict):
        """`height[c]`: the 1-based place of card c's rank in the order (0: not in it); `rank_name(c)`
        the name of card c's rank; `kinds`: name -> its number (run: the fewest cards; bomb: the
        fewest cards of one rank; the kinds of one rank: their size)."""
        self.height, self.card_rank, self.rank_name = height, card_rank, rank_name
        self.sizes = {n: k for k, n in kinds.items() if k in ONE_RANK}  # size -> kind of one rank
        self.run_min = kinds.get("run")
        self.bomb_min = kinds.get("bomb")

    def of(self, cards) -> tuple | None:
        """(kind, size, height of the highest rank) of a set of cards, or None if it is no combination."""
        n = len(cards)
        if n == 0:
            return None
        height = self.height
        hs = [height[c] for c in cards]
        if 0 in hs:
            return None
        top = max(hs)
        if min(hs) == top:  # one rank
            if self.bomb_min is not None and n >= self.bomb_min:
                return ("bomb", n, top)
            kind = self.sizes.get(n)
            return None if kind is None else (kind, n, top)
        if self.run_min is not None and n >= self.run_min and top - min(hs) == n - 1 and len(set(hs)) == n:
            return ("run", n, top)
        return None

    def kind(self, cards):
        """The kind's name (`pair`, `run`, `bomb`, …) of a set of cards, none when it is no combination."""
        k = self.of(cards)
        return None if k is None else k[0]

    def beats(self, cards, laid) -> bool:
        """Whether `cards` may be laid on `laid` (see the module's docstring)."""
        k = self.of(cards)
        if k is None:
            return False
        if not laid:
            return True
        j = self.of(laid)
        if j is None:
            return False
        if k[0] == "bomb" or j[0] == "bomb":
            return k[0] == "bomb" and (j[0] != "bomb" or (k[1], k[2]) > (j[1], j[2]))
        return k[0] == j[0] and k[1] == j[1] and k[2] > j[2]

    def words(self, cards) -> str | None:
        """What a person calls a set (`pair of 7s`, `run 3-7`, `bomb of 9s`), None for a single card or
        a set that is no combination."""
        k = self.of(cards)
        if k is None or k[1] == 1:
            return None
        if k[0] == "run":
            low = min(cards, key=self.height.__getitem__)
            high = max(cards, key=self.height.__getitem__)
            return f"run {self.rank_name(low)}-{self.rank_name(high)}"
        if k[0] == "bomb":
            return f"bomb of {self.rank_name(cards[0])}s"
        return f"{_COUNTS.get(k[1], str(k[1]))} {self.rank_name(cards[0])}s"
