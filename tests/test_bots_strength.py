"""Bot strength, measured by simulation with fixed seeds and margins that chance alone would rarely pass.

How the margins are chosen: a win rate must have the lower end of its 95% Wilson interval above
1/2 (significantly better than a coin); a score advantage must have the lower end of a one-sided
99.5% Student t interval of the mean per-game gain above zero (significantly positive), and be
large as well (the bot's mean score at least twice the random seats'). The budgets and game counts
are small to keep the suite fast; the effects measured with them (docs/simulation.md) are far
larger than the margins, so the tests pass by a wide berth, not by luck of the seed.

A match of search bots is played in two stages (`staged`): the first half of its games, in each
seating, then, unless the wins so far already clear a stricter bar, the second half. The bar of the
whole match is the one-stage test's, so a match that does not stop early plays and judges exactly
its games; the bar at half way is set so that the two looks together pass a bot of a given true
rate as often as the one look does, within four hundredths of a percentage point (exact binomial
figures at each test).
"""

import math
import statistics

from cardlang.play.simulate import simulate
from scenario import game

# one-sided 99.5% quantiles of Student's t, by degrees of freedom
T995 = {5: 4.032, 7: 3.499, 9: 3.250, 11: 3.106, 15: 2.947, 19: 2.861}


def gains(stats, seat=0):
    """Per game: the seat's score minus the mean score of the other seats."""
    out = []
    for g in stats["per_game"]:
        scores = g["scores"]
        others = [v for s, v in enumerate(scores) if s != seat]
        out.append(scores[seat] - sum(others) / len(others))
    return out


def lower_bound(values):
    """The lower end of a one-sided 99.5% t interval of the mean of `values`."""
    n = len(values)
    return statistics.mean(values) - T995[n - 1] * statistics.stdev(values) / math.sqrt(n)


def head_to_head(bots, games, seed, part=(0, 1), **options):
    """Win rate of the first bot against the second in Counter-Bluff, half the games in each seat
    (seeds `seed` … in the first seating, `seed + games` … in the other). With `part` (k, parts),
    the k-th of `parts` equal slices of each seating's games only."""
    g = game("games/counter_bluff.cards", 2, **options)
    k, parts = part
    half = games // 2
    first, last = half * k // parts, half * (k + 1) // parts
    a = simulate(g, last - first, seed=seed + first, bots=bots, jobs=2, coverage=False)
    b = simulate(g, last - first, seed=seed + games + first, bots=bots[::-1], jobs=2, coverage=False)
    wins = a["seats"][0]["wins"] + b["seats"][1]["wins"]
    return wins, a["games"] + b["games"]


def staged(bots, games, seed, early):
    """(wins, games) of `head_to_head(bots, games, seed)` played in two halves (of each seating's
    games, the first half rounded down): the second is not played when the first's wins reach `early`."""
    wins, n = head_to_head(bots, games, seed, (0, 2))
    if wins >= early:
        return wins, n
    more, m = head_to_head(bots, games, seed, (1, 2))
    return wins + more, n + m


def wilson_low(wins, n):
    from cardlang.play.simulate import wilson

    return wilson(wins, n)[0]


def test_ismcts_beats_random_clearly_at_counter_bluff():
    # measured: ismcts:30 won 96 of 100 games against random. 24 of 30 are needed here: a true rate
    # of 0.96 falls short 1 time in 10,000, a rate of 0.9 3 times in 100. All 14 of the first 14
    # (7 in each seating) end the match early: a bot of true rate 0.6 then passes 1.755% of the
    # time (1.718% in one stage), one of 0.96 stops there 56 times in 100 and falls short 1.47
    # times in 10,000 (1.48 in one stage)
    wins, n = staged(["ismcts:30", "random"], 30, seed=100, early=14)
    assert n in (14, 30) and (wins == n == 14 or wilson_low(wins, n) > 0.6), (wins, n)


def test_greedy_beats_random_at_counter_bluff():
    # measured: greedy:8 won 91 of 100 games against random. 21 of 30 are needed here: a true rate of
    # 0.91 falls short 2 times in 10,000, a rate of 0.85 1 time in 100
    wins, n = head_to_head(["greedy:8", "random"], 30, seed=200)
    assert wilson_low(wins, n) > 0.5, (wins, n)


def test_ismcts_beats_greedy_at_counter_bluff_with_budgets_in_the_ratio_of_their_defaults():
    # measured: ismcts:60 won 82 of 100 games against greedy:10 (and ismcts:200 won 45 of 60 against
    # greedy:32, the defaults). 38 of 60 are needed here: a true rate of 0.8 falls short 1 time in
    # 1,000, a rate of 0.75 2 times in 100 (binomial); 30 games were too few (1 time in 16).
    # 25 of the first 30 end the match early: a coin then passes 2.597% of the time (2.595% in one
    # stage), a true rate of 0.8 falls short as often as in one stage (0.081%) and stops early 43
    # times in 100, a rate of 0.82 54 times
    wins, n = staged(["ismcts:60", "greedy:10"], 60, seed=400, early=25)
    assert n in (30, 60) and (wins >= 25 if n == 30 else wilson_low(wins, n) > 0.5), (wins, n)


def test_ismcts_scores_well_above_the_random_seats_at_ascenseur():
    stats = simulate(game("games/ascenseur.cards", 4), 6, seed=300, bots=["ismcts:40", "random", "random", "random"],
                     jobs=2, coverage=False, per_game=True)
    assert lower_bound(gains(stats)) > 0
    random_mean = statistics.mean(s["mean_score"] for s in stats["seats"][1:])
    assert stats["seats"][0]["mean_score"] > 2 * random_mean


def test_greedy_scores_above_the_random_seats_at_ascenseur():
    stats = simulate(game("games/ascenseur.cards", 4), 6, seed=300, bots=["greedy:16", "random", "random", "random"],
                     jobs=2, coverage=False, per_game=True)
    assert lower_bound(gains(stats)) > 0
