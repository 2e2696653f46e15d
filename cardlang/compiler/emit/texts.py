"""Texts shown to players: the generated code works out a text's parts, in order, and a renderer
made here once per text turns those values into (text with card marks, the cards marked) with the
runtime's `ProgramBase.text_part`, as the reference interpreter's `Evaluator.render` does."""

from __future__ import annotations

from .. import ir
from ...lang.types import BOOL, NUMBER, PLAYER, RANK, SUIT
from ...runtime.budget import MAX_TEXT

# The longest a `{…}` part of these types reads (`ProgramBase.text_part`): a number stays within a
# few dozen digits (`runtime/budget.py`), a seat is `P12` or `nobody`; a suit or a rank, its name.
_NUMBER_CHARS, _SEAT_CHARS = 64, 16


def renderer(program, t: ir.Text):
    """`render(s, values)` for the text `t`, `values` being its `{…}` parts worked out in order."""
    pieces = tuple((part, None) if isinstance(part, str) else (None, part.type) for part in t.parts)
    ranking = t.ranking
    part_text = program.text_part

    def render(s, values):
        out, cards = [], []
        values = iter(values)
        for text, type_ in pieces:
            out.append(text if type_ is None else part_text(s, next(values), type_, cards, ranking))
        return "".join(out), tuple(cards)
    return render


def quiet(e, layout, paste: bool) -> bool:
    """Whether working out `e` can break no rule, draw no chance and write no slot, whatever the
    state holds: a constant, a slot, `==` or `!=` of such, a conditional of such, a define of such
    (pasted: its parameters are locals), a text whose parts are such and read as a number, a seat,
    a suit, a rank or a bool (too short together to pass the text budget). Decided from the
    expression's kinds alone: an announcement without a log leaves such parts unworked."""
    if isinstance(e, (ir.Const, ir.Slot)):
        return True
    if isinstance(e, ir.Compare):
        return e.op in ("==", "!=") and quiet(e.left, layout, paste) and quiet(e.right, layout, paste)
    if isinstance(e, ir.Conditional):
        return all(quiet(x, layout, paste) for x in (e.cond, e.then, e.otherwise))
    if isinstance(e, ir.DefineCall):
        return paste and all(quiet(x, layout, paste) for x in e.args) and quiet(e.body, layout, paste)
    if isinstance(e, ir.Text):
        deck = layout.deck
        longest = {NUMBER: _NUMBER_CHARS, PLAYER: _SEAT_CHARS, BOOL: 5,
                   SUIT: max((len(x) for x in deck.suits), default=0) + 4,
                   RANK: max((len(x) for x in deck.ranks), default=0) + 4}
        size = 0
        for part in e.parts:
            if isinstance(part, str):
                size += len(part)
            elif part.type in longest and quiet(part.expr, layout, paste):
                size += longest[part.type]
            else:
                return False
        return size <= MAX_TEXT
    return False
