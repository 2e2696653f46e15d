"""What makes a checker analysis total over the statements: one case per statement class of the
syntax tree (a `functools.singledispatch` function or method), and a default that refuses a
statement it has no case for. A new statement class thus stops every analysis that has not been
taught it, instead of being taken for one that does nothing (tests/test_analyses_total.py runs each
analysis over every class `statement_classes()` lists)."""

from __future__ import annotations

import functools

from . import ast
from .ast import UnknownStatement  # (defined with the tree: `ast.child_blocks` refuses too)


def statement_classes() -> list:
    """Every statement class of the syntax tree (`cardlang.lang.ast`), in name order."""
    found, todo = set(), [ast.Stmt]
    while todo:
        for sub in todo.pop().__subclasses__():
            if sub not in found:
                found.add(sub)
                todo.append(sub)
    return sorted((c for c in found if c.__module__ == ast.__name__), key=lambda c: c.__name__)


def cases(dispatch) -> set:
    """The classes a `singledispatch` function or `singledispatchmethod` has a case of its own for."""
    dispatcher = getattr(dispatch, "dispatcher", dispatch)  # a singledispatchmethod wraps one
    return {cls for cls in dispatcher.registry if cls is not object}


def uncovered(dispatch) -> list:
    """The statement classes a dispatch has no case of its own for (a subclass does not inherit one)."""
    have = cases(dispatch)
    return [c.__name__ for c in statement_classes() if c not in have]



def question(name: str, yes: tuple, no: tuple):
    """A yes/no question about a statement's own class (not what is nested in it), answered "yes"
    for the classes in `yes`, "no" for those in `no`, and refused (`UnknownStatement`) for any
    other: a `singledispatch` function, so `uncovered` names a class it was not given an answer for."""
    @functools.singledispatch
    def ask(st) -> bool:
        raise UnknownStatement(st, name)

    for cls in yes:
        ask.register(cls)(lambda st: True)
    for cls in no:
        ask.register(cls)(lambda st: False)
    return ask
