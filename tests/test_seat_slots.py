"""The slots that always hold a seat (`compiler/ir_facts.py` `seat_slots`): a choice by one is written
without the check of its seat (`emit/choose.py`), and plays as the reference interpreter plays it."""

from __future__ import annotations

import textwrap

import cardlang
from cardlang.compiler.ir_facts import seat_slots

GAME = """\
game "Seats"
players 2..4
deck standard
zone hand: per player, private
var x = 0

round:
    for each p in players:
        p chooses:
            "up":
                add 1 to x
            "down":
                add 2 to x
    turn(top of players)
    top of players chooses "stop":
        if x > 9:
            end game

phase turn(q):
    q chooses "pass":
        add 0 to x
"""


def load(tmp_path, engine: str = "compiled"):
    path = tmp_path / "game.cards"
    path.write_text(textwrap.dedent(GAME), encoding="utf-8")
    return cardlang.load(str(path), players=3, engine=engine)


def test_a_loop_over_the_players_holds_a_seat_and_a_phases_parameter_does_not(tmp_path):
    g = load(tmp_path)
    by_loop, by_top, by_phase = (c.player for c in g.program.ir.choices)  # (a phase's choices come last)
    assert by_loop.slot in seat_slots(g.program.ir) == g.program.seat_slots
    assert by_phase.slot not in g.program.seat_slots  # (a phase's parameter: any seat, or none, passed in)
    assert not hasattr(by_top, "slot")  # (`top of players`: not a slot, its seat checked)


def test_a_choice_by_a_seat_of_the_loop_is_written_without_the_seats_check(tmp_path):
    g = load(tmp_path)
    texts = []
    for index in range(3):
        st = g.new_initial_state(seed=1)
        while st.pending.choice != index:
            st.apply(st.legal_action_ids()[0])
        g.program.repend(st)  # (the choice's own op, compiled on entry)
        texts.append(g.program.source(g.program.code[g.program.chooses[index].pc]))
    by_loop, by_top, by_phase = texts
    assert "if not legal:\n" in by_loop and "p is None" not in by_loop
    assert "if not legal or p is None or not 0 <= p < 3:" in by_phase
    assert "if not legal or p is None or not 0 <= p < 3:" in by_top


def test_the_game_plays_as_the_reference_plays_it(tmp_path):
    played = []
    for engine in ("compiled", "reference"):
        g = load(tmp_path, engine)
        st = g.new_initial_state(seed=5)
        k = 0
        while not st.terminal:
            ids = st.legal_action_ids()
            st.apply(ids[k % len(ids)])
            k += 1
        played.append((st.history, st.transcript(), st.returns()))
    assert played[0] == played[1]
