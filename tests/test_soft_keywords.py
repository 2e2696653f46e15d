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
    hard = hard_callables() if role in CALLED else hard_words()
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
            body += ["    if total >= 0:", f"        let {w} = total + 1", f"        add {w} to total",
                     f"    for each {w} in players:", f'        announce "{{{w}}}"',
                     f"    for each {w} in [1, 2] where {w} > 1:", f"        add {w} to total",
                     f"    with_{w}(3)",
                     "    let chooser = top of players",
                     f"    chooser chooses a number {w} from 1 to 2:", f"        add {w} to total",
                     "    deal 1 from stock to hand(players)",
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
