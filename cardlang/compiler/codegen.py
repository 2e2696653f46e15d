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
import re
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
    source reads the local instead, which is cheaper. The source holds no text value (`literal`),
    so only reads of that slot can match.
    """
    src = getattr(f, "src", None)
    if src is None:
        return f
    p = _Pasted()
    p.src, p.env, p.pure, p.closure = src.replace(f"s.v[{slot}]", name), f.env, pure(f), f
    return p


def calls(f: Callable) -> bool:
    """Whether the source of `f` calls a closure of its own (which may read a slot its source does
    not show): true of a closure without source."""
    env = getattr(f, "env", None)
    return env is None or any(callable(v) for v in env.values())


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
    """Source standing for `value`: ints, bools and None as themselves, anything else (a text too)
    by a name bound in `env`.

    No text value ever appears in generated source, so a pass that reads or rewrites the source
    (`reading`, `_define`, `chain`) only ever meets code, never a string a game wrote: a game's
    text such as `"s.v[0]"` stays a name for that text, not something that looks like a slot.
    """
    if value is None or type(value) in (bool, int):
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


_SLOTS = re.compile(r"(?<![\w.])s\.v\[")


def _define(name: str, body: list, env: dict, rules=None) -> Callable:
    """Defines `def name(s):` with the `body` lines; `rules`: each line's rule line (`rule_line`).

    A body that reads the state's slots (`s.v[…]`) more than once reads them through a local `v`
    (generated source holds no text of a game, see `literal`; a line of a template that quotes a
    text of its own is left as it is: `s.v` and `v` are the same list).
    """
    if sum(len(_SLOTS.findall(x)) for x in body) > 1 or any(x.strip() == "v = s.v" for x in body[1:]):
        # `v` is only ever `s.v`: set once at the top, every later `v = s.v` is a no-op (`pass`)
        body = ["    v = s.v"] + [x if "'" in x or '"' in x else _SLOTS.sub("v[", x) for x in body]
        body[1:] = [x[:len(x) - 7] + "pass" if x.endswith("v = s.v") and not x[:-7].strip() else x for x in body[1:]]
        rules = None if rules is None else [rules[0] if rules else 0] + list(rules)
    text = f"def {name}(s):\n" + "\n".join(body) + "\n"
    exec(text, env)  # noqa: S102 - our own generated source
    f = env[name]
    f.text = text  # for reading what was generated (`print(op.text)`)
    if rules is not None:
        f.rule_lines = tuple(rules)  # rule_lines[i]: rule line of the function's line i + 2
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
        f = _define(name, text.rstrip("\n").split("\n"), env)
    except _TOO_DEEP:
        env = {}
        text = _fill(template, children, named, env, paste=False)
        f = _define(name, text.rstrip("\n").split("\n"), env)
    f.pure = all(pure(c) for c in children)  # true of what the compiler builds here (it may set slots
    return f                                 # of its own, like an aggregate's variable, but no more)


def fresh() -> str:
    """A new local name, for a loop variable or a value kept across lines of a `Source`."""
    return _name("_t")


class Source:
    """A generated function built line by line, each line a template as in `expr`.

    `rule_lines` holds, for each generated line, the rule it carries out (its `Span`: the
    place a rule error names; "line" for short), so that an error
    raised in the function is reported at the right line of the `.cards` file (`rule_line`).
    """

    def __init__(self):
        self.text: list = []
        self.env: dict = {}
        self.rule_lines: list = []

    def line(self, depth: int, rule_line, template: str, /, *children: Callable, views=(), **named) -> None:
        self.text.append("    " * (depth + 1) + _fill(template, children, named, self.env, views))
        self.rule_lines.append(rule_line)

    def lines(self, depth: int, rule_line, template: str, /, *children: Callable, views=(), **named) -> None:
        """Several lines at once: a template of statements written at depth 0 (four spaces)."""
        text = _fill(template, children, named, self.env, views)
        for one in text.rstrip("\n").split("\n"):
            self.text.append("    " * depth + one)
            self.rule_lines.append(rule_line)

    def compile(self) -> Callable | None:
        """The function, or None if Python cannot compile it (too deep: see `_TOO_DEEP`)."""
        try:
            return _define(_name("_g"), self.text, self.env, self.rule_lines)
        except _TOO_DEEP:
            return None


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


# ------------------------------------------------------------------ chaining
# An op returns the pc of the next one, and the run loop calls it: a step of the loop per op.
# Most ops end in `return <a constant pc>`; `chain` pastes the op found there in place of that
# line, and so on along the way, so that one call runs from a decision to the next (an alternative's
# body, the loop head, the next player's choice) instead of a call per op. Each op is a function
# whose body runs to a `return` on every path, so a pasted body ends wherever the op ended, and a
# local name it shares with its host was the host's no longer in use (the host has returned there).
_RETURN_PC = re.compile(r"( *)return (\d+)")
refused: list = []  # why Python refused chained ops, in this process


def _body(op, line):
    """(lines, rule lines, env) of an op `chain` may paste, or None."""
    text = getattr(op, "text", None)
    if text is not None:
        lines = text.rstrip("\n").split("\n")[1:]  # without `def _gN(s):`
        rules = getattr(op, "rule_lines", None)
        rules = list(rules) if rules is not None else [line] * len(lines)
        return lines, rules[:len(lines)] + [line] * (len(lines) - len(rules)), op.__globals__
    target = getattr(op, "jump", None)
    if target is not None:
        return [f"    return {target}"], [line], {}
    then = getattr(op, "then", None)  # a closure that always goes on to `then`: called in place
    if then is not None:
        k = _name("_k")
        return [f"    {k}(s)", f"    return {then}"], [line, line], {k: op}
    return None


def chain(code: list, lines: list, budget: int = 160, depth: int = 12) -> list:
    """`code` where each op is chained (see above) the first time the run loop enters it.

    Only the ops a run starts from or comes back to are entered (an alternative's body, a loop
    head, a shared phase's return point), so only those are compiled again, when first needed, and
    loading a game stays cheap. `lines` gives each op's rule line. A chained op pastes at most
    `budget` lines, `depth` ops deep, and never an op already on its way (a loop goes back to the
    run loop at its head). The result replaces its stub in the list, for every state of the game.
    """
    bodies: dict = {}

    def body(pc: int):
        if pc not in bodies:
            bodies[pc] = _body(code[pc], lines[pc]) if 0 <= pc < len(code) else None
        return bodies[pc]

    def chained(pc: int) -> Callable:
        left = [budget]
        env: dict = {}

        def expand(at: int, way: frozenset, level: int) -> tuple:
            src, rules, names = body(at)
            env.update(names)
            text_out, rules_out = [], []
            for text, rule in zip(src, rules):
                m = _RETURN_PC.fullmatch(text)
                target = int(m.group(2)) if m else -1
                sub = body(target) if m and target not in way and level < depth else None
                if sub is not None and len(sub[0]) <= left[0]:
                    left[0] -= len(sub[0])
                    pasted, pasted_rules = expand(target, way | {target}, level + 1)
                    pad = " " * (len(m.group(1)) - 4)
                    text_out.extend(pad + x for x in pasted)
                    rules_out.extend(pasted_rules)
                else:
                    text_out.append(text)
                    rules_out.append(rule)
            return text_out, rules_out

        text, rules = expand(pc, frozenset({pc}), 0)
        if text == body(pc)[0]:
            return code[pc]
        try:
            return _define(_name("_g"), text, env, rules)
        except _TOO_DEEP as e:
            refused.append(f"{type(e).__name__}: {e}")  # (tests check that only depth is refused)
            return code[pc]

    out = list(code)

    def stub(pc: int) -> Callable:
        def first_entry(s):
            op = out[pc] = chained(pc)
            return op(s)
        return first_entry

    for pc, op in enumerate(code):
        if body(pc) is not None:
            out[pc] = stub(pc)
    return out
