"""`cardlang dump`: the program the compiled engine runs, to read (issue 32), and one fixture pair a
pass under tests/passes/ (a small file, its listing with the pass on and off) so that a pass that
stops optimising, or starts writing something else, fails here.

A listing that changes on purpose is written again with the command in the fixture's second line
(`cardlang dump --ops --passes … tests/passes/NAME.cards > tests/passes/NAME.on.txt`): look at the
diff before committing it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

import cardlang
from cardlang.cli import main
from cardlang.compiler import passes
from cardlang.compiler.emit import listing
from cardlang.compiler.emit.code import Global, Local, Name, Number
from cardlang.compiler.emit.writer import Namespace

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "passes"
SMALL = FIXTURES / "playout.cards"

# each pass: (the passes of its listing on, off): alone against none, a switch of whole-game runs
# against `playout` alone (it writes nothing without it)
PAIRS = {
    "fusion": ("fusion", "none"),
    "threading": ("threading", "none"),
    "chaining": ("chaining", "none"),
    "split": ("split", "none"),
    "paste": ("paste", "none"),
    "inline": ("inline", "none"),
    "playout": ("playout", "none"),
    "rounds": ("playout,rounds", "playout"),
    "quiet": ("playout,quiet", "playout"),
    "frames": ("fusion,frames", "fusion"),  # (a frame needs the ops fused: `RoundEmitter.writes_frames`)
}


def dump(*args) -> str:
    result = CliRunner().invoke(main, ["dump", *map(str, args)])
    assert result.exit_code == 0, result.output
    return result.output


# ------------------------------------------------------------------ the passes
def test_every_pass_has_a_fixture_pair():
    assert set(PAIRS) == set(passes.NAMES)
    for name in passes.NAMES:
        for path in (FIXTURES / f"{name}.cards", FIXTURES / f"{name}.on.txt", FIXTURES / f"{name}.off.txt"):
            assert path.is_file(), path
        on, off = PAIRS[name]  # (the fixture says how its listings are made)
        assert f"--passes {on} {name}.cards` (on), `--passes {off}` (off)" in (FIXTURES / f"{name}.cards").read_text()


@pytest.mark.parametrize("name", passes.NAMES)
def test_a_pass_changes_its_fixtures_listing_as_recorded(name):
    on, off = PAIRS[name]
    path = FIXTURES / f"{name}.cards"
    with_it, without = dump(path, "--ops", "--passes", on), dump(path, "--ops", "--passes", off)
    assert with_it != without  # (the pass changes what is written: else it does nothing here)
    assert with_it == (FIXTURES / f"{name}.on.txt").read_text(encoding="utf-8"), f"{name} on: regenerate and review"
    assert without == (FIXTURES / f"{name}.off.txt").read_text(encoding="utf-8"), f"{name} off: regenerate and review"


def test_a_game_plays_the_same_with_each_fixtures_pass_on_and_off():
    for name, (on, off) in PAIRS.items():
        played = []
        for chosen in (on, off):
            g = cardlang.load(str(FIXTURES / f"{name}.cards"), passes=chosen)
            st = g.new_initial_state(seed=3)
            while not st.terminal:
                st.apply(st.legal_action_ids()[-1] if st.round < 3 else st.legal_action_ids()[0])
            played.append((st.history, st.transcript()))
        assert played[0] == played[1], name


# ------------------------------------------------------------------ the listings
@pytest.mark.parametrize("what", ["--ir", "--ops", "--python"])
def test_dump_of_a_small_file(what, snapshot):
    assert dump(SMALL, what) == snapshot


def test_every_op_is_compiled_and_listed_with_its_rule_line():
    game = cardlang.load(str(ROOT / "games" / "ascenseur.cards"), players=4)
    text = listing.ops_listing(game.program)
    assert all(f.__name__ != "first_entry" for f in game.program.code)  # (no op left to compile on entry)
    for pc in range(len(game.program.graph.ops)):
        assert re.search(rf"^# op {pc}: \w+ .*\(ascenseur\.cards:\d+\)$", text, re.M), pc
    # each statement of the round under its `# file:line` comment
    lines = {int(m) for m in re.findall(r"^\s*# ascenseur\.cards:(\d+)$", text, re.M)}
    assert {st.span.line for st in game.program.ir.round} <= lines


def test_slots_locals_and_constants_are_named_after_the_rules():
    game = cardlang.load(str(ROOT / "games" / "ascenseur.cards"), players=4)
    dealer = game.program.layout.var_slots["dealer"][0]
    # a game runs with numbers (a name is a default argument, copied at each call: `Options.names`)
    st = game.new_initial_state(seed=1)
    st.apply(st.legal_action_ids()[0])
    assert not game.program.options.names and f"v[{dealer}]" in "".join(game.program.sources.values())
    text = listing.python_listing(game.program)  # (made again for a reader: names)
    assert game.program.options.names
    assert game.program.ns.slot(dealer) == f"dealer_{dealer}"
    assert f"v[dealer_{dealer}]" in text and f"v[{dealer}]" not in text
    assert re.search(r"for l_\d+_p in ", text)  # (a loop's seat `p`, held in a local named after it)
    assert "k_zone_vis" in text and not re.search(r"\b_k\d+\b", text)  # (no anonymous constant left)


def test_a_units_helpers_are_written_once_each():
    """The same aggregate met twice in one unit (an op pasted in two places) is one helper there."""
    game = cardlang.load(str(ROOT / "games" / "ascenseur.cards"), players=4)
    listing.compile_all(game.program)
    written = 0
    for text in game.program.sources.values():
        bodies = re.split(r"^def \w+\(", text, flags=re.M)[1:]
        # a helper's body with its fresh names' numbers left out (the unit's own function is the last)
        helpers = [re.sub(r"\d+", "N", b.split("\n", 1)[1]) for b in bodies[:-1]]
        assert len(helpers) == len(set(helpers))
        written += len(helpers)
    assert written > 100  # (Ascenseur's units have helpers: 69 of 226 were written twice before issue 32)


def test_the_emitter_hands_on_typed_values():
    ns = Namespace({0: "dealer", 3: "k_odd"})
    assert type(ns.bind(7)) is Number and type(ns.bind(-1)) is str and ns.bind(None) == "None"
    table = ns.bind((1, 2), "zone_vis")
    other = ns.bind(tuple([1, 2]), "zone_vis")  # (an equal value, another object: another name)
    assert type(table) is Global and table == "k_zone_vis" and other == "k_zone_vis_2"
    assert ns.bind(ns.values[table]) is table  # (the same value, the same name)
    # the globals of generated code keep plain `str` keys: one key of a `str` subclass in a dict
    # turns Python's specialised global lookups off for it (13% of a playout's time, measured)
    assert all(type(k) is str for k in ns.values)
    game = cardlang.load(str(SMALL))
    listing.compile_all(game.program)
    assert all(type(k) is str for k in game.program.ns.values)
    assert type(ns.fresh("_q")) is Local and isinstance(ns.local_for(0), Name)
    assert ns.local_for(0).endswith("_dealer") and ns.slot(0) == "dealer_0" and ns.slot(3) == "v_k_odd_3"


def test_a_bad_pass_or_file_is_one_line():
    result = CliRunner().invoke(main, ["dump", str(SMALL), "--passes", "-fast"])
    assert result.exit_code == 2 and result.output.strip().splitlines() == [
        "error: no pass `fast` (passes: fusion, threading, chaining, split, paste, inline, playout, rounds, quiet, frames)"]


@pytest.mark.parametrize("path", sorted((ROOT / "games").glob("*.cards")), ids=lambda p: p.stem)
def test_every_game_dumps_every_op(path):
    text = dump(path, "--ops")
    game = cardlang.load(str(path))
    assert text.startswith(f"# {len(game.program.graph.ops)} ops; passes: fusion")
    assert len(re.findall(r"^# op \d+: ", text, re.M)) == len(game.program.graph.ops)
