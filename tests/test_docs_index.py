"""The index from docs/language.md to the tests (issue 32): every section of the page begins with a
`Tests:` line, and every test it names exists, so that a newcomer finds the test of a rule from
its section."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "language.md"


def sections() -> dict:
    """Each `##`/`###` heading of the page -> the tests its `Tests:` line names (None: no such line)."""
    out, heading, fence = {}, None, False
    for line in PAGE.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fence = not fence
        if fence:
            continue
        if re.match(r"#{2,3} ", line):
            heading = line
            out[heading] = None
        elif heading is not None and out[heading] is None and line.strip():
            out[heading] = re.findall(r"`(tests/[\w/]+\.py)::(\w+)`", line) if line.startswith("Tests: ") else []
            heading = None
    return out


def test_every_section_of_the_language_page_names_its_tests():
    found = sections()
    assert len(found) >= 16
    for heading, tests in found.items():
        assert tests, f"{heading!r} begins with no `Tests:` line naming tests"


def test_every_test_the_index_names_exists():
    defined: dict = {}
    for heading, tests in sections().items():
        for path, name in tests or ():
            if path not in defined:
                tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
                defined[path] = {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}
            assert name in defined[path], f"{heading}: {path}::{name} does not exist"
    assert len(defined) >= 10
