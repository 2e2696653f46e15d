"""The checker's analyses are total over the statements (issue 26 finding 7, issue 32 finding 1): each
has one case per statement class of the syntax tree, and refuses a statement it was not taught
instead of taking it for one that does nothing (which let `pay` slip past W004).

The statement classes are enumerated from `cardlang.lang.ast`, not listed here: a new statement
class fails these tests until every analysis has a case for it and tests/check/total/ uses it."""

import functools
import re
from pathlib import Path

import pytest

from cardlang.cli.cmd_check import check_files
from cardlang.lang import ast, parse, statements
from cardlang.lang.diagnostics import Span
from cardlang.lang.flow import Flow, hands_over, statement_writes
from cardlang.lang.check import Checker
from cardlang.lang.infoflow import Frame, InfoFlow
from cardlang.lang.nodes import node
from cardlang.lang.nonempty import NonEmpty, may_end, puts_out
from cardlang.lang.statements import UnknownStatement, statement_classes, uncovered
from cardlang.lang.zone_facts import Facts, ZoneFacts
from cardlang.tools import analysis
from cardlang.tools.keywords import _alternatives, _leading_words, _rules, opening_words
from cardlang.lang.parse import grammar_text

ROOT = Path(__file__).resolve().parent.parent
EVERY = ROOT / "tests" / "check" / "total" / "every_statement.cards"

# each analysis's dispatch: (name, the singledispatch function or singledispatchmethod)
DISPATCHES = [
    ("flow.statement_writes", statement_writes),
    ("zone_facts.ZoneFacts._apply", ZoneFacts.__dict__["_apply"]),
    ("zone_facts.ZoneFacts._changes", ZoneFacts.__dict__["_changes"]),
    ("infoflow.InfoFlow._effect", InfoFlow.__dict__["_effect"]),
    # the yes/no questions (issue 32 item 1: they answered "no" for a statement they did not know)
    ("flow.hands_over", hands_over),
    ("nonempty.puts_out", puts_out),
    ("nonempty.may_end", may_end),
    # the blocks nested in a statement, which every walk of the tree follows (it answered [] for a
    # statement it did not know: the walks then skipped what was nested in it)
    ("statements.child_blocks", statements.child_blocks),
]


@node
class Shout(ast.Stmt):
    """A statement no analysis was taught (defined here, outside `cardlang.lang.ast`)."""


def test_the_statement_classes_are_found_in_the_syntax_tree():
    names = {c.__name__ for c in statement_classes()}
    assert {"Pass", "Move", "Choose", "Award", "TellFace", "ForgetOrder"} <= names
    assert "Stmt" not in names and "Shout" not in names
    assert all(issubclass(c, ast.Stmt) for c in statement_classes())


@pytest.mark.parametrize("name, dispatch", DISPATCHES, ids=[d[0] for d in DISPATCHES])
def test_every_analysis_has_a_case_for_every_statement_class(name, dispatch):
    assert uncovered(dispatch) == []


def test_a_dispatch_missing_a_case_is_found():
    @functools.singledispatch
    def effect(st):
        raise UnknownStatement(st, "a test")

    for cls in statement_classes():
        if cls is not ast.Award:
            effect.register(cls)(lambda st: None)
    assert uncovered(effect) == ["Award"]
    effect.register(ast.Stmt)(lambda st: None)  # a case for the base class is no case for a new one
    assert uncovered(effect) == ["Award"]
    with pytest.raises(UnknownStatement, match="a test has no case for the statement `Shout`"):
        effect.dispatch(object)(Shout(_span()))


def _module() -> ast.Module:
    module, diags = parse.parse(EVERY.read_text(encoding="utf-8"), str(EVERY))
    assert diags == []
    return module


def _analyses() -> Checker:
    """A checker that has checked the file using every statement (names and types known)."""
    checker = Checker(_module())
    checker.run()
    return checker


def _span():
    return Span(str(EVERY), 1, 1, 1, 2)


def test_statement_writes_refuses_a_statement_it_was_not_taught():
    checker = _analyses()
    with pytest.raises(UnknownStatement, match="no case for the statement `Shout`"):
        statement_writes(Shout(_span()), checker.sym)


def test_the_zone_facts_refuse_a_statement_they_were_not_taught():
    ne = NonEmpty(_analyses())
    with pytest.raises(UnknownStatement):
        ne._apply(Shout(_span()), Facts(), [{}], {})
    with pytest.raises(UnknownStatement):
        ne._changes(Shout(_span()), [{}], {})
    with pytest.raises(UnknownStatement):  # through the walk of a block, and of a loop's body
        ne._block([Shout(_span())], Facts(), Facts(), [], [{}], {}, True)
    with pytest.raises(UnknownStatement):
        ne._touched([Shout(_span())], [{}], None, {}, set())


def test_the_information_flow_check_refuses_a_statement_it_was_not_taught():
    flow = InfoFlow(_analyses())
    flow.frames = [Frame()]
    with pytest.raises(UnknownStatement):
        flow._stmts([Shout(_span())], {}, frozenset())


def test_the_file_of_every_statement_uses_every_statement_class():
    """So that checking it runs every analysis over every statement class."""
    module = _module()
    used = set()

    def walk(stmts):
        for st in stmts:
            used.add(type(st))
            for body in statements.child_blocks(st):
                walk(body)

    for d in module.decls:
        if isinstance(d, ast.BlockDecl):
            walk(d.body)
    assert [c.__name__ for c in statement_classes() if c not in used] == []


def test_every_analysis_runs_over_the_file_of_every_statement():
    report = check_files([str(EVERY)])
    assert report.diagnostics == []


@pytest.mark.parametrize("question", [hands_over, puts_out, may_end], ids=["hands_over", "puts_out", "may_end"])
def test_the_yes_no_questions_refuse_a_statement_they_were_not_taught(question):
    with pytest.raises(UnknownStatement, match="no case for the statement `Shout`"):
        question(Shout(_span()))


def test_the_blocks_of_a_statement_are_refused_for_a_statement_not_taught():
    with pytest.raises(UnknownStatement, match="statements.child_blocks has no case for the statement `Shout`"):
        statements.child_blocks(Shout(_span()))


def test_the_blocks_of_each_statement_are_its_nested_bodies():
    """Over the file of every statement: a statement with a body gives it, a leaf gives none."""
    seen = {}

    def walk(stmts):
        for st in stmts:
            blocks = statements.child_blocks(st)
            seen.setdefault(type(st).__name__, []).append(len(blocks))
            for body in blocks:
                assert isinstance(body, tuple) and all(isinstance(x, ast.Stmt) for x in body)
                walk(body)

    for d in _module().decls:
        if isinstance(d, ast.BlockDecl):
            walk(d.body)
    nested = {"If", "ForEach", "Repeat", "While", "Choose"}
    assert all(n > 0 for name in nested for n in seen[name])
    assert all(n == 0 for name, ns in seen.items() if name not in nested for n in ns)


def test_the_loop_and_round_walks_refuse_a_statement_they_were_not_taught():
    checker = _analyses()
    flow = Flow(checker)
    with pytest.raises(UnknownStatement):  # E041's "nothing in it chooses or ends"
        flow._exits([Shout(_span())], set())
    ne = NonEmpty(checker)
    with pytest.raises(UnknownStatement):  # what follows a statement that may end is not sure to run
        ne._may_end(Shout(_span()))


# The grammar's statements that begin with an expression (`p says "…"`, `p sits out`, `p chooses:`,
# a phase played): there is no word to offer for them at the start of a line.
_BEGIN_WITH_AN_EXPRESSION = {"say_stmt", "sit_out_stmt", "passes_stmt", "call_stmt", "choose_stmt"}


def _grammar():
    return _rules(re.sub(r"//[^\n]*", "", grammar_text()))


def test_every_declaration_and_statement_of_the_grammar_is_offered_by_the_editor():
    """The LSP's completions at the start of a line come from the grammar (they were typed by hand
    and missed 8 statements and 7 declarations): each declaration and statement rule, and each
    clause of one, gives its opening words, unless it begins with an expression (listed above)."""
    rules = _grammar()
    opening = opening_words()
    for name in _alternatives(rules, "item"):
        assert _leading(rules, name), name  # a declaration always begins with its word
        assert set(_leading(rules, name)) <= set(opening["declaration"]), name
    for name in _alternatives(rules, "small_stmt") + _alternatives(rules, "compound_stmt"):
        if name in _BEGIN_WITH_AN_EXPRESSION:
            assert _leading(rules, name) == [], name
            continue
        assert _leading(rules, name), f"{name} begins with an expression: list it in _BEGIN_WITH_AN_EXPRESSION"
        assert set(_leading(rules, name)) <= set(opening["statement"]), name
    assert {"elif", "else"} <= set(opening["statement"])


def _leading(rules, name) -> list:
    return list(_leading_words(rules, [name]))


def test_the_editor_offers_the_statements_and_declarations_the_hand_typed_lists_missed():
    text = "game \"t\"\n\nplayers 2\nzone deck: pile\nround:\n  pass\n  \n"
    a = analysis.analyse(text, "t.cards")
    top = {c.label for c in analysis.complete(a, 2, 1)}
    inside = {c.label for c in analysis.complete(a, 7, 3)}
    assert {"limit", "values", "melds", "pot", "points", "teams of", "per team var", "score of team",
            "payoff of team"} <= top
    assert {"put", "bets on", "pay", "tell", "forget order of", "reverse direction", "each player",
            "subtract", "elif", "else"} <= inside
    assert "pass" not in top and "game" not in inside
