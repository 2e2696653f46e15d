"""Scenario tests of melds and combinations in the language: the knock rummy and counting show
examples with stacked deals, and the functions on hands laid out by hand."""

from __future__ import annotations

import random

import pytest

import cardlang
from scenario import ENGINES, path, random_playout

RUMMY = "examples/knock_rummy.cards"
SHOW = "examples/counting_show.cards"


def start(relative, players, engine, stack, **options):
    game = cardlang.load(path(relative), players, options=options, engine=engine)
    return game, game.new_initial_state(seed=1, stack=stack, draws=[0])


def choose(state, label):
    for a in state.legal_actions():
        if a.label == label:
            state.apply(a.id)
            return
    raise AssertionError(f"{label!r} not among {[a.label for a in state.legal_actions()]}")


def dealt(first, second, *rest):
    """A stack dealing one card at a time, `first` getting the first card, then the rest."""
    return [c for pair in zip(first, second) for c in pair] + list(rest)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_knock_laid_off_and_undercut(engine):
    # the dealer is P0, so P1 is dealt first and plays first
    knocker = "4s 5s 6s 8c 8d 8h Ac Ad 2c 9h".split()
    defender = "7s 3s 8s Kd Kc Kh Qd Jd 10d 2h".split()
    game, st = start(RUMMY, 2, engine, dealt(knocker, defender, "Qc", "3h"), hands=1)
    choose(st, "draw from the stock")  # 3♥
    labels = [a.label for a in st.legal_actions()]
    # only with the 9♥ gone is what is left (A A 2 3) worth 10 or less
    assert [x for x in labels if x.endswith("knock")] == ["discard 9♥ and knock"]
    choose(st, "discard 9♥ and knock")
    assert st.is_terminal()
    # the defender melds K K K and 10-J-Q of diamonds, lays 3♠ 7♠ 8♠ off, and keeps 2♥
    assert sorted(st.zone("laid", 1)) == sorted("4s 5s 6s 8c 8d 8h 3s 7s 8s".split())
    assert sorted(st.zone("laid", 0)) == sorted("Kd Kc Kh Qd Jd 10d".split())
    assert st.zone("hand", 0) == ["2h"]
    assert st.scores() == [7 - 2 + 25, 0]
    assert "P0 undercuts and scores 30" in st.transcript()


@pytest.mark.parametrize("engine", ENGINES)
def test_going_gin_lays_nothing_off(engine):
    knocker = "4s 5s 6s 8c 8d 8h Ac 2c 3c 4c".split()
    defender = "7s 3s 9s Kd Kc Kh Qd Jd 10d 2h".split()
    game, st = start(RUMMY, 2, engine, dealt(knocker, defender, "Qc", "Jh"), hands=1)
    choose(st, "draw from the stock")
    choose(st, "discard J♥ and knock")
    # nothing goes onto a gin hand: 7♠ 3♠ 9♠ 2♥ count 21
    assert st.scores() == [0, 21 + 25]
    assert len(st.zone("laid", 1)) == 10 and sorted(st.zone("hand", 0)) == sorted("7s 3s 9s 2h".split())


@pytest.mark.parametrize("engine", ENGINES)
def test_the_show_counts_fifteens_pairs_runs_and_flushes(engine):
    p1 = "5c 5d 5h Js 2c".split()
    p0 = "2h 3h 4h 6h Kc".split()
    game, st = start(SHOW, 2, engine, dealt(p1, p0, "5s"), deals=1)
    choose(st, "put 2♣ in the crib")
    choose(st, "put K♣ in the crib")
    lines = st.transcript()
    # four fives and a jack: eight fifteens and six pairs
    assert "P1 counts 28" in lines
    # 2 3 4 6 hearts and the 5 of spades: two fifteens, a run of five, a flush of four
    assert "P0 counts 13" in lines
    assert "P0 counts 2 in the crib" in lines  # K + 5
    assert st.scores() == [15, 28] and st.winners() == (1,)


@pytest.mark.parametrize("engine", ENGINES)
def test_random_games_keep_every_card(engine):
    for relative, players in ((RUMMY, 2), (SHOW, 3)):
        game = cardlang.load(path(relative), players, engine=engine)
        for seed in range(3):
            st = game.new_initial_state(seed=seed)
            random_playout(st, random.Random(seed))
            assert sorted(c for z in st.zones for c in z) == list(range(52))


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("call", ["deadwood(all cards)", "count(melded(all cards))"])
def test_too_many_cards_to_arrange_is_a_rule_error_where_the_rules_ask(tmp_path, engine, call):
    # the emitted engine calls `deadwood` on the rule itself, which raises the rule error there
    file = tmp_path / "many.cards"
    file.write_text(f'''game "Many"
players 1
deck standard
order run: A 2 3 4 5 6 7 8 9 10 J Q K
melds: sets 3, runs 3 in run
var x = 0

round:
    set x = {call}
    end game
''', encoding="utf-8")
    with pytest.raises(cardlang.RuleError, match=r"many\.cards:9:\d+: rule error: 52 cards have too many ways"):
        cardlang.load(str(file), 1, engine=engine).new_initial_state(seed=1)
