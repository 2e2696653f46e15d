"""Determinizations fit past play: a player who did not follow suit is never dealt that suit again."""

import random

from cardlang.runtime.view import SeatView, round_steps
from scenario import game

TRICKS = "examples/follow_suit.cards"


def states_after_a_void(players=3, games=30, rules=TRICKS, earlier=False):
    """(state, the seat to decide, a player shown void in a suit earlier this round, that suit); with
    `earlier`, a player shown void in an earlier round (chance met since, in a game that draws)."""
    g = game(rules, players)
    hand = g.program.zone_families["hand"][0]
    suit_of = g.deck.card_suit
    out = []
    for seed in range(games):
        rng = random.Random(seed)
        state = g.new_initial_state(seed=seed)
        voids = []  # (round, player, suit) seen so far
        while not state.is_terminal():
            p, led = state.current_player, state.var("led")
            if led is not None and not any(suit_of[c] == led for c in state.zones[hand + p]):
                voids.append((state.round, p, led))
            for r, q, s in voids:
                if (r < state.round if earlier else r == state.round) and q != p:
                    out.append((state.clone(), p, q, s))
                    break
            legal = state.legal_action_ids()
            state.apply(legal[rng.randrange(len(legal))])
    return g, out


def test_every_world_a_bot_plays_in_keeps_a_void_player_void():
    g, cases = states_after_a_void()
    hand = g.program.zone_families["hand"][0]
    assert len(cases) >= 20
    fitted = broken_blind = 0
    for k, (state, seat, void, suit) in enumerate(cases):
        view = state.view(seat)
        assert isinstance(view, SeatView)
        for i in range(6):
            world, fits = view.sample(random.Random(k * 100 + i))
            if fits:
                fitted += 1
                assert not any(g.deck.card_suit[c] == suit for c in world.zones[hand + void]), \
                    f"P{void} did not follow {suit} yet is dealt it"
            blind = view.determinize(random.Random(k * 100 + i), consistent=False)
            broken_blind += any(g.deck.card_suit[c] == suit for c in blind.zones[hand + void])
    assert fitted >= 0.9 * 6 * len(cases)
    assert broken_blind > 0, "without fitting the past, some worlds deal the void player the suit"


def test_a_determinized_world_makes_every_action_of_the_round_legal_again():
    g, cases = states_after_a_void()
    for k, (state, seat, _, _) in enumerate(cases[:15]):
        world, fits = state.view(seat).sample(random.Random(k), history=True)
        if not fits:
            continue
        # the world carries the round's actions; replayed from its own first decision they are legal
        cp = world.checkpoint
        replay = cp[1].clone()
        replay.checkpoint = False
        for step in round_steps(world):
            a = step if type(step) is int else step[0] | replay.zones[step[1]][step[2]]
            assert a in replay.legal_action_ids()
            replay.apply(a)
        assert replay.zones == world.zones and replay.known == world.known
        assert world.view(seat) == state.view(seat)
