"""Walks over a lowered game's IR: what the emitter knows before it writes it (the slots that never
hold none, whether two zones can be the same), and what both engines ask of it (whether a rule reads
who knows a card, whether a phase played spends a step). Here, beside the IR, so that the reference
interpreter asks it without importing the emitter.

A variable bound to each card of a zone, or of one card that is there (a `for each`, an aggregate,
a card to choose), holds a card id, never none, unless some `set` writes that slot; the emitter
then reads its rank or suit without testing for none.
"""

from __future__ import annotations

import attrs

from . import ir

_CARD_SOURCES = (ir.ZoneCards, ir.Maybe)


def _walk(node, seen: set):
    """Every IR node under `node` (phases once)."""
    if isinstance(node, (tuple, list)):
        for x in node:
            yield from _walk(x, seen)
        return
    if isinstance(node, ir.Phase):
        if id(node) in seen:
            return
        seen.add(id(node))
        yield from _walk(node.body, seen)
        return
    if not attrs.has(type(node)):
        return
    yield node
    for f in attrs.fields(type(node)):
        if f.name != "span":
            yield from _walk(getattr(node, f.name), seen)


def walk(roots):
    """Every IR node under `roots` (a node, or lists and tuples of them), each phase's body once."""
    return _walk(roots, set())


def _is_card_source(e) -> bool:
    return isinstance(e, _CARD_SOURCES) or (isinstance(e, ir.Const) and isinstance(e.value, tuple)
                                            and all(type(c) is int for c in e.value))


def never_none(program: ir.Program) -> frozenset:
    """The slots bound only to cards of a zone (or of a card there) that no statement writes."""
    seen: set = set()
    nodes = list(_walk(_roots(program), seen))
    written = {n.target.slot for n in nodes if isinstance(n, (ir.Assign, ir.Increase))
               and isinstance(n.target, ir.SlotTarget)}
    bound = set()
    for n in nodes:
        if isinstance(n, (ir.ForEach, ir.Aggregate)) and _is_card_source(n.seq):
            bound.add(n.slot)
        elif isinstance(n, ir.Alternative) and n.kind == "card" and n.slot is not None and _is_card_source(n.source):
            bound.add(n.slot)
    return frozenset(bound - written)


def seat_slots(program: ir.Program) -> frozenset:
    """The slots bound only to the items of a `players` expression (a `for each` or an aggregate over
    seats still in play): each holds a seat, never none, as nothing else binds, sets or passes into
    them (a field naming a slot anywhere else, a phase's or a define's parameter, a pick's, the
    program's own slots: each rules its slot out). A choice by such a seat needs no check of it."""
    nodes = list(_walk(_roots(program) + [program.payoff], set()))
    bound, other = set(), set()
    for n in nodes:
        for f in attrs.fields(type(n)):
            if f.name == "span" or isinstance(n, ir.Slot) or "slot" not in f.name and f.name != "card_set":
                continue
            value = getattr(n, f.name)
            slots = [x for x in (value if isinstance(value, tuple) else (value,)) if type(x) is int]
            if f.name == "slot" and isinstance(n, (ir.ForEach, ir.Aggregate)) and isinstance(n.seq, ir.Players):
                bound.update(slots)
            else:
                other.update(slots)
        if isinstance(n, ir.CallPhase):
            other.update(n.phase.slots)
    for phase in program.phases.values():
        other.update(phase.slots)
    other.update(slot for slot, _, _ in program.var_inits)
    other.update(x for x in (program.score[0] if program.score else None, program.sitting_slot,
                             program.reverse_slot, program.group_slot) if x is not None)
    for at in program.at_once:
        other.update((at.seats_slot, at.picks_slot, at.player_slot, at.action_slot))
    return frozenset(bound - other)


def reads_knowledge(program: ir.Program) -> bool:
    """Whether a rule reads who knows a card (`is face up`): then no state may leave it untracked."""
    seen: set = set()
    return any(isinstance(n, ir.FaceUp) for n in _walk(_roots(program), seen))


def _roots(program: ir.Program) -> list:
    return [program.setup, program.round, list(program.phases.values()),
            [e for _, _, e in program.var_inits], program.score[1] if program.score else ()]


def statements(stmts) -> list:
    """Every statement under `stmts`, those of the phases they play included (each phase once)."""
    return [n for n in _walk(list(stmts), set()) if isinstance(n, ir.Stmt)]


class _EveryPhase:
    """A `seen` set for `_walk` that holds every phase: the walk stays out of the phases played."""

    def __contains__(self, item) -> bool:
        return True


_EVERY_PHASE = _EveryPhase()


def written_size(stmts, sizes=None) -> int:
    """How many statements `stmts` are once the phases they play are written where they are played
    (a phase played twice counts twice: phases that each play the next twice double at each level)."""
    sizes = {} if sizes is None else sizes
    total = 0
    for n in _walk(list(stmts), _EVERY_PHASE):  # (phases not entered: each call counts its phase here)
        if isinstance(n, ir.Stmt):
            total += 1
        if isinstance(n, ir.CallPhase):
            phase = n.phase
            if id(phase) not in sizes:
                sizes[id(phase)] = 0  # (a phase never plays itself, E023: no loop to guard against)
                sizes[id(phase)] = written_size(phase.body, sizes)
            total += sizes[id(phase)]
    return total


# The most statements the rules may hold once their phases are written where they are played, for a
# round to be written as one function (`rounds.py`) and for a phase played to cost no step: below it,
# phases cannot multiply the work of a run (the largest game's round is 267 statements, a solitaire's).
MAX_WRITTEN_STATEMENTS = 5_000


def phases_spend_steps(program: ir.Program) -> bool:
    """Whether a phase played spends a step of the run's budget, in both engines: only when the rules
    written out with their phases in place pass `MAX_WRITTEN_STATEMENTS` (phases that each play the
    next twice); otherwise the work between two steps is bounded without it."""
    sizes: dict = {}
    return written_size(program.setup, sizes) + written_size(program.round, sizes) > MAX_WRITTEN_STATEMENTS


def writes(stmts, slot: int) -> bool:
    """Whether a statement under `stmts` (phases played included) sets slot `slot`."""
    return any(isinstance(n, (ir.Assign, ir.Increase)) and isinstance(n.target, ir.SlotTarget)
               and n.target.slot == slot or isinstance(n, ir.Lay) and n.slot == slot for n in statements(stmts))


def reads_apart(node) -> bool:
    """Whether an expression under `node` (statements, phases played included, or an expression) is
    worked out by a function of its own that reads the slots it needs from the state, not from the
    locals of the code around it: a `best … by`'s score."""
    return any(isinstance(n, ir.BestScorers) for n in walk(node))


def draws(node) -> bool:
    """Whether an expression may draw the state's chance (`random`)."""
    if isinstance(node, ir.Builtin) and node.name == "random":
        return True
    return any(draws(x) for x in children(node))


def reads(node, slot: int) -> bool:
    """Whether an expression reads slot `slot` anywhere in it."""
    if isinstance(node, ir.Slot):
        return node.slot == slot
    return any(reads(x, slot) for x in children(node))


def children(node):
    """The IR nodes directly under an expression."""
    for f in attrs.fields(type(node)):
        if f.name == "span":
            continue
        value = getattr(node, f.name)
        for x in value if isinstance(value, tuple) else (value,):
            if attrs.has(type(x)):
                yield x


def zone_ids(e, players: int):
    """The zone ids a zone expression can give (a constant, a per-player zone, a numbered pile),
    or None when the emitter cannot tell."""
    if isinstance(e, ir.Const) and type(e.value) is int:
        return range(e.value, e.value + 1)
    if isinstance(e, ir.PlayerZone):  # (one seat's, or several seats')
        return range(e.base, e.base + players)
    if isinstance(e, ir.PileZone):
        return range(e.base, e.base + e.count)
    return None


def apart(a, b, players: int) -> bool:
    """Whether zone expressions `a` and `b` never give the same zone."""
    x, y = zone_ids(a, players), zone_ids(b, players)
    return x is not None and y is not None and (x.stop <= y.start or y.stop <= x.start)
