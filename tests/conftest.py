"""Fixtures shared by the tests: `engine`, each engine by name, so that a test of what a rule means
runs on the reference interpreter (the definition) and on the compiled engine alike."""

import pytest

from scenario import ENGINES


@pytest.fixture(params=ENGINES)
def engine(request) -> str:
    """The name of an engine `cardlang.load(..., engine=...)` takes: each test runs once with each."""
    return request.param
