"""The runtime's named types (action ids, the pending decision) and its in-engine playouts.

Playouts inside the runtime must play exactly the games the bot-by-bot loop plays: the same
actions from the same seeds, on both engines, so that simulations and search bots give the same
results as before they moved there.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardlang
from cardlang.play.bots import RandomBot, decide
from cardlang.runtime.actions import (MAX_VALUE, Pending, action_id, alt_of, new_pending, value_of,
                                      with_value)
from cardlang.runtime.pots import chips_in_play
from cardlang.runtime.playout import advance, quiet, random_playout, scripted_playout, seat_playout, untold
from scenario import ENGINES, path

GAMES = [("games/ascenseur.cards", 3), ("games/coucou.cards", 5), ("games/red_dog.cards", 3),
         ("games/pioche_poker.cards", 3), ("games/counter_bluff.cards", 2), ("examples/follow_suit.cards", 3),
         ("examples/holdem.cards", 4)]

def _game(relative, players, engine):
    return cardlang.load(path(relative), players=players, engine=engine)


@given(st.integers(0, 0x7FFF), st.integers(0, MAX_VALUE), st.integers(0, MAX_VALUE))
def test_an_action_id_holds_its_alternative_and_its_value(alt, value, other):
    a = action_id(alt, value)
    assert a == alt << 16 | value  # the encoding saves and stable ids rely on
    assert (alt_of(a), value_of(a)) == (alt, value)
    assert with_value(a, other) == action_id(alt, other)


def test_the_pending_decision_is_a_named_tuple_equal_to_the_plain_one():
    p = Pending(2, 1, (5, 6))
    assert p == (2, 1, (5, 6)) and isinstance(p, tuple)
    assert (p.choice, p.player, p.legal) == (2, 1, (5, 6))
    assert new_pending((2, 1, (5, 6))) == p and type(new_pending((2, 1, (5, 6)))) is Pending


@pytest.mark.parametrize("engine", ENGINES)
def test_every_state_of_both_engines_waits_on_a_pending(engine):
    g = _game("games/ascenseur.cards", 3, engine)
    s = g.new_initial_state(seed=3)
    for _ in range(40):
        assert type(s.pending) is Pending and s.pending.player == s.current_player
        assert s.pending.legal == s.legal_action_ids()
        s.apply(s.legal_action_ids()[-1])


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("relative,players", GAMES)
def test_seat_playout_plays_the_games_random_bots_play(relative, players, engine):
    g = _game(relative, players, engine)
    for seed in range(3):
        bots = [RandomBot(seed * 1009 + s) for s in range(players)]
        by_bots = g.new_initial_state(seed=seed, log=False)
        while not by_bots.terminal:
            by_bots.apply(decide(bots[by_bots.current_player], by_bots))
        inside = quiet(g.new_initial_state(seed=seed, log=False))
        n = seat_playout(inside, [random.Random(seed * 1009 + s) for s in range(players)])
        assert inside.history == by_bots.history and n == len(by_bots.history)
        assert (inside.winners(), inside.scores(), inside.round) == (by_bots.winners(), by_bots.scores(), by_bots.round)
        for spec in g.program.layout.pots.values():  # a pot's chips: as many at the end as at the start
            assert chips_in_play(inside, spec) == chips_in_play(g.new_initial_state(seed=seed, log=False), spec)


@pytest.mark.parametrize("engine", ENGINES)
def test_random_playout_plays_what_the_rollout_loop_played(engine):
    g = _game("games/ascenseur.cards", 4, engine)
    for seed in range(3):
        rng = random.Random(seed)
        loop = g.new_initial_state(seed=seed, log=False)
        while not loop.terminal:
            legal = loop.legal_action_ids()
            loop.apply(legal[int(rng.random() * len(legal))])
        inside = quiet(g.new_initial_state(seed=seed, log=False))
        assert random_playout(inside, random.Random(seed)) == len(loop.history)
        assert inside.history == loop.history and inside.scores() == loop.scores()


def test_a_playout_stops_when_the_round_it_is_told_begins():
    g = _game("games/ascenseur.cards", 3, "compiled")
    s = quiet(g.new_initial_state(seed=1, log=False))
    random_playout(s, random.Random(0), stop_round=s.round + 2)
    assert s.round == 3 and not s.terminal
    seat_playout(s, [random.Random(s) for s in range(3)], stop_round=5)
    assert s.round == 5 and not s.terminal


def test_a_scripted_playout_is_told_only_how_many_actions_there_are():
    g = _game("games/counter_bluff.cards", 2, "compiled")
    seen = []

    def first(seat, count):
        seen.append((seat, count))
        return 0
    s = g.new_initial_state(seed=2, log=False)
    by_hand = g.new_initial_state(seed=2, log=False)
    n = scripted_playout(s, first)
    while not by_hand.terminal:
        advance(by_hand, by_hand.legal_action_ids()[0])
    assert s.terminal and s.history == by_hand.history and len(seen) == n
    with pytest.raises(ValueError, match="no action 9"):
        scripted_playout(g.new_initial_state(seed=2), lambda seat, count: 9)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_quiet_state_keeps_no_log_and_no_record_of_the_round(engine):
    g = _game("examples/follow_suit.cards", 3, engine)
    s = quiet(g.new_initial_state(seed=4))
    assert s.log is None and s.quiet
    random_playout(s, random.Random(1), stop_round=s.round + 1)
    assert s.checkpoint is False and s.transcript() == []
    kept = quiet(g.new_initial_state(seed=4), knowledge=True)
    assert not kept.quiet and kept.log is None


def test_the_reference_engine_leaves_knowledge_alone_in_a_quiet_state():
    """Nothing but views, labels and the log read who knows a card, so a quiet state skips it;
    the game it plays is the same."""
    g = _game("games/ascenseur.cards", 3, "reference")
    quiet_state = quiet(g.new_initial_state(seed=5, log=False))
    before = list(quiet_state.known)
    kept = quiet(g.new_initial_state(seed=5, log=False), knowledge=True)
    random_playout(quiet_state, random.Random(2))
    random_playout(kept, random.Random(2))
    assert quiet_state.history == kept.history and quiet_state.scores() == kept.scores()
    assert quiet_state.known == before != kept.known


def test_a_search_bot_plays_its_rollouts_on_copies_never_on_the_state():
    from cardlang.play.bots import make_bot

    g = _game("games/ascenseur.cards", 3, "compiled")
    s = g.new_initial_state(seed=6)
    for _ in range(5):
        s.apply(s.legal_action_ids()[0])
    snapshot = (s.clone().zones, list(s.known), list(s.v), s.pending, list(s.history), s.rng, len(s.log))
    a = decide(make_bot("ismcts:30", seed=1), s)
    assert a in s.legal_action_ids()
    assert (s.zones, s.known, s.v, s.pending, s.history, s.rng, len(s.log)) == snapshot
    assert not s.quiet


@pytest.mark.parametrize("engine", ENGINES)
def test_a_tally_leaves_a_choice_of_cards_named_alone_untold(engine):
    """Ascenseur's `p chooses a card c from hand(p)` has no label of its own: with a tally, its
    decisions are neither counted nor told (every one reads `a card`); the caller has them as the
    decisions left over. The bids are counted or told as before."""
    g = _game("games/ascenseur.cards", 3, engine)
    untold_choices = [i for i, c in enumerate(g.program.chooses) if untold(c)]
    assert len(untold_choices) == 1
    every, asked, tally = [], [], [{} for _ in g.program.chooses]
    plain = quiet(g.new_initial_state(seed=3, log=False))
    n = seat_playout(plain, [random.Random(s) for s in range(3)], on_decision=lambda st, a: every.append(st.pending.choice))

    def first_sight(st, a):
        asked.append(st.pending.choice)
        tally[st.pending.choice][a] = 1
    s = quiet(g.new_initial_state(seed=3, log=False))
    assert seat_playout(s, [random.Random(s) for s in range(3)], on_decision=first_sight, tally=tally) == n
    assert s.history == plain.history and len(every) == n
    counted = sum(times for row in tally for times in row.values())
    assert untold_choices[0] not in asked and not tally[untold_choices[0]]
    assert n - counted == every.count(untold_choices[0]) > 0


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("relative,players", GAMES + [("examples/spades.cards", 4), ("examples/two_hands.cards", 2)])
def test_simulates_action_counts_are_those_of_the_bot_by_bot_loop(relative, players, engine):
    """`simulate`'s random games count each action's key inside the runtime (a tally, the untold
    choices' decisions as the rest): the counts are those of keying each decision of the loop."""
    from collections import Counter

    from cardlang.play.simulate import _action_key, play_one

    g = _game(relative, players, engine)
    inside, loop = Counter(), Counter()
    for seed in range(3):
        play_one(g, seed, ("random",), None, inside)
        bots = [RandomBot(seed * 1009 + s) for s in range(players)]
        st = g.new_initial_state(seed=seed, log=False)
        while not st.terminal:
            a = decide(bots[st.current_player], st)
            loop[_action_key(st, a)] += 1
            st.apply(a)
    assert inside == loop and sum(loop.values()) > 0


def test_a_tally_counts_the_actions_its_keys_name_and_asks_about_the_others():
    g = _game("games/counter_bluff.cards", 2, "compiled")
    asked, tally = [], [{} for _ in g.program.chooses]

    def first_sight(st, a):
        asked.append((st.pending.choice, a))
        tally[st.pending.choice][a] = 1
    s = quiet(g.new_initial_state(seed=3, log=False))
    n = seat_playout(s, [random.Random(1), random.Random(2)], on_decision=first_sight, tally=tally)
    counted = {(i, a): times for i, row in enumerate(tally) for a, times in row.items()}
    assert sum(counted.values()) == n and sorted(asked) == sorted(counted) and len(set(asked)) == len(asked)
    plain = quiet(g.new_initial_state(seed=3, log=False))
    seat_playout(plain, [random.Random(1), random.Random(2)])
    assert plain.history == s.history
