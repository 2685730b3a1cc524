"""Our scripts and style sheets, minified by esbuild (its WebAssembly package, pinned: run by
Node, programs/minify.mjs): half their bytes on the wire. With the environment variable
PISHE_NO_MINIFY=1 they ship as written, for debugging."""

from __future__ import annotations

import hashlib
import json
import shutil
import tarfile
import tempfile
from pathlib import Path

from sitebuild.common import cache_dir, program, run_node, sha256_file
from sitebuild.pins import ESBUILD_PIN, fetch_pinned, member_bytes

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
    runner = program("minify.mjs")
    cache = (cache or cache_dir()) / "minified"
    cache.mkdir(parents=True, exist_ok=True)
    jobs = []  # (file, options, its minified text in the cache)
    for rel in files:
        suffix = Path(rel).suffix
        options = {**_ESBUILD_OPTIONS[suffix], "sourcefile": rel}
        recipe = json.dumps([ESBUILD_PIN.sha256, runner, _ESBUILD_OPTIONS[suffix]], sort_keys=True)
        key = hashlib.sha256(f"{sha256_file(root / rel)}\0{recipe}".encode()).hexdigest()[:32]
        jobs.append((root / rel, options, cache / f"{key}{suffix}"))
    missing = [job for job in jobs if not job[2].exists()]
    if missing:
        with tempfile.TemporaryDirectory(dir=cache, prefix=".minify-") as folder:
            scratch = Path(folder)
            with tarfile.open(fetch_pinned(ESBUILD_PIN)) as tar:  # its files: package/...
                for member in tar.getmembers():
                    if member.isfile() and ".." not in member.name.split("/"):
                        target = scratch / "esbuild" / member.name
                        target.parent.mkdir(parents=True, exist_ok=True)
                        target.write_bytes(member_bytes(tar, member))
            (scratch / "minify.mjs").write_text(runner)
            (scratch / "jobs.json").write_text(json.dumps(
                [[str(source), str(scratch / cached.name), options] for source, options, cached in missing]))
            run_node(["node", str(scratch / "minify.mjs"), str(scratch / "esbuild" / "package" / "lib" / "main.js"),
                      str(scratch / "jobs.json")], "minify our scripts", "minifying our scripts with esbuild")
            for _, _, cached in missing:
                (scratch / cached.name).replace(cached)
    for source, _, cached in jobs:
        shutil.copyfile(cached, source)
