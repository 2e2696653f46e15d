"""The information-state tensor's history block: the game's decisions as one seat read them.

OpenSpiel's information state is perfect recall: what a seat knows now and what it saw happen. A
cardlang seat reads every decision in the log (`P1 chooses bet 3`, `P0 chooses take a card from
P1's hand, 2 of 3`): who chose, which choice and alternative, the number, and the card where the
seat knew it once the step was over. `History(encoder, length)` lays the last `length` decisions
out in a fixed-size block after the observation vector, one entry each, oldest first:

| part | size | what it holds |
|---|---|---|
| `actor` | players | the seat that chose, one-hot |
| `alternative` | alternatives | the choice's alternative, one-hot, in the action index's order (an option, a card run or a number run of `Encoder.alternatives`) |
| `card` | deck | the card chosen, one-hot: its id where the seat knew it once the step was over; for the seat's own choice of a card it did not know, the id its view gave (by place) |
| `number` | 1 | the number chosen, scaled (`encoding.scaled`) |

then one entry `decisions`: how many decisions the game has had, scaled. Entries past the game's
decisions are zeros. A game of at most `length` decisions is told in full (perfect recall); a
longer one keeps its last `length` (the observation still holds every card the seat knows).

A decision is recorded by the adapter as a `Decision`: the seat, the index it played (in its
view's terms), and once its step is over who knows the card chosen (`known`): nothing in it names
a card to a seat that did not know it then. A pick made at once (`secret`) is read by another seat
as its actor alone until the picks are played out, and after that only as far as they show it
(`seen`, docs/knowledge.md): its card to the seats that know it then, a number or a player that its
alternative's body shows (`AtOnce.shown`) to all, an option to none.
"""

from __future__ import annotations

from typing import NamedTuple, Optional

import numpy as np

from .encoding import Block, Encoder, scaled32

DEFAULT_LENGTH = 32  # decisions the block holds when the game declares no smaller `limit N decisions`


class Decision(NamedTuple):
    """One decision of the game: `player`, `index` (the action index it played, its view's terms),
    `card` (the real card chosen, -1 for none), `known` (the seats knowing that card once the step
    was over; None while the step is under way); for a pick made at once, `secret` (its choice and
    real action) and `seen` (the seats that read more than its actor: None while it is pending)."""

    player: int
    index: int
    card: int
    known: Optional[int]
    secret: Optional[tuple] = None
    seen: Optional[int] = None


class History:
    """The history block of a game's information-state tensor (see the module's docstring)."""

    def __init__(self, encoder: Encoder, length: int):
        self.encoder = encoder
        self.length = length
        self.players = encoder.players
        self.runs = len(encoder.alternatives)
        self.D = encoder.D
        self.actor_at, self.alt_at = 0, self.players
        self.card_at = self.alt_at + self.runs
        self.number_at = self.card_at + self.D
        self.width = self.number_at + 1
        self.size = length * self.width + 1
        self.blocks = [Block(f"decision {i}", encoder.size + i * self.width, self.width,
                             "actor (players), alternative (runs of the action index), card (deck), number")
                       for i in range(length)]
        self.blocks.append(Block("decisions", encoder.size + length * self.width, 1,
                                 "the decisions so far, scaled"))
        # the run of each action index (its alternative), and its kind and first index
        self._run_of = encoder._run_of
        self._kinds = [kind for _, _, _, _, kind in encoder.alternatives]
        self._starts = [start for _, _, start, _, _ in encoder.alternatives]

    def fill(self, out: np.ndarray, decisions: tuple, seat: int) -> None:
        """Writes the block for `seat` into `out` (its length `size`, zeroed here)."""
        out.fill(0.0)
        self.write(out, 0, decisions, seat)

    def write(self, out, start: int, decisions: tuple, seat: int) -> None:
        """Writes the block for `seat` into `out` (an array or a list) from index `start`, where
        its entries are zeros (its values as float32 holds them: a list equals an array)."""
        length, width = self.length, self.width
        shown = decisions[-length:] if length else ()
        bit = 1 << seat
        run_of, kinds, starts = self._run_of, self._kinds, self._starts
        actor_at, alt_at, card_at, number_at = self.actor_at, self.alt_at, self.card_at, self.number_at
        at = start
        for player, index, card, known, secret, seen in shown:  # (a Decision's fields, in order)
            out[at + actor_at + player] = 1.0
            if secret is not None and player != seat and not (seen or 0) & bit:
                at += width
                continue  # another seat's pick made at once, not shown to this one: who chose, nothing more
            k = run_of[index]
            out[at + alt_at + k] = 1.0
            kind, value = kinds[k], index - starts[k]
            if kind == "card":
                if known is not None and known & bit and card >= 0:
                    out[at + card_at + card] = 1.0
                elif player == seat:
                    out[at + card_at + value] = 1.0
            elif kind in ("number", "value"):  # (a rank, a suit, a declared value: its place, as a number)
                out[at + number_at] = scaled32(value)
            at += width
        out[start + length * width] = scaled32(len(decisions))


def history_length(game, asked: int = 0) -> int:
    """The entries of the block: `asked` if given, else the game's `limit N decisions` when it
    declares one below the default, else `DEFAULT_LENGTH`."""
    if asked > 0:
        return asked
    return max(1, min(DEFAULT_LENGTH, game.program.max_decisions))
