"""An announcement's parts without a log (`emit/texts.py` `quiet`): a part that can break no rule,
draw nothing and write nothing is worked out only when a log shows the text; any other part is
worked out whether or not one does, as the reference interpreter works out every part."""

from __future__ import annotations

import textwrap

import pytest

import cardlang
from cardlang import RuleError
from cardlang.compiler.emit.texts import quiet

GAME = """\
game "Parts"
players 2
deck standard
zone hand: per player, private
var x = 0
var who: player = none
var note = "a note"

define each(n: number) = "{n} card" if n == 1 else "{n} cards"

round:
    announce "{each(x)}, {who}, {x == 1}"
    announce "{x + 1} and {note}"
    announce "{10 / (x - 2)}"
    top of players chooses "go":
        add 1 to x
        if x == 3:
            end game
"""


def load(tmp_path, engine: str = "compiled"):
    path = tmp_path / "game.cards"
    path.write_text(textwrap.dedent(GAME), encoding="utf-8")
    return cardlang.load(str(path), players=2, engine=engine)


def announced(g) -> list:
    return [st for st in g.program.ir.round if type(st).__name__ == "Announce"]


def test_a_define_s_text_of_slots_a_seat_and_a_comparison_are_quiet_and_sums_texts_and_divisions_are_not(tmp_path):
    g = load(tmp_path)
    layout = g.program.layout
    first, second, third = (st.text for st in announced(g))
    assert all(quiet(part.expr, layout, True) for part in first.parts if not isinstance(part, str))
    assert not quiet(first.parts[0].expr, layout, False)  # (a define not pasted writes its parameter's slot)
    plus, note = (part for part in second.parts if not isinstance(part, str))
    assert not quiet(plus.expr, layout, True)  # (a sum: not decided from its kinds)
    assert quiet(note.expr, layout, True)  # (a slot, read where it is used)
    wrapped = type(first)(span=first.span, parts=("[", type(first.parts[0])(expr=note.expr, type="text"), "]"),
                          ranking=None)
    assert not quiet(wrapped, layout, True)  # (a text inside a text may pass the text budget)
    division, = (part for part in third.parts if not isinstance(part, str))
    assert not quiet(division.expr, layout, True)


@pytest.mark.parametrize("engine", ["compiled", "reference"])
def test_a_part_that_breaks_a_rule_breaks_it_with_and_without_a_log(tmp_path, engine):
    g = load(tmp_path, engine)
    for log in (True, False):
        st = g.new_initial_state(seed=1, log=log)
        st.apply("go")
        with pytest.raises(RuleError, match="zero"):
            st.apply("go")  # (x = 2: `10 / (x - 2)` at the next round's start)


def test_the_quiet_parts_read_in_the_log_as_the_reference_reads_them(tmp_path):
    lines = []
    for engine in ("compiled", "reference"):
        st = load(tmp_path, engine).new_initial_state(seed=1)
        lines.append(st.transcript())
    assert lines[0] == lines[1]
    assert lines[0][:2] == ["0 cards, none, false", "1 and a note"]
