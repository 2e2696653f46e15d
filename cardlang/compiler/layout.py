"""Where everything of a game lives in a `State`, for one player count and options.

Both engines (the compiled one and the reference interpreter) run over this one layout, so that
their states are comparable field by field: zone ids, the seats each zone shows its cards to, the
slots of the declared variables in `state.v`, the rank orders and hand rankings as card tables.
Slots after `nslots` belong to each engine's own locals (loop variables, `let`, parameters).
"""

from __future__ import annotations

from typing import Optional

import attrs

from ..lang import ast
from ..lang.check import CARD, CARDS, Symbols
from ..lang.check_teams import team_seats
from ..lang.decks import plan_deck
from ..runtime.cards import Deck
from ..runtime.facts import Facts
from ..runtime.pots import PotSpec


@attrs.define(frozen=True, eq=False)
class Layout:
    """The state layout of a game for a player count and options (see the module's docstring)."""

    players: int
    deck: Deck
    title: str
    step: int  # +1: play moves left (clockwise); -1: right
    all: int  # the mask of every seat
    ring: tuple  # ring[s]: every seat in the direction of play, starting at s
    zone_names: tuple  # zone id -> its name, `hand(P2)` for a per-player zone
    zone_owner: tuple  # zone id -> the seat owning it, or -1
    zone_vis: tuple  # zone id -> mask of the seats that see the cards in it
    zone_kind: tuple  # zone id -> "pile" or "row"
    zone_families: dict  # zone name -> (first zone id, per player)
    first_zone: int  # where the deck lies when the game starts
    orders: dict  # order name -> card id -> 1-based position of its rank (0: not in the order)
    rankings: dict  # ranking name -> (Ranking, card id -> the evaluator's card code)
    var_slots: dict  # variable -> (slot, type)
    pvar_slots: dict  # per-player variable -> (first slot, type); seat s at first slot + s
    nslots: int  # slots the declared variables take, from 0
    card_slots: tuple  # declared slots holding a card (or none)
    cards_slots: tuple  # declared slots holding a tuple of cards
    zone_counts: dict = attrs.Factory(dict)  # numbered family (`7 piles`) -> its piles, `column(1)` first
    melds: object = None  # the `melds` declaration's `runtime.melds.MeldRule`, if the game has one
    # partnerships (`teams …`): each team's seats, the team of each seat, the per-team variables
    teams: tuple = ()  # team k -> its seats, in seat order; () without teams
    team_of: tuple = ()  # seat -> its team
    tvar_slots: dict = attrs.Factory(dict)  # per-team variable -> (first slot, type); team k at first slot + k
    pots: dict = attrs.Factory(dict)  # pot name -> its `runtime.pots.PotSpec` (slots after the variables)
    facts: object = None  # `runtime.facts.Facts` for a game that tells facts of cards (`tell …`), else None
    named_values: dict = attrs.Factory(dict)  # `values strain: …` -> its names in order (a value is its place)
    combos: object = None  # the `combinations` declaration's `runtime.climbing.ClimbRule`, if the game has one
    group_zones: frozenset = frozenset()  # the zones declared with `groups` (runtime/groups.py)


def build_layout(symbols: Symbols, players: int, deck: Deck) -> Layout:
    """The layout of a checked game for `players` seats and the deck its options select."""
    all_ = (1 << players) - 1
    step, ring = seat_ring(players, symbols.direction)
    # zones: a shared zone is one instance, a per-player zone one per seat
    names, owner, vis, kind, families = [], [], [], [], {}
    for name, (per_player, visibility, zone_kind) in symbols.zones.items():
        families[name] = (len(names), per_player)
        piles = symbols.zone_counts.get(name)
        for seat in range(players if per_player else piles or 1):
            names.append(f"{name}(P{seat})" if per_player else f"{name}({seat + 1})" if piles else name)
            owner.append(seat if per_player else -1)
            vis.append({"public": all_, "private": 1 << seat if per_player else 0, "hidden": 0,
                        "facing away": all_ & ~(1 << seat) if per_player else 0}[visibility])
            kind.append(zone_kind)
    shared = [b for b, pp in families.values() if not pp]
    first_zone = shared[0] if shared else 0
    if not names:
        names, owner, vis, kind = ["deck"], [-1], [0], ["pile"]
    # orders: card id -> 1-based position of its rank (0 for ranks the order leaves out)
    orders = {}
    for name, d in symbols.orders.items():
        pos = {r: i + 1 for i, (r, _) in enumerate(d.ranks)}
        orders[name] = tuple(pos.get(deck.rank_name(c), 0) for c in range(deck.size))
    for name, d in symbols.values.items():  # a `values` table is used as `pips(c)`, like an order
        by_rank = {r: n for r, n, _ in d.items}
        orders[name] = tuple(by_rank.get(deck.rank_name(c), 0) for c in range(deck.size))  # (named cards too)
    rankings = {name: _ranking(symbols, deck, d) for name, d in symbols.rankings.items()}
    # variables first, then per-player variables, from slot 0
    slot, var_slots, pvar_slots, card_slots, cards_slots = 0, {}, {}, [], []
    for table, out, width in ((symbols.vars, var_slots, 1), (symbols.pvars, pvar_slots, players)):
        for name, sym in table.items():
            out[name] = (slot, sym.type)
            if sym.type in (CARD, CARDS):
                (card_slots if sym.type == CARD else cards_slots).extend(range(slot, slot + width))
            slot += width
    teams = team_seats(symbols.teams, players) if symbols.teams is not None else None
    teams = teams or ()
    team_of = tuple(next(k for k, t in enumerate(teams) if s in t) for s in range(players)) if teams else ()
    tvar_slots = {}  # per-team variables after the others: one slot a team
    for name, sym in symbols.tvars.items():
        tvar_slots[name] = (slot, sym.type)
        if sym.type in (CARD, CARDS):
            (card_slots if sym.type == CARD else cards_slots).extend(range(slot, slot + len(teams)))
        slot += len(teams)
    pots = {}
    for name, d in symbols.pots.items():  # each pot's slots follow the variables'
        pots[name] = PotSpec(name, slot, players, pvar_slots[d.stacks][0], ring)
        slot += pots[name].size
    return Layout(players, deck, symbols.title, step, all_, ring, tuple(names), tuple(owner), tuple(vis),
                  tuple(kind), families, first_zone, orders, rankings, var_slots, pvar_slots, slot,
                  tuple(card_slots), tuple(cards_slots), dict(symbols.zone_counts), _meld_rule(symbols, deck, orders),
                  teams, team_of, tvar_slots, pots, Facts(deck, players) if symbols.facts else None,
                  {name: tuple(n for n, _ in d.items) for name, d in symbols.named_values.items()},
                  _climb_rule(symbols, deck, orders), frozenset(symbols.group_zones))


def seat_ring(players: int, direction: str) -> tuple:
    """(step, ring): +1 or -1 as play moves left or right, and ring[s], every seat from s in that way."""
    step = 1 if direction == "left" else -1
    return step, tuple(tuple((s + step * i) % players for i in range(players)) for s in range(players))


def _ranking(symbols: Symbols, deck: Deck, d: ast.RankingDecl):
    from ..runtime.poker import Ranking  # the evaluator's tables are built only for games that rank hands

    order = [r for r, _ in symbols.orders[d.order].ranks]
    ranking = Ranking.from_categories([c for c, _ in d.categories], ace_low_straight=d.ace_low)
    # code = position of the rank in the ranking's order (0 = lowest) * 4 + suit
    pos = {r: i for i, r in enumerate(order)}
    offset = 13 - len(order)  # a shorter order sits at the top of poker's 13 ranks
    codes = tuple((pos.get(deck.rank_name(c), 0) + offset) * 4 + max(0, deck.card_suit[c]) % 4
                  for c in range(deck.size))
    return ranking, codes


def _meld_rule(symbols: Symbols, deck: Deck, orders: dict):
    """The `MeldRule` of the game's `melds` declaration (None without one)."""
    if symbols.melds is None:
        return None
    from ..runtime.melds import MeldRule

    rule = symbols.meld_rule
    points = orders[rule["deadwood"]] if "deadwood" in rule else (1,) * deck.size
    run_min, order = rule.get("runs", (None, None))
    run_order = [deck.ranks.index(r) for r, _ in symbols.orders[order].ranks] if order else []
    ace_rank = deck.ranks.index("A") if "A" in deck.ranks else None
    return MeldRule(deck.card_rank, deck.card_suit, len(deck.ranks), len(deck.suits), points,
                    rule.get("sets"), run_min, run_order, rule.get("ace"), ace_rank)


def _climb_rule(symbols: Symbols, deck: Deck, orders: dict):
    """The `ClimbRule` of the game's `combinations` declaration (None without one)."""
    d = symbols.combinations
    if d is None:
        return None
    from ..runtime.climbing import ClimbRule

    return ClimbRule(orders[d.order], deck.card_rank, deck.rank_name, dict(symbols.combination_kinds))


def choose_deck(symbols: Symbols, truth, options: Optional[dict] = None) -> Deck:
    """The deck of the first `deck … if cond` choice whose condition `truth(cond)` holds, its counts
    that name options (`with shoe decks`) read from `options`."""
    for cond, spec in symbols.deck.choices:
        if cond is None or truth(cond):
            plan = plan_deck(spec, options)[0]  # (a checked game's deck has no problem)
            return Deck.build(plan.name, plan.ranks, plan.suits, plan.jokers, **plan.build_args())
    raise AssertionError("no deck applies")  # unreachable: the last choice has no condition




def slot_names(layout: Layout) -> dict:
    """The rule's name of each declared slot of `state.v`, for a reader of generated code: a
    variable's own; a per-player (per-team) variable's for the slot of seat (team) 0, which code
    indexes from, and `name_P1` (`name_T1`) … for the others; a pot's name for each of its slots."""
    names = {slot: name for name, (slot, _) in layout.var_slots.items()}
    for table, width, mark in ((layout.pvar_slots, layout.players, "P"), (layout.tvar_slots, len(layout.teams), "T")):
        for name, (first, _) in table.items():
            names.update({first + k: f"{name}_{mark}{k}" if k else name for k in range(width)})
    for name, spec in layout.pots.items():
        names.update({slot: f"pot_{name}" for slot in range(spec.base, spec.base + spec.size)})
    return names
