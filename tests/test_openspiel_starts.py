"""OpenSpiel's game start kept per deal (issue 31 item 5): `openspiel._begin` plays the rules' start
with the chance outcomes met before the first decision once, and keeps the engine state it reached
for the next game with the same outcomes (`START_MEMO`). Nothing observable may change: over random
courses of every file of games/ and examples/, a state whose start was kept answers exactly as one
whose start was played afresh (the seat to act, legal actions, chance outcomes, both tensors and
both strings of every seat, action strings, returns, history, serialization and the state
deserialized from it), and the kept engine state is the one a fresh start reaches, unchanged by
the games played on from it.
"""

import glob
import os
import random

import pyspiel
import pytest

from cardlang import openspiel
from cardlang.research.chance import Script
from scenario import path

DECISIONS = 8  # decisions of a course: its start and first decisions are what this test is about
STEPS = 400  # at most this many steps (a shuffle of a whole deck is a step a card)


def _files():
    root = os.path.dirname(os.path.dirname(path("examples/kuhn_poker.cards")))
    files = glob.glob(path("examples/*.cards")) + glob.glob(path("games/*.cards"))
    return sorted(os.path.relpath(f, root) for f in files)


def _players(relative):
    from cardlang.load import check_file
    return check_file(path(relative))[0].players[0]


def _answers(g, state, deep: bool) -> dict:
    """What a caller may ask of `state`, as plain data (`deep`: the state deserialized too)."""
    n = g.num_players()
    out = {"player": state.current_player(), "chance": state.is_chance_node(), "terminal": state.is_terminal(),
           "history": state.history(), "serialized": state.serialize(), "text": str(state),
           "returns": state.returns(),
           "legal": [state.legal_actions(p) for p in range(n)],
           "information tensors": [state.information_state_tensor(p) for p in range(n)],
           "observation tensors": [state.observation_tensor(p) for p in range(n)],
           "information strings": [state.information_state_string(p) for p in range(n)],
           "observation strings": [state.observation_string(p) for p in range(n)]}
    if state.is_chance_node():
        out["outcomes"] = state.chance_outcomes()
        out["labels"] = [state.action_to_string(pyspiel.PlayerId.CHANCE, a) for a, _ in out["outcomes"]]
    elif not state.is_terminal():
        out["labels"] = [state.action_to_string(state.current_player(), a) for a in state.legal_actions()]
    if deep:
        back = g.deserialize_state(state.serialize())
        out["back"] = _answers(g, back, False)
    return out


def _course(g, actions=None, seed=0) -> tuple:
    """(the actions, each state's answers, the engine state of the first decision) of one course:
    `actions` played, or random ones (chance by its probabilities)."""
    rng = random.Random(seed)
    state = g.new_initial_state()
    played, answers, first = [], [], None
    decisions = 0
    for i in range(STEPS):
        answers.append(_answers(g, state, deep=i % 5 == 0))
        if state.is_player_node():
            first = state._core.st if first is None else first
            decisions += 1
        if state.is_terminal() or decisions == DECISIONS or (actions is not None and i == len(actions)):
            break
        if actions is not None:
            a = actions[i]
        elif state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            a = rng.choices(outcomes, probs)[0]
        else:
            a = rng.choice(state.legal_actions())
        played.append(a)
        state.apply_action(a)
    answers.append(_answers(g, state, deep=True))
    return played, answers, first


def _same_engine_state(a, b) -> bool:
    fields = ("pc", "stack", "v", "zones", "loc", "known", "facts", "active", "terminal", "winner_seats",
              "history", "round", "log", "checkpoint")
    return all(getattr(a, f) == getattr(b, f) for f in fields) and tuple(a._pending or ()) == tuple(b._pending or ()) \
        and a.rng == b.rng


@pytest.mark.parametrize("relative", _files())
def test_a_kept_game_start_answers_as_one_played_afresh(relative, monkeypatch):
    monkeypatch.setattr(openspiel, "MEMO", 0)  # (no child remembered: every step but the start made afresh)
    g = openspiel.load_game(path(relative), players=_players(relative))
    try:
        monkeypatch.setattr(openspiel, "START_MEMO", 0)
        openspiel.forget_states()
        fresh = [_course(g, seed=seed) for seed in (1, 2)]
        assert not openspiel._BEGUN
        monkeypatch.setattr(openspiel, "START_MEMO", 1000)
        openspiel.forget_states()
        for actions, answers, _ in fresh:
            _, once, first = _course(g, actions)  # (the start played, then kept)
            _, again, kept = _course(g, actions)  # (the kept start)
            assert once == answers and again == answers
            assert first is kept  # (the second game began from the engine state the first kept)
            assert kept is not None or not any(a["player"] >= 0 for a in answers)  # (war: nobody decides)
        # each kept start is the engine state a start played afresh with its outcomes reaches
        game = g.cards
        kept = [(k, got) for k, got in openspiel._BEGUN.items() if k[0] == g.key]
        assert kept
        for (key, logged, script), (st, event, player) in kept:
            try:
                again = game.new_initial_state(seed=0, chance=Script(script, 0, openspiel._LAZY[key]), log=logged)
            except openspiel.NeedChance as e:
                assert st is None and event == (e.kind, e.data) and player == openspiel._CHANCE
            else:
                if not logged:
                    again.checkpoint = False
                assert event is None and _same_engine_state(st, again)
    finally:
        openspiel.forget_states()


def test_kept_starts_are_bounded(monkeypatch):
    """A game keeps at most `START_MEMO` starts: past it, a new deal's start is played and not kept."""
    monkeypatch.setattr(openspiel, "START_MEMO", 3)
    openspiel.forget_states()
    g = openspiel.load_game(path("examples/leduc_poker.cards"))
    try:
        for first in range(6):
            state = g.new_initial_state()
            state.apply_action(first)
            state.apply_action((first + 1) % 6)
            assert state.is_player_node()
        assert len([k for k in openspiel._BEGUN if k[0] == g.key]) == 3
        assert openspiel._BEGUN_LEFT[g.key] == 0
    finally:
        openspiel.forget_states()
