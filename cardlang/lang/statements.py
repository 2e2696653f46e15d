"""What makes a checker analysis total over the statements: one case per statement class of the
syntax tree (a `functools.singledispatch` function or method), and a default that refuses a
statement it has no case for. A new statement class thus stops every analysis that has not been
taught it, instead of being taken for one that does nothing (tests/test_analyses_total.py runs each
analysis over every class `statement_classes()` lists)."""

from __future__ import annotations

import functools

from . import ast


# ------------------------------------------------------------- the blocks in a statement
class UnknownStatement(TypeError):
    """A statement an analysis has no case for: a new statement class it was not taught."""

    def __init__(self, st, analysis: str):
        super().__init__(f"{analysis} has no case for the statement `{type(st).__name__}`: "
                         f"teach it what this statement does (cardlang/lang/statements.py)")
        self.statement = st


@functools.singledispatch
def child_blocks(st) -> list:
    """The statement lists nested directly in a statement (branches, loop bodies, alternatives); a
    statement class it has no case for is refused (`UnknownStatement`), never taken for a leaf."""
    raise UnknownStatement(st, "statements.child_blocks")


@child_blocks.register
def _(st: ast.If) -> list:
    return [b for _, b in st.branches] + [st.orelse]


@child_blocks.register(ast.ForEach)
@child_blocks.register(ast.Repeat)
@child_blocks.register(ast.While)
def _(st) -> list:
    return [st.body]


@child_blocks.register
def _(st: ast.Choose) -> list:
    return [a.body for a in st.alternatives]


for _leaf in (ast.Pass, ast.Passes, ast.Set, ast.Let, ast.Add, ast.Move, ast.Lay, ast.Deal, ast.Shuffle, ast.Swap,
              ast.Reveal, ast.Hide, ast.TellFace, ast.TellWhich, ast.ForgetOrder, ast.Announce, ast.Reverse,
              ast.SetDirection, ast.Break, ast.Eliminate, ast.EndGame, ast.EndRound, ast.CallPhase, ast.PutIn,
              ast.Betting, ast.Award):
    child_blocks.register(_leaf)(lambda st: [])  # (a statement with no block inside)
del _leaf


def statement_classes() -> list:
    """Every statement class of the syntax tree (`cardlang.lang.ast`), in name order."""
    found, todo = set(), [ast.Stmt]
    while todo:
        for sub in todo.pop().__subclasses__():
            if sub not in found:
                found.add(sub)
                todo.append(sub)
    # (the module's own name for it: attrs makes a slotted class anew, and the class it was made
    # from stays a subclass until the garbage collector takes it, a class no analysis registered)
    return sorted((c for c in found if c.__module__ == ast.__name__ and getattr(ast, c.__name__, None) is c),
                  key=lambda c: c.__name__)


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
