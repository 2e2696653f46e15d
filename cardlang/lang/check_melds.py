"""The checks of melds and combinations: `values`, `melds` and `combinations` declarations, the
functions `melded`, `melds`, `deadwood`, `layoffs`, `subsets`, `pairs`, `runs`, `run_cards`,
`longest_suit`, `kind` and `beats`, and `everyone else passed`.

Kept apart from `check.py` (which calls in here) so that the feature is one module: the
declarations are collected with the others, validated once the deck's ranks are known, and the
calls are typed where `check.Checker.call` finds no declared name.
"""

from __future__ import annotations

from . import ast
from .diagnostics import did_you_mean

# the checker's type names (`check.py` imports this module, so they are not imported from there)
NUMBER, CARDS, ZONE, TEXT, BOOL = "number", "cards", "zone", "text", "bool"

#: ace rules of a `melds` declaration: where the rank `A` plays in a run
ACE_RULES = ("low", "high", "both", "around")
MAX_VALUE = 1000  # the largest a card's value may be (`subsets` adds values up: bounded work)

# name: (argument kinds, result); "cards" is cards or a zone, "table" the name of an order or values
COMBINATIONS = {
    "melded": (("cards",), "cards"),
    "melds": (("cards",), "text"),  # the melds as groups, for the log: `7♥ 7♦ 7♠ | 4♣ 5♣ 6♣`
    "deadwood": (("cards",), "number"),
    "layoffs": (("cards", "cards"), "cards"),
    "subsets": (("cards", "table", "number"), "number"),
    "pairs": (("cards",), "number"),
    "runs": (("cards", "table"), "number"),
    "run_cards": (("cards", "table"), "number"),
    "longest_suit": (("cards",), "number"),
    # climbing games (runtime/climbing.py): the kind of a play, and whether it may be laid on another
    "kind": (("cards",), "text"),
    "beats": (("cards", "cards"), "bool"),
}
NEEDS_MELDS = ("melded", "melds", "deadwood", "layoffs")
NEEDS_COMBINATIONS = ("kind", "beats")
#: the attributes of `combinations`: kinds of one rank (their size), a run and a bomb (their fewest cards)
ONE_RANK = {"single": 1, "pair": 2, "triple": 3, "four": 4}


def collect(checker, d, symbol) -> None:
    """Registers a `values` or `melds` declaration (validated later by `validate`); `symbol` is
    the checker's `Symbol` class."""
    s = checker.sym
    if isinstance(d, ast.ValuesDecl):
        s.values[d.name] = d
        # a table of numbers by card, used as `name(c)` like an order
        checker._declare(d.name, symbol("order", NUMBER, d, d.name_span), d.name_span)
    elif isinstance(d, ast.CombinationsDecl):
        if s.combinations is not None:
            checker.error("E011", "the file declares `combinations` twice", d.span,
                          help=f"the first is at line {s.combinations.span.line}")
            return
        s.combinations = d
    else:
        if s.melds is not None:
            checker.error("E011", "the file declares `melds` twice", d.span,
                          help=f"the first is at line {s.melds.span.line}")
            return
        s.melds = d


def validate(checker) -> None:
    """E021/E038: the ranks of each `values`, and the attributes of `melds`."""
    s = checker.sym
    ranks = checker.all_ranks
    for d in s.values.values():
        seen = set()
        for rank, number, span in d.items:
            if rank in seen:
                checker.error("E021", f"rank `{rank}` is given a value twice in `{d.name}`", span)
            seen.add(rank)
            if ranks and rank not in ranks:
                checker.error("E021", f"`{rank}` is not a rank of the deck", span, help=did_you_mean(rank, ranks))
            if not 0 <= number <= MAX_VALUE:
                checker.error("E038", f"a card's value is from 0 to {MAX_VALUE}, not {number}", span)
    if s.melds is not None:
        _melds(checker, s.melds)
    if s.combinations is not None:
        _combinations(checker, s.combinations)


def _combinations(checker, d) -> None:
    """E010/E038: the order of `combinations` and its kinds (`single`, `pair`, `triple`, `four`,
    `run N`, `bomb [N]`), each once; a kind of one rank that a bomb's size makes unreachable."""
    s, kinds = checker.sym, {}
    if d.order not in s.orders:
        checker.error("E010", f"unknown order `{d.order}`", d.order_span, help=did_you_mean(d.order, s.orders))
    else:
        s.table[d.order].used = True
    for words, number, order, span in d.attributes:
        if words in kinds:
            checker.error("E038", f"`combinations` says `{words}` twice", span)
        elif words in ONE_RANK and number is None:
            kinds[words] = ONE_RANK[words]
        elif words == "run" and number is not None and order is None:
            if number < 2:
                checker.error("E038", f"a run has at least 2 cards, not {number}", span)
            kinds["run"] = max(2, number)
        elif words == "bomb" and order is None:
            if number is not None and number < 2:
                checker.error("E038", f"a bomb has at least 2 cards of a rank, not {number}", span)
            kinds["bomb"] = max(2, number or 4)
        else:
            said = f"{words}{'' if number is None else f' {number}'}{'' if order is None else f' in {order}'}"
            checker.error("E038", f"`{said}` is not a kind of `combinations`", span,
                          help="kinds: `single`, `pair`, `triple`, `four`, `run N` (N or more ranks in a row), "
                               "`bomb [N]` (N or more cards of a rank, 4 when N is left out)")
    if "bomb" in kinds:
        for name, size in ONE_RANK.items():
            if kinds.get(name) is not None and size >= kinds["bomb"]:
                checker.error("E038", f"`{name}` is never played: {size} cards of one rank are a bomb "
                              f"(`bomb {kinds['bomb']}`)", d.span, help=f"leave out `{name}`, or make the bomb bigger")
    s.combination_kinds = kinds


def everyone_passed(checker, e) -> str:
    """The type of `everyone else passed` (E018 when no rule says `p passes`)."""
    if not _says_passes(checker):
        checker.error("E018", "`everyone else passed` counts passes, but no rule says `p passes`", e.span,
                      help='say it where a player passes: `"pass": turn passes`')
    return BOOL


def _says_passes(checker) -> bool:
    """Whether a block of the file holds a `p passes` (read once a checker)."""
    found = getattr(checker, "_says_passes", None)
    if found is None:
        from .statements import child_blocks

        def walk(stmts):
            return any(isinstance(st, ast.Passes) or any(walk(b) for b in child_blocks(st)) for st in stmts)

        found = checker._says_passes = any(walk(d.body) for d in checker.module.decls if isinstance(d, ast.BlockDecl))
    return found


def _melds(checker, d: ast.MeldsDecl) -> None:
    s, rule, seen = checker.sym, {}, set()
    for words, number, order, span in d.attributes:
        head, *rest = words.split()
        if head in seen:
            checker.error("E038", f"`melds` says `{head}` twice", span)
            continue
        seen.add(head)
        if head == "sets" and not rest and order is None:
            if number is not None and number < 2:
                checker.error("E038", f"a set has at least 2 cards, not {number}", span)
            rule["sets"] = number or 3
        elif head == "runs" and not rest:
            if order is None:
                checker.error("E038", "`runs` needs the order its ranks follow", span,
                              help="write e.g. `runs 3 in value`, where `value` is an `order`")
            elif order not in s.orders:
                checker.error("E010", f"unknown order `{order}`", span, help=did_you_mean(order, s.orders))
            elif number is not None and number < 2:
                checker.error("E038", f"a run has at least 2 cards, not {number}", span)
            else:
                s.table[order].used = True
                rule["runs"] = (number or 3, order)
        elif head == "ace" and len(rest) == 1 and number is None:
            if rest[0] not in ACE_RULES:
                checker.error("E038", f"the ace plays `{' or '.join(ACE_RULES)}`, not `{rest[0]}`", span,
                              help=did_you_mean(rest[0], ACE_RULES))
            elif checker.all_ranks and "A" not in checker.all_ranks:
                checker.error("E038", "`ace` places the rank `A`, which the deck does not have", span)
            else:
                rule["ace"] = rest[0]
        elif head == "deadwood" and len(rest) == 1 and number is None:
            sym = s.table.get(rest[0])
            if sym is None or sym.kind != "order":
                checker.error("E010", f"unknown values `{rest[0]}`", span,
                              help=did_you_mean(rest[0], list(s.values) + list(s.orders)))
            else:
                sym.used = True
                rule["deadwood"] = rest[0]
        else:
            checker.error("E038", f"`{words}{'' if number is None else f' {number}'}` is not an attribute of `melds`",
                          span, help="attributes: `sets N`, `runs N in ORDER`, `ace low|high|both|around`, "
                                     "`deadwood VALUES`")
    if "ace" in rule and "runs" not in rule:
        checker.error("E038", "`ace` says where the ace plays in a run, but `melds` has no runs", d.span)
    if "sets" not in rule and "runs" not in rule and not any(x.code == "E038" for x in checker.diags):
        checker.error("E038", "`melds` needs `sets` or `runs`", d.span, help="write e.g. `melds: sets 3, runs 3 in value`")
    s.meld_rule = rule


def call(checker, e: ast.Call) -> str:
    """The type of a call of one of `COMBINATIONS` (E012/E013/E018 when it is misused)."""
    kinds, result = COMBINATIONS[e.func]
    if len(e.args) != len(kinds):
        return _arity(checker, e, len(kinds), result)
    if e.func in NEEDS_MELDS and checker.sym.melds is None:
        checker.error("E018", f"`{e.func}` needs a `melds` declaration: what a meld is", e.span,
                      help="declare e.g. `melds: sets 3, runs 3 in value, deadwood value`")
    if e.func in NEEDS_COMBINATIONS and checker.sym.combinations is None:
        checker.error("E018", f"`{e.func}` needs a `combinations` declaration: what a play may be", e.span,
                      help="declare e.g. `combinations by climb: single, pair, triple, run 5, bomb 4`")
    for i, (a, kind) in enumerate(zip(e.args, kinds)):
        nth = ("first", "second", "third")[i]
        if kind == "cards":
            checker.expect(a, (CARDS, ZONE), f"the {nth} argument of `{e.func}`")
        elif kind == "number":
            checker.expect(a, (NUMBER,), f"the {nth} argument of `{e.func}`")
        else:
            sym = checker.sym.table.get(a.name) if isinstance(a, ast.Name) else None
            if sym is None or sym.kind != "order":
                checker.error("E012", f"the {nth} argument of `{e.func}` names an `order` or `values`", a.span,
                              help=f"e.g. `{e.func}(hand(p), value{', 15' if e.func == 'subsets' else ''})`")
            else:
                sym.used = True
    return {"cards": CARDS, "number": NUMBER, "text": TEXT, "bool": BOOL}[result]


def _arity(checker, e: ast.Call, n: int, result: str) -> str:
    checker.error("E013", f"`{e.func}` takes {n} argument{'s' if n != 1 else ''}, given {len(e.args)}", e.span)
    for a in e.args:
        if not isinstance(a, ast.Name):
            checker.type_of(a)
    return {"cards": CARDS, "number": NUMBER, "text": TEXT, "bool": BOOL}[result]

