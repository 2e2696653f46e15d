"""Partnerships (docs/language.md, "Partnerships"): fixed teams, `partner of`, `team of`, `teams`,
per-team variables, a team's score and payoff, winners by team, the team table of `simulate`, and
the knowledge a partner does not get. Scenario tests of each rule of examples/spades.cards and
examples/contract_auction.cards, on a stacked deck."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from hypothesis import given, strategies as st

import cardlang
from cardlang.cli import main
from cardlang.lang.check_teams import team_seats
from cardlang.lang.parse import parse
from cardlang.play.simulate import simulate
from scenario import ENGINES, game, labels, path, play, start

SPADES, AUCTION = "examples/spades.cards", "examples/contract_auction.cards"


def deal(*hands: str) -> list:
    """The stack (top first) that `deal 13 from stock to hand(players)` gives these hands."""
    cards = [h.split() for h in hands]
    return [cards[i % len(cards)][i // len(cards)] for i in range(sum(map(len, cards)))]


def hand(state, seat: int) -> list:
    return state.zone("hand", seat)


# a deal of four suits: P0 all spades, P1 hearts, P2 diamonds, P3 clubs (every trick is P0's)
ONE_SUIT_EACH = deal(*(" ".join(f"{r}{s}" for r in "2 3 4 5 6 7 8 9 10 J Q K A".split()) for s in "shdc"))
# P0 hearts and clubs with one spade; P1 spades and diamonds, no heart; P2 and P3 some hearts
MIXED = deal("2h 3h 4h 5h 6h 7h 8h As 2c 3c 4c 5c 6c",
             "2s 3s 4s 5s 6s 2d 3d 4d 5d 6d 7d 8d 9d",
             "9h 10h Jh 7c 8c 9c 10c Jc Qc Kc Ac 7s 8s",
             "Qh Kh Ah 9s 10s Js Qs Ks 10d Jd Qd Kd Ad")


def play_out(state) -> None:
    """Plays the first legal action until the game ends."""
    while not state.is_terminal():
        state.apply(state.legal_action_ids()[0])


# ------------------------------------------------------------------ the declaration
def _decl(text: str):
    module, _ = parse(f'game "t"\nplayers 4\n{text}\ndeck standard\nround:\n    end game\n', "t.cards")
    return next(d for d in module.decls if type(d).__name__ == "TeamsDecl")


def test_teams_across_seat_each_player_with_the_seats_half_the_table_away():
    assert team_seats(_decl("teams of 2 across"), 4) == ((0, 2), (1, 3))
    assert team_seats(_decl("teams of 2 across"), 6) == ((0, 3), (1, 4), (2, 5))
    assert team_seats(_decl("teams of 3 across"), 6) == ((0, 2, 4), (1, 3, 5))
    assert team_seats(_decl("teams of 2 across"), 5) is None  # E044
    assert team_seats(_decl("teams of 4 across"), 4) is None  # one team is no partnership


def test_listed_teams_name_seats_from_one():
    assert team_seats(_decl("teams: 1 2, 3 4"), 4) == ((0, 1), (2, 3))
    assert team_seats(_decl("teams: 1 2, 3"), 4) is None  # seat 4 in no team


def test_the_game_knows_its_teams():
    assert game(SPADES, 4).teams == ((0, 2), (1, 3))
    assert game("examples/follow_suit.cards", 3).teams == ()


# ------------------------------------------------------------------ spades: bidding
def test_each_player_bids_in_turn_and_partners_bid_thirteen_at_most():
    s = start(SPADES, 4, stack=MIXED)
    assert labels(s) == ["nil"] + [f"bid {b}" for b in range(1, 14)]  # P0: partner has not bid
    play(s, "bid 5", "bid 3")
    assert labels(s)[-1] == "bid 8"  # P2: 5 + 8 = 13, summed over the team
    play(s, "bid 8")
    assert labels(s)[-1] == "bid 10"  # P3: partner P1 bid 3
    play(s, "nil")
    assert "P0 & P2 contract 13" in s.transcript() and "P1 & P3 contract 3" in s.transcript()


# ------------------------------------------------------------------ spades: tricks
def test_spades_may_not_be_led_until_broken_and_players_follow_suit():
    s = start(SPADES, 4, stack=MIXED)
    play(s, "bid 3", "bid 3", "bid 3", "bid 3")
    assert "play A♠" not in labels(s) and len(labels(s)) == 12  # P0 holds other suits
    play(s, "play 2♥")
    assert len(labels(s)) == 13  # P1 has no heart: any card
    play(s, "play 2♠")  # a spade trumps, and breaks spades
    assert labels(s) == ["play 9♥", "play 10♥", "play J♥"]  # P2 follows hearts
    play(s, "play J♥")
    assert labels(s) == ["play Q♥", "play K♥", "play A♥"]
    play(s, "play A♥")
    assert "P1 takes the trick" in s.transcript()  # the spade beats the ace led
    assert s.current_player == 1 and s.var("tricks") == [0, 1, 0, 0]
    assert "play 3♠" in labels(s)  # spades are broken: P1 may lead one


def test_with_openspiels_rule_spades_are_never_broken():
    s = start(SPADES, 4, stack=MIXED, breaking=False)
    play(s, "bid 3", "bid 3", "bid 3", "bid 3")
    play(s, "play 2♥", "play 2♠", "play J♥", "play A♥")
    assert s.current_player == 1
    assert all("♦" in a for a in labels(s))  # P1 still holds diamonds: no spade lead


def test_a_player_holding_only_spades_leads_one():
    s = start(SPADES, 4, stack=ONE_SUIT_EACH)
    play(s, "bid 4", "bid 3", "nil", "bid 2")
    assert len(labels(s)) == 13 and all("♠" in a for a in labels(s))


# ------------------------------------------------------------------ spades: scoring
@pytest.mark.parametrize("calls,points", [
    (("bid 4", "bid 3", "nil", "bid 2"), [149, -50]),  # 40 + 9 bags + a nil made; 5 bid, none taken
    (("bid 2", "bid 3", "bid 1", "bid 2"), [-60, -50]),  # 10 bags cost 100
    (("nil", "bid 3", "bid 5", "bid 2"), [-42, -50]),  # a failed nil: -100; 50 + 8 bags
])
def test_a_team_scores_its_contract_bags_and_nils(calls, points):
    s = start(SPADES, 4, stack=ONE_SUIT_EACH)
    play(s, *calls)
    play_out(s)
    assert s.var("tricks") == [13, 0, 0, 0]
    assert s.var("points") == points
    assert s.returns() == [points[0], points[1], points[0], points[1]]  # shared by the team
    assert s.scores() == s.returns()
    best = (0, 2) if points[0] > points[1] else (1, 3)
    assert s.winners() == best  # the team with the best score wins


def test_partners_see_each_others_hand_only_as_the_rules_show_it():
    s = start(SPADES, 4, stack=MIXED)
    for seat, partner in ((0, 2), (2, 0), (1, 3), (3, 1)):
        cards = hand(s, partner)
        assert not any(s.knows(seat, c) for c in cards)
        assert s.observation(seat)["zones"]["hand"][partner] == [None] * 13
    play(s, "bid 3", "bid 3", "bid 3", "bid 3")
    play(s, "play 2♥")
    assert s.knows(2, "2h") and not s.knows(2, "3h")  # the card played is shown, the rest stays hidden


def test_team_variables_are_in_every_observation():
    s = start(SPADES, 4, stack=ONE_SUIT_EACH)
    play(s, "bid 4", "bid 3", "nil", "bid 2")
    play_out(s)
    obs = s.observation(1)
    assert obs["teams"] == [["P0", "P2"], ["P1", "P3"]]
    assert obs["team_variables"] == {"points": [149, -50]}


def test_both_engines_agree_on_a_team_game():
    ref = cardlang.load(path(SPADES), 4, engine="reference").new_initial_state(stack=ONE_SUIT_EACH)
    fast = start(SPADES, 4, stack=ONE_SUIT_EACH)
    for s in (ref, fast):
        play(s, "bid 4", "bid 3", "nil", "bid 2")
        play_out(s)
    assert ref.returns() == fast.returns() and ref.transcript() == fast.transcript()


# ------------------------------------------------------------------ the auction
STRONG = deal("As Ks Qs Js Ah Kh Qh Jh Ad Kd Qd Jd Ac",
              "2s 3s 4s 5s 6s 7s 2h 3h 4h 5h 6h 7h 2d",
              "8s 9s 10s 8h 9h 10h 8d 9d 10d Kc Qc Jc 10c",
              "3d 4d 5d 6d 7d 2c 3c 4c 5c 6c 7c 8c 9c")


def test_a_bid_must_be_higher_than_the_last():
    s = start(AUCTION, 4, stack=STRONG)
    assert "double" not in labels(s) and "redouble" not in labels(s)  # nothing to double yet
    play(s, "1♥")
    assert "1♣" not in labels(s) and "1♥" not in labels(s) and "1♠" in labels(s) and "2♣" in labels(s)


def test_double_an_opponents_bid_redouble_ones_own():
    s = start(AUCTION, 4, stack=STRONG)
    play(s, "1♣")
    assert "double" in labels(s) and "redouble" not in labels(s)  # P1: the other side's bid
    play(s, "pass")
    assert "double" not in labels(s)  # P2: his partner's bid
    play(s, "pass")
    play(s, "double")
    assert "redouble" in labels(s) and "double" not in labels(s)  # P0 redoubles his own bid
    play(s, "redouble")
    assert "redouble" not in labels(s) and "double" not in labels(s)


def test_three_passes_end_the_auction_and_the_contract_is_reckoned():
    s = start(AUCTION, 4, stack=STRONG)
    play(s, "1♣", "double", "redouble", "pass", "pass")
    assert not s.is_terminal()
    play(s, "pass")  # the third pass in a row
    assert s.is_terminal()
    assert s.winners() == (0, 2)  # 40 points and 5 clubs, for 1 club: made
    assert s.returns() == [40.0, -40.0, 40.0, -40.0]  # 10 a level, redoubled: four times


def test_a_higher_bid_takes_over_the_contract_and_clears_the_double():
    s = start(AUCTION, 4, stack=STRONG)
    play(s, "1♣", "double", "pass", "7NT", "pass", "pass", "pass")
    assert s.is_terminal() and s.winners() == (0, 2)  # 7NT by P3 needs 37 points: his side has none
    assert s.returns() == [70.0, -70.0, 70.0, -70.0]


def test_four_passes_end_an_auction_nobody_bid():
    s = start(AUCTION, 4, stack=STRONG)
    play(s, "pass", "pass", "pass")
    assert not s.is_terminal()
    play(s, "pass")
    assert s.is_terminal() and s.winners() == () and s.returns() == [0.0] * 4
    assert "all pass: nobody plays" in s.transcript()


# ------------------------------------------------------------------ simulate
def test_simulate_counts_a_team_win_once():
    stats = simulate(game(SPADES, 4), 30, seed=4, per_game=True)
    t1, t2 = stats["teams"]
    assert (t1["seats"], t2["seats"]) == ([0, 2], [1, 3])
    ties = stats["team_ties"]
    assert t1["wins"] + t2["wins"] + ties["shared_wins"] + ties["no_winner"] == 30
    assert stats["seats"][0]["wins"] == t1["wins"] + ties["shared_wins"]  # each seat still counts its own
    assert t1["mean_payoff"] == stats["seats"][0]["mean_payoff"] == stats["seats"][2]["mean_payoff"]
    won = [tuple(r["winners"]) for r in stats["per_game"]]
    assert t1["wins"] == won.count((0, 2)) and t2["wins"] == won.count((1, 3))


def test_simulate_prints_and_writes_the_team_table():
    args = ["simulate", path(SPADES), "-n", "12", "--seed", "1", "--jobs", "1"]
    text = CliRunner().invoke(main, args).output
    assert "by team (a game won by a team counts once):" in text and "P0 & P2" in text
    out = json.loads(CliRunner().invoke(main, args + ["--json"]).output)
    assert [t["seats"] for t in out["teams"]] == [[0, 2], [1, 3]]


def test_listed_teams_and_their_partners_play_on_both_engines(tmp_path):
    rules = tmp_path / "listed.cards"
    rules.write_text('game "Listed"\nplayers 4\nteams: 1 2, 3 4\ndeck standard\nzone stock: pile, hidden\n'
                     'per team var met = 0\nscore of team t: met(t), highest wins\n\nround:\n'
                     '    for each p in players:\n        add seat(partner of p) to met(team of p)\n'
                     '    announce "{team of top of players}: {met(team of top of players)}"\n    end game\n')
    for engine in ENGINES:
        s = cardlang.load(str(rules), 4, engine=engine).new_initial_state()
        assert s.game.teams == ((0, 1), (2, 3))
        assert s.var("met") == [2 + 1, 4 + 3]  # P0's partner is P1 (seat 2), P1's is P0 (seat 1), …
        assert s.winners() == (2, 3) and "P0 & P1: 3" in s.transcript()


@given(st.integers(1, 6), st.integers(2, 8))
def test_teams_across_put_every_seat_in_one_team_of_equal_size(size, count):
    players = size * count
    teams = team_seats(_decl(f"teams of {size} across"), players)
    assert sorted(s for t in teams for s in t) == list(range(players))
    assert {len(t) for t in teams} == {size} and len(teams) == count
    for t in teams:  # the members sit `count` seats apart: across the table
        assert all(b - a == count for a, b in zip(t, t[1:]))
