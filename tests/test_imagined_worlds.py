"""Issue 26: the worlds a seat imagines (`SeatView.determinize`) carry nothing the seat does not know
(finding 4: a text quoting a hidden card), and a world a bot imagined never stops the real game
(finding 8)."""

import json
import random

import pytest
from click.testing import CliRunner

from cardlang.cli import main as cli_main  # (the click group)
from cardlang.play.bots import BOTS, decide, make_bot
from cardlang.play.simulate import simulate
from cardlang.runtime.log import fill_refs
from scenario import game, path

QUOTED = "tests/knowledge/quoted_card.cards"


def _note(state):
    g = state.game
    return fill_refs(g.deck, state.v[g.program.var_slots["note"][0]])


def test_a_text_quoting_a_hidden_card_names_the_card_of_the_imagined_world():
    """`set note = "P1 holds {top of hand(P1)}"`: in P0's worlds the note names the card the world
    dealt to the top of P1's hand, not P1's real card (which it named in all 50 worlds before)."""
    g = game(QUOTED, 2)
    hand1 = g.program.zone_families["hand"][0] + 1
    real_states = [g.new_initial_state(seed=seed) for seed in range(6)]
    same = total = 0
    for state in real_states:
        real = _note(state)
        assert real == f"P1 holds {g.deck.label_of(state.zones[hand1][-1])}"
        assert state.observation(0)["variables"]["note"] == "P1 holds hidden"
        view = state.view(0)
        for i in range(40):
            world = view.determinize(random.Random(i))
            # the world's note is true of the world: it names the card the world put there
            assert _note(world) == f"P1 holds {g.deck.label_of(world.zones[hand1][-1])}"
            same += _note(world) == real
            total += 1
    # 13 cards P0 does not know could lie there: the real one about one world in 13, not every time
    assert same < total / 4


def test_views_of_states_that_differ_only_in_the_quoted_hidden_card_are_equal():
    g = game(QUOTED, 2)
    state = g.new_initial_state(seed=3)
    twin, fits = state.view(0).sample(random.Random(5), history=True)
    hand1 = g.program.zone_families["hand"][0] + 1
    assert twin.zones[hand1][-1] != state.zones[hand1][-1]
    assert _note(twin) != _note(state)
    assert twin.view(0) == state.view(0)
    assert twin.view(0).determinize(random.Random(1)).v == state.view(0).determinize(random.Random(1)).v


# --------------------------------------------------------------------------------- finding 8
LAID = "tests/knowledge/laid_down.cards"


def _hearts_in_hand_worlds(state, seat, other, tries=40) -> int:
    g = state.game
    hand = g.program.zone_families["hand"][0] + other
    view = state.view(seat)
    return sum(any(g.deck.suit_name(c) == "hearts" for c in view.determinize(random.Random(i)).zones[hand])
               for i in range(tries))


def _first_decision_with_hidden_hand():
    """A state of the laid-down game where P0 decides and P1 still holds cards."""
    g = game(LAID, 2)
    hand1 = g.program.zone_families["hand"][0] + 1
    for seed in range(50):
        state = g.new_initial_state(seed=seed)
        if not state.is_terminal() and state.current_player == 0 and len(state.zones[hand1]) >= 1:
            return state
    raise AssertionError("no such state")


def test_every_world_fits_what_the_deal_made_true():
    state = _first_decision_with_hidden_hand()
    assert _hearts_in_hand_worlds(state, 0, 1) == 0


@pytest.mark.parametrize("name", sorted(n for n in BOTS if not getattr(BOTS[n], "blind", False)))
def test_a_search_bot_discards_a_world_that_breaks_a_rule_and_decides_on(name):
    """Every searching bot of the registry: worlds in which P1 has no legal choice are counted and
    dropped; the bot still returns one of its legal actions, the same for the same seed."""
    g = game(LAID, 2)
    discarded = decided = 0
    for seed in range(12):
        state = g.new_initial_state(seed=seed)
        if state.is_terminal() or len(state.legal_action_ids()) < 2:
            continue
        bot = make_bot(f"{name}:24", seed=seed)
        a = decide(bot, state)
        assert a in state.legal_action_ids()
        assert decide(make_bot(f"{name}:24", seed=seed), state) == a
        decided += 1
        discarded += bot.discarded
        if bot.discarded:
            assert "has no legal choice" in " ".join(bot.discarded_why)
    assert decided >= 4 and discarded > 0


def test_a_game_stopped_by_a_world_a_bot_imagined_now_finishes_and_simulate_reports_it():
    """Before: `rule error: P1 must choose but has no legal choice (seed 5, move 0, met by a bot
    playing ahead)` stopped the whole run."""
    stats = simulate(game(LAID, 2), 24, seed=0, bots=("ismcts:30",), coverage=False)
    assert stats["games"] == 24 and not stats["interrupted"]
    d = stats["discarded_worlds"]
    assert d["worlds"] > 0 and d["games"] > 0 and sum(d["per_seat"]) == d["worlds"]
    assert d["reasons"][0]["reason"].endswith("must choose but has no legal choice")
    result = CliRunner().invoke(cli_main, ["simulate", path(LAID), "--games", "12", "--bots", "ismcts:30"])
    assert result.exit_code == 0, result.output
    assert "imagined worlds discarded by the bots" in result.output
    result = CliRunner().invoke(cli_main, ["simulate", path(LAID), "--games", "12", "--bots", "ismcts:30", "--json"])
    assert json.loads(result.output)["discarded_worlds"]["worlds"] > 0


def test_a_run_without_impossible_worlds_reports_none():
    stats = simulate(game("examples/coin_flip.cards", 2), 6, bots=("ismcts:10",), coverage=False)
    assert stats["discarded_worlds"] == {"worlds": 0, "games": 0, "per_seat": [0, 0], "reasons": []}
