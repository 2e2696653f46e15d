"""`@node` (cardlang/lang/nodes.py): the node classes of the syntax tree and of the IR are frozen,
slotted attrs classes compared by identity, and their shared `repr` writes exactly what attrs' own
`repr` would, on every node class, nested nodes and a node met again inside itself included."""

import inspect

import attrs
import pytest

from cardlang.compiler import ir
from cardlang.lang import ast, ast_base, ast_decls
from cardlang.lang.diagnostics import Span
from cardlang.lang.nodes import node

NODE_CLASSES = [c for module in (ast, ast_base, ast_decls, ir) for _, c in inspect.getmembers(module, inspect.isclass)
                if c.__module__ == module.__name__ and getattr(c, "__repr__", None) is ast.Expr.__repr__]
SPAN = Span("f.cards", 1, 2, 3, 4)


def attrs_twin(cls):
    """The same fields in a class whose `repr` attrs writes itself."""
    return attrs.make_class(cls.__name__, [a.name for a in attrs.fields(cls)], frozen=True, slots=True, eq=False)


def sample(cls, k: int):
    values = [SPAN if a.name == "span" else (k, f"v{k}", None, (1, "x"))[i % 4]
              for i, a in enumerate(attrs.fields(cls))]
    return cls(*values), attrs_twin(cls)(*values)


def test_every_node_class_is_a_node():
    assert len(NODE_CLASSES) > 140
    for cls in NODE_CLASSES:
        assert attrs.has(cls) and "__slots__" in vars(cls), cls
        one = cls(*[None] * len(attrs.fields(cls)))
        with pytest.raises(attrs.exceptions.FrozenInstanceError):
            setattr(one, attrs.fields(cls)[0].name, 1)
        assert one != cls(*[None] * len(attrs.fields(cls)))  # compared by identity


@pytest.mark.parametrize("cls", NODE_CLASSES, ids=lambda c: f"{c.__module__.rsplit('.', 1)[-1]}.{c.__name__}")
def test_the_repr_is_attrs_own(cls):
    mine, theirs = sample(cls, 7)
    assert repr(mine) == repr(theirs)


def test_nested_nodes_and_a_node_inside_itself_are_written_as_attrs_writes_them():
    inner, inner_twin = ast.Number(SPAN, 3), attrs_twin(ast.Number)(SPAN, 3)
    outer = ast.ListExpr(SPAN, (inner, inner))
    twin = attrs_twin(ast.ListExpr)(SPAN, (inner_twin, inner_twin))
    assert repr(outer) == repr(twin)

    @node
    class Loop:
        span: object
        items: list

    loop = Loop(SPAN, [])
    loop.items.append(loop)
    other = attrs_twin(Loop)(SPAN, [])
    other.items.append(other)
    assert repr(loop) == repr(other) == f"Loop(span={SPAN!r}, items=[...])"
    assert repr(loop) == repr(loop)  # (the guard is let go after each repr)
