"""The checks of declared values and of the choices of a value (a part of the checker).

`values strain: clubs diamonds hearts spades notrump` declares a type, `strain`, whose values are
those names in that order: variables hold one (`var contract: strain = none`), comparisons order
them as listed (`s > hearts`), a text shows the name as written, and a player may choose one (`a
strain s where …`). A name of the list hides a suit or a rank of the same name (the list is what the
rules speak of); `suit(s)` is the suit of that name, none if the deck has none (`notrump`).

A choice of a value picks a rank, a suit, a declared value or a number of a list: `a rank r where
hand(p) has r` (every rank of the deck, the filter applied to each), `a suit s from [hearts,
spades]`, `a number b from [18, 20, 22]`; a declared value from a list of them, written out or
kept in a variable (`var allowed = [grand, null]`, typed `list of kind`: see `types.list_of`). A
number or a player may be chosen with a second value at once: `a number level from 1 to 7 and a
strain s where …` (see `compiler.lower`).
"""

from __future__ import annotations

from . import ast
from .diagnostics import did_you_mean
from .vocabulary import MAX_SET_SOURCE as MAX_SOURCE
from .types import (BUILTIN_TYPES, CARDS, LIST, NUMBER, RANK, RANKS, SUIT, SUITS, TYPE_NAMES, ZONE, article, declared,
                    fits, list_of)

MAX_NAMED_VALUES = 256  # the most values a `values` declaration lists (a choice offers each)
CHOSEN = {RANK: RANKS, SUIT: SUITS, NUMBER: LIST}  # a value's type -> the list it may be chosen `from`


def collect(checker, d: ast.NamedValuesDecl, symbol) -> None:
    """Registers `values NAME: a b c`: the type NAME, and each name as one of its values."""
    s = checker.sym
    if d.name in BUILTIN_TYPES:
        checker.error("E017", f"`{d.name}` is a type of the language: a `values` list needs a name of its own",
                      d.name_span, help=f"e.g. `values {d.name}s: …` or a word that says what the values are")
        return
    if d.name in s.named_values or d.name in s.values:
        checker.error("E011", f"`{d.name}` is declared twice", d.name_span)
        return
    if len(d.items) > MAX_NAMED_VALUES:
        checker.error("E021", f"a `values` list has at most {MAX_NAMED_VALUES} names, not {len(d.items)}", d.span)
        return
    s.named_values[d.name] = d
    seen: set = set()
    for name, span in d.items:
        if not (name[:1].isalpha() or name[:1] == "_"):
            checker.error("E021", f"`{name}` is not a name: a `values` list names its values", span,
                          help=f"a number is a number already: `values {d.name}: …` lists words")
            continue
        if name in seen:
            checker.error("E021", f"`{name}` is listed twice in `{d.name}`", span)
            continue
        seen.add(name)
        checker._declare(name, symbol("value", d.name, d, span), span)


def type_names(checker) -> set:
    """Every type a declaration may name: the language's, the declared `values`, and a list of each
    (`list of kind`)."""
    named = set(checker.sym.named_values)
    return set(TYPE_NAMES) | named | {list_of(n) for n in named}


def type_help(checker, t: str, names: set):
    """The help of E012 for `t`, a type no declaration can name (`list of kinds`, `cards of kind`)."""
    if " of " in t:
        some = sorted(checker.sym.named_values)
        return did_you_mean(t, names) or ("a list of declared values is `list of NAME`, NAME a `values` list"
                                          + (f": `list of {some[0]}`" if some else ""))
    return did_you_mean(t, names) or "types: " + ", ".join(sorted(names))


def index_of(d: ast.NamedValuesDecl, name: str) -> int:
    """A declared value's number: its place in its list, 0 for the first."""
    return [n for n, _ in d.items].index(name)


def choose_value(checker, alt: ast.Alternative) -> str:
    """Checks the domain of a choice of a value (`a rank r`, `a suit s from …`, `a strain s`, `a number
    n from [18, 20]`); returns the type bound to its name."""
    t = alt.vtype
    names = type_names(checker)
    if t not in (RANK, SUIT, NUMBER) and t not in checker.sym.named_values:
        choosable = sorted({RANK, SUIT} | set(checker.sym.named_values))
        checker.error("E012", f"a player chooses an option, a card, a number, a player, a rank, a suit or a "
                              f"declared value, not {'a ' + t if t in names else '`' + t + '`'}", alt.vtype_span,
                      help=did_you_mean(t, choosable) or "declare the values first: `values " + t + ": …`")
        if alt.source is not None:
            checker.type_of(alt.source)
        return "any"
    if alt.source is not None:
        if declared(t) and isinstance(alt.source, ast.ListExpr) and alt.source.items:
            for item in alt.source.items:  # a subset of its values written out: `a kind k from [null, suit]`
                checker.expect(item, (t,), f"a {t} to choose from")
            checker.sym.types[id(alt.source)] = list_of(t)  # (items of other types: E012 above, once each)
        elif declared(t):  # a list of them kept in a variable, or worked out: `a kind k from allowed`
            got = checker.type_of(alt.source)
            if not fits(got, (list_of(t),)):
                some = ", ".join(name for name, _ in checker.sym.named_values[t].items[:2])
                checker.error("E012", f"a {t} is chosen from a list of {t} values, but this is {article(got)}",
                              alt.source.span, help=f"e.g. `from [{some}]`, a variable holding such a list, or no "
                                                    "`from` at all (every value, `where` saying which)")
        else:
            checker.expect(alt.source, (CHOSEN[t],), f"the {t}s to choose from")
    return t


def second_value(checker, second: ast.SecondChoice) -> str:
    """Checks the second thing of `… and a strain s` (a rank, a suit or a declared value, every one of
    its type offered); returns its type."""
    t = second.vtype
    if t in (RANK, SUIT) or t in checker.sym.named_values:
        return t
    checker.error("E012", f"a second thing chosen at once is a rank, a suit or a declared value, not `{t}`",
                  second.vtype_span, help=did_you_mean(t, sorted({RANK, SUIT} | set(checker.sym.named_values))))
    return "any"


def card_set(checker, alt: ast.Alternative) -> None:
    """Checks `a set cs of 2 to 4 cards from Z`: the source is cards, the sizes 1 to 16, fewest first."""
    checker.expect(alt.source, (ZONE, CARDS), "where the cards are chosen from")
    low, high = alt.sizes
    if not 1 <= low <= high <= MAX_SOURCE:
        checker.error("E012", f"a set of cards has 1 to {MAX_SOURCE} cards, the fewest first, not `{low} to {high}`",
                      alt.span, help="e.g. `a set cs of 2 to 4 cards from hand(p)`, `a set cs of 2 cards from …`")
