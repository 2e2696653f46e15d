"""Texts shown to players: the generated code works out a text's parts, in order, and a renderer
made here once per text turns those values into (text with card marks, the cards marked) with the
runtime's `ProgramBase.text_part`, as the reference interpreter's `Evaluator.render` does."""

from __future__ import annotations

from .. import ir


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
