"""OpenSpiel's information-state and observation tensors of a `.cards` game (issue 17).

The information-state tensor is the observation vector followed by the history block
(`cardlang/research/history.py`): they have the shapes the game declares; OpenSpiel's own code that
reads them (its random simulation test, `observation.make_observation`, `rl_environment`) runs on
them; on Kuhn poker, states of one information set have one tensor and the twelve information sets
twelve tensors, as on OpenSpiel's own kuhn_poker; on other games what a seat reads differently
shows in its tensor. The twins that differ only in cards hidden from the seat, which must be given
the same tensors, are tests/test_leaks.py's.
"""

import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python import rl_environment
from open_spiel.python.observation import make_observation

from cardlang import openspiel
from cardlang.research import encoding
from cardlang.runtime import seat_table
from cardlang.runtime.encoder_view import TableView
from scenario import path

KUHN = "examples/kuhn_poker.cards"
SMALL = [KUHN, "examples/follow_suit.cards", "examples/high_card_chips.cards", "games/red_dog.cards",
         "examples/coin_flip.cards"]


def _players(relative):
    from cardlang.load import check_file
    return check_file(path(relative))[0].players[0]


def _walk(state):
    """Every state of the game's tree below `state` (for the small Kuhn poker)."""
    yield state
    if state.is_terminal():
        return
    actions = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
    for a in actions:
        yield from _walk(state.child(a))


def _random_states(g, games, seed):
    """The decision states of `games` random games (chance by its probabilities)."""
    rng = random.Random(seed)
    for _ in range(games):
        state = g.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(outcomes, probs)[0])
                continue
            yield state
            state.apply_action(rng.choice(state.legal_actions()))
        yield state


def test_the_game_type_offers_both_tensors_with_their_layout():
    g = openspiel.load_game(path(KUHN))
    t = g.get_type()
    assert t.provides_information_state_tensor and t.provides_observation_tensor
    # Kuhn poker declares `limit 3 decisions`: the history holds three entries of 2 seats + 8
    # alternatives + 3 cards + 1 number, and the count of decisions
    assert g.history.length == 3 and g.history.width == 2 + 8 + 3 + 1
    assert g.observation_tensor_shape() == [g.encoder.size]
    assert g.information_state_tensor_shape() == [g.encoder.size + 3 * 14 + 1]
    # a game without a limit holds the default number of decisions; a parameter asks for another
    other = pyspiel.load_game("python_cardlang", {"file": path("games/red_dog.cards"), "players": 2, "history": 5})
    assert other.history.length == 5
    assert openspiel.load_game(path("games/red_dog.cards"), players=2).history.length == 32


@pytest.mark.parametrize("relative", SMALL)
def test_tensors_have_the_declared_shapes_and_bounds_in_every_state(relative):
    g = openspiel.load_game(path(relative), players=_players(relative))
    info, obs = g.information_state_tensor_size(), g.observation_tensor_size()
    for state in _random_states(g, 4, 1):
        for p in range(g.num_players()):
            a, b = np.array(state.information_state_tensor(p)), np.array(state.observation_tensor(p))
            assert a.shape == (info,) and b.shape == (obs,)
            assert np.array_equal(a[:obs], b), "the information state begins with the observation"
            assert np.all(np.isfinite(a))


def test_openspiel_own_observer_and_rl_environment_read_the_tensors():
    g = openspiel.load_game(path(KUHN))
    observer = make_observation(g, pyspiel.IIGObservationType(perfect_recall=True))
    state = g.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    observer.set_from(state, 0)
    assert observer.tensor.shape == (g.information_state_tensor_size(),)
    assert set(observer.dict) >= {"cards", "history", "decisions"}
    assert observer.dict["history"].shape == (3, 14)
    env = rl_environment.Environment(g, seed=3)
    rng = random.Random(3)
    for _ in range(5):
        step = env.reset()
        while not step.last():
            p = step.observations["current_player"]
            assert len(step.observations["info_state"][p]) == g.information_state_tensor_size()
            step = env.step([rng.choice(step.observations["legal_actions"][p])])
        assert sum(step.rewards) == 0


def test_kuhn_poker_one_tensor_per_information_set_as_the_native_game():
    sets = {}
    native_sets = set()
    ours = openspiel.load_game(path(KUHN))
    for state in _walk(ours.new_initial_state()):
        if state.is_terminal() or state.is_chance_node():
            continue
        p = state.current_player()
        sets.setdefault((p, state.information_state_string(p)), set()).add(tuple(state.information_state_tensor(p)))
    native = pyspiel.load_game("kuhn_poker")
    for state in _walk(native.new_initial_state()):
        if not state.is_terminal() and not state.is_chance_node():
            native_sets.add(tuple(state.information_state_tensor(state.current_player())))
    assert all(len(t) == 1 for t in sets.values()), "one tensor per information set"
    assert len(sets) == len(native_sets) == 12
    assert len({t for ts in sets.values() for t in ts}) == 12, "twelve information sets, twelve tensors"


@pytest.mark.parametrize("relative", SMALL[1:4])
def test_what_a_seat_reads_differently_shows_in_its_tensors(relative):
    """Over random courses: one tensor for each information-state string (the twins that differ in
    hidden cards are tests/test_leaks.py's), and nearly one string for each tensor: what the
    tensor does not hold is what the log alone keeps, a card shown and then shuffled away."""
    g = openspiel.load_game(path(relative), players=_players(relative))
    info, obs = {}, {}
    for state in _random_states(g, 40, 7):
        for p in range(g.num_players()):
            info.setdefault(state.information_state_string(p), set()).add(tuple(state.information_state_tensor(p)))
            obs.setdefault(state.observation_string(p), set()).add(tuple(state.observation_tensor(p)))
    assert all(len(t) == 1 for t in info.values())
    assert all(len(t) == 1 for t in obs.values())
    assert len({t for ts in info.values() for t in ts}) >= 0.95 * len(info)


@pytest.mark.parametrize("relative", [KUHN, "examples/leduc_poker.cards", "examples/goofspiel.cards",
                                      "examples/colour_match.cards", "examples/coin_flip.cards"])
def test_python_calls_answer_as_pyspiels_own(relative):
    """`legal_actions`, `information_state_tensor`, `is_chance_node`, `is_terminal` and
    `is_player_node` answer a Python caller in one call (pyspiel's own calls back into Python
    several times): the same answers as pyspiel's C++ State methods, which its C++ algorithms use,
    in every state of random courses (chance nodes and ends included), for every seat."""
    g = openspiel.load_game(path(relative), players=_players(relative))
    rng = random.Random(5)
    for _ in range(30):
        state = g.new_initial_state()
        while True:
            assert state.is_chance_node() == pyspiel.State.is_chance_node(state)
            assert state.is_terminal() == pyspiel.State.is_terminal(state)
            assert state.is_player_node() == pyspiel.State.is_player_node(state)
            assert state.legal_actions() == pyspiel.State.legal_actions(state)
            for p in range(g.num_players()):
                assert state.legal_actions(p) == pyspiel.State.legal_actions(state, p)
                assert state.information_state_tensor(p) == pyspiel.State.information_state_tensor(state, p)
            if state.is_player_node():
                assert state.information_state_tensor() == pyspiel.State.information_state_tensor(state)
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
    with pytest.raises(pyspiel.SpielError):
        state.information_state_tensor()  # (the end: nobody to act, as pyspiel refuses it)


def _files():
    import glob
    import os
    root = os.path.dirname(path(KUHN))
    return sorted(os.path.relpath(f, os.path.dirname(root)) for f in glob.glob(path("examples/*.cards"))
                  + glob.glob(path("games/*.cards")))


@pytest.mark.parametrize("relative", _files())
def test_a_state_without_log_answers_as_its_twin_with_the_log(relative):
    """A core's engine states keep no log (`_Core.twin` keeps one for the strings): over random
    courses of every game, the seat to act, the legal actions, the chance outcomes, every seat's
    information-state and observation tensors and the returns are those of the twin whose states
    keep the log, and the seat table's known cards and the vector's card entries worked out in
    Python (a small deck, few known cards), the vector made as a list and the tensors' vector
    (written straight from the state: `seat_table.vector_of`) are those worked out by numpy."""
    g = openspiel.load_game(path(relative), players=_players(relative))
    try:
        _courses_without_log(g, random.Random(relative))
    finally:
        openspiel.forget_states()  # (every game's states, twins and tensors kept: memory for the next)


def _courses_without_log(g, rng):
    """Three random courses of `g`, each state checked against its twin (the test above)."""
    for _ in range(3):
        state = g.new_initial_state()
        for _ in range(40):
            twin = state._core.twin()
            assert twin is not state._core and twin.logged and not state._core.logged
            assert twin.player == state._core.player and twin.event == state._core.event
            if twin.st is not None:
                assert twin.st.zones == state._core.st.zones and twin.st.v == state._core.st.v
                assert twin.st.known == state._core.st.known
            logged = pyspiel.State.clone(state)
            logged._core = twin
            for p in range(g.num_players()):
                assert state.information_state_tensor(p) == logged.information_state_tensor(p)
                assert state.observation_tensor(p) == logged.observation_tensor(p)
                assert state.legal_actions(p) == logged.legal_actions(p)
                view = state._core.table_view(p)
                if view is not None:
                    kept = encoding.FEW_CARDS, seat_table.SMALL_DECK
                    encoding.FEW_CARDS = seat_table.SMALL_DECK = -1  # (numpy for every card)
                    try:
                        by_numpy = g.encoder.observation(view)
                        st = state._core.st if state._core.st is not None else state._core.base
                        numpy_table = seat_table.table_of(st, p, view.current_player, view.choice)
                    finally:
                        encoding.FEW_CARDS, seat_table.SMALL_DECK = kept
                    assert np.array_equal(by_numpy, g.encoder.observation(view))
                    assert g.encoder.observation_list(view) == by_numpy.tolist()  # (OpenSpiel's list path)
                    # the tensor's vector, written straight from the state where the game allows it
                    assert state.information_state_tensor(p)[:g.encoder.size] == by_numpy.tolist()
                    assert state.observation_tensor(p) == by_numpy.tolist()
                    table = view.table()
                    assert np.array_equal(numpy_table.cards, table.cards) and table.cards.dtype == np.int64
                    assert np.array_equal(numpy_table.zones, table.zones) and table.zones.dtype == np.int64
                    # a view made first without its table (for the legal actions), then given it
                    assert repr(numpy_table[2:]) == repr(table[2:])  # (some values are arrays)
                    whole = TableView(st, p)
                    assert (whole.choice, whole.current_player, whole.legal_action_ids()) == \
                        (view.choice, view.current_player, view.legal_action_ids())
            if state.is_terminal():
                assert state.returns() == logged.returns()
                break
            if state.is_chance_node():
                assert state.chance_outcomes() == logged.chance_outcomes()
            actions = state.legal_actions()
            state.apply_action(rng.choice(actions))
