"""What every step of the build shares: the repository's paths, the build's error, the cache of
downloads and results, the programs it runs (sitebuild/programs/) and how it runs Node."""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
from pathlib import Path

#: The repository: the folder above this package.
ROOT = Path(__file__).resolve().parent.parent
#: Where ``python build.py`` writes the site unless told otherwise.
DIST = ROOT / "dist"
#: The programs the build runs in Pyodide or Node (and strip.py, here too), read from their files.
PROGRAMS = Path(__file__).resolve().parent / "programs"

# Files of the npm package we ship; the rest (pyodide.js, console pages, source
# maps, type declarations) is not needed by a module worker.
RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
LOCK_NAME = "pyodide-lock.json"
# The site's settings beside index.html, which a self-hoster edits in dist/.
SETTINGS_FILES = ("ice-servers.json", "signaling.json")
#: A JavaScript module's relative import (``from "./x.js"``, ``import "../y.js"``): its path.
RELATIVE_IMPORT = re.compile(r"""(?:from|import)\s*["'](\.{1,2}/[^"']+)["']""")


class BuildError(Exception):
    """A build step failed; the message says which and why."""


def program(name: str) -> str:
    """The text of the program ``name`` in sitebuild/programs/ (Python or JavaScript)."""
    return (PROGRAMS / name).read_text(encoding="utf-8")


def cache_dir() -> Path:
    """Where downloads are kept between builds: $PISHE_CACHE or ~/.cache/pishe."""
    return Path(os.environ.get("PISHE_CACHE") or Path.home() / ".cache" / "pishe")


def sha256_file(path: Path) -> str:
    """The sha256 of the file at ``path``, in hex."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def run_node(command: list[str], purpose: str, doing: str) -> None:
    """Run ``command`` (Node, often Pyodide under it); a BuildError says what failed:
    ``purpose`` what Node was run for, ``doing`` the same as an activity ("… failed")."""
    try:
        result = subprocess.run(command, capture_output=True, text=True)
    except OSError as err:
        raise BuildError(f"could not run Node (it comes with npm) to {purpose}: {err}") from err
    if result.returncode != 0:
        # Pyodide prints its whole minified source with an error: keep the end.
        raise BuildError(f"{doing} failed:\n{(result.stdout + result.stderr)[-3000:]}")
