"""What the language server answers, in process: names resolve as the checker resolves them, so that
renaming any declared name of a game everywhere the index finds it leaves a file that checks clean."""

import glob
import os
import shutil

import pytest

from cardlang.load import check_source
from cardlang.tools import analysis
from scenario import ROOT

GAMES = sorted(glob.glob(os.path.join(ROOT, "games", "*.cards")))


def apply(texts: dict, spans: list, new: str) -> dict:
    """The files' texts with each span replaced by `new` (right to left, so positions hold)."""
    out = {f: t.split("\n") for f, t in texts.items()}
    for s in sorted(spans, key=lambda s: (s.file, s.line, -s.column)):
        row = out[s.file][s.line - 1]
        out[s.file][s.line - 1] = row[: s.column - 1] + new + row[s.end_column - 1:]
    return {f: "\n".join(lines) for f, lines in out.items()}


@pytest.mark.parametrize("path", GAMES, ids=os.path.basename)
def test_renaming_any_name_of_a_game_everywhere_leaves_it_clean(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    a = analysis.analyse(text, path)
    assert a.names is not None and not [d for d in a.diagnostics if d.is_error]
    kinds = {d.kind for d in a.names.declared}
    assert {"zone", "local", "var"} <= kinds or {"zone", "local", "pvar"} <= kinds
    for k, d in enumerate(a.names.declared):
        spans = analysis.rename(a, d.span.line, d.span.column, f"renamed_{k}")
        assert spans[0] == d.span
        renamed = apply({a.path: text}, spans, f"renamed_{k}")[a.path]
        _, _, _, found = check_source(renamed, path)
        errors = [x for x in found if x.is_error]
        assert errors == [], f"renaming {d.kind} `{d.name}` (line {d.span.line}) missed a use: {errors[0]}"


def test_a_rename_in_a_variant_changes_its_base_too(tmp_path):
    for folder in ("games", "examples"):
        shutil.copytree(os.path.join(ROOT, folder), tmp_path / folder)
    (tmp_path / "cardlang.toml").write_text('root = "."\n')  # as the project's pyproject.toml: examples/ reach games/
    variant = os.path.normpath(str(tmp_path / "examples" / "ascenseur_blind.cards"))
    base = os.path.normpath(str(tmp_path / "games" / "ascenseur.cards"))
    texts = {p: open(p, encoding="utf-8").read() for p in (variant, base)}
    a = analysis.analyse(texts[variant], variant)
    line = texts[variant].split("\n").index("    bidding") + 1
    spans = analysis.rename(a, line, 6, "bids")
    assert {s.file for s in spans} == {variant, base}
    assert analysis.definition(a, line, 6).file == base
    renamed = apply(texts, spans, "bids")
    for p, t in renamed.items():
        with open(p, "w", encoding="utf-8") as f:
            f.write(t)
    _, _, _, found = check_source(renamed[variant], variant)
    assert [x for x in found if x.is_error] == []
    with pytest.raises(analysis.RenameError):
        analysis.rename(a, line, 6, "deal")  # a keyword
    with pytest.raises(analysis.RenameError):
        analysis.rename(a, 1, 1, "x")  # a comment: nothing declared there
    with pytest.raises(analysis.RenameError, match="is already a phase"):
        analysis.rename(a, line, 6, "turn_trump")  # two phases would have one name


def test_hover_on_a_name_shows_its_declaration_and_the_comment_above_it():
    path = os.path.join(ROOT, "games", "coucou.cards")
    text = open(path, encoding="utf-8").read()
    a = analysis.analyse(text, path)
    lines = text.split("\n")
    use = next(i for i, l in enumerate(lines, 1) if "card(right of p)" in l)
    shown, _ = analysis.hover(a, use, lines[use - 1].index("card(") + 2)
    assert "define card(p) = top of hand(p)" in shown and "The card a player holds." in shown


def test_the_lsp_command_without_pygls_says_how_to_install_it():
    import subprocess
    import sys

    code = "import sys; sys.modules['pygls'] = None; from cardlang.cli import main; main(['lsp'])"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    assert done.stderr == "Error: the language server needs pygls (pygls is missing): pip install 'cardlang[lsp]'\n"


# E005 files are not text (binary, not UTF-8): an editor does not hand them to the server as such
INVALID = sorted(p for p in glob.glob(os.path.join(ROOT, "tests", "check", "*", "*.cards"))
                 if not os.path.basename(p).startswith("E005"))


def _shape(d):
    return (d.code, d.severity, d.span.line, d.span.column, d.span.end_line, d.span.end_column, d.message,
            d.help, d.notes)


@pytest.mark.parametrize("path", INVALID, ids=os.path.basename)
def test_the_server_finds_what_cardlang_check_finds(path):
    """The same codes, severities, ranges, messages, help and notes as `cardlang check` on every
    example file of the check tests (its own problems; a base's are shown on the `extends` line)."""
    from cardlang.cli.cmd_check import check_paths

    report = check_paths([path]).diagnostics
    mine = [d for d in report if os.path.abspath(d.span.file) == os.path.abspath(path)]
    with open(path, encoding="utf-8") as f:
        found = analysis.own_diagnostics(analysis.analyse(f.read(), path))
    assert len(found) == len(report)
    assert [_shape(d) for d in found[:len(mine)]] == [_shape(d) for d in mine]
    for d in found[len(mine):]:  # a base file's problem, on the `extends` line
        assert d.span.file == os.path.normpath(path) and d.message.startswith("in ")


def test_completion_offers_the_locals_of_the_block_from_where_they_are_bound():
    path = os.path.join(ROOT, "games", "coucou.cards")
    text = open(path, encoding="utf-8").read()
    lines = text.split("\n")
    bound = lines.index("    let low = min p in players of value(card(p))") + 1
    a = analysis.analyse(text, path)
    after = [c.label for c in analysis.complete(a, bound + 2, 13)]  # in `if low == high:`
    before = [c.label for c in analysis.complete(a, bound - 1, 13)]
    assert "low" in after and "high" in after and "talon" in after and "card" in after
    assert "low" not in before and "talon" in before
    elsewhere = [c.label for c in analysis.complete(a, 2, 5)]
    assert "low" not in elsewhere


def test_every_keyword_of_the_grammar_has_a_hover_from_the_language_page():
    from cardlang.tools.keywords import grammar_keywords, keyword_doc, language_doc

    page = language_doc()
    assert page.startswith("# The cardlang language")
    for word in grammar_keywords():
        doc = keyword_doc(word)
        assert doc.startswith(f"**{word}** ("), f"docs/language.md shows no example of `{word}`"
        quoted = [line for part in doc.split("```cards\n")[1:] for line in part.split("\n```")[0].split("\n")]
        assert quoted or "`" in doc
        assert all(q in page.replace("\\|", "|") for q in quoted)  # the lines as the page writes them


@pytest.mark.parametrize("line, offered", [
    ("deck ", {"standard", "piquet", "ranks"}),
    ("zone z: ", {"per player", "pile", "row", "hidden", "private", "public"}),
    ("phase f(n: ", {"number", "player", "card"}),
    ("per player var x: ", {"number", "player"}),
])
def test_completion_offers_the_words_a_declaration_takes(line, offered):
    text = 'game "g"\nplayers 2\ndeck standard\n' + line + "\n"
    got = [c.label for c in analysis.complete(analysis.analyse(text, "x.cards"), 4, len(line) + 1)]
    assert offered <= set(got) and "if" not in got
