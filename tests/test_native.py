"""The native engine (issue 29) against the compiled and reference engines, file by file.

Every file of games/ and examples/ is either run natively, giving the same winners, scores,
returns, decision and round counts and first seat as the compiled AND the reference engines for
several seeds (random bots, as `cardlang simulate` seeds them), or listed in `UNSUPPORTED` with the
construct and rule line its one-line fallback names, and why. That list may only shrink (it is empty:
what a refusal says is tested on a rule written here, `REFUSED_RULES`).

A first run compiles each game with numba (seconds to tens of seconds a game); the machine code
is kept in the native cache (`$CARDLANG_CACHE`, else the user's cache: docs/engine.md), so later
runs start in about a second. Ascenseur and two small games are in the default run; the rest is
`-m slow`.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

pytest.importorskip("numba")

import cardlang  # noqa: E402
from cardlang.native.cache import cache_dir, cache_key  # noqa: E402
from cardlang.native.game import fallback_line, native_program, playouts  # noqa: E402
from cardlang.native.kinds import NativeUnsupported  # noqa: E402
from cardlang.native.options import ALL_OFF, Optimisations  # noqa: E402
from cardlang.runtime.playout import quiet, seat_playout  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SEEDS = (0, 1, 2, 7)

# file -> players, for the files the native engine runs (the smallest count; 4 for ascenseur)
FAST = {"games/ascenseur.cards": 4, "examples/fewest_hearts.cards": 2, "examples/turnabout.cards": 3}
SUPPORTED = {
    **FAST,
    "examples/ascenseur_blind.cards": 4,
    "examples/ascenseur_blind_constrained.cards": 4,
    "examples/ascenseur_constrained.cards": 4,
    "examples/attack_defence.cards": 2,
    "examples/climb_together.cards": 2,
    "examples/climbing.cards": 2,
    "examples/combinations_climb.cards": 3,
    "examples/coin_flip.cards": 2,
    "examples/counting_show.cards": 2,
    "examples/colour_match.cards": 2,
    "examples/contract_auction.cards": 4,
    "examples/contract_bids.cards": 4,
    "examples/euchre.cards": 4,
    "examples/follow_suit.cards": 3,
    "examples/goofspiel.cards": 2,
    "examples/hints.cards": 2,
    "examples/high_card_chips.cards": 2,
    "examples/knock_rummy.cards": 2,
    "examples/kuhn_poker.cards": 2,
    "examples/last_card.cards": 2,
    "examples/last_one_standing.cards": 3,
    "examples/leduc_poker.cards": 2,
    "examples/open_pass.cards": 2,
    "examples/play_if_you_can.cards": 2,
    "examples/rigged.cards": 2,
    "examples/spades.cards": 4,
    "examples/war.cards": 2,
    "examples/two_hands.cards": 2,
    "games/coucou.cards": 5,
    "games/counter_bluff.cards": 2,
    "games/pioche_poker.cards": 2,
    "games/red_dog.cards": 2,
    "examples/holdem.cards": 2,
    "examples/limit_holdem.cards": 2,
    "examples/columns.cards": 2,
    "examples/klondike.cards": 1,
}
# more player counts and seeds for the files whose constructs are the native engine's newest: betting
# rounds, all-ins and side pots (`native/pots.py`), who knows each card (`is face up`: `KN`)
MORE = {
    ("examples/holdem.cards", 3): range(12),
    ("examples/holdem.cards", 6): range(12),
    ("examples/limit_holdem.cards", 4): range(12),
    ("examples/columns.cards", 4): range(12),
    ("examples/klondike.cards", 1): range(8, 20),
}

# file -> (players, the construct and rule line of its fallback line, why it is not run natively yet)
UNSUPPORTED: dict = {}

# a rule the native engine refuses (its meld kernels hold four-suit decks only): what a refusal says
REFUSED_RULES = """game "Two suits"
players 2
deck ranks A 2 3 4 5 6 7 8 suits hearts spades
order run: A 2 3 4 5 6 7 8
values pips: A=1 2=2 3=3 4=4 5=5 6=6 7=7 8=8
melds: sets 3, runs 3 in run, ace low, deadwood pips
zone stock: pile, hidden
zone hand: per player, private
score of p: 0 - deadwood(hand(p))
round:
    move all cards to stock
    shuffle stock
    deal 5 from stock to hand(players)
    end game
"""
REFUSED_NOTE = ("native engine: melds (`deadwood`: native deadwood: only a deck of four suits, no jokers, sets of "
                "at most 4 cards and at most 16 ranks (the runtime's four-suit tables)) at rules line 9 is not "
                "supported yet; running on the compiled engine")


def _files():
    return sorted(str(p.relative_to(ROOT)) for d in ("games", "examples") for p in (ROOT / d).glob("*.cards"))


def test_every_file_is_run_natively_or_listed_as_unsupported():
    assert sorted(set(SUPPORTED) | set(UNSUPPORTED)) == _files()
    assert not set(SUPPORTED) & set(UNSUPPORTED)


def _random_game(game, seed: int) -> dict:
    """One game on a Python engine, each seat drawing as `simulate`'s random bot does."""
    st = quiet(game.new_initial_state(seed=seed, log=False))
    first = st.current_player
    bots = [random.Random(seed * 1009 + s) for s in range(game.players)]
    decisions = seat_playout(st, bots)
    return {"winners": list(st.winners()), "scores": st.scores(), "returns": st.returns(),
            "decisions": decisions, "rounds": st.round, "first": first if first >= 0 else 0}


def _same_games(path: str, players: int, seeds=SEEDS, options=None,
                optimisations: Optimisations = Optimisations()) -> None:
    compiled = cardlang.load(str(ROOT / path), players=players, options=options)
    reference = cardlang.load(str(ROOT / path), players=players, engine="reference", options=options)
    native = native_program(compiled.program.lowered, optimisations)
    for seed in seeds:
        bots = [seed * 1009 + s for s in range(players)]
        got = native.game(seed, bots)
        assert got is not None, f"{path} seed {seed}: the native run stopped (line {native.last_line()})"
        assert got == _random_game(compiled, seed) == _random_game(reference, seed), (path, seed)


@pytest.mark.parametrize("path", sorted(FAST))
def test_native_games_are_the_compiled_and_reference_games(path):
    _same_games(path, FAST[path])


# every switchable optimisation off alone, and all off (each is exact: the same games as all on)
SWITCHED = list(dict.fromkeys([*Optimisations.each_off(), ALL_OFF]))


@pytest.mark.parametrize("optimisations", SWITCHED, ids=lambda o: "off-" + "-".join(o.names_off()))
@pytest.mark.parametrize("path", sorted(FAST))
def test_native_games_with_optimisations_switched_off(path, optimisations):
    _same_games(path, FAST[path], optimisations=optimisations)


@pytest.mark.slow
@pytest.mark.parametrize("path", sorted(set(SUPPORTED) - set(FAST)))
def test_native_games_are_the_compiled_and_reference_games_slow(path):
    _same_games(path, SUPPORTED[path])


@pytest.mark.slow
@pytest.mark.parametrize("path, players", sorted(MORE))
def test_native_betting_and_face_up_games_for_more_seats_and_seeds(path, players):
    _same_games(path, players, MORE[path, players])


@pytest.mark.slow
@pytest.mark.parametrize("path, players, options", [
    ("tests/check/valid/limit_pots.cards", 2, None),  # antes (`put`), `pay … to lowest`, the pot's values
    ("tests/check/valid/limit_pots.cards", 3, None),
    ("tests/check/valid/limit_pots.cards", 2, {"ante": 5}),  # an ante past a stack: all in, no betting
    ("examples/holdem.cards", 4, {"deals": 20}),  # hands after hands: busted players out, the deal moving
])
def test_native_pots_the_game_files_do_not_use(path, players, options):
    _same_games(path, players, range(10), options)


FACE_DOWN = """game "Face down"
players 2
deck standard
zone stock: pile, hidden
zone hand: per player, private
zone discard: pile, public
var up = 0
round:
    move all cards to stock
    shuffle stock
    deal 3 from stock to hand(players)
{reveal}
    for each p in players:
        p chooses:
            a card c from hand(p):
                move c to discard face down
        for each c in all cards where c is face up:
            add 1 to up
    end game winner top of players if up % 2 == 0 else next of top of players
"""


@pytest.mark.parametrize("reveal", ["", "    reveal top of hand(top of players)"])
def test_a_card_leaving_a_hand_unseen_stops_the_native_run(tmp_path, reveal):
    """The native state keeps who knows each card (`KN`), not `state.among`: where a seat would see
    a card leave a hand it knows a card of without seeing which (`among.before`), the run stops
    at that move and the game is played compiled (`native/knowledge.py`); else it runs natively."""
    from cardlang.play.simulate import simulate

    rules = tmp_path / "face_down.cards"
    rules.write_text(FACE_DOWN.format(reveal=reveal), encoding="utf-8")
    game = cardlang.load(str(rules), players=2, engine="native")
    assert game.native is not None, game.native_note
    outcomes = [game.native.game(seed, [seed * 1009, seed * 1009 + 1]) for seed in range(6)]
    if reveal:  # (P1 knows a card of P0's hand, and sees one of them go face down)
        assert outcomes == [None] * 6 and game.native.last_line() == 16
    else:
        assert outcomes == [_random_game(game, seed) for seed in range(6)]
    native = simulate(game, 6, seed=0, jobs=1)
    compiled = simulate(cardlang.load(str(rules), players=2), 6, seed=0, jobs=1, coverage=False)
    for key in ("seats", "decisions", "rounds"):
        assert native[key] == compiled[key], key


def test_a_refused_rule_says_its_construct_and_line_and_runs_compiled(tmp_path):
    rules = tmp_path / "two_suits.cards"
    rules.write_text(REFUSED_RULES, encoding="utf-8")
    game = cardlang.load(str(rules), players=2, engine="native")
    assert game.native is None and game.native_note == REFUSED_NOTE
    st = game.new_initial_state(seed=0, log=False)  # (the compiled engine plays it)
    assert st.is_terminal() and len(st.scores()) == 2


def test_fallback_line_names_the_construct_and_line():
    assert fallback_line(NativeUnsupported("pots and betting", 12)) == (
        "native engine: pots and betting at rules line 12 is not supported yet; running on the compiled engine")


def test_a_rule_error_in_a_native_run_is_played_again_on_the_compiled_engine(tmp_path):
    """A run that meets a rule error stops (None); `simulate` then plays that game compiled and
    reports the error as the compiled engine does."""
    from cardlang.play.simulate import simulate
    from cardlang.runtime.engine import RuleError

    rules = tmp_path / "breaks.cards"
    rules.write_text('game "Breaks"\nplayers 2\ndeck standard\nzone stock: pile, hidden\nvar x = 0\n'
                     "setup:\n    shuffle stock\nround:\n    for each p in players:\n        p chooses:\n"
                     "            \"zero\":\n                set x = 0\n            \"one\":\n                set x = 1\n"
                     "    set x = 10 / x\n    end game\n",
                     encoding="utf-8")
    game = cardlang.load(str(rules), players=2, engine="native")
    assert game.native is not None, game.native_note
    outcomes = [game.native.game(seed, [seed * 1009, seed * 1009 + 1]) for seed in range(8)]
    assert None in outcomes and any(o is not None for o in outcomes)  # (some seeds pick "zero")
    broken = outcomes.index(None)
    with pytest.raises(RuleError) as native_error:
        simulate(game, 1, seed=broken, jobs=1)
    with pytest.raises(RuleError) as compiled_error:
        simulate(cardlang.load(str(rules), players=2), 1, seed=broken, jobs=1)
    assert str(native_error.value) == str(compiled_error.value)


def test_simulate_native_gives_the_compiled_statistics():
    from cardlang.play.simulate import simulate

    path = str(ROOT / "examples/fewest_hearts.cards")
    native = simulate(cardlang.load(path, players=2, engine="native"), 40, seed=3, jobs=1)
    compiled = simulate(cardlang.load(path, players=2), 40, seed=3, jobs=1, coverage=False)
    for key in ("seats", "positions", "ties", "decisions", "rounds", "decisions_histogram"):
        assert native[key] == compiled[key], key


def test_simulate_cli_engine_native(tmp_path):
    from click.testing import CliRunner

    from cardlang.cli import main

    runner = CliRunner()
    path = str(ROOT / "examples/fewest_hearts.cards")
    out = runner.invoke(main, ["simulate", path, "-n", "20", "--engine", "native", "--json", "--verbose",
                               "--jobs", "1"])
    assert out.exit_code == 0, out.output
    lines = out.stderr.splitlines() if hasattr(out, "stderr") else []
    assert any(line.startswith("native engine: ") and " s (code generated in " in line for line in lines)
    stats = json.loads(out.stdout.splitlines()[-1])
    compiled = json.loads(runner.invoke(main, ["simulate", path, "-n", "20", "--json", "--jobs", "1"]).stdout
                          .splitlines()[-1])
    assert stats["seats"] == compiled["seats"] and stats["decisions"] == compiled["decisions"]
    rules = tmp_path / "two_suits.cards"
    rules.write_text(REFUSED_RULES, encoding="utf-8")
    refused = runner.invoke(main, ["simulate", str(rules), "-n", "2", "--engine", "native", "--jobs", "1"])
    assert refused.exit_code == 0
    notes = [line for line in refused.stderr.splitlines() if line.startswith("native engine:")]
    assert notes == [REFUSED_NOTE]


def test_playouts_returns_arrays_of_the_simulated_games():
    game = cardlang.load(str(ROOT / "examples/turnabout.cards"), players=3, engine="native")
    out = playouts(game, 5, seed=11)
    assert out["returns"].shape == (5, 3) and out["fallback"] == []
    for i in range(5):
        expected = _random_game(game, 11 + i)
        assert list(out["returns"][i]) == expected["returns"]
        assert out["decisions"][i] == expected["decisions"]


def test_cache_is_keyed_and_placed_under_cardlang_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("CARDLANG_CACHE", str(tmp_path))
    assert cache_dir() == tmp_path / "native"
    assert cache_key("a") != cache_key("b") and cache_key("a") == cache_key("a")


@pytest.mark.parametrize("kernel", ["climbing.py", "knowledge.py", "melds.py", "poker.py", "pots.py", "rng.py",
                                    "steps.py"])
def test_the_cache_key_follows_the_kernels_a_module_calls(monkeypatch, kernel):
    """numba's cache does not notice a changed callee in another module: the key reads its source."""
    from pathlib import Path as _Path

    import cardlang.native.cache as cache

    real = _Path.read_bytes
    before = cache_key("a")
    monkeypatch.setattr(_Path, "read_bytes",
                        lambda self: real(self) + (b"# changed" if self.name == kernel else b""))
    assert cache.cache_key("a") != before


def test_kernel_tables_are_arguments_not_source(monkeypatch, tmp_path):
    """The poker ranking and meld tables are built once at load and handed to `play`, never written
    into the generated module (its module-level tables hold none of them)."""
    import numpy as np

    from cardlang.native import melds, poker
    from cardlang.native.cache import load_module
    from cardlang.native.emit import native_module

    monkeypatch.setenv("CARDLANG_CACHE", str(tmp_path))
    for path, want in (("examples/knock_rummy.cards", lambda layout: melds.deadwood_table(layout.melds)),
                       ("games/pioche_poker.cards",
                        lambda layout: poker.ranking_table(*next(iter(layout.rankings.values()))))):
        lowered = cardlang.load(str(ROOT / path), players=2).program.lowered
        source, tables = native_module(lowered)
        table = want(lowered.layout)
        assert any(t.shape == table.shape and (t == table).all() for t in tables), path
        module = load_module(source)  # (imported, not compiled: nothing is called)
        arrays = [v for v in vars(module).values() if isinstance(v, np.ndarray)]
        assert not any(a.shape == table.shape and (a == table).all() for a in arrays), path


@pytest.mark.slow
def test_a_fresh_cache_is_written_inside_its_directory_only(monkeypatch, tmp_path):
    import cardlang.native.cache as cache

    monkeypatch.setenv("CARDLANG_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(cache, "_MODULES", {})  # (a module this process loaded before is not read again)
    game = cardlang.load(str(ROOT / "examples/fewest_hearts.cards"), players=2, engine="native")
    assert game.native is not None and not game.native.cached
    written = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert written and all(str(p).startswith(str(tmp_path / "cache" / "native")) for p in written)
    assert any(p.suffix == ".nbi" for p in written)  # (numba's index of the machine code, next to the module)


@pytest.mark.parametrize("seed", [0, 1, 5, 2**32 - 1, 2**32, 2**40 + 7, 2**63 - 1, -1, -2**63])
def test_the_chance_draws_what_the_runtime_draws(seed):
    """`rng.chance_shuffle` and `chance_below` (SplitMix64 in uint64) are `runtime.rng.shuffle` and
    `randbelow` for every 64-bit chance (an int64's bits)."""
    import numpy as np

    from cardlang.native.rng import chance_below, chance_shuffle
    from cardlang.runtime import rng

    pile, native_pile = list(range(52)), np.arange(52, dtype=np.int64)
    after = rng.shuffle(pile, seed % 2**64)
    assert chance_shuffle(native_pile, seed) % 2**64 == after and native_pile.tolist() == pile
    value, after = rng.randbelow(37, seed % 2**64)
    got, got_after = chance_below(37, seed)
    assert (got, got_after % 2**64) == (value, after)


def test_mode_1_draws_as_random_playout():
    """Mode 1: one generator's `random()` for every seat, as `runtime.playout.random_playout`
    (the search bots' rollouts) draws: the same games as the compiled engine's."""
    from cardlang.runtime.playout import random_playout

    path = str(ROOT / "examples/fewest_hearts.cards")
    game = cardlang.load(path, players=2, engine="native")
    for seed in (0, 3):
        st = quiet(game.new_initial_state(seed=seed, log=False))
        decisions = random_playout(st, random.Random(seed + 100))
        got = game.native.game(seed, [seed + 100, 0], mode=1)
        assert got["decisions"] == decisions and got["returns"] == st.returns()
        assert got["winners"] == list(st.winners()) and got["rounds"] == st.round


def test_colours_are_the_compiled_and_reference_colours():
    """`colour(x)` of a card, a suit, none and a suitless wild card (tests/engine/colours.cards, which
    the games/ and examples/ above do not cover): the native text numbers of `red`/`black` and none."""
    _same_games("tests/engine/colours.cards", 2)


@pytest.mark.parametrize("low, high", [(1, 4), (2, 3), (1, 16), (3, 16)])
@pytest.mark.parametrize("n", [0, 1, 5, 9])
def test_native_sets_are_card_sets_in_their_order(low, high, n):
    """`steps.next_places` goes through the sets in the order of `runtime.card_sets.sets`, the values
    the choice offers are its values, and `steps.set_cards` gives back `card_sets.subset`."""
    from math import comb

    import numpy as np

    from cardlang.native.steps import next_places, set_cards
    from cardlang.runtime import card_sets

    source = tuple(range(40, 40 + n))
    src = np.asarray(source + (0,) * (16 - n), dtype=np.int64)
    offsets = np.asarray([card_sets.value_of(tuple(range(k)), low) if k >= low else 0 for k in range(17)],
                         dtype=np.int64)
    comb_table = np.asarray([[comb(p, i) for p in range(18)] for i in range(18)], dtype=np.int64)
    got = []
    places, out = np.zeros(16, dtype=np.int64), np.zeros(16, dtype=np.int64)
    for k in range(low, min(high, n) + 1):
        places[:k] = np.arange(k)
        more = True
        while more:
            value = int(offsets[k] + sum(comb_table[i + 1, places[i]] for i in range(k)))
            got.append((value, tuple(int(src[p]) for p in places[:k])))
            more = next_places(places, k, n)
    expected = list(card_sets.sets(source, low, high))
    assert got == expected
    for value, cards in expected[:: max(1, len(expected) // 200)]:
        k = set_cards(src, n, value, low, offsets, comb_table, out)
        assert tuple(out[:k]) == cards == card_sets.subset(source, value, low)


def test_native_climbing_is_the_climb_rule():
    """`native/climbing.py`'s `climb_beats` and `climb_of` are `ClimbRule.beats` and `kind` for random
    sets of cards of a game declaring every kind (runs of 3, bombs of 4) and of one without runs."""
    import numpy as np

    from cardlang.native import climbing

    for path, players in (("examples/combinations_climb.cards", 3), ("examples/climbing.cards", 2)):
        rule = cardlang.load(str(ROOT / path), players=players).program.lowered.layout.combos
        height, table = climbing.rule_tables(rule)
        rnd = random.Random(5)
        size = len(rule.height)
        by_height = {}
        for c in range(size):
            by_height.setdefault(rule.height[c], []).append(c)
        kinds = set()
        for _ in range(3000):
            if rnd.random() < 0.5:  # one rank, or ranks in a row: combinations, more often than by chance
                h = rnd.randrange(1, max(by_height) + 1)
                cs = by_height[h][: rnd.randrange(1, len(by_height[h]) + 1)] if rnd.random() < 0.5 else [
                    rnd.choice(by_height.get(x, [0])) for x in range(h, min(h + rnd.randrange(1, 8), max(by_height) + 1))]
            else:
                cs = rnd.sample(range(size), rnd.randrange(0, 7))
            laid = rnd.choice([[], cs[:1], rnd.sample(range(size), rnd.randrange(1, 5))])
            a, b = np.asarray(cs + [0], dtype=np.int64), np.asarray(laid + [0], dtype=np.int64)
            assert climbing.climb_beats(a, len(cs), b, len(laid), height, table) == rule.beats(tuple(cs), tuple(laid))
            k = climbing.climb_of(a, len(cs), height, table)[0]
            assert (None if k < 0 else climbing.KINDS[k]) == rule.kind(tuple(cs)), cs
            kinds.add(rule.kind(tuple(cs)))
        assert {"single", "pair", "triple", "four" if rule.bomb_min is None else "bomb"} <= kinds, kinds
        assert rule.run_min is None or "run" in kinds  # (the draws reach every combination)
