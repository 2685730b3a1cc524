#!/usr/bin/env python3
"""Build the static site into dist/, or build it and serve it locally.

    python build.py                   build dist/
    python build.py serve [--port N]  build dist/, then serve it on 127.0.0.1

Standard library only; pip and npm are used as command-line tools. Everything
downloaded is pinned by sha256 below, kept in a cache outside the repository
(~/.cache/pishe, or $PISHE_CACHE) and verified after every download and on
every cache hit.

dist/ layout:
    index.html            the table page (skipped while the repo has none)
    sw.js                 service worker, at the root so its scope is the whole site
    web/...               everything else under web/
    pyodide/              Pyodide runtime, trimmed pyodide-lock.json, micropip wheel
    wheels/               the pishe wheel and the segno wheel

The placeholder __PISHE_BUILD__ in our JavaScript files is replaced by the build
info, a JSON object literal: {"id": ..., "wheels": {...}, "files": [...]}.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import threading
from dataclasses import dataclass
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parent
DIST = ROOT / "dist"
BUILD_TOKEN = "__PISHE_BUILD__"

# Files of the npm package we ship; the rest (pyodide.js, console pages, source
# maps, type declarations) is not needed by a module worker.
RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
LOCK_NAME = "pyodide-lock.json"


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
    # Pure-Python QR codes (for invite links).
    "segno": Pin("segno-1.6.6-py3-none-any.whl",
                 "28c7d081ed0cf935e0411293a465efd4d500704072cdb039778a2ab8736190c7",
                 _pip_download("segno==1.6.6")),
}


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


def build_pishe_wheel(out: Path) -> Path:
    """Build the pishe wheel into folder `out` from a clean copy of the package.

    Building in the repository would reuse setuptools' build/ folder, which keeps
    modules that have since been deleted and ships them in the wheel.
    """
    src = out / "src"
    shutil.copytree(ROOT / "pishe", src / "pishe", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    for name in ("pyproject.toml", "README.md", "setup.cfg", "MANIFEST.in", "LICENSE"):
        if (ROOT / name).exists():
            shutil.copy2(ROOT / name, src / name)
    result = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(out), str(src)],
        capture_output=True, text=True)
    wheels = list(out.glob("pishe-*.whl"))
    if result.returncode != 0 or len(wheels) != 1:
        raise BuildError(f"pip wheel failed for {ROOT}:\n{result.stdout}{result.stderr}")
    return wheels[0]


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


def _copy_web(stage: Path) -> None:
    """Copy index.html (when there is one) and web/ into the staging folder."""
    if (ROOT / "index.html").exists():
        shutil.copy2(ROOT / "index.html", stage / "index.html")
    web = ROOT / "web"
    for src in sorted(web.rglob("*")):
        rel = src.relative_to(web)
        if src.is_dir() or any(part.startswith(".") or part == "__pycache__" for part in rel.parts):
            continue
        # sw.js goes to the root: a service worker only controls pages at or below its own URL.
        dst = stage / "sw.js" if rel == Path("sw.js") else stage / "web" / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dst)


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
        lock = _copy_runtime(pinned["pyodide"], stage / "pyodide")
        micropip = stage / "pyodide" / pinned["micropip"].name
        shutil.copy2(pinned["micropip"], micropip)
        (stage / "pyodide" / LOCK_NAME).write_text(
            json.dumps(trimmed_lock(lock, {"micropip": micropip}), indent=1) + "\n")
        (stage / "wheels").mkdir()
        with tempfile.TemporaryDirectory() as scratch:
            pishe = build_pishe_wheel(Path(scratch))
            shutil.copy2(pishe, stage / "wheels" / pishe.name)
        shutil.copy2(pinned["segno"], stage / "wheels" / pinned["segno"].name)

        files = sorted(p.relative_to(stage).as_posix() for p in stage.rglob("*") if p.is_file())
        info = {
            "id": _content_id(stage, files),
            "wheels": {"pishe": f"wheels/{pishe.name}", "segno": f"wheels/{pinned['segno'].name}"},
            "files": files,
        }
        literal = json.dumps(info)
        # Only our own scripts carry the placeholder; Pyodide's files are left byte-identical.
        for rel in files:
            if rel == "sw.js" or (rel.startswith("web/") and rel.endswith((".js", ".mjs"))):
                path = stage / rel
                path.write_text(path.read_text(encoding="utf-8").replace(BUILD_TOKEN, literal),
                                encoding="utf-8")
        if dist.exists():
            shutil.rmtree(dist)
        stage.rename(dist)
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise
    return info


class SiteHandler(SimpleHTTPRequestHandler):
    """Static files with the MIME types the browser insists on, and a quiet log."""

    # Without application/wasm, loadPyodide hangs; module scripts need a JavaScript type.
    extensions_map = {
        **SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".js": "text/javascript",
        ".mjs": "text/javascript",
        ".json": "application/json",
        ".whl": "application/zip",
    }

    def log_request(self, code="-", size="-"):
        # Successful requests are noise (a boot makes a dozen); failures are worth seeing.
        if isinstance(code, int) and code >= 400:
            super().log_request(code, size)


class SiteServer:
    """Serve a folder on 127.0.0.1 from a background thread.

    stop() and start() again keep the same port, so a page can be taken
    offline and back online under the same origin (service worker tests).
    """

    def __init__(self, root: Path, port: int = 0, host: str = "127.0.0.1"):
        self.root, self.host, self.port = Path(root), host, port
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/"

    def start(self) -> SiteServer:
        handler = partial(SiteHandler, directory=str(self.root))
        self._httpd = ThreadingHTTPServer((self.host, self.port), handler)
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
    sub = parser.add_subparsers(dest="command")
    serve = sub.add_parser("serve", help="build, then serve dist/ on 127.0.0.1")
    serve.add_argument("--port", type=int, default=8000, help="0 picks a free port (default 8000)")
    args = parser.parse_args(argv)
    try:
        info = build()
    except BuildError as err:
        print(f"build failed: {err}", file=sys.stderr)
        return 1
    print(f"built {DIST} (build {info['id']}, {len(info['files'])} files)")
    if args.command == "serve":
        with SiteServer(DIST, args.port) as server:
            print(f"Play the computer at {server.url}", flush=True)
            try:
                threading.Event().wait()
            except KeyboardInterrupt:
                pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
