#!/usr/bin/env python3
"""Bytes on the wire of a first visit, measured (prints figures; not a test).

    python bench/wire.py [--chromium PATH]

Builds the site into a temp dir and serves it with build.py's server, which
counts the bytes of every body it sends. A first visit: a headless Chromium
with a new profile opens index.html and waits until the table is playable and the
service worker, which downloads the rest of the site for offline play, controls
the page. Three visits, each in a browser of its own (nothing cached), the
server answering each as if the browser's Accept-Encoding were:

  as sent     Chromium's own ("gzip, deflate, br, zstd": the .br copies; target:
              a first visit <= 3.5 MB),
  gzip        "gzip" (the .gz copies; target: a first visit <= 6.5 MB),
  none        "identity" (every file as it is, as a host that compresses nothing).

Beside each, in the same run and the same way, the yardstick: a bare Pyodide page
(bench/boot_bare.html, Pyodide as its npm package ships it: bench/bare_site.py),
until Python has answered its first call.

Printed: each visit's total in MB (10^6 bytes) and its ratio to the plain
visit's, and its largest bodies. Headers are not counted (some 30 requests of a
few hundred bytes).
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # machinery.py

import build  # noqa: E402
from bare_site import BARE_PAGE, served_folder  # noqa: E402  (bench/, this script's folder)
import machinery  # noqa: E402  (tests/machinery.py: the Chromium and relay the tests use)

FLAGS = machinery.CHROMIUM_QUIET_FLAGS + machinery.CHROMIUM_OFFLINE_FLAGS
TIMEOUT_MS = 180_000
#: The Accept-Encoding each visit is answered as if it had sent (None: the browser's own).
VISITS = {"as sent": None, "gzip": "gzip", "none": "identity"}


def counting_handler(accept: str | None) -> type:
    """A build.SiteHandler class that adds the body bytes it sends, by path, to its
    `sent` dict, answering as if the request's Accept-Encoding were `accept`
    (None: as sent)."""
    lock = threading.Lock()

    class Counting(build.SiteHandler):
        sent: dict[str, int] = {}

        def send_head(self):
            if accept is not None:
                del self.headers["Accept-Encoding"]
                self.headers["Accept-Encoding"] = accept
            return super().send_head()

        def copyfile(self, source, outputfile):
            path = self.path.split("?", 1)[0]
            while chunk := source.read(1 << 16):
                outputfile.write(chunk)
                with lock:
                    self.sent[path] = self.sent.get(path, 0) + len(chunk)

    return Counting


def first_visit(pw, chromium: str, served: Path, accept: str | None, page_path: str = "") -> dict[str, int]:
    """Body bytes sent by path for one first visit of `page_path` (see the module's docstring)."""
    handler = counting_handler(accept)
    with build.SiteServer(served, handler=handler) as server:
        # A new profile on disk, as a browser's: an in-memory (incognito) cache keeps no
        # entry over an eighth of its size, and would fetch the plain 9.6 MB wasm twice.
        with tempfile.TemporaryDirectory() as profile:
            context = pw.chromium.launch_persistent_context(profile, executable_path=chromium, headless=True,
                                                            args=FLAGS)
            try:
                page = context.new_page()
                page.goto(server.url + page_path)
                page.wait_for_selector('body[data-ready="true"]', state="attached", timeout=TIMEOUT_MS)
                if page_path != BARE_PAGE:
                    # The service worker has fetched every file it keeps once it controls the page.
                    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=TIMEOUT_MS)
            finally:
                context.close()
    return dict(handler.sent)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chromium", default=machinery.CHROMIUM)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        dist = Path(tmp) / "dist"
        build.build(dist)
        served = served_folder(Path(tmp), dist)
        with sync_playwright() as pw:
            sent = {name: first_visit(pw, args.chromium, served, accept) for name, accept in VISITS.items()}
            bare = {name: first_visit(pw, args.chromium, served, accept, BARE_PAGE) for name, accept in VISITS.items()}
    plain = sum(sent["none"].values())
    print("First visit (playable, and kept offline by the service worker), body bytes sent by build.py's server,"
          " and a bare Pyodide page's (up to its first Python call):")
    for name, by_path in sent.items():
        total = sum(by_path.values())
        largest = ", ".join(f"{path.rsplit('/', 1)[-1]} {size / 1e6:.2f}"
                            for path, size in sorted(by_path.items(), key=lambda item: -item[1])[:4])
        print(f"  {name:8s} {total / 1e6:6.3f} MB  ({total / 2**20:.2f} MiB; ratio to none {total / plain:.2f};"
              f" {len(by_path)} files; largest: {largest})")
        yardstick = sum(bare[name].values())
        print(f"  {'':8s} bare {yardstick / 1e6:6.2f} MB   table/bare {total / yardstick:.2f}")
    print("  target: as sent <= 3.5 MB; gzip <= 6.5 MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
