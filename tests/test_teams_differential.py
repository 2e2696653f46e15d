"""Generated games with partnerships run the same on both engines (and with every pass off): the
team expressions (`partner of`, `team of`, `teams`, a team as its players), per-team variables, a
team's score, payoff and win, drawn by hypothesis into a small template (see the generator of
tests/test_differential.py, which this one follows)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings, strategies as st

from test_differential import play_both

TEMPLATE = '''game "Generated teams"
players {players}
teams of {size} across
deck standard
zone stock: pile, hidden
zone hand: per player, private
zone table: pile, public
per team var pts = 0
per team var held: cards = []
per player var got = 0
var last: team = none
var turns = 0
define mates(p) = team of p except p
score of team t: pts(t){order}
payoff of team t: {payoff}

setup:
    shuffle stock
    deal 3 from stock to hand(players)

round:
    for each p in players where count(hand(p)) > 0:
        p chooses:
            a card c from hand(p) where {card_filter} as "{label}":
                move c to table face up
                add {points} to pts({team})
                set held(team of p) = held(team of p) + [c]
                set last = {team}
            "wait":
                add {points} to got(p)
    for each t in teams where {team_filter}:
        add {team_points} to pts(t)
    announce "{announce}"
    add 1 to turns
    if turns == 3:
        end game{winners}
'''

PARTNER = "partner of p"


def team_exprs(pair: bool):
    forms = ["team of p", "team of top of players", "random(teams)", "highest t in teams by pts(t)",
             "lowest t in teams by count(t)"]
    if pair:
        forms += ["team of partner of p", "team of left of partner of p"]
    return st.sampled_from(forms)


def numbers(pair: bool):
    forms = ["1", "count(team of p)", "sum q in team of p of count(hand(q))", "pts(team of p)", "got(p)",
             "count(select q in players where team of q == team of p)", "count(mates(p))",
             "count(hand(team of p))", "seat(top of team of p)", "count(teams)", "count(held(team of p))"]
    if pair:
        forms += ["seat(partner of p)", "count(hand(partner of p))"]
    return st.sampled_from(forms)


def bools(pair: bool):
    forms = ["true", "p in team of top of players", "team of p == team of top of players",
             "last == none or last == team of p", "any q in mates(p) where count(hand(q)) > 1",
             "(top of team of p) == p"]
    if pair:
        forms += ["partner of p in team of p", "count(hand(partner of p)) >= count(hand(p))"]
    return st.sampled_from(forms)


@st.composite
def programs(draw):
    size, count = draw(st.sampled_from([(2, 2), (2, 3), (3, 2)]))
    pair = size == 2
    team_forms = st.sampled_from(["t == last", "pts(t) > 1", "true", "count(t) == 2", "t != team of top of players"])
    source = TEMPLATE.format(
        players=size * count, size=size, order=draw(st.sampled_from(["", ", highest wins", ", lowest wins"])),
        payoff=draw(st.sampled_from(["pts(t)", "pts(t) * count(teams) - sum u in teams of pts(u), zero sum",
                                     "count(held(t))"])),
        card_filter=draw(bools(pair)), label=draw(st.sampled_from(["play {c}", "{team of p} play {c}", "go {teams}"])),
        points=draw(numbers(pair)), team=draw(team_exprs(pair)), team_filter=draw(team_forms),
        team_points=draw(st.sampled_from(["1", "count(t)", "sum q in t of got(q)", "count(held(t))"])),
        announce=draw(st.sampled_from(["{last} {teams}", "{pts(team of top of players)}", "turn {turns}"])),
        winners=draw(st.sampled_from(["", " winners team of top of players", " winners last",
                                      " winners select q in players where q in team of top of players"])))
    return source, size * count


_HEALTH = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture]


@settings(max_examples=40, deadline=None, suppress_health_check=_HEALTH)
@given(program=programs(), seed=st.integers(0, 2**16))
def test_generated_team_games_run_the_same_on_both_engines(tmp_path_factory, program, seed):
    source, players = program
    path = tmp_path_factory.mktemp("teams") / "game.cards"
    path.write_text(source, encoding="utf-8")
    assert play_both(str(path), players, seed, full_for=30, limit=80) > 0


@settings(max_examples=10, deadline=None, suppress_health_check=_HEALTH)
@given(program=programs(), seed=st.integers(0, 2**16), passes=st.sampled_from(["none", "-paste", "-fusion"]))
def test_generated_team_games_run_the_same_with_passes_off(tmp_path_factory, program, seed, passes):
    source, players = program
    path = tmp_path_factory.mktemp("teams") / "game.cards"
    path.write_text(source, encoding="utf-8")
    assert play_both(str(path), players, seed, full_for=30, limit=80, passes=passes) > 0
