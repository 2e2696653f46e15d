"""`cardlang fmt`: one canonical layout, idempotent, and it never changes what a rule file means."""

import glob
import os
import random
import shutil

import attrs
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import cardlang
from cardlang.cli import main
from cardlang.lang.diagnostics import Span
from cardlang.lang.parse import parse
from cardlang.tools import fmt
from cardlang.tools.fmt import FormatError, format_source
from scenario import ROOT, random_playout

FILES = sorted(os.path.relpath(p, ROOT) for folder in ("games", "examples")
               for p in glob.glob(os.path.join(ROOT, folder, "*.cards")))


def shape(node):
    """A node as nested tuples without its spans (and a module without its text and path)."""
    if isinstance(node, Span):
        return None
    if isinstance(node, (tuple, list)):
        return tuple(shape(x) for x in node)
    if isinstance(node, cardlang.lang.ast.Module):
        return shape(node.decls)
    if attrs.has(type(node)):
        return (type(node).__name__,) + tuple(shape(getattr(node, f.name)) for f in attrs.fields(type(node))
                                              if not f.name.endswith("span"))
    return node


def ast_of(text: str):
    module, diagnostics = parse(text, "x.cards")
    assert module is not None, diagnostics
    return shape(module)


def read(relative: str) -> str:
    with open(os.path.join(ROOT, relative), encoding="utf-8") as f:
        return f.read()


@pytest.mark.parametrize("relative", FILES)
def test_every_game_is_formatted(relative):
    assert format_source(read(relative), relative) == read(relative), f"run `cardlang fmt {relative}`"


@pytest.mark.parametrize("relative", FILES)
def test_formatting_keeps_the_syntax_tree_and_is_idempotent(relative):
    original = read(relative)
    messy = next(m for k in range(100) if (m := scramble(original, random.Random(f"{relative}:{k}"))) != original)
    once = format_source(messy, relative)
    assert ast_of(once) == ast_of(read(relative))
    assert format_source(once, relative) == once
    assert once == read(relative)  # a file that only differs in layout formats to the same text


@pytest.mark.parametrize("relative", FILES)
def test_formatted_games_play_the_same_seeded_games(relative, tmp_path):
    # the repository's files are formatted; copies of games/ and examples/ laid out badly (variants
    # still find their bases) are what they were formatted from, as far as the parser can tell
    for folder in ("games", "examples"):
        shutil.copytree(os.path.join(ROOT, folder), tmp_path / folder)
    (tmp_path / "cardlang.toml").write_text('root = "."\n')  # as the project's pyproject.toml: examples/ reach games/
    for p in glob.glob(str(tmp_path / "*" / "*.cards")):
        with open(p, encoding="utf-8") as f:
            text = f.read()
        name = os.path.relpath(p, tmp_path)  # the same layouts on every run
        messy = next(m for k in range(100) if (m := scramble(text, random.Random(f"{name}:{k}"))) != text)
        assert format_source(messy, p) == text
        with open(p, "w", encoding="utf-8") as f:
            f.write(messy)
    low, high = cardlang.check_file(os.path.join(ROOT, relative))[0].players
    players = (low + high) // 2
    for seed in range(3):
        logs = []
        for root in (ROOT, str(tmp_path)):
            state = cardlang.load(os.path.join(root, relative), players=players).new_initial_state(seed=seed)
            random_playout(state, random.Random(seed))
            logs.append((state.transcript(), state.returns()))
        assert logs[0] == logs[1]


# ----------------------------------------------------------------- layout rules
def test_canonical_spacing_indentation_and_blank_lines():
    messy = ('# top\n\n\n\ngame   "g"\nplayers 2 .. 4\noption n=-1 in -5 ..5\ndeck standard\nzone  hand : per player ,private\n'
             'var xs=[ 1,2 ,3 ] [ 2 ]\nround :\n\n  # first\n  set xs = count( hand( next of  1 ) )+ -2*3\n'
             '  if not(xs>1) :   pass\n  # end of round\nphase   p( a , b: number ):\n\tpass\n\n\n\n')
    assert format_source(messy) == (
        '# top\n\ngame "g"\nplayers 2..4\noption n = -1 in -5..5\ndeck standard\nzone hand: per player, private\n'
        'var xs = [1, 2, 3][2]\n\nround:\n    # first\n    set xs = count(hand(next of 1)) + -2 * 3\n'
        '    if not (xs > 1): pass\n    # end of round\n\nphase p(a, b: number):\n    pass\n')


def test_an_item_of_players_or_seats_is_written_as_the_docs_write_it():
    # `seats[k]`, not `seats [k]`: `players` and `seats` are words of the language, indexed like a name
    source = ('game "g"\nplayers 2\ndeck standard\nzone s: pile\nvar x: player = none\n\nround:\n'
              '    set x = players [1]\n    set x = seats [2]\n    end game\n')
    assert format_source(source) == source.replace(" [", "[")
    assert ast_of(format_source(source)) == ast_of(source)


def test_comments_stay_with_the_block_they_were_written_in():
    text = ('game "g"\nplayers 2\ndeck standard\nround:\n    if true:\n        pass\n        # still in the if\n'
            '    # back in the round\n    pass\n# about the phase\nphase q:\n    pass  # why\n')
    out = format_source(text)
    assert "        # still in the if\n    # back in the round\n" in out
    assert "    pass\n\n# about the phase\nphase q:\n    pass  # why\n" in out
    tabs = 'game "g"\nround:\n\tif true:\n\t\tpass\n\t# after the if\n'
    assert format_source(tabs) == 'game "g"\n\nround:\n    if true:\n        pass\n    # after the if\n'


def test_trailing_comments_lined_up_by_their_author_stay_lined_up():
    text = 'game "g"       # the title\nplayers 2 .. 4 # counts\ndeck standard    # alone\n'
    assert format_source(text) == 'game "g"       # the title\nplayers 2..4   # counts\ndeck standard  # alone\n'


def test_comments_inside_brackets_keep_their_lines():
    text = 'game "g"\nplayers 2\ndeck standard\nvar xs = [1,  # one\n   2,\n   # three next\n   3]\n'
    out = format_source(text)
    assert out == 'game "g"\nplayers 2\ndeck standard\nvar xs = [1,  # one\n        2,\n        # three next\n        3]\n'
    assert ast_of(out) == ast_of(text) and format_source(out) == out


def test_long_lines_break_outside_brackets_with_a_backslash_or_inside_a_long_bracket():
    cond = " and ".join(f"count(hand(p)) > {i}" for i in range(8))
    text = f'game "g"\nplayers 2\ndeck standard\nzone hand: per player\nround:\n    if {cond}:\n        pass\n'
    out = format_source(text)
    assert all(len(line) <= fmt.WIDTH for line in out.splitlines())
    assert out.splitlines()[6].endswith(" \\") and out.splitlines()[7].startswith(" " * 12 + "and ")
    args = ", ".join(f"{i} + {i}" for i in range(30))
    text = f'game "g"\nplayers 2\ndeck standard\nvar xs = [{args}]\n'
    out = format_source(text)
    assert all(len(line) <= fmt.WIDTH for line in out.splitlines()) and "\\" not in out
    assert ast_of(out) == ast_of(text) and format_source(out) == out


def test_a_long_text_that_cannot_be_broken_stays_on_its_line():
    text = 'game "g"\nabout "' + "x" * 150 + '"\nplayers 2\ndeck standard\n'
    assert format_source(text) == text


def test_a_file_with_a_syntax_error_is_not_formatted():
    with pytest.raises(FormatError) as e:
        format_source('game "g"\nround:\n    set x =\n')
    assert e.value.diagnostics[0].code == "E001" and e.value.diagnostics[0].span.line == 3


# ------------------------------------------------------------------ the command
def test_fmt_check_lists_the_files_that_would_change_and_diff_shows_how(tmp_path):
    good = tmp_path / "good.cards"
    bad = tmp_path / "bad.cards"
    good.write_text('game "g"\nplayers 2\ndeck standard\n')
    bad.write_text('game "g"\nplayers 2 ..3\ndeck standard\n')
    runner = CliRunner()
    r = runner.invoke(main, ["fmt", "--check", str(tmp_path)])
    assert r.exit_code == 1 and r.output == f"would reformat {bad}\n"
    r = runner.invoke(main, ["fmt", "--diff", str(bad)])
    assert r.exit_code == 0 and "-players 2 ..3\n+players 2..3\n" in r.output
    assert bad.read_text() == 'game "g"\nplayers 2 ..3\ndeck standard\n'
    r = runner.invoke(main, ["fmt", str(tmp_path)])
    assert r.exit_code == 0 and r.output == f"reformatted {bad}\n"
    assert bad.read_text() == 'game "g"\nplayers 2..3\ndeck standard\n'
    assert runner.invoke(main, ["fmt", "--check", str(tmp_path)]).exit_code == 0


def test_fmt_reports_a_file_it_cannot_format_and_exits_2(tmp_path):
    broken = tmp_path / "broken.cards"
    broken.write_text('game "g"\nround:\n    set x =\n')
    r = CliRunner().invoke(main, ["fmt", str(broken)])
    assert r.exit_code == 2
    assert f"{broken}:3:12: error[E001]" in r.output
    assert broken.read_text() == 'game "g"\nround:\n    set x =\n'
    assert CliRunner().invoke(main, ["fmt", str(tmp_path / "none.cards")]).exit_code == 2


# ------------------------------------------------------- generated layouts, programs
def scramble(text: str, rng: random.Random) -> str:
    """The same tokens, laid out badly: odd indentation, extra spaces, `\\` and bracket line breaks,
    doubled blank lines. It parses to the same tree."""
    lines, after = fmt._read(text)
    unit = rng.choice([0, 1, 2, 3, 5, 8])  # 0: tabs

    def pad(levels):
        return "\t" * levels if unit == 0 else " " * (unit * levels)
    out = []
    for line in lines:
        for item in line.before:
            out.append("" if item is None else pad(item[0] // 4) + item[1])
            if item is None and rng.random() < 0.5:
                out.append(" " * rng.randrange(4))
        depths = fmt._depths(line.toks)
        parts = [pad(line.level)]
        for i, tok in enumerate(line.toks):
            if i:
                space = fmt._space(line.toks[i - 1], tok)
                roll = rng.random()
                if roll < 0.05:
                    parts.append(" \\\n" + " " * rng.randrange(9))
                elif roll < 0.1 and depths[i] > 0:
                    parts.append("\n" + " " * rng.randrange(9))
                elif roll < 0.4 and not line.inner:
                    parts.append(" " * rng.randrange(1 if not space else 1, 4))
                elif space:
                    parts.append(" ")
                for own, comment in line.inner.get(i - 1, []):
                    parts.append(("\n" if own else "  ") + comment)
                if i - 1 in line.inner:
                    parts.append("\n")
            parts.append(tok[1])
        if line.trailing is not None:
            parts.append(" " * (1 + rng.randrange(3)) + line.trailing[1])
        out.append("".join(parts))
    out += ["" if item is None else pad(item[0] // 4) + item[1] for item in after]
    return "\n".join(out) + "\n" * rng.randrange(1, 4)


@pytest.mark.parametrize("relative", FILES)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1))
def test_any_layout_of_a_game_formats_to_the_same_file(relative, seed):
    original = read(relative)
    messy = scramble(original, random.Random(seed))
    assert ast_of(messy) == ast_of(original)
    assert format_source(messy, relative) == original


_ATOMS = st.sampled_from(["1", "42", "x", "p", '"text {p}"', "true", "none", "players", "seats", "all cards",
                          "top of hand(p)", "left of p", "random(players)", "-3"])
_BINARY = st.sampled_from(["+", "-", "*", "/", "%", "==", "!=", "<", ">=", "and", "or", "in", "is", "has",
                           "except"])


def _expressions():
    def extend(inner):
        return st.one_of(
            st.tuples(inner, _BINARY, inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
            st.tuples(inner, inner, inner).map(lambda t: f"({t[0]} if {t[1]} else {t[2]})"),
            inner.map(lambda e: f"(not {e})"),
            st.lists(inner, max_size=4).map(lambda xs: "[" + ", ".join(xs) + "]"),
            st.tuples(st.sampled_from(["count", "max", "hand", "value"]), st.lists(inner, max_size=3))
              .map(lambda t: f"{t[0]}({', '.join(t[1])})"),
            st.tuples(st.sampled_from(["any", "select", "count"]), inner, inner)
              .map(lambda t: f"({t[0]} q in {t[1]} where {t[2]})"),
            st.tuples(inner, inner).map(lambda t: f"({t[0]})[{t[1]}]"),
        )
    return st.recursive(_ATOMS, extend, max_leaves=40)


_STATEMENTS = st.sampled_from([
    "set x = {}", "let y = {}", "add {} to x", "subtract {} from x", "move {} to hand(p) face up",
    "move {} under talon", "deal {} from talon to hand(players)", "reveal {} to players", "hide {}",
    "shuffle {}", "swap {} with talon", "eliminate {}", "end game winners {}", "{} says \"hello {{p}}\"",
    "phase_call({}, 2)", "set x(p) = {}", "set xs[{}] = 1",
])
_HEADERS = st.sampled_from(["if {}:", "while {}:", "repeat {} times:", "repeat until {}:", "for each q in {}:",
                            "for each q in {} where q > 1:", "elif {}:", "else:"])


@settings(max_examples=80, deadline=None)
@given(parts=st.lists(st.tuples(_STATEMENTS, _HEADERS, _expressions(), st.booleans()), min_size=1, max_size=5),
       seed=st.integers(0, 999))
def test_generated_programs_keep_their_tree_and_format_once(parts, seed):
    body, depth = [], 1
    for statement, header, e, opens in parts:
        if opens and not header.startswith(("elif", "else")):
            body.append("    " * depth + header.format(e))
            depth += 1
        body.append("    " * depth + statement.format(e))
        body.append("    " * depth + "# a note")
    text = 'game "g"\nplayers 2\ndeck standard\nzone hand: per player\nvar x = 0\nround:\n' + "\n".join(body) + "\n"
    module, diagnostics = parse(text, "x.cards")
    assume(module is not None)  # a generated statement the grammar refuses (rare): not a layout case
    tree = ast_of(text)
    messy = scramble(text, random.Random(seed))
    once = format_source(messy)
    assert ast_of(messy) == tree and ast_of(once) == tree
    assert format_source(once) == once
    assert once == format_source(text)
