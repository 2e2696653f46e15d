"""cardlang: a small declarative language for card games, and the interpreter that runs it.

    game = cardlang.load("games/GAME.cards", players=5)
    state = game.new_initial_state(seed=7)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
"""

from .lang.diagnostics import CardlangError, Diagnostic, Span
from .load import check_file, load, parse_file

# The engine is imported when first used, so that `cardlang check` starts without it.
_FROM_ENGINE = {"TERMINAL", "Action", "Game", "IllegalActionError", "RuleError", "State"}


def __getattr__(name: str):
    import importlib

    if name in _FROM_ENGINE:
        value = getattr(importlib.import_module(".runtime.engine", __name__), name)
        globals()[name] = value
        return value
    if not name.startswith("__"):
        try:  # a submodule not imported yet, e.g. `cardlang.runtime`
            return importlib.import_module(f".{name}", __name__)
        except ModuleNotFoundError:
            pass
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

__all__ = [
    "load", "check_file", "parse_file", "Game", "State", "Action", "TERMINAL", "Diagnostic", "Span",
    "CardlangError", "IllegalActionError", "RuleError",
]
__version__ = "0.1.0"
