"""The native engine's switchable optimisations: each is exact (the same games, draw for draw), and
the differential tests (tests/test_native.py) play the games with each switched off as well as on.

`Optimisations()` switches all on (what `cardlang.load(..., engine="native")` uses); the emitter
reads it, so a switch changes the generated source (and with it the cache key).
"""

from __future__ import annotations

import attrs


@attrs.frozen
class Optimisations:
    """Which optimisations the native emitter writes (all on by default)."""

    # The generated functions are compiled without numba's reference counting (`_nrt=False`): they
    # allocate nothing (the state's arrays are `play`'s), so each call and each row view of an
    # array would otherwise cost atomic increments and decrements.
    no_refcounts: bool = True
    # `move <a zone's cards> to …` moves the zone's cards in one step (`steps.move_zone`), not
    # copied to a scratch row and each taken out of its zone.
    zone_moves: bool = True
    # `move <a card> to …` (`move c to played(p)`, `move top of stock to …`: a card or none) moves
    # it by `steps.move_card`, written in place, not through a scratch row and `move`'s calls.
    card_moves: bool = True
    # A random bot's draw among a choice's legal actions (`steps.pick_inline`) is written where the
    # choice is (inlined, with the generator's word), the draw's bit count read from a table.
    bot_draws: bool = True
    # A zone's cards moved in one step (`zone_moves`) by `steps.move_zone_inline`, written where the
    # move is (inlined by LLVM), not called.
    inline_zone_moves: bool = True
    # A game's start seeds each bot's generator (CPython's Mersenne Twister) in one pass, their
    # chains of dependent steps interleaved (`steps.reseed_rows`), not one after the other.
    interleaved_seeding: bool = True
    # `move <every card of the deck, each once> to …` (`move all cards to stock`) empties every
    # pile and fills the destination in one pass (`steps.move_deck`), not copied to a scratch row
    # and filtered out of each pile (`steps.move`).
    deck_moves: bool = True
    # A choice's filter (`where`) decides with no branch whether the action it tried stays in the
    # legal list (the action written at the list's end, the length grown by 0 or 1): the
    # processor does not mispredict each card's kept-or-not.
    branchless_offers: bool = True
    # `<a zone's cards> has …` reads every card of the zone, or-ing their matches, with no exit at
    # the first (a mispredicted branch a card), the zone's cards being cards (each table read
    # in bounds).
    branchless_has: bool = True
    # A generated function called from one place only (a phase, a choice's alternative, a `define`,
    # the round) and at most `emit.INLINE_LINES` long is compiled inline there (LLVM's
    # `alwaysinline`): no call passing the state's thirteen arrays field by field, and the
    # caller's and callee's code optimised as one.
    inline_calls: bool = True
    # A card moved by `card_moves` leaves its pile in one pass that copies each other card down
    # (`steps.move_card_compact`), not a search that stops at the card (mispredicted) and a shift.
    compact_moves: bool = True
    # The bots' generators seeded (`interleaved_seeding`) four at a time, each chain's last word in
    # a register (`steps.reseed_quads`), not stored to its row and read back at every step.
    register_seeding: bool = True
    # A shuffle (`rng.chance_shuffle_pairs`) takes its draw's mixed-radix digits two at a time, the
    # divisions of a pair worked out side by side (a division's latency bounds a shuffle).
    paired_digits: bool = True

    @classmethod
    def each_off(cls) -> list:
        """One `Optimisations` per switch, that switch off and the others on (for the tests)."""
        return [cls(**{f.name: False}) for f in attrs.fields(cls)]

    def names_off(self) -> list:
        """The names of the switches that are off."""
        return [f.name for f in attrs.fields(type(self)) if not getattr(self, f.name)]


ALL_ON = Optimisations()
ALL_OFF = Optimisations(**{f.name: False for f in attrs.fields(Optimisations)})
