"""Issue 26: the worlds a seat imagines (`SeatView.determinize`) carry nothing the seat does not know
(finding 4: a text quoting a hidden card), and a world a bot imagined never stops the real game
(finding 8)."""

import random

from cardlang.runtime.log import fill_refs
from scenario import game

QUOTED = "tests/knowledge/quoted_card.cards"


def _note(state):
    g = state.game
    return fill_refs(g.deck, state.v[g.program.var_slots["note"][0]])


def test_a_text_quoting_a_hidden_card_names_the_card_of_the_imagined_world():
    """`set note = "P1 holds {top of hand(P1)}"`: in P0's worlds the note names the card the world
    dealt to the top of P1's hand, not P1's real card (which it named in all 50 worlds before)."""
    g = game(QUOTED, 2)
    hand1 = g.program.zone_families["hand"][0] + 1
    real_states = [g.new_initial_state(seed=seed) for seed in range(6)]
    same = total = 0
    for state in real_states:
        real = _note(state)
        assert real == f"P1 holds {g.deck.label_of(state.zones[hand1][-1])}"
        assert state.observation(0)["variables"]["note"] == "P1 holds hidden"
        view = state.view(0)
        for i in range(40):
            world = view.determinize(random.Random(i))
            # the world's note is true of the world: it names the card the world put there
            assert _note(world) == f"P1 holds {g.deck.label_of(world.zones[hand1][-1])}"
            same += _note(world) == real
            total += 1
    # 13 cards P0 does not know could lie there: the real one about one world in 13, not every time
    assert same < total / 4


def test_views_of_states_that_differ_only_in_the_quoted_hidden_card_are_equal():
    g = game(QUOTED, 2)
    state = g.new_initial_state(seed=3)
    twin, fits = state.view(0).sample(random.Random(5), history=True)
    hand1 = g.program.zone_families["hand"][0] + 1
    assert twin.zones[hand1][-1] != state.zones[hand1][-1]
    assert _note(twin) != _note(state)
    assert twin.view(0) == state.view(0)
    assert twin.view(0).determinize(random.Random(1)).v == state.view(0).determinize(random.Random(1)).v
