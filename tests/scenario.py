"""Helpers that let a scenario test read like a rulebook example: stack the deck, play, assert."""

from __future__ import annotations

import os
import random
from functools import lru_cache
from typing import Optional

import cardlang

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The two engines every semantics test runs on: the reference interpreter (the definition) and the
# compiled one (`cardlang.load(..., engine=...)`); tests/conftest.py's `engine` fixture runs over them.
ENGINES = ("reference", "compiled")


def path(relative: str) -> str:
    return os.path.join(ROOT, relative)


@lru_cache(maxsize=None)
def _game(relative: str, players: int, options: tuple):
    return cardlang.load(path(relative), players=players, options=dict(options))


def game(relative: str, players: int, **options):
    """The compiled game (cached per file, player count and options)."""
    return _game(relative, players, tuple(sorted(options.items())))


def start(relative: str, players: int, stack=None, draws=None, seed: int = 0, **options):
    """A new state of a game with a stacked deck (top first) and fixed random draws."""
    return game(relative, players, **options).new_initial_state(seed=seed, stack=stack, draws=draws)


def play(state, *moves) -> None:
    """Applies moves in order: each an action label ("keep") or a card name ("Ks")."""
    for move in moves:
        state.apply(move)


def labels(state) -> list:
    return [a.label for a in state.legal_actions()]


def random_playout(state, rng, limit: int = 100_000):
    """Plays random legal actions to the end; returns the number of decisions."""
    n = 0
    while not state.is_terminal():
        legal = state.legal_action_ids()
        state.apply(legal[rng.randrange(len(legal))])
        n += 1
        assert n < limit, "the game did not end"
    return n


def random_course(g, seed: int, low: int, high: int):
    """The state of `g` from `seed` after a seeded random course (`random.Random(seed)`): a count of
    decisions drawn in [low, high), then each a random legal action, stopping at the game's end."""
    rng = random.Random(seed)
    state = g.new_initial_state(seed=seed)
    for _ in range(rng.randrange(low, high)):
        if state.is_terminal():
            break
        legal = state.legal_action_ids()
        state.apply(legal[rng.randrange(len(legal))])
    return state


def permute_hidden(state, seat: int, rng, tries: int = 200):
    """A copy of `state` whose cards unknown to `seat` trade places among themselves at random. What
    belongs to a place stays with it (who knows the card there, what was told of it, a card held in
    a variable or offered by the pending choice), and in a game that keeps facts (`tell`) the new
    deal fits what `seat` was told of each place: drawn again up to `tries` times, else the copy is
    left as it was."""
    from cardlang.runtime.view import _follow

    other = state.clone()
    unknown = [c for c in range(len(other.known)) if not other.known[c] >> seat & 1]
    places = [(other.loc[c], other.zones[other.loc[c]].index(c)) for c in unknown]
    shuffled = unknown[:]
    rng.shuffle(shuffled)
    table = state.game.program.facts
    if table is not None:
        fields = [table.of(state, c, seat) for c in unknown]
        for _ in range(tries):
            if all(table.fits(c, f) for c, f in zip(shuffled, fields)):
                break
            rng.shuffle(shuffled)
        else:
            return other
    moved = {}
    for (z, i), old, new in zip(places, unknown, shuffled):
        other.zones[z][i] = new
        other.loc[new] = z
        other.known[new] = state.known[old]
        if other.facts is not None:
            other.facts[new] = state.facts[old]
        moved[old] = new
    _follow(other, moved)
    return other


def play_out_with_scores_never_decreasing(g, seed: int):
    """Plays one seeded random game of `g` to its end, asserting at every step that no seat's score
    goes down; returns the final state."""
    import random

    rng = random.Random(seed)
    state = g.new_initial_state(seed=seed, log=False)
    before = state.scores()
    while not state.is_terminal():
        legal = state.legal_action_ids()
        state.apply(legal[rng.randrange(len(legal))])
        now = state.scores()
        assert all(a >= b for a, b in zip(now, before)), f"a score went down: {before} -> {now}"
        before = now
    return state
