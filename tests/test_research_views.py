"""The research adapters' cheap view (`runtime/encoder_view.py`, issue 17's step cost): a `TableView`
gives the encoder exactly what the seat's `SeatView` gives it, on every game of games/ and
examples/, and it holds nothing the seat does not know."""

import glob
import os
import random

import numpy as np
import pytest

from cardlang.research.encoding import Encoder
from cardlang.runtime.encoder_view import TableView
from scenario import ROOT, game

FILES = sorted(os.path.relpath(p, ROOT) for folder in ("games", "examples")
               for p in glob.glob(os.path.join(ROOT, folder, "*.cards")))


def _states(g, seed, moves=60):
    """The states of one seeded random game, the start included, up to `moves` decisions."""
    st = g.new_initial_state(seed=seed, log=False)
    rng = random.Random(seed)
    yield st
    for _ in range(moves):
        if st.is_terminal():
            return
        st.apply(rng.choice(st.legal_action_ids()))
        yield st


@pytest.mark.parametrize("relative", FILES, ids=[os.path.basename(f) for f in FILES])
def test_a_table_view_encodes_as_the_seat_view_does(relative):
    g = game(relative, None)
    encoder = Encoder(g)
    compared = 0
    for seed in range(3):
        for st in _states(g, seed):
            for seat in range(g.players):
                view, quick = st.view(seat, past=False), TableView(st, seat)
                assert np.array_equal(encoder.observation(quick), encoder.observation(view))
                assert np.array_equal(encoder.mask(quick), encoder.mask(view))
                assert quick.legal_action_ids() == view.legal_action_ids()
                assert (quick.choice, quick.current_player, quick.is_terminal()) == \
                       (view.choice, view.current_player, view.is_terminal())
                for a in quick.legal_action_ids():
                    assert quick.action_in(st, a) == view.action_in(st, a)
                compared += 1
    assert compared > 0


def test_a_choice_among_hidden_cards_is_named_by_place_as_in_the_seat_view():
    # P0 takes a card from P1's hand, which it does not know: the view's ids are by place
    g = game("tests/check/leaky/hidden_take.cards", 3)
    state = g.new_initial_state(seed=3)
    view, quick = state.view(0, past=False), TableView(state, 0)
    assert quick._full is not None
    assert quick.legal_action_ids() == view.legal_action_ids() != state.legal_action_ids()
    assert [quick.action_in(state, a) for a in quick.legal_action_ids()] == list(state.legal_action_ids())
    encoder = Encoder(g)
    assert np.array_equal(encoder.mask(quick), encoder.mask(view))


def test_a_table_view_holds_no_state_and_no_card_the_seat_does_not_know():
    g = game("games/counter_bluff.cards", 2)
    state = g.new_initial_state(seed=1)
    quick = TableView(state, 0)
    table = quick.table()
    held = {c for c in range(g.deck.size) if state.known[c] & 1}
    assert set(table.cards.tolist()) == held
    assert all(top == -1 or top in held for top in table.tops)
    # nothing in it is the state or one of its lists (its own `v` copy aside)
    parts = [getattr(quick, name) for name in quick.__slots__ if name != "_table"] + list(table)
    assert not any(x is state or x is state.known or x is state.loc or x is state.zones or x is state.active
               for x in parts)
