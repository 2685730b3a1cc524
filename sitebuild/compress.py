"""Precompressed copies: beside each text and wasm file, NAME.br (brotli at its best quality,
by Node: programs/brotli.mjs) and NAME.gz (zopfli's when installed, else zlib's), where they
are smaller; a server sends one to a browser that accepts it (sitebuild/serve.py)."""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil
import tempfile
from pathlib import Path

from sitebuild.common import SETTINGS_FILES, cache_dir, program, run_node, sha256_file

# Precompressed copies, by the Content-Encoding they are sent with, best first.
ENCODINGS = {"br": ".br", "gzip": ".gz"}
# The files that get them: text, the wasm (9.6 MB, 3.5 MB as gzip), and the zips of
# stored entries the build writes (the standard library's, our wheels) or takes (segno's,
# deflated: its copies gain a little). Not the settings, because a host edits them in
# dist/, and a stale copy would be sent instead.
COMPRESSIBLE = (".html", ".js", ".mjs", ".css", ".json", ".webmanifest", ".svg", ".wasm", ".zip", ".whl",
                ".md", ".txt")

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


_BROTLI = program("brotli.mjs")
# How each encoding's copies are made: part of their cache key.
_RECIPES = {"br": _BROTLI, "gzip": "zopfli, 1 iteration" if _zopfli else "gzip.compress(data, 9, mtime=0)"}


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
        with tempfile.TemporaryDirectory(dir=cache, prefix=".compress-") as folder:
            scratch = Path(folder)
            brotli = []
            for source, cached in missing:
                if cached.suffix == ENCODINGS["gzip"]:
                    (scratch / cached.name).write_bytes(_gzip(source.read_bytes()))
                else:
                    brotli.append([str(source), str(scratch / cached.name)])
            if brotli:
                (scratch / "brotli.mjs").write_text(_BROTLI)
                (scratch / "pairs.json").write_text(json.dumps(brotli))
                run_node(["node", str(scratch / "brotli.mjs"), str(scratch / "pairs.json")],
                         "compress with brotli", "brotli compression in Node")
            for _, cached in missing:
                (scratch / cached.name).replace(cached)
    return copies
