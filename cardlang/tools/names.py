"""Where each name of a rule file is declared and where it is used, following the checker's scopes
(locals of a block, loop and choice variables, parameters; then the file's and its bases' globals)."""

from __future__ import annotations

import re
from typing import Optional

import attrs

from ..lang import ast
from ..lang.diagnostics import Span


@attrs.define(eq=False)
class Declared:
    """One declared name: its kind, where its name is written, the declaration, the block it is local to."""

    name: str
    kind: str  # option, var, pvar, zone, pzone, order, ranking, define, phase, local
    span: Span
    decl: object = None
    block: Optional[Span] = None  # for a local: the top-level block (or declaration) it lives in


@attrs.define
class Index:
    """Every declaration of a merged module and every use of a name that resolves to one."""

    declared: list = attrs.Factory(list)
    uses: list = attrs.Factory(list)  # of (span, Declared)

    def at(self, file: str, line: int, column: int) -> Optional[Declared]:
        """The declaration of the name written at (line, column) of `file` (a use or the declaration)."""
        for span, d in [(d.span, d) for d in self.declared] + self.uses:
            if span.file == file and span.line == line and span.column <= column <= span.end_column:
                return d
        return None

    def references(self, d: Declared, include_declaration: bool = True) -> list:
        """The spans of a name: its declaration first, then its uses in file order."""
        uses = sorted({(s.file, s.line, s.column): s for s, x in self.uses if x is d}.values(),
                      key=lambda s: (s.file, s.line, s.column))
        return ([d.span] if include_declaration else []) + [s for s in uses if s != d.span]

    def visible(self, file: str, line: int) -> list:
        """The names that may be used on a line: every global, and the locals of its block above it."""
        out = []
        for d in self.declared:
            if d.kind != "local":
                out.append(d)
            elif d.block is not None and d.block.file == file and d.block.line <= line <= d.block.end_line \
                    and d.span.line <= line:
                out.append(d)
        return out


def _name_span(span: Span, name: str) -> Span:
    return Span(span.file, span.line, span.column, span.line, span.column + len(name))


def _callable_kind(kind: str) -> bool:
    return kind in ("pvar", "tvar", "pzone", "define", "order", "ranking", "phase")


class _Walker:
    """Walks the merged module's declarations once, resolving every name as the checker does."""

    def __init__(self, sources):
        self.index = Index()
        self.globals: dict = {}
        self.scopes: list = []
        self.block: Optional[Span] = None
        self.sources = sources  # file -> its text's lines, to find the names the tree has no span for

    def declare_global(self, name: str, kind: str, span: Span, decl) -> None:
        d = Declared(name, kind, span, decl)
        self.index.declared.append(d)
        old = self.globals.get(name)
        if old is not None and {old.kind, kind} in ({"option", "pvar"}, {"option", "pzone"}):
            self.globals[name + "()"] = d if _callable_kind(kind) else old
            self.globals[name] = old if _callable_kind(kind) else d
        else:
            self.globals.setdefault(name, d)

    def bind(self, name: str, span: Optional[Span]) -> None:
        if span is None or not self.scopes:
            return
        d = Declared(name, "local", span, None, self.block)
        self.index.declared.append(d)
        self.scopes[-1][name] = d

    def lookup(self, name: str, called: bool) -> Optional[Declared]:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name]
        if called and name + "()" in self.globals:
            return self.globals[name + "()"]
        return self.globals.get(name)

    def use(self, span: Span, name: str, called: bool = False) -> None:
        d = self.lookup(name, called)
        if d is not None:
            self.index.uses.append((span, d))

    def find(self, span: Span, pattern: str) -> Optional[Span]:
        """The span of a name the tree keeps no span for, found in its line by `pattern` (one group)."""
        lines = self.sources(span.file)
        if not lines or not 1 <= span.line <= len(lines):
            return None
        m = re.compile(pattern).search(lines[span.line - 1], span.column - 1)
        if m is None:
            return None
        return Span(span.file, span.line, m.start(1) + 1, span.line, m.end(1) + 1)

    # -- declarations
    def module(self, module: ast.Module) -> Index:
        for d in module.decls:
            if isinstance(d, (ast.OptionDecl, ast.OrderDecl, ast.RankingDecl, ast.DefineDecl, ast.PointsDecl,
                              ast.ValuesDecl)):
                self.declare_global(d.name, type(d).__name__[:-4].lower(), d.name_span, d)
            elif isinstance(d, ast.ZoneDecl):
                per = any(words == "per player" for words, _ in d.attributes)
                self.declare_global(d.name, "pzone" if per else "zone", d.name_span, d)
            elif isinstance(d, ast.VarDecl):
                self.declare_global(d.name, "pvar" if d.per_player else "tvar" if d.per_team else "var", d.name_span, d)
            elif isinstance(d, ast.BlockDecl) and d.kind == "phase":
                self.declare_global(d.name, "phase", d.name_span, d)
            elif isinstance(d, ast.PotDecl):
                self.declare_global(d.name, "pot", d.name_span, d)
        for d in module.decls:
            self.decl(d)
        return self.index

    def decl(self, d) -> None:
        self.block = d.span
        self.scopes = [{}]
        if isinstance(d, ast.RankingDecl):
            self.use(d.order_span, d.order, True)
        elif isinstance(d, ast.VarDecl):
            self.expr(d.value)
        elif isinstance(d, ast.PotDecl):  # its stacks and who takes odd chips
            if d.stacks is not None:
                self.use(d.stacks_span, d.stacks, True)
            self.expr(d.odd)
        elif isinstance(d, ast.DefineDecl):
            self.params(d.params)
            self.expr(d.body)
        elif isinstance(d, ast.DeckDecl):
            for cond, _ in d.choices:
                self.expr(cond)
        elif isinstance(d, ast.ScoreDecl):
            self.bind(d.var, self.find(d.span, r"score\s+of\s+([A-Za-z_]\w*)"))
            self.expr(d.value)
        elif isinstance(d, ast.PayoffDecl):
            if d.var is not None:
                self.bind(d.var, self.find(d.span, r"payoff\s+of\s+([A-Za-z_]\w*)"))
            self.expr(d.value)
        elif isinstance(d, ast.BlockDecl):
            self.params(d.params)
            self.stmts(d.body)
        self.scopes = []

    def params(self, params) -> None:
        for p in params:
            self.bind(p.name, _name_span(p.span, p.name))

    # -- statements
    def stmts(self, stmts) -> None:
        self.scopes.append({})
        for st in stmts:
            self.stmt(st)
        self.scopes.pop()

    def stmt(self, st) -> None:
        if isinstance(st, (ast.Set, ast.Add)):
            t = st.target
            self.use(_name_span(t.span, t.name), t.name, t.kind in ("player", "player item"))
            self.expr(t.key)
            self.expr(t.index)
            self.expr(st.value if isinstance(st, ast.Set) else st.amount)
        elif isinstance(st, ast.Let):
            self.expr(st.value)
            self.bind(st.name, st.name_span)
        elif isinstance(st, ast.CallPhase):
            if isinstance(st.expr, ast.Name):
                self.use(st.expr.span, st.expr.name, True)
            else:
                self.expr(st.expr)
        elif isinstance(st, ast.If):
            for cond, body in st.branches:
                self.expr(cond)
                self.stmts(body)
            self.stmts(st.orelse)
        elif isinstance(st, ast.ForEach):
            self.expr(st.source)
            self.scopes.append({})
            self.bind(st.var, st.var_span)
            self.expr(st.where)
            self.stmts(st.body)
            self.scopes.pop()
        elif isinstance(st, (ast.Repeat, ast.While)):
            self.expr(st.count if isinstance(st, ast.Repeat) else st.cond)
            self.stmts(st.body)
        elif isinstance(st, ast.Choose) and st.at_once is not None:  # `each player p in … chooses at once`
            self.expr(st.at_once.seats)
            self.scopes.append({})
            self.bind(st.at_once.var, st.at_once.var_span)
            for alt in st.alternatives:
                self.alternative(alt)
            self.scopes.pop()
        elif isinstance(st, ast.Choose):
            self.expr(st.player)
            for alt in st.alternatives:
                self.alternative(alt)
        elif isinstance(st, (ast.PutIn, ast.Betting, ast.Award)):  # pots and betting
            self.use(st.pot_span, st.pot)
            if isinstance(st, ast.Award):
                self.scopes.append({})
                self.bind(st.var, st.var_span)
                self.expr(st.value)
                self.scopes.pop()
            else:
                self.children(st)
        else:
            self.children(st)

    def alternative(self, alt: ast.Alternative) -> None:
        self.scopes.append({})
        if alt.var is not None:
            self.expr(alt.source)
            self.expr(alt.high)
            self.bind(alt.var, self.find(alt.span, rf"(?:card|number|player|\w+)\s+({re.escape(alt.var)})\b"))
        if alt.second is not None:
            self.bind(alt.second.var, alt.second.var_span)
        self.expr(alt.label)  # `as "bid {n}"` shows the chosen number
        self.expr(alt.where)
        self.stmts(alt.body)
        self.scopes.pop()

    # -- expressions
    def expr(self, e) -> None:
        if e is None:
            return
        if isinstance(e, ast.Name):
            self.use(e.span, e.name)
        elif isinstance(e, ast.Call):
            self.use(e.func_span, e.func, True)
            for a in e.args:
                self.expr(a)
        elif isinstance(e, ast.Aggregate):
            self.expr(e.source)
            self.scopes.append({})
            self.bind(e.var, e.var_span)
            self.expr(e.body)
            self.expr(e.where)
            self.scopes.pop()
        elif isinstance(e, ast.Text):
            for part in e.parts:
                if not isinstance(part, str):
                    self.expr(part)
        else:
            self.children(e)

    def children(self, node) -> None:
        """The expressions directly inside a node that binds no name."""
        for f in attrs.fields(type(node)):
            value = getattr(node, f.name)
            for v in value if isinstance(value, tuple) else (value,):
                if isinstance(v, ast.Expr):
                    self.expr(v)


def index(module: ast.Module, sources) -> Index:
    """The index of a merged module; `sources(file)` gives a file's lines (or None)."""
    return _Walker(sources).module(module)
