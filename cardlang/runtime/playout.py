"""Playing on inside the runtime: one action without checks, or whole games with random or scripted bots.

`State.apply` is the API for people and tools: it accepts an `Action`, an id or a label, and checks
it. Bots' copies and simulations play legal ids they read from the pending decision, so they call
`advance` (the step itself), or play a whole game here without leaving the runtime:

- `random_playout(state, rng)`: every seat picks `legal[int(rng.random() * len(legal))]` from one
  generator, what the search bots' rollouts play on their determinized copies;
- `seat_playout(state, rngs)`: seat s picks as a `RandomBot` seeded with `rngs[s]` does
  (`legal[rng.randrange(len(legal))]`), draw for draw, what `cardlang simulate`'s random bots play;
- `scripted_playout(state, choose)`: `choose(seat, count)` gives the index of the legal action
  (a scripted bot: it is told only how many actions it has, as `ChoiceCount` tells a random bot).

Each stops at the end of the game or when round `stop_round` begins, and returns the decisions
it played. On a state that keeps no log and no record of the round, an engine that plays whole
games itself (`program.plays_whole_games`: the compiled engine's `Program.playout`, one generated
run with the draw written at each choice) plays the game, drawing exactly what the loops below
draw; otherwise the loops below play it a decision at a time. A state nothing will observe is made quiet first (`quiet(state)`): it keeps no log and
no record of the round for views (`view.record`), and unless told to keep `knowledge`, its
`state.quiet` flag lets an engine leave who knows which card as it stood (nothing but views,
labels and the log read that; no rule does). A quiet state is for playing on and reading results
(terminal, winners, scores, rounds), not for a view; with knowledge kept, labels still read right.
"""

from __future__ import annotations

import functools
import random
from typing import Callable, Optional, Sequence

from .basics import Events

# bit lengths of 1..N, as `random.Random._randbelow_with_getrandbits` works them out
BITS = tuple(n.bit_length() for n in range(1025))
NEVER = 1 << 62  # the stop round of a playout to the end


def untold(choice) -> bool:
    """Whether a tally leaves the decisions of `choice` (a program's `chooses[i]`) uncounted and
    untold (see `seat_playout`): its one alternative is a card alternative without a label of its
    own, which names the card alone, so that every one of its actions reads alike once the card
    is set aside (`a card`), and the decisions no tally counted are the rest."""
    return len(choice.alts) == 1 and choice.alts[0].kind == "card" and choice.alts[0].label is None


@functools.lru_cache(maxsize=64)
def untold_choices(program) -> frozenset:
    """The indexes of a program's choices that are `untold`, worked out once a program."""
    return frozenset(i for i, c in enumerate(program.chooses) if untold(c))


class BadPick(Exception):
    """A scripted bot's index outside its legal actions, met inside a whole-game run (which
    reports it as the `ValueError` the loop raises)."""


def _whole(state):
    """The program, when it can play the rest of this state's game itself, else None."""
    program = state.game.program
    if program.plays_whole_games and state.log is None and state.checkpoint is False and not state.terminal:
        return program
    return None


def advance(state, a: int) -> None:
    """Plays the legal action id `a` of the pending decision (not checked: read from `pending.legal`)."""
    state.game.program.resume(state, a)


def quiet(state, knowledge: bool = False):
    """Makes `state` one nothing will observe (no log, no record of the round for views); returns it.
    Without `knowledge`, an engine may also stop tracking who knows which card (`state.quiet`),
    unless a rule of the game reads it (`is face up`); keep it when labels will be read (they name
    a card the chooser does not know by its place)."""
    state.log = None
    state.fresh = Events(0)
    state.rounds_at = None  # (where rounds begin in the log: there is none)
    state.checkpoint = False
    state.quiet = not knowledge and not state.game.program.reads_knowledge
    return state


def random_playout(state, rng: random.Random, stop_round: Optional[int] = None) -> int:
    """Every seat plays `legal[int(rng.random() * len(legal))]` until the end or round `stop_round`."""
    whole = _whole(state)
    if whole is not None:
        return whole.playout(state, "random", rng.random, stop_round)
    resume = state.game.program.resume
    rand = rng.random
    n = 0
    if stop_round is None:
        while not state.terminal:
            legal = state._pending[2]  # (the plain tuple: no `Pending` made a decision)
            resume(state, legal[int(rand() * len(legal))])
            n += 1
    else:
        while not state.terminal and state.round < stop_round:
            legal = state._pending[2]
            resume(state, legal[int(rand() * len(legal))])
            n += 1
    return n


def seat_playout(state, rngs: Sequence[random.Random], stop_round: Optional[int] = None,
                 on_decision: Optional[Callable] = None, tally: Optional[dict] = None) -> int:
    """Seat s plays `legal[rngs[s].randrange(len(legal))]` (the same draws) until the end or round
    `stop_round`; `on_decision(state, a)`, if given, is told each action before it is played. With
    `tally` (a dict for each choice, by index), an action `a` in its choice's dict adds one there
    instead (no call): `on_decision` puts `a` there to have that action counted so from then on;
    and a decision of a choice that is `untold` is neither counted nor told (the caller has them
    as what is left of the decisions played)."""
    whole = _whole(state)
    if whole is not None:
        return whole.playout(state, "seat", [r.getrandbits for r in rngs], stop_round, tally, on_decision)
    program = state.game.program
    resume = program.resume
    skipped = untold_choices(program) if tally is not None else ()
    bits = [r.getrandbits for r in rngs]
    lengths = BITS
    n = 0
    while not state.terminal and (stop_round is None or state.round < stop_round):
        choice, player, legal = state._pending  # (the plain tuple: no `Pending` made a decision)
        count = len(legal)
        getbits = bits[player]
        k = lengths[count] if count < 1025 else count.bit_length()
        i = getbits(k)  # what `randrange(count)` draws: k bits until one is below count
        while i >= count:
            i = getbits(k)
        a = legal[i]
        if on_decision is not None:
            if tally is None:
                on_decision(state, a)
            elif choice not in skipped:
                row = tally[choice]
                times = row.get(a)
                if times is None:
                    on_decision(state, a)
                else:
                    row[a] = times + 1
        resume(state, a)
        n += 1
    return n


def scripted_playout(state, choose: Callable[[int, int], int], stop_round: Optional[int] = None) -> int:
    """`choose(seat, count)` picks the index of each legal action until the end or round `stop_round`."""
    whole = _whole(state)
    if whole is not None:
        try:
            return whole.playout(state, "script", choose, stop_round)
        except BadPick as e:
            raise ValueError(str(e)) from None
    resume = state.game.program.resume
    n = 0
    while not state.terminal and (stop_round is None or state.round < stop_round):
        _, player, legal = state._pending
        i = choose(player, len(legal))
        if not 0 <= i < len(legal):
            raise ValueError(f"P{player} has {len(legal)} legal actions: no action {i}")
        resume(state, legal[i])
        n += 1
    return n
