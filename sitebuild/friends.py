"""A friends' table's code, apart: what only a friends' table runs (the protocol, the no-peek
deal, their page calls: about half the compiled wheel) leaves the wheel every start downloads
for a zip of its own, which the worker fetches before a friends' table's first call (a friends'
table needs the network anyway): FRIENDS_ZIP. Its JavaScript, likewise, is imported when a
friends' table opens (web/tables/friends.js), never preloaded; the service worker keeps both
once fetched. Both are found from the code's imports."""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Iterable
from pathlib import Path

from sitebuild.common import RELATIVE_IMPORT, BuildError
from sitebuild.wheel import page_sources, wheel_files, write_stored_zip, write_wheel

FRIENDS_MODULE = "pishe.web_friends"   # where the friends' table's Python begins (pishe.web imports it)
FRIENDS_ZIP = "wheels/pishe-friends.zip"
# Where its JavaScript begins: the controller, and the worker's no-peek arithmetic.
FRIENDS_JS = ("web/tables/friend/table.js", "web/core/group.js")


def _page_modules() -> dict[str, tuple[Path, bool]]:
    """The page wheel's modules by name: (their source, whether a package)."""
    modules = {}
    for rel, path in page_sources():
        parts = rel[:-3].split("/")
        package = parts[-1] == "__init__"
        modules[".".join(parts[:-1] if package else parts)] = (path, package)
    return modules


def _python_imports(path: Path, package: bool, name: str, anywhere: bool) -> set[str]:
    """The modules the source at `path` (module `name`) imports, with their parent packages:
    every import if `anywhere`, else only those run when it is imported (none in a function)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    here = name if package else name.rpartition(".")[0]
    todo: list[ast.AST] = [tree]
    found: set[str] = set()
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = ".".join(here.split(".")[:len(here.split(".")) - node.level + 1])
                base = f"{parent}.{base}" if base else parent
            found |= {base, *(f"{base}.{alias.name}" for alias in node.names)}
        if anywhere or not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            todo.extend(ast.iter_child_nodes(node))
    return {".".join(m.split(".")[:n]) for m in found for n in range(1, m.count(".") + 2)}


def friends_modules() -> list[str]:
    """The modules of the page wheel that only a friends' table imports, found from the code:
    those FRIENDS_MODULE imports, wherever in them, that no other module of the wheel imports
    on being imported (the computer table's, the games', the worker's pishe.on_demand...)."""
    modules = _page_modules()

    def reach(start: set[str], anywhere: bool) -> set[str]:
        seen: set[str] = set()
        todo = list(start)
        while todo:
            name = todo.pop()
            if name not in seen:
                seen.add(name)
                todo += _python_imports(*modules[name], name=name, anywhere=anywhere) & set(modules) - seen
        return seen

    friends = reach({FRIENDS_MODULE}, anywhere=True)
    return sorted(friends - reach(set(modules) - friends, anywhere=False))


def split_friends(wheel: Path) -> dict:
    """Move the friends' table's modules (friends_modules) out of `wheel` (rewritten without
    them) into FRIENDS_ZIP beside it, of stored entries and the same paths; return the
    worker's BUILD.friends: {"url": its path in the site, "names": its modules, "calls":
    pishe.web's calls that need them (pishe.web.FRIENDS_CALLS)}."""
    from pishe.web import FRIENDS_CALLS

    names = friends_modules()
    paths = {name.replace(".", "/") + suffix for name in names for suffix in (".pyc", "/__init__.pyc")}
    files = wheel_files(wheel)
    moved = {name: files.pop(name) for name in sorted(files) if name in paths}
    if len(moved) != len(names):
        raise BuildError(f"the friends' modules are not all in {wheel.name} as bytecode: {names}")
    write_wheel(wheel, files)
    write_stored_zip(wheel.parent / Path(FRIENDS_ZIP).name, moved)
    return {"url": FRIENDS_ZIP, "names": names, "calls": list(FRIENDS_CALLS)}


_DYNAMIC_IMPORT = re.compile(r"""\bimport\(\s*["'](\.{1,2}/[^"']+)["']\s*\)""")
_PAGE_SCRIPT = re.compile(r'<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="([^"]+)"')


def js_reach(stage: Path, start: Iterable[str], dynamic: bool) -> set[str]:
    """The scripts of the site in `stage` (paths in it) that the scripts `start` import, and
    theirs, themselves included: static imports, and `import("./…")` too if `dynamic`."""
    seen: set[str] = set()
    todo = list(start)
    while todo:
        rel = todo.pop()
        if rel in seen or not (stage / rel).is_file():
            continue
        seen.add(rel)
        source = (stage / rel).read_text(encoding="utf-8")
        found = RELATIVE_IMPORT.findall(source) + (_DYNAMIC_IMPORT.findall(source) if dynamic else [])
        todo += [os.path.normpath(os.path.join(os.path.dirname(rel), m)) for m in found]
    return seen


def page_scripts(stage: Path) -> list[str]:
    """The scripts a page of the site in `stage` starts with: index.html's (modules preloaded
    too) and the worker."""
    page = (stage / "index.html").read_text(encoding="utf-8") if (stage / "index.html").exists() else ""
    return [*_PAGE_SCRIPT.findall(page), "web/core/worker.js"]


def friends_scripts(stage: Path) -> list[str]:
    """The friends' table's JavaScript in the site in `stage`: what FRIENDS_JS import, in the
    end (import() too), that neither index.html's scripts nor the worker's import at start."""
    start = js_reach(stage, page_scripts(stage), dynamic=False)
    return sorted(js_reach(stage, FRIENDS_JS, dynamic=True) - start)
