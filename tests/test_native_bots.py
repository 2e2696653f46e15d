"""Search bots on native rollouts (issue 29, `play/bots.py`): a world dealt from the seat's view
serves `reuse` iterations in turn when the rollouts are native, each a copy of it with chance of
its own from there; on compiled rollouts every iteration deals its own world, as before.

The games are loaded with the native engine (a first run compiles their rollout modules, kept in
`$CARDLANG_CACHE`).
"""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numba")

from cardlang.play import bots  # noqa: E402
from cardlang.play.bots import GreedyBot, ISMCTSBot, decide  # noqa: E402
from cardlang.runtime.basics import RuleError  # noqa: E402
from cardlang.runtime.view import SeatView  # noqa: E402

from test_native_resume import native_game  # noqa: E402


def decision(game, seed: int):
    """A state of a random game at a decision of two or more legal actions."""
    r = random.Random(seed)
    while True:
        st = game.new_initial_state(seed=seed)
        while not st.terminal and (len(st.legal_action_ids()) < 2 or r.random() < 0.4):
            legal = st.legal_action_ids()
            st.apply(legal[r.randrange(len(legal))])
        if not st.terminal:
            return st


@pytest.fixture
def dealt(monkeypatch):
    """The worlds `view.sample` dealt, in order."""
    worlds: list = []
    real = SeatView.sample

    def counting(self, rng, consistent=True, history=False):
        w, fits = real(self, rng, consistent, history)
        worlds.append(w.clone())
        return w, fits
    monkeypatch.setattr(SeatView, "sample", counting)
    return worlds


@pytest.mark.parametrize("bot", [ISMCTSBot, GreedyBot])
def test_a_world_serves_reuse_iterations_when_the_rollouts_are_native(bot, dealt):
    game = native_game("games/ascenseur.cards", 4)
    st = decision(game, 3)
    b = bot(seed=1, budget=20, rollouts="native", reuse=4)
    assert decide(b, st) in st.legal_action_ids()
    assert len(dealt) == 5  # (20 iterations, 4 a world)
    assert b.rollouts.native_count + b.rollouts.python_count >= 20 and b.rollouts.native_count > 0
    dealt.clear()
    b = bot(seed=1, budget=20, rollouts="native", reuse=3)
    decide(b, st)
    assert len(dealt) == 7  # (the last world serves two)


def test_the_copies_of_a_world_keep_its_cards_and_draw_chance_anew(monkeypatch):
    game = native_game("examples/limit_holdem.cards", 2)
    st = decision(game, 5)
    b = ISMCTSBot(seed=2, budget=8, rollouts="native", reuse=4)
    served: list = []
    real = bots._SearchBot._world

    def world(self, view):
        det, before = real(self, view)
        served.append((det.clone(), list(before)))
        return det, before
    monkeypatch.setattr(bots._SearchBot, "_world", world)
    decide(b, st)
    assert len(served) == 8
    for first in (0, 4):
        group = served[first:first + 4]
        for det, before in group[1:]:
            assert det.zones == group[0][0].zones and det.known == group[0][0].known and det.v == group[0][0].v
            assert before == group[0][1]
        assert len({det.rng for det, _ in group}) == 4  # (each copy's chance from there its own)
    assert served[0][0].zones != served[4][0].zones or served[0][0].rng != served[4][0].rng


def test_compiled_rollouts_deal_a_world_each_iteration_and_decide_as_before(dealt):
    game = native_game("games/ascenseur.cards", 4)
    for seed in (1, 2):
        st = decision(game, seed)
        dealt.clear()
        a = ISMCTSBot(seed=seed, budget=12, rollouts="python", reuse=4)
        got = decide(a, st)
        assert len(dealt) == 12 and a.rollouts.python_count == 12
        b = ISMCTSBot(seed=seed, budget=12, rollouts="python", reuse=1)
        assert decide(b, st) == got and a.rng.getstate() == b.rng.getstate()


def test_a_world_that_breaks_a_rule_is_dealt_afresh(monkeypatch, dealt):
    game = native_game("games/ascenseur.cards", 4)
    st = decision(game, 3)
    real = bots.advance
    calls = [0]

    def failing(det, a):
        calls[0] += 1
        if calls[0] == 2:  # (the second iteration's world, a copy of the first's, found impossible)
            raise RuleError("an impossible world")
        return real(det, a)
    monkeypatch.setattr(bots, "advance", failing)
    b = ISMCTSBot(seed=1, budget=8, rollouts="native", reuse=4)
    decide(b, st)
    assert b.discarded == 1
    assert len(dealt) == 3  # (the first world served 2 iterations; 6 left, 4 and 2)


def test_native_bots_decide_alike_on_twins_that_differ_only_in_hidden_cards():
    """Secrets stay structural with worlds reused: a seat's two states that differ only in cards it
    does not know give equal views, hence equal decisions of the native-rollout bots."""
    game = native_game("examples/limit_holdem.cards", 2)
    differ = 0
    for seed in range(4):
        st = decision(game, seed)
        seat = st.current_player
        view = st.view(seat)
        twin, fits = view.sample(random.Random(7), history=True)
        assert fits and twin.view(seat) == view
        differ += twin.zones != st.zones
        for bot in (ISMCTSBot, GreedyBot):
            mine = bot(seed=3, budget=24, rollouts="native", reuse=4).choose(view)
            assert bot(seed=3, budget=24, rollouts="native", reuse=4).choose(twin.view(seat)) == mine
            played = bot(seed=3, budget=24, rollouts="native", reuse=4)
            assert decide(played, twin) == view.action_in(twin, mine)
            assert played.rollouts.native_count > 0
    assert differ >= 2
