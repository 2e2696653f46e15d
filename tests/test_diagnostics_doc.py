"""docs/diagnostics.md stays in step with the checker: every code it can emit is documented, with an
example file that really raises it and the message the docs quote."""

import re
from pathlib import Path

import pytest

from cardlang.cli.cmd_check import check_files
from cardlang.lang.codes import CODES

ROOT = Path(__file__).resolve().parent.parent
DOC = (ROOT / "docs" / "diagnostics.md").read_text(encoding="utf-8")
SECTIONS = dict(re.findall(r"^### ([EW]\d{3}) — .*?\n(.*?)(?=^### |\Z)", DOC, re.M | re.S))


def emitted_codes() -> set:
    """Codes written as string literals in the package, the way every stage reports them."""
    found = set()
    for path in (ROOT / "cardlang").rglob("*.py"):
        if path.name != "codes.py":
            found |= set(re.findall(r"""["']([EW]\d{3})["']""", path.read_text(encoding="utf-8")))
    return found


def test_the_code_table_the_sources_and_the_docs_agree():
    assert emitted_codes() == set(CODES)
    assert set(SECTIONS) == set(CODES)


def test_headings_give_the_registered_titles():
    for code, title in re.findall(r"^### ([EW]\d{3}) — (.+)$", DOC, re.M):
        assert title == CODES[code]


@pytest.mark.parametrize("code", sorted(CODES))
def test_each_code_has_an_example_and_a_fix(code):
    body = SECTIONS[code]
    assert "Fix:" in body
    quoted = re.findall(r"^(?:error|warning)\[" + code + r"\]: (.+)$", body, re.M)
    assert quoted, f"{code}: the docs quote no message"
    example = re.search(r"^Example: `([^`]+)`", body, re.M)
    if code == "E900":
        assert example is None  # a checker bug: no file raises it on purpose
        return
    assert example, f"{code}: no example file"
    path = ROOT / example[1]
    assert path.is_file()
    found = [d for d in check_files([str(path)]).diagnostics if d.code == code]
    assert found, f"{path.name} does not raise {code}"
    assert quoted[0] in {d.message for d in found}, f"{code}: the docs quote a message the checker does not give"
    severity = "warning" if code.startswith("W") else "error"
    assert all(d.severity == severity for d in found)
