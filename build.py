#!/usr/bin/env python3
"""Build the static site into dist/, or build it and serve it locally.

    python build.py [--out DIR]                   build dist/ (or DIR)
    python build.py [--out DIR] serve [--port N]  build it, then serve it on 127.0.0.1

Beside each text and wasm file the build writes precompressed copies, NAME.br
and NAME.gz (where they are smaller); the server sends one to a browser that
accepts it, as a static host set up for it does (README: "Hosting"). Any static
server can serve dist/ as it is: the copies are only ever an alternative body.
Our own scripts and style sheets ship minified by esbuild; with the environment
variable PISHE_NO_MINIFY=1 they ship as written, for debugging.

The build itself is the package sitebuild/, one job a module (its __init__ lists
them; sitebuild/site.py describes dist/ and the build info). This file is its command
line, and names what the tests and benchmarks reach as build.<name>.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from sitebuild.common import DIST, LOCK_NAME, ROOT, RUNTIME_FILES, BuildError, cache_dir
from sitebuild.compress import ENCODINGS, brotli_size, precompress
from sitebuild.friends import FRIENDS_ZIP, friends_scripts
from sitebuild.markup import game_markup
from sitebuild.pins import PINS, Pin, fetch_pinned, unpack_noble
from sitebuild.serve import SiteHandler, SiteServer, serve_forever
from sitebuild.site import build
from sitebuild.stdlib import STDLIB_FIRST, STDLIB_FIRST_BYTES, STDLIB_MICROPIP, STDLIB_REST, first_library, trace_stdlib
from sitebuild.wheel import write_stored_zip, write_wheel

__all__ = ["BuildError", "ENCODINGS", "FRIENDS_ZIP", "LOCK_NAME", "PINS", "Pin", "ROOT", "RUNTIME_FILES",
           "STDLIB_FIRST", "STDLIB_FIRST_BYTES", "STDLIB_MICROPIP", "STDLIB_REST", "SiteHandler", "SiteServer",
           "brotli_size", "build", "cache_dir", "fetch_pinned", "first_library", "friends_scripts", "game_markup",
           "main", "precompress", "trace_stdlib", "unpack_noble", "write_stored_zip", "write_wheel"]


def main(argv: list[str] | None = None) -> int:
    """The command line (see above): 0 once built (and served until interrupted), else 1."""
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
        return serve_forever(args.out, args.port)
    return 0


if __name__ == "__main__":
    sys.exit(main())
