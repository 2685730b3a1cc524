#!/usr/bin/env python3
"""Repaint benchmark: how much of the page the browser paints again at each move (prints
figures; not a test).

    python bench/repaint.py [--moves N] [--rounds N] [--chromium PATH]

Builds the site into a temp dir, serves it, and plays N moves of Pishe Pasha against the
computer (?delay=0) in headless Chromium at a phone's size (390x844) and a desktop's
(1280x860), twice a round, in turn: the page as built, and the page with its glow as the
page's own background again (the look before the glow got a box of its own, web/style.css:
body::before). The moves are clicked inside the page (button.click(), the first enabled of
give, keep, turn), so that what is measured is the page's own work, not the driver's.

Measured from the browser's trace (software raster, as on these machines): the tiles
rastered a move and their raster time, and the renderer's CPU time a move (its main
thread, raster threads and compositor). Printed per size: the medians over the rounds of
each look, and their ratio built / before (below 1: the page as built paints less).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # machinery.py

import build  # noqa: E402
import machinery  # noqa: E402  (tests/machinery.py: the Chromium the tests use)

FLAGS = machinery.CHROMIUM_QUIET_FLAGS + machinery.CHROMIUM_OFFLINE_FLAGS
SIZES = {"390x844": (390, 844), "1280x860": (1280, 860)}
#: The page's background as it was: the glow sized to the whole page.
BEFORE = """body { background: radial-gradient(ellipse at 50% -10%, #1d4a33 0%, transparent 60%), var(--bg); }
body::before { content: none; }"""
CATEGORIES = ["cc", "toplevel", "disabled-by-default-devtools.timeline"]

# Plays `moves` moves inside the page, each once the page is idle again; returns how many.
IN_PAGE = """async (moves) => {
  const idle = () => new Promise((resolve) => {
    const check = () => (document.body.dataset.idle === "true" ? resolve() : setTimeout(check, 5));
    check();
  });
  let made = 0;
  while (made < moves) {
    await idle();
    if (!document.querySelector("[data-result]").hidden) break;
    const button = ["give", "keep", "turn"].map((a) => document.querySelector(`[data-action="${a}"]`))
      .find((b) => b && b.getAttribute("aria-disabled") === "false");
    if (!button) { await new Promise((resolve) => setTimeout(resolve, 5)); continue; }
    button.click();
    made += 1;
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
  await idle();
  await new Promise((resolve) => setTimeout(resolve, 300));  // the last arrivals' frames
  return made;
}"""


def measure(browser, url: str, size: tuple[int, int], css: str | None, moves: int, trace: Path) -> dict:
    """One page: `moves` moves traced; tiles, raster ms and renderer CPU ms a move."""
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector('body[data-ready="true"]', timeout=120_000)
    if css:
        page.add_style_tag(content=css)
    page.wait_for_timeout(500)
    browser.start_tracing(page=page, path=str(trace), categories=CATEGORIES)
    made = page.evaluate(IN_PAGE, moves)
    browser.stop_tracing()
    context.close()
    events = json.loads(trace.read_text())
    events = events["traceEvents"] if isinstance(events, dict) else events
    renderer = {e["pid"] for e in events if e.get("ph") == "M" and e.get("name") == "process_name"
                and e["args"].get("name") == "Renderer"}
    tiles = [e for e in events if e.get("name") == "RasterTask" and e.get("ph") == "X"]
    # The renderer's busy time: its threads' top-level tasks (thread time where known).
    busy = 0.0
    ends: dict = {}
    for e in sorted((e for e in events if e.get("ph") == "X" and e.get("pid") in renderer and "dur" in e),
                    key=lambda e: (e["tid"], e["ts"], -e["dur"])):
        if e["ts"] >= ends.get(e["tid"], -1):
            busy += e.get("tdur", e["dur"])
            ends[e["tid"]] = e["ts"] + e["dur"]
    return {"tiles": len(tiles) / made, "raster": sum(e.get("tdur", e["dur"]) for e in tiles) / 1000 / made,
            "cpu": busy / 1000 / made}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=30, help="moves a page (default 30)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of both looks at each size (default 3)")
    parser.add_argument("--chromium", default=machinery.CHROMIUM)
    args = parser.parse_args(argv)

    results: dict = {(size, look): [] for size in SIZES for look in ("built", "before")}
    with tempfile.TemporaryDirectory() as tmp:
        dist = Path(tmp) / "dist"
        build.build(dist)
        with build.SiteServer(dist) as server, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=args.chromium, args=FLAGS)
            for n in range(args.rounds):
                for size, wh in SIZES.items():
                    looks = ("built", "before") if n % 2 == 0 else ("before", "built")  # which first alternates
                    for look in looks:
                        url = f"{server.url}?delay=0&seed={n + 1}&game=pishe-pasha"
                        results[(size, look)].append(measure(browser, url, wh, BEFORE if look == "before" else None,
                                                             args.moves, Path(tmp) / "trace.json"))
            browser.close()

    print(f"Pishe Pasha against the computer, {args.moves} moves a page, {args.rounds} rounds; medians a move")
    for size in SIZES:
        print(f"  {size}:")
        for key, unit in (("tiles", "tiles rastered"), ("raster", "ms of raster"), ("cpu", "ms of renderer CPU")):
            built = statistics.median(r[key] for r in results[(size, "built")])
            before = statistics.median(r[key] for r in results[(size, "before")])
            print(f"    {unit:<20} built {built:7.1f}   before {before:7.1f}   ratio {built / before:5.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
