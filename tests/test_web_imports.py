"""The page's ES modules import one another without a circle, and every name a module
imports from another module of web/ is one that module exports. Read from the source:
the static ``import … from "…"`` and ``export … from "…"`` statements and the dynamic
``import("…")`` with a literal path."""

import re
from pathlib import Path

WEB = Path(__file__).resolve().parent.parent / "web"

#: A static import or re-export: its names (None for a side-effect import) and its path.
STATIC = re.compile(r'^\s*(?:import|export)\s+(?:([\w*{}\s,$]+?)\s+from\s+)?["\']([^"\']+)["\']\s*;?', re.M)
#: A dynamic import of a literal path.
DYNAMIC = re.compile(r'\bimport\(\s*["\'](\.{1,2}/[^"\'`$]+)["\']\s*\)')
#: A name a module exports: export function/class/const/let/async function NAME, or export { … }.
EXPORTED = re.compile(r"^\s*export\s+(?:async\s+)?(?:function\*?|class|const|let|var)\s+([\w$]+)", re.M)
EXPORT_LIST = re.compile(r"^\s*export\s*\{([^}]*)\}", re.M)


def modules() -> list[Path]:
    """Every ES module under web/ (classic scripts import nothing, and are read alike)."""
    return sorted(p for p in WEB.rglob("*.js") if "vendor" not in p.parts and "lang" not in p.relative_to(WEB).parts[:1])


def strip_comments(source: str) -> str:
    """``source`` without // line comments and /* */ blocks (strings are left as they are)."""
    source = re.sub(r"/\*.*?\*/", "", source, flags=re.S)
    return re.sub(r"(^|[^:\"'\\])//[^\n]*", r"\1", source)


def imports(path: Path) -> list[tuple[Path, set[str] | None, bool]]:
    """What ``path`` imports from web/: (the module, the names taken or None, whether dynamic)."""
    source = strip_comments(path.read_text(encoding="utf-8"))
    found = []
    for names, target in STATIC.findall(source):
        if target.startswith("."):
            found.append(((path.parent / target).resolve(), imported_names(names), False))
    for target in DYNAMIC.findall(source):
        found.append(((path.parent / target).resolve(), None, True))
    return found


def imported_names(clause: str) -> set[str] | None:
    """The names an import clause takes by name (``{ a, b as c }`` -> {a, b}); None for none."""
    braces = re.search(r"\{([^}]*)\}", clause or "")
    if not braces:
        return None
    return {part.split(" as ")[0].strip() for part in braces.group(1).split(",") if part.strip()}


def exported_names(path: Path) -> set[str]:
    """The names ``path`` exports."""
    source = strip_comments(path.read_text(encoding="utf-8"))
    names = set(EXPORTED.findall(source))
    for group in EXPORT_LIST.findall(source):
        names |= {part.split(" as ")[-1].strip() for part in group.split(",") if part.strip()}
    return names


def graph() -> dict[Path, set[Path]]:
    """Each module -> the modules of web/ it imports, statically or by import()."""
    return {path: {target for target, _, _ in imports(path)} for path in modules()}


def circles(edges: dict[Path, set[Path]]) -> list[list[Path]]:
    """The import circles of ``edges``: one path around each, found by a depth-first walk."""
    found: list[list[Path]] = []
    done: set[Path] = set()
    trail: list[Path] = []

    def walk(node: Path) -> None:
        if node in trail:
            found.append([*trail[trail.index(node):], node])
            return
        if node in done:
            return
        trail.append(node)
        for nxt in sorted(edges.get(node, ())):
            walk(nxt)
        trail.pop()
        done.add(node)

    for node in sorted(edges):
        walk(node)
    return found


def test_circles_are_found():
    """The walk finds a circle through three modules, and none in a chain."""
    a, b, c = Path("/a.js"), Path("/b.js"), Path("/c.js")
    assert circles({a: {b}, b: {c}, c: {a}}) == [[a, b, c, a]]
    assert circles({a: {b}, b: {c}, c: set()}) == []


def test_the_page_has_no_import_circle():
    """No module of web/ comes back to itself through its imports (import() included)."""
    found = circles(graph())
    assert found == [], "\n".join(" -> ".join(p.relative_to(WEB).as_posix() for p in circle) for circle in found)


def test_every_import_of_the_page_is_there():
    """Every module a web/ module imports exists, and exports each name taken from it."""
    missing = []
    for path in modules():
        for target, names, _ in imports(path):
            where = f"{path.relative_to(WEB).as_posix()} -> {target.name}"
            if not target.exists():
                if not {"vendor", "pyodide"} & set(target.parts):  # fetched by the build
                    missing.append(f"{where}: no such module")
                continue
            absent = (names or set()) - exported_names(target)
            if absent:
                missing.append(f"{where}: not exported: {', '.join(sorted(absent))}")
    assert missing == []


def test_the_friends_keys_module_runs_nothing():
    """The names the way in and the friend's table share come from a module of constants only."""
    source = strip_comments((WEB / "tables" / "friend-keys.js").read_text(encoding="utf-8"))
    statements = [line for line in source.splitlines() if line.strip()]
    assert statements and all(line.startswith("export const ") for line in statements)
    assert imports(WEB / "tables" / "friend-keys.js") == []
