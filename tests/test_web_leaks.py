"""The leak test over the wire for a spectator (issue 30): the web table's spectator is sent the same
bytes in every re-deal of the cards that not every seat knows.

A re-deal is a real course (OpenSpiel's, so that its log is the game's own) with two cards exchanged
wherever a move names them (a shuffle's outcome, a card chosen by a seat that knew it), kept only
where the knowledge model says no seat-wide view could tell it: at no step of either course did
every seat know either card, nor did a line of the log show either to every seat, and at every step
both courses hold as many cards in every zone, with the same seat to decide (a hand that could not
play draws where the other could have played: everyone sees that course go otherwise). Then every
`view` message a spectator is sent along the course must be byte-identical. The seats' own messages
are in the twins of tests/test_leaks.py and tests/test_infosets.py (`test_leaks.web`).
"""

from __future__ import annotations

import os
import random

import pytest

import infosets
import test_leaks as leaks
from cardlang import openspiel
from cardlang.runtime.actions import alt_of, value_of, with_value
from cardlang.runtime.view import place_of
from cardlang.web import protocol
from scenario import path

FILES = leaks.HIDDEN


def _public_ever(states, cards, everyone: int) -> bool:
    for st in states:
        if any(st.known[c] & everyone == everyone for c in cards):
            return True
    last = states[-1]
    for _, logged, masks in last.log or ():
        if any(c in cards and m & everyone == everyone for c, m in zip(logged, masks)):
            return True
    return False


def _redealt(g, moves, a, b):
    """The OpenSpiel state of `moves` played with cards `a` and `b` exchanged in the shuffles' outcomes
    and in the choices of a chooser who knew the card; a card chosen by place (the chooser did not
    know it) is the card at the same place (`infosets`' way). None where a move is then not legal."""
    swap = {a: b, b: a}
    state, real = g.new_initial_state(), g.new_initial_state()
    for move in moves:
        m = move
        if state.is_chance_node():
            if state._core.event[0] == "shuffle":
                m = swap.get(m, m)
            if m not in dict(state.chance_outcomes()):
                return None
        elif real._core.twin().st is None:  # (a decision of the adapter's own, before the game's state exists)
            if m not in state.legal_actions():
                return None
        else:
            st = real._core.twin().st
            player, action = infosets._engine_action(real, move)
            if st.game.program.chooses[st.pending.choice].alts[alt_of(action)].kind == "card":
                card = value_of(action)
                if st.known[card] >> player & 1:
                    card = swap.get(card, card)
                else:
                    z, pos = place_of(st, card)
                    card = state._core.twin().st.zones[z][pos]
                action = with_value(action, card)
            m = infosets._move_of(state, action)
            if m is None:
                return None
        state.apply_action(m)
        real.apply_action(move)
    return state


def _places(st) -> tuple:
    """Where a course stands, as everyone sees it: the size of every zone, who decides what, the round."""
    return tuple(len(z) for z in st.zones), st.current_player, st.round, st.terminal


def _course_states(g, moves):
    """The engine states after each move of an OpenSpiel course (None where it cannot be played)."""
    state = g.new_initial_state()
    out = []
    for m in moves:
        if m not in (dict(state.chance_outcomes()) if state.is_chance_node() else state.legal_actions()):
            return None
        state.apply_action(m)
        if not state.is_chance_node() and state._core.twin().st is not None:
            out.append(state._core.twin().st.clone())
    return out


def spectator_twins(relative: str, games: int = 8, seed: int = 3):
    """(re-deals compared, re-deals whose cards differ, messages that differed) for one file."""
    players = leaks._players(relative)[0]
    g = openspiel.load_game(path(relative), players=players)
    everyone = (1 << players) - 1
    rng = random.Random(seed)
    compared = differs = found = 0
    for _ in range(games):
        state = leaks.random_course(g, rng, rng.randrange(2, 14))
        if state.is_terminal():
            continue
        st = state._core.twin().st
        hidden = [c for c in range(len(st.known)) if st.known[c] & everyone != everyone]
        for _ in range(6 if len(hidden) > 1 else 0):
            a, b = rng.sample(hidden, 2)
            twin = _redealt(g, state.history(), a, b)
            if twin is None or twin.is_terminal() or twin.is_chance_node():
                continue
            ours, theirs = _course_states(g, state.history()), _course_states(g, twin.history())
            if ours is None or theirs is None or len(ours) != len(theirs):
                continue
            if _public_ever(ours, (a, b), everyone) or _public_ever(theirs, (a, b), everyone):
                continue  # every seat saw one of them: the spectator may see which course this is
            if any(_places(x) != _places(y) for x, y in zip(ours, theirs)):
                continue  # the course went otherwise (a draw forced by a hand that could not play)
            compared += 1
            differs += ours[-1].zones != theirs[-1].zones
            for x, y in zip(ours, theirs):
                if protocol.encode(protocol.spectator_view(x, 0)) != protocol.encode(protocol.spectator_view(y, 0)):
                    found += 1
                    break
    return compared, differs, found


@pytest.mark.parametrize("relative", FILES, ids=[os.path.basename(f) for f in FILES])
def test_a_spectator_is_sent_the_same_bytes_in_every_redeal_of_what_not_every_seat_knows(relative):
    compared, differs, found = spectator_twins(relative)
    assert found == 0, f"{found} of {compared} re-deals sent the spectator other bytes"


def test_the_spectator_redeals_really_differ_in_hidden_cards():
    totals = [spectator_twins(f) for f in ("games/coucou.cards", "examples/kuhn_poker.cards")]
    assert sum(t[0] for t in totals) >= 5
    assert sum(t[1] for t in totals) > 0


def test_the_spectator_check_catches_a_view_that_shows_a_seats_cards(monkeypatch):
    """Not blind: a public view made from seat 0's observation (its hand shown) is caught."""
    def leaky(state, seq, extra=None):
        obs = state.observation(0)
        return {"type": "view", "seq": seq, "observation": obs}

    monkeypatch.setattr(protocol, "spectator_view", leaky)
    assert spectator_twins("games/coucou.cards")[2] > 0
