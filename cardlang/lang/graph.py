"""Whole-program checks of the checker: definitions and phases that use themselves (E023), phases
never played (W002), a round with no choice and no end (E026), names never used (W001)."""

from __future__ import annotations

import attrs

from . import ast, statements
from .limits import MAX_WRITTEN_EXPRESSIONS
from .soft_keywords import hard_words


def check_define_cycles(checker) -> None:
    """E023: a definition that names itself, directly or not, would be written out forever."""
    reported: set = set()
    for start in checker.sym.defines:
        if start in reported:
            continue
        stack, seen = [(start, [start])], {start}
        while stack:
            name, path = stack.pop()
            for m in sorted(checker.define_uses.get(name, ())):
                if m == start and start not in reported:
                    reported.update(path)
                    cycle = " → ".join(path + [start])
                    checker.error("E023", f"definition `{start}` uses itself ({cycle})",
                                  checker.sym.defines[start].name_span,
                                  help="a definition stands for its expression, so it cannot name itself; "
                                       "count or repeat with an aggregate, `repeat` or `while` instead")
                elif m not in seen and m in checker.sym.defines:
                    seen.add(m)
                    stack.append((m, path + [m]))


def check_define_sizes(checker) -> None:
    """E009: a definition, or the rules, too long once each definition used is written out where it
    is used (as the compiler does): definitions that each use the next twice double at each level.
    Only for definitions without cycles (E023)."""
    defines = checker.sym.defines
    sizes: dict = {}
    for start in defines:  # each definition after those it uses (no recursion: chains may be long)
        stack = [(start, False)]
        while stack:
            name, ready = stack.pop()
            if name in sizes:
                continue
            uses = [m for m in checker.define_uses.get(name, ()) if m in defines and m not in sizes]
            if ready or not uses:
                sizes[name] = _written(defines[name].body, defines, sizes)
                continue
            stack.append((name, True))
            stack.extend((m, False) for m in uses)
    limit = f"{MAX_WRITTEN_EXPRESSIONS:,}"
    help_ = "a definition is written out where it is used: compute the value once, into a variable, and use that"
    for name, size in sizes.items():
        if size > MAX_WRITTEN_EXPRESSIONS:
            checker.error("E009", f"definition `{name}` stands for {size:,} expressions once the definitions it "
                                  f"uses are written out (the most is {limit})", defines[name].name_span, help=help_)
            return  # (the rules that use it are too long too: one message says it)
    total = sum(_written(d, defines, sizes) for d in checker.module.decls if not isinstance(d, ast.DefineDecl))
    if total > MAX_WRITTEN_EXPRESSIONS:
        checker.error("E009", f"the rules stand for {total:,} expressions once the definitions they use are "
                              f"written out (the most is {limit})", checker.module.decls[0].span, help=help_)


def _written(node, defines: dict, sizes: dict) -> int:
    """The nodes under `node`, each use of a definition counting the expressions it stands for (a
    walk with its own stack: the deepest rules the limits allow are deeper than Python's)."""
    total, stack = 0, [node]
    while stack:
        node = stack.pop()
        if isinstance(node, (tuple, list)):
            stack.extend(node)
            continue
        if not attrs.has(type(node)):
            continue
        total += 1
        if isinstance(node, (ast.Call, ast.Name)):
            name = node.func if isinstance(node, ast.Call) else node.name
            total += sizes.get(name, 0)
        stack.extend(getattr(node, f.name) for f in attrs.fields(type(node))
                     if f.name not in ("span", "func_span", "name_span"))
    return total


def check_phase_graph(checker) -> None:
    """W002 (a phase never played), E023 (a phase that plays itself), E026 (a round that never ends)."""
    s = checker.sym
    reachable: set = set()
    stack = [b for b in (":setup", ":round") if b in checker.calls]
    while stack:
        b = stack.pop()
        for callee in checker.calls.get(b, ()):
            if callee not in reachable:
                reachable.add(callee)
                stack.append(callee)
    for name, d in s.phases.items():
        declared = s.table.get(name)
        if declared is None or declared.decl is not d or name in hard_words():
            continue  # its name is taken (E011) or a keyword (E017): that is the one message
        if name not in reachable:
            checker.warn("W002", f"phase `{name}` is never played", d.name_span,
                         help="name it in `round:`, `setup:` or a phase that is played, or remove it")
    # a phase may not call itself, directly or not: its names live in fixed places
    state: dict = {}

    def visit(n: str, path: list) -> None:
        state[n] = 1
        for m in sorted(checker.calls.get(n, ())):
            if state.get(m) == 1:
                d = s.phases[m]
                cycle = " → ".join(path[path.index(m):] + [m]) if m in path else m
                checker.error("E023", f"phase `{m}` plays itself ({cycle})", d.name_span,
                              help="repeat with `repeat`/`while` instead of a phase that names itself")
            elif m not in state:
                visit(m, path + [m])
        state[n] = 2

    for name in list(checker.calls):
        if name not in state:
            visit(name, [name])
    # a round with no decision and no end would run forever
    if s.round is not None and not _has_decision_or_end(checker, ":round", set()):
        checker.error("E026", "the round has no choice and no `end game`: the game could never end",
                      s.round.span, help="add a `chooses` or an `end game` that the round reaches")


def _has_decision_or_end(checker, block: str, seen: set) -> bool:
    seen.add(block)
    body = checker.sym.round.body if block == ":round" else checker.sym.phases[block].body if block in checker.sym.phases else ()
    if contains(body, (ast.Choose, ast.Betting, ast.EndGame)):
        return True
    return any(c not in seen and _has_decision_or_end(checker, c, seen) for c in checker.calls.get(block, ()))


def check_unused(checker) -> None:
    """W001: a declaration that nothing uses."""
    for name, sym in checker.sym.table.items():
        if sym.kind in ("zone", "pzone", "var", "pvar", "tvar", "option", "define", "points") and not sym.used \
                and sym.span:
            what = checker._what(sym).split(" ", 1)[1]  # "option `x`", not "an option `x`"
            checker.warn("W001", f"{what} `{name.rstrip('()')}` is never used", sym.span,
                         help=f"remove the declaration, or use `{name.rstrip('()')}` in the rules")


def contains(stmts, kinds) -> bool:
    """Whether a block holds a statement of one of `kinds`, at any depth."""
    for st in stmts:
        if isinstance(st, kinds):
            return True
        for child in statements.child_blocks(st):
            if contains(child, kinds):
                return True
    return False
