"""A chance source that plays back given outcomes, for adapters that enumerate chance (OpenSpiel).

Set as a state's chance (`Game.new_initial_state(chance=Script())`, or `state.rng = …`), it is
asked by `runtime/rng.py` for every shuffle and `random` draw of either engine. It gives the next
outcome it holds; when it has none left it raises `NeedChance`, which names the event (the cards
a shuffle orders, how many items a draw picks among, or the cards a deal may take). The adapter
then offers that event's outcomes, and plays the step again from its start with one more outcome.
A script is immutable: clones of a state share it safely.

**Lazy piles.** A shuffle of a zone of `lazy` (`lazy_zones`: a hidden pile that the rules only
shuffle, deal from and count) orders nothing and asks nothing: the script notes the zone's cards
as *open* (their places not chosen yet) and leaves the list as it lies. When a deal is about to
take the top k cards of the zone (`runtime.steps.settle`, called by both engines), each of those
places that holds an open card is chosen then, top first, uniformly among the open cards still in
the zone (a "card" event), and that card is swapped into the place. That is a shuffle drawn lazily,
with the same distribution (a shuffle's places are exchangeable until something reads them), so an
OpenSpiel tree has chance where a card is dealt, at its natural size (docs/research.md gives the
figures: the states of drawing a card when it is dealt, against those of drawing the whole stock up
front). Nothing but a deal reads the order of
a lazy zone (the analysis guarantees it), and no seat knows an open card's place (the zone is
hidden and was shuffled), so the swap changes nothing any seat or rule has read.
"""

from __future__ import annotations

from typing import Optional

from ..compiler import ir
from ..compiler.ir_facts import walk
from ..runtime.rng import NoOutcome


class NeedChance(NoOutcome):
    """The chance source holds no outcome for the next chance event: `kind` "shuffle" (`data`: the
    cards of the pile, in the order they lay), "draw" (`data`: how many items to pick among) or
    "card" (`data`: the open cards of a lazy pile a deal may take next, ascending, and how many
    successive cards the deal takes among them before the step can go on: chosen one after the
    other, without playing the step again between them)."""

    def __init__(self, kind: str, data):
        super().__init__(kind, data)
        self.kind = kind
        self.data = data


class Script:
    """The outcomes of successive chance events: for a shuffle, the pile's cards top first; for a
    draw, the index picked; for a card dealt from a lazy pile, its id. `at` counts the events
    already played; `lazy` the zones shuffled lazily; `open` (zone id, frozenset) the cards of each
    lazy zone whose places are not chosen yet."""

    __slots__ = ("outcomes", "at", "lazy", "open")

    def __init__(self, outcomes: tuple = (), at: int = 0, lazy: frozenset = frozenset(), open: tuple = ()):
        self.outcomes = outcomes
        self.at = at
        self.lazy = lazy
        self.open = open

    def again(self, outcomes: tuple) -> "Script":
        """A script for the next step: `outcomes` from the first, the same lazy zones and open cards."""
        if not outcomes and not self.outcomes:  # (none given, none held: this script, as it is)
            return self
        return Script(outcomes, 0, self.lazy, self.open)

    def _opened(self, zone: int, cards: Optional[frozenset]) -> tuple:
        rest = ()
        for z, c in self.open:  # (a plain loop: a game has a lazy zone or two)
            if z != zone:
                rest += ((z, c),)
        return rest + ((zone, cards),) if cards else rest

    def shuffle(self, pile: list, zone: int = -1) -> "Script":
        """Puts `pile` in the scripted order (the end of the list is the top); the next script. A
        lazy zone's pile stays as it lies, every card of it open."""
        if zone in self.lazy:
            return Script(self.outcomes, self.at, self.lazy, self._opened(zone, frozenset(pile)))
        if len(pile) <= 1:  # nothing to choose: no chance event
            return self
        if self.at >= len(self.outcomes):
            raise NeedChance("shuffle", tuple(pile))
        pile[:] = self.outcomes[self.at][::-1]
        return Script(self.outcomes, self.at + 1, self.lazy, self.open)

    def settle(self, pile: list, zone: int, k: int) -> "Script":
        """Chooses the cards of the top `k` places of a lazy zone that hold an open card, top first
        (each a scripted card among the open ones still there, swapped into the place); the next
        script."""
        cards = None
        for z, c in self.open:
            if z == zone:
                cards = c
                break
        if not cards:
            return self
        at, outcomes = self.at, self.outcomes
        low = max(len(pile) - k, 0)
        left = cards.intersection(pile)  # the open cards still in the pile
        picked = []
        for i in range(len(pile) - 1, low - 1, -1):
            if pile[i] not in left:
                continue
            if len(left) == 1:
                pick = pile[i]  # (the last open card, in its place: no choice)
            elif at >= len(outcomes):
                # the open places this deal takes from here on (a pick leaves the others open), the
                # last open card of the pile, if it is one of them, going to its place without a choice
                places = sum(1 for j in range(i, low - 1, -1) if pile[j] in left)
                raise NeedChance("card", (tuple(sorted(left)), min(places, len(left) - 1)))
            else:
                pick = outcomes[at]
                at += 1
                if pick not in left:
                    raise ValueError(f"scripted card {pick} is not an open card of zone {zone}")
            j = pile.index(pick)
            pile[i], pile[j] = pile[j], pile[i]
            left = left - {pick}
            picked.append(pick)
        return Script(outcomes, at, self.lazy, self._opened(zone, cards.difference(picked)))

    def randbelow(self, n: int) -> tuple:
        """(the scripted index below `n`, the next script)."""
        if n <= 1:
            return 0, self
        if self.at >= len(self.outcomes):
            raise NeedChance("draw", n)
        return self.outcomes[self.at], Script(self.outcomes, self.at + 1, self.lazy, self.open)

    def __eq__(self, other) -> bool:
        return isinstance(other, Script) and (self.outcomes, self.at, self.lazy, self.open) == \
            (other.outcomes, other.at, other.lazy, other.open)

    def __repr__(self) -> str:
        return f"Script({self.outcomes!r}, {self.at}, {set(self.lazy) or ''}, {self.open or ''})"


# zone fields of the statements that read a zone's cards in their order (ZoneCards aside: below).
# Cards put into a lazy zone are not open (their places are known) until the zone is shuffled again.
_READS = {ir.Deal: ("source",), ir.SwapZones: ("left", "right"), ir.ForgetOrder: ("zone",)}


def lazy_zones(program) -> frozenset:
    """The zones a chance source may shuffle lazily (see the module's docstring): the shared piles
    no seat sees whose cards the rules only shuffle, deal from the top (`deal N from z`) and count
    (`count(z)`); cards put into one are not open until it is shuffled again. Any zone worked out
    at run time (a zone variable or parameter) where the rules read cards makes none lazy: the
    analysis cannot tell which it is."""
    layout = program.layout
    families = [(base, per_player or name in layout.zone_counts)
                for name, (base, per_player) in layout.zone_families.items()]
    candidates = {base for base, many in families if not many
                  and layout.zone_vis[base] == 0 and layout.zone_kind[base] == "pile"}
    if not candidates:
        return frozenset()
    prog = program.ir
    roots = [prog.setup, prog.round, list(prog.phases.values()), [e for _, _, e in prog.var_inits],
             prog.score[1] if prog.score else (), prog.payoff or (), list(prog.at_once)]
    counted = set()  # ids of the `ZoneCards` nodes that `count(…)` reads (their order is not read)
    out = set(candidates)
    for n in walk(roots):
        if isinstance(n, ir.Builtin) and n.name == "count" and n.args and isinstance(n.args[0], ir.ZoneCards):
            counted.add(id(n.args[0]))
        elif isinstance(n, ir.ZoneCards) and id(n) not in counted:
            out -= _zones_of(n.zone, candidates)
        elif isinstance(n, ir.SwapCards):  # (a card's place taken by identity: kept simple)
            return frozenset()
        for f in _READS.get(type(n), ()):
            if not (isinstance(n, ir.Deal) and f == "source" and isinstance(n.source, ir.Const)):
                out -= _zones_of(getattr(n, f), candidates)
        if not out:
            break
    return frozenset(out)


def _zones_of(e, candidates: set) -> set:
    """The candidate zones zone expression `e` may be: its constant(s), none for a per-player zone
    or a numbered pile (other zone ids), every candidate for anything worked out at run time."""
    if isinstance(e, ir.Const):
        value = e.value
        return set(value) & candidates if isinstance(value, tuple) else {value} & candidates
    if isinstance(e, (ir.PlayerZone, ir.PileZone)):
        return set()
    if isinstance(e, ir.Tuple):
        return set().union(*(_zones_of(x, candidates) for x in e.items)) if e.items else set()
    return set(candidates)
