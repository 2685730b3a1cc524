"""The Python package imports without a circle: no module of ``pishe/`` comes back to
itself through the modules it imports, counting the imports inside functions (made when
first called) as well as those at the top. Read from the source: every ``import`` and
``from … import`` statement, but those under ``if TYPE_CHECKING:`` (read by the type
checker only, never run)."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "pishe"


def module_name(path: Path, root: Path = ROOT) -> str:
    """The dotted name of the module in ``path`` under ``root`` (a package by its ``__init__.py``)."""
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _runtime_nodes(tree: ast.AST):
    """Every node of ``tree`` but those under ``if TYPE_CHECKING:``."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            yield from (n for part in node.orelse for n in [part, *_runtime_nodes(part)])
            continue
        yield node
        yield from _runtime_nodes(node)


def imports(path: Path, known: set, root: Path = ROOT) -> set:
    """The modules of ``known`` that the module in ``path`` imports, anywhere in its body: a
    name imported from a package is that package's module of the name if there is one, else
    the package itself."""
    name = module_name(path, root)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in _runtime_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([node.module] if node.module else []))
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base)
    return {m for m in found if m in known and m != name}


def graph(package: Path = PACKAGE, root: Path = ROOT) -> dict:
    """Each module of ``package`` (under ``root``) and the modules of ``package`` it imports."""
    paths = sorted(package.rglob("*.py"))
    known = {module_name(p, root) for p in paths}
    return {module_name(p, root): imports(p, known, root) for p in paths}


def circles(edges: dict) -> list:
    """The import circles in ``edges``: each a list of modules, the first one again at its end
    (one per strongly connected group of modules, found by a depth-first walk)."""
    found, done = [], set()

    def walk(module: str, path: list) -> None:
        if module in path:
            found.append(path[path.index(module):] + [module])
            return
        if module in done:
            return
        for target in sorted(edges.get(module, ())):
            walk(target, path + [module])
        done.add(module)

    for module in sorted(edges):
        walk(module, [])
    return found


def test_the_finder_sees_a_circle_through_a_function_level_import(tmp_path):
    """A circle closed by an import inside a function is one (the finder is not blind to it),
    and one through a package's ``__init__`` too."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("X = 1\n")
    (package / "a.py").write_text("from . import b\n")
    (package / "b.py").write_text("def late():\n    from .a import x\n")
    (package / "c.py").write_text("from . import X\n")
    assert circles(graph(package, tmp_path)) == [["pkg.a", "pkg.b", "pkg.a"]]
    (package / "__init__.py").write_text("def late():\n    from .c import y\n")
    assert circles(graph(package, tmp_path)) == [["pkg", "pkg.c", "pkg"], ["pkg.a", "pkg.b", "pkg.a"]]


def test_type_checking_imports_are_not_run():
    """An import under ``if TYPE_CHECKING:`` is the type checker's only: it closes no circle."""
    tree = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import a\nelse:\n    import b\n")
    names = [ast.unparse(n) for n in _runtime_nodes(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert names == ["from typing import TYPE_CHECKING", "import b"]


def test_pishe_has_no_import_circle():
    """No module of ``pishe/`` imports itself back, at the top or inside a function."""
    edges = graph()
    assert "pishe.table.said" in edges and "pishe.table.protocol.host" in edges
    assert circles(edges) == []


def test_the_cards_do_not_depend_on_the_table():
    """The cards are below the table: ``pishe/cards.py`` imports nothing of ``pishe.table``."""
    assert not any(m.startswith("pishe.table") for m in graph()["pishe.cards"])
