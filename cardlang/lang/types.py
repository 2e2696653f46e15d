"""The types of the checker's expressions, the built-in functions' signatures, and how types fit."""

from __future__ import annotations

from typing import Iterable

# Types of expressions. ZONE is a place holding cards; CARDS a list of cards; ZONES several zones.
NUMBER, BOOL, TEXT, CARD, CARDS, ZONE, ZONES = "number", "bool", "text", "card", "cards", "zone", "zones"
PLAYER, PLAYERS, SUIT, RANK, LIST, NONE, ANY = "player", "players", "suit", "rank", "list", "none", "any"
HANDVALUE = "hand value"
COLOUR = "card colour"  # `colour(x)`: "red", "black" or none (a name no `values` declaration can take)
COLOURS = ("red", "black")  # the names of its values, where the file declares no such name
SUITS, RANKS = "suits", "ranks"  # lists of suits, of ranks (an item may be none); LIST is of numbers
NONES = "list of none"  # `[none, none]`: a list of suits or of ranks, by its declared type
LISTS = (LIST, SUITS, RANKS)
# a list of the values of one declaration (`[grand, null]`) is typed `list of kind`: a name has no
# space, so no declaration can take that type's name; VALUE_LISTS stands, where types are wanted, for
# every such list (a declaration's item type is then told by `item_of`)
LIST_OF = "list of "
VALUE_LISTS = LIST_OF + "declared values"
TEAM, TEAMS = "team", "teams"  # partnerships: a team (its players where players are wanted), every team
TYPE_NAMES = {NUMBER, BOOL, TEXT, CARD, CARDS, PLAYER, PLAYERS, SUIT, RANK, LIST, ZONE, SUITS, RANKS, TEAM, TEAMS}

ELEMENT = {PLAYERS: PLAYER, CARDS: CARD, ZONE: CARD, LIST: NUMBER, ZONES: ZONE, SUITS: SUIT, RANKS: RANK,
           TEAM: PLAYER, TEAMS: TEAM}
NULLABLE = {CARD, PLAYER, SUIT, RANK, TEAM, COLOUR}
ZONE_WORDS = {"per player", "pile", "row", "hidden", "private", "public", "facing away", "groups"}
VISIBILITY = {"hidden", "private", "public", "facing away"}  # facing away: see lang/check_facts.py

# name: (argument types (a tuple of alternatives each), result) — result "elem" means the element type
BUILTINS = {
    "count": (((CARDS, ZONE, PLAYERS, LIST, ZONES, SUITS, RANKS, TEAMS, VALUE_LISTS),), NUMBER),
    "random": (((PLAYERS, CARDS, ZONE, LIST, SUITS, RANKS, TEAMS, VALUE_LISTS),), "elem"),
    "suit": (((CARD,),), SUIT),
    "rank": (((CARD,),), RANK),
    "colour": (((CARD, SUIT),), COLOUR),
    "abs": (((NUMBER,),), NUMBER),
    "min": (((NUMBER,), (NUMBER,)), NUMBER),
    "max": (((NUMBER,), (NUMBER,)), NUMBER),
    "sum": (((LIST,),), NUMBER),
    "any": (((CARDS, ZONE, PLAYERS, LIST, SUITS, RANKS, TEAMS, VALUE_LISTS),), BOOL),
    "seat": (((PLAYER,),), NUMBER),
    "select": None,
}
# every type the language has of itself; any other type is that of a `values strain: …` declaration,
# whose name is its type (`var trump: strain`), a value being its place in the list (0 for the first)
BUILTIN_TYPES = TYPE_NAMES | {NONE, ANY, HANDVALUE, ZONES, NONES, COLOUR, "empty"}


def list_of(t: str) -> str:
    """The type of a list of values of the declared type `t` (`list of kind`)."""
    return LIST_OF + t


def item_of(t: str):
    """The declared type whose values a list of type `t` holds (`kind` for `list of kind`), else None."""
    return t[len(LIST_OF):] if t.startswith(LIST_OF) and t not in (VALUE_LISTS, NONES) else None


def is_list(t: str) -> bool:
    """Whether `t` is a list type: of numbers, suits, ranks or declared values (cards and players aside)."""
    return t in LISTS or item_of(t) is not None


def element(t: str) -> str:
    """The type of an item of a sequence of type `t` (ANY when `t` is no sequence)."""
    return ELEMENT.get(t) or item_of(t) or ANY


def declared(t: str) -> bool:
    """Whether `t` is the type of a `values` declaration (`strain`): ordered named values."""
    return t not in BUILTIN_TYPES and item_of(t) is None and t != VALUE_LISTS


LIMITS = ("decisions", "rounds")  # what a `limit` line caps (the engine has a default for each)
MAX_LIMIT = 1_000_000  # the most a `limit` may allow: a game's memory stays bounded


def fits(actual: str, wanted: Iterable[str]) -> bool:
    """Whether a value of type `actual` may stand where one of `wanted` is expected."""
    wanted = tuple(wanted)
    if actual == ANY or ANY in wanted or actual in wanted:
        return True
    if VALUE_LISTS in wanted and item_of(actual) is not None:
        return True
    if actual == NONE:
        return any(w in NULLABLE or declared(w) for w in wanted)
    if actual == ZONE and CARDS in wanted:
        return True
    if actual == CARD and CARDS in wanted:
        return True
    if actual == PLAYER and PLAYERS in wanted:
        return True
    if actual == TEAM and PLAYERS in wanted:  # a team stands for its players
        return True
    if actual == HANDVALUE and NUMBER in wanted:
        return True
    if actual == "empty":
        return any(w in (CARDS, PLAYERS, LIST, SUITS, RANKS, VALUE_LISTS) or item_of(w) for w in wanted)
    if actual == NONES:
        return any(w in (SUITS, RANKS) for w in wanted)
    return False


def article(t: str) -> str:
    """The type `t` with its article, as messages say it (`a card`, `cards`, `a value`)."""
    if t in (PLAYERS, CARDS, ZONES, TEAMS):
        return f"{t}"
    if t == ANY:
        return "a value"
    if item_of(t) is not None or t == VALUE_LISTS:  # `a list of kind values`, `a list of declared values`
        return "a " + t + ("" if t == VALUE_LISTS else " values")
    return ("an " if t[0] in "aeiou" else "a ") + t
