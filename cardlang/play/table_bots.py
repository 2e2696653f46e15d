"""The bots at a table people play at: a fresh bot for every decision, seeded by the game and the move.

A bot's choice is then a function of the game's seed, the move number and what its seat sees, so a
game saved and resumed (`cardlang play --resume`) plays on exactly as the uninterrupted one would
have, at once, however long the bots thought before the break: no bot has to be replayed to get
back where it was. `cardlang play` and any other front end (a screen, a server) share this.
"""

from __future__ import annotations

from ..runtime.basics import RuleError
from .bots import decide, make_bot


def bot_seed(seed: int, move: int) -> int:
    """The seed of the bot that makes move number `move` (0-based) of a game dealt with `seed`."""
    return (seed * 1_000_003 + move * 7_919 + 17) & 0xFFFFFFFF


class Bots:
    """The bots of the seats no person plays: a fresh `name` bot for every decision, seeded by `bot_seed`."""

    def __init__(self, name: str, seed: int):
        make_bot(name, seed=0)  # KeyError naming the known bots, for an unknown name
        self.name = name
        self.seed = seed

    def choose(self, state):
        """The action the bot plays in `state`, decided from the current player's view."""
        try:
            return decide(make_bot(self.name, seed=bot_seed(self.seed, len(state.history))), state)
        except RuleError as e:  # met while the bot played the game ahead on copies of it
            raise e.in_game(state.seed, len(state.history), lookahead=True)
