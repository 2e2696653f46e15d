"""Stage 2, check: names resolve, types agree, arities hold, phases are reachable. Collects every problem."""

from __future__ import annotations

from typing import Optional

from . import (ast, check_at_once, check_facts, check_groups, check_melds, check_piles, check_pots, check_teams,
               check_values)
from .vocabulary import PRESETS
from .decks import option_defaults, plan_deck, ranking_problem
from .diagnostics import Diagnostic, Span, did_you_mean
from .flow import check_flow
from .graph import check_define_cycles, check_define_sizes, check_phase_graph, check_unused
from .soft_keywords import HARD_WORD_HELP, hard_callable_message, hard_callables, hard_word_message, hard_words

# what is named `name(…)` where it is used (a word whose `word(x)` is an expression cannot name it)
_CALLED = {"order": "an order", "points": "a points table", "ranking": "a ranking", "pvar": "a per-player variable",
           "pzone": "a per-player zone", "define": "a definition with parameters", "phase": "a phase with parameters"}


def _called(symbol: Symbol) -> bool:
    if symbol.kind in ("define", "phase"):
        return bool(getattr(symbol.decl, "params", None))
    return symbol.kind in _CALLED
from .nonempty import check_choices
from .payoffs import check_payoff, check_score_order
from .seats import check_list_option, check_reverse, check_set_direction, check_sit_out
from .limits import MAX_PLAYERS
from .vocabulary import CATEGORIES
from .check_expr import ExpressionChecks
from .check_texts import check_hidden_characters
from .symbols import Symbol, Symbols
from .types import (ANY, BOOL, BUILTINS, CARD, CARDS, ELEMENT, HANDVALUE, LIMITS, LIST, LISTS, MAX_LIMIT,  # noqa: F401
                    NONE, NONES, NULLABLE, NUMBER, PLAYER, PLAYERS, RANK, RANKS, SUIT, SUITS, TEXT, TYPE_NAMES,
                    VISIBILITY, ZONE, ZONE_WORDS, ZONES, article, fits)
from .types import COLOUR, COLOURS, TEAMS, VALUE_LISTS, element, is_list, item_of



class Checker(ExpressionChecks):
    """Walks a module once and collects diagnostics; `symbols` is what the compiler builds on."""

    def __init__(self, module: ast.Module, warnings: bool = True):
        self.module = module
        self.warnings = warnings  # False: only what can refuse the file is checked (loading a game)
        self.file = module.path
        self.diags: list[Diagnostic] = []
        self.sym = Symbols()
        self.scopes: list[dict] = []
        self.loops = 0  # loops around the statement checked, in its block (where `break` may stand)
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
        for _, spec in self.sym.deck.choices if self.sym.deck is not None else ():
            for x in spec.extras:  # `with shoe decks` uses the option `shoe`
                if x.option is not None and x.option in self.sym.table:
                    self.sym.table[x.option].used = True
        for kind, what in (("game", "a `game \"name\"` line"), ("players", "a `players 2..5` line"),
                           ("deck", "a `deck standard` line"), ("round", "a `round:` block")):
            if not any(self._decl_kind(d) == kind for d in decls):
                self.error("E018", f"the file has no `{kind}` declaration", first, help=f"add {what}")
        self._check_bodies()
        check_pots.validate(self)
        check_phase_graph(self)
        check_unused(self)
        check_flow(self)
        check_choices(self)
        check_hidden_characters(self)
        # taints need the types of a file without errors; W004 only warns: a game being loaded skips it
        if self.warnings and not any(d.is_error for d in self.diags):
            from .infoflow import check_infoflow

            check_infoflow(self)
        return self.sym, self.diags

    @staticmethod
    def _decl_kind(d) -> str:
        return {
            ast.GameDecl: "game", ast.PlayersDecl: "players", ast.DeckDecl: "deck",
        }.get(type(d)) or (d.kind if isinstance(d, ast.BlockDecl) else "")

    # -- declarations
    def _declare(self, name: str, symbol: Symbol, span: Span) -> None:
        if name in hard_words() and (hard_words()[name] != "a statement" or symbol.kind == "phase"):
            # (a word that alone is a statement, `break`, conflicts only with a phase: a line that names it)
            # one error here; the name is still declared, so its uses say nothing more
            self.error("E017", hard_word_message(name), span, help=HARD_WORD_HELP.format(name=name))
        elif name in hard_callables() and _called(symbol):
            self.error("E017", hard_callable_message(name, _CALLED[symbol.kind]), span,
                       help=HARD_WORD_HELP.format(name=name))
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
            elif isinstance(d, ast.NamedValuesDecl):
                check_values.collect(self, d, Symbol)
            elif isinstance(d, (ast.ValuesDecl, ast.MeldsDecl, ast.CombinationsDecl)):
                check_melds.collect(self, d, Symbol)
            elif isinstance(d, ast.PotDecl):  # pots and betting: lang/check_pots.py
                check_pots.collect(self, d, Symbol)
            elif isinstance(d, ast.ZoneDecl):
                self._zone(d)
            elif isinstance(d, ast.TeamsDecl):
                check_teams.collect(self, d)
            elif isinstance(d, ast.VarDecl) and d.per_team:
                check_teams.declare_var(self, d, Symbol)
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
        check_teams.validate(self)
        for name in self.all_ranks:
            if name not in s.table:
                s.table[name] = Symbol("rank", RANK)
        for name in self.all_suits:
            if name not in s.table:
                s.table[name] = Symbol("suit", SUIT)
        for name in COLOURS:  # `colour(c) == red`; a file's own `red` (a suit, a variable) goes first
            if name not in s.table and name + "()" not in s.table:
                s.table[name] = Symbol("colour", COLOUR)

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
            plan, problems = plan_deck(spec, option_defaults(self.module.decls))
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
            elif words == "groups":  # its cards lie in the groups they were laid in (lang/check_groups.py)
                self.sym.group_zones.add(d.name)
            elif words in VISIBILITY:
                if visibility is not None:
                    self.error("E019", f"zone `{d.name}` is both `{visibility}` and `{words}`", span)
                visibility = words
            else:
                kind = words
        if visibility == "private" and not per_player:
            self.error("E019", f"zone `{d.name}` is private but shared: private zones are `per player`", d.span,
                       help="add `per player`, or make it `hidden` or `public`")
        check_facts.zone_visibility(self, d, per_player, visibility)
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
        for sym in list(s.vars.values()) + list(s.pvars.values()) + list(s.tvars.values()):
            d = sym.decl
            self.scopes = [{}]
            t = self.type_of(d.value)
            if d.type is not None:
                types = check_values.type_names(self)
                if d.type not in types:
                    self.error("E012", f"`{d.type}` is not a type", d.name_span,
                               help=check_values.type_help(self, d.type, types))
                    sym.type = ANY
                else:
                    if not fits(t, (d.type,)):
                        self.error("E012", f"`{d.name}` is declared {article(d.type)} but starts as {article(t)}",
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
        errors = len([d for d in self.diags if d.is_error])
        check_define_cycles(self)
        if len([d for d in self.diags if d.is_error]) == errors:  # (sizes only without cycles)
            check_define_sizes(self)
        if s.score is not None:
            self.scopes = [{s.score.var: Symbol("local", check_teams.check_decl_var(self, s.score))}]
            self.expect(s.score.value, (NUMBER,), "a score")
            check_score_order(self)
        check_payoff(self)
        for block in [s.setup, s.round, *s.phases.values()]:
            if block is None:
                continue
            # `:round` and `:setup`: no phase can have those names (a phase may be named `round`)
            self.current_block = block.name if block.kind == "phase" else ":" + block.kind
            self.calls.setdefault(self.current_block, set())
            self.scopes = [self._param_scope(block.params)]
            self.loops = 0  # (a phase played inside a loop does not end that loop)
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
        types = check_values.type_names(self)
        if p.type not in types:
            self.error("E012", f"`{p.type}` is not a type", p.span, help=check_values.type_help(self, p.type, types))
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
        if hard_words().get(name) == "an expression":
            self.error("E017", hard_word_message(name), span, help=HARD_WORD_HELP.format(name=name))
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
        if t.kind == "player" and sym.kind == "tvar":
            check_teams.var_key(self, t.name, t.key)
            return sym.type
        if t.kind == "player":
            if sym.kind != "pvar":
                self.error("E028", f"`{t.name}` is not a per-player variable", t.span)
                return ANY
            self.expect(t.key, (PLAYER,), f"the player of `{t.name}(…)`")
            return sym.type
        if t.kind == "player item":
            return self._player_item(t, sym)
        if not is_list(sym.type):
            self.error("E012", f"`{t.name}` is not a list; only list items can be set with `[…]`", t.span)
        self.expect(t.key, (NUMBER,), "a list index")
        return ELEMENT.get(sym.type) or item_of(sym.type) or NUMBER

    def _player_item(self, t: ast.Target, sym: Symbol) -> str:
        """`told(p)[i]`, `tricks(t)[i]`: an item of a player's or a team's list; returns the type of its items."""
        if sym.kind not in ("pvar", "tvar"):
            self.error("E028", f"`{t.name}` is {self._what(sym)}, not a per-player or per-team variable", t.span,
                       help=f"`{t.name}(…)[i]` sets an item of a player's (or a team's) list")
            return ANY
        if sym.kind == "tvar":
            check_teams.var_key(self, t.name, t.key)
        else:
            self.expect(t.key, (PLAYER,), f"the player of `{t.name}(…)`")
        if not is_list(sym.type) and sym.type != ANY:
            self.error("E012", f"`{t.name}(…)` is not a list; only list items can be set with `[…]`", t.span)
        self.expect(t.index, (NUMBER,), "a list index")
        return element(sym.type)

    def stmt(self, st) -> None:
        """Checks one statement."""
        if isinstance(st, ast.Pass):
            return
        if isinstance(st, ast.Passes):  # a pass in turn (`everyone else passed`)
            self.expect(st.player, (PLAYER,), "who passes")
            self.sym.passes = True
            return
        if isinstance(st, ast.Set):
            want = self.target(st.target)
            got = self.type_of(st.value)
            if want == ZONE:  # (a variable of cards keeps the cards, not the zone)
                check_groups.passed_on(self, st.value, f"kept in `{st.target.name}`")
            if want == "empty" and (got in (LIST, CARDS, PLAYERS, ZONE) or item_of(got)):
                self._refine_empty(st.target, CARDS if got == ZONE else got)
            elif want not in (ANY,) and not fits(got, (want,)):
                self.error("E012", f"`{st.target.name}` holds {article(want)}, not {article(got)}", st.value.span)
        elif isinstance(st, ast.Let):
            t = self.type_of(st.value)
            check_groups.passed_on(self, st.value, f"kept in `{st.name}`")
            if t == NONES:
                self.error("E012", f"the type of `{st.name}` cannot be told from a list of `none`", st.value.span,
                           help=f"declare a variable with its type instead: `var {st.name}: suits = …` (or `ranks`)")
            self.bind(st.name, t, st.name_span)
            self.scopes[-1][st.name].decl = st
        elif isinstance(st, ast.Add):
            want = self.target(st.target)
            if want not in (NUMBER, ANY):
                self.error("E012", f"`{st.target.name}` holds {article(want)}: only numbers can be added to",
                           st.target.span)
            self.expect(st.amount, (NUMBER,), "the amount")
        elif isinstance(st, ast.Lay):  # (a move into a zone of groups: lang/check_groups.py)
            check_groups.lay(self, st)
        elif isinstance(st, ast.Move):
            moved = self.expect(st.cards, (CARD, CARDS, ZONE), "what `move` moves")
            self.expect(st.zone, (ZONE,), "where `move` puts cards")
            check_groups.put(self, st.zone, "move")
            if st.strict and moved in (CARDS, ZONE) and not isinstance(st.cards, ast.EndCard):
                self.warn("W003", "`strictly` changes nothing here: this `move` moves all the cards it names, "
                          "however many they are", st.span,
                          help="`strictly` checks `top N of …`, `bottom N of …` and a single card")
        elif isinstance(st, ast.Deal):
            if st.count is not None:  # (None: `deal all`, the whole zone)
                self.expect(st.count, (NUMBER,), "how many cards `deal` gives")
            self.expect(st.source, (ZONE,), "where `deal` takes cards")
            self.expect(st.dest, (ZONE, ZONES), "where `deal` puts cards")
            for zone in st.dest.items if isinstance(st.dest, ast.ListExpr) else (st.dest,):
                check_groups.put(self, zone, "deal")
        elif isinstance(st, ast.Shuffle):
            self.expect(st.zone, (ZONE,), "what `shuffle` shuffles")
        elif isinstance(st, ast.Swap):
            a = self.expect(st.left, (ZONE, CARD), "what `swap` exchanges")
            b = self.expect(st.right, (ZONE, CARD), "what `swap` exchanges")
            check_groups.put(self, st.left, "swap")
            check_groups.put(self, st.right, "swap")
            if ANY not in (a, b) and {a, b} != {a} and NONE not in (a, b):
                self.error("E012", f"`swap` exchanges two zones or two cards, not {article(a)} and {article(b)}",
                           st.span)
        elif isinstance(st, ast.Reveal):
            self.expect(st.cards, (CARD, CARDS, ZONE), "what `reveal` shows")
            if st.to is not None:
                self.expect(st.to, (PLAYER, PLAYERS), "whom `reveal` shows cards to")
        elif isinstance(st, ast.Hide):
            self.expect(st.cards, (CARD, CARDS, ZONE), "what `hide` hides")
        elif isinstance(st, (ast.TellFace, ast.TellWhich, ast.ForgetOrder)):  # finer knowledge
            check_facts.statement(self, st)
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
        elif isinstance(st, ast.SetDirection):
            check_set_direction(self, st)
        elif isinstance(st, ast.EndRound):
            pass
        elif isinstance(st, ast.Break):
            if not self.loops:
                self.error("E059", "`break` is not inside a loop: there is nothing to end", st.span,
                           help="put it inside the `for each`, `repeat` or `while` it ends, or remove it")
        elif isinstance(st, ast.CallPhase):
            self.call_phase(st)
        elif isinstance(st, ast.If):
            for cond, body in st.branches:
                self.expect(cond, (BOOL,), "a condition")
                self.block(body)
            self.block(st.orelse)
        elif isinstance(st, ast.ForEach):
            src = self.expect(st.source, (PLAYERS, CARDS, ZONE, LIST, ZONES, SUITS, RANKS, TEAMS, VALUE_LISTS),
                              "what `for each` goes through")
            self.scopes.append({})
            self.bind(st.var, element(src), st.var_span)
            if st.where is not None:
                self.expect(st.where, (BOOL,), "a condition")
            self.loop_body(st.body)
            self.scopes.pop()
        elif isinstance(st, ast.Repeat):
            self.expect(st.count, (NUMBER,), "how many times")
            self.loop_body(st.body)
        elif isinstance(st, ast.While):
            self.expect(st.cond, (BOOL,), "a condition")
            self.loop_body(st.body)
        elif isinstance(st, ast.Choose):
            self.choose(st)
        elif isinstance(st, check_pots.STATEMENTS):
            check_pots.stmt(self, st)
        else:  # pragma: no cover - every statement class is handled above
            raise AssertionError(type(st))

    def loop_body(self, stmts) -> None:
        """Checks a loop's body, where a `break` ends the loop."""
        self.loops += 1
        self.block(stmts)
        self.loops -= 1

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
            if self._param_type(p) == ZONE:  # (a parameter of cards is given the cards, not the zone)
                check_groups.passed_on(self, a, f"given to parameter `{p.name}`")

    def choose(self, st: ast.Choose) -> None:
        """Checks a `chooses` and each of its alternatives."""
        if st.at_once is not None:
            check_at_once.check(self, st)
            return
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
            elif alt.kind == "value":
                self.bind(alt.var, check_values.choose_value(self, alt), alt.span)
            elif alt.kind == "set":
                check_values.card_set(self, alt)
                self.bind(alt.var, CARDS, alt.span)
            else:
                self.expect(alt.source, (NUMBER,), "the smallest number")
                self.expect(alt.high, (NUMBER,), "the largest number")
                self.bind(alt.var, NUMBER, alt.span)
            if alt.second is not None:
                if alt.second.var == alt.var:
                    self.error("E011", f"`{alt.var}` names both things chosen", alt.second.var_span)
                self.bind(alt.second.var, check_values.second_value(self, alt.second), alt.second.var_span)
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

def check(module: ast.Module, warnings: bool = True) -> tuple[Symbols, list[Diagnostic]]:
    """Checks a parsed (and merged) module; returns its symbols and every diagnostic, errors and
    warnings. With `warnings=False` the checks that can only warn (W004's information flow, the
    costliest) may be left out: every error is still found (what `load` needs before a game runs)."""
    return Checker(module, warnings).run()
