"""Numbers and players picked at once in a view's past (tests/engine/sealed_numbers.cards).

A bid (`set bid(p) = n`) and a name (`set named(p) = q`) picked at once are shown to every seat
once the picks are played out: a view's past replays them as they were, as it replays a card
picked at once that the seat knows, so its determinizations fit the round (before, every such
pick was drawn again and the views fell back to ignoring the round's past). A pick still pending,
and the secret `change` (its body shows nothing), are still drawn again: twins that differ only in
them give the other seats the same view, and a game that wrongly called `change` shown would not.
"""

from __future__ import annotations

import random

import attrs
import pytest

import cardlang
from cardlang.play.bots import make_bot
from cardlang.runtime import at_once
from cardlang.runtime.actions import alt_of, value_of
from cardlang.runtime.view import round_steps
from scenario import ENGINES, path
from test_simultaneous import plain

FILE = path("tests/engine/sealed_numbers.cards")
BID, NAME, CHANGE = 0, 1, 2  # the choices made at once, in the file's order


def load(engine="compiled", shown=None):
    """The game; `shown` replaces what the `change` choice's alternative is said to show."""
    g = cardlang.load(FILE, players=3, engine=engine)
    if shown is not None:
        info = g.program.at_once[CHANGE]
        g.program.at_once[CHANGE] = attrs.evolve(info, shown=(shown,))
    return g


def play(state, *labels):
    for label in labels:
        state.apply(label)


def to_first_card(state, bids=("bid 1", "bid 0", "bid 2"), changes=("change 1", "change 0", "change 1")):
    """Bids, names and changes at once, then P0 leads: P1 is to play a card."""
    play(state, *bids, "name P2", "name P0", "name P2", *changes)
    lead = state.legal_actions()[1].label
    play(state, lead)
    assert state.current_player == 1 and state.legal_actions()[0].label.startswith("play ")
    return state


@pytest.mark.parametrize("engine", ENGINES)
def test_the_shown_picks_are_in_the_view_s_past_and_its_worlds_fit_them(engine):
    g = load(engine)
    state = to_first_card(g.new_initial_state(seed=4))
    played = state.history[-10:]  # the round since its first decision: 9 picks and the lead
    steps = round_steps(state, 1)
    assert len(steps) == 10
    choices = [BID] * 3 + [NAME] * 3 + [CHANGE] * 3
    for k, (step, a, choice) in enumerate(zip(steps, played, choices)):
        seat = k % 3
        if seat == 1 or choice in (BID, NAME):  # its own picks, and the others' shown ones: as they were
            assert step == a, (k, step)
        else:  # the others' secret changes: drawn again
            assert step == at_once.SECRET_STEP, (k, step)
    assert steps[-1] == played[-1]  # the lead, face up from P0's hand: the card itself (P1 saw which)
    view = state.view(1)
    change = g.program.at_once[CHANGE]
    drawn = set()
    for k in range(30):
        world, fits = view.sample(random.Random(k))
        assert fits, f"world {k} does not fit the round's past"
        assert world.var("bid") == state.var("bid") == [1, 0, 2]
        assert world.var("named") == state.var("named")
        picks = world.v[change.picks_slot]  # this round's changes, as the world replayed them
        assert picks[1] == state.v[change.picks_slot][1]  # P1's own
        drawn.add((value_of(picks[0]), value_of(picks[2])))
        assert world.current_player == 1 and len(world.legal_actions()) == len(state.legal_actions())
    assert len(drawn) > 1  # the others' changes are drawn, not read


def test_without_shown_picks_the_views_mostly_fall_back_to_ignoring_the_round_s_past():
    """What it was before: the bids and names drawn again seldom fit those everyone sees (1 in 81
    a replay), so most views, after 24 replays, gave up the round's past."""
    g = load()
    for info in list(g.program.at_once.values()):
        g.program.at_once[info.choice] = attrs.evolve(info, shown=())
    state = to_first_card(g.new_initial_state(seed=4))
    assert round_steps(state, 1)[0] == at_once.SECRET_STEP
    view = state.view(1)
    fits = sum(view.sample(random.Random(k))[1] for k in range(40))
    assert fits < 20
    shown = to_first_card(load().new_initial_state(seed=4)).view(1)
    assert all(shown.sample(random.Random(k))[1] for k in range(40))


def shown_to(state, seat) -> list:
    """What seat `seat` is given of `state`: its view, transcript, observation and labels."""
    view = state.view(seat)
    return [view.fingerprint(), state.transcript(seat), state.observation(seat), view.observation(),
            [(a.id, a.label) for a in view.legal_actions()], plain(list(view.table()))]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_pending_bid_stays_secret(engine):
    g = load(engine)
    a, b = g.new_initial_state(seed=4), g.new_initial_state(seed=4)
    play(a, "bid 0")
    play(b, "bid 2")
    assert shown_to(a, 1) == shown_to(b, 1)
    play(a, "bid 1")
    play(b, "bid 1")
    assert shown_to(a, 2) == shown_to(b, 2)
    for name in ("random", "greedy:6", "ismcts:12"):
        assert make_bot(name, seed=3).choose(a.view(2)) == make_bot(name, seed=3).choose(b.view(2)), name


def change_twins(g):
    """Two states that differ only in P0's secret change, at P1's first card (P0 leads a card both
    his hands hold, at the same place)."""
    twins = []
    for change in ("change 0", "change 1"):
        st = g.new_initial_state(seed=4)
        play(st, "bid 1", "bid 0", "bid 2", "name P2", "name P0", "name P2", change, "change 0", "change 1")
        twins.append(st)
    a, b = twins
    hand = g.program.zone_families["hand"][0]
    assert a.zones[hand] != b.zones[hand]
    lead = next(x for x, y in zip(a.zones[hand], b.zones[hand]) if x == y)
    for st in twins:
        play(st, f"play {g.deck.label_of(lead)}")
    assert a.current_player == b.current_player == 1 and a.var("bid") == b.var("bid")
    return a, b


@pytest.mark.parametrize("engine", ENGINES)
def test_a_secret_change_played_out_stays_secret(engine):
    a, b = change_twins(load(engine))
    assert shown_to(a, 1) == shown_to(b, 1), "P1 tells P0's change apart"
    for name in ("random", "greedy:6", "ismcts:12"):
        assert make_bot(name, seed=3).choose(a.view(1)) == make_bot(name, seed=3).choose(b.view(1)), name
    assert shown_to(a, 0) != shown_to(b, 0)  # P0 knows what he did


def test_the_twins_tell_a_pick_called_shown_that_is_not():
    """The check has teeth: with the change called shown, P1's view would hold P0's secret change."""
    a, b = change_twins(load(shown=True))
    assert a.view(1).fingerprint() != b.view(1).fingerprint()


def test_a_world_whose_redrawn_pick_empties_a_place_is_a_misfit(tmp_path):
    """A secret number that decides how many cards a player draws: a world that draws it again
    differently has fewer cards where a later card was played from. That world does not fit (it
    was an IndexError); the view deals others until one fits."""
    with open(FILE) as f:
        text = f.read()
    secret = """            move top of hand(p) to reserve(p)
            move bottom of reserve(p) to hand(p)"""
    assert secret in text
    drawing = tmp_path / "drawing.cards"
    drawing.write_text(text.replace(secret, "            deal 1 from stock to hand(p)"))
    g = cardlang.load(str(drawing), players=3)
    state = g.new_initial_state(seed=4)
    play(state, "bid 1", "bid 0", "bid 2", "name P2", "name P0", "name P2", "change 1", "change 0", "change 0")
    while state.current_player != 1 or len(state.history) < 12:  # P0 leads his last card drawn, then more
        state.apply(state.legal_actions()[-1])
    view = state.view(1)
    fits = [view.sample(random.Random(k))[1] for k in range(20)]
    assert any(fits)
