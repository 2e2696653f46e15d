"""Hidden information: what a seat observes does not depend on the cards hidden from it."""

import os
import random

import pytest

from scenario import game, permute_hidden
from test_playouts import FILES, _range


@pytest.mark.parametrize("relative", FILES, ids=[os.path.basename(f) for f in FILES])
def test_observation_does_not_change_when_hidden_cards_are_permuted(relative):
    low, high = _range(relative)
    for players in sorted({low, high}):
        g = game(relative, players)
        for seed in range(15):
            rng = random.Random(seed)
            state = g.new_initial_state(seed=seed)
            while not state.is_terminal():
                for seat in range(players):
                    twin = permute_hidden(state, seat, rng)
                    if twin.zones != state.zones or seed == 0:
                        assert twin.observation(seat) == state.observation(seat)
                legal = state.legal_action_ids()
                state.apply(legal[rng.randrange(len(legal))])
                if len(state.history) > 60:
                    break
