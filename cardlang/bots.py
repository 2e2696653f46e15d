"""Bots: they see only `State.observation(seat)`-level information and the legal actions."""

from __future__ import annotations

import random
from typing import Callable


class RandomBot:
    """Picks uniformly among the legal actions."""

    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, state) -> int:
        legal = state.legal_action_ids()
        return legal[self.rng.randrange(len(legal))]


BOTS: dict[str, Callable] = {"random": RandomBot}


def make_bot(name: str, seed: int = 0):
    """A bot by name (`random`); KeyError naming the known bots otherwise."""
    base = name.split(":", 1)[0]
    if base not in BOTS:
        raise KeyError(f"unknown bot `{name}` (bots: {', '.join(sorted(BOTS))})")
    return BOTS[base](seed=seed)
