"""The first visit's standard library.

Pyodide's python_stdlib.zip (2.5 MB, deflated: brotli saves almost nothing of it) holds
the whole standard library; the page uses a small part of it. The build traces what
is imported, in Pyodide itself under Node (programs/trace.py), while everything the page's
Python does is done: the boot, every pishe module, every game played (and a match restored), a
friend's table opened, joined and dealt no-peek in one process (with noble's arithmetic, as
the worker loads it), micropip installing segno and segno drawing a QR code, gettext finding a
catalog (the language switch), the deal's hashes and secrets, a traceback formatted (every
error the worker reports). Those modules ship without docstrings and comments in a zip of
stored entries (brotli then compresses it as text). What micropip adds when it runs (email,
http, urllib, xml.sax: 90 KB on the wire) travels with micropip instead, which only an
invite's QR code loads: in its own zip, fetched when micropip first imports from it and kept
by the service worker from then on, as micropip is. The rest of the library, in a third zip,
is fetched only when something imports a module from it (pishe/on_demand.py)."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import tempfile
import zipfile
import zlib
from collections.abc import Iterable
from pathlib import Path

from sitebuild.common import LOCK_NAME, ROOT, RUNTIME_FILES, cache_dir, program, run_node, sha256_file
from sitebuild.compress import brotli_size
from sitebuild.pins import trimmed_lock, unpack_noble
from sitebuild.wheel import write_stored_zip

STDLIB_FIRST = "pyodide/python_stdlib.zip"
STDLIB_MICROPIP = "pyodide/python_stdlib_micropip.zip"
STDLIB_REST = "pyodide/python_stdlib_rest.zip"
# Modules imported besides what the trace itself runs into.
STDLIB_ALWAYS = ("gettext", "locale", "hashlib", "hmac", "secrets", "base64", "traceback", "linecache",
                 "tokenize", "encodings.latin_1", "encodings.ascii", "encodings.utf_8")


def trace_stdlib(runtime: Path, lock: dict, micropip: Path, pishe: Path, segno: Path,
                 cache: Path | None = None, strip: bool = True) -> dict:
    """The standard library files (paths in python_stdlib.zip) the page's Python imports,
    traced in the Pyodide runtime in folder `runtime` under Node (programs/trace.py), and each
    one stripped of docstrings and comments there: {"first": [paths imported before
    micropip runs], "micropip": [the paths micropip adds], "stripped": {path: source}
    (empty unless `strip`: stripping imports modules the page does not)}. Kept in the
    cache under a hash of the inputs."""
    group = ROOT / "web" / "core" / "group.js"
    python, node = program("strip.py") + program("trace.py"), program("trace.mjs")
    key = hashlib.sha256("\0".join([sha256_file(p) for p in (runtime / "pyodide.asm.wasm",
                                                             runtime / "python_stdlib.zip", micropip, pishe, segno,
                                                             group)]
                                   + [python, node, json.dumps(STDLIB_ALWAYS), str(strip)]
                                   ).encode()).hexdigest()[:16]
    cache = cache or cache_dir()
    target = cache / "stdlib" / f"{key}.json"
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=cache, prefix=".trace-") as folder:
            scratch = Path(folder)
            for name in RUNTIME_FILES:
                os.symlink(runtime / name, scratch / name)
            os.symlink(micropip, scratch / micropip.name)
            (scratch / "trace.mjs").write_text(node)
            (scratch / "trace.py").write_text(python)
            (scratch / LOCK_NAME).write_text(json.dumps(trimmed_lock(lock, {"micropip": micropip})))
            curves = unpack_noble(scratch / "noble", cache)
            command = ["node", str(scratch / "trace.mjs"), str(scratch / LOCK_NAME), str(pishe), str(segno),
                       str(scratch / "out.json"), str(scratch / "trace.py"), json.dumps(STDLIB_ALWAYS),
                       "strip" if strip else "list", curves.as_uri(), group.as_uri()]
            run_node(command, "trace the standard library", "tracing the standard library in Pyodide")
            (scratch / "out.json").replace(target)
    return json.loads(target.read_text())


def module_names(paths: Iterable[str]) -> list[str]:
    """The modules that the .py files at `paths` in a zip of the library are."""
    names = set()
    for path in paths:
        if path.endswith(".py"):
            parts = path[:-3].split("/")
            if parts[-1] == "__init__":
                parts.pop()
            names.add(".".join(parts))
    return sorted(names)


def split_stdlib(runtime: Path, lock: dict, micropip: Path, pishe: Path, segno: Path) -> list[dict]:
    """Replace `runtime`'s python_stdlib.zip by the modules a first visit imports, stripped
    (those the start-up imports that fit in STDLIB_FIRST_BYTES as bytecode: first_library),
    and write beside it STDLIB_MICROPIP (what micropip adds when it runs, stripped) and
    STDLIB_REST (the rest as it is), all of stored entries. Return the two on-demand
    parts as [{"url": path in the site, "names": [their modules]}]."""
    traced = trace_stdlib(runtime, lock, micropip, pishe, segno)
    stripped = {name: text.encode("utf-8") for name, text in traced["stripped"].items()}
    full = runtime / "python_stdlib.zip"
    with zipfile.ZipFile(full) as z:
        rest = {info.filename: z.read(info) for info in z.infolist()
                if not info.is_dir() and info.filename not in stripped}
    parts = {STDLIB_MICROPIP: {name: stripped[name] for name in traced["micropip"]}, STDLIB_REST: rest}
    bytecode = {name: base64.b64decode(pyc) for name, pyc in traced["bytecode"].items()}
    write_stored_zip(full, first_library({name: stripped[name] for name in traced["first"]}, bytecode))
    for site_path, files in parts.items():
        write_stored_zip(runtime / Path(site_path).name, files)
    return [{"url": site_path, "names": module_names(files)} for site_path, files in parts.items()]


# Python's start on a first visit is mostly CPython compiling, from source, the ~125
# modules Pyodide's own boot imports (1.4 of 1.8 s on a 2-core machine: bench/boot.py);
# their bytecode loads at once but is twice their stripped source on the wire. So the
# first visit's zip holds as many of them as bytecode as fit in this many bytes of brotli
# (the rest as source), those that save the most compiling per byte first: a first visit
# stays within 3.5 MB on the wire (tests/test_first_visit.py adds it up).
STDLIB_FIRST_BYTES = 398_000


def first_library(sources: dict[str, bytes], bytecode: dict[str, bytes], budget: int = STDLIB_FIRST_BYTES,
                  cache: Path | None = None) -> dict[str, bytes]:
    """The first visit's zip: {path: bytes} of `sources` (the stripped modules), where the
    most of `bytecode` (path.py -> its .pyc, the start-up's modules) that fits in `budget`
    bytes of brotli replaces their source, as path.pyc. Modules go over in the order of
    the compiling they save per byte they add (compiling time goes with the source's
    length; each one's added bytes as zlib's, a fast stand-in for brotli's), and the
    longest run of them that fits is found by halving, on the zip's own brotli size."""
    def added(name: str) -> int:
        return max(1, len(zlib.compress(bytecode[name], 9)) - len(zlib.compress(sources[name], 9)))

    order = sorted(bytecode, key=lambda name: (-len(sources[name]) / added(name), name))

    def library(count: int) -> dict[str, bytes]:
        files = dict(sources)
        for name in order[:count]:
            del files[name]
            files[name + "c"] = bytecode[name]
        return dict(sorted(files.items()))

    def fits(count: int) -> bool:
        written = io.BytesIO()
        write_stored_zip(written, library(count))
        return brotli_size(written.getvalue(), cache) <= budget

    low, high = 0, len(order)  # low fits (or is none at all), high + 1 does not
    while low < high:
        middle = (low + high + 1) // 2
        low, high = (middle, high) if fits(middle) else (low, middle - 1)
    return library(low)
