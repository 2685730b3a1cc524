#!/usr/bin/env python3
"""Build the static site into dist/, or build it and serve it locally.

    python build.py [--out DIR]                   build dist/ (or DIR)
    python build.py [--out DIR] serve [--port N]  build it, then serve it on 127.0.0.1

Beside each text and wasm file the build writes precompressed copies, NAME.br
and NAME.gz (where they are smaller); the server sends one to a browser that
accepts it, as a static host set up for it does (README: "Hosting"). Any static
server can serve dist/ as it is: the copies are only ever an alternative body.
Our own scripts and style sheets ship minified by esbuild (minify); with the
environment variable PISHE_NO_MINIFY=1 they ship as written, for debugging.

Standard library and Babel (catalogs.py compiles the gettext catalogs into the
wheel); pip, npm and Node are used as command-line tools (Node runs the
downloaded Pyodide once, to compile micropip to bytecode, and esbuild). Everything
downloaded is pinned by sha256 below, kept in a cache outside the repository
(~/.cache/pishe, or $PISHE_CACHE) and verified after every download and on
every cache hit.

dist/ layout:
    index.html            the table page (skipped while the repo has none), with every
                          registered game's markup written in (see game_markup)
    ice-servers.json      STUN/TURN servers for a friend's table (self-hosters edit it)
    signaling.json        Nostr relays that carry a friend's answer back (self-hosters edit it)
    sw.js                 service worker, at the root so its scope is the whole site
    web/...               everything else under web/ (manifest.webmanifest, the app's manifest)
    web/icons/            the app's icons, drawn by the build (icon_png)
    pyodide/              Pyodide runtime, trimmed pyodide-lock.json, micropip wheel (as bytecode),
                          python_stdlib.zip: only the modules the page imports (stripped;
                          the start-up's as bytecode, as far as STDLIB_FIRST_BYTES allows),
                          python_stdlib_micropip.zip: what micropip adds, fetched with it,
                          python_stdlib_rest.zip: the rest, fetched on first import
    wheels/               the pishe wheel (docstrings and comments stripped, as bytecode),
                          pishe-<code>.zip: a language's catalogs, pishe-friends.zip: the modules
                          only a friends' table imports (split_friends), and the segno wheel
    vendor/nostr-tools.mjs  nostr-tools' browser bundle as an ES module, for a friend's table only
    *.br, *.gz            precompressed copies (not in the build info's file list)

The placeholder __PISHE_BUILD__ in our JavaScript files is replaced by the build
info, a JSON object literal: {"id": ..., "wheels": {...}, "files": [...], "online": [...],
"later": [...], "stdlib": [{"url", "names"}], "friends": {"url", "names", "calls"}, "loading": {...},
"downloads": {...}, "games": {...}, "languages": {code: zip}},
each script's with only the keys it reads (as BUILD.<key>: build_literal).
"stdlib" lists the zips of the standard library's modules a first visit does not
download (see split_stdlib) and the modules each holds; "friends" the zip of the modules only
a friends' table imports, those modules and pishe.web's calls that need them (split_friends).
"loading" holds the loading line's words by
start-up milestone (pishe/table/words.py: the page shows them before Python runs,
and index.html's __PISHE_LOADING__ becomes the first of them); "downloads" the
sizes of the files the worker downloads to start, for its progress bar.
"online" lists the files the service worker does not keep for offline use: what
a self-hoster edits in dist/ (were they kept, an edit would never reach a
returning visitor) and the Nostr library (a friend's table needs the network anyway, and
the computer table must not download it).
"later" lists the files it keeps on their first use instead of at install: micropip
and segno, which only an invite's QR code needs, the standard library's modules micropip
adds, the rest of the standard library, the pseudo-language's words, and a friends' table's
code: its Python's zip, its scripts (friends_scripts) and the no-peek deal's arithmetic (a
first visit downloads none of them).
"games" maps every registered game's id to its folder under web/games/ (its painter).
"languages" maps each language but English to the zip of its catalogs (split_catalogs).
"""

from __future__ import annotations

import argparse
import ast
import base64
import email.utils
import gzip
import hashlib
import html
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import threading
import tomllib
import zipfile
import zlib
from dataclasses import dataclass
from functools import partial
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent
DIST = ROOT / "dist"
BUILD_TOKEN = "__PISHE_BUILD__"
# In index.html: the loading line's first words (pishe/table/words.py's LOADING["start"]).
LOADING_TOKEN = "__PISHE_LOADING__"
# In index.html: why the game could not start, by cause (pishe/table/words.py's START_FAILED).
START_FAILED_TOKEN = "__PISHE_START_FAILED__"

# Files of the npm package we ship; the rest (pyodide.js, console pages, source
# maps, type declarations) is not needed by a module worker.
RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
LOCK_NAME = "pyodide-lock.json"
# The site's settings beside index.html, which a self-hoster edits in dist/.
SETTINGS_FILES = ("ice-servers.json", "signaling.json")
# nostr-tools' self-contained browser bundle (an IIFE defining `var NostrTools`)
# and where the site serves it, turned into an ES module for web/tables/friend/relay.js.
NOSTR_BUNDLE = "package/lib/nostr.bundle.js"
NOSTR_MODULE = "vendor/nostr-tools.mjs"
# Precompressed copies, by the Content-Encoding they are sent with, best first.
ENCODINGS = {"br": ".br", "gzip": ".gz"}
# The files that get them: text, the wasm (9.6 MB, 3.5 MB as gzip), and the zips of
# stored entries the build writes (the standard library's, our wheels) or takes (segno's,
# deflated: its copies gain a little). Not the settings, because a host edits them in
# dist/, and a stale copy would be sent instead.
COMPRESSIBLE = (".html", ".js", ".mjs", ".css", ".json", ".webmanifest", ".svg", ".wasm", ".zip", ".whl",
                ".md", ".txt")


# -- The app's icons (web/manifest.webmanifest names them) ---------------------------

#: Icon sizes in px, written to web/icons/icon-SIZE.png.
ICON_SIZES = (192, 512)
ICON_FELT = (0x0B, 0x21, 0x16)     # the page's background (style.css --bg), to the edges
ICON_CARD = (0xF7, 0xF3, 0xE8)
ICON_HEART = (0xC6, 0x28, 0x28)


def _icon_paint(x: float, y: float) -> tuple[int, int, int]:
    """The icon's colour at (x, y) in 0..1: a card with a heart on felt. Everything but
    the felt lies within the centre circle of radius 0.4 that a maskable icon keeps."""
    dx, dy = abs(x - 0.5) - 0.21, abs(y - 0.5) - 0.3            # a card 0.42 x 0.6, radius 0.05
    if max(dx, dy) > 0 or (dx > -0.05 and dy > -0.05 and (dx + 0.05) ** 2 + (dy + 0.05) ** 2 > 0.05 ** 2):
        return ICON_FELT
    # The heart: two lobes and the lines from its point that touch them, the space between filled.
    hx, hy = abs(x - 0.5), y - 0.5
    if (hx - 0.069) ** 2 + (hy + 0.05) ** 2 < 0.0775 ** 2 or (
            -0.05 <= hy < 0.1625 and hx < 0.787 * (0.1625 - hy) and (hy > -0.0025 or hx < 0.069)):
        return ICON_HEART
    return ICON_CARD


def icon_png(size: int, samples: int = 2) -> bytes:
    """The icon as a PNG of `size` px, each pixel the mean of samples² points (smooth edges)."""
    import struct
    import zlib

    rows = bytearray()
    step = 1 / (size * samples)
    for row in range(size):
        rows.append(0)                                            # PNG filter: none
        for column in range(size):
            total = [0, 0, 0]
            for i in range(samples):
                for j in range(samples):
                    colour = _icon_paint((column * samples + j + 0.5) * step, (row * samples + i + 0.5) * step)
                    for k in range(3):
                        total[k] += colour[k]
            rows.extend(round(t / samples ** 2) for t in total)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)  # 8-bit RGB
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(rows), 9)) \
        + chunk(b"IEND", b"")


class BuildError(Exception):
    """A build step failed; the message says which and why."""


@dataclass(frozen=True)
class Pin:
    """A downloaded file: its name, its sha256, and the command that fetches it
    into the current directory."""

    filename: str
    sha256: str
    fetch: tuple[str, ...]


def _pip_download(requirement: str) -> tuple[str, ...]:
    # --python-version 3.14: the wheels are for Pyodide's CPython, not the one
    # running this script (micropip 0.11 refuses to install on Python < 3.13).
    return (sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
            "--only-binary=:all:", "--python-version", "3.14", "--dest", ".", requirement)


PINS = {
    "pyodide": Pin("pyodide-314.0.7.tgz",
                   "66b7949e5a0cba2250b586d7e368bf12fb482800748d182c4618254b685ffaa0",
                   ("npm", "pack", "--silent", "pyodide@314.0.7")),
    # The PyPI wheel; its sha256 differs from the one in Pyodide's own lock file.
    "micropip": Pin("micropip-0.11.1-py3-none-any.whl",
                    "768de165adb8e66906039d8fec4127a57f522dfdf8e6fbff877a4616941ecfd3",
                    _pip_download("micropip==0.11.1")),
    # Nostr events, signing and a relay pool, for a friend's table's signaling.
    "nostr-tools": Pin("nostr-tools-2.25.2.tgz",
                       "86c57b204da99bfa00b18200100e049968415c369c37416f3dbcb7349345a449",
                       ("npm", "pack", "--silent", "nostr-tools@2.25.2")),
    # Pure-Python QR codes (for invite links).
    "segno": Pin("segno-1.6.6-py3-none-any.whl",
                 "28c7d081ed0cf935e0411293a465efd4d500704072cdb039778a2ab8736190c7",
                 _pip_download("segno==1.6.6")),
}

def _npm_pin(package: str, version: str, sha256: str) -> Pin:
    """A package's tarball as `npm pack` names and fetches it (`@scope/name` -> `scope-name-…`)."""
    return Pin(f"{package.lstrip('@').replace('/', '-')}-{version}.tgz", sha256,
               ("npm", "pack", "--silent", f"{package}@{version}"))


#: Audited elliptic-curve arithmetic (ristretto255) for the no-peek deal and the hashes it
#: imports: web/core/group.js runs on it. The site ships the modules ed25519.js imports
#: (NOBLE_DIR), loaded by the worker when a friends' table opens, never on a first visit.
NOBLE_PINS = {
    "noble-curves": _npm_pin("@noble/curves", "2.4.0",
                             "55279c71b0201d6c0e58d0206d15825359e02a3932f326ba7b7909ac2d334aa9"),
    "noble-hashes": _npm_pin("@noble/hashes", "2.4.0",
                             "e1946149b780017b2564fcc092cb01c04e1d7f20627d0296c17da8868f4436dc"),
}

_NOBLE_BARE = re.compile(r"""(from\s+|import\s+)(["'])@noble/hashes/""")


def unpack_noble(dest: Path, cache: Path | None = None) -> Path:
    """@noble/curves and @noble/hashes (pinned, hash-checked) as ES modules under ``dest``
    (``curves/``, ``hashes/``), a bare ``@noble/hashes/…`` import rewritten to a relative
    path (module workers have no import maps); returns the path of ``curves/ed25519.js``."""
    for key, folder in (("noble-hashes", "hashes"), ("noble-curves", "curves")):
        with tarfile.open(fetch_pinned(NOBLE_PINS[key], cache)) as tar:
            for member in tar.getmembers():
                name = member.name.removeprefix("package/")
                if not member.isfile() or not name.endswith(".js") or name.startswith("src/"):
                    continue
                source = tar.extractfile(member).read().decode("utf-8")
                if folder == "curves":
                    up = "../" * (name.count("/") + 1)
                    source = _NOBLE_BARE.sub(lambda m: f"{m.group(1)}{m.group(2)}{up}hashes/", source)
                target = dest / folder / name
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(source, encoding="utf-8")
    return dest / "curves" / "ed25519.js"


NOBLE_DIR = "vendor/noble"
_RELATIVE_IMPORT = re.compile(r"""(?:from|import)\s*["'](\.{1,2}/[^"']+)["']""")


def _copy_noble(dest: Path, cache: Path | None = None) -> list:
    """The noble modules ``curves/ed25519.js`` imports, and theirs, into ``dest``; returns
    their paths relative to ``dest``'s parent's parent (the site's root)."""
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch).resolve()
        todo, seen = [unpack_noble(root, cache).resolve()], set()
        while todo:
            path = todo.pop()
            if path in seen:
                continue
            seen.add(path)
            source = path.read_text(encoding="utf-8")
            todo += [(path.parent / m).resolve() for m in _RELATIVE_IMPORT.findall(source)]
            target = dest / path.relative_to(root)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(source, encoding="utf-8")
    return sorted(f"{NOBLE_DIR}/{p.relative_to(dest).as_posix()}" for p in dest.rglob("*.js"))


def cache_dir() -> Path:
    """Where downloads are kept between builds: $PISHE_CACHE or ~/.cache/pishe."""
    return Path(os.environ.get("PISHE_CACHE") or Path.home() / ".cache" / "pishe")


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def fetch_pinned(pin: Pin, cache: Path | None = None) -> Path:
    """Return the cached file for `pin`, downloading it if it is missing or corrupt.

    A cached file whose sha256 is wrong is deleted and fetched again; a fresh
    download whose sha256 is wrong is deleted and the build refused.
    """
    cache = cache or cache_dir()
    cache.mkdir(parents=True, exist_ok=True)
    target = cache / pin.filename
    if target.exists():
        found = sha256_file(target)
        if found == pin.sha256:
            return target
        print(f"build: cached {pin.filename} has sha256 {found}, expected {pin.sha256}; "
              "fetching it again", file=sys.stderr)
        target.unlink()
    # Download into a scratch folder inside the cache so the final rename is atomic.
    with tempfile.TemporaryDirectory(dir=cache, prefix=".fetch-") as scratch:
        try:
            result = subprocess.run(pin.fetch, cwd=scratch, capture_output=True, text=True)
        except OSError as err:  # e.g. npm is not installed
            raise BuildError(f"could not run `{' '.join(pin.fetch)}` to fetch {pin.filename}: {err}") from err
        fetched = Path(scratch) / pin.filename
        if result.returncode != 0 or not fetched.exists():
            raise BuildError(f"could not fetch {pin.filename} with `{' '.join(pin.fetch)}`:\n"
                             f"{result.stdout}{result.stderr}")
        found = sha256_file(fetched)
        if found != pin.sha256:
            raise BuildError(f"refusing {pin.filename}: downloaded sha256 is {found}, "
                             f"the pin in build.py says {pin.sha256}")
        fetched.replace(target)
    return target


# Wheels are written with fixed timestamps (the same sources give the same bytes,
# so the build id only changes with the content), stored entries (the server's
# brotli copy of the whole wheel is a third smaller than deflating each file), and names
# flagged as UTF-8: a zip entry without that flag makes Python's zipfile import
# the cp437 codec, compiled from source in the browser on every start-up.
ZIP_DATE = (1980, 1, 1, 0, 0, 0)


class _Utf8ZipInfo(zipfile.ZipInfo):
    def _encodeFilenameFlags(self):  # zipfile resets flag_bits before writing; set the flag here
        return self.filename.encode("utf-8"), self.flag_bits | 0x800


#: How write_wheel stores a wheel's files: part of a compiled wheel's cache key.
WHEEL_ENTRIES = "stored"


def write_stored_zip(path: Path | io.BytesIO, files: dict[str, bytes]) -> None:
    """A zip of stored (uncompressed) entries, fixed times, at `path` (or into a file object):
    the server's brotli copy compresses it whole."""
    with zipfile.ZipFile(path, "w") as z:
        for name, data in files.items():
            info = _Utf8ZipInfo(name, ZIP_DATE)
            info.external_attr = 0o644 << 16
            z.writestr(info, data, zipfile.ZIP_STORED)


def write_wheel(path: Path, files: dict[str, bytes]) -> Path:
    """Write a wheel from {name: bytes} (dist-info included, RECORD excluded):
    RECORD is added last, listing every file with its sha256."""
    record_name = next(n for n in files if n.endswith(".dist-info/METADATA")).rsplit("/", 1)[0] + "/RECORD"

    def digest(data: bytes) -> str:
        return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()

    record = "".join(f"{name},{digest(data)},{len(data)}\n" for name, data in files.items())
    write_stored_zip(path, {**files, record_name: f"{record}{record_name},,\n".encode()})
    return path


# How docstrings and comments are stripped: run here (pishe's modules) and in Pyodide (the
# standard library's, whose syntax only Pyodide's newer Python may parse: _PY_TRACE).
_PY_STRIP = """
import ast

def stripped(source, filename):
    tree = ast.parse(source, filename)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if (body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                    and isinstance(body[0].value.value, str)):
                node.body = body[1:] or [ast.Pass()]
    text = ast.unparse(tree) + chr(10)
    if ast.dump(ast.parse(text, filename)) != ast.dump(tree):
        raise ValueError(f"stripping {filename} changed its code")
    return text
"""
_STRIP: dict = {}
exec(_PY_STRIP, _STRIP)


def strip_source(source: str, filename: str = "<module>") -> str:
    """A module without its docstrings and comments, as `python -OO` would hold
    it (asserts stay). The result is checked to parse to the same code."""
    try:
        return _STRIP["stripped"](source, filename)
    except ValueError as err:
        raise BuildError(str(err)) from None


# The command line, the table's and each game's: a page never runs it (`pip install .`
# still installs it).
NOT_IN_PAGE_WHEEL = {"pishe/cli.py", "pishe/__main__.py",
                     *(p.relative_to(ROOT).as_posix() for p in (ROOT / "pishe" / "games").glob("*/cli.py"))}


def build_pishe_wheel(out: Path) -> Path:
    """Build the page's pishe wheel into folder `out` and return its path.

    Every module of the package but the command line, with docstrings and
    comments stripped (the page never reads them; they are a third of the
    bytes), the compiled gettext catalogs (.mo, from the .po files by Babel:
    catalogs.py), and minimal metadata: name, version, Python requirement. The
    name and version are pyproject.toml's.
    """
    import catalogs

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    name, version = project["name"], project["version"]
    files = {}
    for path in sorted((ROOT / "pishe").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if "__pycache__" not in rel and rel not in NOT_IN_PAGE_WHEEL:
            files[rel] = strip_source(path.read_text(encoding="utf-8"), rel).encode()
    files.update(catalogs.compiled())
    dist_info = f"{name}-{version}.dist-info"
    files[f"{dist_info}/METADATA"] = (
        f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
        f"Requires-Python: {project.get('requires-python', '>=3')}\n").encode()
    files[f"{dist_info}/WHEEL"] = (
        "Wheel-Version: 1.0\nGenerator: pishe build.py\nRoot-Is-Purelib: true\nTag: py3-none-any\n").encode()
    out.mkdir(parents=True, exist_ok=True)
    return write_wheel(out / f"{name}-{version}-py3-none-any.whl", files)


def split_catalogs(wheel: Path) -> dict[str, str]:
    """Move the compiled catalogs (.mo) out of `wheel` (rewritten without them) into a zip of
    each language's beside it, of the same paths: a page gets a language's words only once it
    speaks that language (web/core/worker.js unpacks them where it unpacked the wheel).
    Returns {language code: the zip's name}."""
    with zipfile.ZipFile(wheel) as z:
        files = {name: z.read(name) for name in z.namelist() if not name.endswith(".dist-info/RECORD")}
    by_language: dict[str, dict[str, bytes]] = {}
    for name in [n for n in files if n.endswith(".mo")]:
        code = name.split("/")[-3]  # <package>/locale/<code>/LC_MESSAGES/<domain>.mo
        by_language.setdefault(code, {})[name] = files.pop(name)
    write_wheel(wheel, files)
    names = {}
    for code, catalogs in sorted(by_language.items()):
        names[code] = f"{wheel.name.split('-')[0]}-{code}.zip"
        write_stored_zip(wheel.parent / names[code], catalogs)
    return names


# Run by Pyodide itself in Node at build time: turns a pure-Python wheel's
# modules into sourceless .pyc files for Pyodide's CPython, as Pyodide's own
# distribution does with its packages (its micropip is built that way). The
# browser then loads micropip's and pishe's bytecode instead of compiling
# their thousands of lines of Python each time.
_PY_COMPILE_WHEEL = """
import importlib._bootstrap_external as bootstrap
import importlib.util, site, zipfile
site_packages = site.getsitepackages()[0]
compiled = {}
with zipfile.ZipFile("/tmp/in.whl") as wheel:
    for info in wheel.infolist():
        name, data = info.filename, wheel.read(info)
        if info.is_dir() or name.endswith(".dist-info/RECORD"):
            continue
        if name.endswith(".py"):
            code = compile(data, f"{site_packages}/{name}", "exec", dont_inherit=True)
            data = bootstrap._code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False)
            name += "c"
        compiled[name] = data
compiled
"""

_NODE_COMPILE = """
import { loadPyodide } from "./pyodide.mjs";
import { readFileSync, writeFileSync } from "node:fs";
const [lock, source, target, script] = process.argv.slice(2);
// Code objects without column ranges (PYTHONNODEBUGRANGES): line numbers stay in
// tracebacks; the ranges only underline the failing expression, and they were 30% of
// the pishe wheel on the wire (175 -> 122 KB in brotli: they compress badly).
const pyodide = await loadPyodide({ lockFileURL: lock, env: { PYTHONNODEBUGRANGES: "1" } });
pyodide.FS.writeFile("/tmp/in.whl", readFileSync(source));
const files = pyodide.runPython(readFileSync(script, "utf8")).toJs();
const encoded = {};
for (const [name, data] of files instanceof Map ? files : Object.entries(files)) {
  encoded[name] = Buffer.from(data).toString("base64");
}
writeFileSync(target, JSON.stringify(encoded));
"""


def _run_node(command: list, purpose: str, doing: str) -> None:
    """Run ``command`` (Node, often Pyodide under it); a BuildError says what failed:
    ``purpose`` what Node was run for, ``doing`` the same as an activity ("… failed")."""
    try:
        result = subprocess.run(command, capture_output=True, text=True)
    except OSError as err:
        raise BuildError(f"could not run Node (it comes with npm) to {purpose}: {err}") from err
    if result.returncode != 0:
        # Pyodide prints its whole minified source with an error: keep the end.
        raise BuildError(f"{doing} failed:\n{(result.stdout + result.stderr)[-3000:]}")


def compile_wheel(wheel: Path, runtime: Path, lock: dict, cache: Path | None = None) -> Path:
    """`wheel` with its modules as .pyc for the Pyodide runtime in folder
    `runtime` (pyodide.mjs and friends), compiled by that runtime under Node.

    Kept in the cache, named after a hash of the inputs; a cached file that is
    not a sound zip is made again.
    """
    key = hashlib.sha256("\0".join([sha256_file(wheel), sha256_file(runtime / "pyodide.asm.wasm"),
                                     sha256_file(runtime / "python_stdlib.zip"),
                                     _PY_COMPILE_WHEEL, _NODE_COMPILE, WHEEL_ENTRIES]).encode()).hexdigest()[:16]
    cache = cache or cache_dir()
    target = cache / "compiled" / key / wheel.name
    if target.exists():
        try:
            with zipfile.ZipFile(target) as z:
                if z.testzip() is None:
                    return target
        except zipfile.BadZipFile:
            pass
    cache.mkdir(parents=True, exist_ok=True)
    # The scratch folder is inside the cache so that the final rename stays on one file system.
    with tempfile.TemporaryDirectory(dir=cache, prefix=".compile-") as scratch:
        scratch = Path(scratch)
        for name in RUNTIME_FILES:
            os.symlink(runtime / name, scratch / name)
        (scratch / "compile.mjs").write_text(_NODE_COMPILE)
        (scratch / "compile.py").write_text(_PY_COMPILE_WHEEL)
        (scratch / LOCK_NAME).write_text(json.dumps({**lock, "packages": {}}))
        command = ["node", str(scratch / "compile.mjs"), str(scratch / LOCK_NAME), str(wheel),
                   str(scratch / "out.json"), str(scratch / "compile.py")]
        _run_node(command, f"compile {wheel.name}", f"compiling {wheel.name} in Pyodide")
        files = {name: base64.b64decode(data)
                 for name, data in json.loads((scratch / "out.json").read_text()).items()}
        target.parent.mkdir(parents=True, exist_ok=True)
        write_wheel(scratch / wheel.name, files)
        (scratch / wheel.name).replace(target)
    return target


# -- The first visit's standard library -----------------------------------------------

# Pyodide's python_stdlib.zip (2.5 MB, deflated: brotli saves almost nothing of it) holds
# the whole standard library; the page uses a small part of it. The build traces what
# is imported, in Pyodide itself under Node, while everything the page's Python does is
# done: the boot, every pishe module, both games played (and a match restored), a
# friend's table opened, joined and dealt no-peek in one process (with noble's
# arithmetic, as the worker loads it), micropip installing segno and segno drawing a QR code, gettext finding a catalog (the language switch), the
# fair deal's hashes and secrets, a traceback formatted (every error the worker
# reports). Those modules ship without docstrings and comments in a zip of stored
# entries (brotli then compresses it as text). What micropip adds when it runs (email,
# http, urllib, xml.sax: 90 KB on the wire) travels with micropip instead, which only
# an invite's QR code loads: in its own zip, fetched when micropip first imports from
# it and kept by the service worker from then on, as micropip is. The rest of the
# library, in a third zip, is fetched only when something imports a module from it
# (pishe/on_demand.py).
STDLIB_FIRST = "pyodide/python_stdlib.zip"
STDLIB_MICROPIP = "pyodide/python_stdlib_micropip.zip"
STDLIB_REST = "pyodide/python_stdlib_rest.zip"
# Modules imported besides what the trace itself runs into.
STDLIB_ALWAYS = ("gettext", "locale", "hashlib", "hmac", "secrets", "base64", "traceback", "linecache",
                 "tokenize", "encodings.latin_1", "encodings.ascii", "encodings.utf_8")

_PY_TRACE = """
import importlib, json, os, sys, traceback
zip_path = next(p for p in sys.path if p.endswith(".zip"))

def library():
    found = set()
    for module in list(sys.modules.values()):
        file = getattr(module, "__file__", None) or ""
        # A frozen module (os, site, codecs, importlib's own...) runs from bytecode inside the
        # interpreter: its __file__ names the zip, whose copy is never read.
        frozen = getattr(getattr(module, "__spec__", None), "origin", None) == "frozen"
        if file.startswith(zip_path + "/") and not frozen:
            found.add(file[len(zip_path) + 1:])
    return found

# The page's start-up, as web/core/worker.js runs it: Pyodide's own boot, then pishe.web
# and the first game's first deal.
import pishe.on_demand, pishe.web
from pishe.table.game import game_ids
json.loads(pishe.web.new_match(None, 1, game_ids()[0], 15, None))
boot = library()
for name in STDLIB_ALWAYS:
    importlib.import_module(name)
import pishe
# Every module of the wheel, listed by hand (pkgutil would be one more module to ship).
site = os.path.dirname(os.path.dirname(pishe.__file__))
for folder, _, files in os.walk(os.path.dirname(pishe.__file__)):
    for file in sorted(files):
        if file.endswith((".py", ".pyc")) and "__pycache__" not in folder:
            parts = os.path.relpath(os.path.join(folder, file.rsplit(".", 1)[0]), site).split(os.sep)
            importlib.import_module(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
import pishe.web as web

def call(name, *args):
    return json.loads(getattr(web, name)(*args))

for language in ("tr", "en"):          # the language switch, every game played in each
    call("set_language", language)
    for game in game_ids():
        answer = call("new_match", None, 1, game, 15, None)
        for _ in range(150):
            match = answer["view"].get("match") or {}
            if match.get("over"):
                break
            answer = (call("next_deal") if match.get("next_deal") else call("computer_step")
                      if answer["computer_moves"] else call("act", str(answer["view"]["legal"][0])))
        call("timeout")
        call("restore_match", answer["saved"])
        call("page_words")
        # A friend's table, host and guest in this one process.
        call("host_open", None, None, game)
        queue = call("guest_open", None, None)["send"]
        while queue:
            for message in call("host_receive", queue.pop(0))["send"]:
                queue += call("guest_receive", message["text"], False)["send"]
        call("guest_saved")
        call("host_open", None, call("host_current")["saved"], game)
import gettext
gettext.translation("pishe", "/tmp/no-catalogs", languages=["tr", "en"], fallback=True).ngettext("a", "b", 2)
try:
    raise ValueError("a traceback, as the worker reports one")
except ValueError:
    traceback.format_exc()
first = library()
# -- micropip --
import micropip
await micropip.install(["emfs:/tmp/wheels/SEGNO"], deps=False)
call("qr_matrix", "https://example.org/#a-link")
used = library()
# Stripped and compiled here, by the Python that parses its own library's syntax (newer than
# the build's) and whose bytecode the page runs.
import base64, zipfile
import importlib._bootstrap_external as bootstrap
import importlib.util

def one_line(code):
    # Every instruction on the line its function starts at, no columns: a location table
    # (2 bytes per 8 instructions, all alike) that brotli all but removes, where real
    # lines and columns would be a fifth of the bytecode on the wire. A traceback still
    # names each function and the line it starts at.
    consts = tuple(one_line(c) if isinstance(c, type(code)) else c for c in code.co_consts)
    table, units = bytearray(), len(code.co_code) // 2
    while units > 0:
        run = min(8, units)
        table += bytes([0x80 | 13 << 3 | run - 1, 0])   # PY_CODE_LOCATION_INFO_NO_COLUMNS, line + 0
        units -= run
    return code.replace(co_consts=consts, co_linetable=bytes(table))

def bytecode(name, text):
    code = one_line(compile(text, f"{zip_path}/{name}", "exec", dont_inherit=True))
    pyc = bootstrap._code_to_hash_pyc(code, importlib.util.source_hash(text.encode()), checked=False)
    return base64.b64encode(pyc).decode()

result = {"first": sorted(first), "micropip": sorted(used - first), "boot": sorted(boot),
          "stripped": {}, "bytecode": {}}
if STRIP:
    with zipfile.ZipFile(zip_path) as z:
        result["stripped"] = {name: stripped(z.read(name).decode("utf-8"), name) for name in sorted(used)}
    result["bytecode"] = {name: bytecode(name, result["stripped"][name]) for name in sorted(boot)}
json.dumps(result)
"""

_NODE_TRACE = """
import { loadPyodide } from "./pyodide.mjs";
import { readFileSync, writeFileSync } from "node:fs";
const [lock, pishe, segno, target, script, always, strip, curves, group] = process.argv.slice(2);
// A friend's table deals no-peek: its arithmetic, as the page's worker loads it.
const { makeGroup } = await import(group);
globalThis.pisheGroup = makeGroup(await import(curves));
// The library beside this script, named outright: Pyodide would take the one beside
// the file a symbolic link to pyodide.mjs leads to.
const stdLibURL = new URL("python_stdlib.zip", import.meta.url).pathname;
const pyodide = await loadPyodide({ lockFileURL: lock, stdLibURL });
pyodide.unpackArchive(new Uint8Array(readFileSync(pishe)), "wheel");
pyodide.FS.mkdirTree("/tmp/wheels");
const segnoName = segno.split("/").pop();
pyodide.FS.writeFile(`/tmp/wheels/${segnoName}`, readFileSync(segno));
pyodide.globals.set("STDLIB_ALWAYS", pyodide.toPy(JSON.parse(always)));
pyodide.globals.set("STRIP", strip === "strip");
// The page's part, then micropip's: loading micropip imports modules of its own.
// Answers {first: [paths], micropip: [paths], stripped: {path: source}}, as JSON text. An
// error is printed alone: Node would print the line of Pyodide's it came from, 1.2 MB of it.
const [page, later] = readFileSync(script, "utf8").split("# -- micropip --\\n");
try {
  await pyodide.runPythonAsync(page);
  await pyodide.loadPackage("micropip");
  writeFileSync(target, await pyodide.runPythonAsync(later.replace("SEGNO", segnoName)));
} catch (err) {
  console.error(String(err.message || err));
  process.exit(1);
}
"""


def trace_stdlib(runtime: Path, lock: dict, micropip: Path, pishe: Path, segno: Path,
                 cache: Path | None = None, strip: bool = True) -> dict:
    """The standard library files (paths in python_stdlib.zip) the page's Python imports,
    traced in the Pyodide runtime in folder `runtime` under Node (_PY_TRACE), and each
    one stripped of docstrings and comments there: {"first": [paths imported before
    micropip runs], "micropip": [the paths micropip adds], "stripped": {path: source}
    (empty unless `strip`: stripping imports modules the page does not)}. Kept in the
    cache under a hash of the inputs."""
    group = ROOT / "web" / "core" / "group.js"
    key = hashlib.sha256("\0".join([sha256_file(p) for p in (runtime / "pyodide.asm.wasm",
                                                             runtime / "python_stdlib.zip", micropip, pishe, segno,
                                                             group)]
                                   + [_PY_STRIP, _PY_TRACE, _NODE_TRACE, json.dumps(STDLIB_ALWAYS), str(strip)]
                                   ).encode()).hexdigest()[:16]
    cache = cache or cache_dir()
    target = cache / "stdlib" / f"{key}.json"
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=cache, prefix=".trace-") as scratch:
            scratch = Path(scratch)
            for name in RUNTIME_FILES:
                os.symlink(runtime / name, scratch / name)
            os.symlink(micropip, scratch / micropip.name)
            (scratch / "trace.mjs").write_text(_NODE_TRACE)
            (scratch / "trace.py").write_text(_PY_STRIP + _PY_TRACE)
            (scratch / LOCK_NAME).write_text(json.dumps(trimmed_lock(lock, {"micropip": micropip})))
            curves = unpack_noble(scratch / "noble", cache)
            command = ["node", str(scratch / "trace.mjs"), str(scratch / LOCK_NAME), str(pishe), str(segno),
                       str(scratch / "out.json"), str(scratch / "trace.py"), json.dumps(STDLIB_ALWAYS),
                       "strip" if strip else "list", curves.as_uri(), group.as_uri()]
            _run_node(command, "trace the standard library", "tracing the standard library in Pyodide")
            (scratch / "out.json").replace(target)
    return json.loads(target.read_text())


def _module_names(paths) -> list[str]:
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
    return [{"url": site_path, "names": _module_names(files)} for site_path, files in parts.items()]


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


# -- A friends' table's code -----------------------------------------------------------

# What only a friends' table runs (the protocol, the fair and no-peek deals, their page calls:
# ~half the compiled wheel) leaves the wheel every start downloads for a zip of its own,
# which the worker fetches before a friends' table's first call (a friends' table needs the
# network anyway): FRIENDS_ZIP. Its JavaScript, likewise, is imported when a friends' table
# opens (web/tables/friends.js), never preloaded; the service worker keeps both once fetched.
FRIENDS_MODULE = "pishe.web_friends"   # where the friends' table's Python begins (pishe.web imports it)
FRIENDS_ZIP = "wheels/pishe-friends.zip"
# Where its JavaScript begins: the controller, and the worker's no-peek arithmetic.
FRIENDS_JS = ("web/tables/friend/table.js", "web/core/group.js")


def _page_modules() -> dict[str, tuple[Path, bool]]:
    """The page wheel's modules by name: (their source, whether a package)."""
    modules = {}
    for path in sorted((ROOT / "pishe").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if "__pycache__" in rel or rel in NOT_IN_PAGE_WHEEL:
            continue
        parts = rel[:-3].split("/")
        package = parts[-1] == "__init__"
        modules[".".join(parts[:-1] if package else parts)] = (path, package)
    return modules


def _python_imports(path: Path, package: bool, name: str, anywhere: bool) -> set[str]:
    """The modules the source at `path` (module `name`) imports, with their parent packages:
    every import if `anywhere`, else only those run when it is imported (none in a function)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    here = name if package else name.rpartition(".")[0]
    todo, found = [tree], set()
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

    def reach(start: set, anywhere: bool) -> set:
        seen, todo = set(), list(start)
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
    with zipfile.ZipFile(wheel) as z:
        files = {name: z.read(name) for name in z.namelist() if not name.endswith(".dist-info/RECORD")}
    moved = {name: files.pop(name) for name in sorted(files) if name in paths}
    if len(moved) != len(names):
        raise BuildError(f"the friends' modules are not all in {wheel.name} as bytecode: {names}")
    write_wheel(wheel, files)
    write_stored_zip(wheel.parent / Path(FRIENDS_ZIP).name, moved)
    return {"url": FRIENDS_ZIP, "names": names, "calls": list(FRIENDS_CALLS)}


_DYNAMIC_IMPORT = re.compile(r"""\bimport\(\s*["'](\.{1,2}/[^"']+)["']\s*\)""")


def _js_reach(stage: Path, start, dynamic: bool) -> set[str]:
    """The scripts of the site in `stage` (paths in it) that the scripts `start` import, and
    theirs, themselves included: static imports, and `import("./…")` too if `dynamic`."""
    seen, todo = set(), list(start)
    while todo:
        rel = todo.pop()
        if rel in seen or not (stage / rel).is_file():
            continue
        seen.add(rel)
        source = (stage / rel).read_text(encoding="utf-8")
        found = _RELATIVE_IMPORT.findall(source) + (_DYNAMIC_IMPORT.findall(source) if dynamic else [])
        todo += [os.path.normpath(os.path.join(os.path.dirname(rel), m)) for m in found]
    return seen


_PAGE_SCRIPT = re.compile(r'<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="([^"]+)"')


def friends_scripts(stage: Path) -> list[str]:
    """The friends' table's JavaScript in the site in `stage`: what FRIENDS_JS import, in the
    end (import() too), that neither index.html's scripts nor the worker's import at start."""
    page = (stage / "index.html").read_text(encoding="utf-8") if (stage / "index.html").exists() else ""
    start = _js_reach(stage, [*_PAGE_SCRIPT.findall(page), "web/core/worker.js"], dynamic=False)
    return sorted(_js_reach(stage, FRIENDS_JS, dynamic=True) - start)


# Brotli at its best quality, by Node's zlib (Node is needed for the build
# anyway, so the build stays standard-library Python). Argument: a JSON file
# of [source, target] pairs.
_NODE_BROTLI = """
import { brotliCompressSync, constants } from "node:zlib";
import { readFileSync, writeFileSync } from "node:fs";
for (const [source, target] of JSON.parse(readFileSync(process.argv[2], "utf8"))) {
  const data = readFileSync(source);
  writeFileSync(target, brotliCompressSync(data, { params: {
    [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
    [constants.BROTLI_PARAM_SIZE_HINT]: data.length } }));
}
"""
try:
    # Zopfli writes gzip that any browser reads, ~4% smaller than zlib's best (the
    # wasm 3.53 -> 3.42 MB, ~20 s once). Optional (`pip install zopfli`: .ci/run does):
    # without it the copies are zlib's, and nothing else changes.
    import zopfli.gzip as _zopfli
except ImportError:
    _zopfli = None


def _gzip(data: bytes) -> bytes:
    """`data` as gzip, as small as the build can make it (no timestamp in it)."""
    if _zopfli is not None:
        return _zopfli.compress(data, numiterations=1)  # more iterations save ~0.1% more
    return gzip.compress(data, 9, mtime=0)


# How each encoding's copies are made: part of their cache key.
_RECIPES = {"br": _NODE_BROTLI, "gzip": "zopfli, 1 iteration" if _zopfli else "gzip.compress(data, 9, mtime=0)"}


def precompress(root: Path, files: list[str], cache: Path | None = None) -> list[str]:
    """Write a copy in each of ENCODINGS beside every COMPRESSIBLE file of `files`
    (paths relative to `root`; settings files excepted), where it is smaller than
    the file; return the copies' paths.

    The copies are kept in the cache under a hash of the file and of how it is
    compressed, so Pyodide's files are compressed once, not at every build
    (brotli at its best takes ~45 s of CPU for the wasm); each is moved there
    whole, never left half written.
    """
    sources = [root / rel for rel in files if rel.endswith(COMPRESSIBLE) and rel not in SETTINGS_FILES]
    copies = _compressed(sources, list(ENCODINGS), cache)
    written = []
    for (source, coding), cached in copies.items():
        if cached.stat().st_size < source.stat().st_size:
            beside = source.with_name(source.name + ENCODINGS[coding])
            shutil.copyfile(cached, beside)
            written.append(beside.relative_to(root).as_posix())
    return written


def brotli_size(data: bytes, cache: Path | None = None) -> int:
    """The bytes of `data` on the wire as its brotli copy (precompress's), kept in the cache."""
    cache = cache or cache_dir()
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache, prefix=".size-") as scratch:
        source = Path(scratch) / "data"
        source.write_bytes(data)
        return _compressed([source], ["br"], cache)[source, "br"].stat().st_size


def _compressed(sources: list[Path], codings: list[str], cache: Path | None = None) -> dict[tuple[Path, str], Path]:
    """{(file, coding): its copy in `coding`, in the cache}, made where missing (see precompress)."""
    cache = (cache or cache_dir()) / "compressed"
    cache.mkdir(parents=True, exist_ok=True)
    copies: dict[tuple[Path, str], Path] = {}
    for source in sources:
        digest = sha256_file(source)
        for coding in codings:
            key = hashlib.sha256(f"{digest}\0{_RECIPES[coding]}".encode()).hexdigest()[:32]
            copies[source, coding] = cache / f"{key}{ENCODINGS[coding]}"
    missing = [(source, cached) for (source, _), cached in copies.items() if not cached.exists()]
    if missing:
        with tempfile.TemporaryDirectory(dir=cache, prefix=".compress-") as scratch:
            scratch = Path(scratch)
            brotli = []
            for source, cached in missing:
                if cached.suffix == ENCODINGS["gzip"]:
                    (scratch / cached.name).write_bytes(_gzip(source.read_bytes()))
                else:
                    brotli.append([str(source), str(scratch / cached.name)])
            if brotli:
                (scratch / "brotli.mjs").write_text(_NODE_BROTLI)
                (scratch / "pairs.json").write_text(json.dumps(brotli))
                _run_node(["node", str(scratch / "brotli.mjs"), str(scratch / "pairs.json")],
                          "compress with brotli", "brotli compression in Node")
            for _, cached in missing:
                (scratch / cached.name).replace(cached)
    return copies


# -- Our scripts and style sheets, minified -----------------------------------------

#: esbuild as WebAssembly (one package, no platform binary), run by Node: it minifies our
#: own scripts and style sheets (minify), half their bytes on the wire. Pyodide's, nostr-tools'
#: and noble's files ship as their packages have them.
ESBUILD_PIN = _npm_pin("esbuild-wasm", "0.28.2", "61594de12ce998652be2aa0ab72dda54bfa49407fb37ee3464468a2aac306baa")
#: Set (to anything but "" or "0") to ship our scripts and style sheets as written, for debugging.
NO_MINIFY_ENV = "PISHE_NO_MINIFY"
# Each file's esbuild options, by kind. A script gets no output format: esbuild keeps each
# file's own, so a module (import/export in it) stays a module whose top-level names may be
# shortened, and a classic script (start.js, sw.js, first-words.js...) keeps its top-level names,
# which are globals. Neither renames what another file reaches by name: exports, properties
# (self.pisheWorker, dataset...), globals. utf8: "Türkçe", "…" and the suits stay as written
# (ASCII escapes would be longer).
_ESBUILD_OPTIONS = {
    ".js": {"loader": "js", "minify": True, "charset": "utf8"},
    ".mjs": {"loader": "js", "minify": True, "charset": "utf8"},
    ".css": {"loader": "css", "minify": True, "charset": "utf8"},
}
_NODE_MINIFY = """
import { createRequire } from "node:module";
import { readFileSync, writeFileSync } from "node:fs";
const [esbuildMain, jobs] = process.argv.slice(2);
const esbuild = createRequire(import.meta.url)(esbuildMain);
const failed = [];
await Promise.all(JSON.parse(readFileSync(jobs, "utf8")).map(async ([source, target, options]) => {
  try {
    const { code, warnings } = await esbuild.transform(readFileSync(source, "utf8"), options);
    // A warning is a fault in our file (CSS whose block is never closed, a typeof compared
    // with a misspelt type...) that esbuild works around: fail, as for an error.
    for (const { text, location: at } of warnings) failed.push(`${at.file}:${at.line}:${at.column}: ${text}`);
    writeFileSync(target, code);
  } catch (err) {
    failed.push(err.message);
  }
}));
if (failed.length) {
  console.error(failed.join("\\n"));
  process.exit(1);
}
"""


def minified(rel: str) -> bool:
    """Whether the build minifies the site's file ``rel``: our scripts and style sheets (sw.js
    and web/'s), not the vendored libraries, nor web/lang/*.js, which the build writes compact
    (esbuild's rewrite of their words' object is larger once brotli'd: tr.js +40 B)."""
    return ((rel == "sw.js" or rel.startswith("web/")) and not rel.startswith("web/lang/")
            and rel.endswith(tuple(_ESBUILD_OPTIONS)))


def minify(root: Path, files: list[str], cache: Path | None = None) -> None:
    """Replace each file of ``files`` (paths relative to ``root``) by its minified text.

    Each result is kept in the cache under a hash of the file, its options and esbuild's pin, so
    a warm build runs no Node here; Node and esbuild start only for files not seen before.
    A file esbuild cannot parse, or warns about, fails the build, naming the file, line and column."""
    cache = (cache or cache_dir()) / "minified"
    cache.mkdir(parents=True, exist_ok=True)
    jobs = []  # (file, options, its minified text in the cache)
    for rel in files:
        suffix = Path(rel).suffix
        options = {**_ESBUILD_OPTIONS[suffix], "sourcefile": rel}
        recipe = json.dumps([ESBUILD_PIN.sha256, _NODE_MINIFY, _ESBUILD_OPTIONS[suffix]], sort_keys=True)
        key = hashlib.sha256(f"{sha256_file(root / rel)}\0{recipe}".encode()).hexdigest()[:32]
        jobs.append((root / rel, options, cache / f"{key}{suffix}"))
    missing = [job for job in jobs if not job[2].exists()]
    if missing:
        with tempfile.TemporaryDirectory(dir=cache, prefix=".minify-") as scratch:
            scratch = Path(scratch)
            with tarfile.open(fetch_pinned(ESBUILD_PIN)) as tar:  # its files: package/...
                for member in tar.getmembers():
                    if member.isfile() and ".." not in member.name.split("/"):
                        target = scratch / "esbuild" / member.name
                        target.parent.mkdir(parents=True, exist_ok=True)
                        target.write_bytes(tar.extractfile(member).read())
            (scratch / "minify.mjs").write_text(_NODE_MINIFY)
            (scratch / "jobs.json").write_text(json.dumps(
                [[str(source), str(scratch / cached.name), options] for source, options, cached in missing]))
            _run_node(["node", str(scratch / "minify.mjs"), str(scratch / "esbuild" / "package" / "lib" / "main.js"),
                       str(scratch / "jobs.json")], "minify our scripts", "minifying our scripts with esbuild")
            for _, _, cached in missing:
                (scratch / cached.name).replace(cached)
    for source, _, cached in jobs:
        shutil.copyfile(cached, source)


def trimmed_lock(lock: dict, shipped: dict[str, Path]) -> dict:
    """Pyodide's lock reduced to the packages we ship, with their true sha256.

    `shipped` maps package names to the wheel files placed next to the lock.
    Every dependency (per the lock's `depends`) of a shipped package must be
    shipped too, or loadPackage would fail in the browser; that is checked here.
    """
    packages = {}
    todo = list(shipped)
    while todo:
        name = todo.pop()
        if name in packages:
            continue
        if name not in shipped:
            raise BuildError(f"the Pyodide lock says a shipped package depends on {name!r}, "
                             "which is not pinned in build.py")
        entry = dict(lock["packages"][name])
        if entry["file_name"] != shipped[name].name:
            raise BuildError(f"lock names {entry['file_name']} for {name}, we ship {shipped[name].name}")
        entry["sha256"] = sha256_file(shipped[name])
        packages[name] = entry
        todo.extend(entry["depends"])
    return {**lock, "packages": packages}


def _copy_runtime(tgz: Path, dest: Path) -> dict:
    """Extract the runtime files from the npm tarball into `dest`; return the lock."""
    dest.mkdir(parents=True)
    with tarfile.open(tgz) as tar:
        for name in RUNTIME_FILES:
            with tar.extractfile(f"package/{name}") as src, open(dest / name, "wb") as out:
                shutil.copyfileobj(src, out)
        with tar.extractfile(f"package/{LOCK_NAME}") as src:
            return json.load(src)


#: A place in index.html where the build writes every game's markup: <!-- games: PART -->.
GAMES_MARK = re.compile(r"^([ \t]*)<!-- games: (\w+) -->[ \t]*$|<!-- games: (\w+) -->", re.M)
#: The parts of a game's markup that are files in web/games/<game>/ (PART.html, or
#: PART.<id>.html for one variant only); __GAME__ in them stands for the game's id, and a
#: line __name__ (lowercase) for the piece in name.html (or name.<id>.html) beside them,
#: so that variants share a part and differ by a piece.
GAME_PARTS = ("match", "table", "settings", "note", "rules")


def _registered_games() -> list:
    """The registered games (pishe.table.game.games), this repository's."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))  # this repository's pishe, as a script sees it
    from pishe.table.game import games
    return list(games())


def _levels_markup(game) -> str:
    """The computer's level radios of ``game`` (its ``levels``, in their order; none: no
    fieldset), its ``computer``'s chosen (else the first)."""
    if not game.levels:
        return ""
    chosen = game.computer if game.computer in game.levels else next(iter(game.levels))
    radios = "".join(
        f'\n    <label><input type="radio" name="level-{game.id}" value="{html.escape(bot)}" data-setting="level"'
        f'{" checked" if bot == chosen else ""}><span data-i18n>{html.escape(name)}</span></label>'
        for bot, name in game.levels.items())
    note = getattr(game, "levels_note", "")
    described = f' aria-describedby="{game.id}-level-note"' if note else ""
    hint = f'\n  <p class="hint" id="{game.id}-level-note" data-i18n>{html.escape(note)}</p>' if note else ""
    return (f'<fieldset class="lengths"{described}>\n  <legend data-i18n>Computer</legend>\n'
            f'  <div class="segmented">{radios}\n  </div>{hint}\n</fieldset>')


def _game_file(folder: Path, name: str, game_id: str) -> str:
    """The markup in ``folder``'s name.<game_id>.html, else name.html ("" if neither)."""
    source = folder / f"{name}.{game_id}.html"
    source = source if source.exists() else folder / f"{name}.html"
    return source.read_text(encoding="utf-8").strip("\n") if source.exists() else ""


def _game_part(game, part: str, first: bool) -> str:
    """``game``'s markup for ``part`` (from web/games/<package>/), hidden unless ``first``."""
    folder = ROOT / "web" / "games" / game.package
    if part == "title":
        return f'<span data-for-game="{game.id}"{"" if first else " hidden"} data-i18n>{html.escape(game.name)}</span>'
    if part == "choice":
        title = html.escape(f"{game.name}: play the computer")
        # A friends' table's title (web/tables/friend/table.js), from an invite's first paint on.
        friends = html.escape(f"{game.name}: play a friend" if game.seats == 2 else f"{game.name}: play with friends")
        return (f'<label><input type="radio" name="game" value="{game.id}" autocomplete="off"'
                f'{" checked" if first else ""} data-i18n-attr="data-title data-friend-title" data-title="{title}"'
                f' data-friend-title="{friends}"><span data-i18n>{html.escape(game.name)}</span></label>')
    if part == "styles":
        return "".join(f'<link rel="stylesheet" href="web/games/{game.package}/{css.name}">\n'
                       for css in sorted(folder.glob("*.css")))
    if part == "preload":
        return f'<link rel="modulepreload" href="web/games/{game.package}/paint.js">\n' if first else ""
    if part not in GAME_PARTS:
        raise BuildError(f"index.html asks for games' {part!r}: the parts are {', '.join(GAME_PARTS)}")
    text = _game_file(folder, part, game.id)
    if not text:
        return ""
    def piece(mark: re.Match) -> str:
        found = _game_file(folder, mark.group(2), game.id)
        return "".join(mark.group(1) + line + "\n" for line in found.split("\n")) if found else ""
    text = re.sub(r"^([ \t]*)__([a-z][a-z-]*)__\n", piece, text + "\n", flags=re.M).rstrip("\n")
    lines = text.split("\n")
    levels = re.search(r"^([ \t]*)__LEVELS__$", text, re.M)
    if levels:
        block = "\n".join(levels.group(1) + line for line in _levels_markup(game).split("\n"))
        text = text[:levels.start()] + block.rstrip() + text[levels.end():]
        lines = text.split("\n")
    if not first:  # the first tag is the part's root: hidden until its game is chosen
        lines[0] = re.sub(r"^(\s*<[^>]*?)(/?>)", r"\1 hidden\2", lines[0], count=1)
    return "\n".join(lines).replace("__GAME__", game.id)


def game_markup(page: str, games: list) -> str:
    """index.html with every registered game's markup in place of each <!-- games: PART -->:
    the game choice, titles, style sheets, the first game's painter preloaded, and each
    game's match line, table, settings, note and rules from its files in web/games/<game>/
    (written in the page, so the first paint comes before any script). The first game is
    the one shown; the others' parts are hidden."""
    def fill(mark: re.Match) -> str:
        indent, part = (mark.group(1), mark.group(2)) if mark.group(2) else ("", mark.group(3))
        blocks = [_game_part(game, part, n == 0) for n, game in enumerate(games)]
        text = ("\n" if mark.group(2) else "").join(b.rstrip("\n") for b in blocks if b)
        return "\n".join(indent + line if line else line for line in text.split("\n"))
    return GAMES_MARK.sub(fill, page)


def _copy_web(stage: Path) -> None:
    """Copy index.html and the settings files (when there) and web/ into the staging folder;
    the games' markup goes into index.html (game_markup), not into the site as files."""
    # The settings sit beside index.html so that a self-hoster can edit them in dist/.
    for name in ("index.html", *SETTINGS_FILES):
        if (ROOT / name).exists():
            shutil.copy2(ROOT / name, stage / name)
    web = ROOT / "web"
    for src in sorted(web.rglob("*")):
        rel = src.relative_to(web)
        if src.is_dir() or any(part.startswith(".") or part == "__pycache__" for part in rel.parts):
            continue
        if rel.parts[0] == "games" and rel.suffix == ".html":
            continue
        # sw.js goes to the root: a service worker only controls pages at or below its own URL.
        dst = stage / "sw.js" if rel == Path("sw.js") else stage / "web" / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dst)


def _copy_nostr(tgz: Path, dest: Path) -> None:
    """Write nostr-tools' browser bundle from the npm tarball to `dest` as an ES
    module: its text unchanged, then `export default NostrTools;`. A module's
    top-level `var` is not a global, so the bundle as it is would import as nothing;
    the package's own ES modules import four other packages by bare name."""
    with tarfile.open(tgz) as tar:
        bundle = tar.extractfile(NOSTR_BUNDLE).read()
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_bytes(bundle + b"\nexport default NostrTools;\n")


def _write_page_words(folder: Path) -> None:
    """web/lang/<code>.js: the page's static words in each language but English (and the
    pseudo-language's, for layout tests), from the catalogs (catalogs.py: page_words), as a
    classic script that web/first-words.js loads before it shows <body> (the page in that
    language from its first paint): ``self.pisheWordsIn[code] = {message: translation}``."""
    import catalogs
    from pishe.table.lang import PSEUDO

    folder.mkdir(parents=True, exist_ok=True)
    for code in (*catalogs.LANGUAGES, PSEUDO):
        words = json.dumps(catalogs.page_words(code), ensure_ascii=False, separators=(",", ":"))
        (folder / f"{code}.js").write_text(
            f"(self.pisheWordsIn = self.pisheWordsIn || {{}})[{json.dumps(code)}] = {words};\n", encoding="utf-8")


def _pseudo_language() -> str:
    """The pseudo-language's code (pishe/table/lang.py), whose words the build writes too."""
    from pishe.table.lang import PSEUDO
    return PSEUDO


def _loading_words() -> dict[str, str]:
    """The loading line's words by start-up milestone, from pishe/table/words.py:
    the page shows them before Python runs."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))  # this repository's pishe, as a script sees it
    from pishe.table.words import LOADING
    return dict(LOADING)


def build_literal(info: dict, script: str) -> str:
    """The build info as the JSON literal for `script` (its text): only the keys it reads
    as BUILD.<key>, so that no script carries the others' lists (the standard library's
    module names are most of the info, and only the worker reads them)."""
    read = set(re.findall(r"\bBUILD\.(\w+)", script))
    return json.dumps({key: value for key, value in info.items() if key in read}, separators=(",", ":"))


def _write_manifest(path: Path) -> None:
    """The app's manifest with its words (pishe/table/words.py's MANIFEST): the English, and each
    other language's in its "translations" member, from the catalogs; and beside it each other
    language's own (manifest.<code>.webmanifest, its words on top: a browser that ignores
    "translations" installs a Turkish page under its Turkish name; web/first-words.js links it)."""
    from pishe.table import lang
    from pishe.table.words import MANIFEST

    manifest = json.loads(path.read_text(encoding="utf-8"))
    before = lang.language()
    try:
        translations = {}
        for code in lang.LANGUAGES[1:]:
            lang.set_language(code)
            translations[code] = {key: lang.TABLE.gettext(words) for key, words in MANIFEST.items()}
    finally:
        lang.set_language(before)
    manifest.update(MANIFEST, translations=translations)
    path.write_text(json.dumps(manifest, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    for code, words in translations.items():
        own = {key: value for key, value in manifest.items() if key != "translations"}
        own.update(words, lang=code)
        path.with_name(f"{path.stem}.{code}{path.suffix}").write_text(
            json.dumps(own, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")


def _start_failed_markup() -> str:
    """Why the game could not start, by cause (pishe/table/words.py's START_FAILED), as
    index.html's data-start-failures template holds it: a static message each, which
    web/first-words.js puts in the page's language like every other (Python cannot run then)."""
    from pishe.table.words import START_FAILED
    return "".join(f'<p data-cause="{cause}" data-i18n>{html.escape(words)}</p>' for cause, words in START_FAILED.items())


def _content_id(stage: Path, files: list[str]) -> str:
    """Short hash over every file's path and bytes (before the build info is inserted)."""
    digest = hashlib.sha256()
    for rel in files:
        digest.update(f"{rel}\0{sha256_file(stage / rel)}\n".encode())
    return digest.hexdigest()[:12]


def build(dist: Path = DIST) -> dict:
    """Build the site into `dist` (replacing it) and return the build info."""
    pinned = {name: fetch_pinned(pin) for name, pin in PINS.items()}
    # Assemble next to dist/ and swap at the end, so a failed build leaves the old dist/ intact.
    dist.parent.mkdir(parents=True, exist_ok=True)
    stage = Path(tempfile.mkdtemp(dir=dist.parent, prefix=".dist-"))
    stage.chmod(0o755)  # mkdtemp makes it private; a web server may run as another user
    try:
        _copy_web(stage)
        (stage / "web" / "icons").mkdir()
        for size in ICON_SIZES:
            (stage / "web" / "icons" / f"icon-{size}.png").write_bytes(icon_png(size))
        _write_page_words(stage / "web" / "lang")
        _write_manifest(stage / "web" / "manifest.webmanifest")
        lock = _copy_runtime(pinned["pyodide"], stage / "pyodide")
        micropip = stage / "pyodide" / pinned["micropip"].name
        shutil.copyfile(compile_wheel(pinned["micropip"], stage / "pyodide", lock), micropip)
        (stage / "pyodide" / LOCK_NAME).write_text(
            json.dumps(trimmed_lock(lock, {"micropip": micropip}), indent=1) + "\n")
        # Our modules as bytecode too, compiled from the stripped sources: the page
        # imports pishe.web on every start-up, and compiling it there was most of
        # that import's time (~5x the bytecode's).
        (stage / "wheels").mkdir()
        with tempfile.TemporaryDirectory() as scratch:
            pishe = compile_wheel(build_pishe_wheel(Path(scratch)), stage / "pyodide", lock)
            pishe = Path(shutil.copyfile(pishe, stage / "wheels" / pishe.name))
        shutil.copyfile(pinned["segno"], stage / "wheels" / pinned["segno"].name)
        on_demand = split_stdlib(stage / "pyodide", lock, micropip, pishe, pinned["segno"])
        # After the trace, which speaks Turkish and opens a friends' table too: the catalogs
        # and the friends' table's modules leave the wheel.
        languages = split_catalogs(pishe)
        friends = split_friends(pishe)
        _copy_nostr(pinned["nostr-tools"], stage / NOSTR_MODULE)
        noble = _copy_noble(stage / NOBLE_DIR)

        loading = _loading_words()
        games = _registered_games()
        if (stage / "index.html").exists():
            page = stage / "index.html"
            text = game_markup(page.read_text(encoding="utf-8"), games)
            text = text.replace(LOADING_TOKEN, f"{loading['start']}…")
            page.write_text(text.replace(START_FAILED_TOKEN, _start_failed_markup()), encoding="utf-8")
        files = sorted(p.relative_to(stage).as_posix() for p in stage.rglob("*") if p.is_file())
        friends_js = friends_scripts(stage)  # as written: before minifying
        # Our scripts that take the build info: which keys each reads (BUILD.<key>) is read
        # before minifying renames BUILD; the info goes in after it, so the minified text is the
        # same from build to build (cached) and the info stays the JSON that build_literal writes.
        takes_info = {rel: text for rel in files if (rel == "sw.js" or rel.startswith("web/"))
                      and rel.endswith((".js", ".mjs"))
                      and BUILD_TOKEN in (text := (stage / rel).read_text(encoding="utf-8"))}
        if os.environ.get(NO_MINIFY_ENV, "") in ("", "0"):
            minify(stage, [rel for rel in files if minified(rel)])
        downloads = ["pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip", f"wheels/{pishe.name}"]
        info = {
            "id": _content_id(stage, files),
            "wheels": {"pishe": f"wheels/{pishe.name}", "segno": f"wheels/{pinned['segno'].name}"},
            # The words of each language but English, fetched by the worker when first spoken, and
            # kept by the service worker for offline play (its install comes once the table is ready).
            "languages": {code: f"wheels/{name}" for code, name in languages.items()},
            "files": files,
            "online": [rel for rel in files if rel in (*SETTINGS_FILES, NOSTR_MODULE)],
            # The pseudo-language's words are for checking a layout, not for a visitor to keep.
            "later": [micropip.relative_to(stage).as_posix(), f"wheels/{pinned['segno'].name}",
                      STDLIB_MICROPIP, STDLIB_REST, f"web/lang/{_pseudo_language()}.js", *noble,
                      FRIENDS_ZIP, *friends_js],
            "stdlib": on_demand,
            "friends": friends,
            "loading": loading,
            "downloads": {rel: (stage / rel).stat().st_size for rel in downloads},
            "games": {game.id: game.package for game in games},
        }
        # Only our own scripts carry the placeholder; Pyodide's files are left byte-identical.
        for rel, source in takes_info.items():
            path = stage / rel
            text = path.read_text(encoding="utf-8")
            path.write_text(text.replace(BUILD_TOKEN, build_literal(info, source)), encoding="utf-8")
        # Last, once every file has its final bytes (the build info is in our scripts).
        precompress(stage, files)
        if dist.exists():
            shutil.rmtree(dist)
        stage.rename(dist)
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise
    return info


def accepted_encodings(accept_encoding: str | None) -> set[str]:
    """The content codings an Accept-Encoding header value allows (q > 0), in lower
    case; "*" stands for every coding not named."""
    allowed, refused = set(), set()
    for part in (accept_encoding or "").split(","):
        coding, *params = (p.strip() for p in part.split(";"))
        if not coding:
            continue
        q = 1.0
        for param in params:
            key, _, value = param.partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        (allowed if q > 0 else refused).add(coding.lower())
    if "x-gzip" in allowed:
        allowed.add("gzip")
    if "*" in allowed:
        allowed |= set(ENCODINGS) - refused
    return allowed


class SiteHandler(SimpleHTTPRequestHandler):
    """Static files with the MIME types the browser insists on, a file's
    precompressed copy (NAME.br, NAME.gz) sent instead when the browser accepts
    its encoding (as a static host set up for it does), and a quiet log."""

    # Without application/wasm, loadPyodide hangs; module scripts need a JavaScript type.
    extensions_map = {
        **SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".js": "text/javascript",
        ".mjs": "text/javascript",
        ".json": "application/json",
        ".whl": "application/zip",
        ".svg": "image/svg+xml",
        ".webmanifest": "application/manifest+json",
    }

    def send_head(self):
        path = self._file_path()
        copies = self._copies(path) if path else {}
        self._vary = bool(copies)  # the body depends on Accept-Encoding, whichever is sent
        accepted = accepted_encodings(self.headers.get("Accept-Encoding"))
        coding = next((c for c in ENCODINGS if c in copies and c in accepted), None)
        if coding is None:
            return super().send_head()
        try:
            body = open(copies[coding], "rb")
            size, mtime = os.fstat(body.fileno()).st_size, os.stat(path).st_mtime
        except OSError:
            return super().send_head()  # gone meanwhile: let it answer
        if self._not_modified_since(mtime):
            body.close()
            self.send_response(HTTPStatus.NOT_MODIFIED)
            self.end_headers()
            return None
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-type", self.guess_type(path))
        self.send_header("Content-Encoding", coding)
        self.send_header("Content-Length", str(size))
        self.send_header("Last-Modified", self.date_time_string(mtime))
        self.end_headers()
        return body

    def end_headers(self):
        if getattr(self, "_vary", False):
            self.send_header("Vary", "Accept-Encoding")
        super().end_headers()

    def _file_path(self) -> str | None:
        """The file a GET would send (index.html for a folder), or None when
        the base class must answer (a redirect, a listing, a 404)."""
        path = self.translate_path(self.path)
        if os.path.isdir(path):
            if not self.path.split("?", 1)[0].split("#", 1)[0].endswith("/"):
                return None
            path = os.path.join(path, "index.html")
        return path if os.path.isfile(path) and not path.endswith("/") else None

    @staticmethod
    def _copies(path: str) -> dict[str, str]:
        """The precompressed copies of the file at `path` by encoding: those no older
        than the file (one edited after the build is sent as it is now)."""
        try:
            mtime = os.stat(path).st_mtime_ns
        except OSError:
            return {}
        found = {}
        for coding, suffix in ENCODINGS.items():
            try:
                if os.stat(path + suffix).st_mtime_ns >= mtime:
                    found[coding] = path + suffix
            except OSError:
                pass
        return found

    def _not_modified_since(self, mtime: float) -> bool:
        if "If-Modified-Since" not in self.headers or "If-None-Match" in self.headers:
            return False
        try:
            since = email.utils.parsedate_to_datetime(self.headers["If-Modified-Since"])
        except (TypeError, IndexError, OverflowError, ValueError):
            return False
        return since.tzinfo is not None and int(mtime) <= since.timestamp()

    def log_request(self, code="-", size="-"):
        # Successful requests are noise (a boot makes a dozen); failures are worth seeing.
        if isinstance(code, int) and code >= 400:
            super().log_request(code, size)


class _SiteHTTPServer(ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        # A page that navigates away mid-download resets its connection: nothing went wrong here.
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)


class SiteServer:
    """Serve a folder on 127.0.0.1 from a background thread (with `handler`, a
    SiteHandler or a subclass: bench/wire.py's counts the bytes it sends).

    stop() and start() again keep the same port, so a page can be taken
    offline and back online under the same origin (service worker tests).
    """

    def __init__(self, root: Path, port: int = 0, host: str = "127.0.0.1", handler: type = SiteHandler):
        self.root, self.host, self.port, self.handler = Path(root), host, port, handler
        self._httpd: _SiteHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/"

    def start(self) -> SiteServer:
        handler = partial(self.handler, directory=str(self.root))
        self._httpd = _SiteHTTPServer((self.host, self.port), handler)
        self.port = self._httpd.server_port
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._thread.join()
            self._httpd = self._thread = None

    def __enter__(self) -> SiteServer:
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build (and serve) the Pishe Pasha static site.")
    parser.add_argument("--out", type=Path, default=DIST, help="where to build the site (default dist/)")
    sub = parser.add_subparsers(dest="command")
    serve = sub.add_parser("serve", help="build, then serve the site on 127.0.0.1")
    serve.add_argument("--port", type=int, default=8000, help="0 picks a free port (default 8000)")
    args = parser.parse_args(argv)
    try:
        info = build(args.out)
    except BuildError as err:
        print(f"build failed: {err}", file=sys.stderr)
        return 1
    print(f"built {args.out} (build {info['id']}, {len(info['files'])} files)", flush=True)
    if args.command == "serve":
        try:
            server = SiteServer(args.out, args.port).start()
        except OSError as err:
            print(f"cannot serve on port {args.port}: {err}", file=sys.stderr)
            return 1
        print(f"Play the computer at {server.url}", flush=True)
        try:
            threading.Event().wait()
        except KeyboardInterrupt:
            pass
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
