"""Typed syntax tree of a `.cards` file: one attrs class per construct, each with its `Span`."""

from __future__ import annotations

from typing import Optional

from .diagnostics import Span
from .nodes import node
from .ast_base import Expr
from .ast_decls import (  # noqa: F401 (the declarations, read as `ast.…`)
    Decl,
    GameDecl,
    AboutDecl,
    ExtendsDecl,
    PlayersDecl,
    LimitDecl,
    DirectionDecl,
    OptionDecl,
    DeckExtra,
    DeckSpec,
    DeckDecl,
    OrderDecl,
    PointsDecl,
    ValuesDecl,
    NamedValuesDecl,
    MeldsDecl,
    CombinationsDecl,
    RankingDecl,
    ZoneDecl,
    VarDecl,
    DefineDecl,
    ScoreDecl,
    PayoffDecl,
    Param,
    BlockDecl,
    TeamsDecl,
    PotDecl)


# ---------------------------------------------------------------- expressions
@node
class Number(Expr):
    """An integer literal."""

    value: int


@node
class Text(Expr):
    """A string literal; `{expr}` parts are interpolated when it is shown."""

    value: str
    parts: tuple = ()  # alternating str and Expr, filled by the parser


@node
class Bool(Expr):
    """`true` or `false`."""

    value: bool


@node
class NoneLit(Expr):
    """`none`: no card, no suit (no trump), no player."""


@node
class Name(Expr):
    """A name: a variable, option, zone, rank, suit or loop variable."""

    name: str


@node
class CardLit(Expr):
    """`Q of spades`, `2 of clubs`: the cards of one face (rank and suit) of the deck."""

    rank: str
    suit: str
    rank_span: Span
    suit_span: Span


@node
class ListExpr(Expr):
    """`[a, b, c]`."""

    items: tuple


@node
class Call(Expr):
    """`f(args)`: a builtin, a per-player variable or zone, an order, a ranking or a `define`."""

    func: str
    args: tuple
    func_span: Span


@node
class Index(Expr):
    """`list[i]`, counting from 1 as players do."""

    base: Expr
    index: Expr


@node
class Unary(Expr):
    """`-x` or `not x`."""

    op: str
    operand: Expr


@node
class Binary(Expr):
    """Arithmetic, comparison, boolean, membership (`in`), rank/suit tests (`is`, `has`), `except`."""

    op: str
    left: Expr
    right: Expr


@node
class Conditional(Expr):
    """`a if cond else b`."""

    then: Expr
    cond: Expr
    otherwise: Expr


@node
class Neighbour(Expr):
    """`left of p`, `right of p`, `next of p` (next in the direction of play); skips eliminated players."""

    side: str
    player: Expr


@node
class EndCard(Expr):
    """`top of zone` / `bottom of zone` (one card), or `top n of zone` (the n top cards)."""

    end: str
    zone: Expr
    count: Optional[Expr] = None


@node
class Players(Expr):
    """`players [from p [to q]]`: active players in the direction of play."""

    start: Optional[Expr]
    stop: Optional[Expr]


@node
class Seats(Expr):
    """`seats`: every seat, eliminated or not, from seat 0."""


@node
class AllCards(Expr):
    """`all cards`: every card of the deck, wherever it is."""


@node
class EveryonePassed(Expr):
    """`everyone else passed`: the passes in a row (`p passes`) are as many as the players in play
    less one."""


@node
class Aggregate(Expr):
    """`any/count/select x in S where c`, `sum/min/max x in S of e [where c]`, `highest/lowest x in S by e [where c]`."""

    kind: str
    var: str
    source: Expr
    body: Optional[Expr]
    where: Optional[Expr]
    var_span: Span


# ----------------------------------------------------------------- statements
@node
class Stmt:
    """Base of every statement."""

    span: Span


@node
class Pass(Stmt):
    """`pass`: nothing."""


@node
class Target:
    """What `set`/`add`/`subtract` write: `x`, `var(p)` or `list[i]`."""

    span: Span
    name: str
    key: Optional[Expr]  # the player of a per-player variable, or the index of a list
    kind: str  # "name", "player", "item", "player item" (`told(p)[i]`)
    index: Optional[Expr] = None  # the index of a per-player list's item


@node
class Set(Stmt):
    """`set target = value`."""

    target: Target
    value: Expr


@node
class Let(Stmt):
    """`let name = value`: a local name for the rest of the block."""

    name: str
    value: Expr
    name_span: Span


@node
class Add(Stmt):
    """`add n to target` / `subtract n from target` (op is '+' or '-')."""

    op: str
    amount: Expr
    target: Target


@node
class Move(Stmt):
    """`move cards to zone` (on top) or `move cards under zone` (at the bottom), maybe face up/down;
    `strictly`: the game stops with a rule error if fewer cards are there than the move names."""

    cards: Expr
    place: str  # "to" | "under"
    zone: Expr
    facing: Optional[str]
    strict: bool = False


@node
class Lay(Move):
    """`lay cards to zone [with card]`: the cards go face up on top of a zone of groups as one new
    group, or (`with`) join the group of that card, which lies in the zone (docs/language.md,
    "Structures on the table"). A move as far as every analysis goes (its place `to`, face up),
    with one more expression to read."""

    joins: Optional[Expr] = None


@node
class Deal(Stmt):
    """`deal n from zone to zones`: n rounds of one card to each zone in turn; `deal all from …`
    (`count` None): the whole zone so, the first zones one card more where it does not divide."""

    count: Optional[Expr]
    source: Expr
    dest: Expr
    facing: Optional[str]


@node
class Shuffle(Stmt):
    """`shuffle zone`."""

    zone: Expr


@node
class Swap(Stmt):
    """`swap a with b`: two zones exchange their cards, or two cards their places."""

    left: Expr
    right: Expr


@node
class Reveal(Stmt):
    """`reveal cards [to players]`: the cards become known to all (or to those players)."""

    cards: Expr
    to: Optional[Expr]


@node
class Hide(Stmt):
    """`hide cards`: only those the zone shows them to still see them."""

    cards: Expr


# -------------------------------------------------------- finer knowledge (docs/language.md)
@node
class TellFace(Stmt):
    """`tell players the suit of c` / `… the rank of c`: they learn that face of the card, not the card."""

    to: Expr
    kind: str  # "suit" or "rank" (anything else is E057)
    card: Expr
    kind_span: Span


@node
class TellWhich(Stmt):
    """`tell players which cards of cards are v`: they learn which of them have the suit (rank) v, and
    that the others have not."""

    to: Expr
    cards: Expr
    value: Expr


@node
class ForgetOrder(Stmt):
    """`forget order of zone`: the cards stay in place; only who sees the zone still knows which is which."""

    zone: Expr


@node
class Announce(Stmt):
    """`announce "text"` or `p says "text"`: a line in the log."""

    text: Text
    speaker: Optional[Expr]


@node
class Break(Stmt):
    """`break`: the innermost `for each`, `repeat` or `while` around it ends now; play goes on after it."""


@node
class Reverse(Stmt):
    """`reverse direction`: play turns the other way: `next of`, `players` and `players from` follow."""


@node
class SetDirection(Stmt):
    """`direction left|right` in the rules: from now on play goes that way (the declared direction,
    or against it), whichever way it went before (`reverse direction`)."""

    direction: str
    value_span: Span


@node
class Eliminate(Stmt):
    """`eliminate p`: the player leaves play; turns, neighbours and deals skip him. `p sits out`
    (`for_round`): the same until the next round starts."""

    player: Expr
    for_round: bool = False


@node
class Passes(Stmt):
    """`p passes`: one more pass in a row; a decision whose alternative says no `passes` starts the
    count again (`everyone else passed`)."""

    player: Expr


@node
class EndGame(Stmt):
    """`end game [winners expr]`."""

    winners: Optional[Expr]


@node
class EndRound(Stmt):
    """`end round`: the rest of the round is skipped; the next round starts."""


@node
class CallPhase(Stmt):
    """A phase named as a statement: `bidding` or `bid(p)`."""

    name: str
    args: tuple
    expr: Expr  # as written, for diagnostics when it is not a phase


@node
class If(Stmt):
    """`if c: … elif c: … else: …` (branches is a tuple of (cond, body); orelse may be empty)."""

    branches: tuple
    orelse: tuple


@node
class ForEach(Stmt):
    """`for each x in S [where c]: …`."""

    var: str
    source: Expr
    where: Optional[Expr]
    body: tuple
    var_span: Span


@node
class Repeat(Stmt):
    """`repeat n times: …`."""

    count: Expr
    body: tuple


@node
class While(Stmt):
    """`while c: …` or `repeat until c: …` (negate is True for `until`)."""

    cond: Expr
    body: tuple
    negate: bool


@node
class Alternative:
    """One thing a player may choose: a labelled option, a card of a zone, a number in a range, or a
    player among players."""

    span: Span
    kind: str  # "option", "card", "number", "player", "value" (a rank, a suit, a declared value, a listed number), "set"
    label: Optional[Text]
    var: Optional[str]
    source: Optional[Expr]  # zone / cards, or low bound
    high: Optional[Expr]
    where: Optional[Expr]  # filter, or an option's condition
    body: tuple
    pile: Optional["PileChoice"] = None  # with `and a pile k from family`: a card and a destination
    vtype: Optional[str] = None  # a value's type as written: `rank`, `suit`, `number` or a declared `values`
    vtype_span: Optional[Span] = None
    second: Optional["SecondChoice"] = None  # `… and a strain s`: a second thing chosen at once
    sizes: Optional[tuple] = None  # a set of cards (`a set cs of 2 to 4 cards from …`): (fewest, most)


@node
class SecondChoice:
    """The `and a strain s` of a number or player alternative: a second value picked with the first,
    among every value of its type (a rank, a suit, a declared value)."""

    span: Span  # the type's word and the name
    var: str
    vtype: str
    vtype_span: Span
    var_span: Span  # the name alone


@node
class PileChoice:
    """The `and a pile k from family` part of a card alternative: `k` numbers a pile of `family`."""

    span: Span
    var: str
    family: str
    family_span: Span


@node
class Choose(Stmt):
    """`p chooses: …`: the only place where a player decides."""

    player: Expr
    alternatives: tuple
    at_once: Optional["AtOnce"] = None  # `each player p in … chooses at once`: `player` is the name `p`


# ------------------------------------------------------ simultaneous choices (`chooses at once`)
@node
class AtOnce:
    """The `each player p in seats` of a choice made at once: every seat of `seats` chooses in secret
    (as `p`), and the alternatives' bodies run once all have chosen, in the order of `seats`."""

    span: Span  # from the name to the end of the seats
    var: str
    var_span: Span
    seats: Expr


@node
class FaceUp(Expr):
    """`c is face up`: every seat sees card `c`."""

    card: Expr


@node
class GroupOf(Expr):
    """`group of c`: the cards of the group `c` lies in, in a zone of groups (none when it lies elsewhere)."""

    card: Expr


@node
class PositionOf(Expr):
    """`position of c in z`: 1 for the bottom card of `z`, `count(z)` for its top; 0 if `c` is not there."""

    card: Expr
    zone: Expr


@node
class Range(Expr):
    """`lo..hi`: the whole numbers from `lo` to `hi` as a list (empty when `hi < lo`)."""

    low: Expr
    high: Expr


@node
class PilesOf(Expr):
    """`piles of column`: the numbers of a family's piles, `[1, 2, …, N]`."""

    family: str
    family_span: Span


# ---------------------------------------------------------------- partnerships


@node
class PartnerOf(Expr):
    """`partner of p`: the other member of p's team (teams of two)."""

    player: Expr


@node
class TeamOf(Expr):
    """`team of p`: the team p plays in; where players are wanted, its members."""

    player: Expr


@node
class Teams(Expr):
    """`teams`: every team, the team of P0 first."""


@node
class Module:
    """A whole `.cards` file."""

    path: str
    source: str
    decls: tuple


# ------------------------------------------------------------- pots and betting


@node
class PutIn(Stmt):
    """`put n from p into pot`: n chips of p's stack (or all he has) into the pot."""

    player: Expr
    amount: Expr
    pot: str
    pot_span: Span


@node
class Betting(Stmt):
    """`pot takes bets from p: blinds [1, 2], minimum raise 2, at most 4 raises`: a betting round
    from p, each player in turn folding, checking, calling or raising until the bets are level."""

    pot: str
    pot_span: Span
    first: Expr
    blinds: Optional[Expr]
    minimum: Optional[Expr]
    fixed: Optional[Expr]
    cap: Optional[Expr]
    attributes: tuple  # of (word, span)


@node
class Award(Stmt):
    """`pot goes to highest p by value`: the side pots to the best of their contenders, splits
    evenly, the odd chips by the pot's rule."""

    pot: str
    pot_span: Span
    lowest: bool
    var: str
    var_span: Span
    value: Expr
