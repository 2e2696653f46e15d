"""Lists of declared values kept in variables (issue 28, item 3 and 6(g)), played as a rulebook says.

tests/engine/games_still_open.cards: "each player names a game still open, or passes; a game named
is closed" — the games still open are a `list of kind` that shrinks (`open except k`), the games
named one that grows (`named + [k]`), a choice is made `from open`, a text shows `{open}` by name,
`open[1]` is the first still open, `for each k in open`, `ouvert in named`. Each scenario runs on
both engines (the `engine` fixture); tests/test_differential.py plays the file on both too.
"""

from __future__ import annotations

import cardlang
import pytest

from cardlang.load import check_source
from scenario import path

OPEN = "tests/engine/games_still_open.cards"
# piquet: P0 holds two jacks (null is closed to him), P1 and P2 none; the deal goes round the table
HANDS = (["Jc", "Jd", "7c", "8c", "9c", "10c", "Qc", "Kc", "Ac", "7d"],
         ["7h", "8h", "9h", "10h", "Qh", "Kh", "Ah", "8d", "9d", "10d"],
         ["7s", "8s", "9s", "10s", "Qs", "Ks", "As", "Qd", "Kd", "Ad"])
STACK = [card for three in zip(*HANDS) for card in three]


def start(engine, relative=OPEN, players=3, stack=STACK):
    g = cardlang.load(path(relative), players=players, engine=engine)
    return g.new_initial_state(seed=0, stack=stack)


def labels(st):
    return [a.label for a in st.legal_actions()]


def codes(source: str) -> list:
    """Every diagnostic of one `check` run but W001 (a name never used), as (code, message)."""
    return [(d.code, d.message) for d in check_source(source, "t.cards")[3] if d.code != "W001"]


# ------------------------------------------------------------------ the rule file, on both engines
def test_a_game_named_is_closed_and_the_list_of_games_open_shrinks(engine):
    st = start(engine)
    assert st.transcript()[-1] == "games open: suit, grand, null, ouvert"  # a text shows each by name
    assert st.current_player == 0
    # two jacks: null is closed to P0; the others in the list's order; the id is the value's place
    assert labels(st) == ["name suit", "name grand", "name ouvert", "pass"]
    assert [a.id for a in st.legal_actions()][:3] == [0, 1, 3]
    st.apply("name grand")
    assert "P0 names grand; still open: suit, null, ouvert" in st.transcript()
    assert labels(st) == ["name suit", "name null", "name ouvert", "pass"]  # grand is gone
    st.apply("name ouvert")
    assert labels(st) == ["name suit", "name null", "pass"]
    st.apply("pass")
    lines = st.transcript()
    assert "games named: grand, ouvert; P1 plays ouvert" in lines
    assert "null was not named" in lines  # `for each k in open where k > grand`
    assert "ouvert was outbid" not in lines  # ouvert was named last: it is played
    assert st.is_terminal() and st.scores() == [0, 1, 0]
    obs = st.observation(2)["variables"]
    assert (obs["open"], obs["named"], obs["contract"]) == (["suit", "null"], ["grand", "ouvert"], "ouvert")
    assert list(st.var("open")) == [0, 2]  # a value is kept as its place in `values`


def test_ouvert_named_then_outbid_and_the_list_reads_as_named(engine):
    st = start(engine)
    st.apply("name ouvert")
    st.apply("name null")
    st.apply("name suit")
    lines = st.transcript()
    assert "P2 names suit; still open: grand" in lines
    assert "games named: ouvert, null, suit; P2 plays suit" in lines
    assert "ouvert was outbid" in lines  # `ouvert in named and contract != ouvert`


def test_when_nobody_names_a_game_the_first_still_open_is_played(engine):
    st = start(engine)
    for _ in range(3):
        st.apply("pass")
    lines = st.transcript()
    assert "nobody named a game: suit is played" in lines  # `open[1]`
    assert "null was not named" in lines and "ouvert was not named" in lines
    assert st.observation(0)["variables"]["named"] == []


# ------------------------------------------------------ every use of a list of declared values
EVERY_USE = '''game "Lists of values"
players 2
deck piquet
values kind: suit grand null ouvert
values strain: low high
zone stock: pile, hidden
var some: list of kind = []
var lows = [low]
var picked: kind = none
per player var refused: list of kind = [null, ouvert]

phase show(ks: list of kind):
    announce "shown: {ks} ({count(ks)})"

round:
    move all cards to stock
    set some = some + [null, grand]
    set some[1] = ouvert
    show(some)
    announce "{some[2]} {grand in some} {suit in some} {some == [ouvert, grand]} {some != [grand]}"
    announce "{any k in some where k > null} {select k in some where k < null} {count k in some where k != grand}"
    set some = some except [grand]
    set refused(top of players)[1] = suit
    announce "{some} / {refused(top of players)} / {refused(bottom of players)} / {lows}"
    for each k in refused(top of players) + some:
        announce "each {k}"
    top of players chooses:
        a kind k from refused(top of players) where k != ouvert as "refuse {k}":
            set picked = k
        a kind k from some as "play {k}":
            set picked = k
        "pass":
            pass
    announce "picked {picked}; {[picked] + some}"
    end game
'''


def test_a_list_of_declared_values_is_set_indexed_compared_joined_and_chosen_from(tmp_path, engine):
    f = tmp_path / "every_use.cards"
    f.write_text(EVERY_USE)
    assert codes(EVERY_USE) == []
    st = cardlang.load(str(f), engine=engine).new_initial_state(seed=0)
    lines = st.transcript()
    assert "shown: ouvert, grand (2)" in lines  # `[] + [null, grand]`, then `some[1] = ouvert`
    assert "grand true false true true" in lines
    assert "true grand 1" in lines  # `any`, `select`, `count … where`
    assert "ouvert / suit, ouvert / null, ouvert / low" in lines
    assert [line for line in lines if line.startswith("each")] == ["each suit", "each ouvert", "each ouvert"]
    assert labels(st) == ["refuse suit", "play ouvert", "pass"]
    st.apply("refuse suit")
    assert st.transcript()[-2] == "picked suit; suit, ouvert"


# ------------------------------------------------------------------------ what the checker says
@pytest.mark.parametrize("line, code, message", [
    ('var bad = [grand, low]', "E012", "a list mixes `kind` values and `strain` values"),
    ('var bad = [grand, 3]', "E012", "a list mixes `kind` values and numbers"),
    ('var bad = [grand, hearts]', "E012", "a list mixes `kind` values and suits"),
    ('var bad = [grand, none]', "E012", "a list mixes `kind` values and `none`"),
    ('var bad: list of kind = [low]', "E012",
     "`bad` is declared a list of kind values but starts as a list of strain values"),
    ('var bad: list of kinds = []', "E012", "`list of kinds` is not a type"),
    ('var bad: cards of kind = []', "E012", "`cards of kind` is not a type"),
])
def test_a_list_holds_values_of_one_declaration(line, code, message):
    source = EVERY_USE.replace("var picked: kind = none", "var picked: kind = none\n" + line)
    assert (code, message) in codes(source)


@pytest.mark.parametrize("old, new, message", [
    ("set some = some + [null, grand]", "set some = some + [low]",
     "what `+` joins must be a list of kind values, but this is a list of strain values"),
    ("set some = some + [null, grand]", "set some = lows",
     "`some` holds a list of kind values, not a list of strain values"),
    ("set some[1] = ouvert", "set some[1] = low", "`some` holds a kind, not a strain"),
    ("{grand in some}", "{low in some}", "the left side of `in` must be a kind, but this is a strain"),
    ("{some == [ouvert, grand]}", "{some == lows}",
     "`==` compares a list of kind values with a list of strain values: they are never equal"),
    ("a kind k from some as", "a kind k from lows as",
     "a kind is chosen from a list of kind values, but this is a list of strain values"),
    ("a kind k from some as", "a kind k from 3 as", "a kind is chosen from a list of kind values, but this is a number"),
    ("set some = some except [grand]", "set some = some except [low]",
     "what `except` leaves out must be a list of kind values or a kind, but this is a list of strain values"),
    ("show(some)", "show(lows)", "parameter `ks` must be a list of kind values, but this is a list of strain values"),
])
def test_a_list_of_values_used_with_another_declarations_values_is_E012(old, new, message):
    assert old in EVERY_USE
    got = codes(EVERY_USE.replace(old, new))
    assert ("E012", message) in got, got


def test_a_list_changed_by_what_a_hand_holds_is_seen_by_every_seat_W004():
    source = open(path(OPEN)).read()
    assert codes(source) == []
    told = source.replace("                set open = open except k\n",
                          "                set open = open except k\n"
                          "                if hand(p) has A of spades:\n"
                          "                    set open = open except suit\n")
    assert told != source
    got = codes(told)
    assert [c for c, _ in got] == ["W004"] and "`open`" in got[0][1] and "hand(p)" in got[0][1]


def test_completion_offers_a_list_of_each_declared_type():
    from cardlang.tools import analysis

    a = analysis.analyse(EVERY_USE, "t.cards")
    line = EVERY_USE.split("\n").index("var some: list of kind = []") + 1
    types = [c.label for c in analysis.complete(a, line, len("var some: ") + 1)]
    assert {"kind", "strain", "list of kind", "list of strain", "list"} <= set(types)


def test_fmt_keeps_list_of_kind_as_written():
    from cardlang.tools.fmt import format_source

    assert format_source(EVERY_USE) == EVERY_USE


# ------------------------------------------------------------------------------ the native engine
def test_the_native_engine_plays_the_games_still_open_as_the_other_engines():
    pytest.importorskip("numba")
    from test_native import _same_games

    _same_games(OPEN, 3)
