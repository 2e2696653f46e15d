"""Gaps of the knowledge model (issue 26, docs/knowledge.md "One of these"), each a rule file under
tests/knowledge/, played on both engines: what a seat observes of a statement is what the model
says, no more."""

from __future__ import annotations

import random

import pytest

import cardlang
from scenario import ENGINES, path

DEALT = path("tests/knowledge/deal_from_hand.cards")


def _zone(state, name, seat=None):
    z = state.game.program.zone_families[name][0] + (seat or 0)
    return state.zones[z]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_deal_out_of_another_players_hand_is_a_card_seen_to_go_not_which(engine):
    g = cardlang.load(DEALT, 2, engine=engine)
    for seed in range(6):
        st = g.new_initial_state(seed=seed)
        shown = sorted(_zone(st, "hand", 0))
        assert all(st.knows(1, c) for c in shown)  # the reveal: P1 knows P0's three cards
        st.apply("give")
        dealt = _zone(st, "pile")[-1]
        # P1 saw a card leave P0's hand face down, not which: it knows none of the three now
        assert not any(st.knows(1, c) for c in shown)
        assert st.knows(0, dealt)
        assert not any(g.deck.label_of(c) in line for c in shown for line in st.transcript(1)[-1:])
        obs = st.observation(1)
        assert not any(g.deck.label_of(c) in str(obs["zones"]) for c in shown)
        # ... but each of them is in P0's hand or on the pile: every world P1 imagines says so
        # (which one is on the pile, its worlds read off the reveal's line, which lists P0's hand in
        # its order: P1 may know it, and the model credits it with less, never more)
        view = st.view(1)
        for i in range(20):
            world = view.determinize(random.Random(i))
            assert sorted(_zone(world, "hand", 0) + _zone(world, "pile")) == shown
