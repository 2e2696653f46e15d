"""Knowledge that is true (issue 26): what each seat observes of a statement, scenario by scenario.

Each finding of the issue is a small rule file under tests/engine/, played on both engines: a seat
is shown what it observed, no more (a secret choice among cards it knew, picks made at once), and
no less (a reveal stays in the log; cards that start on a public table are known to all).
"""

from __future__ import annotations

import random

import pytest

import cardlang
from cardlang.play.bots import make_bot
from scenario import ENGINES, path

SHOWN = path("tests/engine/shown_then_forgotten.cards")


# ----------------------------------------------------------------- finding 5: the log keeps a reveal
@pytest.mark.parametrize("engine", ENGINES)
def test_cards_that_start_on_a_public_table_are_known_to_all(engine):
    st = cardlang.load(SHOWN, 2, engine=engine).new_initial_state(seed=3)
    assert all(st.knows(seat, c) for seat in (0, 1) for c in range(len(st.known)))
    assert [a.label for a in st.legal_actions()][:2] == ["take 2♥", "take 2♠"]  # by name, not by place


@pytest.mark.parametrize("engine", ENGINES)
def test_a_hand_shown_read_out_and_forgotten_in_one_step_stays_shown_in_the_log(engine):
    st = cardlang.load(SHOWN, 2, engine=engine).new_initial_state(seed=3)
    st.apply("take 2♥")
    everyone = st.transcript(None)
    shows = [i for i, line in enumerate(everyone) if " shows " in line or " holds " in line]
    assert len(shows) == 4 and "a card" not in " ".join(everyone[i] for i in shows)
    for seat in (0, 1):  # the cards were shown to all: every seat reads them, for good
        assert [st.transcript(seat)[i] for i in shows] == [everyone[i] for i in shows]
        assert not any(st.knows(seat, c) for c in st.zones[st.game.program.zone_families["hand"][0] + 1 - seat])


@pytest.mark.parametrize("engine", ENGINES)
def test_a_reveal_of_cards_everyone_knew_writes_its_line(engine):
    st = cardlang.load(SHOWN, 2, engine=engine).new_initial_state(seed=3)
    st.apply("take 2♥")
    top = st.game.deck.label_of(st.zones[st.game.program.zone_families["stock"][0]][-1])
    for seat in (0, 1, None):
        assert st.transcript(seat).count(f"shown: {top}") == 2  # the second reveal too


# ------------------------------------------ finding 3: OpenSpiel's information state and picks at once
SEALED = path("tests/engine/sealed_numbers.cards")


def _spiel_play(state, *labels):
    """Plays chance outcomes (the first each) and then each label, in the decisions' order."""
    labels = list(labels)
    while labels or state.is_chance_node():
        if state.is_chance_node():
            state.apply_action(state.chance_outcomes()[0][0])
            continue
        player = state.current_player()
        label = labels.pop(0)
        action = next(a for a in state.legal_actions() if state.action_to_string(player, a) == label)
        state.apply_action(action)
    return state


def _information_state(state, seat):
    return (list(state.information_state_tensor(seat)), state.information_state_string(seat),
            list(state.observation_tensor(seat)), state.observation_string(seat))


@pytest.mark.parametrize("engine", ENGINES)
def test_openspiel_information_state_holds_no_pending_pick_of_another_seat(engine):
    from cardlang import openspiel

    game = openspiel.load_game(SEALED, players=3, engine=engine)
    a = _spiel_play(game.new_initial_state(), "bid 0")
    b = _spiel_play(game.new_initial_state(), "bid 2")
    assert a.current_player() == b.current_player() == 1
    for seat in (1, 2):
        assert _information_state(a, seat) == _information_state(b, seat)
    assert _information_state(a, 0) != _information_state(b, 0)  # P0 knows his own bid


@pytest.mark.parametrize("engine", ENGINES)
def test_openspiel_information_state_keeps_a_secret_number_secret_for_good(engine):
    from cardlang import openspiel

    game = openspiel.load_game(SEALED, players=3, engine=engine)
    start = ("bid 1", "bid 0", "bid 2", "name P2", "name P0", "name P2")
    a = _spiel_play(game.new_initial_state(), *start, "change 0", "change 0", "change 1")
    b = _spiel_play(game.new_initial_state(), *start, "change 0", "change 1", "change 1")
    # P1 changed or not: his hand differs, P0 and P2 are told nothing of it (and see the bids and names)
    for seat in (0, 2):
        assert _information_state(a, seat) == _information_state(b, seat)
    assert _information_state(a, 1) != _information_state(b, 1)
    c = _spiel_play(game.new_initial_state(), "bid 1", "bid 2", "bid 2", *start[3:], "change 0", "change 0", "change 1")
    assert _information_state(a, 0) != _information_state(c, 0)  # a bid is shown once all are in


# --------------------------------- findings 1 and 2: a card seen to go one of several ways (runtime/among.py)
DISCARD = path("tests/engine/secret_discard.cards")
BIDS = path("tests/engine/seen_hands_bid.cards")
BOTS = ("random", "greedy:6", "ismcts:12")


def _given(state, seat):
    """All that `seat` is given of `state`: its view, transcript, observation, labels and table."""
    from test_simultaneous import plain

    view = state.view(seat)
    return [view.fingerprint(), state.transcript(seat), state.observation(seat), view.observation(),
            [(a.id, a.label) for a in view.legal_actions()], plain(list(view.table()))]


def _twins(file, engine, seed, then=()):
    """One state per legal action of the first decision, each played on by `then` (indexes)."""
    g = cardlang.load(file, 2, engine=engine)
    first = g.new_initial_state(seed=seed)
    out = []
    for a in first.legal_action_ids():
        st = first.clone()
        st.apply(a)
        for i in then:
            st.apply(st.legal_action_ids()[i])
        out.append(st)
    return first, out


def _hand(state, seat, name="hand"):
    return state.zones[state.game.program.zone_families[name][0] + seat]


@pytest.mark.parametrize("engine", ENGINES)
def test_a_secret_choice_among_cards_others_know_is_not_told_to_them(engine):
    first, twins = _twins(DISCARD, engine, 3)
    shown = _hand(first, 0)[-1]  # P0's top card, shown to all
    assert first.knows(1, shown)
    label = first.game.deck.label_of(shown)
    assert f"put {label} face down" in [a.label for a in first.legal_actions()]  # one twin puts it down
    given = [_given(st, 1) for st in twins]
    assert all(g == given[0] for g in given[1:]), "P1 tells apart which card P0 put face down"
    for st in twins:
        assert st.transcript(1)[-1] == "P0 chooses put a card face down"
        assert not st.knows(1, shown) and st.current_player == 1
        for name in BOTS:
            assert make_bot(name, seed=3).choose(st.view(1)) == make_bot(name, seed=3).choose(twins[0].view(1)), name
    assert _given(twins[0], 0) != _given(twins[1], 0)  # P0 knows what he put down


@pytest.mark.parametrize("engine", ENGINES)
def test_the_shown_card_is_in_the_hand_or_face_down_in_every_world(engine):
    first, twins = _twins(DISCARD, engine, 3)
    shown = first.game.deck.name_of(_hand(first, 0)[-1])
    for st in twins:
        view = st.view(1)
        where = set()
        for i in range(60):
            world, fits = view.sample(random.Random(i))
            assert fits
            assert shown in world.zone("hand", 0) + world.zone("down", 0), "a world lost the shown card"
            where.add("down" if shown in world.zone("down", 0) else "hand")
            plain = st.view(1).determinize(random.Random(i), consistent=False)
            assert shown in plain.zone("hand", 0) + plain.zone("down", 0)
        assert where == {"hand", "down"}  # either may be true, whichever P0 put down


@pytest.mark.parametrize("engine", ENGINES)
def test_a_card_known_in_a_hand_stays_known_until_a_card_leaves_it_unseen(engine):
    g = cardlang.load(DISCARD, 2, engine=engine)
    st = g.new_initial_state(seed=3)
    shown0, shown1 = _hand(st, 0)[-1], _hand(st, 1)[-1]
    keep = next(c for c in _hand(st, 0) if c != shown0)
    st.apply(f"put {g.deck.label_of(keep)} face down")
    assert st.knows(0, shown1)  # P1 has put no card down yet: P0 still knows P1's shown card
    st.apply(f"put {g.deck.label_of(shown1)} face down")
    assert not st.knows(0, shown1) and not st.knows(1, shown0)  # each saw a card go, not which
    # P0 plays his shown card face up: everyone knows it again, and P1 knows P0's other two cards
    # (the one face down, the one in his hand) are not it
    st.apply(f"play {g.deck.label_of(shown0)}")
    assert st.knows(1, shown0) and st.current_player == 1
    for i in range(20):
        world = st.view(1).determinize(random.Random(i))
        assert g.deck.name_of(shown0) not in world.zone("hand", 0) + world.zone("down", 0)
        assert world.zone("table")[-1] == g.deck.name_of(shown0)


@pytest.mark.parametrize("engine", ENGINES)
def test_picks_made_at_once_do_not_leak_through_the_rest_of_a_seen_hand(engine):
    first, twins = _twins(BIDS, engine, 5, then=(0,))  # P0 bids each of his cards, P1 his first
    hand = list(_hand(first, 0))
    assert all(first.knows(1, c) for c in hand)  # P0 showed his whole hand
    given = [_given(st, 1) for st in twins]
    assert all(g == given[0] for g in given[1:]), "P1 reads P0's bid off the rest of his hand"
    names = sorted(first.game.deck.name_of(c) for c in hand)
    for st in twins:
        assert st.current_player == 0 or st.current_player == 1
        assert st.observation(1)["zones"]["hand"][0] == [None, None]
        for name in BOTS:
            if st.current_player == 1:
                assert make_bot(name, seed=3).choose(st.view(1)) == make_bot(name, seed=3).choose(twins[0].view(1))
        bids = set()
        for i in range(40):
            world = st.view(1).determinize(random.Random(i))
            assert sorted(world.zone("hand", 0) + world.zone("bid", 0)) == names
            bids.add(world.zone("bid", 0)[0])
        assert len(bids) == 3  # each card of the hand may be the bid


PICKUP = path("tests/engine/table_pickup.cards")


@pytest.mark.parametrize("engine", ENGINES)
def test_a_card_picked_up_from_the_table_is_known_until_a_card_goes_face_down_unseen(engine):
    g = cardlang.load(PICKUP, 2, engine=engine)
    st = g.new_initial_state(seed=2)
    picked = st.zones[g.program.zone_families["table"][0]][-1]
    st.apply(f"pick up {g.deck.label_of(picked)}")
    assert st.knows(1, picked)  # everyone saw it go into P0's hand
    other = next(c for c in _hand(st, 0) if c != picked)
    st.apply(f"show {g.deck.label_of(other)}")  # face up: everyone sees which card went
    assert st.knows(1, picked)
    st.apply(st.legal_action_ids()[0])  # P1 shows a card
    twins = []
    for hidden in _hand(st, 0):
        twin = st.clone()
        twin.apply(f"hide {g.deck.label_of(hidden)}")
        twins.append(twin)
    assert picked in _hand(st, 0) and len(twins) == 3
    given = [_given(t, 1) for t in twins]
    assert all(x == given[0] for x in given), "P1 tells whether P0 put the card he picked up face down"
    for twin in twins:
        assert not twin.knows(1, picked)
        sides = set()
        for i in range(30):
            world = twin.view(1).determinize(random.Random(i))
            name = g.deck.name_of(picked)
            assert name in world.zone("hand", 0) + world.zone("pile")
            sides.add(name in world.zone("pile"))
        assert sides == {True, False}


SWAP = path("tests/engine/secret_swap.cards")


@pytest.mark.parametrize("engine", ENGINES)
def test_a_secret_swap_among_cards_others_know_is_not_told_to_them(engine):
    first, twins = _twins(SWAP, engine, 4)
    shown = _hand(first, 0)[-1]
    assert first.knows(1, shown) and len(twins) == 3
    given = [_given(st, 1) for st in twins]
    assert all(g == given[0] for g in given[1:]), "P1 tells apart which card P0 swapped"
    name = first.game.deck.name_of(shown)
    for st in twins:
        assert not st.knows(1, shown)
        sides = set()
        for i in range(40):
            world = st.view(1).determinize(random.Random(i))
            assert name in world.zone("hand", 0) + world.zone("stock")
            sides.add(name in world.zone("stock"))
        assert sides == {True, False}
