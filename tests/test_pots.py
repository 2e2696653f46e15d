"""Pots and betting (docs/language.md, "Pots and betting"): the side pots and splits of
`runtime/pots.py` against a brute-force oracle (hypothesis), and scenario tests of each rule on
both engines: stack the deck, play the moves, assert the outcome."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardlang
from cardlang.runtime import pots
from scenario import ENGINES, labels, path, play

BOARD = ["2c", "7d", "9h", "Js", "Kc"]  # no straight, no flush with the hands below


# ------------------------------------------------------------------ side pots against an oracle
def oracle(contrib: list, folded: set, value: dict, order: tuple) -> list:
    """What each seat wins, chip layer by chip layer: the k-th chip of everyone who paid k or more
    goes to the players still in who paid k or more; consecutive layers with the same players make
    one pot, split evenly, the odd chips one each to its winners first in `order`."""
    n = len(contrib)
    still_in = [p for p in range(n) if p not in folded]
    layers = []  # (chips, who may win them)
    for k in range(1, max(contrib, default=0) + 1):
        payers = [p for p in range(n) if contrib[p] >= k]
        eligible = tuple(p for p in still_in if contrib[p] >= k)
        if not eligible:  # nobody still in paid that much: each payer's chip goes back
            layers += [(1, (p,)) for p in payers]
        elif layers and layers[-1][1] == eligible:
            layers[-1] = (layers[-1][0] + len(payers), eligible)
        else:
            layers.append((len(payers), eligible))
    won = [0] * n
    for chips, eligible in layers:
        best = max(value[p] for p in eligible) if len(eligible) > 1 else None
        winners = [p for p in order if p in eligible and (best is None or value[p] == best)]
        for i, p in enumerate(winners):
            won[p] += chips // len(winners) + (1 if i < chips % len(winners) else 0)
    return won


@st.composite
def showdowns(draw):
    n = draw(st.integers(2, 6))
    contrib = draw(st.lists(st.integers(0, 40), min_size=n, max_size=n))
    folded = set(draw(st.lists(st.integers(0, n - 1), max_size=n - 1)))
    value = {p: draw(st.integers(0, 3)) for p in range(n) if p not in folded}  # small: many ties
    first = draw(st.integers(0, n - 1))
    return contrib, folded, value, tuple((first + i) % n for i in range(n))


@settings(max_examples=400, deadline=None)
@given(showdowns())
def test_side_pots_and_splits_agree_with_the_oracle(case):
    contrib, folded, value, order = case
    still_in = tuple(p for p in range(len(contrib)) if p not in folded)
    won = pots.shares(pots.side_pots(contrib, still_in), value, order)
    assert won == oracle(contrib, folded, value, order)
    assert sum(won) == sum(contrib)  # chips conserved
    for p in still_in:  # nobody wins more from another player than he put in himself
        assert won[p] <= sum(min(x, contrib[p]) for x in contrib)
    top = max((contrib[p] for p in still_in), default=0)
    for p in folded:  # a folded player gets back only what nobody still in matched
        assert won[p] == max(0, contrib[p] - top)


@settings(max_examples=200, deadline=None)
@given(showdowns())
def test_a_pot_split_gives_shares_one_chip_apart_the_larger_first_in_order(case):
    contrib, folded, value, order = case
    still_in = tuple(p for p in range(len(contrib)) if p not in folded)
    for chips, eligible in pots.side_pots(contrib, still_in):
        if len(eligible) < 2:
            continue
        best = max(value[p] for p in eligible)
        winners = [p for p in order if p in eligible and value[p] == best]
        got = pots.shares([(chips, eligible)], value, order)
        shares = [got[p] for p in winners]
        assert sum(shares) == chips and max(shares) - min(shares) <= 1
        assert shares == sorted(shares, reverse=True)


# ------------------------------------------------------------------ scenarios on examples/holdem.cards
def holdem(players: int, stacks: list, hands: list, engine: str):
    """A hand of examples/holdem.cards (P0 deals; P1, P2 post the blinds, heads up P0 and P1): seat p
    holds hands[p] (two cards), the board is BOARD."""
    g = cardlang.load(path("examples/holdem.cards"), players=players, engine=engine,
                      options={"stacks": stacks + [1] * (6 - len(stacks))})
    dealt = (*range(1, players), 0)  # one card at a time from the dealer's left
    top = [hands[p][i] for i in range(2) for p in dealt] + BOARD
    return g.new_initial_state(seed=0, stack=top)


def chips(state) -> list:
    """Each seat's stack (of the game's one pot)."""
    (spec,) = state.game.program.layout.pots.values()
    return [state.v[spec.stacks + p] for p in range(spec.n)]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_four_way_all_in_builds_a_main_pot_two_side_pots_and_splits_the_last(engine):
    # P1 (small blind, 20 chips) the best hand, P2 (big blind, 40) the second; P3 and P0 (the
    # dealer), 50 each, tie: each level goes to the best who reached it
    s = holdem(4, [50, 20, 40, 50], [["5h", "3c"], ["Ah", "Ad"], ["Qs", "Qd"], ["5s", "3d"]], engine)
    assert labels(s) == ["fold", "call"] + [f"raise to {x}" for x in range(4, 51)]  # P3 first, facing the big blind
    play(s, "raise to 50", "call", "call", "call")  # P3 all in; P0, then P1 and P2 all in for less
    assert s.is_terminal()
    # main pot 4 x 20 = 80 to P1; side pot 3 x 20 = 60 to P2; side pot 2 x 10 = 20 split by P3 and P0
    assert chips(s) == [10, 80, 60, 10]
    assert s.returns() == [-40, 60, 20, -40]
    assert "P1 wins 80 from the pot" in s.transcript()


@pytest.mark.parametrize("engine", ENGINES)
def test_the_odd_chip_of_a_split_goes_to_the_first_winner_left_of_the_dealer(engine):
    # three players, P0 deals and speaks first: P1 posts 1 and folds; P0 and P2 tie on 21 chips:
    # 11 to P2, the first winner from the dealer's left (P1, P2, P0), 10 to P0
    s = holdem(3, [10, 10, 10], [["5h", "3c"], ["Ah", "Ad"], ["5s", "3d"]], engine)
    play(s, "raise to 10", "fold", "call")
    assert chips(s) == [10, 9, 11]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_fold_is_offered_only_facing_a_bet_and_the_big_blind_has_his_option(engine):
    s = holdem(3, [100, 100, 100], [["Ah", "Ad"], ["5s", "3d"], ["5h", "3c"]], engine)
    assert "fold" in labels(s) and "check" not in labels(s)
    play(s, "call", "call")  # P0 and P1 call the big blind: P2 may still check or raise
    assert s.current_player == 2 and labels(s)[:2] == ["check", "raise to 4"]
    play(s, "check")
    assert s.current_player == 1 and "fold" not in labels(s)  # the flop, from the dealer's left: nothing to call


@pytest.mark.parametrize("engine", ENGINES)
def test_a_raise_must_be_at_least_the_last_raise_and_a_short_stack_may_go_all_in(engine):
    s = holdem(3, [11, 100, 100], [["Ah", "Ad"], ["5s", "3d"], ["5h", "3c"]], engine)
    play(s, "raise to 6")  # P0 raises by 4 over the big blind: the next raise goes to 10 at least
    assert labels(s)[:3] == ["fold", "call", "raise to 10"] and labels(s)[-1] == "raise to 100"
    s = holdem(3, [3, 100, 100], [["Ah", "Ad"], ["5s", "3d"], ["5h", "3c"]], engine)
    assert labels(s) == ["fold", "call", "raise to 3"]  # short of the minimum raise (4): all in only


@pytest.mark.parametrize("engine", ENGINES)
def test_everyone_folding_leaves_the_pot_to_the_last_player_without_a_showdown(engine):
    s = holdem(3, [50, 50, 50], [["Ah", "Ad"], ["5s", "3d"], ["5h", "3c"]], engine)
    play(s, "fold", "fold")  # P0 and P1 fold: P2, the big blind, takes the blinds; no board, no hands shown
    assert s.is_terminal() and chips(s) == [50, 49, 51]
    assert not any("shows" in line for line in s.transcript())


# ------------------------------------------------------------------ limit betting with a cap, antes
def low_card(players: int, cards: list, engine: str):
    g = cardlang.load(path("tests/check/valid/limit_pots.cards"), players=players, engine=engine)
    return g.new_initial_state(seed=0, stack=cards)


@pytest.mark.parametrize("engine", ENGINES)
def test_limit_raises_are_of_a_fixed_size_and_capped(engine):
    # stacks 4, 7, 10: antes of 3 (P0 keeps 1); P0 deals, P1 speaks first
    s = low_card(3, ["2c", "9d", "Ks"], engine)
    assert labels(s) == ["check", "raise to 2"]
    play(s, "raise to 2")
    assert labels(s) == ["fold", "call", "raise to 4"]
    play(s, "raise to 4")  # the second raise: the cap
    assert labels(s) == ["fold", "call"]  # P0 has 1 chip: he may call all in, not raise
    play(s, "call", "call")
    assert s.is_terminal()
    # P0 (the lowest card) put in 4: the main pot of 3 x 4; P1 (lower than P2) the side pot of 2 x 3
    assert chips(s) == [12, 6, 3]


@pytest.mark.parametrize("engine", ENGINES)
def test_an_ante_for_more_than_the_stack_puts_the_player_all_in(engine):
    g = cardlang.load(path("tests/check/valid/limit_pots.cards"), players=2, engine=engine, options={"ante": 5})
    s = g.new_initial_state(seed=0, stack=["2c", "9d"])
    assert "P0 puts 4 into the kitty (all in)" in s.transcript()
    # P1 alone has chips behind: nobody would answer a bet, so there is no betting at all
    assert s.is_terminal() and chips(s) == [8, 3]  # P0's 4 against 4 of P1's 5; P1's fifth goes back


# ------------------------------------------------------------------ several hands
def test_several_hands_move_the_deal_drop_busted_players_and_play_alike_on_both_engines():
    import random

    games = [cardlang.load(path("examples/holdem.cards"), players=4, engine=e, options={"deals": 20})
             for e in ENGINES]
    for seed in range(15):
        states = [g.new_initial_state(seed=seed) for g in games]
        rng = random.Random(seed)
        while not states[0].is_terminal():
            legal = states[0].legal_action_ids()
            assert states[1].legal_action_ids() == legal
            a = legal[rng.randrange(len(legal))]
            for s in states:
                s.apply(a)
            (spec,) = games[0].program.layout.pots.values()
            assert pots.chips_in_play(states[0], spec) == 60 + 200 + 30 + 120  # stacks and pot, at every step
        assert states[1].is_terminal() and states[0].transcript() == states[1].transcript()
        assert states[0].returns() == states[1].returns() and sum(states[0].returns()) == 0
