"""A chance source that plays back given outcomes, for adapters that enumerate chance (OpenSpiel).

Set as a state's chance (`Game.new_initial_state(chance=Script())`, or `state.rng = …`), it is
asked by `runtime/rng.py` for every shuffle and `random` draw of either engine. It gives the next
outcome it holds; when it has none left it raises `NeedChance`, which names the event (the cards
a shuffle orders, or how many items a draw picks among). The adapter then offers that event's
outcomes, and plays the step again from its start with one more outcome. A script is immutable:
clones of a state share it safely.
"""

from __future__ import annotations


class NeedChance(Exception):
    """The chance source holds no outcome for the next chance event: `kind` "shuffle" (`data`: the
    cards of the pile, in the order they lay) or "draw" (`data`: how many items to pick among)."""

    def __init__(self, kind: str, data):
        super().__init__(kind, data)
        self.kind = kind
        self.data = data


class Script:
    """The outcomes of successive chance events: for a shuffle, the pile's cards top first; for a
    draw, the index picked. `at` counts the events already played."""

    __slots__ = ("outcomes", "at")

    def __init__(self, outcomes: tuple = (), at: int = 0):
        self.outcomes = outcomes
        self.at = at

    def shuffle(self, pile: list) -> "Script":
        """Puts `pile` in the scripted order (the end of the list is the top); the next script."""
        if len(pile) <= 1:  # nothing to choose: no chance event
            return self
        if self.at >= len(self.outcomes):
            raise NeedChance("shuffle", tuple(pile))
        pile[:] = self.outcomes[self.at][::-1]
        return Script(self.outcomes, self.at + 1)

    def randbelow(self, n: int) -> tuple:
        """(the scripted index below `n`, the next script)."""
        if n <= 1:
            return 0, self
        if self.at >= len(self.outcomes):
            raise NeedChance("draw", n)
        return self.outcomes[self.at], Script(self.outcomes, self.at + 1)

    def __eq__(self, other) -> bool:
        return isinstance(other, Script) and (self.outcomes, self.at) == (other.outcomes, other.at)

    def __repr__(self) -> str:
        return f"Script({self.outcomes!r}, {self.at})"
