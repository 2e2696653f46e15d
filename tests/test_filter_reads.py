"""A card filter's slots read once (`emit/choose.py` `_kept`): a slot the filter reads and nothing in
it binds is the same at each card, so the pasted filter reads it once, before its loop."""

from __future__ import annotations

import re
from pathlib import Path

import cardlang

GAMES = Path(__file__).resolve().parent.parent / "games"


def choice_source(g, index: int, seed: int = 1) -> str:
    st = g.new_initial_state(seed=seed)
    while st.pending.choice != index:
        st.apply(st.legal_action_ids()[0])
    g.program.repend(st)  # (the choice's own op, compiled on entry)
    return g.program.source(g.program.code[g.program.chooses[index].pc])


def test_the_suit_led_is_read_once_before_the_filter_s_loop():
    g = cardlang.load(str(GAMES / "ascenseur.cards"), 4)
    led, = (slot for slot, name in g.program.ns.slot_names.items() if name == "led")
    text = choice_source(g, 1)
    got = re.search(r"(_h\d+) = v\[(\d+)\]\n\s+for (l_\d+_c) in _q\d+:\n\s+if (.*):", text)
    assert got, text
    local, slot, card, test = got.groups()
    assert local in test and card in test and f"v[{slot}]" not in test
    assert int(slot) == led
    off = cardlang.load(str(GAMES / "ascenseur.cards"), 4, passes="-paste")
    assert not re.search(r"_h\d+ = v\[", choice_source(off, 1))  # (not pasting: every read from `state.v`)


def test_a_game_whose_filters_read_slots_plays_as_the_reference_plays_it():
    played = []
    for engine in ("compiled", "reference"):
        g = cardlang.load(str(GAMES / "ascenseur.cards"), 4, engine=engine)
        st = g.new_initial_state(seed=7)
        k = 0
        while not st.terminal:
            ids = st.legal_action_ids()
            st.apply(ids[(k * 7) % len(ids)])
            k += 1
        played.append((st.history, st.returns()))
    assert played[0] == played[1]
