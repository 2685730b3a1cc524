#!/usr/bin/env python3
"""What the no-peek deal's arithmetic (mental poker on ristretto255) costs in a browser
worker, beside today's deal.

    python bench/mental_poker.py [--rounds N] [--chromium PATH]

Prints figures; no test asserts a time. The arithmetic alone, as a browser runs it
(docs/PROTOCOL.md, "No-peek dealing"); bench/nopeek.py times the protocol itself, whole
deals of pishe.table.nopeek_seat in Pyodide. @noble/curves (pinned and sha256-checked in build.py's NOBLE_PINS, as the
site's nostr-tools is) runs in a module worker in headless Chromium, as the page's
own worker runs, on the 52 cards of a deck, each a ristretto255 point:

  shuffle+lock  one seat's share of the dealing: read the 52 points it is sent,
                lock them all with one secret scalar and shuffle them (52 scalar
                multiplications, Fisher-Yates from crypto.getRandomValues), then, in
                the second round, swap that lock for one key per card (52 more:
                each point times e^-1 * k_i); with the points' decoding and encoding;
  deck ready    four seats in turn, both rounds: a four-seat Pişti deck, all the
                arithmetic done one seat after another as the messages would go;
  open a card   the other seats' keys taken off one card (three multiplications);
  end check     one page's replay of every seat's two rounds from their revealed
                keys (what "each page re-checks every shuffle and lock" costs);
  today         the commit-and-reveal deck (removed since): one shuffle from a seed and three parts (SHA-256 in
                counter mode, Fisher-Yates), the JavaScript of docs/PROTOCOL.md in
                the same worker, and Python's in this process for reference.

Medians over the rounds, and the ratios to today's deck measured in the same run.
Targets (issue 20): shuffle+lock <= 1 s a seat, a four-seat deck ready <= 3 s,
the end check <= 1 s a page.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # machinery.py

import build  # noqa: E402
import machinery  # noqa: E402  (tests/machinery.py: the Chromium the tests use)
from pishe.cards import DECK  # noqa: E402
from pishe.table.fair import shuffled  # noqa: E402

FLAGS = machinery.CHROMIUM_QUIET_FLAGS + machinery.CHROMIUM_OFFLINE_FLAGS

WORKER = r"""
import { ristretto255, ristretto255_hasher } from "./curves/ed25519.js";

const Point = ristretto255.Point;
const Fn = Point.Fn;
const text = new TextEncoder();

function scalar() {
  // 64 random bytes reduced mod the group order: uniform enough, never zero in practice.
  const bytes = crypto.getRandomValues(new Uint8Array(64));
  let x = 0n;
  for (const b of bytes) x = (x << 8n) | BigInt(b);
  return Fn.create(x) || 1n;
}

function shuffle(items) {
  for (let i = items.length - 1; i > 0; i--) {
    const j = crypto.getRandomValues(new Uint32Array(1))[0] % (i + 1);   // bias < 2^-25: a bench
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

// One seat's first round: lock every card with one key and shuffle.
function lockAndShuffle(deck, e) {
  return shuffle(deck.map((bytes) => Point.fromBytes(bytes).multiply(e).toBytes()));
}

// One seat's second round: its one key swapped for one key per card.
function lockEach(deck, e, keys) {
  const inverse = Fn.inv(e);
  return deck.map((bytes, i) => Point.fromBytes(bytes).multiply(Fn.mul(inverse, keys[i])).toBytes());
}

const SUITS = ["C", "D", "H", "S"];
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
async function sha256(t) { return new Uint8Array(await crypto.subtle.digest("SHA-256", text.encode(t))); }
async function deriveDeck(seed, contributions, game) {
  const prefix = game + ":deck:v1:" + seed + contributions.map((c) => ":" + c).join("") + ":";
  let counter = 0, block = new Uint8Array(0), at = 0;
  async function next() {
    if (at === block.length) { block = await sha256(prefix + counter++); at = 0; }
    const u = ((block[at] << 24) | (block[at + 1] << 16) | (block[at + 2] << 8) | block[at + 3]) >>> 0;
    at += 4;
    return u;
  }
  const deck = SUITS.flatMap((suit) => RANKS.map((rank) => rank + suit));
  for (let i = deck.length - 1; i > 0; i--) {
    const n = i + 1, limit = 2 ** 32 - (2 ** 32 % n);
    let u = await next();
    while (u >= limit) u = await next();
    const j = u % n;
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck;
}

function ms(f) { const t = performance.now(); const r = f(); return [performance.now() - t, r]; }

self.onmessage = async () => {
  const cards = SUITS.flatMap((suit) => RANKS.map((rank) => rank + suit));
  const [encode, plain] = ms(() => cards.map((c) => ristretto255_hasher.hashToCurve(text.encode("pisti:card:v1:" + c)).toBytes()));
  const seats = [0, 1, 2, 3].map(() => ({ e: scalar(), keys: cards.map(() => scalar()) }));
  let deck = plain;
  const first = [], second = [];
  for (const seat of seats) { const [t, d] = ms(() => lockAndShuffle(deck, seat.e)); first.push(t); deck = d; }
  for (const seat of seats) { const [t, d] = ms(() => lockEach(deck, seat.e, seat.keys)); second.push(t); deck = d; }
  // Opening card 0 for seat 0: the three other seats take their keys off it.
  const [open] = ms(() => {
    let p = Point.fromBytes(deck[0]);
    for (const seat of seats.slice(1)) p = p.multiply(Fn.inv(seat.keys[0]));
    return p;
  });
  // The end-of-deal check: one page redoes every seat's two rounds from the revealed keys
  // (the shuffles' permutations come with them: here the same arithmetic without shuffling).
  const [check] = ms(() => {
    let d = plain;
    for (const seat of seats) d = d.map((b) => Point.fromBytes(b).multiply(seat.e).toBytes());
    for (const seat of seats) d = d.map((b, i) => Point.fromBytes(b).multiply(Fn.mul(Fn.inv(seat.e), seat.keys[i])).toBytes());
    return d;
  });
  const t = performance.now();
  await deriveDeck("00".repeat(32), ["11".repeat(32), "22".repeat(32), "33".repeat(32)], "pisti");
  const today = performance.now() - t;
  self.postMessage({ encode, first, second, open, check, today });
};
"""

PAGE = """<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>bench</title>
<script type="module">
window.run = () => new Promise((resolve) => {
  const worker = new Worker("worker.mjs", { type: "module" });
  worker.onmessage = (event) => { resolve(event.data); worker.terminate(); };
  worker.onerror = (event) => resolve({ error: String(event.message) });
  worker.postMessage(null);
});
</script>"""

def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--chromium", default=machinery.CHROMIUM)
    args = parser.parse_args()
    runs = []
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        build.unpack_noble(root)
        (root / "worker.mjs").write_text(WORKER, encoding="utf-8")
        (root / "index.html").write_text(PAGE, encoding="utf-8")
        with build.SiteServer(root) as server, sync_playwright() as p:
            browser = p.chromium.launch(executable_path=args.chromium, args=FLAGS)
            page = browser.new_page()
            page.goto(server.url + "index.html")
            for _ in range(args.rounds):
                result = page.evaluate("window.run()")
                if "error" in result:
                    raise SystemExit(f"the worker failed: {result['error']}")
                started = time.perf_counter()
                # The commit-and-reveal deal's deck (removed since): one SHA-256 shuffle.
                shuffled(DECK, "pisti:deck:v1:" + "0" * 64 + ":" + "1" * 64 + ":" + "2" * 64 + ":" + "3" * 64 + ":")
                result["python_today"] = (time.perf_counter() - started) * 1000
                runs.append(result)
            browser.close()

    def median(key, pick=lambda v: v):
        return statistics.median(pick(r[key]) for r in runs)

    per_seat = statistics.median(f + s for r in runs for f, s in zip(r["first"], r["second"]))
    ready = median("first", sum) + median("second", sum)
    today = median("today")
    print(f"no-peek dealing on ristretto255 (@noble/curves 2.4.0, a module worker in Chromium), "
          f"medians of {len(runs)} runs, ms:")
    print(json.dumps({
        "cards as points (once)": round(median("encode"), 1),
        "shuffle+lock, one seat": round(per_seat, 1),
        "four-seat deck ready (arithmetic only)": round(ready, 1),
        "open a card (3 keys off)": round(median("open"), 2),
        "end-of-deal check, one page": round(median("check"), 1),
        "today's deck (JS, same worker)": round(today, 2),
        "today's deck (CPython, this process)": round(median("python_today"), 2),
    }, indent=1))
    ratios = {"shuffle+lock a seat": per_seat, "deck ready": ready, "end check": median("check")}
    print("ratios to today's deck (JS): " + ", ".join(f"{k} {v / today:.0f}x" for k, v in ratios.items()))
    print("targets: shuffle+lock <= 1000 ms a seat, deck ready <= 3000 ms, end check <= 1000 ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
