"""Combinations that beat combinations (issue 28, item 2): `combinations by ORDER: single, pair,
triple, four, run N, bomb N`, `kind(cs)`, `beats(cs, laid)`, `p passes` and `everyone else passed`
(docs/language.md, "Combinations that beat combinations"). tests/engine/combinations.cards is a
climbing game of singles, pairs, triples, runs of three or more and bombs; both engines (the
`engine` fixture); the rule by itself (runtime/climbing.py), by hypothesis; the checker's errors;
a file that used the new words as names; the research adapters' run of indices for a set."""

from __future__ import annotations

import random

import cardlang
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardlang.lang.check import check
from cardlang.lang.parse import parse
from cardlang.research.encoding import Encoder
from cardlang.runtime import card_sets
from cardlang.runtime.climbing import ClimbRule
from cardlang.tools.fmt import format_source
from scenario import labels, path, random_playout

COMBOS = path("tests/engine/combinations.cards")
OLD = path("tests/engine/climbing_old_names.cards")


def start(engine, hands, players=2):
    """The game with the hands dealt as listed (cards are dealt one at a time from the top)."""
    stack = [c for cards in zip(*hands) for c in cards]
    return cardlang.load(COMBOS, players=players, engine=engine).new_initial_state(seed=0, stack=stack)


def test_a_lead_is_any_combination_labelled_as_a_person_says_it(engine):
    s = start(engine, [["3c", "4d", "5h", "9c", "9d", "9h", "9s", "Kc"], ["6c", "7d", "8h", "4s", "5s", "6s", "Ac", "Ad"]])
    got = labels(s)
    assert got[:8] == ["3♣", "4♦", "5♥", "9♣", "9♦", "9♥", "9♠", "K♣"]  # singles; no pass on an empty table
    assert got[8:14] == [f"pair of 9s: {a}, {b}" for a, b in
                         [("9♣", "9♦"), ("9♣", "9♥"), ("9♣", "9♠"), ("9♦", "9♥"), ("9♦", "9♠"), ("9♥", "9♠")]]
    assert got[14] == "run 3-5: 3♣, 4♦, 5♥"  # 9 K is no run; 3 4 5 9 is not either
    assert got[15:19] == ["three 9s: 9♣, 9♦, 9♥", "three 9s: 9♣, 9♦, 9♠", "three 9s: 9♣, 9♥, 9♠", "three 9s: 9♦, 9♥, 9♠"]
    assert got[19:] == ["bomb of 9s: 9♣, 9♦, 9♥, 9♠"]  # four of a rank is the bomb, not a `four`


def test_a_run_is_beaten_by_a_run_as_long_with_a_higher_top(engine):
    s = start(engine, [["3c", "4d", "5h", "9c", "9d", "9h", "9s", "Kc"], ["6c", "7d", "8h", "4s", "5s", "6s", "Ac", "Ad"]])
    s.apply("run 3-5: 3♣, 4♦, 5♥")
    assert "P0 plays a run" in s.transcript()
    # runs of three with a top above 5 (either 6); not the pair of aces, no single, no run 3-5 or lower
    assert labels(s) == ["run 6-8: 6♣, 7♦, 8♥", "run 5-7: 6♣, 7♦, 5♠", "run 4-6: 6♣, 4♠, 5♠",
                         "run 6-8: 7♦, 8♥, 6♠", "run 5-7: 7♦, 5♠, 6♠", "run 4-6: 4♠, 5♠, 6♠", "pass"]
    s.apply("run 6-8: 6♣, 7♦, 8♥")
    assert s.zone("trick") == ["6c", "7d", "8h"] and sorted(s.zone("cleared")) == ["3c", "4d", "5h"]
    assert labels(s) == ["bomb of 9s: 9♣, 9♦, 9♥, 9♠", "pass"]  # the bomb beats a run


def test_a_bomb_beats_anything_and_only_a_higher_bomb_beats_it(engine):
    s = start(engine, [["3c", "4d", "5h", "9c", "9d", "9h", "9s", "Kc"], ["Kd", "Ks", "Ac", "Ad", "As", "Ah", "2c", "2d"]])
    s.apply("K♣")
    got = labels(s)
    assert "K♦" not in got and "A♣" in got and "2♦" in got and "pair of As: A♣, A♦" not in got
    assert "bomb of As: A♣, A♦, A♠, A♥" in got
    s.apply("bomb of As: A♣, A♦, A♠, A♥")
    assert labels(s) == ["pass"]  # the bomb of 9s is lower
    s = start(engine, [["3c", "4d", "5h", "9c", "9d", "9h", "9s", "Kc"], ["Kd", "Ks", "Ac", "Ad", "As", "Ah", "2c", "2d"]])
    s.apply("bomb of 9s: 9♣, 9♦, 9♥, 9♠")
    assert labels(s) == ["bomb of As: A♣, A♦, A♠, A♥", "pass"]  # nothing but a higher bomb


def test_the_trick_is_cleared_when_everyone_else_passed_in_turn(engine):
    hands = [["3c", "4c", "5c", "6c", "7c", "8c", "9c", "10c"], ["3d", "4d", "5d", "6d", "7d", "8d", "9d", "10d"],
             ["Jh", "Qh", "Kh", "Ah", "2h", "3h", "4h", "5h"]]
    s = start(engine, hands, players=3)
    s.apply("10♣")
    s.apply("pass")  # P1 passes: one pass in a row
    s.apply("J♥")  # P2 plays: the count starts again
    s.apply("pass")  # P0: one pass since P2 played, not yet everyone else
    assert s.current_player == 1 and s.zone("trick") == ["Jh"]
    assert not any("everyone else passed" in line for line in s.transcript())
    s.apply("pass")  # P1: both others passed in turn
    assert "everyone else passed: P2 leads" in s.transcript()
    assert s.current_player == 2 and s.zone("trick") == []
    assert "pass" not in labels(s)  # a lead: anything, no pass


def test_a_game_plays_to_its_end_and_the_first_out_wins(engine):
    g = cardlang.load(path("examples/combinations_climb.cards"), players=4, engine=engine)
    for seed in range(3):
        s = g.new_initial_state(seed=seed)
        random_playout(s, random.Random(seed))
        assert s.is_terminal() and sorted(s.returns()) == [0.0, 0.0, 0.0, 1.0]
        winner = s.returns().index(1.0)
        assert s.zone("hand", winner) == [] and all(s.zone("hand", p) for p in range(4) if p != winner)


# ------------------------------------------------------------------ the rule by itself
RANKS = "3 4 5 6 7 8 9 10 J Q K A 2".split()
RULE = ClimbRule(tuple(c // 4 + 1 for c in range(52)), tuple(c // 4 for c in range(52)), lambda c: RANKS[c // 4],
                 {"single": 1, "pair": 2, "triple": 3, "run": 3, "bomb": 4})


def cards(*names):
    """Card ids of this test's deck (rank `r` is ids 4r..4r+3) from `rank:copy` names."""
    return tuple(RANKS.index(n.split(":")[0]) * 4 + int(n.split(":")[1]) for n in names)


@pytest.mark.parametrize("play, kind", [
    (("7:0",), "single"), (("7:0", "7:1"), "pair"), (("7:0", "7:1", "7:2"), "triple"), (("7:0", "7:1", "7:2", "7:3"), "bomb"),
    (("3:0", "4:1", "5:2"), "run"), (("Q:0", "K:0", "A:0", "2:0"), "run"), (("3:0", "4:1"), None),
    (("3:0", "4:1", "6:2"), None), (("3:0", "3:1", "4:0"), None), ((), None)])
def test_the_kind_of_a_play(play, kind):
    assert RULE.kind(cards(*play)) == kind


@pytest.mark.parametrize("play, laid, beats", [
    (("8:0",), ("7:0",), True), (("7:1",), ("7:0",), False), (("8:0", "8:1"), ("7:0",), False),
    (("4:0", "5:0", "6:0"), ("3:0", "4:1", "5:1"), True), (("4:0", "5:0", "6:0", "7:0"), ("3:0", "4:1", "5:1"), False),
    (("3:0", "3:1", "3:2", "3:3"), ("2:0", "2:1", "2:2"), True), (("3:0", "3:1", "3:2", "3:3"), ("4:0", "4:1", "4:2", "4:3"), False),
    (("2:0",), ("3:0", "3:1", "3:2", "3:3"), False), (("3:0",), (), True), (("3:0", "4:0"), (), False)])
def test_what_beats_what(play, laid, beats):
    assert RULE.beats(cards(*play), cards(*laid)) is beats


plays = st.lists(st.integers(0, 51), min_size=1, max_size=6, unique=True).map(tuple)


@settings(deadline=None, max_examples=300)
@given(plays, plays)
def test_beating_is_never_both_ways_and_only_combinations_beat(a, b):
    assert not (RULE.beats(a, b) and RULE.beats(b, a))
    assert not RULE.beats(a, a)
    if RULE.beats(a, b):
        assert RULE.kind(a) is not None and RULE.kind(b) is not None
        assert RULE.kind(a) == "bomb" or (RULE.kind(a) == RULE.kind(b) and len(a) == len(b))


# ------------------------------------------------------------------ the checker
HEAD = ('game "t"\nplayers 2\ndeck standard\norder climb: 3 4 5 6 7 8 9 10 J Q K A 2\n'
        'zone stock: pile, hidden\nzone hand: per player, private\nzone trick: pile, public\n')


def diagnostics(text: str) -> list:
    module, found = parse(text, "t.cards")
    assert module is not None, found
    return [f"{d.code} {d.span.line}: {d.message}" + (f" ({d.help})" if d.help else "") for d in check(module)[1]]


def test_misused_combinations_are_errors(snapshot):
    bad = {
        "an unknown order, a run of one, a kind that is none, a kind twice":
            "combinations by clinb: single, run 1, flush, pair, pair\n",
        "a four that the bomb makes": "combinations by climb: single, four, bomb 4\n",
        "declared twice": "combinations by climb: single\ncombinations by climb: pair\n",
        "`kind` and `beats` without `combinations`": "",
    }
    got = {}
    for name, decl in bad.items():
        rest = 'round:\n    deal 2 from stock to hand(players)\n    announce "{kind(hand(top of players))}"\n' \
               '    if beats(hand(top of players), trick):\n        end game\n    end game\n'
        got[name] = diagnostics(HEAD + decl + rest)
    got["`beats` given a number"] = diagnostics(HEAD + "combinations by climb: single\n"
                                                "round:\n    if beats(1, trick):\n        end game\n    end game\n")
    got["`everyone else passed` with no `passes`"] = diagnostics(
        HEAD + "round:\n    if everyone else passed:\n        end game\n    end game\n")
    got["`passes` said of a number"] = diagnostics(
        HEAD + 'round:\n    top of players chooses:\n        "pass":\n            3 passes\n    end game\n')
    assert all(got.values())
    assert got == snapshot


# ------------------------------------------------------------------ old files and tools
def test_a_file_that_used_the_new_words_as_names_checks_and_plays(engine):
    """`var passes`, `add 1 to passes`, `define beats(cs: cards)` and `where beats(cs)`: the
    language's `beats` is hidden by the file's own, `passes` is a name where a name fits."""
    text = open(OLD, encoding="utf-8").read()
    module, found = parse(text, OLD)
    assert found == [] and [d for d in check(module)[1] if d.is_error or d.code.startswith("W")] == []
    assert format_source(text) == text
    g = cardlang.load(OLD, players=3, engine=engine)
    s = g.new_initial_state(seed=1)
    random_playout(s, random.Random(1))
    assert s.is_terminal() and sorted(s.returns()) == [0.0, 0.0, 1.0]


def test_the_new_files_format_to_themselves():
    for f in (COMBOS, path("examples/combinations_climb.cards"), path("examples/climbing.cards")):
        text = open(f, encoding="utf-8").read()
        assert format_source(text) == text


def test_a_set_of_up_to_ten_cards_has_a_bounded_run_of_indices():
    """The research adapters index a set by its value among the sets of 16 places: `a set of 1 to 10`
    is a run of sum C(16, k), k = 1..10, indices (runtime/card_sets.py), the pass one more."""
    g = cardlang.load(path("examples/combinations_climb.cards"), players=3)
    enc = Encoder(g)
    sets = [(start, width) for _, _, start, width, kind in enc.alternatives if kind == "set"]
    assert [w for _, w in sets] == [card_sets.width(1, 10)] and card_sets.width(1, 10) < 1 << 16
    assert enc.num_actions == card_sets.width(1, 10) + 1
    s = g.new_initial_state(seed=0, log=False)
    view = s.view(s.current_player, past=False)
    legal = enc.legal_indices(view)
    assert len(legal) == len(s.legal_actions()) and all(0 <= i < enc.num_actions for i in legal)


def test_a_person_types_a_run_by_its_words_or_its_ranks():
    from cardlang.cli.answers import match_answer

    got = ["3♣", "run 3-5: 3♣, 4♦, 5♥", "pass", "run 3-6: 3♣, 4♦, 5♥, 6♠"]
    assert match_answer("run 3-5", got) == (1, "")
    assert match_answer("3 4 5", got) == (1, "")
    assert match_answer("3 4 5 6", got) == (3, "")


def test_the_editor_offers_the_new_words():
    """Completion (cardlang/tools/analysis.py): `combinations` where a declaration starts (read from
    the grammar), `kind`, `beats` and `everyone else passed` where an expression goes."""
    from cardlang.tools import analysis

    text = open(COMBOS, encoding="utf-8").read()
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if "if everyone else passed" in line)
    a = analysis.analyse(text, "x.cards")
    got = [c.label for c in analysis.complete(a, at + 1, len("    if ") + 1)]
    assert {"kind", "beats", "everyone else passed"} <= set(got)
    top = [c.label for c in analysis.complete(analysis.analyse('game "g"\nplayers 2\ndeck standard\n\n', "x.cards"), 4, 1)]
    assert "combinations by" in top


def test_a_pass_said_in_a_phase_counts_as_one_in_the_alternative(engine, tmp_path):
    """The alternative's body plays a phase that says `p passes`: the count goes on (a decision whose
    alternative says no `passes`, in its body or the phases it plays, starts it again)."""
    f = tmp_path / "phase_pass.cards"
    f.write_text('game "t"\nplayers 3\ndeck standard\nzone stock: pile, hidden\nzone hand: per player, private\n'
                 'var turn: player = none\n'
                 'setup:\n    deal 2 from stock to hand(players)\n    set turn = top of players\n'
                 'round:\n    turn chooses:\n        "play":\n            move top of hand(turn) to stock\n'
                 '        "pass":\n            give_up(turn)\n'
                 '    if everyone else passed:\n        announce "everyone else passed"\n        end game winner turn\n'
                 '    set turn = next of turn\n'
                 'phase give_up(p):\n    p passes\n', encoding="utf-8")
    s = cardlang.load(str(f), players=3, engine=engine).new_initial_state(seed=0)
    s.apply("play")
    s.apply("pass")
    s.apply("play")  # the count starts again
    s.apply("pass")
    assert not s.is_terminal()
    s.apply("pass")  # P0 and P1 passed in turn after P2 played
    assert s.is_terminal() and "everyone else passed" in s.transcript()
