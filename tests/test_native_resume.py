"""Native rollouts from a decision (issue 29, `native/resume.py`): a compiled-engine state converted
into native arrays plays on exactly as the compiled engine plays it on.

From many mid-game states of several games (the real state at a decision, and worlds determinized
from a seat's view, what the search bots roll out from), the same continuation - seat s's random
bot seeded alike, `seat_playout`'s draws - is played natively and compiled, to the end and up to
the next round (a bot's horizon), and the outcomes compared: status, round, decisions, winners,
returns, scores and what a bot judges a playout by (`bots._progress`). States converted to arrays
and back keep every field. A first run compiles each game's rollout module (tens of seconds a
game; kept in `$CARDLANG_CACHE`); ascenseur, a poker game and two games with phases called from
several places run by default, every other file with `-m slow`.
"""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numba")

import cardlang  # noqa: E402
from cardlang.native.resume import (STOPPED, CannotResume, Positions, convert, restore,  # noqa: E402
                                    rollouts_for)
from cardlang.native.stmt import END_GAME  # noqa: E402
from cardlang.play.bots import GreedyBot, ISMCTSBot, _progress, decide  # noqa: E402
from cardlang.play import native_rollouts  # noqa: E402
from cardlang.runtime.playout import quiet, seat_playout  # noqa: E402

from test_native import SUPPORTED  # noqa: E402

FAST = {"games/ascenseur.cards": 4, "examples/kuhn_poker.cards": 2, "games/counter_bluff.cards": 2,
        "examples/spades.cards": 4}
SLOW = {f: n for f, n in SUPPORTED.items() if f not in FAST}
_GAMES: dict = {}


def native_game(path: str, players: int):
    """A game loaded with the native engine, once a session."""
    key = (path, players)
    if key not in _GAMES:
        _GAMES[key] = cardlang.load(path, players, engine="native")
    return _GAMES[key]


def midgame_states(game, seeds, per_game: int = 4):
    """(state, how it was made) at random decisions of random games: the state itself (quiet) and a
    world determinized from the deciding seat's view."""
    for seed in seeds:
        st = game.new_initial_state(seed=seed, log=False)
        r = random.Random(seed)
        taken = 0
        while not st.terminal and taken < per_game:
            if r.random() < 0.3:
                taken += 1
                yield quiet(st.clone()), "state"
                yield quiet(st.view(st.current_player).determinize(random.Random(seed * 31 + taken))), "world"
            legal = st.legal_action_ids()
            st.apply(legal[r.randrange(len(legal))])


def outcome_compiled(st, seeds, stop):
    a = st.clone()
    decisions = seat_playout(a, [random.Random(x) for x in seeds], stop)
    ended = a.terminal
    return (END_GAME if ended else STOPPED, a.round, decisions, tuple(a.winners()),
            a.returns() if ended else None, a.scores() if ended else None, [float(x) for x in _progress(a)])


def outcome_native(native, world, st, row, stop):
    ended = int(row["status"]) == END_GAME
    return (int(row["status"]), int(row["round"]), int(row["decisions"]) - len(st.history), row["winners"],
            row["returns"].tolist() if ended else None, row["scores"].tolist() if ended else None,
            row["progress"].tolist())


def check_game(path: str, players: int, seeds) -> int:
    game = native_game(path, players)
    native = rollouts_for(game)
    compared = 0
    for st, how in midgame_states(game, seeds):
        world = convert(native, st)
        for stop in (None, st.round + 1):
            seeds_rows = [[1000 * k + 17 * s + st.round for s in range(players)] for k in range(3)]
            chances = [st.rng] + [random.Random(k).getrandbits(64) for k in (1, 2)]
            out = native.rollouts(world, [_signed(c) for c in chances], seeds_rows, mode=0, stop=stop)
            for k in range(3):  # (one call, three rollouts: each starts from the world as converted)
                b = st.clone()
                b.rng = chances[k]
                want = outcome_compiled(b, seeds_rows[k], stop)
                row = {key: (value[k] if key != "winners" else tuple(value[k])) for key, value in out.items()}
                got = outcome_native(native, world, st, row, stop)
                assert got == want, (path, how, st.round, stop, k)
                compared += 1
    return compared


def _signed(x: int) -> int:
    x &= (1 << 64) - 1
    return x - (1 << 64) if x >= 1 << 63 else x


@pytest.mark.parametrize("path", sorted(FAST))
def test_a_converted_state_plays_on_natively_as_the_compiled_engine_plays_it_on(path):
    assert check_game(path, FAST[path], range(6)) >= 30


@pytest.mark.slow
@pytest.mark.parametrize("path", sorted(SLOW))
def test_every_file_plays_on_natively_from_mid_game_as_compiled(path):
    compared = check_game(path, SLOW[path], range(4))
    game = native_game(path, SLOW[path])
    for st, _ in midgame_states(game, range(2)):  # (and its states converted and back keep every field)
        assert_converted_and_back_keeps_every_field(rollouts_for(game), st)
    # (a game of no choice, as war, has no mid-game state to play on from: nothing to compare)
    assert compared > 0 or not native_game(path, SLOW[path]).program.lowered.ir.choices


@pytest.mark.parametrize("path", sorted(FAST))
def test_a_state_converted_to_arrays_and_back_keeps_every_field(path):
    game = native_game(path, FAST[path])
    native = rollouts_for(game)
    for st, _ in midgame_states(game, range(4)):
        assert_converted_and_back_keeps_every_field(native, st)


def assert_converted_and_back_keeps_every_field(native, st) -> None:
    back = st.clone()
    back.zones, back.loc, back.known, back.active, back.v = [], [], [], [], []
    back.round, back.rng = -1, 0
    restore(native, convert(native, st), back)
    for field in ("zones", "loc", "known", "active", "v", "round", "rng"):
        assert getattr(back, field) == getattr(st, field), field
    assert [type(x) for x in back.v] == [type(x) for x in st.v]


def test_a_list_holding_none_is_kept_natively_and_given_back():
    # two_hands: a per-player list of suits that starts as [none, none, none] and fills trick by trick
    game = native_game("examples/two_hands.cards", 2)
    native = rollouts_for(game)
    seen = set()
    for st, _ in midgame_states(game, range(4)):
        lists = [x for x in st.v if type(x) is tuple and None in x]
        seen.update("all none" if all(y is None for y in x) else "some none" for x in lists)
        assert_converted_and_back_keeps_every_field(native, st)
    assert seen == {"all none", "some none"}


def test_the_frames_of_a_phase_played_from_several_places_follow_the_return_stack():
    game = native_game("games/counter_bluff.cards", 2)
    native = rollouts_for(game)
    positions = Positions(game.program.ir)
    seen_stack = False
    for st, _ in midgame_states(game, range(10)):
        frames = native.frames_of(st).tolist()
        assert frames[0] == st._pending[0]
        owners = [positions.calls[f - native.nchoices][0] for f in frames[1:]]
        assert all(not isinstance(o, str) for o in owners[:-1]) and (not owners or isinstance(owners[-1], str))
        seen_stack = seen_stack or bool(st.stack)
    assert seen_stack


def test_a_state_the_native_engine_cannot_start_from_is_refused_in_one_line():
    game = native_game("games/ascenseur.cards", 4)
    native = rollouts_for(game)
    st = game.new_initial_state(seed=1, stack=["As"], log=False)
    with pytest.raises(CannotResume, match="stacked deck"):
        convert(native, st)
    st = game.new_initial_state(seed=1, log=False)
    st.rng = object()
    with pytest.raises(CannotResume, match="chance source"):
        convert(native, st)


@pytest.mark.parametrize("bot", [ISMCTSBot, GreedyBot])
def test_search_bots_roll_out_natively_when_the_game_is_native(bot):
    game = native_game("games/ascenseur.cards", 4)
    st = game.new_initial_state(seed=3)
    while len(st.legal_action_ids()) < 2:
        st.apply(st.legal_action_ids()[0])
    native_bot = bot(seed=1, budget=20, rollouts="native")
    assert decide(native_bot, st) in st.legal_action_ids()
    assert native_bot.rollouts.native_count >= 20 * native_bot.leaf and native_bot.rollouts.python_count == 0
    python_bot = bot(seed=1, budget=20, rollouts="python")
    assert decide(python_bot, st) in st.legal_action_ids()
    assert python_bot.rollouts.native_count == 0 and python_bot.rollouts.python_count == 20


def test_a_bot_without_native_rollouts_says_why_once_and_rolls_out_compiled(capsys):
    game = cardlang.load("games/ascenseur.cards", 4)  # (the compiled engine: no native program)
    st = game.new_initial_state(seed=3)
    while len(st.legal_action_ids()) < 2:
        st.apply(st.legal_action_ids()[0])
    native_rollouts._SAID.clear()
    for seed in (1, 2):
        b = ISMCTSBot(seed=seed, budget=10, rollouts="native")
        decide(b, st)
        assert b.rollouts.python_count == 10 and b.rollouts.native_count == 0
        assert "not loaded with the native engine" in b.rollouts.note
    lines = capsys.readouterr().err.splitlines()
    assert len([x for x in lines if x.startswith("native rollouts:")]) == 1
    auto = ISMCTSBot(seed=1, budget=10)  # (auto: compiled rollouts on a compiled game, nothing said)
    decide(auto, st)
    assert auto.rollouts.note is None and auto.rollouts.python_count == 10


def test_the_batch_api_takes_seat_generators_shared_or_scripted():
    from cardlang.native.game import _compiled_game, playouts

    game = native_game("games/ascenseur.cards", 4)
    scripted = playouts(game, 4, seed=5, bots=lambda i: [i * 10 + s for s in range(4)])
    shared = playouts(game, 4, seed=5, bots="shared")
    assert not scripted["fallback"] and not shared["fallback"]
    for i in range(4):
        want = _compiled_game(game, 5 + i, [i * 10 + s for s in range(4)])
        assert scripted["returns"][i].tolist() == want["returns"] and scripted["decisions"][i] == want["decisions"]
        want = _compiled_game(game, 5 + i, [(5 + i) * 1009 + s for s in range(4)], shared=True)
        assert shared["returns"][i].tolist() == want["returns"] and shared["decisions"][i] == want["decisions"]
    with pytest.raises(ValueError, match="seat seeds"):
        playouts(game, 1, bots=lambda i: [1, 2])


def test_the_batch_api_plays_on_from_a_state_as_the_compiled_engine():
    from cardlang.native.game import playouts

    game = native_game("games/ascenseur.cards", 4)
    st, _ = next(midgame_states(game, [3]))
    for stop in (None, st.round + 1):
        out = playouts(game, 5, seed=9, bots=lambda i: [i + 100 * s for s in range(4)], state=st, stop_round=stop)
        assert out["fallback"] == []
        for i in range(5):
            a = st.clone()
            a.rng = random.Random(9 + i).getrandbits(64)
            decisions = seat_playout(a, [random.Random(i + 100 * s) for s in range(4)], stop)
            assert out["decisions"][i] == decisions and out["rounds"][i] == a.round
            assert bool(out["ended"][i]) == a.terminal
            assert out["progress"][i].tolist() == [float(x) for x in _progress(a)]
            if a.terminal:
                assert out["returns"][i].tolist() == a.returns()


def test_the_batch_api_plays_a_state_it_cannot_convert_on_the_compiled_engine_and_says_why():
    from cardlang.native.game import playouts

    game = native_game("games/ascenseur.cards", 4)
    st = game.new_initial_state(seed=1, stack=["As"], log=False)
    out = playouts(game, 2, seed=0, state=st)
    assert out["fallback"] == [0, 1] and "stacked deck" in out["note"]
    assert all(out["ended"]) and all(d > 0 for d in out["decisions"])


def test_rollouts_of_one_shared_generator_draw_as_random_playout_does():
    from cardlang.runtime.playout import random_playout

    game = native_game("games/ascenseur.cards", 4)
    native = rollouts_for(game)
    compared = 0
    for st, how in midgame_states(game, range(3)):
        world = convert(native, st)
        chances = [random.Random(k).getrandbits(64) for k in range(4)]
        for mode in (1, 2):  # mode 1: each rollout's generator seeded from its row; 2: one, drawn on
            out = native.rollouts(world, [_signed(c) for c in chances], [[77 + (k if mode == 1 else 0)] for k in range(4)],
                                  mode=mode, stop=st.round + 1)
            shared = random.Random(77)
            for k in range(4):
                b = st.clone()
                b.rng = chances[k]
                r = shared if mode == 2 else random.Random(77 + k)
                decisions = random_playout(b, r, st.round + 1)
                assert int(out["decisions"][k]) - len(st.history) == decisions, (how, mode, k)
                assert out["progress"][k].tolist() == [float(x) for x in _progress(b)]
                compared += 1
    assert compared >= 24
