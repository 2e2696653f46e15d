"""Texts shown to players: the generated code works out a text's parts, in order, and a renderer
made here once per text turns those values into (text with card marks, the cards marked), as the
reference interpreter's `Evaluator.render` does."""

from __future__ import annotations

from ...lang.check import BOOL, CARD, CARDS, HANDVALUE, ZONE, ZONES
from ...runtime.log import describe, mark
from .. import ir


def renderer(program, t: ir.Text):
    """`render(s, values)` for the text `t`, `values` being its `{…}` parts worked out in order."""
    pieces = tuple((part, None) if isinstance(part, str) else (None, part.type) for part in t.parts)
    ranking = program.layout.rankings[t.ranking][0] if t.ranking is not None else None

    def render(s, values):
        out, cards = [], []
        values = iter(values)
        for text, type_ in pieces:
            if type_ is None:
                out.append(text)
                continue
            value = next(values)
            if type_ == CARD and value is not None:
                out.append(mark(len(cards)))
                cards.append(value)
            elif type_ in (CARDS, ZONE, ZONES):
                ids = (s.zones[value] if type_ == ZONE else [c for z in value for c in s.zones[z]]
                       if type_ == ZONES else value)
                marks = []
                for c in ids:
                    marks.append(mark(len(cards)))
                    cards.append(c)
                out.append(", ".join(marks))
            elif type_ == HANDVALUE and ranking is not None:
                out.append(describe(ranking, value))
            elif type_ == BOOL:
                out.append("true" if value else "false")  # as the language writes them
            else:
                shown = program.value_text(value, type_, None, s)
                if isinstance(shown, list):
                    shown = ", ".join(map(str, shown))
                out.append("none" if shown is None else str(shown))
        return "".join(out), tuple(cards)
    return render
