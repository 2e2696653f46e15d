"""Closures that carry their Python source, so that the compiler can inline them into their parent.

The compiler turns every expression into a closure `f(state) -> value`. Built one per node, a
rule like `suit(c) == led or not (hand(p) has led)` becomes a dozen nested calls at every step. A
closure made here also carries `f.src`, a Python expression over the state `s`, and `f.env`, the
names that source uses; a parent built here pastes its children's sources into its own and
compiles the whole as one function. A child built another way is called as it is (`_f12(s)`), so
closures of both kinds mix freely and a new construct needs no source to work.

Templates are `str.format` strings: `{0}`, `{1}` … are the children (parenthesised), other
`{names}` the keyword values (ints, None, bools and texts as literals, anything else by a bound
name), and a keyword given `TEMP` becomes a fresh local name for a walrus (`({t} := {0})`), so a
child used twice is still evaluated once. Python forbids a walrus in a comprehension's iterable:
a template binds such a child to a name in a statement first (`q = {0}`), then iterates `q`.
"""

from __future__ import annotations

import itertools
from typing import Callable

TEMP = object()  # a keyword value: give me a fresh local name
_ids = itertools.count()


def _name(prefix: str) -> str:
    return f"{prefix}{next(_ids)}"


def inline(f: Callable, env: dict) -> str:
    """The source of `f` to paste into a parent (its names merged into `env`), or a call of it."""
    src = getattr(f, "src", None)
    if src is not None:
        env.update(f.env)
        return src
    k = _name("_f")
    env[k] = f
    return f"{k}(s)"


class _Pasted:
    """A child whose source reads a local name of its parent: only for pasting, not for calling."""

    __slots__ = ("src", "env", "pure", "closure")


def reading(f: Callable, slot: int, name: str):
    """`f` for pasting into a loop that keeps the value of slot `slot` in its local `name` too.

    The loop still writes the slot (closures that are called, not pasted, read it there); pasted
    source reads the local instead, which is cheaper.
    """
    src = getattr(f, "src", None)
    if src is None:
        return f
    p = _Pasted()
    p.src, p.env, p.pure, p.closure = src.replace(f"s.v[{slot}]", name), f.env, pure(f), f
    return p


def view(f: Callable, env: dict) -> str:
    """Like `inline`, but for a closure giving a zone's cards: the zone's list itself, uncopied.

    Only for a parent that reads the cards and changes nothing while it does (expressions never
    move cards).
    """
    src = getattr(f, "view", None)
    if src is not None:
        env.update(f.env)
        return src
    return inline(f, env)


def literal(value, env: dict) -> str:
    if value is None or type(value) in (bool, int, str):
        return repr(value)
    k = _name("_k")
    env[k] = value
    return k


def _fill(template: str, children, named: dict, env: dict, views=(), paste: bool = True) -> str:
    if paste:
        args = ["(" + (view if i in views else inline)(c, env) + ")" for i, c in enumerate(children)]
    else:  # every child called, none pasted (see `_compiled`)
        args = [literal(getattr(c, "closure", c), env) + "(s)" for c in children]
    kw = {key: _name("_t") if value is TEMP else literal(value, env) for key, value in named.items()}
    return template.format(*args, **kw)


# Python's parser refuses sources nested too deep (200 brackets); a rule nested that deep gets its
# children called rather than pasted, as closures are.
_TOO_DEEP = (SyntaxError, RecursionError, MemoryError)


def pure(f: Callable) -> bool:
    """Whether `f` only reads the state (built here from parts that only read it): evaluating it
    once or several times gives the same value and draws nothing from the state's chance."""
    return getattr(f, "pure", False)


def expr(template: str, /, *children: Callable, views=(), **named) -> Callable:
    """A closure `lambda s: <template filled>` that carries its source (`views`: see `function`)."""
    env: dict = {}
    src = _fill(template, children, named, env, views)
    try:
        f = eval("lambda s: " + src, env)  # noqa: S307 - our own generated source
    except _TOO_DEEP:
        env = {}
        f = eval("lambda s: " + _fill(template, children, named, env, paste=False), env)  # noqa: S307
        f.pure = all(pure(c) for c in children)
        return f  # no source: parents call it
    f.src, f.env, f.pure = src, env, all(pure(c) for c in children)
    return f


def zone_cards(zone: Callable) -> Callable:
    """`tuple(s.zones[zone])`, whose parents may read the zone's list directly (`view`)."""
    env: dict = {}
    z = "s.zones[" + inline(zone, env) + "]"
    f = eval("lambda s: tuple(" + z + ")", env)  # noqa: S307
    f.src, f.env, f.view, f.pure = "tuple(" + z + ")", env, z, pure(zone)
    return f


def _define(name: str, text: str, env: dict) -> Callable:
    exec(text, env)  # noqa: S102 - our own generated source
    f = env[name]
    f.text = text  # for reading what was generated (`print(op.text)`)
    return f


def function(template: str, /, *children: Callable, views=(), **named) -> Callable:
    """A closure `def f(s): <template filled>` (statements, each line indented by four spaces).

    It carries no source (it is not an expression): parents call it. `views` lists the children
    pasted as a zone's list rather than a copy of it (see `view`).
    """
    env: dict = {}
    text = _fill(template, children, named, env, views)
    name = _name("_g")
    try:
        f = _define(name, f"def {name}(s):\n" + text, env)
    except _TOO_DEEP:
        env = {}
        text = _fill(template, children, named, env, paste=False)
        f = _define(name, f"def {name}(s):\n" + text, env)
    f.pure = all(pure(c) for c in children)  # true of what the compiler builds here (it may set slots
    return f                                 # of its own, like an aggregate's variable, but no more)


def fresh() -> str:
    """A new local name, for a loop variable or a value kept across lines of a `Source`."""
    return _name("_t")


class Source:
    """A generated function built line by line, each line a template as in `expr`.

    `rule_lines` holds, for each generated line, the rule line it carries out, so that an error
    raised in the function is reported at the right line of the `.cards` file (`rule_line`).
    """

    def __init__(self):
        self.text: list = []
        self.env: dict = {}
        self.rule_lines: list = []

    def line(self, depth: int, rule_line: int, template: str, /, *children: Callable, views=(), **named) -> None:
        self.text.append("    " * (depth + 1) + _fill(template, children, named, self.env, views))
        self.rule_lines.append(rule_line)

    def lines(self, depth: int, rule_line: int, template: str, /, *children: Callable, views=(), **named) -> None:
        """Several lines at once: a template of statements written at depth 0 (four spaces)."""
        text = _fill(template, children, named, self.env, views)
        for one in text.rstrip("\n").split("\n"):
            self.text.append("    " * depth + one)
            self.rule_lines.append(rule_line)

    def compile(self) -> Callable | None:
        """The function, or None if Python cannot compile it (too deep: see `_TOO_DEEP`)."""
        name = _name("_g")
        try:
            f = _define(name, f"def {name}(s):\n" + "\n".join(self.text) + "\n", self.env)
        except _TOO_DEEP:
            return None
        f.rule_lines = tuple(self.rule_lines)  # rule_lines[i]: rule line of the function's line i + 2
        return f


def rule_line(op: Callable, error: BaseException) -> int | None:
    """The rule line at which `error` left the generated function `op` (None if it did not)."""
    lines = getattr(op, "rule_lines", None)
    tb = error.__traceback__
    if lines is None or tb is None:
        return None
    code = getattr(op, "__code__", None)
    while tb is not None:
        if tb.tb_frame.f_code is code:
            i = tb.tb_lineno - 2
            return lines[i] if 0 <= i < len(lines) else None
        tb = tb.tb_next
    return None
