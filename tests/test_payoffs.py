"""Payoffs: `payoff of p: …` and `shared payoff: …` decide `State.returns()` on both engines; a game
that says `, zero sum` is held to it; bots maximise their own payoff, also when it is shared."""

import random
import statistics

import pytest

import cardlang
from cardlang import RuleError
from cardlang.play.bots import decide, make_bot
from scenario import ENGINES, path, play, start

CHIPS = "examples/high_card_chips.cards"
CLIMB = "examples/climb_together.cards"


def load(relative, players, engine, **options):
    return cardlang.load(path(relative), players=players, options=options, engine=engine)


@pytest.mark.parametrize("engine", ENGINES)
def test_returns_are_the_chips_won_and_lost(engine):
    g = load(CHIPS, 2, engine, deals=1)
    state = g.new_initial_state(seed=3, stack=["As", "2c"])
    assert state.returns() == [0.0, 0.0]  # nothing before the end
    play(state, "stay in", "stay in")
    assert state.is_terminal()
    assert state.winners() == (0,)
    assert state.returns() == [2.0, -2.0]  # the ante and the stake of each went to P0
    assert g.utility == "zero_sum"


@pytest.mark.parametrize("engine", ENGINES)
def test_a_fold_loses_only_the_ante(engine):
    g = load(CHIPS, 3, engine, deals=1)
    state = g.new_initial_state(seed=3, stack=["2c", "Ks", "Ah"])
    play(state, "fold", "stay in", "fold")
    assert state.returns() == [-1.0, 2.0, -1.0]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_shared_payoff_is_every_seats_return(engine):
    g = load(CLIMB, 3, engine)
    state = g.new_initial_state(seed=1)
    rng = random.Random(1)
    while not state.is_terminal():
        legal = state.legal_action_ids()
        state.apply(legal[rng.randrange(len(legal))])
    steps = state.var("steps")
    assert steps > 0
    assert state.returns() == [float(steps)] * 3
    assert state.winners() == ()  # (a bare `end game`: nobody wins, everyone gets the payoff)
    assert g.utility == "identical"


@pytest.mark.parametrize("engine", ENGINES)
def test_without_a_payoff_a_win_is_one(engine):
    g = load("examples/coin_flip.cards", 2, engine)
    state = g.new_initial_state(seed=0)
    state.apply(0)
    assert sorted(state.returns()) == [0.0, 1.0]
    assert state.returns()[state.winners()[0]] == 1.0
    assert g.utility == "general_sum"


BROKEN_SUM = """game "Uneven"
players 2
deck standard
per player var chips = 0
payoff of p: chips(p), zero sum
round:
    add 1 to chips(top of players)
    end game
"""


@pytest.mark.parametrize("engine", ENGINES)
def test_a_zero_sum_game_that_does_not_add_up_is_a_rule_error(tmp_path, engine):
    rules = tmp_path / "uneven.cards"
    rules.write_text(BROKEN_SUM)
    state = cardlang.load(str(rules), players=2, engine=engine).new_initial_state(seed=5)
    assert state.is_terminal()
    with pytest.raises(RuleError) as caught:
        state.returns()
    e = caught.value
    assert e.message == "the game says its payoffs add up to zero, but they add up to 1 (P0 1, P1 0)"
    assert (e.line, e.col, e.seed, e.move) == (5, 1, 5, 0)


def mean_payoff(bot, games, players=2):
    g = cardlang.load(path(CLIMB), players=players)
    out = []
    for seed in range(games):
        state = g.new_initial_state(seed=seed, log=False)
        k = 0
        while not state.is_terminal():
            state.apply(decide(make_bot(bot, seed=seed * 100 + k), state))
            k += 1
        out.append(state.returns()[0])
    return out


def test_search_bots_play_for_the_team_in_a_cooperative_game():
    # Valued as its gain minus the others' mean gain, every move of a shared payoff is worth 0 and
    # a search bot plays at random; valued as its own payoff, it climbs clearly higher.
    random_play = mean_payoff("random", 60)
    searched = mean_payoff("ismcts:100", 20)
    greedy = mean_payoff("greedy", 60)  # (the same 60 deals as random: over the first 20 alone, SplitMix64's gave +0.87)
    assert statistics.mean(searched) > statistics.mean(random_play) + 1.0
    assert statistics.mean(greedy) > statistics.mean(random_play) + 1.0


# ---------------------------------------------------------------------------------- simulate
def test_simulate_reports_mean_payoffs_with_intervals():
    from cardlang.play.simulate import simulate
    from scenario import game

    games = 300
    stats = simulate(game(CHIPS, 3), games, seed=4, jobs=1, coverage=False)
    assert stats["payoff"] is True and stats["utility"] == "zero_sum"
    means = [s["mean_payoff"] for s in stats["seats"]]
    assert sum(means) == pytest.approx(0.0, abs=1e-9)  # zero-sum in every game, so on average
    for s in stats["seats"]:
        low, high = s["payoff_ci95"]
        assert low < 0.0 < high  # random seats of a symmetric game: nobody is expected to gain
        assert high - low < 2.0  # (a chip or two per game spread over 300 games)
        assert s["mean_payoff"] == s["mean_score"]  # (its score is its chips, as its payoff)


def test_without_a_payoff_the_mean_payoff_is_the_win_rate():
    from cardlang.play.simulate import simulate
    from scenario import game

    stats = simulate(game("examples/coin_flip.cards", 2), 200, seed=2, jobs=1, coverage=False)
    assert stats["payoff"] is False and stats["utility"] == "general_sum"
    for s in stats["seats"]:
        assert s["mean_payoff"] == s["win_rate"]


def test_the_simulate_table_shows_payoffs_only_for_a_game_that_declares_one():
    from click.testing import CliRunner

    from cardlang.cli import main

    def table(relative):
        result = CliRunner().invoke(main, ["simulate", path(relative), "--games", "20", "--jobs", "1"])
        assert result.exit_code == 0, result.output
        return result.output.splitlines()

    chips = table(CHIPS)
    assert chips[1].split()[-4:] == ["mean", "payoff", "95%", "interval"]
    assert "–" in chips[2].split("%")[-1]  # P0's payoff interval, after its win rate's
    assert "payoff" not in table("examples/coin_flip.cards")[1]
