"""The end of a game with partnerships in `cardlang play` and `cardlang replay`: each team once, its
players, its score and payoff, which team won — from the runtime API, checked against it here."""

import json

import pytest
from click.testing import CliRunner
from rich.console import Console

import cardlang
from cardlang.cli import main
from cardlang.play.table_view import team_scores_table
from cardlang.play.team_result import team_results, winning
from scenario import path

TEAM_GAMES = ["examples/spades.cards", "examples/contract_auction.cards"]


def bots_only(tmp_path, game, seed=7, players=4):
    save = tmp_path / "game.json"
    result = CliRunner().invoke(main, ["play", path(game), "--bots-only", "--seed", str(seed),
                                       "--players", str(players), "--save", str(save)])
    assert result.exit_code == 0, result.output
    return result.output, save


def saved_state(save):
    with open(save) as f:
        data = json.load(f)
    g = cardlang.load(data["file_absolute"], players=data["players"], options=data["options"])
    return g, cardlang.State.from_json(g, data)


def _n(v):
    return str(int(v) if float(v).is_integer() else v)


@pytest.mark.parametrize("game", TEAM_GAMES)
def test_the_bots_only_end_shows_each_team_once_from_the_api(game, tmp_path, snapshot):
    out, save = bots_only(tmp_path, game)
    g, state = saved_state(save)
    assert state.is_terminal() and g.teams == ((0, 2), (1, 3))
    tail = out.splitlines()[-3:]
    assert tail == snapshot
    scores, returns, won = state.scores(), state.returns(), set(state.winners())
    # every team once, by its players, with its players' (shared) score
    line = next(x for x in tail if x.startswith("final scores by team: "))
    assert line.count("T1 (P0 & P2)") == 1 and line.count("T2 (P1 & P3)") == 1
    for k, seats in enumerate(g.teams):
        assert len({scores[s] for s in seats}) == 1
        assert f"T{k + 1} ({' & '.join(f'P{s}' for s in seats)}): {_n(scores[seats[0]])}" in line
    assert "P0:" not in out.splitlines()[-3]  # no seat-by-seat line any more
    winning_team = [k for k, seats in enumerate(g.teams) if set(seats) == won]
    assert len(winning_team) == 1
    seats = g.teams[winning_team[0]]
    assert tail[-1] == f"winner: T{winning_team[0] + 1} ({' & '.join(f'P{s}' for s in seats)})"
    payoffs = [x for x in tail if x.startswith("payoffs by team: ")]
    if g.symbols.score is not None and g.symbols.payoff is not None:  # spades: a score and a payoff
        assert payoffs and all(f": {_n(returns[seats[0]])}" in payoffs[0] for seats in g.teams)
    else:  # the payoff is the score: shown once
        assert not payoffs and all(_n(returns[s]) == _n(scores[s]) for s in range(4))


@pytest.mark.parametrize("game", TEAM_GAMES)
def test_the_replay_ends_with_the_same_team_table(game, tmp_path, snapshot):
    out, save = bots_only(tmp_path, game)
    _, state = saved_state(save)
    for view in ([], ["--seat", "1"]):
        result = CliRunner().invoke(main, ["replay", str(save), *view])
        assert result.exit_code == 0, result.output
        tail = result.output.splitlines()[-3:]
        assert tail == snapshot
        played = out.splitlines()
        assert tail[-1].split(": ")[1] == played[-1].split(": ")[1]  # `Winner: T1 (P0 & P2)` as play said it
        assert tail[0].startswith("Final scores by team: ") or tail[1].startswith("Final scores by team: ")


def test_a_person_s_final_table_has_a_row_a_team():
    save_answers = "".join("1\n" for _ in range(600))
    result = CliRunner().invoke(main, ["play", path("examples/spades.cards"), "--seed", "3", "--no-color"],
                                input=save_answers)
    assert result.exit_code == 0, result.output
    end = result.output.split("the game is over")[-1]
    rows = [line for line in end.splitlines() if line.startswith("│ T")]
    assert [r.split("│")[1:3] for r in rows] == [[" T1   ", " P0 & P2 "], [" T2   ", " P1 & P3 "]]
    header = next(line for line in end.splitlines() if "players" in line)
    assert "score (highest wins)" in header and "place" in header and "payoff" in header
    g = cardlang.load(path("examples/spades.cards"), players=4)
    winner = next(r for r in rows if "winner" in r)
    mine = "P0" in winner  # P0 is the person
    said = next(line for line in end.splitlines() if line.startswith("The game is over: "))
    assert said == ("The game is over: " + ("T1 (P0 & P2), your team," if mine else "T2 (P1 & P3)") + " wins.")
    assert g.teams == ((0, 2), (1, 3))


class _Game:
    def __init__(self, teams):
        self.teams = teams


def test_a_win_shared_by_teams_and_a_player_without_his_team():
    g = _Game(((0, 2), (1, 3)))
    both = team_results(g, [5, 5, 5, 5], None, [0, 1, 2, 3])
    assert [t.won for t in both] == [True, True]
    assert winning(both, [0, 1, 2, 3]) == ["T1 (P0 & P2)", "T2 (P1 & P3)"]
    alone = team_results(g, [9, 1, 2, 1], None, [0])
    assert [t.won for t in alone] == [False, False] and winning(alone, [0]) == ["P0"]
    assert winning(team_results(g, [0] * 4, None, []), []) == []
    console = Console(width=80, record=True, color_system=None)
    console.print(team_scores_table(alone, order="highest"))  # players of one team apart: no place
    text = console.export_text()
    assert "P0 9, P2 2" in text and "place" not in text and "winner" not in text


def test_a_game_without_teams_ends_as_before(tmp_path):
    """The seat-by-seat end is unchanged (the transcript and replay snapshots of games/ hold it
    whole); here its lines are rebuilt from the API."""
    out, save = bots_only(tmp_path, "games/coucou.cards", players=5)
    g, state = saved_state(save)
    assert not g.teams
    scores = state.scores()
    order = g.symbols.score.order if g.symbols.score is not None else None
    winners = [f"P{w}" for w in state.winners()]
    assert out.splitlines()[-2:] == [
        "final scores: " + ", ".join(f"P{s}: {v}" for s, v in enumerate(scores)) + (f" ({order} wins)" if order else ""),
        f"winner{'s' if len(winners) > 1 else ''}: {', '.join(winners) or 'nobody'}"]
    assert "by team" not in out
