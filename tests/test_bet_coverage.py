"""Rule coverage of a betting round (`bets on …`): its parts (blinds posted, fold, check, call,
raise, all-ins, rounds won by folds) are sub-items of its line, in the JSON and the text output.
The counts are checked against a direct count made by playing the same seeded games through the
API, decision by decision, each seat's random bot seeded as `simulate` seeds it."""

import json
from collections import Counter

import pytest
from click.testing import CliRunner

from cardlang.cli import main
from cardlang.play.bots import decide, make_bot
from cardlang.play.simulate import simulate
from cardlang.runtime import pots
from cardlang.runtime.actions import alt_of
from scenario import game, path

HOLDEM = "examples/holdem.cards"
FIRST, GAMES, PLAYERS = 11, 40, 3
DECISIONS = ("fold", "check", "call", "raise")


def bets_lines(relative) -> list:
    with open(path(relative)) as f:
        return [n for n, text in enumerate(f, 1) if text.strip().startswith("bets on ")]


def direct_count(relative, players, first, games):
    """Per line of a `bets on` statement: rounds begun, blinds posted, each decision offered and
    chosen, all-ins and rounds won by folds, from the API alone."""
    g = game(relative, players)
    lines = bets_lines(relative)
    preflop, street = lines  # the round of the blinds, and the one of each street (phase street)
    spec = g.program.layout.pots["pot"]
    count = {line: Counter() for line in lines}
    for seed in range(first, first + games):
        bots = [make_bot("random", seed=seed * 1009 + s) for s in range(players)]
        state = g.new_initial_state(seed=seed)
        assert min(state.var("chips")) > g.options["big_blind"]  # no blind puts anyone all in
        count[preflop]["bets"] += 1  # one hand a game (`deals` is 1): its first betting round
        while not state.is_terminal():
            seat = state.current_player
            line = g.program.chooses[state.pending.choice].span.line
            a = decide(bots[seat], state)
            if line in count:
                for alt in {alt_of(x) for x in state.pending.legal}:
                    count[line][DECISIONS[alt] + " offered"] += 1
                count[line][DECISIONS[alt_of(a)]] += 1
            if line in count and alt_of(a) == pots.FOLD and len(pots.contenders(state, spec)) == 2:
                count[line]["won by folds"] += 1  # the folder leaves one player alone in the pot
            shown = len(state.transcript())
            state.apply(a)
            # (the pot may be paid out in the same move: the log says who went all in)
            if line in count and f"P{seat} is all in" in state.transcript()[shown:]:
                count[line]["all in"] += 1
        count[street]["bets"] += {0: 0, 3: 1, 4: 2, 5: 3}[len(state.zone("board"))]  # a street, a round
        count[preflop]["blinds posted"] += sum("posts a blind" in x for x in state.transcript())
    return count


def as_count(entry) -> Counter:
    c = Counter({"bets": entry["hits"]})
    for part in entry["parts"]:
        c[part["part"]] += part["hits"]
        if "offered" in part:
            c[part["part"] + " offered"] += part["offered"]
    return c


def test_the_parts_of_a_betting_round_are_counted_as_played():
    stats = simulate(game(HOLDEM, PLAYERS), GAMES, seed=FIRST, bots=("random",), jobs=1)
    rounds = [e for e in stats["coverage"] if e["kind"] == "bets"]
    assert [e["line"] for e in rounds] == bets_lines(HOLDEM)
    expected = direct_count(HOLDEM, PLAYERS, FIRST, GAMES)
    for e in rounds:
        assert _plus(as_count(e)) == _plus(expected[e["line"]]), e
        parts = [p["part"] for p in e["parts"]]
        # the blinds only where the statement has some; the decisions in the alternatives' order
        assert parts == (["blinds posted"] if "blinds" in e["label"] else []) + list(DECISIONS) + [
            "all in", "won by folds"]
    preflop = as_count(rounds[0])
    assert preflop["bets"] == GAMES and preflop["blinds posted"] == 2 * GAMES
    assert preflop["fold"] and preflop["call"] and preflop["raise"] and preflop["all in"] and preflop["won by folds"]
    # no other entry stands for the round's decisions any more
    assert not [e for e in stats["coverage"] if e["kind"] == "choose" and e["line"] in bets_lines(HOLDEM)]


def _plus(c: Counter) -> Counter:
    return Counter({k: v for k, v in c.items() if v})


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_text_and_json_show_the_parts_under_the_round(jobs):
    args = ["simulate", path(HOLDEM), "-n", "12", "--seed", "3", "--players", "2", "--jobs", str(jobs)]
    data = json.loads(CliRunner().invoke(main, args + ["--json"]).output)
    text = CliRunner().invoke(main, args).output.splitlines()
    for e in (e for e in data["coverage"] if e["kind"] == "bets"):
        head = next(i for i, x in enumerate(text) if x.startswith(f"  betting round {e['file']}:{e['line']}: "))
        assert text[head].endswith(f": begun {e['hits']} times")
        for k, part in enumerate(e["parts"], 1):
            words = text[head + k].split()
            offered = [f"of {part['offered']} offered"] if "offered" in part else []
            assert " ".join(words) == " ".join([part["part"], str(part["hits"])] + offered)
    assert data["never_reached"] == [e for e in data["coverage"] if e["hits"] == 0]


def test_other_coverage_lines_are_as_before():
    """A game without betting rounds has no `bets` entry and no parts (its entries are the
    snapshots' and test_simulate's)."""
    stats = simulate(game("games/counter_bluff.cards", 2), 20, seed=2)
    assert {e["kind"] for e in stats["coverage"]} == {"if", "else", "choose"}
    assert not any("parts" in e for e in stats["coverage"])


def test_the_parts_count_the_same_with_every_pass_off():
    """Whole-game runs (the `rounds` pass), fused runs and op-by-op play all count the round's parts
    where its statements run (`s_PotRule` of the counting twin)."""
    import cardlang

    counted = []
    for passes in ("all", "-rounds", "-playout", "-fusion", "none"):
        g = cardlang.load(path(HOLDEM), players=PLAYERS, passes=passes)
        counted.append(simulate(g, 8, seed=FIRST, jobs=1)["coverage"])
    assert all(c == counted[0] for c in counted[1:])
    assert sum(p["hits"] for e in counted[0] if e["kind"] == "bets" for p in e["parts"]) > 0
