"""Every diagnostic code cardlang can emit, with a short title (SARIF rules, GitHub titles, the docs).

Codes are stable: a code keeps its meaning once released, and a retired code is never reused.
E001–E009: reading and syntax; E010–E039: names, types and declarations; E040–E059: what the
procedure does (cards, loops, choices); E900: the checker itself failed; W001–W099: warnings.
`docs/diagnostics.md` explains each with an example and a fix; `tests/test_diagnostics_doc.py`
keeps this table, the docs and the codes used in the source in step.
"""

from __future__ import annotations

CODES = {
    "E001": "unexpected token",
    "E002": "unexpected character",
    "E003": "bad indentation",
    "E004": "unexpected end of file",
    "E005": "unreadable file",
    "E006": "nesting too deep",
    "E007": "file outside the root",
    "E008": "number too large",
    "E009": "file too long",
    "E010": "unknown name",
    "E011": "duplicate name",
    "E012": "type mismatch",
    "E013": "wrong number of arguments",
    "E014": "not a function",
    "E015": "option default outside its range",
    "E016": "empty range",
    "E017": "reserved word used as a name",
    "E018": "missing declaration",
    "E019": "bad zone attributes",
    "E020": "bad deck",
    "E021": "unknown rank",
    "E022": "bad hand ranking",
    "E023": "phase or definition uses itself",
    "E024": "not a statement",
    "E025": "bad direction",
    "E026": "round that never ends",
    "E027": "bad variant",
    "E028": "not a variable",
    "E029": "too many players",
    "E030": "bad limit",
    "E031": "bad family of piles",
    "E036": "value that cannot differ between seats",
    "E037": "card not in the deck",
    "E038": "bad melds or card values",
    "E040": "more cards than the deck has",
    "E041": "loop with no way out",
    "E042": "choice that can have no legal option",
    "E043": "pile chosen from something not a family of piles",
    "E048": "decision among the picks of a choice made at once",
    # partnerships (lang/check_teams.py)
    "E044": "teams that do not divide the players",
    "E045": "team used without teams",
    "E046": "partner outside teams of two",
    "E047": "team variable given a player",
    # pots and betting (lang/check_pots.py)
    "E052": "pot without stacks",
    "E053": "not a pot",
    "E054": "pot or betting attribute twice",
    "E055": "stacks changed outside the pot",
    "E056": "zone facing away but shared",
    "E057": "tell of something not a suit or a rank",
    "E058": "tell which cards are something not a suit or a rank",
    "E059": "break outside a loop",
    "E060": "cards put in a zone of groups other than by lay",
    "E900": "internal checker error",
    "W001": "unused declaration",
    "W002": "unreachable phase",
    "W003": "statement with no effect",
    "W004": "hidden card made public",
    "W005": "choice the checker cannot decide",
    "W007": "pick of a choice made at once never used",
    "W006": "payoff by seat in a game with teams",
    "W008": "pot never paid out",
    "W009": "forgetting the order of a public zone",
    "W010": "control or invisible character in a text",
}


def title(code: str) -> str:
    """The short title of a code (the code itself when unknown, so rendering never fails)."""
    return CODES.get(code, code)
