"""The generated code the engine runs: ops chained into one call per decision, and what must not change.

`codegen.chain` pastes the op found at a `return <pc>` in place of that line. These tests build small
programs of ops by hand and check that the chained ops do what the run loop does with the plain ones,
then check through whole games that errors still name their rule line, that phases return where
they were called from, and what spends the loop budget.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

import cardlang
import cardlang.runtime.engine
from cardlang import RuleError
from cardlang.compiler import codegen


def run_loop(code, state, pc=0):
    """What `Program.run` does: call ops until one returns a negative pc."""
    while pc >= 0:
        pc = code[pc](state)
    return state


class Box:
    """A stand-in for a state: `trace` records the ops in the order they ran."""

    def __init__(self):
        self.trace = []
        self.v = [0, 0]


def op(text: str, **named):
    return codegen.function(textwrap.dedent(text).replace("\n", "\n    ").join(["    ", "\n"]), **named)


def straight_program():
    """0 → 1 → 2 → (3 or 4) → stop, with a loop 4 → 1 while v[0] < 3."""
    return [
        op("s.trace.append(0)\nreturn 1"),
        op("s.trace.append(1)\ns.v[0] += 1\nreturn 2"),
        op("s.trace.append(2)\nif s.v[0] % 2:\n    return 3\nreturn 4"),
        op("s.trace.append(3)\nreturn 4"),
        op("s.trace.append(4)\nif s.v[0] < 3:\n    return 1\nreturn -1"),
    ]


def test_a_chained_program_runs_the_ops_of_the_plain_one_in_the_same_order():
    plain = straight_program()
    chained = codegen.chain(plain, [1] * len(plain))
    expected = run_loop(plain, Box()).trace
    assert expected == [0, 1, 2, 3, 4, 1, 2, 4, 1, 2, 3, 4]
    assert run_loop(chained, Box()).trace == expected
    assert run_loop(chained, Box()).trace == expected  # the second time, with the chained ops in place


def test_the_first_entry_replaces_the_stub_and_pastes_along_constant_returns():
    plain = straight_program()
    chained = codegen.chain(plain, [1] * len(plain))
    run_loop(chained, Box())
    first = chained[0]
    assert first is not plain[0] and hasattr(first, "text")
    # op 0 pasted 1, 2, 3 and 4; 4 goes back to 1, which is on its way: that return stays
    assert "return 1" in first.text and "return 2" not in first.text and "return 3" not in first.text
    # an op never entered keeps its stub, unchanged and uncompiled
    assert chained[3] is not plain[3] and not hasattr(chained[3], "text")


def test_chaining_stops_at_its_line_budget_and_depth():
    plain = [op(f"s.trace.append({i})\nreturn {i + 1}") for i in range(30)] + [op("return -1")]
    for budget, depth in ((6, 12), (160, 3)):
        chained = codegen.chain(plain, [1] * len(plain), budget=budget, depth=depth)
        assert run_loop(chained, Box()).trace == list(range(30))
        pasted = chained[0].text.count("s.trace.append")
        assert pasted == (1 + budget // 2 if depth == 12 else 1 + depth)


def test_an_op_without_source_is_called_where_it_stands():
    def closure(s):
        s.trace.append("closure")
        return 2
    closure.then = 2  # what the compiler marks on a closure that always goes on to the next op
    plain = [op("s.trace.append(0)\nreturn 1"), closure, op("s.trace.append(2)\nreturn -1")]
    chained = codegen.chain(plain, [1, 1, 1])
    assert run_loop(chained, Box()).trace == [0, "closure", 2]
    assert "return" not in chained[0].text.replace("return -1", "")


def test_a_generated_function_reads_slots_through_one_local():
    f = op("s.v[0] = 1\nv = s.v\nif s.v[0]:\n    v = s.v\n    s.v[1] = 'keep s.v[1] in a text'\nreturn -1")
    lines = f.text.splitlines()
    assert lines[1].strip() == "v = s.v"
    assert sum(x.strip() == "v = s.v" for x in lines) == 1
    assert "'keep s.v[1] in a text'" in f.text  # a line holding a text is left as written
    box = Box()
    assert f(box) == -1 and box.v == [1, "keep s.v[1] in a text"]


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


def load(tmp_path, body: str, phases: str = "", players: int = 2):
    path = tmp_path / "game.cards"
    path.write_text(PRELUDE + "\nround:\n" + textwrap.indent(textwrap.dedent(body).strip("\n"), "    ") + "\n"
                    + textwrap.dedent(phases), encoding="utf-8")
    return cardlang.load(str(path), players=players), path.read_text(encoding="utf-8")


def line_of(text: str, fragment: str) -> int:
    return next(i for i, line in enumerate(text.split("\n"), 1) if fragment in line)


def test_an_error_in_a_phase_reached_through_a_chained_op_names_its_own_line(tmp_path):
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
""")
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
    program = g.program
    calls = {id(f) for f in program.plain if "s.stack.append" in getattr(f, "text", "")}
    assert len(calls) == 2  # the two calls of `twice` keep a return stack; `once` is a jump there and back


def test_for_each_passes_spend_no_steps_but_while_passes_do(tmp_path, monkeypatch):
    monkeypatch.setattr(cardlang.runtime.engine, "STEP_BUDGET", 20)
    g, _ = load(tmp_path, """
        for each c in talon:
            add 1 to x
        top of players chooses "go":
            pass
        end game
    """)
    assert g.new_initial_state().var("x") == 52  # 52 passes, a budget of 20: a for-each always ends
    g, text = load(tmp_path, """
        while x < 52:
            add 1 to x
        end game
    """)
    with pytest.raises(RuleError, match="20 steps") as info:
        g.new_initial_state()
    assert info.value.line == line_of(text, 'while x')
    assert str(info.value).startswith(f"{tmp_path / 'game.cards'}:{line_of(text, 'while x')}:")


def test_a_game_plays_the_same_when_python_refuses_every_fused_function(monkeypatch):
    """No checked game nests deep enough for Python to refuse a fused run or a choice's function
    (the checker stops rules at 100 levels), but if it did, the ops would run one by one."""
    path = str(Path(__file__).resolve().parent.parent / "games" / "ascenseur.cards")

    def playout(game):
        st = game.new_initial_state(seed=4)
        k = 0
        while not st.terminal:
            ids = st.legal_action_ids()
            st.apply(ids[k * 7919 % len(ids)])
            k += 1
        return st.history, st.scores(), st.transcript()

    expected = playout(cardlang.load(path, players=3))
    monkeypatch.setattr(codegen.Source, "compile", lambda self: None)
    assert playout(cardlang.load(path, players=3)) == expected


def test_a_chain_python_refuses_to_compile_keeps_the_plain_op():
    # each op opens a block: pasted 30 deep they pass Python's limit of 20 nested blocks
    plain = [op(f"for _ in (0,):\n    s.trace.append({i})\n    return {i + 1}") for i in range(30)]
    plain.append(op("return -1"))
    chained = codegen.chain(plain, [1] * len(plain), budget=1000, depth=40)
    assert run_loop(chained, Box()).trace == list(range(30))
    assert chained[0] is plain[0]


@pytest.mark.parametrize("name", ["coucou", "ascenseur", "red_dog", "pioche_poker", "counter_bluff"])
def test_every_op_a_game_enters_is_chained_and_python_accepts_every_chain(name, monkeypatch):
    monkeypatch.setattr(codegen, "refused", [])
    g = cardlang.load(str(Path(__file__).resolve().parent.parent / "games" / f"{name}.cards"))
    for seed in range(3):
        st = g.new_initial_state(seed=seed, log=False)
        k = 0
        while not st.terminal:
            ids = st.legal_action_ids()
            st.apply(ids[k * 7919 % len(ids)])
            k += 1
    assert codegen.refused == []
    entered = [op for op in g.program.fused if getattr(op, "__name__", "") != "first_entry"]
    assert any(getattr(op, "rule_lines", None) is not None for op in entered)


def test_a_text_value_is_never_written_into_generated_source():
    """Issue 12: a game's text that looks like generated source (`"s.v[0]"`) is bound by name, so
    the passes that read or rewrite source (`reading`, `_define`, `chain`) cannot change it."""
    env: dict = {}
    name = codegen.literal("s.v[0]", env)
    assert name.isidentifier() and env[name] == "s.v[0]"
    f = codegen.expr("{0} == {text}", codegen.expr("s.v[0]"), text="s.v[0]")
    assert "s.v[0]'" not in f.src and f(Box()) is False
    pasted = codegen.reading(f, 0, "x")
    assert pasted.src.startswith("(x) == ") and pasted.env[pasted.src.split(" == ")[1]] == "s.v[0]"
