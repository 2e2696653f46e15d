"""The research adapters: PettingZoo, Gymnasium and OpenSpiel environments of any `.cards` file.

Each passes its library's own checks on every game of games/ and examples/ (PettingZoo's api_test,
parallel_api_test, seed_test, parallel_seed_test and render_test; Gymnasium's check_env at every
seat; OpenSpiel's random simulation with serialisation and cloning, the five largest games under
-m slow); the vector holds what the seat knows and nothing else; the action index is stable; the
chance source plays back given outcomes on both engines; and on Kuhn poker written as a `.cards`
file, OpenSpiel's exact algorithms give what they give on OpenSpiel's own kuhn_poker. What a seat
is shown by the adapters is part of the generic leak test (tests/test_leaks.py).
"""

import glob
import os
import random
import subprocess
import sys
import warnings

import numpy as np
import pyspiel
import pytest
from gymnasium.utils.env_checker import check_env
from open_spiel.python import policy
from open_spiel.python.algorithms import cfr, expected_game_score, exploitability
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, render_test, seed_test

import cardlang
from cardlang import gymnasium as cards_gym
from cardlang import openspiel, pettingzoo
from cardlang.load import check_file
from cardlang.play.chance import decides
from cardlang.research.chance import NeedChance, Script
from cardlang.research.encoding import Encoder, scaled
from scenario import ENGINES, ROOT, game, path

FILES = sorted(os.path.relpath(p, ROOT) for folder in ("games", "examples")
               for p in glob.glob(os.path.join(ROOT, folder, "*.cards")))
KUHN = "examples/kuhn_poker.cards"
# a game nobody decides (examples/war.cards) is an episode over at once: live agents after `reset`,
# which the next step ends with the game's returns (docs/research.md)
NOBODY_DECIDES = "examples/war.cards"
# the files OpenSpiel's random simulation plays only under -m slow: a 52-card shuffle is 51 chance
# nodes, each playing its step again (one simulation of ascenseur took 37-40 s CPU, the
# constrained variants 11 s, knock rummy 5 s; every other file under 2 s)
LARGE = {"games/ascenseur.cards", "examples/ascenseur_blind.cards", "examples/ascenseur_constrained.cards",
         "examples/ascenseur_blind_constrained.cards", "examples/knock_rummy.cards"}
SMALL = set(FILES) - LARGE


def ids(files):
    return [os.path.basename(f) for f in files]


def _low(relative) -> int:
    return check_file(path(relative))[0].players[0]


def _high(relative) -> int:
    return check_file(path(relative))[0].players[1]


def _seats(counts):
    """(file, players, seat) for every seat of every file at the player counts `counts(file)` gives."""
    return [(f, n, seat) for f in FILES for n in sorted(set(counts(f))) for seat in range(n)]


SEATS = _seats(lambda f: [_low(f)])
SEATS_HIGH = [x for x in _seats(lambda f: [_high(f)]) if x[1] != _low(x[0])]


def seat_ids(params):
    return [f"{os.path.basename(f)}-{n}p-seat{seat}" for f, n, seat in params]


# ------------------------------------------------------------------------------ PettingZoo
@pytest.mark.parametrize("relative", FILES, ids=ids(FILES))
def test_pettingzoo_own_tests_pass_on_every_game(relative, capsys):
    """PettingZoo's five tests of an environment: api_test, seed_test, parallel_api_test,
    parallel_seed_test (which samples actions without the mask: an illegal one ends the episode)
    and render_test (both render modes; "human" prints to stdout)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # (its advice on dict observations, which masks need)
        api_test(pettingzoo.env(path(relative)), num_cycles=60)
        seed_test(lambda: pettingzoo.env(path(relative)), num_cycles=60)
        parallel_api_test(pettingzoo.parallel_env(path(relative)), num_cycles=60)
        parallel_seed_test(lambda: pettingzoo.parallel_env(path(relative)), num_cycles=60)
        render_test(lambda render_mode=None: pettingzoo.env(path(relative), render_mode=render_mode))
    assert capsys.readouterr().out  # the "human" renders were printed


@pytest.mark.slow
@pytest.mark.parametrize("relative", [f for f in FILES if _high(f) != _low(f)],
                         ids=ids([f for f in FILES if _high(f) != _low(f)]))
def test_pettingzoo_own_tests_pass_at_the_largest_player_count(relative, capsys):
    n = _high(relative)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(pettingzoo.env(path(relative), n), num_cycles=60)
        seed_test(lambda: pettingzoo.env(path(relative), n), num_cycles=60)
        parallel_api_test(pettingzoo.parallel_env(path(relative), n), num_cycles=60)
        parallel_seed_test(lambda: pettingzoo.parallel_env(path(relative), n), num_cycles=60)
        render_test(lambda render_mode=None: pettingzoo.env(path(relative), n, render_mode=render_mode))


def test_pettingzoo_plays_whole_games_and_hands_out_the_payoffs():
    e = pettingzoo.env(path(KUHN))
    for seed in range(20):
        e.reset(seed=seed)
        total = {a: 0.0 for a in e.possible_agents}
        for agent in e.agent_iter():
            obs, reward, term, trunc, _ = e.last()
            total[agent] += reward
            e.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
        # the first legal action is "pass" throughout: both pass, the higher card takes the two antes
        state = game(KUHN, 2).new_initial_state(seed=seed)
        state.apply("pass")
        state.apply("pass")
        assert [total[a] for a in e.possible_agents] == state.returns()
        assert sorted(total.values()) == [-1.0, 1.0]


def test_pettingzoo_renders_the_table_as_the_seat_to_play_sees_it():
    e = pettingzoo.env(path("games/red_dog.cards"), players=2, render_mode="ansi")
    e.reset(seed=4)
    seat = e.possible_agents.index(e.agent_selection)
    text = e.render()
    state = game("games/red_dog.cards", 2).new_initial_state(seed=4)
    mine = state.zone("hand", seat)
    theirs = state.zone("hand", 1 - seat)
    label = state.game.deck.label_of
    assert all(label(state.game.card(c)) in text for c in mine)
    # the other hand is a count; its cards show only where the seat saw them (drawn for the deal)
    seen = "\n".join(state.transcript(seat))
    assert "5 cards" in text
    assert not any(label(state.game.card(c)) in text for c in theirs if label(state.game.card(c)) not in seen)
    assert any(label(state.game.card(c)) not in seen for c in theirs)


def test_pettingzoo_an_illegal_action_ends_the_episode_with_its_penalty():
    e = pettingzoo.env(path(KUHN), illegal_reward=-5.0)
    e.reset(seed=0)
    offender = e.agent_selection
    obs = e.observe(offender)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    e.step(illegal)
    assert all(e.terminations.values()) and not any(e.truncations.values())
    assert e.infos[offender]["illegal_action"] is True
    other = next(a for a in e.possible_agents if a != offender)
    assert "illegal_action" not in e.infos[other]
    got = {}
    for agent in e.agent_iter():
        _, reward, term, _, _ = e.last()
        got[agent] = reward
        assert term
        e.step(None)
    assert got == {offender: -5.0, other: 0.0}


def test_pettingzoo_parallel_an_illegal_action_ends_the_episode_with_its_penalty():
    e = pettingzoo.parallel_env(path(KUHN), illegal_reward=-2.0)
    obs, infos = e.reset(seed=0)
    offender = next(a for a, i in infos.items() if i["acting"])
    illegal = int(np.flatnonzero(obs[offender]["action_mask"] == 0)[0])
    obs, rewards, terms, truncs, infos = e.step({a: illegal for a in e.agents})
    other = next(a for a in e.possible_agents if a != offender)
    assert rewards == {offender: -2.0, other: 0.0}
    assert all(terms.values()) and not any(truncs.values()) and e.agents == []
    assert infos[offender]["illegal_action"] is True and "illegal_action" not in infos[other]


def test_pettingzoo_max_cycles_truncates_after_that_many_moments_in_both_apis():
    # goofspiel's bids are made at once: a moment is one whole round of bids in both APIs
    goof = path("examples/goofspiel.cards")
    par = pettingzoo.parallel_env(goof, players=2, max_cycles=2, cards=4)
    obs, _ = par.reset(seed=5)
    steps = 0
    while par.agents:
        obs, rewards, terms, truncs, _ = par.step({a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in obs.items()})
        steps += 1
    assert steps == 2 and all(truncs.values()) and not any(terms.values()) and set(rewards.values()) == {0.0}
    aec = pettingzoo.env(goof, players=2, max_cycles=2, cards=4)
    aec.reset(seed=5)
    moves = 0
    for agent in aec.agent_iter():
        obs, reward, term, trunc, _ = aec.last()
        if term or trunc:
            assert trunc and not term and reward == 0.0
            aec.step(None)
        else:
            aec.step(int(np.flatnonzero(obs["action_mask"])[0]))
            moves += 1
    assert moves == 4  # two moments of two bids each
    assert aec._state.zones == par._state.zones  # the same position in both
    # a game of single decisions: a moment is one decision; the option is not a game option
    kuhn = pettingzoo.env(path(KUHN), max_cycles=1)
    kuhn.reset(seed=0)
    kuhn.step(int(np.flatnonzero(kuhn.observe(kuhn.agent_selection)["action_mask"])[0]))
    assert all(kuhn.truncations.values()) and not any(kuhn.terminations.values())
    with pytest.raises(ValueError, match="max_cycles"):
        pettingzoo.env(path(KUHN), max_cycles=0)


def test_render_human_prints_the_table_and_returns_none_in_every_adapter(capsys):
    for make in (lambda mode: pettingzoo.env(path(KUHN), render_mode=mode),
                 lambda mode: pettingzoo.parallel_env(path(KUHN), render_mode=mode),
                 lambda mode: cards_gym.env(path(KUHN), render_mode=mode)):
        text = make("ansi")
        text.reset(seed=1)
        shown = make("human")
        shown.reset(seed=1)
        capsys.readouterr()
        assert shown.render() is None
        assert capsys.readouterr().out == text.render() and "pot" in text.render()


def test_a_game_nobody_decides_is_an_episode_over_at_once_in_every_adapter():
    assert not decides(check_file(path(NOBODY_DECIDES))[0])
    expected = game(NOBODY_DECIDES, 2).new_initial_state(seed=3).returns()
    e = pettingzoo.env(path(NOBODY_DECIDES))
    e.reset(seed=3)
    assert not any(e.terminations.values()) and all(i["game_over"] for i in e.infos.values())
    assert all(e.observe(a)["action_mask"].sum() == 0 for a in e.agents)
    e.step(0)  # (any action: it is not read)
    assert all(e.terminations.values())
    assert [e._cumulative_rewards[a] for a in e.possible_agents] == expected
    par = pettingzoo.parallel_env(path(NOBODY_DECIDES))
    _, infos = par.reset(seed=3)
    assert par.agents and all(i["game_over"] for i in infos.values())
    _, rewards, terms, _, _ = par.step({})
    assert [rewards[a] for a in par.possible_agents] == expected and all(terms.values()) and par.agents == []


# ------------------------------------------------------------------------------- Gymnasium
@pytest.mark.parametrize("relative,players,seat", SEATS, ids=seat_ids(SEATS))
def test_gymnasium_check_env_passes_at_every_seat(relative, players, seat):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(cards_gym.env(path(relative), seat=seat, players=players), skip_render_check=True)


@pytest.mark.parametrize("relative,players,seat", SEATS_HIGH, ids=seat_ids(SEATS_HIGH))
def test_gymnasium_check_env_passes_at_every_seat_of_the_largest_player_count(relative, players, seat):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(cards_gym.env(path(relative), seat=seat, players=players), skip_render_check=True)


def test_gymnasium_a_game_over_before_the_seat_decides_is_an_episode_over_at_once():
    # coin flip: P0 calls, the coin falls, P1 never decides
    e = cards_gym.env(path("examples/coin_flip.cards"), seat=1)
    for seed in range(5):
        obs, info = e.reset(seed=seed)
        assert info["game_over"] is True and obs["action_mask"].sum() == 0
        _, reward, terminated, truncated, info = e.step(0)
        assert (terminated, truncated, info["game_over"]) == (True, False, True)
        assert reward == e._state.returns()[1] and "illegal_action" not in info
        with pytest.raises(RuntimeError, match="reset"):
            e.step(0)
    # a game the seat may or may not reach: hints at seat 3 of 4 with greedy partners
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(cards_gym.env(path("examples/hints.cards"), seat=3, players=4, opponents="greedy"),
                  skip_render_check=True)
    h = cards_gym.env(path("examples/hints.cards"), seat=3, players=4, opponents="greedy")
    over = [seed for seed in range(20) if h.reset(seed=seed)[1].get("game_over")]
    assert over and len(over) < 20


def test_gymnasium_one_seat_against_bots_to_the_end():
    e = cards_gym.env(path("examples/high_card_chips.cards"), seat=1, opponents=["greedy:4"], players=2)
    obs, info = e.reset(seed=3)
    rewards, done = [], False
    while not done:
        a = int(np.flatnonzero(obs["action_mask"])[0])
        obs, r, done, trunc, info = e.step(a)
        rewards.append(r)
    assert all(r == 0.0 for r in rewards[:-1])
    assert rewards[-1] == e._state.returns()[1] and rewards[-1] != 0.0 or e._state.returns()[1] == 0.0
    assert obs["observation"][e.encoder.terminal_at] == 1.0


def test_gymnasium_an_illegal_action_ends_the_episode_with_its_penalty():
    e = cards_gym.env(path(KUHN), illegal_reward=-5.0)
    obs, _ = e.reset(seed=0)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, r, done, trunc, info = e.step(illegal)
    assert (r, done, trunc, info["illegal_action"]) == (-5.0, True, False, True)
    with pytest.raises(RuntimeError, match="reset"):
        e.step(0)


def test_gymnasium_refuses_unknown_bots_and_seats():
    with pytest.raises(KeyError, match="unknown bot"):
        cards_gym.env(path(KUHN), opponents="oracle")
    with pytest.raises(ValueError, match="seat 2"):
        cards_gym.env(path(KUHN), seat=2)


# ------------------------------------------------------------------- the vector and the index
def test_the_vector_holds_exactly_the_cards_the_seat_knows_zone_by_zone():
    g = game("games/red_dog.cards", 3)
    enc = Encoder(g)
    state = g.new_initial_state(seed=11)
    rng = random.Random(1)
    for _ in range(12):
        for seat in range(3):
            v = enc.observation(state.view(seat, past=False))
            cards = v[enc.cards_at:enc.cards_at + enc.Z * enc.D].reshape(enc.Z, enc.D)
            expect = np.zeros_like(cards)
            for z, pile in enumerate(state.zones):
                for c in pile:
                    if state.knows(seat, c):
                        expect[z, c] = 1.0
            assert (cards == expect).all()
            assert list(v[enc.sizes_at:enc.sizes_at + enc.Z] * enc.D) == pytest.approx([len(z) for z in state.zones])
            assert v[enc.seat_at + seat] == 1.0 and v[enc.seat_at:enc.seat_at + 3].sum() == 1.0
            slot_pot = next(at for _, _, at, name in enc.vars if name == "pot")
            assert v[slot_pot] == pytest.approx(scaled(state.var("pot")))
        if state.is_terminal():
            break
        legal = state.legal_action_ids()
        state.apply(legal[rng.randrange(len(legal))])


def test_a_card_variable_the_seat_does_not_know_is_only_flagged():
    g = game("tests/research/card_variables.cards", 2)
    enc = Encoder(g)
    state = g.new_initial_state(seed=2)
    at = {name: start for _, _, start, name in enc.vars}
    secret, firsts, both = state.var("secret"), state.var("first"), state.var("both")
    for seat in (0, 1):
        v = enc.observation(state.view(seat, past=False))
        card = v[at["secret"]:at["secret"] + enc.D + 1]
        assert card[enc.D] == 1.0 and card.sum() == 1.0  # the stock's top: a card nobody knows
        mine = v[at[f"first(P{seat})"]:at[f"first(P{seat})"] + enc.D + 1]
        assert mine[firsts[seat]] == 1.0 and mine.sum() == 1.0
        other = v[at[f"first(P{1 - seat})"]:at[f"first(P{1 - seat})"] + enc.D + 1]
        assert other[enc.D] == 1.0 and other.sum() == 1.0
        cards = v[at["both"]:at["both"] + enc.D + 1]
        known = [c for c in both if state.knows(seat, c)]
        assert sorted(np.flatnonzero(cards[:enc.D])) == sorted(known)
        assert cards[enc.D] == pytest.approx((len(both) - len(known)) / enc.D)
    assert len(enc.observation(state.view(0, past=False))) == enc.size == sum(b.size for b in enc.blocks)


def test_the_layout_is_documented_block_by_block():
    enc = Encoder(game("examples/coin_flip.cards", 2))
    names = [b.name for b in enc.blocks]
    assert names == ["cards", "tops", "sizes", "var call", "seat", "current player", "active", "winners",
                     "choice", "terminal", "round"]
    assert enc.texts == ("heads", "none", "tails")
    starts = [b.start for b in enc.blocks]
    assert starts == sorted(starts) and starts[0] == 0
    assert "var call: the text, one-hot" in enc.layout_text()


@pytest.mark.parametrize("relative", FILES, ids=ids(FILES))
def test_the_action_index_is_stable_and_round_trips(relative):
    g = game(relative, _low(relative))
    enc = Encoder(g)
    for seed in range(3):
        rng = random.Random(seed)
        state = g.new_initial_state(seed=seed, log=False)
        for _ in range(150):
            if state.is_terminal():
                break
            view = state.view(state.current_player, past=False)
            legal = enc.legal_indices(view)
            assert legal == sorted(set(legal)) and all(0 <= i < enc.num_actions for i in legal)
            assert list(np.flatnonzero(enc.mask(view))) == legal
            for i in legal:
                assert enc.index_of(view.choice, enc.action_of(view.choice, i)) == i
            a = enc.action_of(view.choice, legal[rng.randrange(len(legal))])
            state.apply(view.action_in(state, a))


def test_options_map_to_one_index_each_and_cards_to_their_ids():
    g = game(KUHN, 2)
    enc = Encoder(g)
    # four choices of "pass" and "bet": indices 0..7, choice by choice in the engine's numbering
    # (a choice nested in another's alternative comes first: the first player's opening is the last)
    assert enc.num_actions == 8
    assert [(c, a, start, width) for c, a, start, width, _ in enc.alternatives] == \
        [(0, 0, 0, 1), (0, 1, 1, 1), (1, 0, 2, 1), (1, 1, 3, 1), (2, 0, 4, 1), (2, 1, 5, 1), (3, 0, 6, 1), (3, 1, 7, 1)]
    state = g.new_initial_state(seed=0)
    assert enc.legal_indices(state.view(0, past=False)) == [6, 7]
    red = Encoder(game("games/red_dog.cards", 2))
    card_runs = [(start, width) for _, _, start, width, kind in red.alternatives if kind == "card"]
    assert card_runs and all(width == red.D for _, width in card_runs)
    number = [(start, width) for _, _, start, width, kind in red.alternatives if kind == "number"]
    assert number == [(number[0][0], 1024)]  # `from 1 to min(pot, chips(p))`: not a constant


# ------------------------------------------------------------------------- the chance source
@pytest.mark.parametrize("engine", ENGINES)
def test_a_chance_source_decides_every_shuffle_and_draw_on_both_engines(engine):
    g = cardlang.load(path("examples/coin_flip.cards"), 2, engine=engine)
    with pytest.raises(NeedChance) as e:
        g.new_initial_state(chance=Script())
    assert e.value.kind == "shuffle" and sorted(e.value.data) == [0, 1]
    for top in (0, 1):
        state = g.new_initial_state(chance=Script(((top, 1 - top),)))
        state.apply("heads")
        assert state.zone("turned") == [g.card_name(top)]
    red = cardlang.load(path("games/red_dog.cards"), 3, {"first_dealer": "random"}, engine=engine)
    with pytest.raises(NeedChance) as e:
        red.new_initial_state(chance=Script())
    assert (e.value.kind, e.value.data) == ("draw", 3)
    with pytest.raises(NeedChance) as e:
        red.new_initial_state(chance=Script((2,)))
    assert e.value.kind == "shuffle" and len(e.value.data) == 52


def test_seeded_games_do_not_meet_the_chance_source():
    g = game("games/red_dog.cards", 3)
    a, b = g.new_initial_state(seed=9), g.new_initial_state(seed=9)
    assert type(a.rng) is int and a.zones == b.zones


# ------------------------------------------------------------------------------- OpenSpiel
@pytest.mark.parametrize("relative", sorted(SMALL), ids=ids(sorted(SMALL)))
def test_openspiel_random_simulation_with_serialisation_and_cloning(relative):
    g = openspiel.load_game(path(relative), players=_low(relative))
    pyspiel.random_sim_test(g, num_sims=2, serialize=True, verbose=False)


@pytest.mark.slow
@pytest.mark.parametrize("relative", sorted(LARGE), ids=ids(sorted(LARGE)))
def test_openspiel_random_simulation_of_the_larger_games(relative):
    g = openspiel.load_game(path(relative), players=_low(relative))
    pyspiel.random_sim_test(g, num_sims=1, serialize=True, verbose=False)


def test_openspiel_game_type_and_registration():
    g = openspiel.load_game(path(KUHN))
    t = g.get_type()
    assert t.short_name == "python_cardlang"
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert openspiel.load_game(path("games/red_dog.cards"), players=2).get_type().utility == \
        pyspiel.GameType.Utility.GENERAL_SUM
    loaded = pyspiel.load_game("python_cardlang", {"file": path("games/red_dog.cards"), "players": 3,
                                                  "options": "chips:5;first_dealer:random"})
    assert loaded.num_players() == 3
    state = loaded.new_initial_state()
    assert state.is_chance_node() and state.chance_outcomes() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]
    again = pyspiel.load_game(str(loaded))
    assert str(again) == str(loaded)


@pytest.mark.parametrize("relative", ["examples/colour_match.cards", "examples/hints.cards"])
def test_openspiel_each_copy_of_a_face_is_its_own_chance_outcome_with_its_own_string(relative):
    g = openspiel.load_game(path(relative), players=_low(relative))
    deck = g.cards.deck
    state = g.new_initial_state()
    while True:  # to the first chance node among copies of a face
        assert not state.is_terminal()
        if state.is_chance_node():
            outcomes = [c for c, _ in state.chance_outcomes()]
            labels = [deck.label_of(c) for c in outcomes]
            if len(set(labels)) < len(labels):
                break
            state.apply_action(outcomes[0])
        else:
            state.apply_action(state.legal_actions()[0])
    strings = [state.action_to_string(pyspiel.PlayerId.CHANCE, c) for c in outcomes]
    assert len(set(strings)) == len(strings)
    first = next(c for c in outcomes if labels.count(deck.label_of(c)) > 1)
    second = next(c for c in outcomes if c != first and deck.label_of(c) == deck.label_of(first))
    assert strings[outcomes.index(first)] == f"chance: {deck.label_of(first)} next"
    assert strings[outcomes.index(second)] == f"chance: {deck.label_of(first)}#2 next"
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, second) == strings[outcomes.index(second)]  # stable


def test_openspiel_a_shuffle_is_successive_draws_of_the_remaining_cards():
    g = openspiel.load_game(path(KUHN))
    state = g.new_initial_state()
    first = state.chance_outcomes()
    assert first == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]
    state.apply_action(2)  # the king on top: dealt to P0
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    state.apply_action(0)  # then the jack: P1's; the queen is left, with no node of its own
    assert state.current_player() == 0
    assert "K♠" in state.information_state_string(0) and "J♠" not in state.information_state_string(0)
    assert "J♠" in state.information_state_string(1) and "K♠" not in state.information_state_string(1)
    clone = state.clone()
    clone.apply_action(clone.legal_actions()[0])
    assert state.current_player() == 0 and clone.current_player() == 1
    back = g.deserialize_state(clone.serialize())
    assert back.history() == clone.history() and str(back) == str(clone)


def test_openspiel_coin_flip_has_its_exact_value():
    g = openspiel.load_game(path("examples/coin_flip.cards"))
    value = expected_game_score.policy_value(g.new_initial_state(), [policy.UniformRandomPolicy(g)] * 2)
    assert list(value) == pytest.approx([0.5, 0.5])


def test_kuhn_poker_as_a_cards_file_has_the_native_value_under_uniform_play():
    ours, native = openspiel.load_game(path(KUHN)), pyspiel.load_game("kuhn_poker")
    values = [expected_game_score.policy_value(g.new_initial_state(), [policy.UniformRandomPolicy(g)] * 2)
              for g in (ours, native)]
    assert list(values[0]) == pytest.approx(list(values[1]), abs=1e-12)
    assert list(values[1]) == pytest.approx([0.125, -0.125])
    assert exploitability.exploitability(ours, policy.UniformRandomPolicy(ours)) == \
        pytest.approx(exploitability.exploitability(native, policy.UniformRandomPolicy(native)), abs=1e-12)


def test_kuhn_poker_cfr_reaches_the_native_exploitability():
    """pyspiel's CFR over the game's tree (OpenSpiel caches it: every state and string comes from
    the Python game once), iteration for iteration the same as on the native game."""
    found = []
    for g in (pyspiel.convert_to_cached_tree(openspiel.load_game(path(KUHN))), pyspiel.load_game("kuhn_poker")):
        solver = pyspiel.CFRSolver(g)
        trail = []
        for i in range(1, 801):
            solver.evaluate_and_update_policy()
            if i % 200 == 0:
                trail.append(pyspiel.exploitability(g, solver.average_policy()))
        found.append(trail)
    assert found[0] == pytest.approx(found[1], abs=1e-9)
    assert found[0][-1] < 0.001


@pytest.mark.slow
def test_kuhn_poker_python_cfr_on_the_python_game_itself():
    found = []
    for g in (openspiel.load_game(path(KUHN)), pyspiel.load_game("kuhn_poker")):
        solver = cfr.CFRSolver(g)
        for _ in range(750):
            solver.evaluate_and_update_policy()
        found.append(exploitability.exploitability(g, solver.average_policy()))
    assert found[0] == pytest.approx(found[1], abs=1e-9)
    assert found[0] < 0.001


# ------------------------------------------------------------------------- examples/research
def _script(name, *args) -> str:
    done = subprocess.run([sys.executable, os.path.join(ROOT, "examples", "research", name), *args],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_random_agents_script_plays_every_game():
    lines = _script("random_agents.py", "--games", "1").splitlines()
    assert sorted(line.split()[0] for line in lines) == sorted(os.path.basename(f) for f in FILES)
    assert all("1 games" in line and "mean returns" in line for line in lines)


def test_the_cfr_script_prints_the_exploitability_by_iteration_as_on_the_native_game():
    lines = _script("cfr_kuhn.py", "--iterations", "30", "--every", "10", "--native").splitlines()
    assert lines[0].split() == ["iteration", "cards", "native"]
    rows = [line.split() for line in lines[1:]]
    assert [r[0] for r in rows] == ["10", "20", "30"]
    assert all(r[1] == r[2] for r in rows) and float(rows[-1][1]) < float(rows[0][1])


def test_only_war_is_a_game_nobody_decides():
    assert [f for f in FILES if not decides(check_file(path(f))[0])] == [NOBODY_DECIDES]
