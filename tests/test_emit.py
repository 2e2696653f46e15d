"""The code the emitter writes from the IR: ops chained into one call per decision, slots held in
locals by its symbol table, constants bound by name, and what must not change with the passes.

These tests check through whole games that the passes change nothing a game does (the
differential suite compares every state), that errors still name their rule line, that phases
return where they were called from, what spends the loop budget, and what the generated source
holds (read by the tests, never by the emitter).
"""

from __future__ import annotations

import random
import re
import textwrap
from pathlib import Path

import attrs
import pytest

import cardlang
import cardlang.runtime.engine
from cardlang import RuleError
from cardlang.compiler import passes
from cardlang.compiler.emit import graph as graph_
from cardlang.compiler.emit.options import DECISIONS
from cardlang.compiler.emit.program import Emitter
from cardlang.lang.diagnostics import CardlangError

GAMES = Path(__file__).resolve().parent.parent / "games"


def playout(game, seed: int = 4):
    st = game.new_initial_state(seed=seed)
    k = 0
    while not st.terminal:
        ids = st.legal_action_ids()
        st.apply(ids[k * 7919 % len(ids)])
        k += 1
    return st.history, st.scores(), st.transcript()


def entered(game) -> list:
    """The ops a game has run so far (compiled on their first entry)."""
    return [f for f in game.program.code if f.__name__ != "first_entry"]


# ------------------------------------------------------------------ the passes
def test_the_passes_are_listed_in_order_in_one_place_and_each_can_be_switched_off(monkeypatch):
    assert passes.NAMES == ("fusion", "threading", "chaining", "split", "paste", "inline", "playout", "rounds", "quiet",
                            "frames")
    assert passes.select(None) == passes.NAMES
    assert passes.select("-fusion,-chaining") == ("threading", "split", "paste", "inline", "playout", "rounds", "quiet",
                                                  "frames")
    assert passes.select("chaining,paste") == ("chaining", "paste")
    assert passes.select("none") == () and passes.select({"split"}) == ("split",)
    monkeypatch.setenv("CARDLANG_PASSES", "-paste")
    assert passes.select(None) == ("fusion", "threading", "chaining", "split", "inline", "playout", "rounds", "quiet",
                                   "frames")
    assert cardlang.load(str(GAMES / "coucou.cards"), 5).program.passes == passes.select(None)
    with pytest.raises(CardlangError, match="no pass `fast`"):
        cardlang.load(str(GAMES / "coucou.cards"), 5, passes="-fast")


@pytest.mark.parametrize("off", passes.NAMES)
def test_a_game_plays_the_same_with_any_pass_switched_off(off):
    path = str(GAMES / "ascenseur.cards")
    expected = playout(cardlang.load(path, players=3))
    assert playout(cardlang.load(path, players=3, passes=f"-{off}")) == expected


def test_without_chaining_every_op_returns_the_next_pc_and_with_it_one_call_runs_to_the_decision():
    path = str(GAMES / "ascenseur.cards")  # (without frames: each decision goes back in through the ops)
    plain, chained = (cardlang.load(path, players=4, passes=p) for p in ("-chaining,-frames", "-frames"))
    for g in (plain, chained):
        playout(g)
    assert len(entered(plain)) > 3 * len(entered(chained))
    # what a card is played with (the alternative's entry: its variable, then its body) runs on to
    # the next player's choice, which it leaves pending as a plain tuple (`State.pending`)
    entry, body = chained.program.resume_entries[1][0]
    assert body == chained.program.resumes[1][0][1]
    text = chained.program.source(entry)
    assert "def _resume" in text and "(s, a):" in text and f"v[{chained.program.resumes[1][0][0]}] = a" in text
    assert re.search(r"s\._pending = \(1, p, legal\)", text) and "return -1" in text


def test_chaining_stops_at_its_line_budget():
    path = str(GAMES / "ascenseur.cards")
    expected = playout(cardlang.load(path, players=3))
    small = cardlang.load(path, players=3)  # (its options changed before any op is compiled)
    small.program.options = attrs.evolve(small.program.options, chain_lines=3)
    small.program.emitters.clear()
    small.program.em = small.program.emitter(DECISIONS)
    assert playout(small) == expected
    assert max(len(small.program.source(f).splitlines()) for f in entered(small)) < 60


def test_a_game_plays_the_same_when_python_refuses_every_chained_function(monkeypatch):
    """No checked game nests deep enough for Python to refuse a chained op (the checker stops rules
    at 100 levels), but if one did, the op would run alone, and a fused run would be unfused."""
    path = str(GAMES / "ascenseur.cards")
    expected = playout(cardlang.load(path, players=3))
    compile_op = Emitter.compile_op

    def refusing(self, pc):
        if self.options.chaining or isinstance(self.graph.ops[pc], graph_.Stmts) and len(self.graph.ops[pc].stmts) > 1:
            raise SyntaxError("too many statically nested blocks")
        return compile_op(self, pc)
    monkeypatch.setattr(Emitter, "compile_op", refusing)
    game = cardlang.load(path, players=3)
    assert playout(game) == expected
    assert game.program.refused


def test_an_alternatives_entry_python_refuses_chained_sets_its_variable_and_returns_its_body(monkeypatch):
    """What `resume` runs for an action (its alternative's entry) falls back as an op does: alone,
    the variable set and the body's pc returned to the run loop."""
    path = str(GAMES / "ascenseur.cards")
    expected = playout(cardlang.load(path, players=3))
    compile_resume = Emitter.compile_resume

    def refusing(self, index, ai):
        if self.options.chaining:
            raise SyntaxError("too many statically nested blocks")
        return compile_resume(self, index, ai)
    monkeypatch.setattr(Emitter, "compile_resume", refusing)
    game = cardlang.load(path, players=3, passes="-frames")  # (with frames, a copy's decisions play so)
    assert playout(game) == expected
    program = game.program
    assert {pc for pc, _, _ in program.refused} == set(program.graph.choices)
    entry, body = program.resume_entries[1][0]
    assert program.source(entry).rstrip().endswith(f"return {body}")


@pytest.mark.parametrize("name", ["coucou", "ascenseur", "red_dog", "pioche_poker", "counter_bluff"])
def test_python_accepts_every_op_a_game_enters_chained(name):
    g = cardlang.load(str(GAMES / f"{name}.cards"))
    for seed in range(3):
        st = g.new_initial_state(seed=seed, log=False)
        rng = random.Random(seed)
        while not st.terminal:
            st.apply(rng.choice(st.legal_action_ids()))
    assert g.program.refused == [] and entered(g)


# -------------------------------------------------------------- what is written
def test_a_text_value_is_never_written_into_generated_source():
    """Issue 12: a game's text that looks like generated source (`"s.v[0]"`) is a bound name."""
    g = cardlang.load(str(Path(__file__).resolve().parent / "engine" / "slot_text.cards"))
    st = g.new_initial_state(seed=1)
    st.apply(st.legal_actions()[0])
    sources = "\n".join(g.program.sources.values())
    assert "'s.v[0]'" not in sources and '"s.v[0]"' not in sources
    assert "s.v[0]" in g.program.ns.values.values()


def test_a_filter_reads_its_card_from_a_local_the_symbol_table_names():
    g = cardlang.load(str(GAMES / "ascenseur.cards"), 4)
    st = g.new_initial_state(seed=1)
    while st.pending[0] != 1:
        st.apply(st.legal_action_ids()[0])
    slot = g.program.chooses[1].alts[0].slot
    g.program.repend(st)  # (the choice's own op, compiled on this first entry)
    text = g.program.source(g.program.code[g.program.chooses[1].pc])
    loop = re.search(r"for (l_\d+_c) in _q\d+:\n\s+if (.*):", text)  # (the local named after the rule's `c`)
    assert loop and loop.group(1) in loop.group(2) and f"v[{slot}]" not in loop.group(2)
    off = cardlang.load(str(GAMES / "ascenseur.cards"), 4, passes="-paste")
    st = off.new_initial_state(seed=1)
    while st.pending[0] != 1:
        st.apply(st.legal_action_ids()[0])
    off.program.repend(st)
    assert f"v[{slot}] = l_" in off.program.source(off.program.code[off.program.chooses[1].pc])


# ------------------------------------------------------------------ through whole games
PRELUDE = """\
game "Test"
players 2..4
deck standard
zone talon: pile, hidden
zone hand: per player, private
var x = 0
var y = 1
"""


def load(tmp_path, body: str, phases: str = "", players: int = 2, **kw):
    path = tmp_path / "game.cards"
    path.write_text(PRELUDE + "\nround:\n" + textwrap.indent(textwrap.dedent(body).strip("\n"), "    ") + "\n"
                    + textwrap.dedent(phases), encoding="utf-8")
    return cardlang.load(str(path), players=players, **kw), path.read_text(encoding="utf-8")


def line_of(text: str, fragment: str) -> int:
    return next(i for i, line in enumerate(text.split("\n"), 1) if fragment in line)


@pytest.mark.parametrize("off", [None, "-chaining", "none"])
def test_an_error_in_a_phase_reached_through_a_chained_op_names_its_own_line(tmp_path, off):
    g, text = load(tmp_path, """
        top of players chooses "go":
            add 1 to x
        check
        if x == 3:
            end game
    """, """
phase check:
    if x == 2:
        set y = 10 / (x - 2)
""", passes=off)
    st = g.new_initial_state()
    st.apply("go")  # x = 1: the phase runs through, chained from the choice's body
    with pytest.raises(RuleError) as info:
        st.apply("go")
    line = line_of(text, 'set y = 10')
    assert info.value.line == line and info.value.file == str(tmp_path / "game.cards")
    assert str(info.value).startswith(f"{tmp_path / 'game.cards'}:{line}:")


def test_a_phase_called_from_two_places_returns_to_each_and_one_called_once_is_jumped_through(tmp_path):
    g, _ = load(tmp_path, """
        twice
        set y = y * 10
        once
        twice
        top of players chooses "go":
            pass
        end game winner top of players
    """, """
phase twice:
    add 1 to y
    set x = x * 100 + y

phase once:
    set x = x * 100 + 7
""")
    st = g.new_initial_state()
    # y: 1 → 2 → 20 → 21; x: 2 → 207 → 20721
    assert st.var("x") == 20721 and st.var("y") == 21
    calls = {id(op): op for op in g.program.graph.ops if isinstance(op, graph_.Call)}.values()  # (threading copies ops)
    assert sorted((op.phase.name, op.push) for op in calls) == [("once", False), ("twice", True), ("twice", True)]


def test_a_for_each_spends_a_step_an_item_when_it_begins_and_while_passes_one_each(tmp_path, monkeypatch):
    # (issue 27: loops in loops over the deck ended, but after 52^5 passes; a for-each now spends
    # its items' steps when it begins, in both engines: docs/security.md, "Run budget")
    monkeypatch.setattr(cardlang.runtime.engine, "STEP_BUDGET", 60)
    g, text = load(tmp_path, """
        for each c in talon:
            add 1 to x
        top of players chooses "go":
            pass
        end game
    """)
    assert g.new_initial_state().var("x") == 52  # 52 items, a budget of 60
    monkeypatch.setattr(cardlang.runtime.engine, "STEP_BUDGET", 51)
    with pytest.raises(RuleError, match="51 steps") as info:
        g.new_initial_state()
    assert info.value.line == line_of(text, 'for each c')
    monkeypatch.setattr(cardlang.runtime.engine, "STEP_BUDGET", 20)
    g, text = load(tmp_path, """
        while x < 52:
            add 1 to x
        end game
    """)
    with pytest.raises(RuleError, match="20 steps") as info:
        g.new_initial_state()
    assert info.value.line == line_of(text, 'while x')
    assert str(info.value).startswith(f"{tmp_path / 'game.cards'}:{line_of(text, 'while x')}:")
