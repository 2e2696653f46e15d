"""The run budget (issue 27, items 4 and 10; docs/security.md "Run budget"): numbers, texts, lists,
steps, the log and memory are bounded in a run, each met at the rule line that exceeds it with a
rule error naming the budget, the same on both engines and whether or not a log is kept.

The hostile files are in tests/hostile_runtime/ (each also goes through `play --bots-only`,
`replay`, `simulate` in tests/test_runtime_errors.py and through both engines in
tests/test_differential.py); here each is played on both engines, with and without a log, in a
subprocess capped in CPU time and address space.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from pathlib import Path

import pytest

import cardlang
from cardlang import RuleError
from cardlang.compiler.ir_facts import phases_spend_steps, written_size
from cardlang.compiler.emit.rounds import MAX_ROUND_STATEMENTS
from cardlang.lang.limits import MAX_WRITTEN_EXPRESSIONS
from cardlang.load import check_file
from cardlang.runtime import basics, budget, steps

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = ROOT / "tests" / "hostile_runtime"
CPU_SECONDS = 20  # per process, for the eight runs of a file (the reference is slow on purpose)
MEMORY = 400 * 2**20

# each hostile file of the budget: (the message's part that names the budget, the line it is met at)
BUDGET_FILES = {
    "number_squared": ("past the run budget of numbers (±10^30)", 12),
    "number_added_to_itself": ("past the run budget of numbers (±10^30)", 12),
    "text_doubled": ("past the run budget of texts (100,000 characters)", 12),
    "list_doubled": ("past the run budget of lists (131,072 items)", 12),
    "phases_doubling": ("steps without a decision or an end: a rule loops forever or works too long "
                        "(the run budget of steps)", 11),
    "loops_in_loops": ("steps without a decision or an end: a rule loops forever or works too long "
                       "(the run budget of steps)", 15),
    # item 10: engine slips
    "next_of_none": ("the neighbour of no player (none): `next of`, `left of` and `right of` need a player", 11),
    "negative_deal": ("cannot deal -5 card(s): a number of cards cannot be negative", 13),
    "announced_bad_index": ("item 5 of a list of 3 (items count from 1)", 11),
}

PLAY_ALL_WAYS = """
import json, sys
import cardlang
out = []
for engine in ("compiled", "reference"):
    game = cardlang.load(sys.argv[1], engine=engine)
    for log in (True, False):
        try:
            state = game.new_initial_state(seed=3, log=log)
            while not state.is_terminal():
                state.apply(state.legal_action_ids()[0])
            out.append([engine, log, None, None])
        except cardlang.RuleError as e:
            out.append([engine, log, e.message, e.line])
print(json.dumps(out))
"""


def _caps():  # pragma: no cover - runs in the child, between fork and exec
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS))


@pytest.mark.parametrize("name", sorted(BUDGET_FILES))
def test_each_hostile_run_stops_on_both_engines_with_and_without_a_log(name):
    path = HOSTILE / f"{name}.cards"
    assert check_file(str(path))[1] == []  # `check` passes it: the run must stop it
    result = subprocess.run([sys.executable, "-c", PLAY_ALL_WAYS, str(path)], capture_output=True, text=True,
                            timeout=300, preexec_fn=_caps, cwd=ROOT)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr[-3000:]
    runs = json.loads(result.stdout)
    part, line = BUDGET_FILES[name]
    assert len(runs) == 4
    for engine, log, message, at in runs:
        assert message is not None and part in message, (engine, log, message)
        assert at == line, (engine, log, at)
    assert len({(m, at) for _, _, m, at in runs}) == 1  # the very same error, whoever reads the log


def test_the_budgets_are_the_documented_figures():
    from cardlang.runtime import engine

    assert (budget.MAX_NUMBER, budget.MAX_TEXT, budget.MAX_ITEMS) == (10 ** 30, 100_000, 131_072)
    assert (engine.STEP_BUDGET, basics.MAX_EVENTS, budget.MAX_LOG_CHARS) == (2_000_000, 200_000, 50_000_000)
    text = (ROOT / "docs" / "security.md").read_text(encoding="utf-8")
    section = text.split("## Run budget", 1)[1].split("\n## ", 1)[0]
    for figure in ("10^30", "100 000 characters", "131 072 items", "2 000 000 steps", "200 000 lines",
                   "50 000 000 characters", "50 000 expressions"):
        assert figure in section, figure


def test_numbers_texts_and_lists_just_within_the_budget_are_kept(tmp_path):
    rules = tmp_path / "edge.cards"
    rules.write_text('game "Edge"\nplayers 2\ndeck standard\nvar x = 1\nvar t = "a"\nvar l = [1]\n\n'
                     'round:\n    top of players chooses:\n        "go":\n'
                     '            repeat 98 times:\n                set x = x * 2\n'
                     '            repeat 16 times:\n                set t = t + t\n'  # 65 536 characters
                     '            repeat 17 times:\n                set l = l + l\n'  # 131 072 items
                     '            add x to x\n'  # 2^99 < 10^30 < 2^100
                     '    end game\n', encoding="utf-8")
    for engine in ("compiled", "reference"):
        state = cardlang.load(str(rules), engine=engine).new_initial_state(seed=1)
        state.apply(state.legal_action_ids()[0])
        assert state.is_terminal()
        v = state.game.program.var_slots
        assert state.v[v["x"][0]] == 2 ** 99 and len(state.v[v["t"][0]]) == 2 ** 16
        assert len(state.v[v["l"][0]]) == budget.MAX_ITEMS


LONG_LOG = '''game "A long text announced again and again"
players 2
deck standard
var t = "0123456789"

round:
    top of players chooses:
        "talk":
            repeat 12 times:
                set t = t + t
            repeat 2000 times:
                announce "{t}"
    end game
'''


def test_the_log_stops_at_its_budget_of_characters(tmp_path):
    rules = tmp_path / "long_log.cards"
    rules.write_text(LONG_LOG, encoding="utf-8")
    for engine in ("compiled", "reference"):
        game = cardlang.load(str(rules), engine=engine)
        state = game.new_initial_state(seed=1)
        with pytest.raises(RuleError) as info:
            state.apply(state.legal_action_ids()[0])
        assert info.value.line == 12 and "log passed 50,000,000 characters" in info.value.message
        assert sum(len(text) for text, _, _ in state.log) <= budget.MAX_LOG_CHARS
        # without a log there is nothing to fill: the game plays to its end
        quiet = game.new_initial_state(seed=1, log=False)
        quiet.apply(quiet.legal_action_ids()[0])
        assert quiet.is_terminal()


def test_the_log_budget_is_carried_from_step_to_step_and_into_copies(tmp_path):
    rules = tmp_path / "log.cards"
    rules.write_text(LONG_LOG.replace("repeat 2000 times", "repeat 10 times"), encoding="utf-8")
    state = cardlang.load(str(rules)).new_initial_state(seed=1)
    state.apply(state.legal_action_ids()[0])
    # (a decision's own line is bounded by the decisions: it is not counted)
    spent = sum(len(text) for text, _, _ in state.log if not text.startswith("P0 chooses"))
    assert spent > 400_000 and state.fresh.chars == budget.MAX_LOG_CHARS - spent
    assert state.clone().fresh.chars == state.fresh.chars


def test_python_running_out_of_memory_is_a_rule_error_on_both_engines(tmp_path, monkeypatch):
    rules = tmp_path / "memory.cards"
    rules.write_text('game "M"\nplayers 2\ndeck standard\nzone talon: pile, hidden\n\nround:\n'
                     '    top of players chooses:\n        "go":\n            shuffle talon\n    end game\n',
                     encoding="utf-8")

    def no_memory(*args):
        raise MemoryError

    monkeypatch.setattr(steps, "shuffle_zone", no_memory)  # (read when a rule is compiled or run)
    for engine in ("compiled", "reference"):
        state = cardlang.load(str(rules), engine=engine).new_initial_state(seed=1)
        with pytest.raises(RuleError) as info:
            state.apply(state.legal_action_ids()[0])
        assert info.value.line == 9 and info.value.message == ("the rules ran out of memory: past the run budget "
                                                               "of memory")


def test_definitions_that_double_at_each_level_are_e009_at_check_time():
    symbols, diagnostics = check_file(str(ROOT / "tests" / "hostile" / "definitions_doubling.cards"))
    assert [(d.code, d.span.line) for d in diagnostics] == [("E009", 19)]
    assert diagnostics[0].message == ("definition `f13` stands for 65,531 expressions once the definitions it "
                                      f"uses are written out (the most is {MAX_WRITTEN_EXPRESSIONS:,})")


def test_many_uses_of_a_definition_within_its_limit_are_e009_for_the_rules(tmp_path):
    lines = ['game "Uses"', "players 2", "deck standard", "var x = 0", "",
             "define f0(n: number) = n + 1"]
    lines += [f"define f{i}(n: number) = f{i - 1}(n) + f{i - 1}(n)" for i in range(1, 13)]  # 16 383 each
    lines += ["", "round:", "    top of players chooses:", '        "go":']
    lines += ["            set x = f12(1)"] * 4
    lines += ["    end game", ""]
    rules = tmp_path / "uses.cards"
    rules.write_text("\n".join(lines), encoding="utf-8")
    diagnostics = check_file(str(rules))[1]
    assert [d.code for d in diagnostics] == ["E009"]
    assert diagnostics[0].message.startswith("the rules stand for 131,")
    rules.write_text("\n".join(lines).replace(("            set x = f12(1)\n") * 4, "            set x = f12(1)\n"),
                     encoding="utf-8")
    assert check_file(str(rules))[1] == []  # one use is within the limit: it loads and plays
    state = cardlang.load(str(rules)).new_initial_state(seed=1)
    state.apply(state.legal_action_ids()[0])
    assert state.v[state.game.program.var_slots["x"][0]] == 2 ** 13


def test_a_round_too_long_with_its_phases_written_in_is_played_by_the_ops_and_its_phases_spend_steps():
    game = cardlang.load(str(HOSTILE / "phases_doubling.cards"))
    assert written_size(game.program.ir.round) > MAX_ROUND_STATEMENTS
    assert not game.program.em.writes_whole_rounds()
    assert game.program.em.phase_steps and phases_spend_steps(game.program.ir)
    for path in [*(ROOT / "games").glob("*.cards"), *(ROOT / "examples").glob("*.cards")]:
        program = cardlang.load(str(path)).program
        assert written_size(program.ir.round) <= MAX_ROUND_STATEMENTS // 10, path
        assert not phases_spend_steps(program.ir), path  # (none of them can multiply work by phases)


def test_phases_spend_steps_in_both_engines_only_where_they_can_multiply_work(tmp_path, monkeypatch):
    from cardlang.runtime import engine

    lines = ['game "P"', "players 2", "deck standard", "var x = 0", "", "phase p0:", "    add 1 to x"]
    for i in range(1, 14):  # p0 played 2^13 times: 16 383 phases played, more statements written out
        lines += [f"phase p{i}:", f"    p{i - 1}", f"    p{i - 1}"]
    lines += ["", "round:", "    top of players chooses:", '        "go":', "            p13", "    end game", ""]
    rules = tmp_path / "p.cards"
    rules.write_text("\n".join(lines), encoding="utf-8")
    monkeypatch.setattr(engine, "STEP_BUDGET", 16_000)
    for name in ("compiled", "reference"):
        state = cardlang.load(str(rules), engine=name).new_initial_state(seed=1)
        with pytest.raises(RuleError, match="16,000 steps"):
            state.apply(state.legal_action_ids()[0])
    monkeypatch.setattr(engine, "STEP_BUDGET", 16_400)  # (and the round's own step)
    for name in ("compiled", "reference"):
        state = cardlang.load(str(rules), engine=name).new_initial_state(seed=1)
        state.apply(state.legal_action_ids()[0])
        assert state.is_terminal() and state.v[state.game.program.var_slots["x"][0]] == 2 ** 13


@pytest.mark.parametrize("path", sorted(str(p.relative_to(ROOT)) for p in
                                         [*(ROOT / "games").glob("*.cards"), *(ROOT / "examples").glob("*.cards")]))
def test_every_game_plays_whole_games_within_the_budget(path):
    game = cardlang.load(str(ROOT / path))
    for seed in (1, 2):
        state = game.new_initial_state(seed=seed)
        for _ in range(3000):  # (the longest game takes under 2 000 decisions)
            if state.is_terminal():
                break
            ids = state.legal_action_ids()
            state.apply(ids[(seed * 7 + len(state.history)) % len(ids)])
