"""What a `deck …` line describes, worked out once for the checker, the flow checks and the layout.

A deck is a named one (`standard`, `piquet`) or `ranks … suits …`, and its `with …` items add to it:
`2 jokers`, `6 decks` (a shoe: the whole deck six times), `2 copies` (each card twice), `1 copy of
0` (the 0s once each), `4 Wild` (four suitless cards of a rank named `Wild`, maybe with the label
players read: `4 WildFour "Wild Draw Four"`). A suit may declare its one-letter short name (`stars
as t`); short names must differ, so that `7t` names one card.
"""

from __future__ import annotations

import re
from typing import Optional

import attrs

from . import ast
from .vocabulary import JOKER, PRESETS
from .diagnostics import did_you_mean
from .limits import MAX_DECK_CARDS

_WORDS = {"joker": "jokers", "jokers": "jokers", "deck": "decks", "decks": "decks", "copy": "copies",
          "copies": "copies"}
_SHORT = re.compile(r"[A-Za-z]")


@attrs.define(frozen=True)
class DeckPlan:
    """A deck as its line describes it: what `runtime.cards.Deck.build` takes, and its size."""

    name: str  # the preset's name, or "custom"
    ranks: tuple  # the suited ranks
    suits: tuple
    shorts: tuple  # per suit, its short name
    copies: tuple  # per suited rank, its copies in one deck
    named: tuple  # (rank, count, label) of the named suitless cards
    jokers: int
    decks: int
    rank_labels: tuple = ()  # per suited rank, how players read it (`DrawTwo "Draw Two"`) or None

    @property
    def size(self) -> int:
        """How many cards the deck has, every copy counted."""
        one = sum(self.copies) * len(self.suits) + sum(n for _, n, _ in self.named) + self.jokers
        return one * self.decks

    @property
    def all_ranks(self) -> tuple:
        """The suited ranks, then the named suitless ones."""
        return self.ranks + tuple(r for r, _, _ in self.named)

    def build_args(self) -> dict:
        """The keyword arguments of `Deck.build` for this deck (after `name, ranks, suits, jokers`)."""
        return {"copies": self.copies, "named": self.named, "decks": self.decks, "shorts": self.shorts,
                "rank_labels": self.rank_labels}


def plan_deck(spec: ast.DeckSpec, options: Optional[dict] = None) -> tuple[Optional[DeckPlan], list]:
    """The deck a spec describes (None if it cannot be built) and its problems, each (message, span,
    help) of an E020. Sizes are worked out before anything is built, so a huge deck costs nothing.
    `options`: the options' values, for a count that names one (`with shoe decks`)."""
    problems: list = []
    spec = _counted(spec, options or {}, problems)

    def bad(message, span=spec.span, help=None):
        problems.append((message, span, help))

    if spec.name is not None:
        if spec.name not in PRESETS:
            bad(f"unknown deck `{spec.name}`", help=did_you_mean(spec.name, PRESETS) or "decks: " + ", ".join(PRESETS)
                + ", or `ranks … suits …`")
            return None, problems
        ranks, suits = (tuple(x) for x in PRESETS[spec.name])
        shorts = tuple(s[0] for s in suits)
    else:
        ranks, suits = spec.ranks, spec.suits
        if len(set(ranks)) != len(ranks) or len(set(suits)) != len(suits):
            bad("a deck lists a rank or a suit twice",
                help="to have a card several times, write `with 2 copies` (or `with 6 decks` for a shoe)")
        declared = spec.shorts or ((None, spec.span),) * len(suits)
        shorts = tuple(short or name[0] for name, (short, _) in zip(suits, declared))
        for (short, span), name in zip(spec.shorts, suits):
            if short is not None and not _SHORT.fullmatch(short):
                bad(f"the short name of suit `{name}` must be one letter, not `{short}`", span,
                    help=f"write e.g. `{name} as {name[0]}`")
        for i, short in enumerate(shorts):
            first = shorts.index(short)
            if first < i and suits[first] != suits[i]:
                span = spec.shorts[i][1] if spec.shorts else spec.span
                bad(f"suits `{suits[first]}` and `{suits[i]}` have the same short name `{short}`", span,
                    help=f"give one its own letter: `{suits[i]} as …` (the short name ends a card's name, `7{short}`)")
    default_copies, per_rank = 1, {}
    named: list = []
    jokers, decks = 0, 1
    seen: set = set()
    for x in spec.extras:
        word = _WORDS.get(x.word)
        if word is None and x.word[:1].islower():
            bad(f"a deck can add jokers, decks, copies or named cards, not `{x.word}`", x.span,
                help=did_you_mean(x.word, _WORDS) or "write e.g. `with 2 jokers`, `with 6 decks`, `with 2 copies`, "
                "`with 1 copy of 0` or `with 4 Wild` (a named card's rank starts with a capital)")
            continue
        if x.count < 1:
            bad(f"`{x.count} {x.word}` adds nothing", x.span,
                help="leave it out, or leave a rank out of `ranks` to have none of it")
            continue
        if word != "copies" and x.ranks:
            bad(f"only copies are counted by rank (`2 copies of 7 8`), not {x.word}", x.span)
            continue
        if word == "copies" and x.ranks:
            for r in x.ranks:
                if r not in ranks:
                    bad(f"`{r}` is not a suited rank of the deck", x.span, help=did_you_mean(r, ranks))
                elif r in per_rank:
                    bad(f"the copies of `{r}` are counted twice", x.span, help="count each rank's copies once")
                else:
                    per_rank[r] = x.count
            continue
        key = word or x.word
        if key in seen:
            bad(f"the deck adds `{x.word}` twice", x.span, help="write each item once")
            continue
        seen.add(key)
        if word == "jokers":
            jokers = x.count
        elif word == "decks":
            decks = x.count
        elif word == "copies":
            default_copies = x.count
        elif x.word in ranks or x.word == JOKER:
            bad(f"`{x.word}` is already a rank of the deck", x.span,
                help="a named card is a suitless rank of its own: give it another name")
        else:
            named.append((x.word, x.count, x.label))
    copies = tuple(per_rank.get(r, default_copies) for r in ranks)
    plan = DeckPlan(spec.name or "custom", tuple(ranks), tuple(suits), shorts, copies,
                    tuple(named), jokers, decks, spec.rank_labels if spec.name is None else ())
    if plan.size > MAX_DECK_CARDS:
        bad(f"this deck has {plan.size} cards; a deck has at most {MAX_DECK_CARDS}",
            help="a choice of a card keeps its number in 16 bits: use fewer ranks, suits or jokers")
        return None, problems
    return (None if problems else plan), problems


def option_defaults(decls) -> dict:
    """The options' defaults, by name, of a module's declarations (the deck the checker sees)."""
    return {d.name: d.default for d in decls if isinstance(d, ast.OptionDecl)}


def _counted(spec: ast.DeckSpec, options: dict, problems: list) -> ast.DeckSpec:
    """The spec with each count that names an option (`with shoe decks`) replaced by its value."""
    if not any(x.option for x in spec.extras):
        return spec
    extras = []
    for x in spec.extras:
        if x.option is not None:
            value = options.get(x.option)
            if isinstance(value, bool) or not isinstance(value, int):
                problems.append((f"`{x.option}` is not a number option, so it cannot count `{x.word}`", x.span,
                                 f"declare it: `option {x.option} = 2 in 1..8`, or write a number"))
                continue
            x = attrs.evolve(x, count=value)
        extras.append(x)
    return attrs.evolve(spec, extras=tuple(extras))


def literal_copies(plans, e: ast.CardLit) -> tuple[int, Optional[tuple]]:
    """How many cards `Q of spades` names in the decks the game may use (the most of any), and the
    problem (message, span, help) of a literal that none of them has."""
    copies, suitless = 0, False
    for plan in plans:
        if e.rank in plan.ranks and e.suit in plan.suits:
            copies = max(copies, plan.copies[plan.ranks.index(e.rank)] * plan.decks)
        suitless = suitless or any(e.rank == r for r, _, _ in plan.named)
    if copies:
        return copies, None
    ranks = list(dict.fromkeys(r for plan in plans for r in plan.all_ranks))  # in the decks' order
    suits = list(dict.fromkeys(s for plan in plans for s in plan.suits))
    if suitless:
        return 0, (f"`{e.rank}` cards have no suit", e.span, f"write `{e.rank}` alone: `c is {e.rank}`")
    if e.rank not in ranks:
        return 0, (f"the deck has no card `{e.rank} of {e.suit}`: `{e.rank}` is not one of its ranks", e.rank_span,
                   did_you_mean(e.rank, ranks) or "ranks: " + " ".join(ranks))
    return 0, (f"the deck has no card `{e.rank} of {e.suit}`: `{e.suit}` is not one of its suits", e.suit_span,
               did_you_mean(e.suit, suits) or "suits: " + ", ".join(suits))


def ranking_problem(plans, order) -> Optional[tuple]:
    """Why a poker ranking cannot value the hands of these decks, (message, help), or None: the
    evaluator knows 13 ranks and 4 suits, and a suitless card (a joker, a named card) has no place
    in a poker hand. (Copies are fine: two copies of a card are a pair.)"""
    if order is not None and len(order.ranks) > 13:
        return (f"a hand ranking orders at most 13 ranks; order `{order.name}` has {len(order.ranks)}",
                "poker hands know 13 ranks: rank the hands by an order of 13 ranks or fewer")
    for plan in plans:
        if len(plan.suits) > 4:
            return (f"a hand ranking needs a deck of at most 4 suits; this one has {len(plan.suits)}",
                    "poker hands know 4 suits")
        if plan.jokers or plan.named:
            what = "jokers" if plan.jokers else f"`{plan.named[0][0]}` cards"
            return (f"a hand ranking cannot value suitless cards, and the deck has {what}",
                    "poker hands hold suited cards only: leave the suitless cards out of the deck")
    return None
