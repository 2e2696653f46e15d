"""The words error messages use come from grammar/cardlang.lark (cardlang/lang/grammar.py); what
cannot be derived from it, the lines recovery puts in place of a broken one, is checked against it.

Recovery lines are sentences, not sets of words: the grammar could give a shortest statement, but
`pass`, `if true:` and `"recovered": pass` say what they are for, so they stay written out and this
test parses each in the places recovery uses it.
"""

import pytest
from lark.exceptions import UnexpectedInput

from cardlang.lang import grammar, parse, syntax_errors
from cardlang.lang.check import check


def parses(text: str) -> bool:
    try:
        grammar.parser().parse(text, start="start")
    except UnexpectedInput:
        return False
    return True


def test_a_word_that_alone_is_an_expression_cannot_name_a_declaration_and_others_can():
    """Soft keywords (tests/test_soft_keywords.py has every word): only the words that alone are an
    expression or a statement (`players`, `pass`) are refused, once, where declared."""
    base = 'game "g"\nplayers 2\ndeck standard\nvar {0} = 1\nround:\n    add {0} to {0}\n    end game\n'
    for word, code in (("repeat", None), ("count", None), ("winner", None), ("card", None), ("players", "E017"),
                       ("none", "E017")):
        module, diagnostics = parse.parse(base.format(word))
        assert module is not None, diagnostics
        _, found = check(module)
        if code:
            assert [d.code for d in found if d.is_error] == [code]
        else:
            assert not [d for d in found if d.is_error], found


def test_expression_starts_and_continuations_come_from_the_expression_rules():
    starts = grammar.expression_starts()
    assert {"NAME", "INT", "STRING", "LPAR", "LSQB", "MINUS", "NOT", "TOP", "PLAYERS"} <= starts
    assert not {"COLON", "_NL", "RPAR", "SAYS", "CHOOSES"} & starts
    more = grammar.expression_continuations()
    assert more == {"OR", "AND", "COMP_OP", "IN", "IS", "HAS", "ADD_OP", "EXCEPT", "MUL_OP", "IF", "LSQB",
                    "LPAR", "FROM", "DOTS"}


def test_block_openers_are_the_words_of_statements_and_declarations_with_a_block():
    assert grammar.block_openers() == ("repeat until", "each player", "for each", "chooses", "repeat", "phase",
                                       "round", "setup", "while", "elif", "else", "if")


def test_every_terminal_named_in_messages_is_a_terminal_of_the_grammar():
    names = {t.name for t in grammar.parser().terminals} | {"_INDENT", "_DEDENT", "$END"}
    assert set(syntax_errors._TERMINAL_WORDS) <= names
    ind = grammar._Indenter
    assert {ind.NL_type, *ind.OPEN_PAREN_types, *ind.CLOSE_PAREN_types} <= names


STATEMENT_PLACES = ("round:\n{line}\n", "round:\n    p chooses:\n    {line}\n")


@pytest.mark.parametrize("case", ["statement", "header", "top header"])
def test_recovery_lines_parse(case):
    if case == "statement":
        lines, at = ["round:", "    move x y z", ""], 2
    elif case == "header":
        lines, at = ["round:", "    if x y:", "        pass", ""], 2
    else:
        lines, at = ["phase x y:", "    pass", ""], 1
    candidates = [c for c in parse._replacements(list(lines), at, reindented=False) if c.strip()]
    assert candidates
    for line in candidates:
        if case == "statement":
            ok = any(parses(place.format(line=line)) for place in STATEMENT_PLACES)
        elif case == "header":  # a statement that opens a block, or an option of a `chooses`
            ok = parses("round:\n" + line + "\n        pass\n") or parses(
                "round:\n    p chooses:\n    " + line + "\n            pass\n")
        else:
            ok = parses(line + "\n    pass\n")
        assert ok, f"recovery line {line!r} does not parse where it is used"


def test_the_innermost_block_is_named_from_the_grammar():
    lines = ["round:", "    for each p in players:", "        move x", ""]
    assert syntax_errors._innermost_block(lines, 3) == "for each"
    assert syntax_errors._innermost_block(["round:", "    dealer chooses:", "        x", ""], 3) == "chooses"


def test_first_sets_agree_with_larks_own_analysis():
    from lark.grammar import NonTerminal
    from lark.parsers.grammar_analysis import calculate_sets

    first, _, _ = calculate_sets(grammar.parser().rules)
    for rule in ("stmt", "expr", "start", "alternative", "atom", "block"):
        assert grammar.first_terminals(rule) == {t.name for t in first[NonTerminal(rule)]}


def test_every_labelled_mistake_is_still_a_mistake_the_grammar_refuses():
    """The `help:` examples of broken input restate the syntax by showing what it is not: each must
    still fail to parse, where its label can be found again."""
    from lark.exceptions import UnexpectedToken

    table = syntax_errors._example_table()
    for label, snippets in syntax_errors._EXAMPLES.items():
        assert label in table.values(), f"no example of {label!r} fails where the table can find it"
        for snippet in snippets:
            assert not parses(snippet), snippet
            try:
                grammar.parser().parse(snippet, start="start")
            except UnexpectedToken as e:
                assert (e.state.position, e.token.type) in table
            except UnexpectedInput:
                pass
