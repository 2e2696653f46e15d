"""Stage 2, check: the types of expressions (a part of `Checker`, which mixes this class in)."""

from __future__ import annotations

from typing import Optional

from . import ast, check_groups, check_melds, check_piles, check_pots, check_teams
from .decks import literal_copies
from .diagnostics import did_you_mean
from .symbols import Symbol
from .types import (ANY, BOOL, BUILTINS, CARD, CARDS, HANDVALUE, LIST, NONE, NONES, NUMBER, PLAYER, PLAYERS,
                    RANK, RANKS, SUIT, SUITS, TEXT, VALUE_LISTS, ZONE, ZONES, article, declared, element, fits,
                    item_of, list_of)
from .types import TEAM, TEAMS


def numbered_rank(checker, e) -> bool:
    """Whether `e` is a number written for a rank of the deck (`2` of `[A, 2, …, K]`)."""
    return isinstance(e, ast.Number) and str(e.value) in checker.all_ranks


class ExpressionChecks:
    """The checker's methods that type expressions: names, operators, calls, aggregates, literals."""

    def expect(self, e: ast.Expr, wanted: tuple, what: str) -> str:
        """The type of `e`, with an E012 when it is none of `wanted` (then ANY)."""
        t = self.type_of(e)
        if not fits(t, wanted):
            want = " or ".join(article(w) for w in wanted if w not in (SUITS, RANKS, VALUE_LISTS) or LIST not in wanted)
            self.error("E012", f"{what} must be {want}, but this is {article(t)}", e.span)
            return ANY
        return t

    def _find(self, name: str, called: bool = False) -> Optional[Symbol]:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        return self._lookup_global(name, called)

    def _what(self, sym: Symbol) -> str:
        return {"option": "an option", "var": "a variable", "pvar": "a per-player variable", "zone": "a zone",
                "pzone": "a per-player zone", "order": "an order", "ranking": "a hand ranking",
                "define": "a definition", "phase": "a phase", "local": "a local name", "rank": "a rank",
                "suit": "a suit", "colour": "a colour", "const": "a constant", "points": "a points table",
                "tvar": "a per-team variable", "pot": "a pot", "value": f"a {sym.type}"}.get(sym.kind, sym.kind)

    def _suggest(self, name: str) -> Optional[str]:
        names = set(k.rstrip("()") for k in self.sym.table)
        for scope in self.scopes:
            names.update(scope)
        # and the keywords an expression can start with: `playres` is `players` misspelt, not `spades`
        from .grammar import expression_starts, keywords  # (only a file with an unknown name needs them)

        words = keywords()
        names.update(words[t] for t in expression_starts() if t in words)
        return did_you_mean(name, names)

    def type_of(self, e: ast.Expr) -> str:
        """The type of an expression, remembered for the compiler (reports what is wrong in it)."""
        t = self._type_of(e)
        self.sym.types[id(e)] = t
        return t

    def _type_of(self, e: ast.Expr) -> str:
        if isinstance(e, ast.Number):
            return NUMBER
        if isinstance(e, ast.Text):
            self.text(e)
            return TEXT
        if isinstance(e, ast.Bool):
            return BOOL
        if isinstance(e, ast.NoneLit):
            return NONE
        if isinstance(e, ast.Name):
            sym = self._find(e.name)
            if sym is None:
                self.error("E010", f"unknown name `{e.name}`", e.span, help=self._suggest(e.name))
                return ANY
            sym.used = True
            if sym.kind == "pzone":
                self.error("E012", f"`{e.name}` is a per-player zone: say whose, e.g. `{e.name}(p)`", e.span)
                return ZONE
            if sym.kind == "nzone":
                check_piles.family_name(self, e)
                return ZONE
            if sym.kind == "pvar":
                self.error("E012", f"`{e.name}` is a per-player variable: say whose, e.g. `{e.name}(p)`", e.span)
                return sym.type
            if sym.kind == "tvar":
                self.error("E012", f"`{e.name}` is a per-team variable: say whose, e.g. `{e.name}(team of p)`",
                           e.span)
                return sym.type
            if sym.kind == "define" and not sym.decl.params:  # `define best = …` is used as `best`
                return self._define_use(e.name, sym)
            if sym.kind in ("order", "ranking", "define", "phase", "points"):
                self.error("E012", f"`{e.name}` is {self._what(sym)}, not a value", e.span,
                           help=f"use it as `{e.name}(…)`" if sym.kind != "phase" else None)
                return ANY
            return sym.type
        if isinstance(e, ast.CardLit):
            return self.card_literal(e)
        if isinstance(e, ast.ListExpr):
            types = {self.type_of(i) for i in e.items} - {ANY}
            if not e.items:
                return "empty"
            if NONE in types and types - {NONE} <= {SUIT, RANK}:  # `[none, hearts]`: a list of suits
                types.discard(NONE)
                if not types:
                    return NONES
            if CARDS in types <= {CARD, CARDS} and all(isinstance(i, ast.CardLit) for i in e.items):
                return CARDS  # literals of faces with copies: every card of each face
            if types == {NUMBER, RANK} and all(numbered_rank(self, i) for i in e.items if self.type_of(i) == NUMBER):
                return RANKS  # `[A, 2, 3, …, 10, J, Q, K]`: a number beside ranks is the rank written so
            if len(types) > 1:
                seen = [self.sym.types.get(id(i)) for i in e.items]  # in the order the list has them
                kinds = [f"`{t}` values" if declared(t) else article(t).split(" ", 1)[-1] + "s" if t in (
                    NUMBER, CARD, PLAYER, SUIT, RANK, TEXT) else "`none`" if t == NONE else article(t)
                    for t in sorted(types, key=lambda t: seen.index(t) if t in seen else len(seen))]
                self.error("E012", "a list mixes " + " and ".join(kinds), e.span,
                           help="a list holds things of one type: numbers, cards, players, suits, ranks, or "
                                "the values of one `values` declaration")
                return ANY
            t = types.pop() if types else ANY
            if declared(t) and t != ANY:  # `[grand, null]`: a list of the values of one declaration
                return list_of(t)
            return {NUMBER: LIST, PLAYER: PLAYERS, CARD: CARDS, SUIT: SUITS, RANK: RANKS}.get(t, ANY)
        if isinstance(e, ast.Call):
            return self.call(e)
        if isinstance(e, (ast.FaceUp, ast.PositionOf, ast.Range, ast.PilesOf)):
            return check_piles.expr_type(self, e)
        if isinstance(e, ast.GroupOf):
            return check_groups.group_of(self, e)
        if isinstance(e, ast.Index):
            b = self.expect(e.base, (LIST, PLAYERS, CARDS, ZONE, SUITS, RANKS, VALUE_LISTS), "what is indexed")
            self.expect(e.index, (NUMBER,), "an index")
            return element(b)
        if isinstance(e, ast.Unary):
            if e.op == "-":
                self.expect(e.operand, (NUMBER,), "what `-` negates")
                return NUMBER
            self.expect(e.operand, (BOOL,), "what `not` negates")
            return BOOL
        if isinstance(e, ast.Binary):
            return self.binary(e)
        if isinstance(e, ast.Conditional):
            self.expect(e.cond, (BOOL,), "a condition")
            a, b = self.type_of(e.then), self.type_of(e.otherwise)
            if a == b or b == NONE or b == ANY:
                return a
            if a in (NONE, ANY):
                return b
            if fits(a, (b,)):
                return b
            if fits(b, (a,)):
                return a
            if fits(a, (CARDS,)) and fits(b, (CARDS,)):  # a card, a zone: both are cards
                return CARDS
            self.error("E012", f"the two sides of `if … else` differ: {article(a)} and {article(b)}", e.span)
            return ANY
        if isinstance(e, ast.Neighbour):
            self.expect(e.player, (PLAYER,), f"`{e.side} of` needs a player; this")
            return PLAYER
        if isinstance(e, ast.EndCard):
            t = self.expect(e.zone, (ZONE, CARDS, PLAYERS), f"`{e.end} of`")
            t = PLAYERS if t == TEAM else t
            if e.count is not None:
                self.expect(e.count, (NUMBER,), "how many cards")
                return PLAYERS if t == PLAYERS else CARDS
            return PLAYER if t == PLAYERS else CARD
        if isinstance(e, ast.Players):
            if e.start is not None:
                self.expect(e.start, (PLAYER,), "where `players from` starts")
            if e.stop is not None:
                self.expect(e.stop, (PLAYER,), "where `players … to` stops")
            return PLAYERS
        if isinstance(e, ast.Seats):
            return PLAYERS
        if isinstance(e, ast.AllCards):
            return CARDS
        if isinstance(e, ast.EveryonePassed):
            return check_melds.everyone_passed(self, e)
        if isinstance(e, ast.Aggregate):
            return self.aggregate(e)
        if isinstance(e, (ast.PartnerOf, ast.TeamOf, ast.Teams)):
            return check_teams.expr_type(self, e)
        raise AssertionError(type(e))  # pragma: no cover

    def aggregate(self, e: ast.Aggregate) -> str:
        """The type of an aggregate (`any`, `count`, `select`, `sum`, `highest`, …)."""
        src = self.expect(e.source, (PLAYERS, CARDS, ZONE, LIST, SUITS, RANKS, TEAMS, VALUE_LISTS),
                          f"what `{e.kind}` goes through")
        self.scopes.append({})
        self.bind(e.var, element(src), e.var_span)
        if e.where is not None:
            self.expect(e.where, (BOOL,), "a condition")
        result = {"any": BOOL, "count": NUMBER,
                  "select": CARDS if src == ZONE else PLAYERS if src == TEAM else src}.get(e.kind)
        if e.kind in ("sum", "min", "max"):
            self.expect(e.body, (NUMBER,), f"what `{e.kind}` adds up or compares")
            result = NUMBER
        elif e.kind in ("highest", "lowest"):
            self.expect(e.body, (NUMBER,), f"what `{e.kind}` compares")
            result = element(src)
        self.scopes.pop()
        return result

    def binary(self, e: ast.Binary) -> str:
        """The type of an operator expression."""
        op = e.op
        if op in ("and", "or"):
            self.expect(e.left, (BOOL,), f"`{op}`")
            self.expect(e.right, (BOOL,), f"`{op}`")
            return BOOL
        if op in ("+", "-", "*", "/", "%"):
            a = self.type_of(e.left)
            if op == "+" and a == "empty":  # `[] + x`, or a variable that started as `[]`: the list x is
                b = self.type_of(e.right)
                joined = {LIST: LIST, CARDS: CARDS, ZONE: CARDS, CARD: CARDS, PLAYERS: PLAYERS, PLAYER: PLAYERS,
                          SUITS: SUITS, RANKS: RANKS, "empty": "empty", ANY: ANY}.get(b, b if item_of(b) else None)
                if joined is not None:
                    return joined
                self.error("E012", f"`+` joins a list with a list, but this is {article(b)}", e.right.span)
                return ANY
            if op == "+" and (a in (CARDS, ZONE, CARD, PLAYERS, LIST, SUITS, RANKS) or item_of(a)):
                seq = CARDS if a in (ZONE, CARD) else a
                self.expect(e.right, (seq,) if seq != CARDS else (CARDS, ZONE, CARD), "what `+` joins")
                return seq
            if op == "+" and a == TEXT:
                self.expect(e.right, (TEXT,), "what `+` joins to a text")
                return TEXT
            if not fits(a, (NUMBER,)):
                self.error("E012", f"`{op}` needs numbers, but this is {article(a)}", e.left.span)
            self.expect(e.right, (NUMBER,), f"`{op}`")
            return NUMBER
        if op in ("<", ">", "<=", ">="):
            a = self.type_of(e.left)
            if declared(a) and a != ANY:  # declared values are ordered as listed: `s > hearts`
                self.expect(e.right, (a,), f"what `{op}` compares with a {a}")
                return BOOL
            if not fits(a, (NUMBER,)):
                self.error("E012", f"`{op}` must be a number, but this is {article(a)}", e.left.span)
            self.expect(e.right, (NUMBER,), f"`{op}`")
            return BOOL
        if op in ("==", "!=") and (isinstance(e.left, ast.CardLit) or isinstance(e.right, ast.CardLit)):
            lit, other = (e.left, e.right) if isinstance(e.left, ast.CardLit) else (e.right, e.left)
            self.type_of(lit)
            self.expect(other, (CARD,), f"what `{op}` compares with a card")
            return BOOL
        if op == "in" and isinstance(e.left, ast.CardLit):
            self.type_of(e.left)
            self.expect(e.right, (CARDS, ZONE), "the right side of `in`")
            return BOOL
        if op in ("==", "!="):
            a, b = self.type_of(e.left), self.type_of(e.right)
            if {a, b} == {TEAM, PLAYERS}:  # a team stands for its players in a list, not in a comparison
                self.error("E012", f"`{op}` compares a team with players", e.span,
                           help="compare teams (`team of p == team of q`), or ask `q in team of p`")
            elif not (fits(a, (b,)) or fits(b, (a,))):
                self.error("E012", f"`{op}` compares {article(a)} with {article(b)}: they are never equal", e.span)
            return BOOL
        if op == "in":
            seq = self.expect(e.right, (PLAYERS, CARDS, ZONE, LIST, SUITS, RANKS, TEAMS, VALUE_LISTS),
                              "the right side of `in`")
            self.expect(e.left, (element(seq),), "the left side of `in`")
            return BOOL
        if op in ("is", "is not"):
            lit = isinstance(e.right, ast.CardLit)
            self.expect(e.left, (CARD,) if lit else (CARD, PLAYER, SUIT, RANK, NONE), f"the left side of `{op}`")
            self._pattern(e.right, op)
            return BOOL
        if op == "has":
            self.expect(e.left, (CARDS, ZONE), "the left side of `has`")
            self._pattern(e.right, op)
            return BOOL
        if op == "except":
            seq = self.expect(e.left, (PLAYERS, CARDS, ZONE, LIST, SUITS, RANKS, VALUE_LISTS),
                              "the left side of `except`")
            seq = CARDS if seq == ZONE else PLAYERS if seq == TEAM else seq
            self.expect(e.right, (seq, element(seq)), "what `except` leaves out")
            return seq
        raise AssertionError(op)  # pragma: no cover

    def _pattern(self, e: ast.Expr, op: str) -> None:
        if isinstance(e, ast.CardLit):
            self.type_of(e)
            return
        if isinstance(e, ast.Number):
            if str(e.value) not in self.all_ranks:
                self.error("E021", f"`{e.value}` is not a rank of the deck", e.span)
            return
        self.expect(e, (RANK, SUIT, NONE, PLAYER, CARD), f"the right side of `{op}`")

    def card_literal(self, e: ast.CardLit) -> str:
        """The type of `Q of spades`: a card, or the cards of that face when a deck has copies of it (E037
        when no deck of the game has it)."""
        if not self.decks:
            return ANY  # the deck line has a problem of its own
        copies, problem = literal_copies(self.decks, e)
        if problem is not None:
            self.error("E037", *problem)
            return ANY
        return CARD if copies == 1 else CARDS

    def call(self, e: ast.Call) -> str:
        """The type of `f(args)`: a builtin, a per-player zone or variable, an order, a ranking or a definition."""
        name = e.func
        sym = self._find(name, called=True)
        if sym is not None and sym.kind == "local":
            self.error("E014", f"`{name}` is a local name, not something to call", e.func_span)
            return ANY
        if sym is not None and sym.kind == "value" and name in BUILTINS:  # `values kind: …, suit`: `suit(c)` is still the builtin
            sym = None
        if sym is None:
            if name in BUILTINS and BUILTINS[name] is not None:
                return self._builtin(e)
            if name in check_melds.COMBINATIONS:
                return check_melds.call(self, e)
            if name in check_pots.FUNCTIONS:
                return check_pots.function(self, e)
            self.error("E014", f"unknown function `{name}`", e.func_span,
                       help=did_you_mean(name, list(self.sym.table) + [b for b in BUILTINS if BUILTINS[b]]))
            for a in e.args:
                self.type_of(a)
            return ANY
        sym.used = True
        if sym.kind == "nzone":
            return check_piles.family_call(self, e, self.sym.zone_counts[name])
        if sym.kind == "pot":
            return check_pots.call(self, e, sym)
        if sym.kind == "tvar":
            if len(e.args) != 1:
                self.error("E013", f"`{name}(…)` takes one team", e.span)
                return sym.type
            check_teams.var_key(self, name, e.args[0])
            return sym.type
        if sym.kind in ("pzone", "pvar"):
            if len(e.args) != 1:
                self.error("E013", f"`{name}(…)` takes one player", e.span)
                return ZONE if sym.kind == "pzone" else sym.type
            if sym.kind == "pzone":
                t = self.expect(e.args[0], (PLAYER, PLAYERS), f"whose `{name}`")
                return ZONES if t in (PLAYERS, TEAM) else ZONE
            self.expect(e.args[0], (PLAYER,), f"whose `{name}`")
            return sym.type
        if sym.kind == "order":
            self._arity(e, 1)
            if e.args:
                self.expect(e.args[0], (CARD,), f"what order `{name}` ranks")
            return NUMBER
        if sym.kind == "points":
            self._arity(e, 1)
            if e.args:
                self.expect(e.args[0], (CARD,), f"the card `{name}` gives points to")
            return NUMBER
        if sym.kind == "ranking":
            self._arity(e, 1)
            if e.args:
                self.expect(e.args[0], (CARDS, ZONE), f"the cards ranking `{name}` values")
            return HANDVALUE
        if sym.kind == "define":
            d = sym.decl
            if self._arity(e, len(d.params)):
                for a, p in zip(e.args, d.params):
                    self.expect(a, (self._param_type(p),), f"parameter `{p.name}` of `{name}`")
            return self._define_use(name, sym)
        if sym.kind == "phase":
            self.error("E014", f"`{name}` is a phase: name it on a line of its own to play it", e.span)
            return ANY
        self.error("E014", f"`{name}` is {self._what(sym)}, not something to call", e.func_span)
        return ANY

    def _define_use(self, name: str, sym: Symbol) -> str:
        """The type of a definition where it is used (and the use, for E023's cycles)."""
        if self.current_define is not None:
            self.define_uses.setdefault(self.current_define, set()).add(name)
        return sym.type

    def _arity(self, e: ast.Call, n: int) -> bool:
        if len(e.args) != n:
            self.error("E013", f"`{e.func}` takes {n} argument{'s' if n != 1 else ''}, given {len(e.args)}", e.span)
            for a in e.args:
                self.type_of(a)
            return False
        return True

    def _builtin(self, e: ast.Call) -> str:
        params, result = BUILTINS[e.func]
        if e.func == "suit" and len(e.args) == 1:  # a card's suit, or the suit a declared value names
            t = self.type_of(e.args[0])
            if not declared(t) and not fits(t, (CARD,)):
                self.error("E012", f"the argument of `suit` must be a card, but this is {article(t)}", e.args[0].span)
            return SUIT
        if not self._arity(e, len(params)):
            return ANY if result == "elem" else result
        first = None
        for a, wanted in zip(e.args, params):
            t = self.expect(a, wanted, f"the argument of `{e.func}`")
            first = first or t
        if result == "elem":
            return element(first)
        return result
