"""cardlang: a small declarative language for card games, and the interpreter that runs it.

    game = cardlang.load("games/GAME.cards", players=5)
    state = game.new_initial_state(seed=7)
    while not state.is_terminal():
        state.apply(state.legal_actions()[0])
"""

from .diagnostics import CardlangError, Diagnostic, Span
from .engine import TERMINAL, Action, Game, IllegalActionError, RuleError, State
from .load import check_file, load, parse_file

__all__ = [
    "load", "check_file", "parse_file", "Game", "State", "Action", "TERMINAL", "Diagnostic", "Span",
    "CardlangError", "IllegalActionError", "RuleError",
]
__version__ = "0.1.0"
