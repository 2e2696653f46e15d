"""The leak test over information sets (issue 26): a seat is shown the same whatever the others chose
in secret and whatever the cards hidden from it.

For every file of the leak test (tests/test_leaks.py: games/, examples/ and the tests' rule files
with hidden zones in which someone decides), at random points of random courses, the *twins* of
seat k are other histories k cannot tell from the real one: a decision of another seat that k was
not shown (a pick made at once, a card chosen among cards the chooser knew that k does not see)
changed among the chooser's legal alternatives and the course played again (tests/infosets.py,
where "not shown" is read from the engine: the log as k reads it), then the cards hidden from k
dealt again (`SeatView.sample`). For k, both must give the same view, transcript, labels, play
screen, PettingZoo, Gymnasium and OpenSpiel observations and information states (strings and
tensors), the web table's messages (the seat's and a spectator's, byte for byte), determinized
worlds (every zone, variable and text), and decision of every bot of the registry (`bots.BOTS`,
seeded alike). tests/test_leaks.py keeps the twins that differ only in the deal.
"""

from __future__ import annotations

import glob
import os
import random

import pytest

import infosets
import test_leaks as leaks
from cardlang import openspiel
from cardlang.play.bots import BOTS, make_bot
from cardlang.runtime.basics import RuleError
from cardlang.runtime.log import fill_refs
from cardlang.load import check_file
from cardlang.runtime.view import ChoiceCount
from scenario import ROOT, game, path

def _more_files() -> list:
    """The tests' own rule files of issue 26 and of the engine that the leak test does not hold yet,
    those that check without errors, have hidden zones and someone decides in."""
    out = []
    for folder in ("engine", "knowledge"):
        for p in sorted(glob.glob(os.path.join(ROOT, "tests", folder, "*.cards"))):
            relative = os.path.relpath(p, ROOT)
            if relative in leaks.HIDDEN:
                continue
            try:
                symbols, diagnostics = check_file(p)
            except Exception:
                continue
            if symbols is None or any(d.is_error for d in diagnostics):
                continue
            if leaks._has_hidden_zones(relative) and leaks._decides(relative):
                out.append(relative)
    return out


FILES = leaks.HIDDEN + _more_files()
SEEDS = 2  # courses per file and player count (the slow sweep plays more)
STOPS = 2  # points of each course where twins are made
BUDGET = 8  # the bots' budget: every bot of the registry, as `name:8`


def _players(relative):
    return leaks._players(relative)


CASES = [(f, n) for f in FILES for n in _players(f)]
IDS = [f"{os.path.basename(f)}-{n}p" for f, n in CASES]

# (file, players) -> the finding of issue 26 a case of the larger sweep still shows, until it is fixed
SLOW_KNOWN: dict = {}  # (none now: counter_bluff 2p's pinned talon place and round-start place are fixed)


def world(state) -> tuple:
    """Everything a determinized world holds that a bot may read: zones, who knows what, variables
    (texts with the cards they name), the pending choice, where the program stands."""
    deck = state.game.deck
    values = tuple(fill_refs(deck, x) if isinstance(x, str) else x for x in state.v)
    return (state.zones, state.known, state.facts, values, state.pending, state.pc, state.stack, state.round,
            state.terminal, state.active)


def differences(relative: str, players: int, a, b, seat: int, bots: bool = True, spectator: bool = True) -> list:
    """What seat `seat` is shown differently in engine states `a` and `b` (names of the things)."""
    out = []
    va, vb = a.view(seat), b.view(seat)
    if va != vb:
        out.append("view")
    if a.transcript(seat) != b.transcript(seat):
        out.append("transcript")
    mine = a.current_player == seat
    labels = [x.label for x in a.legal_actions()] if mine else []
    twin_labels = [x.label for x in b.legal_actions()] if b.current_player == seat else []
    if labels != twin_labels:
        out.append("labels")
    if (leaks.screen(a.observation(seat), a.game, seat, labels)
            != leaks.screen(b.observation(seat), b.game, seat, twin_labels)):
        out.append("screen")
    if (leaks.screen(va.observation(), a.game, seat, labels)
            != leaks.screen(vb.observation(), b.game, seat, twin_labels)):
        out.append("screen of the view")
    if ChoiceCount(a, seat).legal_action_ids() != ChoiceCount(b, seat).legal_action_ids():
        out.append("legal count")
    shown_a, shown_b = leaks.adapters_show(relative, players, a, seat), leaks.adapters_show(relative, players, b, seat)
    assert len(shown_a) == len(leaks.ADAPTER_PARTS)
    for name, x, y in zip(leaks.ADAPTER_PARTS, shown_a, shown_b):
        if x != y:
            out.append(name)
    if leaks.web(a, seat) != leaks.web(b, seat):
        out.append("web message")
    # a spectator knows only what every seat knows: what k cannot tell apart, it cannot either (only
    # on real courses: a twin dealt again by `sample` keeps k's log alone, as k read it)
    if spectator and leaks.web(a, None) != leaks.web(b, None):
        out.append("web spectator message")
    for j in range(2):
        try:
            wa = world(va.determinize(random.Random(j)))
        except Exception as e:  # (a view that cannot be determinized: the same for its twin)
            wa = repr(e)
        try:
            wb = world(vb.determinize(random.Random(j)))
        except Exception as e:
            wb = repr(e)
        if wa != wb:
            out.append("determinized world")
            break
    if bots and mine:
        for name in sorted(BOTS):
            if make_bot(f"{name}:{BUDGET}", seed=5).choose(va) != make_bot(f"{name}:{BUDGET}", seed=5).choose(vb):
                out.append(f"bot {name}")
    return out


def openspiel_differences(a, b, seat: int) -> list:
    """What OpenSpiel shows seat `seat` differently in its states `a` and `b`."""
    out = []
    for name in ("information_state_string", "information_state_tensor", "observation_string",
                 "observation_tensor"):
        if getattr(a, name)(seat) != getattr(b, name)(seat):
            out.append(f"OpenSpiel {name}")
    return out


def _seats(players):
    def seats(st):
        return sorted({st.current_player, (st.current_player + 1) % players})
    return seats


def _length(game, seed: int) -> int:
    """The decisions of the random course of `seed` (played to its end)."""
    end, steps, _ = infosets.course(game, random.Random(seed), 10 ** 6)
    return sum(1 for s in steps if not s.chance)


def sweep(relative: str, players: int, seeds: int, stops: int, per_seat: int = 3) -> tuple:
    """(twins compared, twins whose hidden cards or secret choices differ, what differed where)."""
    g = openspiel.load_game(path(relative), players=players)
    compared = differ = 0
    found = []
    for seed in range(seeds):
        try:
            length = _length(g, seed)
        except RuleError:  # (a file of the engine's tests whose random course breaks a rule: no course)
            continue
        points = random.Random(-1 - seed).sample(range(1, length), min(stops, max(0, length - 1)))
        for stop in points:
            for end, seat, twin, i in infosets.twins(g, seed, stop, _seats(players), per_seat):
                a, b = end._core.twin().st, twin._core.twin().st
                compared += 1
                differ += a.zones != b.zones or a.v != b.v
                where = f"seed {seed}, stop {stop}, P{seat}, step {i}"
                diff = differences(relative, players, a, b, seat) + openspiel_differences(end, twin, seat)
                if diff:
                    found.append(f"{where}: {', '.join(diff)}")
                # and the cards hidden from the seat dealt again in the twin, to fit what it saw
                dealt, fits = b.view(seat).sample(random.Random(seed * 7 + seat), history=True)
                if fits:
                    compared += 1
                    diff = differences(relative, players, a, dealt, seat, bots=False, spectator=False)
                    if diff:
                        found.append(f"{where}, dealt again: {', '.join(diff)}")
    return compared, differ, found


def _case(relative, players, known):
    finding = known.get((relative.replace(os.sep, "/"), players))
    if finding is None:
        return pytest.param(relative, players)
    return pytest.param(relative, players, marks=pytest.mark.xfail(strict=True, reason=finding))


@pytest.mark.parametrize("relative,players", CASES, ids=IDS)
def test_a_seat_is_shown_the_same_in_every_history_it_cannot_tell_apart(relative, players):
    compared, differ, found = sweep(relative, players, SEEDS, STOPS)
    assert not found, f"{relative} ({players} players): {len(found)} of {compared} twins differ for the seat:\n" \
        + "\n".join(found[:12])


@pytest.mark.slow
@pytest.mark.parametrize("relative,players", [_case(f, n, SLOW_KNOWN) for f, n in CASES], ids=IDS)
def test_the_larger_sweep_over_information_sets(relative, players):
    compared, differ, found = sweep(relative, players, 8, 4, per_seat=6)
    assert not found, f"{relative} ({players} players): {len(found)} of {compared} twins differ:\n" \
        + "\n".join(found[:12])


# files whose random courses hold decisions other seats are not shown: the sweep must make twins of
# them that really differ (a check that the test is not blind, not the test's own list: which
# decisions are secret is read from the log, tests/infosets.py)
SECRET_CHOICES = {"games/counter_bluff.cards", "games/coucou.cards", "examples/counting_show.cards",
                  "examples/goofspiel.cards", "examples/open_pass.cards", "tests/engine/sealed_numbers.cards"}


@pytest.mark.parametrize("relative", sorted(SECRET_CHOICES))
def test_the_sweep_makes_twins_that_differ_in_files_with_secret_choices(relative):
    players = _players(relative)[-1]
    compared, differ, found = sweep(relative, players, SEEDS, STOPS)
    assert compared >= 4 and differ >= 2, (compared, differ)


def test_the_sweep_catches_a_view_that_keeps_a_secret_pick_played_out(monkeypatch):
    """Without dropping what the variables keep of picks made at once once played out (the picks,
    the last one, an unshown number), the secret number of tests/engine/sealed_numbers.cards tells
    in the view: the sweep sees it."""
    from cardlang.runtime import view

    monkeypatch.setattr(view, "_forget_picks_played", lambda s: None)
    _, _, found = sweep("tests/engine/sealed_numbers.cards", 3, SEEDS, STOPS)
    assert any("view" in f for f in found), found


def test_the_sweep_catches_an_openspiel_history_that_shows_every_card_chosen(leaky_history):
    _, _, found = sweep("games/counter_bluff.cards", 2, SEEDS, STOPS)
    assert any("OpenSpiel information_state_tensor" in f for f in found), found


COUNTING = "examples/counting_show.cards"


def test_a_card_put_away_unseen_leaves_no_place_in_the_others_view():
    """Counting Show: each player puts one card of his hand face down in the crib. Which place of his
    hand it came from is nothing the others saw; the view's past held it (by place: issue 26, found
    by the sweep), and ismcts decided on it. Two courses that differ only in that card now give the
    next player equal views and equal decisions of every bot."""
    g = game(COUNTING, 3)
    checked = 0
    for seed in range(10):
        state = g.new_initial_state(seed=seed)
        first = state.current_player
        legal = state.legal_action_ids()
        a, b = state.clone(), state.clone()
        a.apply(legal[0])
        b.apply(legal[-1])
        seat = a.current_player
        assert seat != first and a.zones != b.zones
        assert a.view(seat) == b.view(seat)
        for name in sorted(BOTS):
            assert make_bot(f"{name}:16", seed=seed).choose(a.view(seat)) == \
                make_bot(f"{name}:16", seed=seed).choose(b.view(seat)), name
        checked += 1
    assert checked == 10


def _twin_of(relative: str, players: int, seed: int, stop: int, seat: int, step: int) -> tuple:
    """The engine states of the course `seed` stopped at `stop` and of its twin for `seat` in which
    decision `step` was changed (as the sweep makes them)."""
    g = openspiel.load_game(path(relative), players=players)
    for end, k, twin, i in infosets.twins(g, seed, stop, _seats(players), 6):
        if k == seat and i == step:
            return end._core.twin().st, twin._core.twin().st
    raise AssertionError("the twin is no longer made")


def test_a_card_seen_arriving_from_a_hand_leaves_its_places_there_blurred():
    """Blind Take, 3 players (issue 26 finding 1, by the sweep: seed 5, stop 8): P0 gives P2 face
    down either the 4♠ he took from P1 or another card; P2 then takes one of P0's cards and gives
    P1 the 9♠. P1 sees the 9♠ arrive, not which place of P2's hand it left: what P1 tracks of the
    places left there ("one of these", runtime/among.py) must not depend on which it was."""
    relative = "tests/check/leaky/hidden_take.cards"
    a, b = _twin_of(relative, 3, 5, 8, 1, 16)
    assert a.zones != b.zones and a.among != b.among
    assert a.view(1) == b.view(1)
    assert differences(relative, 3, a, b, 1) == []


def test_the_sweep_catches_a_render_that_shows_the_real_table(monkeypatch):
    """The renders are compared (issue 31 item 6): a Gymnasium render that printed the real zones,
    other seats' hidden cards in them, is caught in both modes on Counter-Bluff."""
    from cardlang import gymnasium

    real = gymnasium.CardsEnv.render

    def leaky(self):
        text = f"{real(self) or ''}{self._state.zones}\n"
        if self.render_mode == "human":
            print(text, end="")
            return None
        return text

    monkeypatch.setattr(gymnasium.CardsEnv, "render", leaky)
    _, _, found = sweep("games/counter_bluff.cards", 2, SEEDS, STOPS)
    assert any("Gymnasium render ansi" in f and "Gymnasium render human" in f for f in found), found
