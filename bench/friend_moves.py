#!/usr/bin/env python3
"""Where a Pishe Pasha friends' move goes, in the real pages (prints figures; not a test).

    python bench/friend_moves.py [--deals N] [--dist DIR] [--chromium PATH] [--moves]

Plays whole one-deal matches of Pishe Pasha between two real pages, driven exactly as
tests/test_friend.py drives them (its Table: in-page clicks on the buttons, its wait for
both boards), and timestamps, in both pages and both workers, on one clock (the epoch,
performance.timeOrigin + now()): the click, each worker call and its answer, each
message a worker's channel receives and sends, each paint and each change of the
page's idle flag. Nothing is added to the product: a tap (an init script, like the
test's wire tap) wraps the pages' Worker and the workers' channels.

Each move is split by who it waits on, one after the other:
  click -> call     the clicking page, from the click to its call to its worker
  mover's Python    its worker, from the call to its move leaving on the channel (np-act)
  answer -> painted its worker's answer built, then the page's paint
  to the other page the wire and the other worker's queue (host message sent -> received)
  other's Python    the other worker, from the move received to its last reply sent
                    (a turned card: its key for it)
  key back          wire again (reply sent -> received by the mover's worker)
  mover unlock      the mover's worker takes the key in, until its page has painted the
                    card with the next moves
  test's wait       from the last paint (and idle) of both pages to the test's next click

A turned card of a stock (Pishe Pasha) needs the other page's key: "turn" moves are
shown apart from the others (give, keep: the card travels with the move).
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
sys.path.insert(0, str(ROOT / "tests"))

import build  # noqa: E402
import machinery  # noqa: E402
from test_friend import TAP_WORKERS, Table, persistent_profiles  # noqa: E402

# The workers' half: posts [epoch ms, "worker", kind, detail] for each channel message
# received and sent, each call taken from the page and each answer posted to it.
WORKER_TIMING = r"""
const now = () => performance.timeOrigin + performance.now();
const post = self.postMessage.bind(self);
const rec = (kind, detail) => post({ __timing: [now(), "worker", kind, detail] });
const describe = (text) => {
  try {
    const m = JSON.parse(text);
    const inner = m.message || {};
    return [m.type, inner.type || null, inner.action || null, (inner.shares || []).length];
  } catch { return ["?", null, null, 0]; }
};
self.postMessage = (data, ...rest) => {
  if (data && typeof data === "object" && ("result" in data || "error" in data)) {
    rec("answer", data.id !== undefined ? "call" : "link");
  }
  return post(data, ...rest);
};
self.addEventListener("message", (event) => {
  const data = event.data;
  if (data && typeof data === "object" && typeof data.call === "string") rec("call", data.call);
  const channel = data && typeof data === "object" && Object.values(data).find((v) => v instanceof RTCDataChannel);
  if (channel) {
    channel.addEventListener("message", (e) => rec("received", describe(e.data)));
    const send = channel.send.bind(channel);
    channel.send = (text) => { rec("sent", describe(text)); return send(text); };
  }
});
"""

# The pages' half: taps the workers (after the test's wire tap: it wraps that one) and
# records clicks, calls, answers, paints and the idle flag in window.__timing.
PAGE_TIMING = """((workerTap) => {
  const now = () => performance.timeOrigin + performance.now();
  const log = (window.__timing = []);
  const rec = (kind, detail) => log.push([now(), "page", kind, detail]);
  (""" + TAP_WORKERS + """)(workerTap, (worker) => {
    worker.addEventListener("message", (event) => {
      const data = event.data;
      if (data && data.__timing) {
        event.stopImmediatePropagation();
        log.push(data.__timing);
      } else if (data && typeof data === "object" && ("result" in data || "error" in data)) {
        rec("answer", data.id !== undefined ? "call" : "link");
      }
    });
    const post = worker.postMessage.bind(worker);
    worker.postMessage = (data, ...rest) => {
      if (data && typeof data.call === "string") rec("call", data.call);
      return post(data, ...rest);
    };
  });
  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("[data-action]");
    if (button) rec("click", button.dataset.action);
  }, true);
  document.addEventListener("pishe:painted", (event) => {
    log.push([performance.timeOrigin + event.detail.start, "page", "paint-start", null]);
    log.push([performance.timeOrigin + event.detail.end, "page", "painted", null]);
  }, true);
  new MutationObserver((records) => {
    for (const r of records) if (r.attributeName === "data-idle") rec("idle", r.target.dataset.idle);
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-idle"] });
})(""" + json.dumps(WORKER_TIMING) + ");"


def median(values):
    return statistics.median(values) if values else float("nan")


def line(label, values):
    if not values:
        return f"  {label:<28} (none)"
    ordered = sorted(values)
    return (f"  {label:<28} p50 {median(values):7.1f} ms  p90 {ordered[int(0.9 * (len(ordered) - 1))]:7.1f} ms"
            f"  total {sum(values) / 1000:6.2f} s  (n={len(values)})")


def split_moves(events: list) -> list:
    """Each move's segments (ms), from one deal's merged events [t, side, src, kind, detail]
    sorted by time; side 0 is the host's page, 1 the guest's."""
    clicks = [i for i, e in enumerate(events) if e[2] == "page" and e[3] == "click"]
    moves = []
    for n, i in enumerate(clicks):
        end = clicks[n + 1] if n + 1 < len(clicks) else len(events)
        span = events[i:end]
        t0, mover, action = span[0][0], span[0][1], span[0][4]
        other = 1 - mover

        def first(side, src, kind, test=lambda d: True, after=t0):
            return next((e[0] for e in span if e[1] == side and e[2] == src and e[3] == kind
                         and e[0] >= after and test(e[4])), None)

        def last(side, src, kind, test=lambda d: True):
            found = [e[0] for e in span if e[1] == side and e[2] == src and e[3] == kind and test(e[4])]
            return found[-1] if found else None

        call = first(mover, "page", "call")
        act = first(mover, "worker", "sent", lambda d: d[1] == "np-act")
        answered = first(mover, "worker", "answer", lambda d: True, act or t0)
        painted_first = first(mover, "page", "painted", after=answered or t0)
        got = first(other, "worker", "received", lambda d: d[1] == "np-act")
        other_sent = last(other, "worker", "sent", lambda d: d[0] == "np")
        key_in = (first(mover, "worker", "received", lambda d: d[1] == "np-keys", other_sent or t0)
                  if other_sent else None)
        painted = [last(s, "page", "painted") for s in (0, 1)]
        idle = [last(s, "page", "idle", lambda d: d == "true") for s in (0, 1)]
        settled = max(t for t in painted + idle if t is not None)
        next_click = events[end][0] if end < len(events) else None
        seg = {"action": action, "mover": mover,
               "click -> call": call and call - t0,
               "mover's Python": act and call and act - call,
               "answer -> painted": painted_first and act and painted_first - act,
               "to the other page": got and act and got - act,
               "other's Python": other_sent and got and other_sent - got,
               "key back": key_in and other_sent and key_in - other_sent,
               "mover unlock": key_in and painted[mover] and painted[mover] - key_in,
               "whole move": settled - t0,
               "test's wait": next_click and next_click - settled,
               "other sends": sum(1 for e in span if e[1] == other and e[2] == "worker" and e[3] == "sent"),
               "calls": [(e[1], e[4]) for e in span if e[2] == "page" and e[3] == "call"],
               "paints": [sum(1 for e in span if e[1] == s and e[3] == "painted") for s in (0, 1)]}
        moves.append(seg)
    return moves


def worker_calls(events: list) -> dict:
    """Each worker's Python calls, ``{(side, name): [ms, …]}``: a call from its page (call ->
    answer), or a channel message taken in (received -> answer, by the message's type), and
    each page's paints as ``(side, "paint")``."""
    out, open_calls = {}, {0: [], 1: []}
    for t, side, src, kind, detail in events:
        if src == "worker" and kind == "call":
            open_calls[side].append((t, detail))
        elif src == "worker" and kind == "received":
            open_calls[side].append((t, "receive " + (detail[1] or detail[0])))
        elif src == "worker" and kind == "answer" and open_calls[side]:
            start, name = open_calls[side].pop(0)
            out.setdefault((side, name), []).append(t - start)
    for side in (0, 1):
        starts = [e[0] for e in events if e[1] == side and e[3] == "paint-start"]
        ends = [e[0] for e in events if e[1] == side and e[3] == "painted"]
        out[(side, "paint")] = [b - a for a, b in zip(starts, ends)]
    return out


def hops(events: list) -> tuple:
    """Each channel message's time on the way (sent by one worker -> received by the other),
    and the part of it the receiving worker spent busy with an earlier call (ms lists)."""
    busy = {0: [], 1: []}           # (start, end) of each worker's calls
    starts = {0: [], 1: []}
    for t, side, src, kind, _detail in events:
        if src == "worker" and kind in ("call", "received"):
            starts[side].append(t)
        elif src == "worker" and kind == "answer" and starts[side]:
            busy[side].append((starts[side].pop(0), t))
    ways, waits = [], []
    pending = {0: [], 1: []}        # sent, not yet received, by the receiving side
    for t, side, src, kind, _detail in events:
        if src == "worker" and kind == "sent":
            pending[1 - side].append(t)
        elif src == "worker" and kind == "received" and pending[side]:
            sent = pending[side].pop(0)
            ways.append(t - sent)
            waits.append(sum(max(0.0, min(b, t) - max(a, sent)) for a, b in busy[side]))
    return ways, waits


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=1, help="one-deal matches played (default 1)")
    parser.add_argument("--dist", help="a built site to serve (default: build one in a temp dir)")
    parser.add_argument("--chromium", default=machinery.CHROMIUM)
    parser.add_argument("--moves", action="store_true", help="print every move's segments too")
    parser.add_argument("--events", help="write every deal's events (JSON) to this file")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory() as tmp:
        dist = Path(args.dist) if args.dist else Path(tmp) / "dist"
        if not args.dist:
            build.build(dist)
            (dist / "signaling.json").write_text('{"relays": []}\n')
        all_moves, deal_seconds, calls, ways, waits, deals = [], [], {}, [], [], []
        with build.SiteServer(dist) as site, sync_playwright() as pw:
            from conftest import WEBRTC_DISABLED_FEATURES, WEBRTC_FLAGS
            features = machinery.playwright_disabled_features(pw, args.chromium) + WEBRTC_DISABLED_FEATURES
            launch = {"executable_path": args.chromium,
                      "args": [*machinery.CHROMIUM_QUIET_FLAGS, *machinery.CHROMIUM_OFFLINE_FLAGS, *WEBRTC_FLAGS,
                               "--disable-features=" + ",".join(dict.fromkeys(features))]}
            with persistent_profiles(pw.chromium, launch, _Factory(Path(tmp)), ("host", "guest"),
                                     {"**/ice-servers.json": {"iceServers": []}},
                                     viewport={"width": 1280, "height": 860}) as profiles:
                for context in profiles.values():
                    context.add_init_script(PAGE_TIMING)
                for _ in range(args.deals):
                    table = Table(profiles, site, lambda page: [])
                    table.open_host("one-deal")
                    table.join(table.invite_link())
                    h, g = table.sync()
                    t_start = table.host.evaluate("performance.timeOrigin + performance.now()")
                    for page in (table.host, table.guest):
                        page.evaluate("window.__timing.length = 0")
                    h, g = table.play()
                    t_end = table.host.evaluate("performance.timeOrigin + performance.now()")
                    deal_seconds.append((t_end - t_start) / 1000)
                    events = []
                    for side, page in enumerate((table.host, table.guest)):
                        events += [[e[0], side, *e[1:]] for e in page.evaluate("window.__timing")]
                    events.sort(key=lambda e: e[0])
                    deals.append(events)
                    all_moves += split_moves(events)
                    way, wait = hops(events)
                    ways += way
                    waits += wait
                    for key, values in worker_calls(events).items():
                        calls.setdefault(key, []).extend(values)
                    table.close()

    if args.events:
        Path(args.events).write_text(json.dumps(deals))
    print(f"Pishe Pasha friends' deals: {len(deal_seconds)}, "
          f"{', '.join(f'{s:.1f}' for s in deal_seconds)} s from the first board to the last, "
          f"{len(all_moves)} moves")
    keys = ["click -> call", "mover's Python", "answer -> painted", "to the other page", "other's Python",
            "key back", "mover unlock", "whole move", "test's wait"]
    for label, pick in (("turn (a stock card turned)", lambda m: m["action"] == "turn"),
                        ("give / keep", lambda m: m["action"] != "turn")):
        chosen = [m for m in all_moves if pick(m)]
        print(f"{label}: {len(chosen)} moves")
        for key in keys:
            print(line(key, [m[key] for m in chosen if m[key] is not None]))
    print("Channel messages, worker to worker:")
    print(line("sent -> received", ways))
    print(line("receiver busy meanwhile", waits))
    print(line("the rest (wire, scheduling)", [a - b for a, b in zip(ways, waits)]))
    print("Each worker's calls (call or message taken in -> answer posted) and each page's paints:")
    for (side, name), values in sorted(calls.items(), key=lambda kv: -sum(kv[1])):
        print(line(f"{('host', 'guest')[side]} {name}", values))
    if args.moves:
        for m in all_moves:
            print(json.dumps({k: (round(v, 1) if isinstance(v, float) else v) for k, v in m.items()}))
    return 0


class _Factory:
    """tmp_path_factory's one method persistent_profiles uses."""

    def __init__(self, root: Path):
        self.root, self.n = root, 0

    def mktemp(self, name: str) -> Path:
        self.n += 1
        path = self.root / f"{name}{self.n}"
        path.mkdir()
        return path


if __name__ == "__main__":
    sys.exit(main())
