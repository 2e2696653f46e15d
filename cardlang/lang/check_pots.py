"""The checks of pots and betting: `pot` declarations, `put n from p into pot`, `bets on pot from p: …`,
`pay pot to highest p by …`, and the expressions `pot`, `pot(p)` and `contenders(pot)`.

Kept apart from `check.py` so the checker's core stays small; each function takes the `Checker`.
Codes: E052 (a pot's stacks), E053 (not a pot), E054 (an attribute twice, or both kinds of raise),
E055 (stacks changed outside `setup`), W008 (a pot never paid out).
"""

from __future__ import annotations

from . import ast, statements
from .diagnostics import did_you_mean
from .types import ANY, HANDVALUE, LIST, NUMBER, PLAYER, PLAYERS
STATEMENTS = (ast.PutIn, ast.Betting, ast.Award)
FUNCTIONS = ("contenders",)


def collect(checker, d: ast.PotDecl, symbol) -> None:
    """Declares a pot (its name is the chips in it, a number)."""
    checker.sym.pots[d.name] = d
    checker._declare(d.name, symbol("pot", NUMBER, d, d.name_span), d.name_span)
    _once(checker, d.attributes, f"pot `{d.name}`")


def _once(checker, attributes, what: str) -> None:
    seen = set()
    for word, span in attributes:
        if word in seen:
            checker.error("E054", f"{what} says `{word}` twice", span, help="say it once")
        seen.add(word)


def validate(checker) -> None:
    """E052 (stacks), the odd-chips rule's type, E055 (stacks changed by a rule), W008 (never paid out)."""
    s = checker.sym
    for d in s.pots.values():
        sym = s.pvars.get(d.stacks) if d.stacks else None
        if d.stacks in s.table:
            s.table[d.stacks].used = True  # (named, even if wrongly: E052 is the one message)
        if d.stacks is None:
            checker.error("E052", f"pot `{d.name}` does not say whose chips go into it", d.name_span,
                          help="add `stacks chips`, naming a per-player variable that holds each player's chips")
        elif sym is None or sym.type not in (NUMBER, ANY):
            checker.error("E052", f"the stacks of pot `{d.name}` must be a per-player variable holding a number, "
                          f"not `{d.stacks}`", d.stacks_span,
                          help=did_you_mean(d.stacks, s.pvars) or "declare e.g. `per player var chips = 100`")
        else:
            sym.used = True
        if d.odd is not None:
            checker.scopes = [{}]
            checker.expect(d.odd, (PLAYER,), "who takes the odd chips first")
    stacks = {d.stacks: d for d in s.pots.values() if d.stacks}
    for block in [s.round, *s.phases.values()]:
        if block is not None:
            _writes(checker, block.body, stacks)
    awarded = set()
    for block in [s.setup, s.round, *s.phases.values()]:
        if block is not None:
            _awards(block.body, awarded)
    for d in s.pots.values():
        if d.name not in awarded:
            checker.warn("W008", f"pot `{d.name}` is never paid out: the chips put into it stay there", d.name_span,
                         help=f"share it out with `pay {d.name} to highest p by …`")


def _writes(checker, stmts, stacks: dict) -> None:
    for st in stmts:
        if isinstance(st, (ast.Set, ast.Add)) and st.target.name in stacks and st.target.kind != "name":
            pot = stacks[st.target.name].name
            checker.error("E055", f"`{st.target.name}` holds the stacks of pot `{pot}`: outside `setup`, chips move "
                          f"only through the pot", st.span,
                          help=f"put chips in with `put n from p into {pot}`, take them out with `pay {pot} to highest p by …`")
        for child in statements.child_blocks(st):
            _writes(checker, child, stacks)


def _awards(stmts, out: set) -> None:
    for st in stmts:
        if isinstance(st, ast.Award):
            out.add(st.pot)
        for child in statements.child_blocks(st):
            _awards(child, out)


def _pot(checker, name: str, span) -> bool:
    """Whether `name` names a pot (E053 if not)."""
    sym = checker._find(name)
    if sym is not None:
        sym.used = True  # (named, even if wrongly: E053 is the one message)
    if sym is not None and sym.kind == "pot":
        return True
    checker.error("E053", f"`{name}` is not a pot", span,
                  help=did_you_mean(name, checker.sym.pots) or "declare one: `pot pot: stacks chips`")
    return False


def stmt(checker, st) -> None:
    """Checks `put`, `bets on` and `pay`."""
    if isinstance(st, ast.PutIn):
        checker.expect(st.amount, (NUMBER,), "how many chips")
        checker.expect(st.player, (PLAYER,), "who puts chips in")
        _pot(checker, st.pot, st.pot_span)
    elif isinstance(st, ast.Betting):
        _pot(checker, st.pot, st.pot_span)
        checker.expect(st.first, (PLAYER,), "who starts the betting")
        _once(checker, st.attributes, "a betting round")
        if st.minimum is not None and st.fixed is not None:
            checker.error("E054", "a betting round has either a `minimum raise` (no limit) or `raises of` a fixed "
                          "size (limit), not both", st.span, help="keep one of them")
        if st.blinds is not None:
            checker.expect(st.blinds, (LIST,), "the blinds")
        for e, what in ((st.minimum, "the minimum raise"), (st.fixed, "the size of a raise"),
                        (st.cap, "the most raises")):
            if e is not None:
                checker.expect(e, (NUMBER,), what)
    else:
        _pot(checker, st.pot, st.pot_span)
        checker.scopes.append({})
        checker.bind(st.var, PLAYER, st.var_span)
        checker.expect(st.value, (NUMBER, HANDVALUE), "what decides who wins the pot")
        checker.scopes.pop()


def call(checker, e: ast.Call, sym) -> str:
    """The type of `pot(p)` (what p has put in) when `sym` is a pot."""
    if len(e.args) != 1:
        checker.error("E013", f"`{e.func}(…)` takes one player", e.span)
        for a in e.args:
            checker.type_of(a)
        return NUMBER
    checker.expect(e.args[0], (PLAYER,), f"whose chips in `{e.func}`")
    return NUMBER


def function(checker, e: ast.Call) -> str:
    """The type of `contenders(pot)`: the players still in for the pot."""
    if len(e.args) != 1 or not isinstance(e.args[0], ast.Name):
        checker.error("E053", "`contenders(…)` takes the name of a pot", e.span)
        for a in e.args:
            checker.type_of(a)
        return PLAYERS
    _pot(checker, e.args[0].name, e.args[0].span)
    checker.sym.types[id(e.args[0])] = NUMBER
    return PLAYERS
