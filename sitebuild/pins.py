"""What the build downloads, pinned: from npm and PyPI only, by their own clients (npm, pip),
each file verified by its sha256 after every download and on every cache hit; and what the
build takes out of them (Pyodide's runtime and lock, nostr-tools' bundle, noble's modules)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

from sitebuild.common import LOCK_NAME, RELATIVE_IMPORT, RUNTIME_FILES, BuildError, cache_dir, sha256_file


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


def npm_pin(package: str, version: str, sha256: str) -> Pin:
    """A package's tarball as `npm pack` names and fetches it (`@scope/name` -> `scope-name-…`)."""
    return Pin(f"{package.lstrip('@').replace('/', '-')}-{version}.tgz", sha256,
               ("npm", "pack", "--silent", f"{package}@{version}"))


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

#: Audited elliptic-curve arithmetic (ristretto255) for the no-peek deal and the hashes it
#: imports: web/core/group.js runs on it. The site ships the modules ed25519.js imports
#: (NOBLE_DIR), loaded by the worker when a friends' table opens, never on a first visit.
NOBLE_PINS = {
    "noble-curves": npm_pin("@noble/curves", "2.4.0",
                            "55279c71b0201d6c0e58d0206d15825359e02a3932f326ba7b7909ac2d334aa9"),
    "noble-hashes": npm_pin("@noble/hashes", "2.4.0",
                            "e1946149b780017b2564fcc092cb01c04e1d7f20627d0296c17da8868f4436dc"),
}
NOBLE_DIR = "vendor/noble"

#: esbuild as WebAssembly (one package, no platform binary), run by Node: it minifies our
#: own scripts and style sheets (sitebuild/minify.py), half their bytes on the wire. Pyodide's,
#: nostr-tools' and noble's files ship as their packages have them.
ESBUILD_PIN = npm_pin("esbuild-wasm", "0.28.2", "61594de12ce998652be2aa0ab72dda54bfa49407fb37ee3464468a2aac306baa")

# nostr-tools' self-contained browser bundle (an IIFE defining `var NostrTools`)
# and where the site serves it, turned into an ES module for web/tables/friend/relay.js.
NOSTR_BUNDLE = "package/lib/nostr.bundle.js"
NOSTR_MODULE = "vendor/nostr-tools.mjs"


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
                             f"the pin in sitebuild/pins.py says {pin.sha256}")
        fetched.replace(target)
    return target


def member_bytes(tar: tarfile.TarFile, member: str | tarfile.TarInfo) -> bytes:
    """The bytes of a file in a package's tarball; a BuildError names one that is not a file."""
    file = tar.extractfile(member)
    if file is None:
        raise BuildError(f"a pinned package's {getattr(member, 'name', member)} is not a file")
    with file:
        return file.read()


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
                source = member_bytes(tar, member).decode("utf-8")
                if folder == "curves":
                    up = "../" * (name.count("/") + 1)
                    source = _NOBLE_BARE.sub(lambda m: f"{m.group(1)}{m.group(2)}{up}hashes/", source)
                target = dest / folder / name
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(source, encoding="utf-8")
    return dest / "curves" / "ed25519.js"


def copy_noble(dest: Path, cache: Path | None = None) -> list[str]:
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
            todo += [(path.parent / m).resolve() for m in RELATIVE_IMPORT.findall(source)]
            target = dest / path.relative_to(root)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(source, encoding="utf-8")
    return sorted(f"{NOBLE_DIR}/{p.relative_to(dest).as_posix()}" for p in dest.rglob("*.js"))


def copy_nostr(tgz: Path, dest: Path) -> None:
    """Write nostr-tools' browser bundle from the npm tarball to `dest` as an ES
    module: its text unchanged, then `export default NostrTools;`. A module's
    top-level `var` is not a global, so the bundle as it is would import as nothing;
    the package's own ES modules import four other packages by bare name."""
    with tarfile.open(tgz) as tar:
        bundle = member_bytes(tar, NOSTR_BUNDLE)
    dest.parent.mkdir(parents=True, exist_ok=True)
    dest.write_bytes(bundle + b"\nexport default NostrTools;\n")


def copy_runtime(tgz: Path, dest: Path) -> dict:
    """Extract the runtime files from the npm tarball into `dest`; return the lock."""
    dest.mkdir(parents=True)
    with tarfile.open(tgz) as tar:
        for name in RUNTIME_FILES:
            source = tar.extractfile(f"package/{name}")
            if source is None:
                raise BuildError(f"{tgz.name} has no file package/{name}")
            with source, open(dest / name, "wb") as out:
                shutil.copyfileobj(source, out)
        return json.loads(member_bytes(tar, f"package/{LOCK_NAME}"))


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
                             "which is not pinned in sitebuild/pins.py")
        entry = dict(lock["packages"][name])
        if entry["file_name"] != shipped[name].name:
            raise BuildError(f"lock names {entry['file_name']} for {name}, we ship {shipped[name].name}")
        entry["sha256"] = sha256_file(shipped[name])
        packages[name] = entry
        todo.extend(entry["depends"])
    return {**lock, "packages": packages}
