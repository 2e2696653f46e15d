"""Action ids and the pending decision: the two small types every engine, bot and tool shares.

An action id is one int: the index of the alternative of the pending `chooses` in its high bits,
the value chosen in the low 16 (a card id, a number, 0 for an option), so that legal actions are a
tuple of ints, cheap to build, compare, hash and save. `action_id`, `alt_of` and `value_of` build
and read one; `with_value` keeps the alternative and puts another value (a card dealt into the
same place). Nothing else should shift or mask an action id.

`Pending` is the decision a state waits for: which choice of the game (`choice`, its index among
the game's `chooses`), which seat decides (`player`) and the legal action ids (`legal`). It is a
`NamedTuple`, so it is still a plain tuple (compared, copied and saved as one); hot code builds it
with `new_pending((choice, player, legal))`, which skips the Python-level `__new__` of a named tuple
(the compiled engine leaves the plain tuple itself at a decision: `State.pending` makes it one).
"""

from __future__ import annotations

from functools import partial
from typing import NamedTuple

VALUE_BITS = 16
VALUE_MASK = (1 << VALUE_BITS) - 1  # the value part of an action id
MAX_VALUE = VALUE_MASK  # the largest value a choice may offer (`chooses a number from 0 to 65535`)
ALT_MASK = ~VALUE_MASK  # the alternative part of an action id, as a mask


def action_id(alt: int, value: int = 0) -> int:
    """The id of the action that picks `value` in alternative `alt` of a choice."""
    return alt << VALUE_BITS | value


def alt_of(a: int) -> int:
    """The index of the alternative an action id belongs to."""
    return a >> VALUE_BITS


def value_of(a: int) -> int:
    """The value an action id picks (a card id, a number; 0 for an option)."""
    return a & VALUE_MASK


def with_value(a: int, value: int) -> int:
    """The action of the same alternative as `a` that picks `value` instead."""
    return (a & ALT_MASK) | value


class Pending(NamedTuple):
    """The decision a state waits for: the choice's index, the seat deciding, the legal action ids."""

    choice: int
    player: int
    legal: tuple


# `Pending(c, p, legal)` runs a Python-level `__new__`; this is the same tuple built in C (hot paths)
new_pending = partial(tuple.__new__, Pending)
