"""Run Python code in Pyodide under Node: the pinned runtime build.py fetches, this checkout's
``pishe`` copied into its file system. What the benches that time the page's Python share."""

from __future__ import annotations

import json
import subprocess
import tempfile
from pathlib import Path
from typing import Callable, Optional

from sitebuild.common import LOCK_NAME
from sitebuild.pins import PINS, copy_runtime, fetch_pinned

ROOT = Path(__file__).resolve().parent.parent

_NODE = r"""
import { loadPyodide } from "./pyodide.mjs";
import { readFileSync } from "node:fs";
const [files, code, call, setup] = process.argv.slice(2);
if (setup) await import(setup);
const pyodide = await loadPyodide({ indexURL: new URL("./", import.meta.url).pathname });
for (const [path, text] of Object.entries(JSON.parse(readFileSync(files, "utf8")))) {
  pyodide.FS.mkdirTree("/home/pyodide/" + path.split("/").slice(0, -1).join("/"));
  pyodide.FS.writeFile("/home/pyodide/" + path, text);
}
pyodide.runPython("import sys; sys.path.insert(0, '/home/pyodide')");
pyodide.runPython(readFileSync(code, "utf8"));
console.log(pyodide.runPython(call));
"""


def in_pyodide(code: str, call: str, setup: Optional[Callable[[Path], str]] = None, root: Path = ROOT):
    """Run ``code`` in Pyodide, then evaluate ``call`` (an expression giving JSON text); its
    value. ``setup(scratch)``, if given, returns a JavaScript module's source that runs
    before Pyodide starts (to set globals its Python reads), files it needs under ``scratch``.
    ``root`` is the checkout whose ``pishe`` is copied in (this one unless given)."""
    tgz = fetch_pinned(PINS["pyodide"])
    with tempfile.TemporaryDirectory() as folder:
        scratch = Path(folder)
        lock = copy_runtime(tgz, scratch / "runtime")
        (scratch / "runtime" / LOCK_NAME).write_text(json.dumps({**lock, "packages": {}}))
        files = {p.relative_to(root).as_posix(): p.read_text() for p in (root / "pishe").rglob("*.py")}
        (scratch / "files.json").write_text(json.dumps(files))
        (scratch / "code.py").write_text(code)
        (scratch / "runtime" / "run.mjs").write_text(_NODE)
        command = ["node", str(scratch / "runtime" / "run.mjs"), str(scratch / "files.json"),
                   str(scratch / "code.py"), call]
        if setup is not None:
            (scratch / "setup.mjs").write_text(setup(scratch))
            command.append((scratch / "setup.mjs").as_uri())
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            raise SystemExit(f"Pyodide run failed:\n{result.stderr[-3000:]}")
        return json.loads(result.stdout.strip().splitlines()[-1])
