"""Text from a rule file, a save or a file name is shown as text, never obeyed by the terminal
(issue 27, item 3; docs/security.md, "Untrusted text").

tests/hostile_text/escapes_in_texts.cards holds every kind of escape in every text a game shows:
the title sets the terminal's title and writes its clipboard (OSC 0, OSC 52), `about` makes a link
to /etc/passwd (OSC 8), holds C1 controls, a bidi override, rich markup and a `$…$` formula, the
announcement erases its own line to forge a log line, a label redraws itself as option 9, and so
on. Each command runs on it (and on a file whose *name* holds escapes): with colours off not one
ESC, C1, BEL or invisible character reaches the output; with colours on only rich's own colour
and screen sequences do. The texts themselves are there, escaped (`\\x1b]0;PWNED`).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from cardlang.cli import main
from cardlang.cli.untrusted import echo, plot_text
from cardlang.lang.report import RENDERERS, Report, render_text
from cardlang.lang.diagnostics import Diagnostic, Span
from cardlang.lang.untrusted import visible, visible_json
from test_hostile_files import cardlang_cli

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = ROOT / "tests" / "hostile_text" / "escapes_in_texts.cards"
# a file name a pull request could add: it sets the title, erases the line, turns the rest around
EVIL_NAME = "evil\x1b]0;T\x07\x1b[2K\u202e.cards"
# what rich itself writes at a terminal: colours and styles (SGR), clearing the screen, the cursor
RICH_OWN = re.compile(r"\x1b\[[0-9;]*m|\x1b\[2J|\x1b\[H|\x1b\[\?25[hl]|\x1b\[\?1049[hl]")
# the sequences of the file, each of which must never reach the output as it is
RAW = ["\x1b]0;PWNED", "\x1b]52;c;", "\x1b]8;;file:///etc/passwd", "\x1b[2K", "\x1b[1G", "\x9b31m", "\x9d0;t",
       "\u202e", "\u200b", "\x1b[41m", "\x1b[31mred", "\x1b[5m", "\x1b[8m", "\x1bP+q", "\x07", "\x7f", "\u2028"]


def assert_shown_as_text(out: str, colour: bool = False) -> None:
    """No character of `out` drives the terminal: without colour no ESC at all; with colour, only
    rich's own sequences; never a C1 control, BEL, DEL or an invisible format character."""
    for raw in RAW:
        assert raw not in out, (raw, out)
    rest = RICH_OWN.sub("", out) if colour else out
    assert "\x1b" not in rest, out
    bad = sorted({c for c in rest if not (c.isprintable() or c in "\n\r ")})
    assert bad == [], (bad, out)


def run(*args, input=None, env=None, cwd=ROOT):
    """`cardlang ARGS…` in a subprocess (bounded time and memory), colours off unless asked."""
    if input is None:
        return cardlang_cli(*args, cwd=cwd, env=env)
    full = {k: v for k, v in os.environ.items() if k != "CARDLANG_ROOT"}
    full.update({"NO_COLOR": "1", **(env or {})})
    return subprocess.run([sys.executable, "-m", "cardlang.cli", *map(str, args)], cwd=cwd, env=full, input=input,
                          capture_output=True, text=True, timeout=120)


# ---------------------------------------------------------------------- the function
@pytest.mark.parametrize("text, shown", [
    ("plain text, é ♥ 漢字", "plain text, é ♥ 漢字"),
    ("a\x1b]0;title\x07b", "a\\x1b]0;title\\x07b"),
    ("\x1b[2K\x1b[1G  9. win", "\\x1b[2K\\x1b[1G  9. win"),
    ("C1 \x9b31m \x85", "C1 \\x9b31m \\x85"),
    ("DEL\x7f BS\x08", "DEL\\x7f BS\\x08"),
    ("bidi \u202eevil\u202c zero\u200bwidth \ufeff", "bidi \\u202eevil\\u202c zero\\u200bwidth \\ufeff"),
    ("line\nbreak\ttab\rreturn", "line\\nbreak\\ttab\\rreturn"),
    ("sep\u2028par\u2029", "sep\\u2028par\\u2029"),
    ("tag \U000e0041", "tag \\U000e0041"),
    ("a byte of a file name bad\udcff", "a byte of a file name bad\\xff"),
    ("no-break\u00a0space", "no-break\u00a0space"),
])
def test_visible_writes_every_hidden_character_as_its_escape(text, shown):
    assert visible(text) == shown


def test_visible_keeps_line_ends_only_when_asked():
    assert visible("a\nb\x1b", newlines=True) == "a\nb\\x1b"
    assert visible("a\nb") == "a\\nb"


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40))
def test_visible_leaves_only_printable_characters_and_is_stable(text):
    out = visible(text)
    assert all(c.isprintable() or unicodedata.category(c) == "Zs" for c in out)
    assert visible(out) == out
    if text.isprintable():
        assert out == text


@settings(max_examples=300, deadline=None)
@given(st.recursive(st.text(max_size=12) | st.integers(),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
                    max_leaves=8))
def test_visible_json_is_the_same_data_with_nothing_a_terminal_obeys(value):
    document = visible_json(json.dumps(value, ensure_ascii=False, indent=2))
    assert json.loads(document) == value
    assert all(c.isprintable() or c == "\n" or unicodedata.category(c) == "Zs" for c in document)


def test_plot_text_is_visible_and_no_formula():
    assert plot_text("a $\\frac{$ \x1b[2J") == "a \\$\\frac{\\$ \\x1b[2J"


def test_echo_writes_a_line_as_text(capsys):
    echo("error: \x1b]0;T\x07 in\nfile")
    assert capsys.readouterr().out == "error: \\x1b]0;T\\x07 in\\nfile\n"


# -------------------------------------------------------------------- the console
def console_output(*renderables, colour=True, width=60) -> str:
    import io

    from cardlang.cli.untrusted import console

    out = io.StringIO()
    c = console(colour, file=out, width=width)
    for r in renderables:
        c.print(r)
    return out.getvalue()


def test_the_console_shows_a_text_made_anywhere_as_text_and_keeps_its_own_colours():
    from rich.text import Text

    out = console_output(Text("title\x1b]0;PWNED\x07 \x1b[31mred \x9b2J", style="bold red"))
    assert "\x1b[1;31m" in out  # rich's colour for the style
    assert_shown_as_text(out, colour=True)
    assert "title\\x1b]0;PWNED" in out and "\\x9b2J" in out


def test_the_console_reads_no_markup_and_no_emoji_codes():
    out = console_output("[bold red]x[/] [link=file:///etc/passwd]y[/link] :smile:", colour=True)
    assert "[bold red]x[/] [link=file:///etc/passwd]y[/link] :smile:" in out
    assert "\x1b]8" not in out and "\x1b[1;31m" not in out


def test_a_table_cell_is_made_visible_before_it_is_laid_out():
    from rich.table import Table

    table = Table("a", "b")
    table.add_row("x\x1b[2Ky", "z")
    table.add_row("short", "w")
    out = console_output(table, colour=False)
    assert_shown_as_text(out)
    lines = [line for line in out.splitlines() if line.strip()]
    assert len({len(line) for line in lines}) == 1, out  # the columns line up: widths are those shown


def test_the_console_keeps_its_own_clearing_of_the_screen():
    import io

    from cardlang.cli.untrusted import console

    out = io.StringIO()
    c = console(True, file=out)
    c.clear()
    assert "\x1b[2J" in out.getvalue()


# ------------------------------------------------------------------ diagnostics
def hostile_report() -> Report:
    span = Span(EVIL_NAME, 1, 1, 1, 5)
    d = Diagnostic("W010", "warning", "this text holds `\x1b]0;x\x07`\nand a line", span, help="fix \u202e it")
    return Report(files=[EVIL_NAME], diagnostics=[d], sources={EVIL_NAME: 'game "\x1b[2J\u202eT"\n'})


@pytest.mark.parametrize("colour", [False, True])
def test_the_text_report_shows_names_messages_and_lines_as_text(colour):
    out = render_text(hostile_report(), color=colour)
    assert_shown_as_text(out, colour=colour)
    assert "evil\\x1b]0;T\\x07\\x1b[2K\\u202e.cards" in out


def test_github_annotations_show_names_and_messages_as_text():
    out = RENDERERS["github"](hostile_report())
    assert_shown_as_text(out)
    assert out.count("\n") == 1  # one workflow command: the message's line end is `%0A`
    assert "%0Aand a line" in out


@pytest.mark.parametrize("fmt", ["json", "sarif"])
def test_json_reports_carry_the_same_names_escaped(fmt):
    out = RENDERERS[fmt](hostile_report())
    assert_shown_as_text(out)
    data = json.loads(out)
    if fmt == "json":
        assert data["files"] == [EVIL_NAME] and data["diagnostics"][0]["help"] == "fix \u202e it"


# ------------------------------------------------------------------ the hostile file
def test_the_hostile_file_holds_every_kind_of_escape_raw():
    """(An editor that cleaned the file would make every test below pass for nothing.)"""
    text = HOSTILE.read_text(encoding="utf-8")
    for raw in ["\x1b]0;PWNED\x07", "\x1b]52;c;", "\x1b]8;;file:///etc/passwd\x1b\\\\", "\x1b[2K\x1b[1G", "\x9b31m",
                "\x9d0;t\x9c", "\u202e", "\u200b", "\x85", "\x7f", "\x08", "\u2028", "[link=file:///etc/passwd]",
                "[bold red]", "$\\\\frac{$", "\\n[12:01] INFO"]:
        assert raw in text, repr(raw)


def test_check_names_each_text_with_an_escape_and_shows_it_as_text():
    result = run("check", HOSTILE.relative_to(ROOT))
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count("warning[W010]") == 12
    assert_shown_as_text(result.stdout + result.stderr)


@pytest.mark.parametrize("colour", [False, True])
def test_play_bots_only_shows_every_text_as_text(colour):
    args = ["play", HOSTILE.relative_to(ROOT), "--bots-only", "--seed", "3"] + (["--color"] if colour else [])
    result = run(*args)
    out = result.stdout + result.stderr
    assert result.returncode == 0, out
    assert_shown_as_text(out, colour=colour)
    assert "ann\\x1b[2K\\x1b[1G[12:00] INFO forged log" in out
    assert "\\n[12:01] INFO a second forged line" in out  # one line, as the announcement is one event


def test_play_at_the_table_shows_the_title_about_options_labels_and_log_as_text(tmp_path):
    save = tmp_path / "game\x1b]0;T\x07.save.json"  # its name is shown too (the hint to replay it)
    result = run("play", HOSTILE, "--seed", "3", "--save", save, input="?\nlog\n1\n1\n1\n")
    out = result.stdout + result.stderr
    assert result.returncode == 0, out
    assert_shown_as_text(out)
    for shown in ["Nice\\x1b]0;PWNED\\x07 game\\x1b]52;c;", "\\x1b]8;;file:///etc/passwd", "[link=file:///etc/passwd]",
                  "[bold red]markup[/]", "\\u202eRLO", "option mode = calm\\x1b[41m", "the mode\\x1b]0;OPT\\x07",
                  "keep\\x1b[2K\\x1b[1G  9. win the game", "v\\x1b[31mred\\x1b[0m\\x07\\x08\\x7f",
                  "game\\x1b]0;T\\x07.save.json"]:
        assert shown in out, shown
    # a replay of the save shows the same texts (and the saved labels) as text, colours off and on
    for colour in ([], ["--color"]):
        replayed = run("replay", save, *colour)
        assert replayed.returncode == 0, replayed.stdout + replayed.stderr
        assert_shown_as_text(replayed.stdout + replayed.stderr, colour=bool(colour))
        assert "P0 chooses keep\\x1b[2K\\x1b[1G  9. win the game" in replayed.stdout


def test_play_in_a_terminal_sends_only_its_own_colours(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    env = dict(os.environ, TERM="xterm-256color", COLUMNS="100", LINES="50")
    env.pop("NO_COLOR", None)
    child = pexpect.spawn(sys.executable, ["-m", "cardlang.cli", "play", str(HOSTILE), "--seed", "3", "--speed", "0"],
                          cwd=str(ROOT), env=env, encoding="utf-8", dimensions=(50, 100), timeout=60)
    child.delaybeforesend = None
    seen = []
    child.expect("P0 > ")
    seen.append(child.before)
    child.sendline("?")
    for _ in range(10):
        i = child.expect(["P0 > ", "The game is over", pexpect.EOF])
        seen.append(child.before)
        if i != 0:
            break
        child.sendline("1")
    child.expect(pexpect.EOF)
    seen.append(child.before)
    child.close()
    out = "".join(seen)
    assert "\x1b[" in out  # a terminal: colours on
    assert_shown_as_text(out, colour=True)
    assert "keep\\x1b[2K\\x1b[1G  9. win the game" in out and "\\x1b]8;;file:///etc/passwd" in out


def test_simulate_prints_the_title_labels_and_coverage_as_text(tmp_path):
    result = run("simulate", HOSTILE.relative_to(ROOT), "-n", "20", "--jobs", "1")
    out = result.stdout + result.stderr
    assert result.returncode == 0, out
    assert_shown_as_text(out)
    assert "Nice\\x1b]0;PWNED\\x07 game" in out and "keep\\x1b[2K\\x1b[1G  9. win the game" in out


def test_simulate_plot_takes_a_title_with_a_formula_and_escapes(tmp_path):
    pytest.importorskip("matplotlib")
    plot = tmp_path / "plot.png"
    result = run("simulate", HOSTILE, "-n", "10", "--jobs", "1", "--plot", plot)
    assert result.returncode == 0, result.stdout + result.stderr  # `$\frac{$` is no formula: no traceback
    assert plot.stat().st_size > 0
    assert_shown_as_text(result.stdout + result.stderr)


def test_compare_and_sweep_show_file_names_titles_and_labels_as_text(tmp_path):
    evil = tmp_path / EVIL_NAME
    shutil.copy(HOSTILE, evil)
    result = run("compare", evil, HOSTILE, "-n", "20", "--jobs", "1", "--set", "rounds=1")
    out = result.stdout + result.stderr
    assert result.returncode == 0, out
    assert_shown_as_text(out)
    assert "evil\\x1b]0;T\\x07\\x1b[2K\\u202e.cards" in out
    result = run("sweep", HOSTILE, "-n", "10", "--jobs", "1", "--set", "rounds=1..2")
    assert result.returncode == 0, result.stdout + result.stderr
    assert_shown_as_text(result.stdout + result.stderr)


# ------------------------------------------------------------------ file names
@pytest.fixture
def evil_folder(tmp_path):
    """A folder with a rule file whose name holds escapes (and is not formatted), and a broken one."""
    folder = tmp_path / "rules"
    folder.mkdir()
    (folder / EVIL_NAME).write_text((ROOT / "examples" / "coin_flip.cards").read_text() + "\n\n\n", encoding="utf-8")
    (folder / ("broken\x1b]52;c;eA==\x07.cards")).write_text('game "B"\nplayers 2\nround:\n    nonsense here\n',
                                                            encoding="utf-8")
    return folder


@pytest.mark.parametrize("fmt", ["text", "github", "json", "sarif"])
def test_check_shows_file_names_as_text(evil_folder, fmt):
    for target in (evil_folder, evil_folder / EVIL_NAME):
        result = run("check", "--format", fmt, target)
        out = result.stdout + result.stderr
        assert result.returncode in (0, 1), out
        assert "Traceback" not in out
        assert_shown_as_text(out)
        if fmt == "json":
            files = json.loads(result.stdout)["files"]
            assert any(f.endswith(EVIL_NAME) for f in files)  # the same name, JSON-escaped


def test_check_in_colour_shows_file_names_as_text(evil_folder):
    result = run("check", "--color", "always", evil_folder)
    assert_shown_as_text(result.stdout + result.stderr, colour=True)
    assert "evil\\x1b]0;T\\x07\\x1b[2K\\u202e.cards" in result.stdout


def test_fmt_check_and_diff_show_file_names_and_lines_as_text(evil_folder, tmp_path):
    result = run("fmt", "--check", evil_folder)
    out = result.stdout + result.stderr
    assert result.returncode == 2, out  # one file would change, the broken one cannot be formatted
    assert_shown_as_text(out)
    assert "would reformat" in out and "evil\\x1b]0;T\\x07\\x1b[2K\\u202e.cards" in out
    hostile = tmp_path / "hostile.cards"
    hostile.write_text(HOSTILE.read_text(encoding="utf-8").replace("players 2", "players    2"), encoding="utf-8")
    for args in (["--diff", evil_folder / EVIL_NAME], ["--diff", hostile]):
        result = run("fmt", *args)
        assert_shown_as_text(result.stdout + result.stderr)
    assert "+players 2" in result.stdout and "Nice\\x1b]0;PWNED" not in result.stdout  # only the changed line


def test_a_missing_path_is_named_as_text_in_click_s_own_errors(tmp_path):
    for command in ("play", "simulate", "check", "fmt", "replay"):
        result = run(command, tmp_path / EVIL_NAME)
        out = result.stdout + result.stderr
        assert result.returncode in (1, 2) and "Traceback" not in out, out  # (a save that is not there: 1)
        assert_shown_as_text(out)


def test_an_option_set_on_the_command_line_is_named_as_text():
    result = run("play", HOSTILE, "--bots-only", "--set", "mode=x\x1b]0;T\x07")
    out = result.stdout + result.stderr
    assert result.returncode == 2, out
    assert_shown_as_text(out)
    assert "x\\x1b]0;T\\x07" in out


def test_the_clirunner_table_shows_texts_as_text(tmp_path):
    """The same, in process: what the test runner (no terminal) gets is text."""
    result = CliRunner().invoke(main, ["play", str(HOSTILE), "--seed", "5"], input="?\n1\n1\n1\n")
    assert result.exit_code == 0, result.output
    assert_shown_as_text(result.output)


def test_a_research_environment_renders_the_texts_as_text():
    import cardlang
    from cardlang.research.render import ansi

    game = cardlang.load(str(HOSTILE))
    state = game.new_initial_state(seed=3)
    state.apply(state.legal_action_ids()[0])
    out = ansi(game, state.view(state.current_player))
    assert_shown_as_text(out)
    assert "keep\\x1b[2K\\x1b[1G  9. win the game" in out


def test_an_escape_written_in_a_text_is_no_escape_only_a_raw_byte_is():
    from cardlang.lang.text_literals import unquote

    assert unquote('"a\\x1b[2J"') == "ax1b[2J"  # `\x` is `x`: the text holds no ESC
    assert unquote('"a\\nb\\tc"') == "a\nb\tc"  # the two escapes a text has
    assert unquote('"a\x1b[2J"') == "a\x1b[2J"  # a raw byte is kept (and W010 names it)
