"""One seeded bots-only transcript per game, as a snapshot: behaviour changes show up in review."""

import os

import pytest
from click.testing import CliRunner

from cardlang.cli import main
from scenario import path
from test_playouts import FILES, _range

GAMES = [f for f in FILES if f.startswith("games" + os.sep)]


@pytest.mark.parametrize("relative", GAMES, ids=[os.path.basename(f) for f in GAMES])
def test_bots_only_transcript(relative, snapshot):
    low, _ = _range(relative)
    result = CliRunner().invoke(main, ["play", path(relative), "--bots-only", "--seed", "7",
                                       "--players", str(low)])
    assert result.exit_code == 0, result.output
    assert result.output == snapshot
