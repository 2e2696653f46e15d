"""The kinds of Python text the emitter hands from method to method, as types rather than strings
it would inspect: a name (read again without working anything out), a local of the unit, a
constant bound in the program's namespace, a non-negative number written in.

They are `str`s (an expression is written into the next with an f-string, as before); a method
that must know what it was given asks its type (`isinstance(value, Name)`), never its text.
"""

from __future__ import annotations

import re


class Name(str):
    """A plain Python name: read again, it works nothing out."""

    __slots__ = ()


class Local(Name):
    """A local of the generated function (a temporary, or the value of a slot it holds): a helper
    function of the unit takes the locals that hold slots as parameters (`Writer.params`)."""

    __slots__ = ()


class Global(Name):
    """A constant or a function bound by name in the program's namespace (`Namespace.bind`)."""

    __slots__ = ()


class Number(str):
    """A non-negative int written in (a slot's index, a seat, a zone id): nothing to work out, never none."""

    __slots__ = ()


_NOT_NAME = re.compile(r"[^A-Za-z0-9_]+")


def identifier(text: str, fallback: str = "x") -> str:
    """`text` made a plain ASCII identifier part (a rule's name, a function's): each run of other
    characters one `_`, never empty, never starting with a digit."""
    out = _NOT_NAME.sub("_", text).strip("_") or fallback
    return out if not out[0].isdigit() else f"n{out}"
