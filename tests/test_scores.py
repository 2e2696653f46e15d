"""`score of p: …, lowest wins` (or `highest wins`): the score decides the winners of a bare `end
game`, bots count a fall of a lowest-wins score as a gain, the final table gives places and
`simulate` says which score wins."""

import statistics

import pytest

import cardlang
from cardlang.play.table_view import score_places, scores_table
from cardlang.play.bots import decide, make_bot
from scenario import ENGINES, path

FEWEST = "examples/fewest_hearts.cards"

def load(relative, players, engine="compiled", **options):
    return cardlang.load(path(relative), players=players, options=options, engine=engine)


@pytest.mark.parametrize("engine", ENGINES)
def test_the_fewest_penalty_points_win_a_bare_end_game(engine):
    g = load(FEWEST, 2, engine, deals=1)
    state = g.new_initial_state(seed=0, stack=["2h", "3h", "4c", "5h"])  # P0: 2♥ 4♣, P1: 3♥ 5♥
    state.apply("4c")
    state.apply("3h")
    assert state.is_terminal()
    assert state.scores() == [0, 1]
    assert state.winners() == (0,)
    assert state.returns() == [1.0, 0.0]


@pytest.mark.parametrize("engine", ENGINES)
def test_tied_lowest_scores_share_the_win(engine):
    g = load(FEWEST, 3, engine, deals=1)
    state = g.new_initial_state(seed=0, stack=["2h", "3c", "4h", "5h", "6c", "7h"])
    state.apply("2h")  # P0: a heart, P1 and P2 none
    state.apply("3c")
    state.apply("4h")
    assert state.scores() == [1, 0, 1]
    assert state.winners() == (1,)


HIGHEST = """game "Most clubs"
players 2..3
deck standard
zone stock: pile, hidden
zone hand: per player, public
score of p: count c in hand(p) where c is clubs, highest wins
round:
    deal 2 from stock to hand(players)
    end game
"""


@pytest.mark.parametrize("engine", ENGINES)
def test_highest_wins_decides_a_bare_end_game_too(tmp_path, engine):
    rules = tmp_path / "clubs.cards"
    rules.write_text(HIGHEST)
    state = cardlang.load(str(rules), players=3, engine=engine).new_initial_state(seed=0)
    # unshuffled, the stock holds the deck in id order, bottom first: from the top A♠ A♥ A♦ A♣ K♠ K♥
    assert state.scores() == [1, 0, 0]  # P0 has A♠ A♣
    assert state.winners() == (0,)


def mean_penalty(bot, games):
    g = load(FEWEST, 3)
    out = []
    for seed in range(games):
        state = g.new_initial_state(seed=seed, log=False)
        k = 0
        while not state.is_terminal():
            seat = state.current_player
            name = bot if seat == 0 else "random"
            state.apply(decide(make_bot(name, seed=seed * 100 + k), state))
            k += 1
        out.append(state.scores()[0])
    return out


def test_a_search_bot_keeps_its_lowest_wins_score_low():
    # with two cards to choose from, a bot that plays a heart only when it must takes about a
    # quarter of a point a deal less than one playing at random
    searched, random_play = mean_penalty("greedy:16", 40), mean_penalty("random", 40)
    assert statistics.mean(searched) < statistics.mean(random_play) - 0.4


def test_places_follow_the_order_of_the_score():
    assert score_places([3, 1, 1, 5], "lowest") == [3, 1, 1, 4]
    assert score_places([3, 1, 1, 5], "highest") == [2, 3, 3, 1]


def test_the_final_table_says_which_score_wins_and_gives_places():
    from rich.console import Console

    console = Console(width=60, record=True, color_system=None)
    console.print(scores_table([2, 0, 2], [1], order="lowest"))
    text = console.export_text()
    assert "score (lowest wins)" in text and "place" in text
    rows = [line.split() for line in text.splitlines() if line.strip("│ ").startswith("P")]
    assert [r[1:4] for r in rows] == [["P0", "│", "2"], ["P1", "│", "0"], ["P2", "│", "2"]]
    assert [r[5] for r in rows] == ["2", "1", "2"]


def test_simulate_says_which_score_wins():
    from click.testing import CliRunner

    from cardlang.cli import main

    result = CliRunner().invoke(main, ["simulate", path(FEWEST), "--games", "10", "--jobs", "1"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == "Fewest hearts: 10 games, 2 players (the lowest score wins)"
