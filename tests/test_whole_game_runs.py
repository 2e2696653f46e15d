"""Whole-game runs (passes `playout`, `rounds`, `quiet`): the compiled engine plays a playout's
decisions inside generated code, a round begun as one function, and must play exactly the game the
decision-by-decision loop plays: the same draws, actions, cards, variables, rounds, scores, caps
and errors; with knowledge kept, the same knowledge too.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import cardlang
from cardlang.play.coverage import instrument
from cardlang.runtime.basics import RuleError
from cardlang.runtime.playout import quiet, random_playout, scripted_playout, seat_playout

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted(str(p.relative_to(ROOT)) for folder in ("games", "examples", "tests/engine")
               for p in (ROOT / folder).glob("*.cards"))


def _low(path: str) -> int:
    return cardlang.check_file(str(ROOT / path))[0].players[0]


def _declared(g, st) -> list:
    """The declared variables (the internal slots of loops may differ: a whole round keeps its
    loops' places in Python locals)."""
    p = g.program
    out = [st.v[slot] for slot, _ in p.var_slots.values()]
    for slot, _ in p.pvar_slots.values():
        out += st.v[slot:slot + g.players]
    return out


def _seen(g, st, knowledge: bool) -> tuple:
    common = (st.history, st.zones, st.loc, _declared(g, st), st.active, st.round, st.terminal,
              st.winners(), st.pending, st.rng, st.scores() if st.terminal else None)
    return common + ((st.known,) if knowledge else ())


def _pair(path: str, players: int, passes: str = "all"):
    """(the game with whole-game runs as `passes` allow, the same game played decision by decision)."""
    fast = cardlang.load(str(ROOT / path), players=players, passes=passes)
    slow = cardlang.load(str(ROOT / path), players=players, passes="-playout")
    return fast, slow


@pytest.mark.parametrize("path", FILES)
def test_a_whole_game_run_plays_the_game_the_loop_plays(path):
    players = _low(path)
    fast, slow = _pair(path, players)
    assert fast.program.plays_whole_games and not slow.program.plays_whole_games
    for seed in (0, 1):
        for knowledge in (True, False):
            states = []
            for g in (fast, slow):
                st = quiet(g.new_initial_state(seed=seed, log=False), knowledge=knowledge)
                try:
                    n = seat_playout(st, [random.Random(seed * 1009 + s) for s in range(players)])
                except RuleError as e:  # a rule file may stop on a rule error (tests/engine/facts.cards): the same one
                    n = str(e)
                states.append((n, _seen(g, st, knowledge or st.game.program.reads_knowledge)))
            assert states[0] == states[1], (seed, knowledge)


@pytest.mark.parametrize("passes", ["-rounds", "-quiet", "-chaining", "-paste", "-fusion"])
@pytest.mark.parametrize("path", ["games/ascenseur.cards", "games/coucou.cards", "games/pioche_poker.cards",
                                  "examples/columns.cards"])
def test_whole_game_runs_play_the_same_with_a_pass_switched_off(path, passes):
    players = _low(path)
    fast, slow = _pair(path, players, passes)
    for seed in (2, 3):
        got = []
        for g in (fast, slow):
            st = quiet(g.new_initial_state(seed=seed, log=False))
            random_playout(st, random.Random(seed))
            got.append(_seen(g, st, False))
        assert got[0] == got[1]


@pytest.mark.parametrize("path", ["games/ascenseur.cards", "games/red_dog.cards", "games/coucou.cards"])
def test_a_whole_game_run_stops_where_the_loop_stops(path):
    """At the first decision of round `stop_round`, waiting on it as the loop leaves it, and plays
    on from there (from inside a round: the ops, then whole rounds) as the loop does."""
    players = _low(path)
    fast, slow = _pair(path, players)
    for seed in (4, 5):
        got = []
        for g in (fast, slow):
            st = quiet(g.new_initial_state(seed=seed, log=False), knowledge=True)
            rng = random.Random(seed)
            counts = [random_playout(st, rng, stop_round=st.round + 2)]
            seen = [_seen(g, st, True)]
            for _ in range(3):  # a few decisions by hand, then on to the end
                if not st.terminal:
                    st.apply(st.legal_action_ids()[0])
            counts.append(random_playout(st, rng))
            got.append((counts, seen, _seen(g, st, True)))
        assert got[0] == got[1]


def test_a_scripted_whole_game_run_is_told_how_many_actions_there_are():
    fast, slow = _pair("games/counter_bluff.cards", 2)
    told = []
    for g in (fast, slow):
        seen = []

        def last(seat, count):
            seen.append((seat, count))
            return count - 1
        st = quiet(g.new_initial_state(seed=2, log=False))
        n = scripted_playout(st, last)
        told.append((n, seen, _seen(g, st, False)))
    assert told[0] == told[1] and told[0][0] == len(told[0][1])
    for g in (fast, slow):  # an index out of range: the loop's error, the state waiting on the decision
        st = quiet(g.new_initial_state(seed=2, log=False))
        with pytest.raises(ValueError, match="no action 9"):
            scripted_playout(st, lambda seat, count: 9 if len(st.history) > 5 else 0)
        assert len(st.history) == 6 and st.pending is not None and not st.terminal


def test_a_tally_counts_in_a_whole_game_run_what_it_counts_in_the_loop():
    fast, slow = _pair("games/ascenseur.cards", 3)
    results = []
    for g in (fast, slow):
        asked, tally = [], [{} for _ in g.program.chooses]

        def first_sight(st, a):
            asked.append((st.pending.choice, a, st.pending.player, len(st.history)))
            if a % 2:  # (only some keys are counted by the tally: the others are told each time)
                tally[st.pending.choice][a] = 1
        st = quiet(g.new_initial_state(seed=3, log=False), knowledge=True)
        n = seat_playout(st, [random.Random(1), random.Random(2), random.Random(3)], on_decision=first_sight,
                         tally=tally)
        results.append((n, asked, tally, _seen(g, st, True)))
    assert results[0] == results[1]


def test_coverage_counts_the_same_in_whole_game_runs():
    counts = []
    for passes in ("all", "-playout"):
        g = cardlang.load(str(ROOT / "games/ascenseur.cards"), players=4, passes=passes)
        cov = instrument(g)
        cov.on = True
        for seed in range(3):
            st = quiet(cov.game.new_initial_state(seed=seed, log=False))
            seat_playout(st, [random.Random(seed * 7 + s) for s in range(4)])
        counts.append(cov.counts())
        cov.on = False
    assert counts[0] == counts[1] and sum(counts[0][0]) > 0


CAPPED = '''game "Capped"
players 2..2
deck standard
limit 30 decisions
var x = 0

round:
    for each p in players:
        p chooses:
            "a":
                add 1 to x
            "b":
                add 2 to x
    if x < 0:
        end game
'''


def test_a_whole_game_run_stops_at_the_decisions_cap_with_the_loops_error(tmp_path):
    path = tmp_path / "capped.cards"
    path.write_text(CAPPED, encoding="utf-8")
    errors = []
    for passes in ("all", "-playout"):
        g = cardlang.load(str(path), passes=passes)
        st = quiet(g.new_initial_state(seed=3, log=False))
        with pytest.raises(RuleError) as info:
            random_playout(st, random.Random(0))
        errors.append((str(info.value), info.value.line, info.value.move, st.history, st.pending))
    assert errors[0] == errors[1] and errors[0][2] == 30


def test_a_game_whose_rules_read_knowledge_never_has_a_quiet_state():
    """`is face up` reads who knows a card: a playout of such a game keeps it."""
    reads = cardlang.load(str(ROOT / "examples/columns.cards"), players=2)
    plain = cardlang.load(str(ROOT / "games/ascenseur.cards"), players=3)
    assert reads.program.reads_knowledge and not plain.program.reads_knowledge
    assert not quiet(reads.new_initial_state(seed=1, log=False)).quiet
    assert quiet(plain.new_initial_state(seed=1, log=False)).quiet
    ref = cardlang.load(str(ROOT / "examples/columns.cards"), players=2, engine="reference")
    assert ref.program.reads_knowledge and not quiet(ref.new_initial_state(seed=1, log=False)).quiet


CAPPED_CARDS = '''game "Capped cards"
players 2..2
deck standard
limit 25 decisions
zone stock: pile
zone hand: per player
zone table: pile, public
var x = 0

round:
    move all cards to stock
    shuffle stock
    deal 3 from stock to hand(players)
    for each p in players:
        p chooses a card c from hand(p):
            move c to table
            add 1 to x
    if x < 0:
        end game
'''


@pytest.mark.parametrize("source", ["ascenseur", "capped"])
def test_coverage_counts_a_decision_taken_at_once_as_offered_and_taken(tmp_path, source):
    """A whole-game run counts a decision of a one-alternative choice once (`taken`), which coverage
    adds to both its offered and its hits: the counts are those of the decision-by-decision loop,
    through a stop at a round (the run then goes on from the pending decision) and at the cap on
    decisions (a decision offered, never taken)."""
    if source == "capped":
        path = tmp_path / "capped.cards"
        path.write_text(CAPPED_CARDS, encoding="utf-8")
    else:
        path = ROOT / "games/ascenseur.cards"
    counts = []
    for passes in ("all", "-playout"):
        g = cardlang.load(str(path), players=2 if source == "capped" else 3, passes=passes)
        cov = instrument(g)
        cov.on = True
        st = quiet(cov.game.new_initial_state(seed=4, log=False))
        rngs = [random.Random(9 + s) for s in range(g.players)]
        try:
            seat_playout(st, rngs, stop_round=3)
            assert st.pending is not None  # (stopped: the run goes on from the pending decision)
            seat_playout(st, rngs)
        except RuleError as e:
            assert source == "capped" and "25 decisions" in str(e)
        counts.append((cov.counts(), list(st.history)))
        cov.on = False
    assert counts[0] == counts[1]
    (hits, offered), history = counts[0]
    chooses = [i for i, (kind, *_) in enumerate(instrument(g).points) if kind == "choose"]
    assert sum(hits[i] for i in chooses) == len(history)  # every decision taken, once
    if source == "capped":  # the 26th decision: offered, then the cap
        assert sum(offered[i] for i in chooses) == len(history) + 1 == 26
