"""Stage 1, parse: text → `ast.Module`, with every syntax error of the file as a `Diagnostic`."""

from __future__ import annotations

import contextvars
import functools
from typing import Optional

import attrs
from lark import Token, v_args
from lark.exceptions import UnexpectedInput
from lark.indenter import DedentError

from . import ast
from .diagnostics import Diagnostic, Span
from .grammar import TooManyTokens as _TooManyTokens
from .limits import MAX_LINES, MAX_TEXT_PARTS, MAX_TOKENS
from .parse_decls import _Declarations
from .text_literals import interpolations, unquote
from .grammar import grammar_text, parser
from .indentation import dedent_line as _dedent_line, overindented_first, reindent as _reindent
from .soft_keywords import hard_names, soft_parse
from .tree_limits import beyond_limits

__all__ = ["parse", "parse_expr", "parser", "grammar_text", "unquote"]

_HARD_NAMES: contextvars.ContextVar = contextvars.ContextVar("hard_names", default=frozenset())
MAX_SYNTAX_ERRORS = 50  # recovery stops after this many; the text output shows the first 20
RECOVERY_BUDGET = 4_000_000  # characters that recovery may parse again (more for bigger files)


# ------------------------------------------------------------------ transformer
def _span(file: str, meta) -> Span:
    return Span(file, meta.line, meta.column, meta.end_line, meta.end_column)


def _tok_span(file: str, tok: Token) -> Span:
    return Span(file, tok.line, tok.column, tok.end_line or tok.line, tok.end_column or tok.column + len(tok))


@v_args(meta=True)
class _ToAst(_Declarations):
    """Builds `ast` nodes from Lark's parse tree, each with its span (the declarations's methods:
    `parse_decls._Declarations`)."""

    def __init__(self, file: str, line_offset: int = 0, col_offset: int = 0):
        super().__init__()
        self.file = file
        self.problems: list = []  # interpolations `{…}` that are not expressions
        self.part_cost = 0  # characters of the file's `{…}` parts and braces so far (MAX_TEXT_PARTS)
        self.names_all = False  # whether the file names something `all` (then `deal all` is that name)
        self.hard_names: frozenset = frozenset()  # words that alone are expressions the file names things

    def S(self, meta) -> Span:
        return _span(self.file, meta)

    def T(self, tok: Token) -> Span:
        return _tok_span(self.file, tok)

    # -- module
    def start(self, meta, items):
        return list(items)

    # -- statements
    def block(self, meta, c):
        return tuple(c)

    def inline_block(self, meta, c):
        return (c[0],)

    def pass_stmt(self, meta, c):
        return ast.Pass(self.S(meta))

    def break_stmt(self, meta, c):
        return ast.Break(self.S(meta))

    def target_name(self, meta, c):
        return ast.Target(self.S(meta), str(c[0]), None, "name")

    def target_player(self, meta, c):
        return ast.Target(self.S(meta), str(c[0]), c[1], "player")

    def target_item(self, meta, c):
        return ast.Target(self.S(meta), str(c[0]), c[1], "item")

    def target_player_item(self, meta, c):
        return ast.Target(self.S(meta), str(c[0]), c[1], "player item", c[2])

    def set_stmt(self, meta, c):
        return ast.Set(self.S(meta), c[0], c[1])

    def let_stmt(self, meta, c):
        return ast.Let(self.S(meta), str(c[0]), c[1], self.T(c[0]))

    def add_stmt(self, meta, c):
        return ast.Add(self.S(meta), "+", c[0], c[1])

    def subtract_stmt(self, meta, c):
        return ast.Add(self.S(meta), "-", c[0], c[1])

    def facing(self, meta, c):
        return str(c[1])

    def _word(self, meta, c):
        return c[0]  # the keyword's token, which keeps its position

    place = winners = side = end = agg = fold = best = _word

    def move_stmt(self, meta, c):
        return ast.Move(self.S(meta), c[0], str(c[1]), c[2], c[3], c[4] is not None)

    def lay_stmt(self, meta, c):
        return ast.Lay(self.S(meta), c[0], "to", c[1], "up", False, c[2])

    def deal_stmt(self, meta, c):
        return ast.Deal(self.S(meta), c[0], c[1], c[2], c[3])

    def deal_all_stmt(self, meta, c):
        _, word, _, source, _, dest, facing = c
        # a file that names something `all` meant that name (`var all = 3`, `deal all from …`)
        count = ast.Name(self.T(word), "all") if self.names_all else None
        return ast.Deal(self.S(meta), count, source, dest, facing)

    def shuffle_stmt(self, meta, c):
        return ast.Shuffle(self.S(meta), c[0])

    def swap_stmt(self, meta, c):
        return ast.Swap(self.S(meta), c[0], c[1])

    def reveal_stmt(self, meta, c):
        return ast.Reveal(self.S(meta), c[0], c[1])

    def hide_stmt(self, meta, c):
        return ast.Hide(self.S(meta), c[0])

    # finer knowledge (docs/language.md, "Finer knowledge")
    def tell_face(self, meta, c):
        return ast.TellFace(self.S(meta), c[0], str(c[1]), c[2], self.T(c[1]))

    def tell_which(self, meta, c):
        return ast.TellWhich(self.S(meta), c[0], c[1], c[2])

    def forget_stmt(self, meta, c):
        return ast.ForgetOrder(self.S(meta), c[0])

    def announce_stmt(self, meta, c):
        return ast.Announce(self.S(meta), self._text(c[0]), None)

    # -- pots and betting
    def pot_decl(self, meta, c):
        stacks = next((a for a in c[1:] if a[0] == "stacks"), None)
        odd = next((a for a in c[1:] if a[0] == "odd chips"), None)
        return ast.PotDecl(self.S(meta), str(c[0]), stacks[2] if stacks else None, stacks[3] if stacks else None,
                           odd[2] if odd else None, self.T(c[0]), tuple((a[0], a[1]) for a in c[1:]))

    def pot_stacks(self, meta, c):
        return ("stacks", self.S(meta), str(c[0]), self.T(c[0]))

    def pot_odd(self, meta, c):
        return ("odd chips", self.S(meta), c[0], None)

    def put_stmt(self, meta, c):
        return ast.PutIn(self.S(meta), c[1], c[0], str(c[2]), self.T(c[2]))

    def bets_stmt(self, meta, c):
        attrs_ = [a for a in c[2:] if a is not None]
        got = {}
        for word, span, e in attrs_:
            got.setdefault(word, e)
        return ast.Betting(self.S(meta), str(c[0]), self.T(c[0]), c[1], got.get("blinds"), got.get("minimum raise"),
                           got.get("raises of"), got.get("at most"), tuple((w, s) for w, s, _ in attrs_))

    def bet_blinds(self, meta, c):
        return ("blinds", self.S(meta), c[0])

    def bet_minimum(self, meta, c):
        return ("minimum raise", self.S(meta), c[0])

    def bet_fixed(self, meta, c):
        return ("raises of", self.S(meta), c[0])

    def bet_cap(self, meta, c):
        return ("at most", self.S(meta), c[0])

    def pay_stmt(self, meta, c):
        return ast.Award(self.S(meta), str(c[0]), self.T(c[0]), str(c[1]) == "lowest", str(c[2]), self.T(c[2]), c[3])

    def say_stmt(self, meta, c):
        return ast.Announce(self.S(meta), self._text(c[1]), c[0])

    def eliminate_stmt(self, meta, c):
        return ast.Eliminate(self.S(meta), c[0])

    def sit_out_stmt(self, meta, c):
        return ast.Eliminate(self.S(meta), c[0], True)

    def passes_stmt(self, meta, c):
        return ast.Passes(self.S(meta), c[0])

    def end_game_stmt(self, meta, c):
        return ast.EndGame(self.S(meta), c[1])

    def end_round_stmt(self, meta, c):
        return ast.EndRound(self.S(meta))

    def call_stmt(self, meta, c):
        e = c[0]
        if isinstance(e, ast.Name):
            return ast.CallPhase(self.S(meta), e.name, (), e)
        if isinstance(e, ast.Call):
            return ast.CallPhase(self.S(meta), e.func, e.args, e)
        return ast.CallPhase(self.S(meta), "", (), e)

    def elif_clause(self, meta, c):
        return [c[0], c[1]]  # a list, so that if_stmt tells it from a block (a tuple)

    def else_clause(self, meta, c):
        return c[0]

    def if_stmt(self, meta, c):
        cond, body, *rest = c
        orelse = rest.pop()  # the placeholder of [else_clause]: None or a block
        branches = ((cond, body),) + tuple((r[0], r[1]) for r in rest)
        return ast.If(self.S(meta), branches, orelse or ())

    def for_stmt(self, meta, c):
        return ast.ForEach(self.S(meta), str(c[0]), c[1], c[2], c[3], self.T(c[0]))

    def repeat_stmt(self, meta, c):
        return ast.Repeat(self.S(meta), c[0], c[1])

    def repeat_until_stmt(self, meta, c):
        return ast.While(self.S(meta), c[0], c[1], True)

    def while_stmt(self, meta, c):
        return ast.While(self.S(meta), c[0], c[1], False)

    def label(self, meta, c):
        return self._text(c[0])

    def option_alt(self, meta, c):
        return ast.Alternative(self.S(meta), "option", self._text(c[0]), None, None, None, c[1], c[2])

    def card_alt(self, meta, c):
        c = [x for x in c if not (isinstance(x, Token) and x.type == "A")]
        name, source, where, label, body = c[-5:]
        return ast.Alternative(self.S(meta), "card", label, str(name), source, None, where, body)

    def card_pile_alt(self, meta, c):
        c = [x for x in c if not (isinstance(x, Token) and x.type == "A")]
        name, source, pile, family, where, label, body = c[-7:]
        a, b = self.T(pile), self.T(family)
        span = attrs.evolve(a, end_line=b.end_line, end_column=b.end_column)  # from `k` to the family's name
        choice = ast.PileChoice(span, str(pile), str(family), b)
        return ast.Alternative(self.S(meta), "card", label, str(name), source, None, where, body, choice)

    def number_alt(self, meta, c):
        c = [x for x in c if not (isinstance(x, Token) and x.type == "A")]
        name, low, high, where, label, body = c[-6:]
        return ast.Alternative(self.S(meta), "number", label, str(name), low, high, where, body)

    def player_alt(self, meta, c):
        c = [x for x in c if not (isinstance(x, Token) and x.type == "A")]
        name, source, where, label, body = c[-5:]
        return ast.Alternative(self.S(meta), "player", label, str(name), source, None, where, body)

    def value_alt(self, meta, c):
        c = [x for x in c if not (isinstance(x, Token) and x.type == "A")]
        kind, name, source, where, label, body = c[-6:]
        return ast.Alternative(self.S(meta), "value", label, str(name), source, None, where, body,
                               vtype=str(kind), vtype_span=self.T(kind))

    def number_list_alt(self, meta, c):
        c = [x for x in c if not (isinstance(x, Token) and x.type == "A")]
        name, source, where, label, body = c[-5:]
        return ast.Alternative(self.S(meta), "value", label, str(name), source, None, where, body, vtype="number")

    def set_alt(self, meta, c):
        c = [x for x in c if not (isinstance(x, Token) and x.type == "A")]
        name, low, high, source, where, label, body = c[-7:]
        sizes = (int(low), int(high) if high is not None else int(low))
        return ast.Alternative(self.S(meta), "set", label, str(name), source, None, where, body, sizes=sizes)

    def _second(self, kind, name) -> "ast.SecondChoice":
        kind_span, name_span = self.T(kind), self.T(name)  # (`a strain s`: the node spans both words)
        span = Span(kind_span.file, kind_span.line, kind_span.column, name_span.end_line, name_span.end_column)
        return ast.SecondChoice(span, str(name), str(kind), kind_span, name_span)

    def number_and_alt(self, meta, c):
        c = [x for x in c if not (isinstance(x, Token) and x.type == "A")]
        name, low, high, kind, second, where, label, body = c[-8:]
        return ast.Alternative(self.S(meta), "number", label, str(name), low, high, where, body,
                               second=self._second(kind, second))

    def player_and_alt(self, meta, c):
        c = [x for x in c if not (isinstance(x, Token) and x.type == "A")]
        name, source, kind, second, where, label, body = c[-7:]
        return ast.Alternative(self.S(meta), "player", label, str(name), source, None, where, body,
                               second=self._second(kind, second))

    def choose_stmt(self, meta, c):
        return ast.Choose(self.S(meta), c[0], tuple(c[1:]))

    # -- simultaneous choices
    def at_once_stmt(self, meta, c):
        c = [x for x in c if not (isinstance(x, Token) and x.type == "AT_ONCE")]
        name = self.T(c[0])
        span = attrs.evolve(name, end_line=c[1].span.end_line, end_column=c[1].span.end_column)
        together = ast.AtOnce(span, str(c[0]), name, c[1])
        return ast.Choose(self.S(meta), ast.Name(name, str(c[0])), tuple(c[2:]), together)

    # -- expressions
    def number(self, meta, c):
        return ast.Number(self.S(meta), int(c[0]))

    def string(self, meta, c):
        return self._text(c[0])

    def true(self, meta, c):
        return self._named("true", meta) or ast.Bool(self.S(meta), True)

    def false(self, meta, c):
        return self._named("false", meta) or ast.Bool(self.S(meta), False)

    def none(self, meta, c):
        return self._named("none", meta) or ast.NoneLit(self.S(meta))

    def _named(self, word: str, meta) -> Optional[ast.Name]:
        """A word that alone is an expression (`players`) where the file names something so (E017,
        reported once where it is declared): the name, so that its uses say nothing more."""
        return ast.Name(self.S(meta), word) if word in self.hard_names else None

    def name(self, meta, c):
        return ast.Name(self.S(meta), str(c[0]))

    def card_rank(self, meta, c):
        return c[0]

    def card_literal(self, meta, c):
        rank, suit = c
        return ast.CardLit(self.S(meta), str(rank), str(suit), self.T(rank), self.T(suit))

    def list_expr(self, meta, c):
        return ast.ListExpr(self.S(meta), c[0] or ())

    def args(self, meta, c):
        return tuple(c)

    def call(self, meta, c):
        return ast.Call(self.S(meta), str(c[0]), c[1] or (), self.T(c[0]))

    def builtin_call(self, meta, c):
        return ast.Call(self.S(meta), str(c[0]), c[1] or (), self.T(c[0]))

    def index(self, meta, c):
        return ast.Index(self.S(meta), c[0], c[1])

    def negate(self, meta, c):
        return ast.Unary(self.S(meta), "-", c[1])

    def not_op(self, meta, c):
        return ast.Unary(self.S(meta), "not", c[0])

    def binary(self, meta, c):
        return ast.Binary(self.S(meta), str(c[1]), c[0], c[2])

    def compare(self, meta, c):
        return ast.Binary(self.S(meta), str(c[1]), c[0], c[2])

    def or_op(self, meta, c):
        return ast.Binary(self.S(meta), "or", c[0], c[1])

    def and_op(self, meta, c):
        return ast.Binary(self.S(meta), "and", c[0], c[1])

    def member(self, meta, c):
        return ast.Binary(self.S(meta), "in", c[0], c[1])

    def is_op(self, meta, c):
        return ast.Binary(self.S(meta), "is", c[0], c[1])

    def is_not_op(self, meta, c):
        return ast.Binary(self.S(meta), "is not", c[0], c[1])

    def face_up_op(self, meta, c):
        return ast.FaceUp(self.S(meta), c[0])

    def group_of(self, meta, c):
        return ast.GroupOf(self.S(meta), c[0])

    def position_of(self, meta, c):
        return ast.PositionOf(self.S(meta), c[0], c[1])

    def range_expr(self, meta, c):
        return ast.Range(self.S(meta), c[0], c[2])

    def piles_of(self, meta, c):
        return ast.PilesOf(self.S(meta), str(c[0]), self.T(c[0]))

    def has_op(self, meta, c):
        return ast.Binary(self.S(meta), "has", c[0], c[1])

    def except_op(self, meta, c):
        return ast.Binary(self.S(meta), "except", c[0], c[1])

    def conditional(self, meta, c):
        return ast.Conditional(self.S(meta), c[0], c[1], c[2])

    def neighbour(self, meta, c):
        return ast.Neighbour(self.S(meta), str(c[0]), c[1])

    def end_card(self, meta, c):
        return ast.EndCard(self.S(meta), str(c[0]), c[1], None)

    def end_cards(self, meta, c):
        return ast.EndCard(self.S(meta), str(c[0]), c[2], c[1])

    def players(self, meta, c):
        return (self._named("players", meta) if c[0] is None else None) or ast.Players(self.S(meta), c[0], c[1])

    def seats(self, meta, c):
        return self._named("seats", meta) or ast.Seats(self.S(meta))

    def all_cards(self, meta, c):
        return ast.AllCards(self.S(meta))

    def everyone_passed(self, meta, c):
        return ast.EveryonePassed(self.S(meta))

    def filter_agg(self, meta, c):
        return ast.Aggregate(self.S(meta), str(c[0]), str(c[1]), c[2], None, c[3], self.T(c[1]))

    def fold_agg(self, meta, c):
        return ast.Aggregate(self.S(meta), str(c[0]), str(c[1]), c[2], c[3], c[4], self.T(c[1]))

    def best_agg(self, meta, c):
        return ast.Aggregate(self.S(meta), str(c[0]), str(c[1]), c[2], c[3], c[4], self.T(c[1]))

    # -- text with {expr} parts
    def _text(self, tok: Token) -> ast.Text:
        value = unquote(tok)
        span = self.T(tok)
        parts: list = []
        if "{" in value and self.part_cost <= MAX_TEXT_PARTS:
            raw = str(tok)[1:-1]
            pos = 0
            for start, end, is_expr in interpolations(raw):
                # each part costs its length (at least its tokens), a brace one: past the budget, the
                # file is refused before more are parsed (a 9 MiB text of `{1}`s took 1.2 GB)
                self.part_cost += end - start - 1 if is_expr else 1
                if self.part_cost > MAX_TEXT_PARTS:
                    self.problems.append(_too_many_parts(span))
                    break
                parts.append(unquote('"' + raw[pos:start] + '"'))
                if not is_expr:
                    parts.append(raw[start])
                else:
                    col = tok.column + 2 + start
                    try:
                        parts.append(parse_expr(raw[start + 1 : end - 1], self.file, tok.line, col))
                    except _InterpolationError as problem:
                        self.problems.append(problem.diagnostic)
                pos = end
            parts.append(unquote('"' + raw[pos:] + '"'))
        return ast.Text(span, value, tuple(p for p in parts if p != ""))


def _too_many_parts(span: Span) -> Diagnostic:
    limit = f"{MAX_TEXT_PARTS:,}".replace(",", " ")
    return Diagnostic("E009", "error", f"the texts of this file hold more than {limit} characters of `{{…}}` "
                      "parts and braces; a rule file has at most that many",
                      Span(span.file, span.line, span.column, span.line, span.column + 1),
                      help="the texts of the largest game hold under 200: split this one with `extends`")


def parse_expr(text: str, file: str, line: int, column: int) -> ast.Expr:
    """An expression inside `{…}` of a text, with spans placed where it stands in the file."""
    kind, value = _interpolation(text, file, _HARD_NAMES.get())
    if kind == "bad":
        span = Span(file, line, column, line, column + max(1, len(text)))
        raise _InterpolationError(Diagnostic("E001", "error", f"`{{{text}}}` in a text is not an expression", span,
                                             help="write `{{` for a brace, or an expression such as `{p}`"))
    if kind == "deep":
        raise _InterpolationError(_shift(value, line - 1, column - 1))
    return _shift(value, line - 1, column - 1)


@functools.lru_cache(maxsize=4096)
def _interpolation(text: str, file: str, hard: frozenset) -> tuple:
    """("ok", node at line 1), ("deep", diagnostic) or ("bad", None): texts repeat the same `{p}` often."""
    try:
        tree = soft_parse(text, "expr")[0]
    except (UnexpectedInput, _TooManyTokens):
        return "bad", None
    deep = beyond_limits(tree, file)
    if deep is not None:
        return "deep", deep
    builder = _ToAst(file)
    builder.hard_names = hard
    node = builder.transform(tree)
    if builder.problems:  # a text quoted inside the part has a bad `{…}` of its own
        return "deep", builder.problems[0]
    return "ok", node


class _InterpolationError(Exception):
    def __init__(self, diagnostic: Diagnostic):
        self.diagnostic = diagnostic


def _shift(obj, dline: int, dcol: int):
    """Moves every span of an expression parsed alone to where it stands in the file."""
    import attrs as _attrs

    if isinstance(obj, Span):
        col = obj.column + dcol if obj.line == 1 else obj.column
        ecol = obj.end_column + dcol if obj.end_line == 1 else obj.end_column
        return Span(obj.file, obj.line + dline, col, obj.end_line + dline, ecol)
    if isinstance(obj, tuple):
        return tuple(_shift(x, dline, dcol) for x in obj)
    if _attrs.has(type(obj)):
        changes = {}
        for f in _attrs.fields(type(obj)):
            v = getattr(obj, f.name)
            nv = _shift(v, dline, dcol)
            if nv is not v:
                changes[f.name] = nv
        return _attrs.evolve(obj, **changes) if changes else obj
    return obj


def _replacements(lines: list, line_no: int, reindented: bool) -> list:
    """Lines that could stand in for a broken one so that parsing goes on (recovery), best first:
    a block header if the next line is indented more, else `pass`, an option of a `chooses`, nothing."""
    text = lines[line_no - 1]
    indent = text[: len(text) - len(text.lstrip())]
    width = len(indent.expandtabs(8))
    header = False
    for nxt in lines[line_no:]:
        if nxt.strip() and not nxt.lstrip().startswith("#"):
            header = len(nxt.expandtabs(8)) - len(nxt.expandtabs(8).lstrip()) > width
            break
    if not indent:
        out = ["phase recovered_line_%d:" % line_no] if header else [""]
    elif header:
        out = [indent + "if true:", indent + '"recovered":']
    else:
        out = [indent + "pass", indent + '"recovered": pass', ""]
    if reindented:
        out.insert(0, text)
    return [x for i, x in enumerate(out) if x not in out[:i]] or [""]


def _too_many_lines(file: str) -> Diagnostic:
    limit = f"{MAX_LINES:,}".replace(",", " ")
    return Diagnostic("E009", "error", f"this file has more than {limit} lines; a rule file has at most that many",
                      Span(file, MAX_LINES + 1, 1, MAX_LINES + 1, 2),
                      help="the largest game has under 200: split this one with `extends`")


def parse(source: str, file: str = "<text>") -> tuple[Optional[ast.Module], list[Diagnostic]]:
    """Parses a whole file. Returns the module (None if it had syntax errors) and the diagnostics.

    Parsing recovers after an error by replacing the broken line (re-indenting it, or putting `pass`,
    a block header or nothing in its place) and parsing again, so that one run reports the file's
    other syntax errors too.
    """
    # a byte order mark, which some editors write at the start of a UTF-8 file: invisible, not a character
    # of the rules (it was "unexpected character" at 1:1)
    source = source.removeprefix("\ufeff")
    if not source.endswith("\n"):
        source += "\n"
    if source.count("\n") > MAX_LINES:  # before the lines are split: millions of them took 200 bytes each
        return None, [_too_many_lines(file)]
    lines = source.split("\n")
    diagnostics: list[Diagnostic] = []
    fixing, candidates = 0, []  # the line recovery last replaced, and what else it could try there
    budget = max(RECOVERY_BUDGET, len(source))  # characters re-parsed in all, so huge files stay quick
    for _ in range(4 * MAX_SYNTAX_ERRORS):
        text = "\n".join(lines)
        try:
            tree = soft_parse(text, "start")[0]
        except _TooManyTokens as e:
            line, col = e.token.line or 1, e.token.column or 1
            limit = f"{MAX_TOKENS:,}".replace(",", " ")
            return None, [Diagnostic("E009", "error", f"this file has more than {limit} words, numbers and symbols; "
                                     "a rule file has at most that many",
                                     Span(file, line, col, line, col + 1),
                                     help="the largest game has under 1000: split this one with `extends`")]
        except DedentError as e:
            line = _dedent_line(e, text)
            first = overindented_first(lines, line)
            if first is not None:  # the block's first line went too far: the lines after it are right
                here = lines[first - 1]
                start = len(here) - len(here.lstrip()) + 1
                after = lines[line - 1]
                lines[first - 1] = after[: len(after) - len(after.lstrip())] + here.lstrip()  # recovery
                d = Diagnostic("E003", "error", "this line is indented more than the rest of its block",
                               Span(file, first, start, first, max(start + 1, len(here.rstrip()) + 1)),
                               help="indent it as far as the lines after it in its block")
            else:
                here = lines[line - 1]
                start = len(here) - len(here.lstrip()) + 1
                d = Diagnostic("E003", "error", "this line's indentation matches no enclosing block",
                               Span(file, line, start, line, max(start + 1, len(here.rstrip()) + 1)),
                               help="indent it exactly as far as the block it belongs to")
        except UnexpectedInput as e:
            from .syntax_errors import syntax_diagnostic  # (a file without syntax errors never needs it)

            d = syntax_diagnostic(e, file, lines)
        else:
            if diagnostics:
                return None, diagnostics
            deep = beyond_limits(tree, file)
            if deep is not None:
                return None, [deep]
            builder = _ToAst(file)
            builder.hard_names = hard_names(tree)
            builder.names_all = any(True for _ in tree.scan_values(lambda v: isinstance(v, Token) and v.type == "NAME"
                                                                     and v == "all"))
            # (the `{…}` parts of its texts are parsed on their own, with this file's hard names; reset
            # after it, or the next `parse_expr` of the process would read them as another file's)
            token = _HARD_NAMES.set(builder.hard_names)
            try:
                decls = builder.transform(tree)
            finally:
                _HARD_NAMES.reset(token)
            if builder.problems:
                return None, builder.problems
            return ast.Module(file, source, tuple(decls)), diagnostics
        line = d.span.line
        budget -= sum(len(t) + 1 for t in lines[: max(0, line - 1)])
        if budget < 0 and diagnostics:
            break
        unclosed = d.message.endswith("is never closed") and not any(x.span.line == line for x in diagnostics)
        if fixing and line <= fixing and not unclosed:
            # the replacement made an error at or before its own line: try the next one, silently
            if not candidates:
                break
            lines[fixing - 1] = candidates.pop(0)
            continue
        if not 1 <= line <= len(lines) or len(diagnostics) >= MAX_SYNTAX_ERRORS:
            diagnostics.append(d)
            break
        diagnostics.append(d)
        if d.code == "E003" and not d.message.endswith("the rest of its block"):  # that one is re-indented
            _reindent(lines, line)
        candidates = _replacements(lines, line, reindented=d.code == "E003")
        fixing = line
        if d.code != "E003":
            lines[line - 1] = candidates.pop(0)
    return None, diagnostics
