"""The package's layout holds: every module imports, no two modules import each other (directly or
through others), and every public function of `cardlang/lang/` says in one line what it does."""

import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "cardlang"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports_of(name: str, path: Path) -> set:
    """The package's modules that `name` imports anywhere in its text (in functions too)."""
    is_package = path.name == "__init__.py"
    here = name if is_package else name.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here.split(".")
                base = base[: len(base) - (node.level - 1)]
                prefix = ".".join(base + ([node.module] if node.module else []))
            else:
                prefix = node.module or ""
            targets = [f"{prefix}.{a.name}" for a in node.names] + [prefix]
        else:
            continue
        for t in targets:
            while t and t not in MODULES:  # `from .x import y`: y is a name of module x
                t = t.rpartition(".")[0]
            if t and t != name:
                found.add(t)
    return found


def graph() -> dict:
    return {name: imports_of(name, path) for name, path in MODULES.items()}


def cycles(edges: dict) -> list:
    """Every strongly connected group of more than one module (Tarjan), each sorted."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_graph_sees_relative_and_late_imports():
    edges = graph()
    assert "cardlang.lang.diagnostics" in edges["cardlang.lang.parse"]
    assert "cardlang.lang.check" in edges["cardlang.load"]


@pytest.mark.parametrize("name", sorted(m for m in MODULES if not m.endswith("__main__")))  # those run
def test_every_module_imports(name):
    importlib.import_module(name)


def test_no_module_imports_itself_through_others():
    assert cycles(graph()) == []


def public_functions(path: Path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and not node.name.startswith("_"):
            yield node.name, node
        elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and not item.name.startswith("_"):
                    yield f"{node.name}.{item.name}", item


LANG = sorted((PACKAGE / "lang").glob("*.py"))


@pytest.mark.parametrize("path", LANG, ids=[p.stem for p in LANG])
def test_every_public_function_of_lang_has_a_docstring(path):
    missing = [name for name, node in public_functions(path) if not ast.get_docstring(node)]
    assert missing == []


def test_nothing_takes_from_cmd_play_and_the_runtime_imports_no_stage_above_it():
    """Library logic lives below the commands (issue 12: `cmd_replay` took helpers from `cmd_play`,
    bot seeding lived there); the runtime knows neither the compiler nor bots nor commands."""
    edges = graph()
    for name, targets in edges.items():
        assert "cardlang.cli.cmd_play" not in targets or name == "cardlang.cli", name
        if name.startswith("cardlang.runtime."):
            assert not [t for t in targets if t.startswith(("cardlang.compiler", "cardlang.play", "cardlang.cli"))], name


def test_bots_simulate_and_commands_play_through_the_runtime_never_a_programs_resume():
    """`runtime.playout` (advance, the playouts) and `State.apply` are the API; `resume` is the engines'."""
    for name, path in MODULES.items():
        if name.startswith(("cardlang.play", "cardlang.cli", "cardlang.tools")):
            text = path.read_text(encoding="utf-8")
            assert ".resume(" not in text and "program.resume" not in text, name


# The layers, lowest first (issue 32 item 5): a module imports from its own layer or from a lower
# one, never from a higher one nor from another layer of its rank. `lang` (grammar, checker,
# diagnostics, the words both sides need: `lang.vocabulary`, `lang.types`, `lang.untrusted`) knows
# no engine; the runtime knows the language's words but not its checker; the commands are on top.
LAYERS = [
    {"lang"},
    {"runtime"},
    {"compiler"},
    {"load"},  # `cardlang.load`, and the package's own `__init__` (which offers it)
    {"play"},
    {"research", "tools", "web"},  # web: the server of `cardlang serve` (issue 30)
    {"pettingzoo", "openspiel"},
    {"gymnasium"},  # over the PettingZoo environment
    {"cli"},
]


def layer_of(name: str) -> str:
    """`cardlang.lang.check` is in `lang`; `cardlang` itself (its `__init__`) is in `load`."""
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else "load"


def rank_of(layer: str) -> int:
    return next(i for i, group in enumerate(LAYERS) if layer in group)


def upward_imports(edges: dict) -> list:
    """Every import that goes up the layers or sideways into another layer of the same rank."""
    bad = []
    for name, targets in edges.items():
        own = layer_of(name)
        for t in sorted(targets):
            other = layer_of(t)
            if other != own and rank_of(other) >= rank_of(own):
                bad.append(f"{name} -> {t}")
    return sorted(bad)


def test_every_top_level_part_of_the_package_has_a_layer():
    for name in MODULES:
        rank_of(layer_of(name))  # StopIteration: a new part of the package needs its place in LAYERS


def test_the_layer_check_finds_an_import_that_goes_up():
    edges = {"cardlang.lang.snippet": {"cardlang.tools.lexer", "cardlang.lang.untrusted"},
             "cardlang.research.render": {"cardlang.cli.untrusted"},
             "cardlang.tools.fmt": {"cardlang.research.render"},
             "cardlang.cli.cmd_play": {"cardlang.play.table_view", "cardlang.lang.check"}}
    assert upward_imports(edges) == ["cardlang.lang.snippet -> cardlang.tools.lexer",
                                     "cardlang.research.render -> cardlang.cli.untrusted",
                                     "cardlang.tools.fmt -> cardlang.research.render"]


def test_the_layers_point_one_way():
    """`lang` imports neither the runtime nor the tools, `research` not the commands (issue 32)."""
    assert upward_imports(graph()) == []


def test_the_runtime_takes_the_languages_words_not_its_checker():
    edges = graph()
    taken = {t for name, targets in edges.items() if name.startswith("cardlang.runtime.")
             for t in targets if t.startswith("cardlang.lang.")}
    assert taken <= {"cardlang.lang.vocabulary", "cardlang.lang.types", "cardlang.lang.untrusted"}
