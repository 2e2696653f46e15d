"""The declarations of the syntax tree (`game`, `deck`, `zone`, `var`, `phase`, …): one attrs class per
declaration, each with its `Span`. `cardlang.lang.ast` re-exports them: read them as `ast.ZoneDecl`."""

from __future__ import annotations

from typing import Optional

from .ast_base import Expr
from .diagnostics import Span
from .nodes import node



@node
class Decl:
    """Base of every top-level declaration."""

    span: Span


@node
class GameDecl(Decl):
    """`game "Name"`."""

    title: str


@node
class AboutDecl(Decl):
    """`about "…"`: a summary of the rules for players."""

    text: str


@node
class ExtendsDecl(Decl):
    """`extends "base.cards"[, "other.cards"]`: this file is a variant of others."""

    paths: tuple  # of (path, span)


@node
class PlayersDecl(Decl):
    """`players 2..5`."""

    low: int
    high: int


@node
class LimitDecl(Decl):
    """`limit 5000 decisions, 200 rounds`: caps on one game, past which it stops with a rule error."""

    items: tuple  # of (count, what, span of the item)


@node
class DirectionDecl(Decl):
    """`direction left|right`: where play and the deal move."""

    direction: str
    value_span: Span


@node
class OptionDecl(Decl):
    """`option name = default [in lo..hi | in {a, b}] ["help"]`; a list of numbers as its default
    (a tuple) makes a list option, each of its items in the range."""

    name: str
    default: object
    low: Optional[int]
    high: Optional[int]
    choices: Optional[tuple]
    help: Optional[str]
    name_span: Span
    default_span: Span


@node
class DeckExtra:
    """One item of a deck's `with …`: `2 jokers`, `6 decks`, `2 copies`, `1 copy of 0`, `4 Wild`."""

    span: Span
    count: int
    word: str
    ranks: tuple  # the ranks of `N copies of R …` (else empty)
    label: Optional[str]  # how players read a named card (`4 WildFour "Wild Draw Four"`)
    option: Optional[str] = None  # `with shoe decks`: the count is this option's value


@node
class DeckSpec:
    """A deck: a named one (`standard`, `piquet`) or `ranks … suits …`, maybe `with 2 jokers, 6 decks`."""

    span: Span
    name: Optional[str]
    ranks: tuple
    suits: tuple
    extras: tuple = ()  # of DeckExtra
    shorts: tuple = ()  # per suit: (its declared short name or None, span of the suit)
    rank_labels: tuple = ()  # per rank, how players read it (`DrawTwo "Draw Two"`) or None; () for none


@node
class DeckDecl(Decl):
    """`deck a if cond else b`: choices is a tuple of (cond or None, DeckSpec)."""

    choices: tuple


@node
class OrderDecl(Decl):
    """`order name: A 2 3 … K`: a rank order, lowest first."""

    name: str
    ranks: tuple  # of (rank, span)
    name_span: Span


@node
class PointsDecl(Decl):
    """`points name: J 20, 9 14, …`: what a card is worth by its rank (`name(c)`; 0 for others)."""

    name: str
    points: tuple  # of (rank, points, span of the rank)
    name_span: Span


@node
class ValuesDecl(Decl):
    """`values name: A=1 2=2 … K=10`: a number for each rank (0 for a rank it does not list)."""

    name: str
    items: tuple  # of (rank, number, span)
    name_span: Span


@node
class NamedValuesDecl(Decl):
    """`values strain: clubs diamonds hearts spades notrump`: a type whose values are these names, ordered
    as listed (`var trump: strain = none`, `a strain s`, `s > hearts`, `"{s}"` shows its name)."""

    name: str
    items: tuple  # of (name, span)
    name_span: Span


@node
class MeldsDecl(Decl):
    """`melds: sets 3, runs 3 in order, ace low, deadwood values`: what a meld is and what the
    cards left out of melds count."""

    attributes: tuple  # of (words, number or None, order name or None, span)


@node
class CombinationsDecl(Decl):
    """`combinations by ORDER: single, pair, triple, four, run N, bomb N`: what a play of a climbing
    game may be, its ranks compared by the order."""

    order: str
    order_span: Span
    attributes: tuple  # of (words, number or None, None, span), as `melds` attributes


@node
class RankingDecl(Decl):
    """`ranking name by order: straight_flush > … > high_card[, ace low]`."""

    name: str
    order: str
    categories: tuple  # of (name, span)
    ace_low: bool
    name_span: Span
    order_span: Span


@node
class ZoneDecl(Decl):
    """`zone name: per player, private, pile`."""

    name: str
    attributes: tuple  # of (words, span)
    name_span: Span


@node
class VarDecl(Decl):
    """`var name[: type] = value` or `per player var …`."""

    name: str
    type: Optional[str]
    value: Expr
    per_player: bool
    name_span: Span
    per_team: bool = False  # `per team var …`: one value per team (see "Partnerships")


@node
class DefineDecl(Decl):
    """`define name(a, b) = expr`: a named expression."""

    name: str
    params: tuple  # of Param
    body: Expr
    name_span: Span


@node
class ScoreDecl(Decl):
    """`score of p: expr [, highest wins | , lowest wins]`: each seat's score, for results and
    statistics; with `… wins`, the score also decides who wins a game that ends without naming them."""

    var: str
    value: Expr
    order: Optional[str] = None  # "highest" or "lowest" when the score decides who wins
    team: bool = False  # `score of team t: …`: `var` is a team; each seat scores its team's score
    among_seats: bool = False  # `… wins among seats`: every seat may win, an eliminated one too


@node
class PayoffDecl(Decl):
    """`payoff of p: expr [, zero sum]` or `shared payoff: expr`: what each seat gets at the end
    (`State.returns()`), instead of 1 for a win and 0 otherwise."""

    var: Optional[str]  # None for a shared payoff: one value for every seat
    value: Expr
    zero_sum: bool = False
    shared: bool = False
    team: bool = False  # `payoff of team t: …`: `var` is a team; each seat gets its team's payoff


@node
class Param:
    """A phase or define parameter, `p` or `p: player`."""

    span: Span
    name: str
    type: Optional[str]


@node
class BlockDecl(Decl):
    """`setup:`, `round:` or `phase name(params):` with its statements."""

    kind: str  # "setup", "round", "phase"
    name: str
    params: tuple
    body: tuple
    name_span: Span


@node
class TeamsDecl(Decl):
    """`teams of 2 across` or `teams: 1 3, 2 4` (seats numbered from 1, P0 is 1): fixed teams."""

    size: Optional[int]  # `teams of N across`; None for listed teams
    seats: tuple = ()  # listed teams: a tuple of seat numbers (from 1) for each, with its span


@node
class PotDecl(Decl):
    """`pot pot: stacks chips, odd chips to the first winner left of dealer`: a pot the `stacks`
    variable's chips go into, and who takes a split pot's odd chips (from that player on)."""

    name: str
    stacks: Optional[str]
    stacks_span: Optional[Span]
    odd: Optional[Expr]
    name_span: Span
    attributes: tuple  # of (word, span), to report one given twice
