"""Variants: a file that `extends` others is merged with them before it is checked.

A variant keeps everything of its base and replaces, by name, what it declares again: an option (to
change its default or range), a phase, the setup or the round, the deck, the title. New zones,
variables, orders and definitions are added. Changing an option the base does not have, or a phase
that neither the base has nor the variant itself plays, is an error (E027): it is almost always a typo.
Several bases merge left to right; each contributes only what its own file declares.
"""

from __future__ import annotations

import os
from typing import Callable, Optional

from . import ast, statements
from .diagnostics import Diagnostic
from .files import locate_base, roots_for

_SINGLE = (ast.GameDecl, ast.AboutDecl, ast.PlayersDecl, ast.DirectionDecl, ast.DeckDecl, ast.ScoreDecl,
           ast.LimitDecl, ast.PayoffDecl, ast.MeldsDecl)


def _key(d) -> Optional[tuple]:
    if isinstance(d, _SINGLE):
        return (type(d).__name__,)
    if isinstance(d, ast.BlockDecl):
        return ("block", d.name) if d.kind == "phase" else (d.kind,)
    name = getattr(d, "name", None)
    return ("name", name) if name is not None else None


def _called(decls) -> set:
    names: set = set()

    def walk(stmts):
        for st in stmts:
            if isinstance(st, ast.CallPhase):
                names.add(st.name)
            for child in statements.child_blocks(st):
                walk(child)
    for d in decls:
        if isinstance(d, ast.BlockDecl):
            walk(d.body)
    return names


def _merge(base: list, own: list, diagnostics: list, check_names: bool) -> list:
    merged = list(base)
    index = {_key(d): i for i, d in enumerate(merged) if _key(d) is not None}
    called = _called(own)
    for d in own:
        if isinstance(d, ast.ExtendsDecl):
            continue
        k = _key(d)
        if k in index:
            merged[index[k]] = d
            continue
        if check_names and isinstance(d, ast.OptionDecl):
            diagnostics.append(Diagnostic("E027", "error", f"this variant changes option `{d.name}`, which its base does not have",
                                          d.name_span, help="a variant can change only the options its base declares"))
            continue
        if check_names and isinstance(d, ast.BlockDecl) and d.kind == "phase" and d.name not in called:
            diagnostics.append(Diagnostic("E027", "error", f"this variant replaces phase `{d.name}`, which its base does not have",
                                          d.name_span, help="check the phase's name in the base file"))
            continue
        index[k] = len(merged)
        merged.append(d)
    return merged


def resolve(module: ast.Module, load_module: Callable[[str], tuple], roots: Optional[tuple] = None,
            _seen: tuple = (), _done: Optional[dict] = None) -> tuple:
    """The module with every `extends` merged in, and the diagnostics of the files it names.

    A base must lie inside `roots` (see `files.roots_for`; by default the module's own folder): the
    path is checked before the base is opened, and a base outside is never read. Each base is
    resolved once however many files name it (`_done`: path -> merged base), and its diagnostics are
    reported once: files that each extend the next one twice would otherwise cost 2^n merges."""
    extends = [d for d in module.decls if isinstance(d, ast.ExtendsDecl)]
    if not extends:
        return module, []
    if roots is None:
        roots, _ = roots_for(module.path, _cache={})
    if _done is None:
        _done = {}
    diagnostics: list = []
    merged: Optional[list] = None
    for decl in extends:
        for path, span in decl.paths:
            full, refused = locate_base(module.path, path, span, roots)
            if refused is not None:
                diagnostics.append(refused)
                continue
            if full in _seen or full == os.path.normpath(module.path):
                diagnostics.append(Diagnostic("E027", "error", f"`{path}` extends itself, through this file", span))
                continue
            if full in _done:  # resolved already, its diagnostics reported: only merged again
                own, base = _done[full]
            else:
                base, base_diags = load_module(full)
                diagnostics.extend(base_diags)
                if base is not None:
                    own = list(base.decls)
                    base, more = resolve(base, load_module, roots, _seen + (os.path.normpath(module.path),), _done)
                    diagnostics.extend(more)
                _done[full] = (own if base is not None else None, base)
            if base is None:
                continue
            merged = list(base.decls) if merged is None else _merge(merged, own, diagnostics, check_names=False)
    if merged is None:
        return module, diagnostics
    merged = _merge(merged, list(module.decls), diagnostics, check_names=True)
    return ast.Module(module.path, module.source, tuple(merged)), diagnostics
