"""`cardlang check` through click's CliRunner: formats, exit codes, folders, paths, colour."""

import json
import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from cardlang.cli import main
from cardlang.lang.codes import CODES

ROOT = Path(__file__).resolve().parent.parent
GAME = (ROOT / "games" / "coucou.cards").read_text(encoding="utf-8")
TALOM = GAME.replace("move all cards to talon", "move all cards to talom")
HEADER = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): (?P<sev>error|warning)\[(?P<code>[EW]\d{3})\]: (?P<msg>.+)$")


def check(*args, env=None):
    return CliRunner().invoke(main, ["check", *args], env=env)


@pytest.fixture
def tree(tmp_path, monkeypatch):
    """A working directory with a valid game, a broken one, a variant and a warning, some nested."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("NO_COLOR", raising=False)
    (tmp_path / "rules" / "deep").mkdir(parents=True)
    (tmp_path / "rules" / "good.cards").write_text(GAME, encoding="utf-8")
    (tmp_path / "rules" / "deep" / "bad.cards").write_text(TALOM, encoding="utf-8")
    (tmp_path / "rules" / "deep" / "notes.txt").write_text("not a rule file")
    (tmp_path / "warn.cards").write_text(GAME.replace("zone talon: pile, hidden", "zone talon: pile, hidden\nzone spare: pile"),
                                         encoding="utf-8")
    return tmp_path


# ------------------------------------------------------------------ exit codes
def test_every_game_and_example_is_clean():
    result = check("-q", str(ROOT / "games"), str(ROOT / "examples"))
    assert result.exit_code == 0, result.output
    assert "error[" not in result.output


def test_exit_0_when_valid_1_on_errors_and_warnings_pass_unless_strict(tree):
    assert check("rules/good.cards").exit_code == 0
    assert check("rules/deep/bad.cards").exit_code == 1
    warned = check("warn.cards")
    assert warned.exit_code == 0 and "warning[W001]" in warned.output
    assert check("--strict", "warn.cards").exit_code == 1
    assert check("--strict", "rules/good.cards").exit_code == 0


def test_exit_2_for_a_missing_path_and_for_a_folder_without_rule_files(tree):
    missing = check("rules/good.cards", "no/such.cards")
    assert missing.exit_code == 2 and "no/such.cards" in missing.output
    (tree / "empty").mkdir()
    assert check("empty").exit_code == 2


def test_exit_2_for_unreadable_input(tree):
    (tree / "blob.cards").write_bytes(b"\x00\x01\x02")
    (tree / "latin1.cards").write_bytes('game "Café"\n'.encode("latin-1"))
    for name in ("blob.cards", "latin1.cards"):
        result = check(name)
        assert result.exit_code == 2
        assert "error[E005]" in result.output and "Traceback" not in result.output


def test_a_folder_means_its_cards_files_recursively_in_order(tree):
    (tree / "rules" / ".hidden").mkdir()
    (tree / "rules" / ".hidden" / "skipped.cards").write_text(TALOM, encoding="utf-8")
    data = json.loads(check("--format", "json", "rules").output)
    assert data["files"] == ["rules/deep/bad.cards", "rules/good.cards"]
    assert {d["file"] for d in data["diagnostics"]} == {"rules/deep/bad.cards"}


def test_usage_is_explained():
    result = check("--help")
    assert result.exit_code == 0
    for word in ("--format", "text|json|github|sarif", "--strict", "Exit status"):
        assert word in result.output


# ------------------------------------------------------------------ text
def test_text_is_editor_line_then_rustc_block(tree):
    out = check("--color", "never", "rules/deep/bad.cards").output.splitlines()
    head = HEADER.match(out[0])
    assert head, out[0]
    assert head["file"] == "rules/deep/bad.cards" and head["code"] == "E010"
    line, col = int(head["line"]), int(head["col"])
    assert out[1].strip() == f"--> rules/deep/bad.cards:{line}:{col}"
    source = TALOM.splitlines()[line - 1]
    shown = next(x for x in out if x.startswith(f"{line} | "))
    assert shown == f"{line} | {source}"  # the line as written
    carets = out[out.index(shown) + 1]
    gutter = len(f"{line} | ")
    assert carets[gutter + col - 1:] == "^" * len("talom")  # under the whole span
    assert any(x.strip() == "= help: did you mean `talon`?" for x in out)
    assert out[-1] == "1 error, 0 warnings in 1 file"


def test_text_keeps_tabs_so_that_carets_line_up(tree):
    (tree / "tab.cards").write_text(TALOM.replace("move all cards to talom", "move all cards to\ttalom"),
                                    encoding="utf-8")
    out = check("--color", "never", "tab.cards").output.splitlines()
    shown = next(i for i, x in enumerate(out) if x.endswith("    move all cards to\ttalom"))
    assert out[shown + 1].endswith("| " + " " * len("    move all cards to") + "\t^^^^^")


def test_text_says_ok_for_valid_files_unless_quiet(tree):
    out = check("rules").output
    assert "rules/good.cards: ok" in out
    assert "rules/good.cards" not in check("-q", "rules").output


def test_colour_on_request_or_terminal_only_and_never_with_no_color(tree):
    assert "\x1b[" in check("--color", "always", "rules/deep/bad.cards").output
    assert "\x1b[" not in check("rules/deep/bad.cards").output  # CliRunner is not a terminal
    assert "\x1b[" not in check("--color", "never", "rules/deep/bad.cards").output
    from cardlang.cli.cmd_check import _use_color

    os.environ["NO_COLOR"] = "1"
    try:
        assert _use_color("auto") is False
    finally:
        del os.environ["NO_COLOR"]


def test_paths_are_relative_to_the_working_directory(tree):
    absolute = str(tree / "rules" / "deep" / "bad.cards")
    out = check("--color", "never", absolute).output
    assert out.startswith("rules/deep/bad.cards:")
    os.chdir(tree / "rules")
    data = json.loads(check("--format", "json", "deep/../deep/bad.cards").output)
    assert data["files"] == ["deep/bad.cards"]


def test_a_broken_base_is_reported_once_when_its_variant_is_checked_too(tree):
    (tree / "variant.cards").write_text('game "V"\nextends "rules/deep/bad.cards"\n', encoding="utf-8")
    data = json.loads(check("--format", "json", "rules/deep/bad.cards", "variant.cards").output)
    unknown = [d for d in data["diagnostics"] if d["code"] == "E010"]
    assert len(unknown) == 1 and unknown[0]["file"] == "rules/deep/bad.cards"


# ------------------------------------------------------------------ json
def test_json_shape_is_stable_and_positions_are_1_based(tree):
    result = check("--format", "json", "rules", "warn.cards")
    assert result.exit_code == 1
    data = json.loads(result.output)
    assert set(data) == {"files", "diagnostics"}
    assert data["files"] == ["rules/deep/bad.cards", "rules/good.cards", "warn.cards"]
    keys = {"code", "severity", "message", "file", "line", "column", "end_line", "end_column", "help"}
    for d in data["diagnostics"]:
        assert set(d) == keys
        assert d["code"] in CODES and d["severity"] in ("error", "warning")
    talom = next(d for d in data["diagnostics"] if d["code"] == "E010")
    line = TALOM.splitlines()[talom["line"] - 1]
    assert line[talom["column"] - 1: talom["end_column"] - 1] == "talom"
    assert talom["help"] == "did you mean `talon`?"
    spare = next(d for d in data["diagnostics"] if d["code"] == "W001")
    assert spare["severity"] == "warning" and spare["file"] == "warn.cards"


# ------------------------------------------------------------------ github
def test_github_annotations(tree):
    result = check("--format", "github", "rules", "warn.cards")
    lines = result.output.splitlines()
    assert len(lines) == 2
    error, warning = lines
    m = re.fullmatch(r"::error file=rules/deep/bad\.cards,line=(\d+),col=(\d+),endLine=(\d+),endColumn=(\d+),"
                     r"title=E010 unknown name::(.*)", error)
    assert m, error
    line, col, end_line, end_col = map(int, m.groups()[:4])
    assert end_line == line and end_col == col + len("talom") - 1  # inclusive end, as GitHub reads it
    assert m[5] == "unknown name `talom`%0Ahelp: did you mean `talon`?"  # newlines escaped
    assert warning.startswith("::warning file=warn.cards,")


def test_github_escapes_commas_and_colons_in_properties(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a,b:c.cards").write_text(TALOM, encoding="utf-8")
    out = check("--format", "github", "a,b:c.cards").output
    assert "file=a%2Cb%3Ac.cards," in out


# ------------------------------------------------------------------ sarif
def test_sarif_has_one_rule_per_code_and_results_that_point_at_them(tree):
    result = check("--format", "sarif", "rules", "warn.cards")
    data = json.loads(result.output)
    assert data["version"] == "2.1.0" and "sarif-2.1.0" in data["$schema"]
    (run,) = data["runs"]
    rules = run["tool"]["driver"]["rules"]
    ids = [r["id"] for r in rules]
    assert len(ids) == len(set(ids)) and set(CODES) <= set(ids)
    for r in rules:
        assert r["shortDescription"]["text"] and r["defaultConfiguration"]["level"] in ("error", "warning")
    assert {a["location"]["uri"] for a in run["artifacts"]} == {"rules/deep/bad.cards", "rules/good.cards", "warn.cards"}
    levels = sorted(r["level"] for r in run["results"])
    assert levels == ["error", "warning"]
    for res in run["results"]:
        assert rules[res["ruleIndex"]]["id"] == res["ruleId"]
        region = res["locations"][0]["physicalLocation"]["region"]
        assert region["startLine"] >= 1 and region["startColumn"] >= 1
        assert (region["endLine"], region["endColumn"]) > (region["startLine"], region["startColumn"])
