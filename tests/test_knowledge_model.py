"""Knowledge that is true (issue 26): what each seat observes of a statement, scenario by scenario.

Each finding of the issue is a small rule file under tests/engine/, played on both engines: a seat
is shown what it observed, no more (a secret choice among cards it knew, picks made at once), and
no less (a reveal stays in the log; cards that start on a public table are known to all).
"""

from __future__ import annotations

import pytest

import cardlang
from scenario import path

ENGINES = ["compiled", "reference"]
SHOWN = path("tests/engine/shown_then_forgotten.cards")


# ----------------------------------------------------------------- finding 5: the log keeps a reveal
@pytest.mark.parametrize("engine", ENGINES)
def test_cards_that_start_on_a_public_table_are_known_to_all(engine):
    st = cardlang.load(SHOWN, 2, engine=engine).new_initial_state(seed=3)
    assert all(st.knows(seat, c) for seat in (0, 1) for c in range(len(st.known)))
    assert [a.label for a in st.legal_actions()][:2] == ["take 2♥", "take 2♠"]  # by name, not by place


@pytest.mark.parametrize("engine", ENGINES)
def test_a_hand_shown_read_out_and_forgotten_in_one_step_stays_shown_in_the_log(engine):
    st = cardlang.load(SHOWN, 2, engine=engine).new_initial_state(seed=3)
    st.apply("take 2♥")
    everyone = st.transcript(None)
    shows = [i for i, line in enumerate(everyone) if " shows " in line or " holds " in line]
    assert len(shows) == 4 and "a card" not in " ".join(everyone[i] for i in shows)
    for seat in (0, 1):  # the cards were shown to all: every seat reads them, for good
        assert [st.transcript(seat)[i] for i in shows] == [everyone[i] for i in shows]
        assert not any(st.knows(seat, c) for c in st.zones[st.game.program.zone_families["hand"][0] + 1 - seat])


@pytest.mark.parametrize("engine", ENGINES)
def test_a_reveal_of_cards_everyone_knew_writes_its_line(engine):
    st = cardlang.load(SHOWN, 2, engine=engine).new_initial_state(seed=3)
    st.apply("take 2♥")
    top = st.game.deck.label_of(st.zones[st.game.program.zone_families["stock"][0]][-1])
    for seat in (0, 1, None):
        assert st.transcript(seat).count(f"shown: {top}") == 2  # the second reveal too


# ------------------------------------------ finding 3: OpenSpiel's information state and picks at once
SEALED = path("tests/engine/sealed_numbers.cards")


def _spiel_play(state, *labels):
    """Plays chance outcomes (the first each) and then each label, in the decisions' order."""
    labels = list(labels)
    while labels or state.is_chance_node():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
            continue
        player = state.current_player()
        label = labels.pop(0)
        action = next(a for a in state.legal_actions() if state.action_to_string(player, a) == label)
        state.apply_action(action)
    return state


def _information_state(state, seat):
    return (list(state.information_state_tensor(seat)), state.information_state_string(seat),
            list(state.observation_tensor(seat)), state.observation_string(seat))


@pytest.mark.parametrize("engine", ENGINES)
def test_openspiel_information_state_holds_no_pending_pick_of_another_seat(engine):
    from cardlang import openspiel

    game = openspiel.load_game(SEALED, players=3, engine=engine)
    a = _spiel_play(game.new_initial_state(), "bid 0")
    b = _spiel_play(game.new_initial_state(), "bid 2")
    assert a.current_player() == b.current_player() == 1
    for seat in (1, 2):
        assert _information_state(a, seat) == _information_state(b, seat)
    assert _information_state(a, 0) != _information_state(b, 0)  # P0 knows his own bid


@pytest.mark.parametrize("engine", ENGINES)
def test_openspiel_information_state_keeps_a_secret_number_secret_for_good(engine):
    from cardlang import openspiel

    game = openspiel.load_game(SEALED, players=3, engine=engine)
    start = ("bid 1", "bid 0", "bid 2", "name P2", "name P0", "name P2")
    a = _spiel_play(game.new_initial_state(), *start, "change 0", "change 0", "change 1")
    b = _spiel_play(game.new_initial_state(), *start, "change 0", "change 1", "change 1")
    # P1 changed or not: his hand differs, P0 and P2 are told nothing of it (and see the bids and names)
    for seat in (0, 2):
        assert _information_state(a, seat) == _information_state(b, seat)
    assert _information_state(a, 1) != _information_state(b, 1)
    c = _spiel_play(game.new_initial_state(), "bid 1", "bid 2", "bid 2", *start[3:], "change 0", "change 0", "change 1")
    assert _information_state(a, 0) != _information_state(c, 0)  # a bid is shown once all are in
