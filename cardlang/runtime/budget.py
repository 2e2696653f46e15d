"""The run budget: how much work and memory one run of the rules may take (docs/security.md).

A rule file passes `check` and can still ask for unbounded work: `repeat 64 times: set x = x * x`,
a text doubled in a loop, phases that each play the next one twice. Each budget below is met at the
rule line that exceeds it, with a rule error naming the budget, the same in both engines (they
call these functions with the values they have worked out). The figures lie far above what any
game in games/ and examples/ needs (tests check that every one of them plays unaffected).

The step budget itself (`engine.STEP_BUDGET`) counts the passes of `while` and `repeat` loops
and the rounds begun in one run, from a decision to the next, a step for each item of a `for each`
when it begins, and the phases played where they can multiply the work
(`compiler.ir_facts.phases_spend_steps`).
"""

from __future__ import annotations

from .basics import MAX_LOG_CHARS, RuleError  # noqa: F401 (the budget of the log, kept by `basics.Events`)

# A number worked out by `+`, `-`, `*` or `add` may not pass ±10^30 (a 31-digit number): money,
# scores and counts of real games stay under 10^12. A product of two such numbers is computed
# before it is refused, so no step ever works on more than about 200 bits. A sum with a number
# written in the rules (`x + 1`, `add 1 to x`: `compiler.ir.constant`) is not checked: it grows by
# no more than that number a step, which the step budget bounds.
MAX_NUMBER = 10 ** 30

# Characters of a text worked out as a value (`"… {x} …"` held in a variable or a definition,
# `a + b` of texts) or shown (an announcement, a label); a card in a text counts a few characters.
MAX_TEXT = 100_000

# Items of a list worked out by `+` (`set l = l + [x]`): twice a deck of the most cards allowed.
MAX_ITEMS = 131_072

# Characters of one game's log, all lines together: `basics.MAX_LOG_CHARS` (50 000 000), which the
# log's events keep (`basics.Events`); its lines are capped too (`basics.MAX_EVENTS`).


def number_too_big(value: int, span) -> int:
    """The rule error of a number past `MAX_NUMBER` (`value`, the number worked out)."""
    digits = len(str(abs(value))) if value.bit_length() < 10_000 else int(value.bit_length() * 0.30103) + 1
    raise RuleError(f"a number of {digits:,} digits: past the run budget of numbers "
                    f"(±10^{len(str(MAX_NUMBER)) - 1})", span)


def text_too_long(text: str, span) -> str:
    """The rule error of a text past `MAX_TEXT` characters."""
    raise RuleError(f"a text of {len(text):,} characters: past the run budget of texts "
                    f"({MAX_TEXT:,} characters)", span)


def list_too_long(items, span) -> tuple:
    """The rule error of a list past `MAX_ITEMS` items."""
    raise RuleError(f"a list of {len(items):,} items: past the run budget of lists ({MAX_ITEMS:,} items)", span)


def number(value, span):
    """`value` if it is a number within the budget (or not a number: none, which the rule using it
    refuses), else the rule error."""
    if type(value) is int and not -MAX_NUMBER <= value <= MAX_NUMBER:
        number_too_big(value, span)
    return value


def text(value: str, span) -> str:
    """`value` if it is a text within the budget, else the rule error."""
    if len(value) > MAX_TEXT:
        text_too_long(value, span)
    return value


def items(value: tuple, span) -> tuple:
    """`value` if it is a list within the budget, else the rule error."""
    if len(value) > MAX_ITEMS:
        list_too_long(value, span)
    return value


def out_of_memory(span) -> RuleError:
    """The rule error of a run that Python could not give the memory it asked for."""
    return RuleError("the rules ran out of memory: past the run budget of memory", span)
