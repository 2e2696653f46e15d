"""Fixtures shared by the tests: `engine`, each engine by name, so that a test of what a rule means
runs on the reference interpreter (the definition) and on the compiled engine alike."""

import pytest

from scenario import ENGINES


@pytest.fixture(params=ENGINES)
def engine(request) -> str:
    """The name of an engine `cardlang.load(..., engine=...)` takes: each test runs once with each."""
    return request.param


@pytest.fixture
def leaky_history(monkeypatch):
    """OpenSpiel's history block made to show every card chosen, another seat's face-down ones too: a
    leak the leak tests must catch (they are not blind)."""
    from cardlang.research import history

    def leaky(self, out, start, decisions, seat):
        for i, d in enumerate(decisions[-self.length:]):
            if d.card >= 0:
                out[start + i * self.width + self.card_at + d.card] = 1.0
    from cardlang import openspiel

    openspiel.forget_states()  # (states remember their tensors: none made by the real block is kept)
    monkeypatch.setattr(history.History, "write", leaky)  # (what OpenSpiel's tensors and `fill` write with)
    yield
    openspiel.forget_states()  # (nor one made by the leaky block, for the tests after)
