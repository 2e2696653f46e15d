"""What rule coverage counts of a betting round (`bets on …`) beyond its four decisions.

A betting round has, in `Program.rule_points`, four rule points of its own, one after the other
from its first (`KINDS`): the rounds begun, the blinds posted, the players who went all in, and
the rounds that everyone but one left by folding. Its decisions (fold, check, call, raise) are the
alternatives of its `Choose`, counted as any choice's. Only coverage's counting twin calls these
(`compiler/emit/stmt.py`, `s_PotRule` when counting), in place of `pots.start_round` and
`pots.act`; the game itself never pays for them.
"""

from __future__ import annotations

from . import pots

KINDS = ("bets", "blinds", "all in", "won by folds")  # the round's rule points, from its first
BEGUN, BLINDS, ALL_IN, WON_BY_FOLDS = range(len(KINDS))


def start(hits: list, k: int, st, pot: pots.PotSpec, first, blinds, minimum, fixed, cap) -> None:
    """`pots.start_round`, counting the round begun, its blinds posted and the blinds that put a
    player all in, into `hits[k …]`."""
    stacks, n = pot.stacks, pot.n
    before = st.v[stacks:stacks + n]
    pots.start_round(st, pot, first, blinds, minimum, fixed, cap)
    after = st.v[stacks:stacks + n]
    hits[k + BEGUN] += 1
    hits[k + BLINDS] += len(tuple(blinds))
    hits[k + ALL_IN] += sum(1 for a, b in zip(before, after) if a > 0 and b == 0)


def act(hits: list, k: int, st, pot: pots.PotSpec, kind: int, amount) -> None:
    """`pots.act`, counting a call or a raise that puts the player all in, and a fold that leaves
    one player alone in the pot, into `hits[k …]`."""
    p = pots.actor(st, pot)
    pots.act(st, pot, kind, amount)
    if kind == pots.FOLD:
        if not pots.betting(st, pot) and len(pots.contenders(st, pot)) == 1:
            hits[k + WON_BY_FOLDS] += 1
    elif st.v[pot.stacks + p] == 0:
        hits[k + ALL_IN] += 1


COUNTED = {"start": start, "act": act}  # the pot rules a betting round counts, by `PotRule.what`
