"""The native engine (issue 29) against the compiled and reference engines, file by file.

Every file of games/ and examples/ is either run natively, giving the same winners, scores,
returns, decision and round counts and first seat as the compiled AND the reference engines for
several seeds (random bots, as `cardlang simulate` seeds them), or listed in `UNSUPPORTED` with the
construct and rule line its one-line fallback names, and why. That list may only shrink.

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
}

# file -> (players, the construct and rule line of its fallback line, why it is not run natively yet)
UNSUPPORTED = {
    "examples/columns.cards": (2, "a rule that reads who knows a card (`is face up`)", 25,
                               "a quiet run keeps no knowledge; such a game is never quiet on any engine"),
    "examples/klondike.cards": (1, "a rule that reads who knows a card (`is face up`)", 55,
                                "a quiet run keeps no knowledge; such a game is never quiet on any engine"),
    "examples/holdem.cards": (2, "pots and betting", 50, "pots (runtime/pots.py) are not emitted yet"),
    "examples/limit_holdem.cards": (2, "pots and betting", 16, "pots (runtime/pots.py) are not emitted yet"),
}


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


def _same_games(path: str, players: int, optimisations: Optimisations = Optimisations()) -> None:
    compiled = cardlang.load(str(ROOT / path), players=players)
    reference = cardlang.load(str(ROOT / path), players=players, engine="reference")
    native = native_program(compiled.program.lowered, optimisations)
    for seed in SEEDS:
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
    _same_games(path, FAST[path], optimisations)


@pytest.mark.slow
@pytest.mark.parametrize("path", sorted(set(SUPPORTED) - set(FAST)))
def test_native_games_are_the_compiled_and_reference_games_slow(path):
    _same_games(path, SUPPORTED[path])


@pytest.mark.parametrize("path", sorted(UNSUPPORTED))
def test_an_unsupported_file_says_its_construct_and_line_and_runs_compiled(path):
    players, construct, line, _why = UNSUPPORTED[path]
    game = cardlang.load(str(ROOT / path), players=players, engine="native")
    assert game.native is None
    assert game.native_note == (f"native engine: {construct} at rules line {line} is not supported yet; "
                                "running on the compiled engine")
    st = game.new_initial_state(seed=0, log=False)  # (the compiled engine plays it)
    assert st.legal_action_ids() or st.is_terminal()


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
    refused = runner.invoke(main, ["simulate", str(ROOT / "examples/holdem.cards"), "-n", "2", "--engine",
                                   "native", "--jobs", "1"])
    assert refused.exit_code == 0
    notes = [line for line in refused.stderr.splitlines() if line.startswith("native engine:")]
    assert notes == ["native engine: pots and betting at rules line 50 is not supported yet; "
                     "running on the compiled engine"]


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


@pytest.mark.parametrize("kernel", ["climbing.py", "melds.py", "poker.py", "rng.py", "steps.py"])
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
    monkeypatch.setenv("CARDLANG_CACHE", str(tmp_path / "cache"))
    game = cardlang.load(str(ROOT / "examples/fewest_hearts.cards"), players=2, engine="native")
    assert game.native is not None and not game.native.cached
    written = [p for p in tmp_path.rglob("*") if p.is_file()]
    assert written and all(str(p).startswith(str(tmp_path / "cache" / "native")) for p in written)
    assert any(p.suffix == ".nbi" for p in written)  # (numba's index of the machine code, next to the module)


@pytest.mark.parametrize("seed", [0, 1, 5, 2**32 - 1, 2**32, 2**40 + 7, 2**63 - 1, -1, -2**63])
def test_the_reseeded_chance_draws_what_the_runtime_draws(seed):
    """`steps.chance_shuffle` and `chance_below` (the generator reseeded in place) are
    `runtime.rng.shuffle` and `randbelow` for every 64-bit chance (an int64's bits)."""
    import numpy as np

    from cardlang.native.steps import chance_below, chance_shuffle
    from cardlang.runtime import rng

    mt = np.zeros(625, dtype=np.int64)
    pile, native_pile = list(range(52)), np.arange(52, dtype=np.int64)
    after = rng.shuffle(pile, seed % 2**64)
    assert chance_shuffle(native_pile, seed, mt) % 2**64 == after and native_pile.tolist() == pile
    value, after = rng.randbelow(37, seed % 2**64)
    got, got_after = chance_below(37, seed, mt)
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
