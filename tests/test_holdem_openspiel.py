"""examples/holdem.cards against OpenSpiel's universal_poker (no-limit Texas hold'em, the ACPC rules),
on the same deals: the same player to act and the same legal actions at every decision, the same
returns at the end. Zero mismatches over thousands of deals with unequal stacks (all-ins, side pots),
and a rule broken on purpose (tests/pots/holdem_min_raise_broken.cards) is caught.

Where the two differ by design, the test says so and aligns that one rule:
- a tie: universal_poker splits a pot in fractions of a chip; cardlang gives whole chips, the odd
  ones to the first winners from the dealer's left. So the returns are compared with a brute-force
  showdown of the test's own (`showdown`), worked out both ways from what each player put in, who
  folded and the hands: with fractions it must give universal_poker's returns, with odd chips ours.
- actions: universal_poker's `fullgame` ids are 0 fold, 1 check or call, and a raise as the total
  the player will have put in over the hand; ours are "fold", "check", "call" and "raise to" the
  round's bet: mapped with what the player put in before the round.
- limit betting: universal_poker's `fullgame` action list gives a limit raise as action 0 twice
  (a bug of its list), so examples/limit_holdem.cards is compared with the `fcpa` abstraction,
  where 2 is the one raise. Its limit games do not hold players to their stacks (a call or a raise
  puts in more than the stack: P2 of 30 chips "spends" 32), and it loads them for 2 to 4 players
  only ("only read 4 stack sizes" with more). So limit hold'em is compared at 2, 3 and 4 players
  with stacks deep enough that nobody can go all in (a limit hand costs at most 58 chips); the
  all-ins of limit betting are tests/test_pots.py's scenarios.
"""

from __future__ import annotations

import random
import re

import pytest

import cardlang
from cardlang.runtime import pots as potrules
from cardlang.runtime.poker import card_id
from scenario import ROOT, path

pyspiel = pytest.importorskip("pyspiel")

STACKS = [60, 200, 30, 120, 90, 150]
DEEP = [60, 200, 80, 120]  # deeper than any limit hand goes: universal_poker's limit games ignore stacks
DEALS = 1000  # per player count: 5000 deals in CI; ten times more under -m slow


def universal(n: int, limit: bool = False, big_blind: int = 2, stacks=STACKS):
    """universal_poker as examples/holdem.cards (or limit_holdem.cards) plays one hand: P0 deals, so
    the blinds are P1's and P2's (heads up P0's and P1's), and P0 speaks first heads up."""
    small = str(big_blind // 2)
    blind = f"{small} {big_blind}" if n == 2 else " ".join(["0", small, str(big_blind)] + ["0"] * (n - 3))
    first = "1 2 2 2" if n == 2 else f"{3 % n + 1} 2 2 2"  # (1-based seats, a round each)
    rules = {"betting": "limit", "bettingAbstraction": "fcpa", "maxRaises": "3 4 4 4",
             "raiseSize": f"{big_blind} {big_blind} {2 * big_blind} {2 * big_blind}"} if limit else \
        {"betting": "nolimit", "bettingAbstraction": "fullgame"}
    return pyspiel.load_game("universal_poker", {
        "numPlayers": n, "numRounds": 4, "blind": blind, "firstPlayer": first,
        "numSuits": 4, "numRanks": 13, "numHoleCards": 2, "numBoardCards": "0 3 1 1",
        "stack": " ".join(map(str, stacks[:n])), **rules})


def ours(n: int, relative: str = "examples/holdem.cards", stacks=STACKS):
    return cardlang.load(path(relative), players=n, root=ROOT, options={"stacks": stacks + [1] * (6 - len(stacks))})


def their_cards(os_game):
    """OpenSpiel's chance outcome -> our card id (read from its own names: `Deal 5s`)."""
    s = os_game.new_initial_state()
    return {a: card_id(s.action_to_string(a).split()[-1]) for a in s.legal_actions()}


def stack_for(order: list, n: int) -> list:
    """Our deck, top first, that deals what universal_poker deals in `order` (every hole card of P0,
    then P1's, …, then the board): ours deals one card at a time round the table from the dealer's
    left (P1, …, P0)."""
    holes, board = order[:2 * n], order[2 * n:]
    top = [holes[2 * p + i] for i in range(2) for p in (*range(1, n), 0)] + board
    return top + [c for c in range(52) if c not in top]


def our_actions(state, spec, limit: bool) -> dict:
    """Our legal actions by universal_poker's id."""
    out = {}
    p = state.current_player
    before = state.v[spec.base + p] - state.v[spec.base + spec.n + p]  # put in before this round
    for a in state.legal_actions():
        if a.label == "fold":
            out[0] = a.id
        elif a.label in ("check", "call"):
            out[1] = a.id
        else:
            out[2 if limit else before + int(a.label.split()[-1])] = a.id
    return out





def pick(rng, legal: list) -> int:
    """A fold (1 in 8), a call (5 in 8) or a raise of a random size (2 in 8), so that hands reach
    the river, players go all in and side pots are built."""
    raises = [a for a in legal if a >= 2]
    x = rng.random()
    if x < 0.125 and 0 in legal:
        return 0
    if x < 0.75 or not raises:
        return 1
    return rng.choice(raises)


def _paid(state, n: int) -> list:
    """What each player put in over the hand, as universal_poker's state shows it (`Spent: [P0: 60 …]`)."""
    found = re.search(r"Spent: \[(.*?)\]", str(state)).group(1)
    return [int(x) for x in re.findall(r"P\d+: (\d+)", found)][:n]


def showdown(spent: list, folded: set, rank: list, whole: bool) -> list:
    """Each seat's return: every level of the contributions shared among the players still in who
    reached it, by the best rank; `whole`: whole chips, the odd ones to the first winners from P1
    (the dealer's left); else fractions."""
    n = len(spent)
    won = [0.0] * n
    still_in = [p for p in range(n) if p not in folded]
    levels = sorted({spent[p] for p in still_in})
    below = 0
    for level in levels:
        chips = sum(max(0, min(x, level) - below) for x in spent)
        reached = [p for p in still_in if spent[p] >= level]
        best = max(rank[p] for p in reached) if len(still_in) > 1 else None
        winners = [p for p in (*range(1, n), 0) if p in reached and (best is None or rank[p] == best)]
        for i, p in enumerate(winners):
            won[p] += (chips // len(winners) + (i < chips % len(winners))) if whole else chips / len(winners)
        below = level
    for p in range(n):  # what no player still in reached goes back
        won[p] += max(0, spent[p] - below)
    return [won[p] - spent[p] for p in range(n)]


def mismatches(n: int, deals: int, seed: int, relative: str = "examples/holdem.cards", limit: bool = False) -> list:
    stacks = DEEP if limit else STACKS
    os_game, game = universal(n, limit, stacks=stacks), ours(n, relative, stacks)
    spec = game.program.layout.pots["pot"]
    ids = their_cards(os_game)
    ranking, codes = game.program.layout.rankings["hands"]
    rng, wrong = random.Random(seed), []
    for deal in range(deals):
        order = rng.sample(range(52), 2 * n + 5)
        theirs = os_game.new_initial_state()
        mine = game.new_initial_state(seed=deal, stack=stack_for([ids[x] for x in order], n), log=False)
        dealt, folded = 0, set()
        while not theirs.is_terminal():
            if theirs.is_chance_node():
                theirs.apply_action(order[dealt])
                dealt += 1
                continue
            mapped = our_actions(mine, spec, limit) if not mine.is_terminal() else {}
            legal = theirs.legal_actions()
            if mine.is_terminal() or mine.current_player != theirs.current_player() or sorted(mapped) != sorted(legal):
                wrong.append((deal, "decision", theirs.history_str()))
                break
            a = pick(rng, legal)
            if a == 0:
                folded.add(theirs.current_player())
            theirs.apply_action(a)
            mine.apply(mapped[a])
        else:
            if not mine.is_terminal():
                wrong.append((deal, "ours goes on", theirs.history_str()))
                continue
            cards = [ids[x] for x in order]
            rank = [ranking.evaluate_value([codes[c] for c in cards[2 * p:2 * p + 2] + cards[2 * n:]]) for p in range(n)]
            r_theirs, r_mine = theirs.returns(), mine.returns()
            paid = _paid(theirs, n)
            if showdown(paid, folded, rank, False) != pytest.approx(r_theirs) or showdown(paid, folded, rank, True) != r_mine:
                wrong.append((deal, "returns", theirs.history_str(), r_mine, r_theirs))
    return wrong


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_holdem_agrees_with_universal_poker(n):
    assert mismatches(n, DEALS, seed=n) == []


@pytest.mark.parametrize("n", [2, 3, 4])
def test_limit_holdem_agrees_with_universal_poker(n):
    assert mismatches(n, DEALS // 2, seed=50 + n, relative="examples/limit_holdem.cards", limit=True) == []


@pytest.mark.slow
@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_holdem_agrees_with_universal_poker_on_many_more_deals(n):
    assert mismatches(n, 10 * DEALS, seed=100 + n) == []
    if n <= 4:
        assert mismatches(n, 5 * DEALS, seed=200 + n, relative="examples/limit_holdem.cards", limit=True) == []


def test_the_check_catches_a_broken_rule():
    wrong = mismatches(3, 200, seed=7, relative="tests/pots/holdem_min_raise_broken.cards")
    assert len(wrong) > 20 and all(w[1] == "decision" for w in wrong)
