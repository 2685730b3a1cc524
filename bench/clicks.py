#!/usr/bin/env python3
"""Click-to-repaint benchmark of the computer table (prints figures; not a test).

    python bench/clicks.py [--deals N] [--seed S] [--chromium PATH]

Builds the site into a temp dir, serves it, and plays N one-deal matches in
headless Chromium with ?delay=0&seed=S+i, clicking the buttons by their
accessible names (give when Give is enabled, else keep, else turn).

For each of your clicks the page itself measures, with performance.now():
  paint   from the click event (a capturing listener, before the page's own
          handler) to the end of paint() for the answer: the worker round trip,
          Python's act() and the repaint of the DOM;
  frame   from the click event to the next animation frame after that paint
          (when the browser can show it).
Printed: p50, p95 and max of both (target: p95 paint <= 16 ms), the time paint()
itself takes, and our own payload (index.html, web/*.js, web/*.css, sw.js and
the pishe wheel; raw and gzipped).

One more deal is then played by calling button.click() inside the page, which
skips the browser's input pipeline: after a real (discrete) input event Chromium
runs its next frame before other tasks, so the worker's answer waits for that
frame; the in-page figure is the cost of our own pipeline alone.
"""

from __future__ import annotations

import argparse
import gzip
import statistics
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # machinery.py

import build  # noqa: E402
import machinery  # noqa: E402  (tests/machinery.py: the Chromium and relay the tests use)

FLAGS = machinery.CHROMIUM_QUIET_FLAGS + machinery.CHROMIUM_OFFLINE_FLAGS
BUTTONS = {"turn": "Turn a card", "give": "Give", "keep": "Keep"}

# Installed before the page's scripts. A click on one of the move buttons starts
# a measurement; the next pishe:painted event (paint() dispatches it with its
# own start and end) ends it.
PROBE = """
window.__clicks = { open: null, paint: [], frame: [], paintOnly: [] };
document.addEventListener("click", (event) => {
  const b = event.target.closest && event.target.closest("[data-action], [data-next-deal]");
  if (b && b.getAttribute("aria-disabled") !== "true") window.__clicks.open = performance.now();
}, true);
document.addEventListener("pishe:painted", (event) => {
  const c = window.__clicks, t0 = c.open;
  c.paintOnly.push(event.detail.end - event.detail.start);
  if (t0 === null) return;
  c.open = null;
  c.paint.push(event.detail.end - t0);
  requestAnimationFrame(() => c.frame.push(performance.now() - t0));
});
"""

# Plays a deal inside the page with button.click(); returns click -> paint() end times.
IN_PAGE = """async () => {
  const table = document.querySelector("[data-pishe-table]");
  const idle = () => new Promise((resolve) => {
    const check = () => (document.body.dataset.idle === "true" ? resolve() : setTimeout(check, 1));
    check();
  });
  const times = [];
  for (;;) {
    await idle();
    await new Promise((resolve) => setTimeout(resolve, 20));
    if (!document.querySelector("[data-result]").hidden) return times;
    const button = ["give", "keep", "turn"].map((a) => document.querySelector(`[data-action="${a}"]`))
      .find((b) => b.getAttribute("aria-disabled") === "false");
    const painted = new Promise((resolve) =>
      table.addEventListener("pishe:painted", (e) => resolve(e.detail.end), { once: true }));
    const t0 = performance.now();
    button.click();
    times.push((await painted) - t0);
  }
}"""

STATE = """() => ({
  idle: document.body.dataset.idle === "true",
  over: !document.querySelector("[data-result]").hidden,
  enabled: [...document.querySelectorAll("[data-action]")]
    .filter((b) => b.getAttribute("aria-disabled") === "false").map((b) => b.dataset.action),
  paints: document.querySelector("[data-pishe-table]").dataset.paints,
})"""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def payload(dist: Path) -> list[tuple[str, int, int]]:
    """(name, raw bytes, gzipped bytes) of every file of ours in the build."""
    ours = [dist / "index.html", dist / "sw.js", *sorted(dist.glob("web/**/*.js")),
            *sorted(dist.glob("web/**/*.css")), *sorted(dist.glob("wheels/pishe-*.whl"))]
    return [(p.relative_to(dist).as_posix(), p.stat().st_size, len(gzip.compress(p.read_bytes(), 9)))
            for p in ours if p.exists()]


def play(page, url: str) -> int:
    """Play one deal to its end by clicking; return the number of clicks."""
    page.goto(url)
    page.wait_for_selector('body[data-ready="true"]', timeout=120_000)
    clicks = 0
    while True:
        page.wait_for_function("document.body.dataset.idle === 'true'", timeout=30_000)
        state = page.evaluate(STATE)
        if state["over"]:
            return clicks
        enabled = state["enabled"]
        action = "give" if "give" in enabled else "keep" if "keep" in enabled else "turn"
        page.get_by_role("button", name=BUTTONS[action], exact=True).click()
        page.wait_for_function(
            f"document.querySelector('[data-pishe-table]').dataset.paints !== '{state['paints']}'")
        clicks += 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=2, help="one-deal matches to play (default 2)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the first deal (default 1)")
    parser.add_argument("--chromium", default=machinery.CHROMIUM)
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory() as tmp:
        dist = Path(tmp) / "dist"
        build.build(dist)
        files = payload(dist)
        with build.SiteServer(dist) as server, sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=args.chromium, args=FLAGS)
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            page.add_init_script(PROBE)
            paint, frame, paint_only, clicks = [], [], [], 0
            for i in range(args.deals):
                clicks += play(page, f"{server.url}?delay=0&seed={args.seed + i}")
                page.wait_for_timeout(50)  # the last frame callback
                got = page.evaluate("window.__clicks")
                paint += got["paint"]
                frame += got["frame"]
                paint_only += got["paintOnly"]
            page.goto(f"{server.url}?delay=0&seed={args.seed + args.deals}")
            page.wait_for_selector('body[data-ready="true"]', timeout=120_000)
            in_page = page.evaluate(IN_PAGE)
            browser.close()

    print(f"Clicks: {clicks} over {args.deals} deal(s), ?delay=0")
    for label, values in (("click -> repainted view", paint), ("click -> next frame", frame),
                          ("paint() alone", paint_only), ("in-page click -> repaint", in_page)):
        print(f"  {label:<24} p50 {statistics.median(values):6.2f} ms   p95 {percentile(values, 0.95):6.2f} ms"
              f"   max {max(values):6.2f} ms   (n={len(values)})")
    print(f"  target: p95 click -> repainted view <= 16 ms: "
          f"{'met' if percentile(paint, 0.95) <= 16 else 'NOT met'}")
    raw = sum(r for _, r, _ in files)
    zipped = sum(z for _, _, z in files)
    print(f"Our payload: {raw / 1024:.1f} KB raw, {zipped / 1024:.1f} KB gzipped")
    for name, r, z in files:
        print(f"  {name:<40} {r / 1024:6.1f} KB  {z / 1024:5.1f} KB gz")
    return 0


if __name__ == "__main__":
    sys.exit(main())
