#!/usr/bin/env python3
"""Start-up benchmark of the page (prints figures; no test asserts a time).

    python bench/boot.py [--rounds N] [--first N] [--net loopback|slow] [--chromium PATH]

Builds the site into a temp dir, serves it together with bench/ and Pyodide as
its npm package ships it (bench/bare_site.py), and loads in headless Chromium,
in rounds of both pages (which goes first alternates):

  bare   bench/boot_bare.html: Pyodide as shipped (its whole standard library)
         in a module worker, up to its first Python call (the yardstick);
  table  index.html, until the table is playable (<body data-ready="true">).

First visits (--first pairs, default 5): each load in a new browser profile of
its own (nothing cached; the table's service worker at work as on a real first
visit), on this machine's loopback and again throttled to 9 Mbit/s down, 2 up,
170 ms of latency (DevTools' network emulation; --net picks one). A pair is one
load of each page back to back, which goes first alternating, so both meet much the
same load from the rest of the machine; printed per network: medians, and the
median of the pairs' ratios table/bare with their range (target <= 0.8).

First visits also print where the table's time goes: the medians of its start-up
milestones (MILESTONES), from navigation.

Printed: medians of the time from navigation to ready, the ratio table/bare
(target <= 1.0: the median of the per-round ratios, steadier on a busy machine
than the ratio of the medians, which is printed too), the table's first
contentful paint (target <= 300 ms), the longest main-thread stall during start-up (longest 'longtask' entry before
ready; none means under 50 ms; target <= 100 ms), and our own payload: every
file of dist/ but Pyodide, micropip and segno (the pishe wheel, our scripts, CSS,
index.html), as bytes on the wire from build.py's server, which sends text as
its .gz copy to a browser that accepts gzip (target <= 60 KB); the uncompressed
size for reference. (A first visit's whole download: bench/wire.py.)

Caching: one persistent browser profile, so the HTTP disk cache keeps Pyodide
between loads, as for a returning visitor. One unmeasured load of each page
fills it first; its time is printed as the cold figure. Service workers are
blocked so both pages are served the same way (from the HTTP cache). The
table's cold load also stores the snapshot of Python's memory that its warm
loads restore (web/core/worker.js), as a returning visitor's page does; the
bare page boots Pyodide every time.
Without index.html only the bare figures are printed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # machinery.py

import build  # noqa: E402
from bare_site import BARE_PAGE, served_folder  # noqa: E402  (bench/, this script's folder)
import machinery  # noqa: E402  (tests/machinery.py: the Chromium and relay the tests use)

FLAGS = machinery.CHROMIUM_QUIET_FLAGS + machinery.CHROMIUM_OFFLINE_FLAGS
READY = 'body[data-ready="true"]'
TIMEOUT_MS = 120_000

# Installed before any page script: records long main-thread tasks and the moment
# <body data-ready> turns "true" (a MutationObserver fires right after the change;
# polling from Python would add its own delay).
PROBE = """
window.__bench = { longtasks: [], readyAt: null };
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__bench.longtasks.push([e.startTime, e.duration]);
}).observe({ type: "longtask", buffered: true });
new MutationObserver(() => {
  if (window.__bench.readyAt === null && document.body && document.body.dataset.ready === "true") {
    window.__bench.readyAt = performance.now();
  }
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-ready"] });
"""

MEASURE = """() => {
  const b = window.__bench;
  const fcp = performance.getEntriesByName("first-contentful-paint")[0];
  const stalls = b.longtasks.filter(([start]) => start < b.readyAt).map(([, d]) => d);
  const boot = window.pishe ? window.pishe.boot : null;
  return { ready: b.readyAt, fcp: fcp ? fcp.startTime : null, stall: Math.max(0, ...stalls), boot };
}"""

#: The table's start-up milestones (web/core/worker.js, web/tables/computer.js), in order.
MILESTONES = {"start": "worker running", "runtime": "wasm compiled", "python": "Python started",
              "wheels": "wheel unpacked", "ready": "pishe imported", "table": "first deal painted"}


#: A first visit's slow network: 9 Mbit/s down, 2 up, 170 ms (bytes per second for DevTools).
SLOW = {"offline": False, "latency": 170, "downloadThroughput": 9e6 / 8, "uploadThroughput": 2e6 / 8}


def load(context, url: str, network: dict | None = None) -> dict:
    """Open url in a new page (on `network`'s conditions, if given), wait until it is
    ready, return its figures in ms."""
    page = context.new_page()
    try:
        if network:
            context.new_cdp_session(page).send("Network.emulateNetworkConditions", network)
        page.goto(url)
        page.wait_for_selector(READY, state="attached", timeout=TIMEOUT_MS)
        return page.evaluate(MEASURE)
    finally:
        page.close()


def payload(dist: Path, url: str) -> tuple[int, int]:
    """Raw bytes of what we ship besides Pyodide, micropip and segno, and the
    bytes of those files on the wire: the bodies the server sends to a browser
    that accepts gzip (the text files' .gz copies; wheels are zips already)."""
    ours = [p.relative_to(dist).as_posix() for p in sorted(dist.rglob("*")) if p.is_file()]
    ours = [rel for rel in ours if not rel.startswith("pyodide/")
            and not (rel.startswith("wheels/") and not rel.startswith("wheels/pishe-"))
            and not rel.endswith(tuple(build.ENCODINGS.values()))]  # the copies are sent in their files' place
    raw = sum((dist / rel).stat().st_size for rel in ours)
    wire = 0
    for rel in ours:
        request = urllib.request.Request(url + rel, headers={"Accept-Encoding": "gzip"})
        with urllib.request.urlopen(request) as response:
            wire += len(response.read())
    return raw, wire


def median(runs: list[dict], key: str) -> float:
    return statistics.median(r[key] for r in runs)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="measured warm loads of each page (default 5; 0: none)")
    parser.add_argument("--first", type=int, default=5, help="pairs of first visits, per network (default 5)")
    parser.add_argument("--net", choices=("loopback", "slow"), action="append",
                        help="first visits on this network only (repeatable; default both)")
    parser.add_argument("--chromium", default=machinery.CHROMIUM)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        dist = tmp / "dist"
        build.build(dist)
        # One origin for both pages: dist/ as it ships, bench/ and Pyodide as shipped beside it.
        served = served_folder(tmp, dist)
        pages = {"bare": BARE_PAGE}
        if (dist / "index.html").exists():
            pages["table"] = "index.html"

        runs: dict[str, list[dict]] = {name: [] for name in pages}
        networks = {"loopback": None, "slow": SLOW}
        networks = {net: networks[net] for net in args.net or networks}
        first: dict[str, dict[str, list[dict]]] = {net: {name: [] for name in pages} for net in networks}
        with build.SiteServer(served) as server, sync_playwright() as pw:
            raw, wire = payload(dist, server.url)
            for round_ in range(args.first):
                order = list(pages.items())
                for net, conditions in networks.items():
                    for name, path in order if round_ % 2 == 0 else order[::-1]:
                        profile = tempfile.mkdtemp(dir=tmp)
                        context = pw.chromium.launch_persistent_context(
                            profile, executable_path=args.chromium, headless=True, args=FLAGS)
                        context.add_init_script(PROBE)
                        try:
                            first[net][name].append(load(context, server.url + path, conditions))
                        finally:
                            context.close()
            if args.rounds:
                context = pw.chromium.launch_persistent_context(
                    tmp / "profile", executable_path=args.chromium, headless=True, args=FLAGS,
                    service_workers="block")
                context.add_init_script(PROBE)
                try:
                    cold = {name: load(context, server.url + path) for name, path in pages.items()}
                    for round_ in range(args.rounds):
                        # Every other round the other page goes first: neither always
                        # loads right after the other has warmed the caches.
                        order = list(pages.items())
                        for name, path in order if round_ % 2 == 0 else order[::-1]:
                            runs[name].append(load(context, server.url + path))
                finally:
                    context.close()

    if args.first:
        print(f"First visit, ms from navigation to ready, {args.first} pairs (alternating, a new profile each), "
              "medians:")
        for net, by_page in first.items():
            line = "   ".join(f"{name} {median(page_runs, 'ready'):6.0f}" for name, page_runs in by_page.items())
            if "table" in by_page:
                ratios = [t["ready"] / b["ready"] for t, b in zip(by_page["table"], by_page["bare"])]
                line += (f"   table/bare {statistics.median(ratios):.2f} (pairs {min(ratios):.2f}-{max(ratios):.2f}; "
                         f"target <= 0.8)")
            print(f"  {net:8s} {line}")
            if "table" in by_page:
                steps = "; ".join(f"{words} {statistics.median(r['boot'][key] for r in by_page['table']):.0f}"
                                  for key, words in MILESTONES.items())
                print(f"  {'':8s} the table's steps, ms from navigation (medians): {steps}")
    if args.rounds:
        warm(args.rounds, runs, cold)
    print(f"Our payload on the wire: {wire / 1024:.1f} KB, gzip as served by build.py "
          f"({raw / 1024:.1f} KB uncompressed)   (target <= 60 KB)")
    return 0


def warm(rounds: int, runs: dict[str, list[dict]], cold: dict[str, dict]) -> None:
    """Print the returning visits' figures."""
    print(f"Start-up, ms from navigation, {rounds} warm loads each (alternating), medians:")
    for name, page_runs in runs.items():
        all_ready = ", ".join(f"{r['ready']:.0f}" for r in page_runs)
        print(f"  {name:5s} ready {median(page_runs, 'ready'):6.0f}   (cold {cold[name]['ready']:.0f}; "
              f"runs {all_ready})")
    if "table" in runs:
        table, bare = runs["table"], runs["bare"]
        ratio = median(table, "ready") / median(bare, "ready")
        # Each round loads both pages back to back, under much the same load from
        # the rest of the machine: the median of these ratios is steadier.
        paired = statistics.median(t["ready"] / b["ready"] for t, b in zip(table, bare))
        fcps = [r["fcp"] for r in table if r["fcp"] is not None]
        fcp = f"{statistics.median(fcps):.0f} ms" if fcps else "not reported"
        print(f"  table/bare ratio     {paired:.2f}   (target <= 1.0; median of per-round ratios; "
              f"ratio of the medians {ratio:.2f})")
        print(f"  table first paint    {fcp}   (target <= 300 ms)")
        print(f"  table longest stall  {max(r['stall'] for r in table):.0f} ms (worst run; 0 = no task over "
              f"50 ms)   (target <= 100 ms)")


if __name__ == "__main__":
    sys.exit(main())
