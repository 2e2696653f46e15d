"""Words of the language as names (docs/language.md, "Words of the language as names"): every keyword
of the grammar (`tools.keywords.grammar_keywords()`, read from grammar/cardlang.lark) names a
variable, an option, a player's variable, a zone, a phase, a definition and a local in files that
must check, format to themselves and play to the end on both engines. The few words that alone are
an expression or a statement (`soft_keywords.hard_words()`) are refused once, where declared."""

import random

import pytest

import cardlang
from cardlang.lang.check import check
from cardlang.lang.parse import parse
from cardlang.lang.soft_keywords import hard_callables, hard_words
from cardlang.tools.fmt import format_source
from cardlang.tools.keywords import grammar_keywords

from scenario import random_playout

HEAD = 'game "words as names"\nplayers 2\ndeck standard\nzone stock: pile, hidden\nzone hand: per player, private\n' \
       "var total = 0\n"
END = "    end game\n"


CALLED = ("player variable", "definition")  # roles whose name is used as `name(…)`


def soft(role: str) -> list:
    """Every keyword of the grammar that may be a name in this role."""
    # (a word that alone is a statement, `pass` or `break`, cannot name a phase only: a line that names it)
    hard = hard_callables() if role in CALLED else {w for w, what in hard_words().items()
                                                    if what == "an expression" or role == "phase"}
    return [w for w in grammar_keywords() if w not in hard]


def role_file(role: str) -> str:
    """A rule file that uses every soft keyword `w` in one role, with the uses a rulebook makes of it."""
    decls, after = [], []
    rnd = ["round:", "    move all cards to stock", "    shuffle stock", "    deal 1 from stock to hand(players)"]
    for w in soft(role):
        body = [f"phase uses_{w}:"]  # each word's uses in a phase of their own, as a rulebook's parts
        rnd.append(f"    uses_{w}")
        if role == "variable":
            decls.append(f"var {w} = 0")
            body += [f"    set {w} = {w} + 1", f"    add {w} to {w}", f"    if {w} > 1:",
                     f'        announce "{w} is {{{w}}}"', f"    add {w} * 2 - {w} to total"]
        elif role == "option":
            decls.append(f'option {w} = 1 in 0..3 "how many {w}"')
            body += [f"    add {w} to total", f'    announce "{{{w}}} {w}"', f"    set total = total + {w}"]
        elif role == "player variable":
            decls.append(f"per player var {w} = 0")
            body += ["    for each p in players:", f"        set {w}(p) = {w}(p) + 1", f"        add {w}(p) to total",
                     f'        announce "{{p}}: {{{w}(p)}}"']
        elif role == "zone":
            decls.append(f"zone {w}: pile, public")
            body += [f"    move top of stock to {w} face up", f'    announce "{w}: {{top of {w}}}"', f"    shuffle {w}",
                     f"    add 1 to total",
                     f"    if top of {w} is hearts:", f"        move top of {w} under stock", f"    move {w} to stock"]
        elif role == "phase":
            after += [f"phase {w}:", "    add 1 to total", f"phase {w}_with(p):", f"    add 1 to total"]
            decls.append(f"define {w}_of(n: number) = n + 1")
            body += [f"    {w}", f"    {w}_with(top of players)", f"    set total = {w}_of(total)"]
        elif role == "definition":
            decls.append(f"define {w}(n: number) = n + 1")
            body += [f"    set total = {w}(total)", f"    add {w}(1) to total", f'    announce "{{{w}(2)}}"']
        elif role == "local":
            after += [f"phase with_{w}({w}: number):", f"    add {w} to total"]
            body += ["    if total >= 0:", f"        let {w} = 1", f"        add {w} to total",
                     f"    for each {w} in players:", f'        announce "{{{w}}}"',
                     f"    for each {w} in [1, 2] where {w} > 1:", f"        add {w} to total",
                     f"    with_{w}(3)",
                     "    let chooser = top of players",
                     f"    chooser chooses a number {w} from 1 to 2:", f"        add {w} to total",
                     "    move top of stock to hand(chooser)",
                     f"    chooser chooses a card {w} from hand(chooser):", f"        move {w} to stock",
                     f"    chooser chooses a player {w} from players:", f'        announce "{{{w}}} named"']
        else:
            raise AssertionError(role)
        after += body
    return HEAD + "\n".join(decls) + "\n" + "\n".join(rnd) + "\n" + END + "\n".join(after) + "\n"


ROLES = ("variable", "option", "player variable", "zone", "phase", "definition", "local")


@pytest.mark.parametrize("role", ROLES)
def test_every_keyword_names_something_in_a_file_that_checks(role):
    source = role_file(role)
    module, problems = parse(source, f"<{role}>")
    assert module is not None, [str(d) for d in problems[:5]]
    _, found = check(module)
    assert [d for d in found] == [], [f"{d.span.line}: {d.message} | {source.splitlines()[d.span.line - 1]}"
                                      for d in found[:5]]
    assert format_source(source) == format_source(format_source(source))
    assert parse(format_source(source))[0] is not None


@pytest.mark.parametrize("role", ROLES)
def test_every_keyword_names_something_in_a_file_that_plays(role, engine, tmp_path):
    path = tmp_path / "words.cards"
    path.write_text(role_file(role))
    game = cardlang.load(str(path), players=2, engine=engine)
    state = game.new_initial_state(seed=1)
    assert random_playout(state, random.Random(1)) >= 0
    assert state.is_terminal()


def test_the_words_that_cannot_be_names_are_those_that_alone_are_an_expression_or_a_statement():
    assert hard_words() == {"players": "an expression", "seats": "an expression", "teams": "an expression",
                            "true": "an expression", "false": "an expression", "none": "an expression",
                            "pass": "a statement", "break": "a statement"}
    assert hard_callables() - set(hard_words()) == {"not", "count", "sum", "min", "max", "any", "select"}


def diagnostics_of(source: str) -> list:
    """Every diagnostic of one `check` run, as `code line:column message (help)`."""
    from cardlang.load import check_source

    found = check_source(source, "t.cards")[3]
    return [f"{d.code} {d.span.line}:{d.span.column} {d.message}" + (f" ({d.help})" if d.help else "")
            for d in found]


OLD = 'game "t"\nplayers 2\ndeck {deck}\nzone stock: pile, hidden\nvar {name} = 0\nround:\n    move all cards to stock\n' \
      "    shuffle stock\n{uses}    end game\n"


def test_a_refused_name_gives_one_error_however_often_it_is_used(snapshot):
    uses = "".join(f"    add {k} to seats\n    set seats = seats + 1\n" if k % 2 else f'    announce "{{seats}}"\n'
                   for k in range(26))
    found = diagnostics_of(OLD.format(deck="standard", name="seats", uses=uses))
    assert [d.split()[0] for d in found] == ["E017"] and "did you mean" not in found[0]
    assert found == snapshot


def test_check_reports_a_refused_name_and_a_deck_problem_in_one_run(snapshot):
    found = diagnostics_of(OLD.format(deck="standerd", name="seats", uses="    add 1 to seats\n"))
    assert sorted(d.split()[0] for d in found) == ["E017", "E020"]
    assert found == snapshot
    # a word of the language that may be a name hides nothing either
    found = diagnostics_of(OLD.format(deck="standerd", name="position", uses="    add 1 to position\n"))
    assert [d.split()[0] for d in found] == ["E020"]


def test_a_broken_deck_line_beside_a_zone_named_deck_is_a_syntax_error_of_the_deck_line(snapshot):
    source = 'game "t"\nplayers 2\ndeck standard with\nzone deck: pile, hidden\nround:\n    move all cards to deck\n' \
             "    end game\n"
    module, found = parse(source, "t.cards")
    assert module is None and [(d.code, d.span.line) for d in found] == [("E001", 3)]
    assert [f"{d.code} {d.span.line}:{d.span.column} {d.message}" for d in found] == snapshot


def test_names_that_became_words_of_the_language_still_check_and_play(engine):
    """The five files that broke named things `team`, `partner`, `position`, `forget`, `put`, `bets`."""
    from scenario import path

    assert diagnostics_of(open(path("tests/check/valid/old_names.cards")).read()) == []
    state = cardlang.load(path("tests/check/valid/old_names.cards"), 2, engine=engine).new_initial_state(seed=3)
    random_playout(state, random.Random(3))
    assert state.is_terminal()
    assert any(line.startswith("P0 puts ") for line in state.transcript(0))


UPGRADE_BEFORE = '''game "t"
players 2
deck standard
var seats = 0
var seats_ = 1
per player var none = 0
round:
    add seats_ to seats
    set seats = seats + 1
    for each p in players:
        set none(p) = seats
        announce "{p}: {none(p)} of {seats} {"x{seats}"}"
    end game
'''


def test_fmt_upgrade_renames_a_name_that_is_a_word_alone_everywhere_it_stands_for_it():
    from cardlang.tools.upgrade import upgrade_source

    assert [d.split()[0] for d in diagnostics_of(UPGRADE_BEFORE)] == ["E017", "E017"]
    after, done = upgrade_source(UPGRADE_BEFORE)
    assert done == ["names that are words alone"]
    assert "var seats__ = 0" in after and "var seats_ = 1" in after and "add seats_ to seats__" in after
    assert 'announce "{p}: {none_(p)} of {seats__} {"x{seats__}"}"' in after
    assert "for each p in players:" in after  # the word where it means the language's own stays
    assert diagnostics_of(after) == []
    assert upgrade_source(after) == (after, [])


def test_fmt_upgrade_on_the_command_line(tmp_path):
    from click.testing import CliRunner

    from cardlang.cli import main

    path = tmp_path / "old.cards"
    path.write_text(UPGRADE_BEFORE)
    runner = CliRunner()
    r = runner.invoke(main, ["fmt", "--check", "--upgrade", str(path)])
    assert r.exit_code == 1 and path.read_text() == UPGRADE_BEFORE
    r = runner.invoke(main, ["fmt", "--upgrade", str(path)])
    assert r.exit_code == 0 and "upgraded" in r.output and "names that are words alone" in r.output
    assert diagnostics_of(path.read_text()) == []
    r = runner.invoke(main, ["fmt", "--check", "--upgrade", str(path)])
    assert r.exit_code == 0
