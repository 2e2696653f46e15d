"""The emitter's optimisation passes, in the order they run: the one list of them (`PASSES`).

Each pass is a module with `NAME` and `run(graph)`, over the op graph of `compiler/emit/graph.py`
(`fusion`, `threading`) or over what the emitter writes from it (`chaining`, `split`, `paste`,
`inline`, `playout`, `rounds`, `quiet`).
Any of them can be switched off to bisect a bug: `cardlang.load(..., passes=...)` or the
environment variable `CARDLANG_PASSES` (docs/engine.md); a game plays the same with any of them.
"""

from __future__ import annotations

import os

from ...lang.diagnostics import CardlangError
from . import chaining, fusion, inline, paste, playout, quiet, rounds, split, threading

PASSES = (fusion, threading, chaining, split, paste, inline, playout, rounds, quiet)
NAMES = tuple(p.NAME for p in PASSES)


def select(passes=None) -> tuple:
    """The names of the passes to run, in order: `passes` is None (then `$CARDLANG_PASSES`, else all),
    a text such as "-fusion,-threading" (all but those), "chaining,paste" (only those), "none" or
    "all", or a collection of names to run."""
    if passes is None:
        passes = os.environ.get("CARDLANG_PASSES")
        if passes is None:
            return NAMES
    if isinstance(passes, str):
        items = [x.strip() for x in passes.split(",") if x.strip()]
        chosen = set(NAMES) if not items or all(x.startswith("-") for x in items) else set()
        for x in items:
            if x in ("all", "none"):
                chosen = set(NAMES) if x == "all" else set()
            elif x.startswith("-"):
                chosen.discard(_known(x[1:]))
            else:
                chosen.add(_known(x.lstrip("+")))
    else:
        chosen = {_known(x) for x in passes}
    return tuple(name for name in NAMES if name in chosen)


def _known(name: str) -> str:
    if name not in NAMES:
        raise CardlangError(message=f"no pass `{name}` (passes: {', '.join(NAMES)})")
    return name


def run(graph, names) -> None:
    """Runs the passes named, in the order of `PASSES`, over the op graph."""
    for p in PASSES:
        if p.NAME in names:
            p.run(graph)
