"""Stage 2, check: names resolve, types agree, arities hold, phases are reachable. Collects every problem."""

from __future__ import annotations

from typing import Iterable, Optional

import attrs

from . import ast, check_melds, check_piles
from ..runtime.cards import JOKER, PRESETS, STANDARD_SUITS
from .decks import literal_copies, plan_deck, ranking_problem
from .diagnostics import Diagnostic, Span, did_you_mean
from .flow import check_flow
from .graph import check_define_cycles, check_phase_graph, check_unused
from .grammar import keywords, reserved_words
from .infoflow import check_infoflow
from .nonempty import check_choices
from .payoffs import check_payoff, check_score_order
from .seats import check_list_option, check_reverse, check_sit_out
from .limits import MAX_PLAYERS
from .poker_vocabulary import CATEGORIES

# Types of expressions. ZONE is a place holding cards; CARDS a list of cards; ZONES several zones.
NUMBER, BOOL, TEXT, CARD, CARDS, ZONE, ZONES = "number", "bool", "text", "card", "cards", "zone", "zones"
PLAYER, PLAYERS, SUIT, RANK, LIST, NONE, ANY = "player", "players", "suit", "rank", "list", "none", "any"
HANDVALUE = "hand value"
SUITS, RANKS = "suits", "ranks"  # lists of suits, of ranks (an item may be none); LIST is of numbers
NONES = "list of none"  # `[none, none]`: a list of suits or of ranks, by its declared type
LISTS = (LIST, SUITS, RANKS)
TYPE_NAMES = {NUMBER, BOOL, TEXT, CARD, CARDS, PLAYER, PLAYERS, SUIT, RANK, LIST, ZONE, SUITS, RANKS}

ELEMENT = {PLAYERS: PLAYER, CARDS: CARD, ZONE: CARD, LIST: NUMBER, ZONES: ZONE, SUITS: SUIT, RANKS: RANK}
NULLABLE = {CARD, PLAYER, SUIT, RANK}
ZONE_WORDS = {"per player", "pile", "row", "hidden", "private", "public"}
VISIBILITY = {"hidden", "private", "public"}

# name: (argument types (a tuple of alternatives each), result) — result "elem" means the element type
BUILTINS = {
    "count": (((CARDS, ZONE, PLAYERS, LIST, ZONES, SUITS, RANKS),), NUMBER),
    "random": (((PLAYERS, CARDS, ZONE, LIST, SUITS, RANKS),), "elem"),
    "suit": (((CARD,),), SUIT),
    "rank": (((CARD,),), RANK),
    "abs": (((NUMBER,),), NUMBER),
    "min": (((NUMBER,), (NUMBER,)), NUMBER),
    "max": (((NUMBER,), (NUMBER,)), NUMBER),
    "sum": (((LIST,),), NUMBER),
    "any": (((CARDS, ZONE, PLAYERS, LIST, SUITS, RANKS),), BOOL),
    "seat": (((PLAYER,),), NUMBER),
    "select": None,
}
LIMITS = ("decisions", "rounds")  # what a `limit` line caps (the engine has a default for each)
MAX_LIMIT = 1_000_000  # the most a `limit` may allow: a game's memory stays bounded


@attrs.define
class Symbol:
    """A declared name: what it is (`kind`), its type, and its declaration."""

    kind: str  # option, var, pvar, zone, pzone, order, ranking, define, phase, local, rank, suit, const, points
    type: str
    decl: object = None
    span: Optional[Span] = None
    used: bool = False


@attrs.define
class Symbols:
    """Everything the checker learned about a game: declarations by name, and the procedure."""

    title: str = "untitled"
    about: str = ""
    players: tuple = (2, 2)
    direction: str = "left"
    table: dict = attrs.Factory(dict)  # name -> Symbol (global names)
    options: dict = attrs.Factory(dict)
    deck: Optional[ast.DeckDecl] = None
    orders: dict = attrs.Factory(dict)
    rankings: dict = attrs.Factory(dict)
    zones: dict = attrs.Factory(dict)  # name -> (per_player, visibility, kind)
    zone_counts: dict = attrs.Factory(dict)  # name of a numbered family (`7 piles`) -> its number of piles
    vars: dict = attrs.Factory(dict)  # name -> Symbol
    pvars: dict = attrs.Factory(dict)
    defines: dict = attrs.Factory(dict)
    phases: dict = attrs.Factory(dict)
    setup: Optional[ast.BlockDecl] = None
    round: Optional[ast.BlockDecl] = None
    score: Optional[ast.ScoreDecl] = None
    payoff: Optional[ast.PayoffDecl] = None  # `payoff of p: …` or `shared payoff: …` (None: 1 a win, 0 a loss)
    limits: dict = attrs.Factory(dict)  # "decisions" / "rounds" -> the cap a `limit` line sets
    types: dict = attrs.Factory(dict)  # id(expression node) -> its type, for the compiler
    values: dict = attrs.Factory(dict)  # `values` declarations by name (also in `table`, as orders)
    melds: Optional[ast.MeldsDecl] = None
    meld_rule: dict = attrs.Factory(dict)  # sets, runs (min, order), ace, deadwood: see check_melds


def _fits(actual: str, wanted: Iterable[str]) -> bool:
    wanted = tuple(wanted)
    if actual == ANY or ANY in wanted or actual in wanted:
        return True
    if actual == NONE:
        return any(w in NULLABLE for w in wanted)
    if actual == ZONE and CARDS in wanted:
        return True
    if actual == CARD and CARDS in wanted:
        return True
    if actual == PLAYER and PLAYERS in wanted:
        return True
    if actual == HANDVALUE and NUMBER in wanted:
        return True
    if actual == "empty":
        return any(w in (CARDS, PLAYERS, LIST, SUITS, RANKS) for w in wanted)
    if actual == NONES:
        return any(w in (SUITS, RANKS) for w in wanted)
    return False


def _article(t: str) -> str:
    if t in (PLAYERS, CARDS, ZONES):
        return f"{t}"
    if t == ANY:
        return "a value"
    return ("an " if t[0] in "aeiou" else "a ") + t


class Checker:
    """Walks a module once and collects diagnostics; `symbols` is what the compiler builds on."""

    def __init__(self, module: ast.Module):
        self.module = module
        self.file = module.path
        self.diags: list[Diagnostic] = []
        self.sym = Symbols()
        self.scopes: list[dict] = []
        self.calls: dict[str, set] = {}  # block name -> phases it calls
        self.current_block: Optional[str] = None
        self.current_define: Optional[str] = None  # the definition whose body is being checked
        self.define_uses: dict[str, set] = {}  # definition -> the definitions its body names
        self.all_ranks: set = set()
        self.all_suits: set = set()
        self.points: dict = {}  # name -> ast.PointsDecl (`points name: J 20, …`)
        self.decks: list = []  # the DeckPlan of each deck the game may use (card literals are checked on them)

    # -- reporting
    def error(self, code: str, message: str, span: Span, help: Optional[str] = None) -> None:
        """Records an error."""
        self.diags.append(Diagnostic(code, "error", message, span, help))

    def warn(self, code: str, message: str, span: Span, help: Optional[str] = None) -> None:
        """Records a warning."""
        self.diags.append(Diagnostic(code, "warning", message, span, help))

    # -- entry
    def run(self) -> tuple[Symbols, list[Diagnostic]]:
        """Checks the whole module: declarations, bodies, the phase graph, unused names, flow and information flow."""
        decls = self.module.decls
        first = Span(self.file, 1, 1, 1, 2)
        self.sym.table["player_count"] = Symbol("const", NUMBER)
        self._collect(decls)
        for kind, what in (("game", "a `game \"name\"` line"), ("players", "a `players 2..5` line"),
                           ("deck", "a `deck standard` line"), ("round", "a `round:` block")):
            if not any(self._decl_kind(d) == kind for d in decls):
                self.error("E018", f"the file has no `{kind}` declaration", first, help=f"add {what}")
        self._check_bodies()
        check_phase_graph(self)
        check_unused(self)
        check_flow(self)
        check_choices(self)
        if not any(d.is_error for d in self.diags):  # taints need the types of a file without errors
            check_infoflow(self)
        return self.sym, self.diags

    @staticmethod
    def _decl_kind(d) -> str:
        return {
            ast.GameDecl: "game", ast.PlayersDecl: "players", ast.DeckDecl: "deck",
        }.get(type(d)) or (d.kind if isinstance(d, ast.BlockDecl) else "")

    # -- declarations
    def _declare(self, name: str, symbol: Symbol, span: Span) -> None:
        if name in reserved_words():
            self.error("E017", f"`{name}` is a reserved word and cannot name a declaration", span)
            return
        if symbol.kind == "phase" and name in keywords().values():
            self.error("E017", f"`{name}` is a keyword of the language, so it cannot name a phase", span,
                       help=f"a line `{name}` can be read as the keyword rather than the phase: rename the phase "
                            f"(`{name}_phase`, or a word that says what it does)")
            return
        old = self.sym.table.get(name)
        if old is not None:
            # a per-player variable may share its name with an option: `tokens(p)` and `tokens` differ in form
            pair = {old.kind, symbol.kind}
            if pair in ({"option", "pvar"}, {"option", "pzone"}):
                self.sym.table[name + "()"] = symbol
                return
            self.error("E011", f"`{name}` is declared twice", span,
                       help=f"the first declaration is at line {old.span.line}" if old.span else None)
            return
        self.sym.table[name] = symbol

    def _lookup_global(self, name: str, called: bool) -> Optional[Symbol]:
        if called and name + "()" in self.sym.table:
            return self.sym.table[name + "()"]
        return self.sym.table.get(name)

    def _collect(self, decls) -> None:
        s = self.sym
        seen_single: dict = {}
        for d in decls:
            single = type(d) in (ast.GameDecl, ast.PlayersDecl, ast.DirectionDecl, ast.DeckDecl,
                                 ast.AboutDecl, ast.ScoreDecl, ast.LimitDecl, ast.PayoffDecl) or (isinstance(d, ast.BlockDecl) and d.kind != "phase")
            if single:
                key = self._decl_kind(d) or type(d).__name__
                if key in seen_single:
                    self.error("E011", f"the file declares `{key.replace('Decl', '').lower()}` twice", d.span,
                               help=f"the first is at line {seen_single[key].line}")
                    continue
                seen_single[key] = d.span
            if isinstance(d, ast.GameDecl):
                s.title = d.title
            elif isinstance(d, ast.AboutDecl):
                s.about = d.text
            elif isinstance(d, ast.PlayersDecl):
                if d.low < 1 or d.high < d.low:
                    self.error("E016", f"`players {d.low}..{d.high}` is not a range of player counts", d.span,
                               help="write the smallest count first, e.g. `players 2..5`")
                elif max(d.low, d.high) > MAX_PLAYERS:
                    self.error("E029", f"a game has at most {MAX_PLAYERS} players, not {max(d.low, d.high)}", d.span,
                               help=f"allow at most {MAX_PLAYERS} (`players {min(d.low, MAX_PLAYERS)}..{MAX_PLAYERS}`)")
                s.players = (d.low, max(d.low, d.high))
            elif isinstance(d, ast.DirectionDecl):
                if d.direction not in ("left", "right"):
                    self.error("E025", f"`{d.direction}` is not a direction", d.value_span,
                               help="play moves `left` (clockwise) or `right` (counterclockwise)")
                else:
                    s.direction = d.direction
            elif isinstance(d, ast.LimitDecl):
                self._limit(d)
            elif isinstance(d, ast.OptionDecl):
                self._option(d)
            elif isinstance(d, ast.DeckDecl):
                s.deck = d
                self._deck(d)
            elif isinstance(d, ast.OrderDecl):
                s.orders[d.name] = d
                self._declare(d.name, Symbol("order", NUMBER, d, d.name_span), d.name_span)
            elif isinstance(d, ast.PointsDecl):
                self.points[d.name] = d
                self._declare(d.name, Symbol("points", NUMBER, d, d.name_span), d.name_span)
            elif isinstance(d, ast.RankingDecl):
                s.rankings[d.name] = d
                self._declare(d.name, Symbol("ranking", HANDVALUE, d, d.name_span), d.name_span)
            elif isinstance(d, (ast.ValuesDecl, ast.MeldsDecl)):
                check_melds.collect(self, d, Symbol)
            elif isinstance(d, ast.ZoneDecl):
                self._zone(d)
            elif isinstance(d, ast.VarDecl):
                sym = Symbol("pvar" if d.per_player else "var", ANY, d, d.name_span)
                (s.pvars if d.per_player else s.vars)[d.name] = sym
                self._declare(d.name, sym, d.name_span)
            elif isinstance(d, ast.DefineDecl):
                s.defines[d.name] = d
                self._declare(d.name, Symbol("define", ANY, d, d.name_span), d.name_span)
            elif isinstance(d, ast.ScoreDecl):
                s.score = d
            elif isinstance(d, ast.PayoffDecl):
                s.payoff = d
            elif isinstance(d, ast.BlockDecl):
                if d.kind == "phase":
                    s.phases[d.name] = d
                    self._declare(d.name, Symbol("phase", NONE, d, d.name_span), d.name_span)
                elif d.kind == "setup":
                    s.setup = d
                else:
                    s.round = d
        # orders and rankings refer to ranks and orders, known only now
        for d in s.orders.values():
            seen = set()
            for rank, span in d.ranks:
                if rank in seen:
                    self.error("E021", f"rank `{rank}` appears twice in order `{d.name}`", span)
                seen.add(rank)
                if self.all_ranks and rank not in self.all_ranks:
                    self.error("E021", f"`{rank}` is not a rank of the deck", span,
                               help=did_you_mean(rank, self.all_ranks))
        self._check_points()
        for d in s.rankings.values():
            if d.order not in s.orders:
                self.error("E010", f"unknown order `{d.order}`", d.order_span, help=did_you_mean(d.order, s.orders))
            seen = set()
            for cat, span in d.categories:
                if cat not in CATEGORIES:
                    self.error("E022", f"`{cat}` is not a poker hand category", span,
                               help=did_you_mean(cat, CATEGORIES) or "categories: " + ", ".join(CATEGORIES))
                elif cat in seen:
                    self.error("E022", f"category `{cat}` is listed twice", span)
                seen.add(cat)
            problem = ranking_problem(self.decks, s.orders.get(d.order))
            if problem is not None:
                self.error("E022", problem[0], d.name_span, help=problem[1])
        check_melds.validate(self)
        for name in self.all_ranks:
            if name not in s.table:
                s.table[name] = Symbol("rank", RANK)
        for name in self.all_suits:
            if name not in s.table:
                s.table[name] = Symbol("suit", SUIT)

    def _check_points(self) -> None:
        """E021: a `points` table names ranks of the deck, each once."""
        for d in self.points.values():
            seen: set = set()
            for rank, _, span in d.points:
                if rank in seen:
                    self.error("E021", f"rank `{rank}` is given points twice in `{d.name}`", span,
                               help="give each rank its points once")
                seen.add(rank)
                if self.all_ranks and rank not in self.all_ranks:
                    self.error("E021", f"`{rank}` is not a rank of the deck", span,
                               help=did_you_mean(rank, self.all_ranks))

    def _limit(self, d: ast.LimitDecl) -> None:
        for count, what, span in d.items:
            if what not in LIMITS:
                self.error("E030", f"a `limit` caps `decisions` or `rounds`, not `{what}`", span,
                           help=did_you_mean(what, LIMITS) or "write e.g. `limit 5000 decisions, 200 rounds`")
            elif what in self.sym.limits:
                self.error("E030", f"`{what}` is limited twice", span)
            elif not 1 <= count <= MAX_LIMIT:
                self.error("E030", f"a game may be limited to 1 to {MAX_LIMIT:,} {what}, not {count:,}", span,
                           help="a game that needs more is better split into games")
            else:
                self.sym.limits[what] = count

    def _option(self, d: ast.OptionDecl) -> None:
        value = d.default
        if isinstance(value, tuple):
            check_list_option(self, d)
            self.sym.options[d.name] = d
            self._declare(d.name, Symbol("option", LIST, d, d.name_span), d.name_span)
            return
        t = BOOL if isinstance(value, bool) else NUMBER if isinstance(value, int) else TEXT
        if d.low is not None:
            if d.high < d.low:
                self.error("E016", f"option `{d.name}` has an empty range {d.low}..{d.high}", d.span,
                           help=f"write the smallest value first: `in {d.high}..{d.low}`")
            elif t != NUMBER:
                self.error("E012", f"option `{d.name}` has a range but its default is not a number", d.default_span)
            elif not d.low <= value <= d.high:
                self.error("E015", f"the default of option `{d.name}` is {value}, outside {d.low}..{d.high}",
                           d.default_span, help=f"choose a default from {d.low} to {d.high}")
        if d.choices is not None and len(set(d.choices)) != len(d.choices):
            twice = next(c for i, c in enumerate(d.choices) if c in d.choices[:i])
            self.error("E011", f"option `{d.name}` lists the choice `{twice}` twice", d.span,
                       help="list each choice once")
        if d.choices is not None and value not in d.choices:
            self.error("E015", f"the default of option `{d.name}` is not one of its choices", d.default_span,
                       help="choices: " + ", ".join(map(str, d.choices)))
        self.sym.options[d.name] = d
        self._declare(d.name, Symbol("option", t, d, d.name_span), d.name_span)

    def _deck(self, d: ast.DeckDecl) -> None:
        for cond, spec in d.choices:
            plan, problems = plan_deck(spec)
            for message, span, help_ in problems:
                self.error("E020", message, span, help=help_)
            if spec.name is not None and spec.name not in PRESETS:
                continue
            if plan is not None:
                self.decks.append(plan)
                self.all_ranks.update(plan.all_ranks)
                self.all_suits.update(plan.suits)
            else:  # names still resolve in a deck with a problem: one diagnostic, not one per use
                self.all_ranks.update(PRESETS[spec.name][0] if spec.name else spec.ranks)
                self.all_ranks.update(x.word for x in spec.extras if x.word[:1].isupper())
                self.all_suits.update(PRESETS[spec.name][1] if spec.name else spec.suits)

    def _zone(self, d: ast.ZoneDecl) -> None:
        per_player, visibility, kind, count = False, None, "pile", None
        for words, span in d.attributes:
            if check_piles.PILES_RE.fullmatch(words):
                count = check_piles.zone_count(self, d, words, span)
            elif words not in ZONE_WORDS:
                self.error("E019", f"`{words}` is not a zone attribute", span,
                           help=did_you_mean(words, ZONE_WORDS) or "attributes: " + ", ".join(sorted(ZONE_WORDS)))
            elif words == "per player":
                per_player = True
            elif words in VISIBILITY:
                if visibility is not None:
                    self.error("E019", f"zone `{d.name}` is both `{visibility}` and `{words}`", span)
                visibility = words
            else:
                kind = words
        if visibility == "private" and not per_player:
            self.error("E019", f"zone `{d.name}` is private but shared: private zones are `per player`", d.span,
                       help="add `per player`, or make it `hidden` or `public`")
        if count is not None and per_player:
            self.error("E031", f"zone `{d.name}` is both `per player` and a family of piles", d.span,
                       help="a family of piles is shared: drop `per player`, or the number of piles")
        self.sym.zones[d.name] = (per_player, visibility or "hidden", kind)
        if count and not per_player:
            self.sym.zone_counts[d.name] = count
            self._declare(d.name, Symbol("nzone", ZONE, d, d.name_span), d.name_span)
            return
        self._declare(d.name, Symbol("pzone" if per_player else "zone", ZONE, d, d.name_span), d.name_span)

    # -- bodies
    def _check_bodies(self) -> None:
        s = self.sym
        self.scopes = [{}]
        for cond, _ in s.deck.choices if s.deck else ():
            if cond is not None:
                self.expect(cond, (BOOL,), "a deck's condition")
        for sym in list(s.vars.values()) + list(s.pvars.values()):
            d = sym.decl
            self.scopes = [{}]
            t = self.type_of(d.value)
            if d.type is not None:
                if d.type not in TYPE_NAMES:
                    self.error("E012", f"`{d.type}` is not a type", d.name_span,
                               help=did_you_mean(d.type, TYPE_NAMES) or "types: " + ", ".join(sorted(TYPE_NAMES)))
                    sym.type = ANY
                else:
                    if not _fits(t, (d.type,)):
                        self.error("E012", f"`{d.name}` is declared {_article(d.type)} but starts as {_article(t)}",
                                   d.value.span, help="a list of `none` is a list of suits or ranks: declare it "
                                                      "`suits` or `ranks`" if t == NONES else None)
                    sym.type = d.type
            else:
                sym.type = ZONE if t == ZONE else t
                if t == NONE:
                    self.error("E012", f"the type of `{d.name}` cannot be told from `none`", d.value.span,
                               help=f"declare it, e.g. `var {d.name}: suit = none`")
                elif t == NONES:
                    self.error("E012", f"the type of `{d.name}` cannot be told from a list of `none`", d.value.span,
                               help=f"declare it, e.g. `var {d.name}: suits = …` (or `ranks`)")
        for d in s.defines.values():
            self.current_define = d.name
            self.scopes = [self._param_scope(d.params)]
            t = self.type_of(d.body)
            if d.name in s.table:
                s.table[d.name].type = t
        self.current_define = None
        check_define_cycles(self)
        if s.score is not None:
            self.scopes = [{s.score.var: Symbol("local", PLAYER)}]
            self.expect(s.score.value, (NUMBER,), "a score")
            check_score_order(self)
        check_payoff(self)
        for block in [s.setup, s.round, *s.phases.values()]:
            if block is None:
                continue
            self.current_block = block.name
            self.calls.setdefault(block.name, set())
            self.scopes = [self._param_scope(block.params)]
            self.block(block.body)

    def _param_scope(self, params) -> dict:
        scope: dict = {}
        for p in params:
            if p.name in scope:
                self.error("E011", f"parameter `{p.name}` is declared twice", p.span,
                           help=f"the first is at column {scope[p.name].span.column}; give each parameter its own name")
                continue
            scope[p.name] = Symbol("local", self._param_type(p), p, p.span)
        return scope

    def _param_type(self, p: ast.Param) -> str:
        if p.type is None:
            return PLAYER
        if p.type not in TYPE_NAMES:
            self.error("E012", f"`{p.type}` is not a type", p.span,
                       help=did_you_mean(p.type, TYPE_NAMES) or "types: " + ", ".join(sorted(TYPE_NAMES)))
            return ANY
        return p.type

    def block(self, stmts) -> None:
        """Checks a block of statements in a scope of its own; warns of `let` names it never uses."""
        self.scopes.append({})
        for st in stmts:
            self.stmt(st)
        for name, sym in self.scopes.pop().items():
            if isinstance(sym.decl, ast.Let) and not sym.used:
                self.warn("W001", f"local name `{name}` is never used", sym.span,
                          help="remove the `let`, or use the name")

    def bind(self, name: str, t: str, span: Span) -> None:
        """Declares a local name of type `t` in the innermost scope."""
        if name in reserved_words():
            self.error("E017", f"`{name}` is a reserved word", span)
        self.scopes[-1][name] = Symbol("local", t, None, span)

    def target(self, t: ast.Target) -> str:
        """Checks what `set`/`add`/`subtract` writes; returns the type it holds."""
        sym = self._find(t.name, called=t.kind in ("player", "player item"))
        if sym is None:
            self.error("E010", f"unknown variable `{t.name}`", t.span, help=self._suggest(t.name))
            return ANY
        sym.used = True
        if t.kind == "name":
            if sym.kind == "pvar":
                self.error("E012", f"`{t.name}` is a per-player variable: write `{t.name}(p)`", t.span)
                return sym.type
            if sym.kind not in ("var", "local"):
                self.error("E028", f"`{t.name}` is {self._what(sym)}, not a variable", t.span)
                return ANY
            return sym.type
        if t.kind == "player":
            if sym.kind != "pvar":
                self.error("E028", f"`{t.name}` is not a per-player variable", t.span)
                return ANY
            self.expect(t.key, (PLAYER,), f"the player of `{t.name}(…)`")
            return sym.type
        if t.kind == "player item":
            return self._player_item(t, sym)
        if sym.type not in LISTS:
            self.error("E012", f"`{t.name}` is not a list; only list items can be set with `[…]`", t.span)
        self.expect(t.key, (NUMBER,), "a list index")
        return ELEMENT.get(sym.type, NUMBER)

    def _player_item(self, t: ast.Target, sym: Symbol) -> str:
        """`told(p)[i]`: an item of a player's list; returns the type of its items."""
        if sym.kind != "pvar":
            self.error("E028", f"`{t.name}` is not a per-player variable", t.span)
            return ANY
        self.expect(t.key, (PLAYER,), f"the player of `{t.name}(…)`")
        if sym.type not in LISTS and sym.type != ANY:
            self.error("E012", f"`{t.name}(…)` is not a list; only list items can be set with `[…]`", t.span)
        self.expect(t.index, (NUMBER,), "a list index")
        return ELEMENT.get(sym.type, ANY)

    def stmt(self, st) -> None:
        """Checks one statement."""
        if isinstance(st, ast.Pass):
            return
        if isinstance(st, ast.Set):
            want = self.target(st.target)
            got = self.type_of(st.value)
            if want == "empty" and got in (LIST, CARDS, PLAYERS, ZONE):
                self._refine_empty(st.target, CARDS if got == ZONE else got)
            elif want not in (ANY,) and not _fits(got, (want,)):
                self.error("E012", f"`{st.target.name}` holds {_article(want)}, not {_article(got)}", st.value.span)
        elif isinstance(st, ast.Let):
            t = self.type_of(st.value)
            if t == NONES:
                self.error("E012", f"the type of `{st.name}` cannot be told from a list of `none`", st.value.span,
                           help=f"declare a variable with its type instead: `var {st.name}: suits = …` (or `ranks`)")
            self.bind(st.name, t, st.name_span)
            self.scopes[-1][st.name].decl = st
        elif isinstance(st, ast.Add):
            want = self.target(st.target)
            if want not in (NUMBER, ANY):
                self.error("E012", f"`{st.target.name}` holds {_article(want)}: only numbers can be added to",
                           st.target.span)
            self.expect(st.amount, (NUMBER,), "the amount")
        elif isinstance(st, ast.Move):
            moved = self.expect(st.cards, (CARD, CARDS, ZONE), "what `move` moves")
            self.expect(st.zone, (ZONE,), "where `move` puts cards")
            if st.strict and moved in (CARDS, ZONE) and not isinstance(st.cards, ast.EndCard):
                self.warn("W003", "`strictly` changes nothing here: this `move` moves all the cards it names, "
                          "however many they are", st.span,
                          help="`strictly` checks `top N of …`, `bottom N of …` and a single card")
        elif isinstance(st, ast.Deal):
            self.expect(st.count, (NUMBER,), "how many cards `deal` gives")
            self.expect(st.source, (ZONE,), "where `deal` takes cards")
            self.expect(st.dest, (ZONE, ZONES), "where `deal` puts cards")
        elif isinstance(st, ast.Shuffle):
            self.expect(st.zone, (ZONE,), "what `shuffle` shuffles")
        elif isinstance(st, ast.Swap):
            a = self.expect(st.left, (ZONE, CARD), "what `swap` exchanges")
            b = self.expect(st.right, (ZONE, CARD), "what `swap` exchanges")
            if ANY not in (a, b) and {a, b} != {a} and NONE not in (a, b):
                self.error("E012", f"`swap` exchanges two zones or two cards, not {_article(a)} and {_article(b)}",
                           st.span)
        elif isinstance(st, ast.Reveal):
            self.expect(st.cards, (CARD, CARDS, ZONE), "what `reveal` shows")
            if st.to is not None:
                self.expect(st.to, (PLAYER, PLAYERS), "whom `reveal` shows cards to")
        elif isinstance(st, ast.Hide):
            self.expect(st.cards, (CARD, CARDS, ZONE), "what `hide` hides")
        elif isinstance(st, ast.Announce):
            self.text(st.text)
            if st.speaker is not None:
                self.expect(st.speaker, (PLAYER,), "who speaks")
        elif isinstance(st, ast.Eliminate):
            self.expect(st.player, (PLAYER,), "who sits out" if st.for_round else "who is eliminated")
            if st.for_round:
                check_sit_out(self, st)
        elif isinstance(st, ast.EndGame):
            if st.winners is not None:
                self.expect(st.winners, (PLAYER, PLAYERS), "the winners")
        elif isinstance(st, ast.Reverse):
            check_reverse(self, st)
        elif isinstance(st, ast.EndRound):
            pass
        elif isinstance(st, ast.CallPhase):
            self.call_phase(st)
        elif isinstance(st, ast.If):
            for cond, body in st.branches:
                self.expect(cond, (BOOL,), "a condition")
                self.block(body)
            self.block(st.orelse)
        elif isinstance(st, ast.ForEach):
            src = self.expect(st.source, (PLAYERS, CARDS, ZONE, LIST, ZONES, SUITS, RANKS), "what `for each` goes through")
            self.scopes.append({})
            self.bind(st.var, ELEMENT.get(src, ANY), st.var_span)
            if st.where is not None:
                self.expect(st.where, (BOOL,), "a condition")
            self.block(st.body)
            self.scopes.pop()
        elif isinstance(st, ast.Repeat):
            self.expect(st.count, (NUMBER,), "how many times")
            self.block(st.body)
        elif isinstance(st, ast.While):
            self.expect(st.cond, (BOOL,), "a condition")
            self.block(st.body)
        elif isinstance(st, ast.Choose):
            self.choose(st)
        else:  # pragma: no cover - every statement class is handled above
            raise AssertionError(type(st))

    def _refine_empty(self, t: ast.Target, got: str) -> None:
        """A variable that starts as `[]` holds the kind of list it is first set to (`var ml = []`,
        then `set ml = ml + [m]`: a list of numbers)."""
        sym = self._find(t.name, called=t.kind == "player")
        if sym is not None and sym.kind in ("var", "pvar", "local"):
            sym.type = got

    def call_phase(self, st: ast.CallPhase) -> None:
        """Checks a line that names a phase (or is not a statement at all)."""
        if isinstance(st.expr, ast.Text):  # rule text written as a line of the procedure
            self.text(st.expr)
            self.warn("W003", "this text is not a rule: it has no effect", st.expr.span,
                      help="make it a comment (`# …`), or show it to the players with `announce`")
            return
        sym = self._lookup_global(st.name, called=bool(st.args)) if st.name else None
        if (sym is None or sym.kind != "phase") and st.name in self.sym.phases:
            # a phase whose name something else declared first (E011 says so, once): it is still played
            sym = Symbol("phase", NONE, self.sym.phases[st.name], self.sym.phases[st.name].name_span)
        if sym is None or sym.kind != "phase":
            if sym is None and st.name and not isinstance(st.expr, ast.Call) or (sym is None and st.name):
                self.error("E010", f"unknown phase `{st.name}`", st.expr.span,
                           help=did_you_mean(st.name, self.sym.phases) or None)
            else:
                self.error("E024", "this line is not a statement", st.expr.span,
                           help="a line is an action (`move`, `set`, …), a choice, or the name of a phase")
            for a in st.args:
                self.type_of(a)
            return
        sym.used = True
        decl = sym.decl
        self.calls.setdefault(self.current_block, set()).add(st.name)
        if len(st.args) != len(decl.params):
            self.error("E013", f"phase `{st.name}` takes {len(decl.params)} argument(s), given {len(st.args)}",
                       st.expr.span)
        for a, p in zip(st.args, decl.params):
            self.expect(a, (self._param_type(p),), f"parameter `{p.name}`")

    def choose(self, st: ast.Choose) -> None:
        """Checks a `chooses` and each of its alternatives."""
        self.expect(st.player, (PLAYER,), "who chooses")
        labels = set()
        for alt in st.alternatives:
            self.scopes.append({})
            if alt.kind == "option":
                if alt.label.value in labels:
                    self.error("E011", f"option \"{alt.label.value}\" is offered twice", alt.label.span)
                labels.add(alt.label.value)
                self.text(alt.label)
                if alt.where is not None:
                    self.expect(alt.where, (BOOL,), "an option's condition")
            elif alt.kind == "card":
                self.expect(alt.source, (ZONE, CARDS), "where the card is chosen from")
                self.bind(alt.var, CARD, alt.span)
                if alt.pile is not None:
                    check_piles.bind_pile(self, alt)
            elif alt.kind == "player":
                self.expect(alt.source, (PLAYERS,), "the players to choose from")
                self.bind(alt.var, PLAYER, alt.span)
            else:
                self.expect(alt.source, (NUMBER,), "the smallest number")
                self.expect(alt.high, (NUMBER,), "the largest number")
                self.bind(alt.var, NUMBER, alt.span)
            if alt.kind != "option":
                if alt.where is not None:
                    self.expect(alt.where, (BOOL,), "a condition")
                if alt.label is not None:
                    self.text(alt.label)
            self.block(alt.body)
            self.scopes.pop()

    def text(self, t: ast.Text) -> None:
        """Checks the `{…}` parts of a text."""
        for part in t.parts:
            if isinstance(part, ast.Expr):
                self.type_of(part)

    # -- expressions
    def expect(self, e: ast.Expr, wanted: tuple, what: str) -> str:
        """The type of `e`, with an E012 when it is none of `wanted` (then ANY)."""
        t = self.type_of(e)
        if not _fits(t, wanted):
            want = " or ".join(_article(w) for w in wanted if w not in (SUITS, RANKS) or LIST not in wanted)
            self.error("E012", f"{what} must be {want}, but this is {_article(t)}", e.span)
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
                "suit": "a suit", "const": "a constant", "points": "a points table"}.get(sym.kind, sym.kind)

    def _suggest(self, name: str) -> Optional[str]:
        names = set(k.rstrip("()") for k in self.sym.table)
        for scope in self.scopes:
            names.update(scope)
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
            if len(types) > 1:
                self.error("E012", "a list mixes " + " and ".join(sorted(types)), e.span)
                return ANY
            t = types.pop() if types else ANY
            return {NUMBER: LIST, PLAYER: PLAYERS, CARD: CARDS, SUIT: SUITS, RANK: RANKS}.get(t, ANY)
        if isinstance(e, ast.Call):
            return self.call(e)
        if isinstance(e, (ast.FaceUp, ast.PositionOf)):
            return check_piles.expr_type(self, e)
        if isinstance(e, ast.Index):
            b = self.expect(e.base, (LIST, PLAYERS, CARDS, ZONE, SUITS, RANKS), "what is indexed")
            self.expect(e.index, (NUMBER,), "an index")
            return ELEMENT.get(b, ANY)
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
            if _fits(a, (b,)):
                return b
            if _fits(b, (a,)):
                return a
            if _fits(a, (CARDS,)) and _fits(b, (CARDS,)):  # a card, a zone: both are cards
                return CARDS
            self.error("E012", f"the two sides of `if … else` differ: {_article(a)} and {_article(b)}", e.span)
            return ANY
        if isinstance(e, ast.Neighbour):
            self.expect(e.player, (PLAYER,), f"`{e.side} of` needs a player; this")
            return PLAYER
        if isinstance(e, ast.EndCard):
            t = self.expect(e.zone, (ZONE, CARDS, PLAYERS), f"`{e.end} of`")
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
        if isinstance(e, ast.Aggregate):
            return self.aggregate(e)
        raise AssertionError(type(e))  # pragma: no cover

    def aggregate(self, e: ast.Aggregate) -> str:
        """The type of an aggregate (`any`, `count`, `select`, `sum`, `highest`, …)."""
        src = self.expect(e.source, (PLAYERS, CARDS, ZONE, LIST, SUITS, RANKS), f"what `{e.kind}` goes through")
        self.scopes.append({})
        self.bind(e.var, ELEMENT.get(src, ANY), e.var_span)
        if e.where is not None:
            self.expect(e.where, (BOOL,), "a condition")
        result = {"any": BOOL, "count": NUMBER, "select": CARDS if src == ZONE else src}.get(e.kind)
        if e.kind in ("sum", "min", "max"):
            self.expect(e.body, (NUMBER,), f"what `{e.kind}` adds up or compares")
            result = NUMBER
        elif e.kind in ("highest", "lowest"):
            self.expect(e.body, (NUMBER,), f"what `{e.kind}` compares")
            result = ELEMENT.get(src, ANY)
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
                          SUITS: SUITS, RANKS: RANKS, "empty": "empty", ANY: ANY}.get(b)
                if joined is not None:
                    return joined
                self.error("E012", f"`+` joins a list with a list, but this is {_article(b)}", e.right.span)
                return ANY
            if op == "+" and a in (CARDS, ZONE, CARD, PLAYERS, LIST, SUITS, RANKS):
                seq = CARDS if a in (ZONE, CARD) else a
                self.expect(e.right, (seq,) if seq != CARDS else (CARDS, ZONE, CARD), "what `+` joins")
                return seq
            if op == "+" and a == TEXT:
                self.expect(e.right, (TEXT,), "what `+` joins to a text")
                return TEXT
            if not _fits(a, (NUMBER,)):
                self.error("E012", f"`{op}` needs numbers, but this is {_article(a)}", e.left.span)
            self.expect(e.right, (NUMBER,), f"`{op}`")
            return NUMBER
        if op in ("<", ">", "<=", ">="):
            self.expect(e.left, (NUMBER,), f"`{op}`")
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
            if not (_fits(a, (b,)) or _fits(b, (a,))):
                self.error("E012", f"`{op}` compares {_article(a)} with {_article(b)}: they are never equal", e.span)
            return BOOL
        if op == "in":
            seq = self.expect(e.right, (PLAYERS, CARDS, ZONE, LIST, SUITS, RANKS), "the right side of `in`")
            self.expect(e.left, (ELEMENT.get(seq, ANY),), "the left side of `in`")
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
            seq = self.expect(e.left, (PLAYERS, CARDS, ZONE, LIST, SUITS, RANKS), "the left side of `except`")
            seq = CARDS if seq == ZONE else seq
            self.expect(e.right, (seq, ELEMENT.get(seq, ANY)), "what `except` leaves out")
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
        if sym is None:
            if name in BUILTINS and BUILTINS[name] is not None:
                return self._builtin(e)
            if name in check_melds.COMBINATIONS:
                return check_melds.call(self, e)
            self.error("E014", f"unknown function `{name}`", e.func_span,
                       help=did_you_mean(name, list(self.sym.table) + [b for b in BUILTINS if BUILTINS[b]]))
            for a in e.args:
                self.type_of(a)
            return ANY
        sym.used = True
        if sym.kind == "nzone":
            return check_piles.family_call(self, e, self.sym.zone_counts[name])
        if sym.kind in ("pzone", "pvar"):
            if len(e.args) != 1:
                self.error("E013", f"`{name}(…)` takes one player", e.span)
                return ZONE if sym.kind == "pzone" else sym.type
            if sym.kind == "pzone":
                t = self.expect(e.args[0], (PLAYER, PLAYERS), f"whose `{name}`")
                return ZONES if t == PLAYERS else ZONE
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
        if not self._arity(e, len(params)):
            return ANY if result == "elem" else result
        first = None
        for a, wanted in zip(e.args, params):
            t = self.expect(a, wanted, f"the argument of `{e.func}`")
            first = first or t
        if result == "elem":
            return ELEMENT.get(first, ANY)
        return result


def check(module: ast.Module) -> tuple[Symbols, list[Diagnostic]]:
    """Checks a parsed (and merged) module; returns its symbols and every diagnostic, errors and warnings."""
    return Checker(module).run()
