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
child used twice is still evaluated once.
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


def _fill(template: str, children, named: dict, env: dict, views=()) -> str:
    args = ["(" + (view if i in views else inline)(c, env) + ")" for i, c in enumerate(children)]
    kw = {key: _name("_t") if value is TEMP else literal(value, env) for key, value in named.items()}
    return template.format(*args, **kw)


def expr(template: str, /, *children: Callable, views=(), **named) -> Callable:
    """A closure `lambda s: <template filled>` that carries its source (`views`: see `function`)."""
    env: dict = {}
    src = _fill(template, children, named, env, views)
    f = eval("lambda s: " + src, env)  # noqa: S307 - our own generated source
    f.src, f.env = src, env
    return f


def zone_cards(zone: Callable) -> Callable:
    """`tuple(s.zones[zone])`, whose parents may read the zone's list directly (`view`)."""
    env: dict = {}
    z = "s.zones[" + inline(zone, env) + "]"
    f = eval("lambda s: tuple(" + z + ")", env)  # noqa: S307
    f.src, f.env, f.view = "tuple(" + z + ")", env, z
    return f


def function(template: str, /, *children: Callable, views=(), **named) -> Callable:
    """A closure `def f(s): <template filled>` (statements, each line indented by four spaces).

    It carries no source (it is not an expression): parents call it. `views` lists the children
    pasted as a zone's list rather than a copy of it (see `view`).
    """
    env: dict = {}
    text = _fill(template, children, named, env, views)
    name = _name("_g")
    exec(f"def {name}(s):\n" + text, env)  # noqa: S102 - our own generated source
    return env[name]
