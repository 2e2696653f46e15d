"""The typed intermediate representation of a checked game: what the reference interpreter runs.

Lowering (`compiler.lower`) resolves every name: a variable or a local is a slot of `state.v`, a
zone a zone id, an option or a rank a constant, a phase a link to its `Phase`. Conversions that
the checker's types imply (the cards of a zone, a card as a list of one) are explicit nodes. No
node holds Python source. Every node has the `Span` of the rule it comes from.
"""

from __future__ import annotations

from typing import Optional

import attrs

from ..lang.diagnostics import Span
from ..lang.nodes import node
from .ir_base import Expr, Stmt
from .ir_tables import PotAward, PotRule, PotValue, TeamTable  # noqa: F401  (re-exported: the engines read them as `ir.X`)


# ---------------------------------------------------------------- expressions
@node
class Const(Expr):
    """A value known when the game is loaded: a number, a bool, none, a text, an option's value, a
    zone id, a rank or suit index, a tuple of seats or cards."""

    value: object


@node
class Slot(Expr):
    """The value in slot `slot` of `state.v`: a variable, a local, a parameter, a loop variable."""

    slot: int


@node
class PlayerVar(Expr):
    """`var(p)`: the slot `base + p` of a per-player variable (of a per-team variable, `p` a team number)."""

    base: int
    player: Expr


@node
class PlayerZone(Expr):
    """`zone(p)`: the zone id `base + p`; with `many`, a tuple of ids for a tuple of players."""

    base: int
    player: Expr
    many: bool


@node
class PileZone(Expr):
    """`family(k)`: the zone id `base + k - 1` of pile k of a numbered family of `count` piles (a
    rule error for k outside 1..count)."""

    family: str
    base: int
    count: int
    index: Expr


@node
class FaceUp(Expr):
    """`c is face up`: every seat knows card `c` (false for none)."""

    card: Expr


@node
class GroupOf(Expr):
    """`group of c`: the cards of the group card `c` lies in, when it lies in one of the zones of
    groups `zones` (its groups' numbers in slot `slot`: runtime/groups.py); no cards otherwise."""

    card: Expr
    slot: int
    zones: frozenset


@node
class PositionOf(Expr):
    """`position of c in cards`: the 1-based place of `c` from the bottom, 0 when not there; the card
    is worked out first."""

    card: Expr
    cards: Expr


@node
class Range(Expr):
    """`lo..hi`: the whole numbers from lo to hi as a tuple (empty when hi < lo; a rule error past
    `runtime.effects.MAX_RANGE` numbers)."""

    low: Expr
    high: Expr


@node
class ZoneCards(Expr):
    """The cards of a zone, bottom first, as a tuple."""

    zone: Expr


@node
class Maybe(Expr):
    """A card or a player as a tuple: empty for none, else of one."""

    value: Expr


@node
class Tuple(Expr):
    """`[a, b, c]`: a tuple of values."""

    items: tuple


@node
class Index(Expr):
    """`seq[i]`: the i-th item, counting from 1 (an error outside 1..len)."""

    seq: Expr
    index: Expr


@node
class Negate(Expr):
    """`-x`."""

    operand: Expr


@node
class Not(Expr):
    """`not x`."""

    operand: Expr


@node
class And(Expr):
    """`a and b`: b only when a holds."""

    left: Expr
    right: Expr


@node
class Or(Expr):
    """`a or b`: b only when a does not hold."""

    left: Expr
    right: Expr


@node
class Conditional(Expr):
    """`then if cond else otherwise`: the condition first, then one side."""

    cond: Expr
    then: Expr
    otherwise: Expr


def constant(e: Expr) -> bool:
    """Whether `e` is a number written in the rules (`1`, `-1`, an option's value): a sum with one
    grows by no more than it at each step, so the run budget of numbers checks it only by `*`
    (`runtime/budget.py`)."""
    return isinstance(e, Const) or (isinstance(e, Negate) and isinstance(e.operand, Const))


@node
class Arith(Expr):
    """`a + b`, `a - b`, `a * b` on numbers; `/` (whole division, rounding down) and `%` work out b
    first and refuse a zero."""

    op: str
    left: Expr
    right: Expr


@node
class Compare(Expr):
    """`==`, `!=`, `<`, `>`, `<=`, `>=`."""

    op: str
    left: Expr
    right: Expr


@node
class Concat(Expr):
    """`a + b` on sequences: the items of a, then those of b."""

    left: Expr
    right: Expr


@node
class In(Expr):
    """`item in seq`."""

    item: Expr
    seq: Expr


@node
class Except(Expr):
    """`seq except other`: the items of seq not in `other` (a sequence if `many`, else one value),
    which is worked out only if seq has an item."""

    seq: Expr
    other: Expr
    many: bool


@node
class Is(Expr):
    """`x is pattern` (`negate`: `is not`): with `table` ("rank", "suit" or "face": a card literal's
    rank and suit, which copies share), the card's rank, suit or face equals the pattern (a none
    card never does); without, the values are equal."""

    value: Expr
    pattern: Expr
    table: Optional[str]
    negate: bool


@node
class Has(Expr):
    """`cards has pattern`: some card has that rank, suit or face (`table`), or is that card (no
    table); the pattern is worked out first."""

    cards: Expr
    pattern: Expr
    table: Optional[str]


@node
class Neighbour(Expr):
    """The first seat still in play after `player`, going `step` seats at a time (the player itself
    if nobody else is)."""

    step: int
    player: Expr
    reverse: Optional[int] = None  # `next of`: the slot that is true while play is reversed, if it can be


@node
class EndCards(Expr):
    """`top/bottom [n] of seq`: one item (none if empty) or, with `count`, a tuple of up to n.
    For cards the top is the end of the tuple; for players, the first."""

    top: bool
    seq: Expr
    count: Optional[Expr]
    players: bool


@node
class Players(Expr):
    """`players [from a [to b]]`: the seats still in play, in the direction of play from `start`
    (seat 0 by default), up to `stop` (worked out first) if given."""

    start: Optional[Expr]
    stop: Optional[Expr]
    reverse: Optional[int] = None  # the slot that is true while play is reversed, if it can be


@node
class Aggregate(Expr):
    """`any/count/select/sum/min/max/highest/lowest x in seq …`: for each item, held in `slot`,
    `where` (true if absent) and `body` are worked out in turn."""

    kind: str
    slot: int
    seq: Expr
    body: Optional[Expr]
    where: Optional[Expr]


@node
class BestScorers(Expr):
    """The winners a game's score decides (`score of p: …, lowest wins` or `highest wins`, and a bare
    `end game`): the seats still in (every seat with `everyone`) whose score (`value`, with the seat in `slot`), worked out seat
    by seat from seat 0, is the lowest (`lowest`) or the highest; all of them when they tie."""

    slot: int
    value: Expr
    lowest: bool
    sitting: Optional[int] = None  # the seats sitting out the round are still in: they may win
    everyone: bool = False  # `… wins among seats`: every seat, an eliminated one too


@node
class OrderOf(Expr):
    """`order(card)`: the 1-based position of the card's rank in a named order (0 for none)."""

    order: str
    card: Expr


@node
class HandValue(Expr):
    """`ranking(cards)`: the value of 5 to 10 cards under a named poker ranking."""

    ranking: str
    cards: Expr


@node
class Combination(Expr):
    """`melded(cards)`, `deadwood(cards)`, `layoffs(cards, onto)`, `subsets(cards, values, n)`,
    `pairs(cards)`, `runs(cards, order)`, `run_cards(cards, order)`, `longest_suit(cards)`: the
    function of `runtime/melds.py` of that name, over `args` worked out in turn (`table`: the
    order or values an argument names, in `Layout.orders`; melds follow `Layout.melds`)."""

    name: str
    args: tuple
    table: Optional[str]


@node
class DefineCall(Expr):
    """A `define` used: each argument worked out in turn into its parameter's slot, then `body`."""

    name: str
    slots: tuple
    args: tuple
    body: Expr


@node
class Builtin(Expr):
    """`count(seq)`, `random(seq)`, `suit(c)`, `rank(c)`, `colour(c)` (`suit_colour(s)` of a suit: "red",
    "black" or None), `abs(x)`, `min(a, b)`, `max(a, b)`, `sum(list)`, `any(seq)`."""

    name: str
    args: tuple


@node
class TextPart:
    """A `{expr}` inside a text, with the checker's type of the expression (how it is shown)."""

    expr: Expr
    type: str


@node
class Text(Expr):
    """A text shown to players: strings and `TextPart`s in turn; a hand value is described with
    `ranking` (the last ranking named in the text, or the game's only one)."""

    parts: tuple
    ranking: Optional[str]


@node
class JoinText(Expr):
    """`text + text`: the first, then the second, each with its cards."""

    left: Expr
    right: Expr


@node
class RankPoints(Expr):
    """`name(card)` for `points name: …`: what the card is worth by its rank (`table`: card id ->
    points; 0 for a rank the table leaves out, and for none)."""

    table: tuple
    card: Expr


# ----------------------------------------------------------------- statements
@node
class SlotTarget:
    """A place `set`/`add` write: slot `slot` of `state.v`."""

    slot: int


@node
class PlayerVarTarget:
    """A place `set`/`add` write: the slot `base + player` of a per-player variable."""

    base: int
    player: Expr


@node
class ItemTarget:
    """A place `set`/`add` write: item `index` (from 1) of the list in slot `slot` (`span`: the
    target's, where an item out of the list is reported)."""

    slot: int
    index: Expr
    span: Span


@node
class PlayerItemTarget:
    """A place `set`/`add` write: item `index` (from 1) of the list in slot `base + player` of a
    per-player variable (`span`: the target's, where an item out of the list is reported)."""

    base: int
    player: Expr
    index: Expr
    span: Span


@node
class Assign(Stmt):
    """`set target = value` or `let name = value`: the value first, then where it goes."""

    target: object
    value: Expr


@node
class Increase(Stmt):
    """`add amount to target` (`subtract` adds the amount negated): where first, then the amount."""

    target: object
    amount: Expr


@node
class Move(Stmt):
    """`move cards to/under zone [face up/down] [strictly]`: the cards (a tuple) first, then the zone,
    then (strictly) how many cards the move needs: fewer is a rule error."""

    cards: Expr
    zone: Expr
    bottom: bool
    face: Optional[str]
    need: Optional[Expr] = None  # `strictly`: how many cards must be there (evaluated after the cards)


@node
class Lay(Stmt):
    """`lay cards to zone [with card]`, before the `Move` face up that follows it: the cards make a
    new group of the zone of groups, or join the group of `joins` (a card that must lie in the zone);
    the groups' numbers are kept in slot `slot` (runtime/groups.py)."""

    cards: Expr
    zone: Expr
    joins: Optional[Expr]
    slot: int


@node
class Deal(Stmt):
    """`deal count from source to zones`: count rounds of one card from the top to each zone."""

    count: Expr
    source: Expr
    dest: Expr  # a tuple of zone ids
    face: Optional[str]


@node
class Shuffle(Stmt):
    """`shuffle zone`: the state's chance orders it; only who sees the zone knows its cards."""

    zone: Expr


@node
class SwapZones(Stmt):
    """`swap zone with zone`: the two zones exchange their cards."""

    left: Expr
    right: Expr


@node
class SwapCards(Stmt):
    """`swap card with card`: the two cards exchange their places."""

    left: Expr
    right: Expr


@node
class Reveal(Stmt):
    """`reveal cards [to players]`: the cards become known to all, or to those players."""

    cards: Expr
    to: Optional[Expr]


@node
class Hide(Stmt):
    """`hide cards`: only those who see each card's zone still know it."""

    cards: Expr


# -------------------------------------------------------- finer knowledge (runtime/facts.py)
@node
class TellFace(Stmt):
    """`tell players the suit of c` (`kind` "suit") or `… the rank of c`: each of those players learns
    that the card has no other suit (rank); a rule error if the card is none."""

    to: Expr  # the players, as a tuple
    kind: str
    card: Expr


@node
class TellWhich(Stmt):
    """`tell players which cards of cards are v`: for each card, those players learn that it has the
    suit (rank) v, or that it has not; the cards are worked out before v; a rule error if v is none."""

    to: Expr  # the players, as a tuple
    cards: Expr
    kind: str  # "suit" or "rank"
    value: Expr


@node
class ForgetOrder(Stmt):
    """`forget order of zone`: the cards stay where they are; each is known only to those who see the
    zone, and nobody keeps a fact of one of them."""

    zone: Expr


@node
class Announce(Stmt):
    """`announce "text"` / `p says "text"`: a line in the log (worked out only when there is a log)."""

    text: Text
    speaker: Optional[Expr]


@node
class Eliminate(Stmt):
    """`eliminate p`: the seat leaves play (for good, also if it sits out: it leaves `sitting`, the
    slot of the seats sitting out, when the game has one)."""

    player: Expr
    sitting: Optional[int] = None


@node
class Break(Stmt):
    """`break`: the innermost loop around it (in its block or phase) ends now."""


@node
class ReverseDirection(Stmt):
    """`reverse direction`: the slot `slot` (true while play is reversed) flips: `next of`, `players`
    and `players from` go the other way."""

    slot: int


@node
class SetDirection(Stmt):
    """`direction left|right` in the rules: the slot `slot` (true while play is reversed) becomes
    `reversed` (whether `direction` goes against the declared direction), whatever it held."""

    slot: int
    reversed: bool
    direction: str  # ("left" or "right", for the log)


@node
class SitOut(Stmt):
    """`p sits out`: the seat leaves play until the next round starts, when every seat in the tuple
    of slot `sitting` comes back; one already out stays as it is."""

    player: Expr
    sitting: int


@node
class EndGame(Stmt):
    """`end game [winners …]`: the game is over."""

    winners: Optional[Expr]


@node
class EndRound(Stmt):
    """`end round`: the rest of the round is skipped; the next one starts."""


@attrs.define(eq=False)
class Phase:
    """A named phase: its parameters' slots and its statements (set once lowered, as phases may
    name each other in any order)."""

    span: Span
    name: str
    slots: tuple
    body: tuple = ()


@node
class CallPhase(Stmt):
    """A phase played: its arguments worked out in turn, then set into its parameters, then its body."""

    phase: Phase
    args: tuple


@node
class If(Stmt):
    """`if/elif/else`: the first branch (cond, body) whose condition holds, else `orelse`."""

    branches: tuple
    orelse: tuple


@node
class ForEach(Stmt):
    """`for each x in seq [where c]`: seq is worked out once (into `seq_slot`); each item goes into
    `slot`, and the body runs for those where `where` holds."""

    slot: int
    seq_slot: int  # where the items are kept while the loop runs (a decision may come in between)
    seq: Expr
    where: Optional[Expr]
    body: tuple


@node
class Repeat(Stmt):
    """`repeat n times`: n worked out once; each pass spends a step of the loop budget."""

    count: Expr
    body: tuple


@node
class While(Stmt):
    """`while c` (or `repeat until c` with `negate`): the condition before each pass; each pass
    spends a step of the loop budget."""

    cond: Expr
    body: tuple
    negate: bool


@node
class Alternative:
    """One thing a player may choose: an option (`label`, if `where`), a card of `source` or a
    number from `source` to `high`, held in `slot`, where `where` holds; then `body`."""

    span: Span
    kind: str  # "option", "card", "number", "player", "value" (a rank, a suit, …, a number of a list), "set"
    slot: Optional[int]
    source: Optional[Expr]
    high: Optional[Expr]
    where: Optional[Expr]
    label: Optional[Text]
    pure: bool  # the label depends only on the value chosen
    body: tuple
    # a set of cards (`kind` "set"): (slot of the set's cards, slot of the source's cards as offered,
    # fewest cards); `slot` holds the set's value (runtime/card_sets.py), `high` the most cards
    card_set: Optional[tuple] = None


@node
class Choose(Stmt):
    """`p chooses: …`: the game stops until `player` picks a legal action of one alternative.
    `index` numbers the choices of the game; action ids are `alternative << 16 | value`."""

    index: int
    player: Expr
    alternatives: tuple


# ------------------------------------------------------ simultaneous choices (`chooses at once`)
# A choice made at once is lowered to plain nodes (see `compiler.lower_at_once`): the seats kept in
# a slot, a `Choose` for each seat in turn whose bodies only append the action to the picks' slot,
# then a loop that plays each seat's pick out in order. Two things are its own: `Conceal`, and the
# table `Program.at_once`, which tells the runtime (the log, views) where a pending round stands.
@node
class Conceal(Stmt):
    """After a pick made at once is moved face down: each of `cards` is known only to `player` and to
    the seats its zone shows its cards to (the others saw a card go, not which)."""

    cards: Expr
    player: Expr


@attrs.frozen
class AtOnce:
    """Where a choice made at once keeps its round: the choice's index, the slot of the seats that
    choose (in order), the slot of the picks made so far (action ids, one per seat in that order),
    and the slot of the seat choosing (`p`); `shown`, per alternative, whether its body shows every
    seat the number or player picked, once played out (`set bid(p) = n`: `lower_at_once.shows`);
    `action_slot`, the slot of the pick being played out (which still holds the last one after)."""

    choice: int
    seats_slot: int
    picks_slot: int
    player_slot: int
    shown: tuple = ()
    action_slot: int = -1


# -------------------------------------------------------------------- program
@node
class Payoff:
    """`payoff of p: value` (`slot` holds the seat) or `shared payoff: value` (`slot` None, one value
    for every seat): what `State.returns()` gives each seat at the end. `zero_sum`: the game says the
    payoffs add up to 0 (a rule error at the end otherwise)."""

    span: Span
    slot: Optional[int]
    value: Expr
    zero_sum: bool
    shared: bool


@attrs.define(eq=False)
class Program:
    """A whole game lowered for a player count and options: setup, the round (played again and
    again), phases, every choice by index, variables' initial values, the score."""

    setup: tuple
    round: tuple
    round_span: Span
    phases: dict
    choices: list
    var_inits: list  # (slot, per player, Expr)
    score: Optional[tuple]  # (slot of the player, Expr)
    nslots: int
    card_slots: tuple  # every slot that may hold a card (or none), declared or local
    cards_slots: tuple  # every slot that may hold a tuple of cards
    payoff: Optional[Payoff] = None  # None: 1.0 for a winner, 0.0 for the others
    sitting_slot: Optional[int] = None  # the seats sitting out this round (a tuple), if any may
    reverse_slot: Optional[int] = None  # true while play goes against the declared direction, if it may
    at_once: tuple = ()  # an `AtOnce` for each choice made at once
    slot_names: dict = attrs.Factory(dict)  # slot of a local -> the rule's name for it (for readers of generated code)
    group_slot: Optional[int] = None  # the groups of the zones of groups (runtime/groups.py), if the game has one
