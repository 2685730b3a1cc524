"""The page's pishe wheel: its modules stripped of docstrings and comments, its catalogs moved to a
zip per language, and its modules (and micropip's) compiled to bytecode by Pyodide itself; and
how the build writes every zip it makes (stored entries, fixed times, UTF-8 names)."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import os
import tempfile
import tomllib
import zipfile
from pathlib import Path

import catalogs
from sitebuild.common import (LOCK_NAME, ROOT, RUNTIME_FILES, BuildError, cache_dir, program, run_node,
                              sha256_file)

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


def wheel_files(wheel: Path) -> dict[str, bytes]:
    """A wheel's files by name, but its RECORD (write_wheel writes it anew)."""
    with zipfile.ZipFile(wheel) as z:
        return {name: z.read(name) for name in z.namelist() if not name.endswith(".dist-info/RECORD")}


# How docstrings and comments are stripped (programs/strip.py): run here on pishe's modules, and
# in Pyodide on the standard library's (sitebuild/stdlib.py).
_STRIP: dict = {}
exec(program("strip.py"), _STRIP)


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


def page_sources() -> list[tuple[str, Path]]:
    """The page wheel's modules: (path in the wheel, source file), every module of the
    package but the command line (NOT_IN_PAGE_WHEEL)."""
    found = []
    for path in sorted((ROOT / "pishe").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if "__pycache__" not in rel and rel not in NOT_IN_PAGE_WHEEL:
            found.append((rel, path))
    return found


def build_pishe_wheel(out: Path) -> Path:
    """Build the page's pishe wheel into folder `out` and return its path.

    Every module of the package but the command line, with docstrings and
    comments stripped (the page never reads them; they are a third of the
    bytes), the compiled gettext catalogs (.mo, from the .po files by Babel:
    catalogs.py), and minimal metadata: name, version, Python requirement. The
    name and version are pyproject.toml's.
    """
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    name, version = project["name"], project["version"]
    files = {rel: strip_source(path.read_text(encoding="utf-8"), rel).encode() for rel, path in page_sources()}
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
    files = wheel_files(wheel)
    by_language: dict[str, dict[str, bytes]] = {}
    for name in [n for n in files if n.endswith(".mo")]:
        code = name.split("/")[-3]  # <package>/locale/<code>/LC_MESSAGES/<domain>.mo
        by_language.setdefault(code, {})[name] = files.pop(name)
    write_wheel(wheel, files)
    names = {}
    for code, compiled in sorted(by_language.items()):
        names[code] = f"{wheel.name.split('-')[0]}-{code}.zip"
        write_stored_zip(wheel.parent / names[code], compiled)
    return names


def compile_wheel(wheel: Path, runtime: Path, lock: dict, cache: Path | None = None) -> Path:
    """`wheel` with its modules as .pyc for the Pyodide runtime in folder
    `runtime` (pyodide.mjs and friends), compiled by that runtime under Node
    (programs/compile_wheel.mjs and .py).

    Kept in the cache, named after a hash of the inputs; a cached file that is
    not a sound zip is made again.
    """
    python, node = program("compile_wheel.py"), program("compile_wheel.mjs")
    key = hashlib.sha256("\0".join([sha256_file(wheel), sha256_file(runtime / "pyodide.asm.wasm"),
                                     sha256_file(runtime / "python_stdlib.zip"),
                                     python, node, WHEEL_ENTRIES]).encode()).hexdigest()[:16]
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
    with tempfile.TemporaryDirectory(dir=cache, prefix=".compile-") as folder:
        scratch = Path(folder)
        for name in RUNTIME_FILES:
            os.symlink(runtime / name, scratch / name)
        (scratch / "compile.mjs").write_text(node)
        (scratch / "compile.py").write_text(python)
        (scratch / LOCK_NAME).write_text(json.dumps({**lock, "packages": {}}))
        command = ["node", str(scratch / "compile.mjs"), str(scratch / LOCK_NAME), str(wheel),
                   str(scratch / "out.json"), str(scratch / "compile.py")]
        run_node(command, f"compile {wheel.name}", f"compiling {wheel.name} in Pyodide")
        files = {name: base64.b64decode(data)
                 for name, data in json.loads((scratch / "out.json").read_text()).items()}
        target.parent.mkdir(parents=True, exist_ok=True)
        write_wheel(scratch / wheel.name, files)
        (scratch / wheel.name).replace(target)
    return target
