"""Round frames (the `frames` pass, `compiler/emit/frames.py`): a game played a decision at a time
plays each round in one generator that stops at each decision and goes on at the next `apply`.

At every decision the state is exactly the one the ops leave (every field: the loops' places and
counts in `state.v` and the phases' return stack included), so that a copy, which never takes the
generator and goes on through the ops, plays on exactly as the original; an error inside a round
leaves the state as the ops leave it, without a generator.
"""

from __future__ import annotations

import copy
import random
import textwrap
from pathlib import Path

import pytest

import cardlang
import cardlang.runtime.engine
from cardlang.runtime.basics import RuleError
from cardlang.runtime.engine import State
from cardlang.runtime.playout import quiet, seat_playout

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted(str(p.relative_to(ROOT)) for folder in ("games", "examples", "tests/engine")
               for p in (ROOT / folder).glob("*.cards"))
MOST = 300  # decisions compared a game (the longest games take about 2,000)


def _low(path: str) -> int:
    return cardlang.check_file(str(ROOT / path))[0].players[0]


def _fields(st, steps: bool = True) -> tuple:
    """Every field of a state a run writes (the generator and the round's kept past aside; `steps`,
    the step budget left, which a copy takes afresh at its first `apply`)."""
    return (st.pc, st.stack, st.v, st.zones, st.loc, st.known, st.facts, st.among, st.active, st.rng,
            st.pending, st.history, st.terminal, st.winner_seats, st.round, st.log, st.rounds_at,
            st.draws, st.stacks) + ((st.steps,) if steps else ())


def _pair(path: str, players: int):
    """(the game with frames, the same game whose decisions all go back in through the ops)."""
    return (cardlang.load(str(ROOT / path), players=players),
            cardlang.load(str(ROOT / path), players=players, passes="-frames"))


def _apply(st, a):
    """Plays `a`: None, or the text of the rule error it met."""
    try:
        st.apply(a)
    except RuleError as e:
        return str(e)
    return None


def _side_by_side(states, rng, most: int = MOST) -> list:
    """Plays the states with the same random actions, comparing them at each decision; the errors met."""
    errors = []
    for _ in range(most):
        if states[0].terminal:
            break
        a = rng.choice(states[0].legal_action_ids())
        met = [_apply(st, a) for st in states]
        assert len(set(met)) == 1, met
        for st in states[1:]:
            assert _fields(st) == _fields(states[0]), len(states[0].history)
        if met[0] is not None:
            errors.append(met[0])
            break
    return errors


@pytest.mark.parametrize("path", FILES)
def test_a_frame_leaves_each_decision_as_the_ops_leave_it(path):
    players = _low(path)
    framed, plain = _pair(path, players)
    assert not plain.program.frames
    for seed, log in ((0, True), (1, False), (2, "quiet")):  # (a quiet state plays its decisions alike too)
        try:
            states = [g.new_initial_state(seed=seed, log=log is True) for g in (framed, plain)]
            if log == "quiet":
                states = [quiet(st) for st in states]
        except RuleError as e:  # (a rule file may stop before its first decision: both the same)
            with pytest.raises(RuleError, match=str(e)[:20]):
                plain.new_initial_state(seed=seed, log=log is True)
            continue
        assert _fields(states[0]) == _fields(states[1])
        assert states[1].frame is None
        _side_by_side(states, random.Random(seed))


def test_the_frames_play_the_rounds_of_the_games():
    """(not a fallback everywhere: the games of games/ play their rounds in frames)"""
    for path in ("games/ascenseur.cards", "games/coucou.cards", "games/pioche_poker.cards", "games/red_dog.cards"):
        g = cardlang.load(str(ROOT / path))
        st = g.new_initial_state(seed=2)
        assert g.program.frames and st.frame is not None, path
        st.apply(st.legal_action_ids()[0])
        assert st.frame is not None or st.terminal


@pytest.mark.parametrize("path", ["games/ascenseur.cards", "games/coucou.cards", "games/pioche_poker.cards",
                                  "games/red_dog.cards", "tests/passes/frames.cards"])
def test_a_copy_taken_mid_round_plays_on_exactly_as_the_original(path):
    players = _low(path)
    framed, plain = _pair(path, players)
    rng = random.Random(5)
    st = framed.new_initial_state(seed=5)
    kept = []
    for k in range(60):
        if st.terminal:
            break
        if k % 7 == 3:  # mid-round: a clone, a copy, a save restored
            assert st.frame is not None
            shallow = copy.copy(st)
            assert shallow.frame is None and st.frame is not None  # (a copy never takes the generator)
            save = st.to_json()
            twins = [State.from_json(framed, save), st.clone(), State.from_json(plain, save)]
            assert twins[0].frame is not None  # (a save is played again from the start: in its frame)
            assert twins[1].frame is None  # (a clone goes on through the ops, to its next round's frame)
            for twin in twins:
                assert _fields(twin, steps=False) == _fields(st, steps=False)
            kept.append(twins)
        st.apply(rng.choice(st.legal_action_ids()))
    assert kept
    for twins in kept:  # from the same decision, the original's way, the clone's and the ops' alone
        _side_by_side(twins, random.Random(len(twins[0].history)), most=10_000)
        assert twins[0].terminal or len(twins[0].history) >= 10_000


GAME = """\
game "Frames"
players 2
deck standard
zone hand: per player, private
var x = 0
var d = 1

round:
    add 1 to x
    repeat 2 times:
        for each p in players:
            p chooses a number n from 0 to 2:
                set d = 12 / n
    if x % 2 == 0:
        top of players chooses "go":
            pass
    if x == 4:
        end game
"""


def _game(tmp_path, passes=None):
    path = tmp_path / "frames.cards"
    path.write_text(textwrap.dedent(GAME), encoding="utf-8")
    return cardlang.load(str(path), players=2, passes=passes)


def test_an_error_inside_a_round_leaves_the_state_as_the_ops_leave_it(tmp_path):
    states = [_game(tmp_path).new_initial_state(seed=1), _game(tmp_path, "-frames").new_initial_state(seed=1)]
    assert states[0].frame is not None
    for a in (1, 2, 1):
        assert [_apply(st, a) for st in states] == [None, None]
    met = [_apply(st, 0) for st in states]
    assert met[0] == met[1] and met[0].endswith("frames.cards:13:25: rule error: division by zero (seed 1, move 4)")
    framed, plain = states
    assert framed.frame is None and _fields(framed) == _fields(plain)
    # the state is as usable as the ops leave it: read, saved, copied, refusing an action, alike
    for use in (lambda st: st.transcript(), lambda st: st.to_json()["actions"], lambda st: st.view(0).observation(),
                lambda st: _fields(st.clone(), steps=False), lambda st: st.apply(1), lambda st: st.clone().apply(1)):
        assert _outcome(use, framed) == _outcome(use, plain)


def _outcome(use, st):
    """What `use(st)` gives, or the kind and text of what it raises."""
    try:
        return use(st)
    except Exception as e:  # noqa: BLE001 (whatever the ops raise there, the frame's state raises)
        return type(e), str(e)


def test_a_round_without_a_decision_and_a_step_budget_spent_inside_a_frame(tmp_path, monkeypatch):
    for passes in (None, "-frames"):
        st = _game(tmp_path, passes).new_initial_state(seed=2)
        while not st.terminal:  # rounds 1 and 3 have no "go": the frame ends without stopping there
            st.apply(st.legal_action_ids()[-1])
        assert st.round == 4 and st.v[0] == 4
    states = [_game(tmp_path, p).new_initial_state(seed=2) for p in (None, "-frames")]
    monkeypatch.setattr(cardlang.runtime.engine, "STEP_BUDGET", 1)  # (read at each `apply`)
    met = [None, None]
    while met == [None, None]:  # (the second pass of `repeat` and its `for each` spend more than 1)
        met = [_apply(st, 1) for st in states]
    assert met[0] == met[1] and "without a decision" in met[0], met
    assert states[0].frame is None and _fields(states[0]) == _fields(states[1])


@pytest.mark.parametrize("path", ["games/ascenseur.cards", "tests/passes/frames.cards"])
def test_a_playout_from_a_state_in_its_frame_leaves_the_frame(path):
    players = _low(path)
    got = []
    for g in _pair(path, players):
        st = g.new_initial_state(seed=3, log=False)
        for a in range(5):
            st.apply(st.legal_action_ids()[a % len(st.legal_action_ids())])
        st = quiet(st)
        seat_playout(st, [random.Random(s) for s in range(players)])
        assert st.frame is None
        got.append(_fields(st))
    assert got[0] == got[1]
