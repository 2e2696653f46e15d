"""Snapshot tests of `cardlang check` over the broken files of tests/check/invalid/ (sqlglot-style fixtures).

Each file shows one mistake (its name starts with the code it must raise); the text and the JSON
output are snapshots (syrupy): `pytest --snapshot-update` rewrites them after a deliberate change.
"""

import json
import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardlang.cli import main
from cardlang.lang.codes import CODES

ROOT = Path(__file__).resolve().parent.parent
INVALID = sorted((ROOT / "tests" / "check" / "invalid").glob("*.cards"))


@pytest.fixture(autouse=True)
def at_root(monkeypatch):
    monkeypatch.chdir(ROOT)  # paths in the output are relative to the working directory
    monkeypatch.delenv("NO_COLOR", raising=False)


def check(*args):
    return CliRunner().invoke(main, ["check", "--color", "never", *args])


def rel(path: Path) -> str:
    return os.path.relpath(path, ROOT)


def test_there_are_at_least_40_broken_files_and_one_per_code():
    assert len(INVALID) >= 40
    named = {p.name[:4] for p in INVALID}
    missing = sorted(c for c in CODES if c not in named and c != "E900")  # E900 is a checker bug
    assert missing == []


@pytest.mark.parametrize("path", INVALID, ids=[p.stem for p in INVALID])
def test_text_output(path, snapshot):
    result = check(rel(path))
    assert result.output == snapshot


@pytest.mark.parametrize("path", INVALID, ids=[p.stem for p in INVALID])
def test_json_output(path, snapshot):
    result = check("--format", "json", rel(path))
    data = json.loads(result.output)
    assert data == snapshot
    codes = {d["code"] for d in data["diagnostics"]}
    expected = path.name[:4]
    if re.fullmatch(r"[EW]\d{3}", expected):
        assert expected in codes, f"{path.name} should raise {expected}, raised {sorted(codes)}"
    # the exit status follows the worst diagnostic: 2 unreadable, 1 errors, 0 warnings only
    severities = {d["severity"] for d in data["diagnostics"]}
    status = 2 if "E005" in codes else 1 if "error" in severities else 0
    assert result.exit_code == status
    assert data["diagnostics"], "every broken file has at least one diagnostic"


def test_many_errors_are_cut_at_20_in_text_but_all_in_json():
    path = rel(ROOT / "tests" / "check" / "invalid" / "many_errors.cards")
    text = check(path).output
    total = len(json.loads(check("--format", "json", path).output)["diagnostics"])
    assert total > 20
    assert len(re.findall(r"^\S+:\d+:\d+: error\[", text, re.M)) == 20
    assert f"… and {total - 20} more in {path}" in text


VALID = sorted((ROOT / "tests" / "check" / "valid").glob("*.cards"))


@pytest.mark.parametrize("path", VALID, ids=[p.stem for p in VALID])
def test_valid_idioms_raise_nothing(path):
    """Files the checker must accept without a word: guards against false alarms of the flow checks."""
    result = check("--format", "json", rel(path))
    assert result.exit_code == 0
    assert json.loads(result.output)["diagnostics"] == []
