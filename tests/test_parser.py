"""Properties of the parser (hypothesis): precedence and associativity, spans, and no crash on any text.

(a) random expression trees, printed with every parenthesis or with only those the grammar needs,
    parse back to the same tree; (b) every node of a game file has a span inside the file, inside its
    parent's; (c) any text gives a module or diagnostics placed inside the text, never an exception.
"""

from __future__ import annotations

import glob
import os
import random

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardlang.lang import ast
from cardlang.lang.diagnostics import Span
from cardlang.lang.parse import parse, parse_expr

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAME_FILES = sorted(glob.glob(os.path.join(ROOT, "games", "*.cards")) + glob.glob(os.path.join(ROOT, "examples", "*.cards")))

HYP = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# ------------------------------------------------------------------ (a) expression trees
# A generated tree is a tuple: ("num", n), ("name", s), ("true",), ("false",), ("none",), (op, left,
# right), ("not", x), ("neg", x), ("if", then, cond, otherwise), ("call", f, args), ("index", base, i),
# ("list", items), ("side", side, player), ("end", end, count or None, zone), ("players", start or
# None, stop or None), ("agg", kind, var, source, body or None, where or None). `shape` turns a
# parsed `ast.Expr` into the same form, so the two compare directly.

# Levels of the grammar, loosest first: each node has one, and each place in a node needs at least one.
TERNARY, OR, AND, NOT, COMPARE, SUM, PRODUCT, UNARY, POSTFIX, ATOM = range(10)
COMPARE_OPS = ["==", "!=", "<", ">", "<=", ">=", "in", "is", "is not", "has"]
SUM_OPS = ["+", "-", "except"]
PRODUCT_OPS = ["*", "/", "%"]
NAMES = ["x", "y", "zz", "dealer", "tokens", "p2", "_k"]
FUNCS = ["f", "g", "hand", "min", "max", "count", "sum", "any", "select"]
LEVELS = {"if": TERNARY, "or": OR, "and": AND, "not": NOT, "neg": UNARY, "side": UNARY, "end": UNARY,
          "call": POSTFIX, "index": POSTFIX, **{op: COMPARE for op in COMPARE_OPS},
          **{op: SUM for op in SUM_OPS}, **{op: PRODUCT for op in PRODUCT_OPS}}
# the least level each operand of a binary operator must have to go without parentheses
BINARY_PLACES = {"or": (OR, AND), "and": (AND, NOT), **{op: (SUM, SUM) for op in COMPARE_OPS},
                 **{op: (SUM, PRODUCT) for op in SUM_OPS}, **{op: (PRODUCT, UNARY) for op in PRODUCT_OPS}}


def level(tree) -> int:
    return LEVELS.get(tree[0], ATOM)


def render(tree, full: bool) -> str:
    """The text of a tree: with parentheses around every compound part (`full`), or only where needed."""
    return _render(tree, full)[0]


def _render(tree, full: bool) -> tuple:
    """(text, open): `open` when the text ends in an expression that would take in what follows it
    (an aggregate's `where …`, `players from p`), so that it needs parentheses unless it comes last."""

    def part(sub, least: int, followed: bool = False) -> tuple:
        text, is_open = _render(sub, full)
        compound = sub[0] not in ("num", "name", "true", "false", "none")
        if (full and compound) or level(sub) < least or (followed and is_open):
            return f"({text})", False
        return text, is_open

    def inside(sub) -> str:  # between brackets or before a comma nothing is taken in
        return part(sub, TERNARY)[0]

    kind = tree[0]
    if kind in ("num", "name"):
        return str(tree[1]), False
    if kind in ("true", "false", "none"):
        return kind, False
    if kind in ("not", "neg"):
        text, is_open = part(tree[1], NOT if kind == "not" else UNARY)
        return ("not " if kind == "not" else "-") + text, is_open
    if kind == "if":
        _, then, cond, otherwise = tree
        text, is_open = part(otherwise, TERNARY)
        return f"{part(then, OR, True)[0]} if {part(cond, OR, True)[0]} else {text}", is_open
    if kind == "call":
        return tree[1] + "(" + ", ".join(inside(a) for a in tree[2]) + ")", False
    if kind == "index":
        return f"{part(tree[1], POSTFIX, True)[0]}[{inside(tree[2])}]", False
    if kind == "list":
        return "[" + ", ".join(inside(a) for a in tree[1]) + "]", False
    if kind == "side":
        text, is_open = part(tree[2], UNARY)
        return f"{tree[1]} of {text}", is_open
    if kind == "end":
        _, end, count, zone = tree
        text, is_open = part(zone, UNARY)
        if count is None:
            return f"{end} of {text}", is_open
        return f"{end} {part(count, UNARY, True)[0]} of {text}", is_open
    if kind == "players":
        _, start, stop = tree
        if start is None:
            return "players", False
        if stop is None:
            return f"players from {part(start, UNARY)[0]}", True
        return f"players from {part(start, UNARY, True)[0]} to {part(stop, UNARY)[0]}", True
    if kind == "agg":
        _, agg, var, source, body, where = tree
        head = f"{agg} {var} in {part(source, SUM, True)[0]}"
        if agg in ("any", "count", "select"):
            return f"{head} where {part(where, TERNARY)[0]}", True
        word = "of" if agg in ("sum", "min", "max") else "by"
        text = f"{head} {word} {part(body, TERNARY if word == 'of' else SUM, where is not None)[0]}"
        if where is not None:
            text += f" where {part(where, TERNARY)[0]}"
        return text, True
    left_least, right_least = BINARY_PLACES[kind]
    text, is_open = part(tree[2], right_least)
    return f"{part(tree[1], left_least, True)[0]} {kind} {text}", is_open


def shape(e):
    """A parsed expression in the form of the generated trees (spans dropped)."""
    if e is None:
        return None
    if isinstance(e, ast.Number):
        return ("num", e.value)
    if isinstance(e, ast.Name):
        return ("name", e.name)
    if isinstance(e, ast.Bool):
        return ("true",) if e.value else ("false",)
    if isinstance(e, ast.NoneLit):
        return ("none",)
    if isinstance(e, ast.Unary):
        return ("neg" if e.op == "-" else "not", shape(e.operand))
    if isinstance(e, ast.Binary):
        return (e.op, shape(e.left), shape(e.right))
    if isinstance(e, ast.Conditional):
        return ("if", shape(e.then), shape(e.cond), shape(e.otherwise))
    if isinstance(e, ast.Call):
        return ("call", e.func, tuple(shape(a) for a in e.args))
    if isinstance(e, ast.Index):
        return ("index", shape(e.base), shape(e.index))
    if isinstance(e, ast.ListExpr):
        return ("list", tuple(shape(a) for a in e.items))
    if isinstance(e, ast.Neighbour):
        return ("side", e.side, shape(e.player))
    if isinstance(e, ast.EndCard):
        return ("end", e.end, shape(e.count), shape(e.zone))
    if isinstance(e, ast.Players):
        return ("players", shape(e.start), shape(e.stop))
    if isinstance(e, ast.Aggregate):
        return ("agg", e.kind, e.var, shape(e.source), shape(e.body), shape(e.where))
    raise AssertionError(f"unexpected node {e!r}")


leaves = st.one_of(
    st.integers(min_value=0, max_value=10**6).map(lambda n: ("num", n)),
    st.sampled_from(NAMES).map(lambda s: ("name", s)),
    st.sampled_from([("true",), ("false",), ("none",), ("players", None, None)]),
)


def extend(children):
    maybe = st.none() | children
    var = st.sampled_from(["c", "q"])
    return st.one_of(
        st.tuples(st.sampled_from(["or", "and"] + COMPARE_OPS + SUM_OPS + PRODUCT_OPS), children, children),
        st.tuples(st.sampled_from(["not", "neg"]), children),
        st.tuples(st.just("if"), children, children, children),
        st.tuples(st.just("call"), st.sampled_from(FUNCS), st.lists(children, max_size=3).map(tuple)),
        st.tuples(st.just("index"), children, children),
        st.tuples(st.just("list"), st.lists(children, max_size=3).map(tuple)),
        st.tuples(st.just("side"), st.sampled_from(["left", "right", "next"]), children),
        st.tuples(st.just("end"), st.sampled_from(["top", "bottom"]), maybe, children),
        st.tuples(st.just("players"), children, st.none()),
        st.tuples(st.just("players"), children, children),
        st.tuples(st.just("agg"), st.sampled_from(["any", "count", "select"]), var, children, st.none(), children),
        st.tuples(st.just("agg"), st.sampled_from(["sum", "min", "max", "highest", "lowest"]), var, children,
                  children, maybe),
    )


trees = st.recursive(leaves, extend, max_leaves=14)


def parse_text(text: str):
    return parse_expr(text, "<expr>", 1, 1)


@HYP
@given(trees)
def test_minimal_parentheses_keep_the_tree(tree):
    text = render(tree, full=False)
    assert shape(parse_text(text)) == tree, text


@HYP
@given(trees)
def test_full_parentheses_keep_the_tree(tree):
    text = render(tree, full=True)
    assert shape(parse_text(text)) == tree, text


@HYP
@given(trees)
def test_every_subexpression_span_reparses_to_the_same_subtree(tree):
    text = render(tree, full=False)
    root = parse_text(text)
    assert (root.span.line, root.span.column, root.span.end_line, root.span.end_column) == (1, 1, 1, len(text) + 1)
    for node in walk(root):
        if isinstance(node, ast.Expr):
            s = node.span
            assert s.line == s.end_line == 1
            piece = text[s.column - 1 : s.end_column - 1]
            assert shape(parse_text(piece)) == shape(node), (text, piece)


@pytest.mark.parametrize("text, tree", [
    ("a - b - c", ("-", ("-", ("name", "a"), ("name", "b")), ("name", "c"))),
    ("a / b * c", ("*", ("/", ("name", "a"), ("name", "b")), ("name", "c"))),
    ("a or b and c", ("or", ("name", "a"), ("and", ("name", "b"), ("name", "c")))),
    ("not a == b", ("not", ("==", ("name", "a"), ("name", "b")))),
    ("-a * b", ("*", ("neg", ("name", "a")), ("name", "b"))),
    ("a if b else c if d else e", ("if", ("name", "a"), ("name", "b"), ("if", ("name", "c"), ("name", "d"), ("name", "e")))),
    ("a + b < c * d", ("<", ("+", ("name", "a"), ("name", "b")), ("*", ("name", "c"), ("name", "d")))),
    ("x is not y", ("is not", ("name", "x"), ("name", "y"))),
    ("x is (not y)", ("is", ("name", "x"), ("not", ("name", "y")))),
    ("a except b + c", ("+", ("except", ("name", "a"), ("name", "b")), ("name", "c"))),
    ("f(a)[b][c]", ("index", ("index", ("call", "f", (("name", "a"),)), ("name", "b")), ("name", "c"))),
])
def test_examples_of_precedence_and_associativity(text, tree):
    assert shape(parse_text(text)) == tree


@pytest.mark.parametrize("text", ["a < b < c", "a == b != c", "a in b in c", "x is y is z"])
def test_comparisons_do_not_chain(text):
    _, diagnostics = parse(f'game "g"\nplayers 2..4\ndeck standard\nvar v = {text}\n', "chain.cards")
    assert diagnostics and diagnostics[0].span.line == 4


# ------------------------------------------------------------------ (b) spans of game files
def walk(node):
    """Every attrs node under `node` (itself included), depth first."""
    yield node
    for child in children(node):
        yield from walk(child)


def children(node):
    for f in attrs.fields(type(node)):
        yield from _nodes_in(getattr(node, f.name))


def _nodes_in(value):
    if isinstance(value, (tuple, list)):
        for v in value:
            yield from _nodes_in(v)
    elif attrs.has(type(value)) and not isinstance(value, Span):
        yield value


def spans_of(node):
    """Every span a node carries: its own and its `*_span` fields, and those in (name, span) pairs."""
    for f in attrs.fields(type(node)):
        v = getattr(node, f.name)
        if isinstance(v, Span):
            yield f.name, v
        elif isinstance(v, tuple):
            for item in v:
                if isinstance(item, tuple):
                    for x in item:
                        if isinstance(x, Span):
                            yield f.name, x


def inside_text(span: Span, lines: list, newline: bool = False) -> bool:
    """Whether a span starts and ends at places of the text (`lines` split on newlines).

    With `newline`, a span may cover the line break after a line's last character (a diagnostic
    that found the end of the line points there).
    """
    if not (1 <= span.line <= span.end_line <= len(lines)):
        return False
    if not 1 <= span.column <= len(lines[span.line - 1]) + 1:
        return False
    if not 1 <= span.end_column <= len(lines[span.end_line - 1]) + 1 + newline:
        return False
    return (span.line, span.column) <= (span.end_line, span.end_column)


def within(inner: Span, outer: Span) -> bool:
    return (outer.line, outer.column) <= (inner.line, inner.column) and \
        (inner.end_line, inner.end_column) <= (outer.end_line, outer.end_column)


def check_spans(module: ast.Module, text: str) -> None:
    lines = text.split("\n")
    for decl in module.decls:
        for node in walk(decl):
            for field, span in spans_of(node):
                assert span.file == module.path
                assert inside_text(span, lines), (type(node).__name__, field, span)
                if field != "span" and hasattr(node, "span"):
                    assert within(span, node.span), (type(node).__name__, field, span, node.span)
            if not hasattr(node, "span"):
                continue
            for child in children(node):
                if hasattr(child, "span"):
                    assert within(child.span, node.span), (type(node).__name__, node.span, type(child).__name__, child.span)


@pytest.mark.parametrize("path", GAME_FILES, ids=os.path.basename)
def test_every_node_of_a_game_file_has_a_span_inside_the_file_and_inside_its_parent(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    module, diagnostics = parse(text, path)
    assert module is not None, diagnostics
    assert module.decls
    check_spans(module, text)


def test_spans_point_at_the_text_they_stand_for():
    path = os.path.join(ROOT, "games", "coucou.cards")
    with open(path, encoding="utf-8") as f:
        text = f.read()
    module, _ = parse(text, path)
    lines = text.split("\n")
    for decl in module.decls:
        for node in walk(decl):
            if isinstance(node, ast.Name) and node.span.line == node.span.end_line:
                assert lines[node.span.line - 1][node.span.column - 1 : node.span.end_column - 1] == node.name
            if isinstance(node, ast.Number):
                assert lines[node.span.line - 1][node.span.column - 1 : node.span.end_column - 1] == str(node.value)


@HYP
@given(trees)
def test_spans_nest_in_expressions_written_in_a_game(tree):
    text = ('game "g"\nplayers 2..4\ndeck standard\nround:\n    set v = ' + render(tree, full=False)
            + '\n    announce "v is {' + render(tree, full=True) + '}!"\n')
    module, diagnostics = parse(text, "expr.cards")
    assert module is not None, diagnostics
    check_spans(module, text)


# ------------------------------------------------------------------ (c) any text
def game_lines() -> list:
    out = []
    for path in GAME_FILES:
        with open(path, encoding="utf-8") as f:
            out.extend(f.read().split("\n"))
    return out


GAME_LINES = game_lines()


def check_parse_result(text: str) -> None:
    path = "random.cards"
    module, diagnostics = parse(text, path)
    lines = (text if text.endswith("\n") else text + "\n").split("\n")
    if module is not None:
        assert not any(d.is_error for d in diagnostics)
        check_spans(module, text if text.endswith("\n") else text + "\n")
    else:
        assert diagnostics and any(d.is_error for d in diagnostics)
    for d in diagnostics:
        assert d.span.file == path
        assert d.message and d.code.startswith("E")
        assert inside_text(d.span, lines, newline=True), (d.code, d.message, d.span, len(lines))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=300))
def test_any_text_parses_to_a_module_or_to_diagnostics_inside_it(text):
    check_parse_result(text)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(GAME_LINES), max_size=25), st.randoms(use_true_random=False))
def test_shuffled_lines_of_games_parse_to_a_module_or_to_diagnostics_inside_them(picked, rnd):
    rnd.shuffle(picked)
    check_parse_result("\n".join(picked))


TOKENS = (["game", "players", "deck", "zone", "var", "per", "player", "option", "define", "phase", "round", "setup",
           "extends", "order", "ranking", "score", "of", "about", "direction", "standard", "ranks", "suits", "with",
           "set", "let", "add", "to", "from", "move", "under", "deal", "face", "up", "shuffle", "swap", "reveal",
           "hide", "announce", "says", "eliminate", "end", "winner", "if", "elif", "else", "for", "each", "in",
           "where", "repeat", "times", "until", "while", "chooses", "a", "card", "number", "as", "pass", "not", "and",
           "or", "is", "has", "except", "top", "bottom", "left", "next", "players", "seats", "all", "cards", "any",
           "count", "sum", "highest", "by", "true", "none", "x", "p", "hand", "K", "10", "0", "2..5", ","]
          + list(":()[]{}=+-*/%<>.") + ["==", "<=", '"text"', '"{x}"', '"{"', '"}"', '"{(}"', '"\\q"', '"', "#c"])
TOKENS = [t + " " for t in TOKENS] + ["\\", "\t", "\n", "\n    ", "\n        ", "\n  ", "\r\n", ":\n    "]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(TOKENS), max_size=60))
def test_random_tokens_parse_to_a_module_or_to_diagnostics_inside_them(tokens):
    check_parse_result("".join(tokens))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(GAME_FILES), st.data())
def test_game_files_with_random_edits_parse_to_a_module_or_to_diagnostics_inside_them(path, data):
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for _ in range(data.draw(st.integers(1, 4))):
        i = data.draw(st.integers(0, len(lines) - 1))
        line = lines[i]
        edit = data.draw(st.sampled_from(["delete", "cut", "indent", "dedent", "insert", "duplicate"]))
        if edit == "delete":
            del lines[i]
        elif edit == "cut":
            lines[i] = line[: data.draw(st.integers(0, len(line)))]
        elif edit == "indent":
            lines[i] = "  " + line
        elif edit == "dedent":
            lines[i] = line[1:]
        elif edit == "insert":
            at = data.draw(st.integers(0, len(line)))
            lines[i] = line[:at] + data.draw(st.sampled_from(list("():[]{}\"\t#=,.") + ["if", " else", "\\"])) + line[at:]
        else:
            lines.insert(i, line)
        if not lines:
            lines = [""]
    check_parse_result("\n".join(lines))


@pytest.mark.parametrize("text", [
    "(" * 300 + "x" + ")" * 300,
    "not " * 300 + "x",
    "- " * 300 + "x",
    "x" + "[1]" * 300,
    "a if b else " * 300 + "c",
    "(" * 5000,
])
def test_deep_expressions_give_a_diagnostic_not_a_crash(text):
    check_parse_result(f'game "g"\nplayers 2..4\ndeck standard\nvar v = {text}\n')


def test_deep_blocks_give_a_diagnostic_not_a_crash():
    body = "".join("    " * (i + 1) + "if true:\n" for i in range(150)) + "    " * 151 + "pass\n"
    check_parse_result('game "g"\nplayers 2..4\ndeck standard\nround:\n' + body)


# ------------------------------------------------------------------ what a newcomer writes (issue 27)
def test_a_file_saved_with_a_byte_order_mark_parses_as_without_one():
    text = open(GAME_FILES[0], encoding="utf-8").read()
    plain, with_bom = parse(text, "g.cards"), parse("\ufeff" + text, "g.cards")
    assert with_bom[1] == plain[1] == [] and repr(with_bom[0].decls) == repr(plain[0].decls)


def test_fmt_drops_the_byte_order_mark():
    from cardlang.tools.fmt import format_source

    text = open(GAME_FILES[0], encoding="utf-8").read()
    assert format_source("\ufeff" + text) == format_source(text)


ROUND = 'game "T"\nplayers 2\ndeck standard\nzone talon: pile, hidden\nzone hand: per player, hidden\nround:\n'


@pytest.mark.parametrize("line, word, keyword", [
    ("    shufle talon\n", "shufle", "shuffle"),
    ("    deel 1 from talon to hand(players)\n", "deel", "deal"),
    ("    repaet 3 times:\n        pass\n", "repaet", "repeat"),
    ("    for each p in players:\n        p choses:\n            \"a\": pass\n", "choses", "chooses"),
    ("    sett x = 1\n", "sett", "set"),
])
def test_a_misspelt_keyword_gets_did_you_mean(line, word, keyword):
    module, diagnostics = parse(ROUND + line + "    end game\n")
    assert module is None and diagnostics  # (recovery may find more on the lines after)
    assert diagnostics[0].help == f"did you mean `{keyword}`? (`{word}` is not a keyword)"


def test_a_misspelt_declaration_keyword_gets_did_you_mean():
    module, diagnostics = parse('game "T"\nplayrs 2\n')
    assert diagnostics[0].help == "did you mean `players`? (`playrs` is not a keyword)"


def test_a_name_of_the_file_close_to_a_keyword_is_not_taken_for_a_misspelling():
    # `hand` is a zone (it stands on another line), not `and` misspelt: the usual help stays
    module, diagnostics = parse(ROUND + "    move top of talon hand(players)\n    end game\n")
    assert "did you mean" not in (diagnostics[0].help or "")


def test_a_misspelt_keyword_where_a_name_stands_gets_did_you_mean():
    from cardlang.lang.check import check

    module, _ = parse(ROUND + "    for each p in playres:\n        pass\n    end game\n")
    _, found = check(module)
    assert [(d.code, d.help) for d in found if d.is_error] == [("E010", "did you mean `players`?")]


def test_a_files_hard_names_do_not_outlive_its_parse():
    """A file that names `players` reads `{players}` in its texts as its name; the next expression
    parsed in the process (another file's text, the LSP) reads `players` as the word again. The
    names were kept in a context variable never reset: a parse could depend on the file before."""
    source = 'game "G"\nplayers 2\nvar players = 0\nsetup:\n    announce "{players}"\n'
    module, _ = parse(source, "named.cards")
    said = [st for d in module.decls if isinstance(d, ast.BlockDecl) for st in d.body]
    assert isinstance(said[0].text.parts[0], ast.Name)  # in the file, its own name
    assert isinstance(parse_text("players"), ast.Players)
