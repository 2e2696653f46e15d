"""The compiled engine's optimisations, by name, in one list (`NAMES`): three graph passes and seven
switches of the emitter.

A graph pass is a module with `NAME` and `run(graph)` that rewrites the op graph of
`compiler/emit/graph.py` (`fusion`, `threading`) or records what the emitter reads from it
(`split`); they run in the order of `PASSES`. The other names are the emitter's switches, fields
of the frozen `emit.options.Options` it is given (`chaining`, `paste`, `inline`, `playout`,
`rounds`, `quiet`, `frames`: documented there).
Any of them can be switched off to bisect a bug: `cardlang.load(..., passes=...)` or the
environment variable `CARDLANG_PASSES` (docs/engine.md); a game plays the same with any of them.
"""

from __future__ import annotations

import os

from ...lang.diagnostics import CardlangError
from . import fusion, split, threading

PASSES = (fusion, threading, split)  # the graph passes, in the order they run
NAMES = ("fusion", "threading", "chaining", "split", "paste", "inline", "playout", "rounds", "quiet", "frames")


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
    """Runs the graph passes named, in the order of `PASSES`, over the op graph (the switches named
    are the emitter's `Options.of(names)`)."""
    for p in PASSES:
        if p.NAME in names:
            p.run(graph)
