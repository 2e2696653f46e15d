"""What `cardlang simulate` and `load` do at start-up, and what they leave for later: the modules only
some commands need are not imported, and the checks left out when a game is loaded (W004's
information flow) only ever warn, so every file the checker refuses is still refused."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

import cardlang
from cardlang.lang.check import check
from cardlang.load import Loader

ROOT = Path(__file__).resolve().parent.parent
CHECKED = sorted((ROOT / "tests" / "check").rglob("*.cards")) + sorted((ROOT / "examples").glob("*.cards")) \
    + sorted((ROOT / "games").glob("*.cards"))


def merged(path: Path):
    loader = Loader(str(ROOT))
    module, diagnostics = loader.parse_file(str(path))
    if module is None:
        return None
    merged, more = loader.merge(module)
    return None if any(d.is_error for d in more) else merged


@pytest.mark.parametrize("path", [p for p in CHECKED if "klondike" not in p.name], ids=lambda p: p.name)
def test_a_load_finds_every_error_the_checker_finds(path):
    module = merged(path)
    if module is None:
        pytest.skip("refused before the checker")
    _, every = check(module)
    _, loading = check(module, warnings=False)
    assert [d for d in loading if d.is_error] == [d for d in every if d.is_error]
    assert {d.code for d in every} - {d.code for d in loading} <= {"W004"}


def test_a_leak_is_still_reported_by_check_and_a_leaky_game_still_loads():
    path = ROOT / "tests" / "check" / "leaky" / "hidden_take.cards"
    _, diagnostics = cardlang.check_file(str(path))
    assert "W004" in {d.code for d in diagnostics}
    game = cardlang.load(str(path))  # a warning never stops a game
    assert game.players >= 1


def imported_by(code: str) -> set:
    out = subprocess.run([sys.executable, "-c", code + "\nimport sys, json; print(json.dumps(sorted(sys.modules)))"],
                         cwd=ROOT, capture_output=True, text=True, check=True)
    return set(json.loads(out.stdout.splitlines()[-1]))


def test_simulate_starts_without_the_modules_only_other_commands_need():
    code = ("import sys; from cardlang.cli import main\n"
            "sys.argv = ['cardlang', 'simulate', 'examples/coin_flip.cards', '-n', '3', '--jobs', '1', '--json']\n"
            "try:\n    main()\nexcept SystemExit:\n    pass")
    modules = imported_by(code)
    assert "cardlang.play.simulate" in modules  # (the command ran)
    for name in ("numpy", "rich", "matplotlib", "ray", "cardlang.lang.infoflow", "cardlang.lang.syntax_errors",
                 "cardlang.pettingzoo", "cardlang.openspiel", "cardlang.research", "cardlang.tools", "tomllib"):
        assert name not in modules, name


def test_check_starts_without_the_engine():
    modules = imported_by("import cardlang.cli.cmd_check")
    assert not {m for m in modules if m.startswith(("cardlang.runtime.engine", "cardlang.compiler"))}
