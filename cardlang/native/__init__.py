"""The native engine's pieces (issue 29): runtime parts compiled to machine code with numba.

numba is optional (`pip install cardlang[native]`); nothing outside this package imports it.
"""


def __getattr__(name):
    """`cardlang.native.playouts` (the batch API: `native.game.playouts`), imported when first used."""
    if name == "playouts":
        from .game import playouts

        return playouts
    raise AttributeError(name)
