"""A seat's view as a fixed-size numpy vector, and a stable index over the game's action ids.

Both are derived once per game (file, player count, options) from its declarations: the zones of
its layout, its declared variables and their types, its choices and their alternatives. They read
nothing but a seat's view (`table()`, `legal_action_ids()`, `choice` of a `SeatView` or of the
cheaper `runtime.encoder_view.TableView`): an adapter built on them cannot show a seat a card it does
not know. `docs/research.md` documents both layouts.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Optional

import attrs
import numpy as np

from ..compiler import ir
from ..lang.check import BOOL, CARD, CARDS, LIST, NUMBER, PLAYER, PLAYERS, RANK, SUIT, TEXT, ZONE
from ..runtime import card_sets
from ..runtime.engine import TERMINAL
from ..runtime.seat_table import VectorPlan

MAX_NUMBER = 1023  # the largest number a `a number … from a to b` choice may index, unless `b` is a constant
LIST_ITEMS = 8  # the first items of a list variable that the vector holds
FEW_CARDS = 16  # known cards up to which the vector's card entries are worked out in Python (not numpy)
LEGAL_KEPT = 1 << 12  # the sets of legal ids whose indices an encoder remembers
SCALE_BOUND = 64.0  # |a scaled number| never exceeds this (log1p of any 64-bit int is under 45)


def scaled(x) -> float:
    """A number as the vector holds it: sign(x) * log(1 + |x|), so counts and chips stay small."""
    return math.copysign(math.log1p(abs(x)), x) if x else 0.0


def as_float32(x: float) -> float:
    """`x` as a float32 vector holds it (rounded to the nearest float32), as a Python float: what a
    list path writes, so a vector made as a list equals one made as an array."""
    return float(np.float32(x))


@lru_cache(maxsize=1 << 16)
def scaled32(x) -> float:
    """A number as the vector holds it (`scaled`, within ±SCALE_BOUND), as a float32 (remembered:
    a game's numbers come back again and again)."""
    return as_float32(max(-SCALE_BOUND, min(SCALE_BOUND, scaled(x))))


def _walk(node, out: set) -> None:
    """Collects the texts a text variable may take in an IR tree: each text constant and each plain
    text (no `{…}`), but not what is only shown (announcements, labels)."""
    if isinstance(node, ir.Const):
        if isinstance(node.value, str):
            out.add(node.value)
        return
    if isinstance(node, ir.Text):
        if all(isinstance(p, str) for p in node.parts):
            out.add("".join(node.parts))
        return
    if isinstance(node, ir.Announce):
        return
    if isinstance(node, ir.Alternative):
        for x in (node.source, node.high, node.where, node.body):
            _walk(x, out)
        return
    if isinstance(node, (tuple, list)):
        for x in node:
            _walk(x, out)
    elif isinstance(node, dict):
        for x in node.values():
            _walk(x, out)
    elif attrs.has(type(node)):
        for f in attrs.fields(type(node)):
            _walk(getattr(node, f.name), out)


@attrs.define(frozen=True)
class Block:
    """A named run of the vector: `name`, its first index, its length, and what each entry means."""

    name: str
    start: int
    size: int
    meaning: str


class Encoder:
    """The observation vector and the action index of one game (see `docs/research.md`)."""

    def __init__(self, game, max_number: int = MAX_NUMBER):
        program = game.program
        layout = program.layout
        self.game = game
        self.players = n = game.players
        self.deck = deck = game.deck
        self.D = D = deck.size
        self.Z = Z = len(layout.zone_names)
        lowered = program.ir  # (the IR the game was loaded with: lowered once, `compiler.lowered`)
        texts: set = set()
        _walk((lowered.setup, lowered.round, lowered.phases, lowered.var_inits), texts)
        self.texts = tuple(sorted(texts))
        self._text_index = {t: i for i, t in enumerate(self.texts)}
        self.blocks: list[Block] = []
        self._size = 0

        def block(name, size, meaning) -> int:
            b = Block(name, self._size, size, meaning)
            self.blocks.append(b)
            self._size += size
            return b.start

        self.zone_names = layout.zone_names
        self.cards_at = block("cards", Z * D, "zone by zone, card by card (deck order): 1 where the seat "
                              "knows that card lies in that zone")
        self.piles = np.array([z for z in range(Z) if layout.zone_kind[z] == "pile"], dtype=np.int64)
        self.tops_at = block("tops", len(self.piles) * D, "each pile zone: its top card, one-hot, if the "
                             "seat knows it")
        self.sizes_at = block("sizes", Z, "each zone's card count / deck size")
        # the declared variables: (slot, type, first index, name) for each, a per-player one per seat
        self.vars = []
        for name, (slot, t) in layout.var_slots.items():
            self.vars.append((slot, t, block(f"var {name}", self._width(t), self._meaning(t)), name))
        for name, (slot, t) in layout.pvar_slots.items():
            for seat in range(n):
                self.vars.append((slot + seat, t, block(f"var {name}(P{seat})", self._width(t), self._meaning(t)),
                                  f"{name}(P{seat})"))
        self.seat_at = block("seat", n, "the observing seat, one-hot")
        self.current_at = block("current player", n, "the seat to decide, one-hot (none at the end)")
        self.active_at = block("active", n, "1 for each seat still in play")
        self.winners_at = block("winners", n, "1 for each winner, once the game is over")
        self.choices = lowered.choices
        self.choice_at = block("choice", len(self.choices), "the pending choice, one-hot, by the "
                               "engine's choice index (a choice nested in another's alternative first)")
        self.terminal_at = block("terminal", 1, "1 once the game is over")
        self.round_at = block("round", 1, "the rounds begun, scaled")
        # what the seat was told of the cards it does not know (a game with `tell`: runtime/facts.py)
        self.facts = layout.facts
        self.facts_at = -1
        if layout.facts is not None:
            self.fact_row = layout.facts.width + Z
            self.facts_at = block("facts", D * self.fact_row, "row k: the k-th card the seat does not know, "
                                  "zone by zone, bottom first: 1 for each rank, then each suit (last: no suit), "
                                  "it was told the card has not; then its zone, one-hot")
        self.size = self._size
        self.low = np.zeros(self.size, dtype=np.float32)
        self.high = np.ones(self.size, dtype=np.float32)
        for slot, t, at, _ in self.vars:
            if t in (NUMBER, LIST):
                self.low[at:at + self._width(t)] = -SCALE_BOUND
                self.high[at:at + self._width(t)] = SCALE_BOUND
        self.high[self.round_at] = SCALE_BOUND
        # what `observation` writes, worked out once: the known cards' entries, the piles' tops,
        # the one-hot variables, the truths, then the entries that are not 1 (sizes, numbers, round)
        self._pile_at = [(self.tops_at + k * D, int(z)) for k, z in enumerate(self.piles)]
        self._one_hot = [(slot, at, t == CARD) for slot, t, at, _ in self.vars if t in (PLAYER, SUIT, RANK, ZONE, CARD)]
        self._bools = [(slot, at) for slot, t, at, _ in self.vars if t == BOOL]
        self._numbers = [(slot, at) for slot, t, at, _ in self.vars if t == NUMBER]
        self._number_slots = [slot for slot, _ in self._numbers]
        self._value_at = np.array([self.sizes_at + z for z in range(Z)] + [at for _, at in self._numbers]
                                  + [self.round_at], dtype=np.int64)
        self._value_list = self._value_at.tolist()
        self._size32 = [as_float32(k / D) for k in range(D + 1)]  # a count of cards / the deck's size
        self._others = [(slot, t, at) for slot, t, at, _ in self.vars if t in (PLAYERS, CARDS, TEXT, LIST)]
        self._init_actions(max_number)
        # the same vector written straight from a state by `runtime.seat_table.vector_of` (what
        # OpenSpiel's tensors use): for a vector with no card set, text, list or told facts
        self.plan = None if self._others or self.facts is not None else VectorPlan(
            self.size, D, self.cards_at, tuple(self._pile_at), self.sizes_at, self._size32, tuple(self._one_hot),
            tuple(self._bools), tuple(self._numbers), scaled32, self.seat_at, self.current_at, self.active_at,
            self.winners_at, self.choice_at, self.terminal_at, self.round_at)

    # ------------------------------------------------------------------ observation
    def _width(self, t: str) -> int:
        return {NUMBER: 1, BOOL: 1, PLAYER: self.players, PLAYERS: self.players, CARD: self.D + 1,
                CARDS: self.D + 1, SUIT: len(self.deck.suits), RANK: len(self.deck.ranks), ZONE: self.Z,
                TEXT: len(self.texts) + 1, LIST: LIST_ITEMS + 1}.get(t, 1)

    def _meaning(self, t: str) -> str:
        return {NUMBER: "the number, scaled", BOOL: "0 or 1", PLAYER: "the seat, one-hot (none: zeros)",
                PLAYERS: "1 for each seat in it", CARD: "the card, one-hot, if the seat knows it; the last "
                "entry 1 for a card it does not know", CARDS: "1 for each card in it the seat knows; the "
                "last entry: how many it does not know / deck size", SUIT: "the suit, one-hot",
                RANK: "the rank, one-hot", ZONE: "the zone, one-hot", TEXT: "the text, one-hot among the "
                "texts of the game's rules; the last entry for any other", LIST: "its first items, scaled, "
                "then its length, scaled"}.get(t, "")

    def observation(self, view, out: Optional[np.ndarray] = None) -> np.ndarray:
        """The vector of what the view's seat knows (`out`, if given, is filled in place).

        Few numpy calls: the known cards' entries at once from the table's arrays (no Python loop
        over the deck), then every other 1 and every other value each in one assignment."""
        t = view.table()
        if out is None:
            v = np.zeros(self.size, dtype=np.float32)
        else:
            v = out
            v.fill(0.0)
        cards = t.cards
        if len(cards) > FEW_CARDS:
            v[self.cards_at + t.zones * self.D + cards] = 1.0
        v[self._ones(t, len(cards) <= FEW_CARDS)] = 1.0
        v[self._value_at] = self._values(t)
        self._put_rest(v, t)
        return v

    def observation_list(self, view, more: int = 0) -> list:
        """`observation(view)` as a list of floats (each as the float32 array holds it), followed
        by `more` zeros: for a small vector a list costs less than an array's calls, and a list is
        what OpenSpiel hands out.

        The entries of `_ones` and `_values`, written one by one in plain loops (a comprehension
        is a call: on a small game most of the cost)."""
        t = view.table()
        v = [0.0] * (self.size + more)
        D = self.D
        at = self.cards_at
        for z, c in zip(t.zones.tolist(), t.cards.tolist()):
            v[at + z * D + c] = 1.0
        tops = t.tops
        for at, z in self._pile_at:
            top = tops[z]
            if top >= 0:
                v[at + top] = 1.0
        values = t.values
        for slot, at, card in self._one_hot:
            x = values[slot]
            if x is not None:
                v[at + (D if card and x < 0 else x)] = 1.0
        v[self.seat_at + t.seat] = 1.0
        if t.current_player != TERMINAL:
            v[self.current_at + t.current_player] = 1.0
        if t.terminal:
            v[self.terminal_at] = 1.0
            for w in t.winners:
                v[self.winners_at + w] = 1.0
        if t.choice >= 0:
            v[self.choice_at + t.choice] = 1.0
        at = self.active_at
        for on in t.active:
            if on:
                v[at] = 1.0
            at += 1
        for slot, at in self._bools:
            if values[slot]:
                v[at] = 1.0
        at = self.sizes_at
        size32 = self._size32
        for n in t.sizes:
            v[at] = size32[n]
            at += 1
        for slot, at in self._numbers:
            x = values[slot]
            if x:
                v[at] = scaled32(x)
        v[self.round_at] = scaled32(t.round)
        if self._others or t.told:
            self._put_rest(v, t)
        return v

    def _ones(self, t, cards: bool) -> list:
        """The indices whose entry is 1 (with `cards`, the known cards' entries among them)."""
        D = self.D
        if cards:  # (a few indices: Python's arithmetic is cheaper than numpy's on small arrays)
            at = self.cards_at
            hot = [at + z * D + c for z, c in zip(t.zones.tolist(), t.cards.tolist())]
        else:
            hot = []
        tops = t.tops
        hot.extend([at + top for at, z in self._pile_at if (top := tops[z]) >= 0])
        values = t.values
        hot.extend([at + (D if x < 0 else x) if card else at + x
                    for slot, at, card in self._one_hot if (x := values[slot]) is not None])
        hot.append(self.seat_at + t.seat)
        if t.current_player != TERMINAL:
            hot.append(self.current_at + t.current_player)
        if t.terminal:
            hot.append(self.terminal_at)
            hot.extend(self.winners_at + w for w in t.winners)
        if t.choice >= 0:
            hot.append(self.choice_at + t.choice)
        active_at = self.active_at
        hot.extend([active_at + p for p, on in enumerate(t.active) if on])
        hot.extend([at for slot, at in self._bools if values[slot]])
        return hot

    def _values(self, t) -> list:
        """The entries that are not 1, in `_value_at`'s order: zone sizes, numbers, the round (as
        float32 values: see `observation_list`)."""
        val = [self._size32[n] for n in t.sizes]
        values = t.values
        val.extend([scaled32(x) if (x := values[slot]) else 0.0 for slot in self._number_slots])
        val.append(scaled32(t.round))
        return val

    def _put_rest(self, v, t) -> None:
        """The variables of other types and the facts block (into an array or a list)."""
        values = t.values
        for slot, typ, at in self._others:
            self._put(v, at, typ, values[slot])
        if t.told:
            self._put_facts(v, t.told)

    def _put_facts(self, v, told: tuple) -> None:
        """The `facts` block: a row for each card the seat does not know, in place order."""
        width, row, at = self.facts.width, self.fact_row, self.facts_at
        for k, (z, field) in enumerate(told):
            start = at + k * row
            while field:
                low = field & -field
                v[start + low.bit_length() - 1] = 1.0
                field ^= low
            v[start + width + z] = 1.0

    def _put(self, v, at: int, t: str, x) -> None:
        """Writes one variable's value at `at` (see `_meaning` for each type)."""
        if x is None:
            return
        if t == NUMBER:
            v[at] = scaled32(x)
        elif t == BOOL:
            v[at] = float(bool(x))
        elif t in (PLAYER, SUIT, RANK, ZONE):
            v[at + x] = 1.0
        elif t == PLAYERS:
            for p in x:
                v[at + p] = 1.0
        elif t == CARD:
            v[at + (self.D if x < 0 else x)] = 1.0
        elif t == CARDS:
            hidden = 0
            for c in x:
                if c < 0:
                    hidden += 1
                else:
                    v[at + c] = 1.0
            v[at + self.D] = self._size32[hidden]
        elif t == TEXT:
            v[at + self._text_index.get(x, len(self.texts))] = 1.0
        elif t == LIST:
            for i, item in enumerate(x[:LIST_ITEMS]):
                v[at + i] = scaled32(item)
            v[at + LIST_ITEMS] = as_float32(scaled(len(x)))

    # --------------------------------------------------------------------- actions
    def _init_actions(self, max_number: int) -> None:
        """Index i of the action space: choice by choice, alternative by alternative, a run of
        indices: an option 1, a card the deck's size (by card id), a number `b + 1` (by value, `b`
        the range's end if it is a constant, else `max_number`)."""
        self.offsets = []  # choice index -> alternative -> (first index, width)
        self.alternatives = []  # action index run: (choice, alternative, first index, width, kind)
        at = 0
        for c, choose in enumerate(self.choices):
            row = []
            for a, alt in enumerate(choose.alternatives):
                if alt.kind == "option":
                    width = 1
                elif alt.kind == "card":
                    width = self.D
                elif alt.kind == "set":  # every numbered set of 16 places of its sizes (runtime/card_sets.py)
                    width = card_sets.width(alt.card_set[2], alt.high.value)
                else:
                    high = alt.high.value if isinstance(alt.high, ir.Const) else max_number
                    width = min(int(high), 0xFFFF) + 1
                row.append((at, width))
                self.alternatives.append((c, a, at, width, alt.kind))
                at += width
            self.offsets.append(row)
        self.num_actions = max(at, 1)
        self._indices = {}  # (choice, legal ids) -> their sorted indices (`legal_indices`)
        self.ids = {}  # (choice, index) -> the action id `action_of` gives, once asked (an adapter's step
        # reads it: a lookup, not a call; bounded by the action space)
        # index -> its run in `alternatives` (a list lookup: an environment step asks it every time)
        self._run_of = [-1] * self.num_actions
        for k, (_, _, start, width, _) in enumerate(self.alternatives):
            self._run_of[start:start + width] = [k] * width

    def index_of(self, choice: int, a: int) -> int:
        """The index of action id `a` (`alternative << 16 | value`) of choice `choice`."""
        start, width = self.offsets[choice][a >> 16]
        value = a & 0xFFFF
        if value >= width:
            raise ValueError(f"the number {value} lies beyond the {width - 1} this environment indexes "
                             "(a larger `max_number` makes room)")
        return start + value

    def action_of(self, choice: int, index: int) -> int:
        """The action id of index `index` in choice `choice` (a ValueError if it is not that choice's)."""
        k = self._run_of[index] if 0 <= index < len(self._run_of) else -1
        c, a, start, width, _ = self.alternatives[k] if k >= 0 else (-1, 0, 0, 0, "")
        if c != choice:
            raise ValueError(f"action index {index} is not one of the pending choice's")
        return (a << 16) | (index - start)

    def legal_indices(self, view) -> list:
        """The sorted indices of the view's legal actions (empty unless its seat decides)."""
        legal = view.legal_action_ids()
        return list(self.indices_of(view.choice, legal)) if legal else []

    def indices_of(self, choice: int, legal: tuple) -> tuple:
        """The sorted indices of action ids `legal` of choice `choice` (read only: kept)."""
        key = (choice, legal)
        got = self._indices.get(key)
        if got is None:  # (a game offers few distinct sets of legal ids: each is worked out once)
            got = tuple(sorted([self.index_of(choice, a) for a in legal]))
            if len(self._indices) < LEGAL_KEPT:
                self._indices[key] = got
        return got

    def mask(self, view) -> np.ndarray:
        """An int8 vector over the action space: 1 for each legal action of the view's seat."""
        m = np.zeros(self.num_actions, dtype=np.int8)
        legal = view.legal_action_ids()
        if legal:  # (straight from the ids, unsorted: one assignment)
            index_of, choice = self.index_of, view.choice
            m[[index_of(choice, a) for a in legal]] = 1
        return m

    def layout_text(self) -> str:
        """The vector's layout, one block a line (for docs and for people reading a vector)."""
        return "\n".join(f"{b.start:>6} +{b.size:<5} {b.name}: {b.meaning}" for b in self.blocks)
