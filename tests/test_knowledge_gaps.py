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


@pytest.mark.parametrize("engine", ENGINES)
def test_a_deal_and_a_move_of_the_top_card_out_of_a_hand_are_read_alike(engine):
    """Both take a card by its place in a hand the others do not see the places of."""
    g = cardlang.load(DEALT, 2, engine=engine)
    for seed in range(4):
        dealt, moved = g.new_initial_state(seed=seed), g.new_initial_state(seed=seed)
        dealt.apply("give")
        moved.apply("hand over")
        assert dealt.zones == moved.zones
        assert dealt.known == moved.known and dealt.among == moved.among
        assert dealt.view(1).observation()["zones"] == moved.view(1).observation()["zones"]


# ------------------------------------------- the observation lists the candidates of a "one of these"
DISCARD = path("tests/engine/secret_discard.cards")


@pytest.mark.parametrize("engine", ENGINES)
def test_the_observation_lists_what_each_place_may_be(engine):
    """P0 shows his top card, then puts a card face down in secret: P1's observation (and its view's)
    says of each place of P0's hand and of the face down one that it may be the shown card or one P1
    tracks nowhere, whichever card P0 chose; P0, who tracks nothing, is shown no such list."""
    g = cardlang.load(DISCARD, 2, engine=engine)
    first = g.new_initial_state(seed=3)
    shown = [c for c in first.zones[g.program.zone_families["hand"][0]] if first.knows(1, c)]
    assert len(shown) == 1
    label = g.deck.label_of(shown[0])
    maybe = {"cards": [label], "others": True}
    seen = []
    for a in first.legal_action_ids():
        st = first.clone()
        st.apply(a)
        obs = st.observation(1)
        assert obs["among"]["hand"][0] == [maybe, maybe]
        assert obs["among"]["down"][0] == [maybe]
        assert obs["among"]["hand"][1] == [None] * 3 and obs["among"]["stock"] == [None] * len(st.zones[0])
        assert st.view(1).observation()["among"] == obs["among"]
        assert "among" not in st.observation(0)
        seen.append((obs, st.view(1).observation()))
    assert all(x == seen[0] for x in seen)  # the same whichever card P0 put face down


def test_a_screen_shared_by_two_seats_lists_only_what_both_track():
    """Hot-seat at one screen (`play.seen.common_observation`): P1's lists are P1's own, not P0's."""
    from cardlang.play.seen import common_observation

    g = cardlang.load(DISCARD, 2)
    st = g.new_initial_state(seed=3)
    st.apply(st.legal_action_ids()[0])
    assert "among" in st.observation(1)
    assert "among" not in common_observation(st, [1, 0])
    assert common_observation(st, [1])["among"] == st.observation(1)["among"]
