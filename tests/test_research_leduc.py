"""Leduc poker as a rule file against OpenSpiel's own `leduc_poker` (issue 31 item 3), and the lazy
shuffle that gives its OpenSpiel tree its natural size: chance picks a card of the shuffled stock
when a deal takes it (`cardlang/research/chance.py`), so the tree has the native game's states,
chance nodes and information sets, and CFR on it runs as on the native game, iteration for
iteration. Both engines deal through the same hook (`runtime.steps.settle`): a differential test
plays the same courses on both."""

from __future__ import annotations

import random

import pyspiel
import pytest
from open_spiel.python import policy
from open_spiel.python.algorithms import expected_game_score

import cardlang
from cardlang import openspiel
from cardlang.research.chance import NeedChance, Script, lazy_zones
from scenario import ENGINES, path

LEDUC = "examples/leduc_poker.cards"
KUHN = "examples/kuhn_poker.cards"


def _walk(game) -> dict:
    """Every node of the game's tree, counted by kind, and its information sets."""
    counts = {"all": 0, "chance": 0, "terminal": 0, "decision": 0}
    sets = set()
    stack = [game.new_initial_state()]
    while stack:
        s = stack.pop()
        counts["all"] += 1
        if s.is_terminal():
            counts["terminal"] += 1
        elif s.is_chance_node():
            counts["chance"] += 1
            stack.extend(s.child(a) for a, _ in s.chance_outcomes())
        else:
            counts["decision"] += 1
            sets.add(s.information_state_string())
            stack.extend(s.child(a) for a in s.legal_actions())
    counts["information sets"] = len(sets)
    return counts


@pytest.mark.parametrize("ours, native", [(LEDUC, "leduc_poker"), (KUHN, "kuhn_poker")])
def test_the_tree_has_the_native_games_size(ours, native):
    found = _walk(openspiel.load_game(path(ours)))
    assert found == _walk(pyspiel.load_game(native))
    if native == "leduc_poker":  # (61,717 states when the whole stock was drawn at the shuffle)
        assert found == {"all": 9457, "chance": 157, "terminal": 5520, "decision": 3780, "information sets": 936}


def test_chance_deals_a_card_of_the_stock_when_it_is_dealt():
    g = openspiel.load_game(path(LEDUC))
    deck = g.cards.deck
    state = g.new_initial_state()
    assert state.chance_outcomes() == [(c, 1 / 6) for c in range(6)]  # P0's card, at the deal
    assert [state.action_to_string(pyspiel.PlayerId.CHANCE, c) for c in range(6)] == \
        [f"chance: {deck.label_of(c, copy=True)} dealt" for c in range(6)]
    state.apply_action(5)
    assert state.chance_outcomes() == [(c, 1 / 5) for c in range(5)]  # P1's
    state.apply_action(0)
    assert state.current_player() == 0  # no chance node for the four cards left in the stock
    state.apply_action(state.legal_actions()[0])  # a check
    state.apply_action(state.legal_actions()[0])  # a check: the board card is dealt now
    assert state.chance_outcomes() == [(c, 1 / 4) for c in (1, 2, 3, 4)]
    state.apply_action(3)
    assert deck.label_of(3) in state.information_state_string(1)
    back = g.deserialize_state(state.serialize())
    assert back.history() == state.history() and str(back) == str(state)


@pytest.fixture(scope="module")
def trees():
    """The rule file's tree cached by OpenSpiel (each state comes from the Python game once) and
    the native game."""
    return pyspiel.convert_to_cached_tree(openspiel.load_game(path(LEDUC))), pyspiel.load_game("leduc_poker")


def test_uniform_play_has_the_native_value_and_exploitability(trees):
    values = [expected_game_score.policy_value(g.new_initial_state(), [policy.UniformRandomPolicy(g)] * 2)
              for g in trees]
    assert list(values[0]) == pytest.approx(list(values[1]), abs=1e-6)
    ours, native = (pyspiel.exploitability(g, pyspiel.UniformRandomPolicy(g)) for g in trees)
    assert ours == pytest.approx(native, abs=1e-6) and native > 0


@pytest.mark.parametrize("solver", ["CFRSolver", "CFRPlusSolver"])
def test_cfr_on_the_tree_is_the_native_games_iteration_for_iteration(trees, solver):
    """pyspiel's C++ CFR and CFR+ over the cached tree: the exploitability of the average policy the
    same as on the native game to six decimals, iteration after iteration."""
    found = []
    for g in trees:
        s = getattr(pyspiel, solver)(g)
        trail = []
        for i in range(1, 13):
            s.evaluate_and_update_policy()
            if i in (1, 2, 3, 6, 12):
                trail.append(pyspiel.exploitability(g, s.average_policy()))
        found.append(trail)
    assert found[0] == pytest.approx(found[1], abs=1e-6)
    assert found[0][-1] < found[0][0]


# --------------------------------------------------------------------------- the lazy shuffle
def test_the_zones_shuffled_lazily_are_the_hidden_piles_only_dealt_from_and_counted(tmp_path):
    names = lambda g: sorted(g.program.zone_names[z] for z in lazy_zones(g.program))  # noqa: E731
    assert names(cardlang.load(path(LEDUC))) == ["stock"]
    assert names(cardlang.load(path("examples/holdem.cards"), 2)) == ["stock"]  # cards come back, then a shuffle
    assert names(cardlang.load(path("examples/colour_match.cards"))) == []
    base = path(KUHN)
    source = open(base, encoding="utf-8").read()
    for rule, lazy in [("    announce \"{count(stock)} left\"", ["stock"]),
                       ("    announce \"{top of stock} lies on top\"", []),  # the order read
                       ("    move top of stock to hand(first)", []),
                       ("    forget order of stock", [])]:
        f = tmp_path / "variant.cards"
        f.write_text(source.replace("    let first = top of players\n", f"    let first = top of players\n{rule}\n"),
                     encoding="utf-8")
        assert names(cardlang.load(str(f))) == lazy, rule


@pytest.mark.parametrize("engine", ENGINES)
def test_a_deal_from_a_lazy_pile_asks_the_chance_source_for_each_card(engine):
    g = cardlang.load(path(LEDUC), engine=engine)
    lazy = lazy_zones(g.program)
    with pytest.raises(NeedChance) as e:
        g.new_initial_state(chance=Script((), 0, lazy))
    # asked at the deal, not the shuffle: two cards, one after the other, among the six
    assert (e.value.kind, e.value.data) == ("card", (tuple(range(6)), 2))
    with pytest.raises(NeedChance) as e:
        g.new_initial_state(chance=Script((4,), 0, lazy))
    assert (e.value.kind, e.value.data) == ("card", ((0, 1, 2, 3, 5), 1))
    state = g.new_initial_state(chance=Script((4, 1), 0, lazy))
    assert [state.zone("hand", p) for p in (0, 1)] == [[g.card_name(4)], [g.card_name(1)]]
    assert sorted(state.zones[g.program.zone_families["stock"][0]]) == [0, 2, 3, 5]
    with pytest.raises(Exception, match="scripted card 4 is not an open card"):  # not in the stock
        g.new_initial_state(chance=Script((4, 4), 0, lazy))


def test_both_engines_play_the_same_lazy_courses():
    """The differential test of the deal's hook: random courses of the OpenSpiel game, chance and
    decisions alike, give the same nodes, strings and returns on both engines."""
    games = [openspiel.load_game(path(LEDUC), engine=e) for e in ENGINES]
    r = random.Random(31)
    for _ in range(40):
        states = [g.new_initial_state() for g in games]
        while not states[0].is_terminal():
            seen = [(s.current_player(), s.chance_outcomes() if s.is_chance_node() else s.legal_actions(),
                     str(s), [s.information_state_string(p) for p in range(2)] if not s.is_chance_node() else [])
                    for s in states]
            assert seen[0] == seen[1]
            moves = seen[0][1]
            a = r.choice(moves)[0] if states[0].is_chance_node() else r.choice(moves)
            for s in states:
                s.apply_action(a)
        assert states[1].is_terminal() and states[0].returns() == states[1].returns()


# ------------------------------------------------- what a state remembers (issue 31 item 5)
def _all_states(game) -> list:
    out, stack = [], [game.new_initial_state()]
    while stack:
        s = stack.pop()
        out.append(s)
        if not s.is_terminal():
            actions = [a for a, _ in s.chance_outcomes()] if s.is_chance_node() else s.legal_actions()
            stack.extend(s.child(a) for a in actions)
    return out


def _shown(s) -> tuple:
    """Everything OpenSpiel reads of a state (both seats' strings and tensors, the moves, the end)."""
    if s.is_chance_node():
        return str(s), s.chance_outcomes(), s.history()
    seats = range(2)
    return (str(s), s.history(), s.is_terminal(), s.returns(), s.current_player(),
            [s.legal_actions(p) for p in seats] if not s.is_terminal() else [],
            [s.information_state_string(p) for p in seats], [s.information_state_tensor(p) for p in seats],
            [s.observation_string(p) for p in seats], [s.observation_tensor(p) for p in seats])


def test_a_state_remembers_the_states_its_actions_lead_to_and_they_are_what_a_fresh_one_gives(monkeypatch):
    g = openspiel.load_game(path(KUHN))
    openspiel.forget_states()
    a, b = g.new_initial_state(), g.new_initial_state()
    a.apply_action(2)
    b.apply_action(2)
    assert a._core is b._core  # remembered: the same child, not a replay
    remembered = [_shown(s) for s in _all_states(g)]
    assert [_shown(s) for s in _all_states(g)] == remembered  # (asked again: from what is kept)
    monkeypatch.setattr(openspiel, "MEMO", 0)
    openspiel.forget_states()
    c, d = g.new_initial_state(), g.new_initial_state()
    c.apply_action(2)
    d.apply_action(2)
    assert c._core is not d._core
    assert [_shown(s) for s in _all_states(g)] == remembered  # every state made afresh: the same
    openspiel.forget_states()


def test_the_states_remembered_are_bounded_per_game(monkeypatch):
    monkeypatch.setattr(openspiel, "MEMO", 5)
    openspiel.forget_states()
    g = openspiel.load_game(path(LEDUC))
    states = _all_states(g)
    assert openspiel._MEMO_LEFT[g.key] == 0
    kept = sum(len(s._core.kids) for s in states)
    assert kept == 5 and len(states) == 9457
    openspiel.forget_states()
