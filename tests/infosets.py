"""Alternative histories for the information-set leak test (tests/test_infosets.py, issue 26).

A course is played in OpenSpiel's terms (`cardlang.openspiel`), so that every chance outcome and
every decision is a move that can be played again, and OpenSpiel's own information states can be
compared too. For a seat k at the end of a course, a *twin* is the same course in which one decision
of another seat that k was not shown is changed among its legal alternatives and the rest is played
again. Which decisions k was not shown comes from the engine, not from a list per game: the decision's
line of the log reads otherwise for k than for an omniscient reader (a pick made at once, `P0 chooses
in secret`; a card k does not know, `a card`), and the chooser knew the card he chose (a choice by
place among cards the chooser does not know shows everyone the place: that is no secret choice).
The alternatives are the chooser's legal actions of the same alternative (for a card: another card he
knows, from the same zone); for a pick made at once that is no card, any other legal pick.

The rest of the course is played again move by move: a card chosen by place stays the card at that
place; a move that names one of the two cards exchanged (a shuffle's outcome, a choice) and is no
longer possible names the other; a move still impossible drops the twin. A twin in which k has
since come to see the card really chosen (turned face up, revealed, read in the log) is dropped
too: k then saw which course it is in.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Optional

from cardlang.runtime import at_once
from cardlang.runtime.actions import alt_of, value_of
from cardlang.runtime.basics import RuleError
from cardlang.runtime.view import place_of


@dataclass
class Step:
    """A move of a course, and what the twins need of it when it is a decision."""

    move: int  # the OpenSpiel action
    chance: str = ""  # the chance event's kind ("shuffle", "draw", "card"), or "" for a decision
    player: int = -1
    real: int = -1  # the engine's action id (its card the real one)
    card: int = -1  # the card chosen, or -1
    by_place: Optional[tuple] = None  # (zone, position) when the chooser did not know the card
    line: int = -1  # the index of its line in the log
    pending: bool = False  # a pick made at once, not yet played out where the course ends


def _engine_action(state, move: int) -> tuple:
    """(player, the engine's action id) of OpenSpiel decision `move` in `state`."""
    core = state._core
    player = core.st.current_player
    view = core.table_view(player)
    return player, view.action_in(core.st, state._encoder.action_of(view.choice, move))


def _move_of(state, real: int) -> Optional[int]:
    """The OpenSpiel action of `state`'s current player whose engine action is `real`, or None."""
    core = state._core
    player = core.st.current_player
    view = core.table_view(player)
    encoder = state._encoder
    for m in encoder.legal_indices(view):
        if view.action_in(core.st, encoder.action_of(view.choice, m)) == real:
            return m
    return None


def course(game, rng: random.Random, decisions: int):
    """A random course of `decisions` decisions (fewer if the game ends first): (the OpenSpiel state it
    ends in, its steps, the OpenSpiel state before each step)."""
    state = game.new_initial_state()
    steps, before = [], []
    made = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes())
            move = rng.choices(outcomes, probs)[0]
            step = Step(move, chance=state._core.event[0])
        else:
            if made == decisions:
                break
            move = rng.choice(state.legal_actions())
            st = state._core.twin().st
            player, real = _engine_action(state, move)
            program = st.game.program
            step = Step(move, player=player, real=real, line=len(st.log or ()))
            if program.chooses[st.pending.choice].alts[alt_of(real)].kind == "card":
                step.card = value_of(real)
                if not st.known[step.card] >> player & 1:
                    step.by_place = place_of(st, step.card)
            made += 1
        before.append(state.clone())
        steps.append(step)
        state.apply_action(move)
    return state, steps, before


def hidden_from(end, steps: list, before: list, seat: int) -> list:
    """The indices of the decisions of other seats that `seat` was not shown, by the log of `end`
    (and, for a number or a player picked at once, by the engine's `AtOnce.shown`: a pick its body
    sets a variable to is shown to all once the picks are played out)."""
    st = end._core.twin().st
    mine, everyone = st.transcript(seat), st.transcript()
    program = st.game.program
    pending = at_once.pending_picks(st)
    later = 0  # the decisions after step i
    out = []
    for i in range(len(steps) - 1, -1, -1):
        step = steps[i]
        if step.chance:
            continue
        later += 1
        if step.player == seat or step.line >= len(mine):
            continue
        if mine[step.line] == everyone[step.line]:
            continue  # the line reads the same for the seat: it was shown the choice
        if step.card >= 0 and step.by_place is not None:
            continue  # a place chosen among cards the chooser did not know: the place is shown
        info = program.at_once.get(before[i]._core.twin().st.pending.choice)
        step.pending = info is not None and later - 1 < pending
        if step.card < 0:
            if info is None:
                continue
            if not step.pending and info.shown and info.shown[alt_of(step.real)]:
                continue  # played out, and its body shows the number or player picked
        out.append(i)
    return out[::-1]


def alternatives(before_state, step: Step) -> list:
    """The chooser's other legal actions for a decision it made unseen (see the module's note)."""
    st = before_state._core.twin().st
    program = st.game.program
    alts = program.chooses[st.pending.choice].alts
    secret = st.pending.choice in program.at_once
    out = []
    for a in st.pending.legal:
        if a == step.real:
            continue
        if step.card >= 0:
            c = value_of(a)
            if alt_of(a) != alt_of(step.real) or st.loc[c] != st.loc[step.card] or not st.known[c] >> step.player & 1:
                continue
        elif not secret or alts[alt_of(a)].kind == "card":
            continue
        elif not step.pending and alt_of(a) != alt_of(step.real):
            continue  # played out: another alternative's body may well show itself (an option's)
        out.append(a)
    return out


def saw(states, card: int, seat: int, from_line: int) -> bool:
    """Whether `seat` knew `card` in any of `states` (OpenSpiel states), or read it in a line of the
    log from `from_line` on (a card turned face up and shuffled away within one step)."""
    bit = 1 << seat
    for state in states:
        st = state._core.twin().st
        if st is None:
            continue
        if st.known[card] & bit:
            return True
    last = states[-1]._core.twin().st if states and states[-1]._core.twin().st is not None else None
    for _, cards, masks in (last.log or ())[from_line + 1:] if last is not None else ():
        if any(c == card and m & bit for c, m in zip(cards, masks)):
            return True
    return False


def twin(before: list, steps: list, i: int, other: int, seat: int):
    """The course with decision `i` played as engine action `other` and the rest played again (see the
    module's note): (its end, the states it went through after the change), or None where it cannot
    be played again."""
    state = before[i].clone()
    went = []
    swap = {}
    if steps[i].card >= 0:
        a, b = steps[i].card, value_of(other)
        swap = {a: b, b: a}
    move = _move_of(state, other)
    if move is None:
        return None
    state.apply_action(move)
    went.append(state.clone())
    for step in steps[i + 1:]:
        if state.is_terminal():
            return None
        if step.chance:
            if not state.is_chance_node():
                return None
            outcomes = dict(state.chance_outcomes())
            move = step.move
            if move not in outcomes and step.chance in ("shuffle", "card"):
                move = swap.get(move, move)  # (the card exchanged lies where the real one did)
            if move not in outcomes:
                return None
        else:
            if state.is_chance_node() or state._core.twin().st.current_player != step.player:
                return None
            real = step.real
            if step.by_place is not None:
                z, pos = step.by_place
                pile = state._core.twin().st.zones[z]
                if pos >= len(pile):
                    return None
                real = (real & ~0xFFFF) | pile[pos]
            move = _move_of(state, real)
            if move is None and step.by_place is None and step.card in swap:
                move = _move_of(state, (real & ~0xFFFF) | swap[step.card])  # (the card exchanged)
            if move is None:
                return None
        went.append(state.clone())
        state.apply_action(move)
    went.append(state)
    return state, went


def twins(game, seed: int, decisions: int, seats, per_seat: int = 4):
    """(real end, seat, twin end, index of the decision changed) for random twins of one course."""
    rng = random.Random(seed)
    end, steps, before = course(game, rng, decisions)
    if end.is_terminal():
        return
    st = end._core.twin().st
    for seat in seats(st):
        hidden = hidden_from(end, steps, before, seat)
        rng.shuffle(hidden)
        made = 0
        for i in hidden:
            options = alternatives(before[i], steps[i])
            rng.shuffle(options)
            for other in options[:2]:
                try:
                    made_twin = twin(before, steps, i, other, seat)
                except RuleError:  # (the other course breaks a rule: not a course of the game)
                    continue
                if made_twin is None or made_twin[0].is_terminal():
                    continue
                t, went = made_twin
                c = steps[i].card
                if c >= 0 and not steps[i].pending and (saw(before[i + 1:] + [end], c, seat, steps[i].line)
                                                        or saw(went, c, seat, steps[i].line)):
                    continue  # the seat came to see the card really chosen: it saw which course this is
                yield end, seat, t, i
                made += 1
                break
            if made >= per_seat:
                break
