"""The order and delivery of a table's messages through the relays (web/tables/friend/frames.js),
run in Node with a clock of the test's own: no relay, no browser.

Two streams talk over a simulated relay that delays, drops and doubles events; every
message arrives once, whole and in order, each way, and the page's events stay within
the chosen rate (60 in any minute). Then the refusals: frames that are not frames, or do
not fit the stream (acknowledging what was never sent, too long, unknown fields), and
random damage to good frames, are refused by name and change nothing.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FRAMES = ROOT / "web" / "tables" / "friend" / "frames.js"

SCRIPT = r"""
import { Bucket, CHUNK, DEAD_MS, Stream, refusal } from "./frames.mjs";

// A small generator of our own, so that every run is the same.
let seed = 12345;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);

function simulate({ messages, drop, double, delay, perSecond, burst }) {
  let now = 0;
  const sides = [new Stream(now), new Stream(now)];
  const buckets = [new Bucket(perSecond, burst, now), new Bucket(perSecond, burst, now)];
  const got = [[], []];
  const sent = [[], []];
  const events = [[], []];       // when each side sent an event
  const wire = [];               // {at, to, text}
  let opened = [false, false];
  // Each side queues its messages at random times over the first minute.
  const plan = [];
  for (let side = 0; side < 2; side += 1) {
    for (let i = 0; i < messages; i += 1) {
      const long = random() < 0.1;
      const text = JSON.stringify({ side, i, pad: "é\"x".repeat(long ? CHUNK : Math.floor(random() * 300)) });
      plan.push({ at: Math.floor(random() * 60_000), side, text });
    }
  }
  plan.sort((a, b) => a.at - b.at);
  for (let step = 0; step < 200_000; step += 1) {
    const dues = sides.map((s, i) => Math.max(s.due(), now + buckets[i].wait(now)));
    const next = Math.min(plan.length ? plan[0].at : Infinity, wire.length ? Math.min(...wire.map((w) => w.at)) : Infinity, ...dues);
    if (next === Infinity) break;
    now = Math.max(now, next);
    if (now > 3_600_000) break;
    while (plan.length && plan[0].at <= now) {
      const { side, text } = plan.shift();
      sides[side].send(text);
      sent[side].push(text);
    }
    for (const w of wire.filter((w) => w.at <= now).sort((a, b) => a.at - b.at)) {
      wire.splice(wire.indexOf(w), 1);
      const taken = sides[w.to].receive(JSON.parse(w.text), now);
      if (taken.refused) throw new Error("a good frame refused: " + taken.refused);
      if (taken.opened) opened[w.to] = true;
      got[w.to].push(...taken.messages);
    }
    for (let side = 0; side < 2; side += 1) {
      if (sides[side].due() > now || buckets[side].wait(now) > 0) continue;
      buckets[side].take(now);
      events[side].push(now);
      const text = JSON.stringify(sides[side].frame(now));
      if (random() < drop) continue;
      // One socket: an event leaves after the ones before it (a relay forwards in order).
      const last = Math.max(now, ...wire.filter((w) => w.to === 1 - side).map((w) => w.at));
      const at = last + delay * (0.5 + random());
      wire.push({ at, to: 1 - side, text });
      if (random() < double) wire.push({ at: at + delay, to: 1 - side, text });
    }
    const done = plan.length === 0 && got[0].length === sent[1].length && got[1].length === sent[0].length;
    if (done && sides.every((s) => s.acked === s.nextSeq)) break;
  }
  // The most events a side sent in any minute.
  const busiest = events.map((times) => Math.max(0, ...times.map((t) => times.filter((u) => u >= t && u < t + 60_000).length)));
  return {
    inOrder: [0, 1].every((side) => JSON.stringify(got[side]) === JSON.stringify(sent[1 - side])),
    counts: [got[0].length, got[1].length, sent[0].length, sent[1].length],
    opened, busiest, events: events.map((e) => e.length), rtt: sides.map((s) => s.rtt), ms: now,
  };
}

function snapshot(stream) {
  return JSON.stringify({ ...stream, pings: [...stream.pings] });
}

// A stream that has sent 3 chunks and received 2: what damaged frames are thrown at.
function busy() {
  const a = new Stream(0), b = new Stream(0);
  a.send("one"); a.send("two"); a.send("x".repeat(CHUNK + 5));
  b.send("back"); b.send("again");
  a.receive(b.frame(10), 20);
  b.receive(a.frame(30), 40);
  return { a, b };
}

function refusals() {
  const cases = {
    "not json object": [null, 5, "frame", [1, 2]],
    "version": [{ v: 2, s: 0, m: [], a: 0 }],
    "unknown field": [{ v: 1, s: 0, m: [], a: 0, x: 1 }, { v: 1, s: 0, m: [], a: 0, __proto__x: 1 }],
    "numbers": [{ v: 1, s: -1, m: [], a: 0 }, { v: 1, s: 0.5, m: [], a: 0 }, { v: 1, s: 0, m: [], a: "0" },
                { v: 1, s: 2 ** 31, m: ["."], a: 0 }, { v: 1, s: 0, m: [], a: 2 ** 40 }],
    "chunks": [{ v: 1, s: 0, m: "x", a: 0 }, { v: 1, s: 0, m: [1], a: 0 }, { v: 1, s: 0, m: [""], a: 0 },
               { v: 1, s: 0, m: ["xhello"], a: 0 }, { v: 1, s: 0, m: ["." + "x".repeat(CHUNK + 1)], a: 0 },
               { v: 1, s: 0, m: Array(65).fill("."), a: 0 }],
    "flags": [{ v: 1, s: 0, m: [], a: 0, k: true }, { v: 1, s: 0, m: [], a: 0, c: 2 },
              { v: 1, s: 0, m: [], a: 0, p: 0 }, { v: 1, s: 0, m: [], a: 0, e: [1] },
              { v: 1, s: 0, m: [], a: 0, e: [0, 5] }, { v: 1, s: 0, m: [], a: 0, e: [1, -5] }],
    "acknowledges chunks never sent": [{ v: 1, s: 0, m: [], a: 99 }],
  };
  const out = {};
  for (const [name, frames] of Object.entries(cases)) {
    out[name] = frames.map((frame) => {
      const { a } = busy();
      const before = snapshot(a);
      const taken = a.receive(frame, 50);
      return { refused: taken.refused || null, unchanged: snapshot(a) === before };
    });
  }
  // A message longer than the protocol's longest, in chunks that each look right.
  const { a } = busy();
  let refusedLong = null;
  const before = snapshot(a);
  for (let s = 2; s < 2 + 200 && !refusedLong; s += 2) {
    const taken = a.receive({ v: 1, s, m: Array(2).fill("+" + "y".repeat(CHUNK)), a: 0 }, 60);
    refusedLong = taken.refused || null;
  }
  out["a message too long"] = [{ refused: refusedLong, unchanged: null }];
  return { out, before: before.length > 0 };
}

// Random damage to good frames: each either is refused and changes nothing, or is taken.
function fuzz(rounds) {
  const junk = [null, true, -1, 0.5, 2 ** 53, "", "x", "+", [], [1], {}, { v: 1 }, Array(70).fill(".")];
  const keys = ["v", "s", "m", "a", "k", "c", "p", "e", "zz"];
  let refused = 0, taken = 0, changedWhenRefused = 0, threw = 0;
  for (let i = 0; i < rounds; i += 1) {
    const { a, b } = busy();
    const frame = JSON.parse(JSON.stringify(b.frame(45)));
    const n = 1 + Math.floor(random() * 3);
    for (let j = 0; j < n; j += 1) {
      const key = keys[Math.floor(random() * keys.length)];
      const r = random();
      if (r < 0.3) delete frame[key];
      else if (r < 0.8) frame[key] = junk[Math.floor(random() * junk.length)];
      else if (Array.isArray(frame.m)) frame.m.push(junk[Math.floor(random() * junk.length)]);
    }
    const before = snapshot(a);
    try {
      const result = a.receive(frame, 50);
      if (result.refused) {
        refused += 1;
        if (snapshot(a) !== before) changedWhenRefused += 1;
        if (refusal(frame) === null && result.refused !== "acknowledges chunks never sent" &&
            result.refused !== "a message is too long") changedWhenRefused += 1;
      } else taken += 1;
    } catch (err) {
      threw += 1;
    }
  }
  return { refused, taken, changedWhenRefused, threw };
}

// A page gone silent: the other side calls it gone after DEAD_MS, and not before.
function silence() {
  const a = new Stream(0), b = new Stream(0);
  a.receive(b.frame(0), 10);
  return { before: a.gone(10 + DEAD_MS - 1), after: a.gone(10 + DEAD_MS + 1) };
}

const defaultRate = { perSecond: 50 / 60, burst: 10 };
console.log(JSON.stringify({
  clean: simulate({ messages: 40, drop: 0, double: 0, delay: 30, ...defaultRate }),
  lossy: simulate({ messages: 40, drop: 0.2, double: 0.1, delay: 60, ...defaultRate }),
  fast: simulate({ messages: 200, drop: 0.05, double: 0.05, delay: 20, perSecond: 50, burst: 50 }),
  refusals: refusals(),
  fuzz: fuzz(3000),
  silence: silence(),
}));
"""


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    node = shutil.which("node")
    if node is None:
        pytest.skip("no node (the build needs it too)")
    folder = tmp_path_factory.mktemp("frames")
    shutil.copy(FRAMES, folder / "frames.mjs")   # Node takes `export` from .mjs files
    (folder / "run.mjs").write_text(SCRIPT)
    done = subprocess.run([node, str(folder / "run.mjs")], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.mark.parametrize("run", ["clean", "lossy", "fast"])
def test_every_message_arrives_once_in_order_within_the_rate(results, run):
    sim = results[run]
    got_by_guest, got_by_host, sent_by_host, sent_by_guest = sim["counts"]
    assert (got_by_guest, got_by_host) == (sent_by_guest, sent_by_host) and sim["inOrder"], sim
    assert sim["opened"] == [True, True]
    assert all(isinstance(rtt, int) and rtt >= 0 for rtt in sim["rtt"]), sim
    if run != "fast":
        # The default rate: 10 at once, then 50 a minute: never more than 60 in any minute.
        assert max(sim["busiest"]) <= 60, sim


def test_frames_that_are_not_frames_are_refused_and_change_nothing(results):
    out = results["refusals"]["out"]
    for name, cases in out.items():
        for case in cases:
            assert case["refused"], (name, case)
            assert case["unchanged"] in (True, None), (name, case)
    assert out["acknowledges chunks never sent"][0]["refused"] == "acknowledges chunks never sent"
    assert out["a message too long"][0]["refused"] == "a message is too long"
    assert out["version"][0]["refused"] == "unsupported frame version"


def test_damaged_frames_never_throw_nor_half_apply(results):
    fuzz = results["fuzz"]
    assert fuzz["threw"] == 0 and fuzz["changedWhenRefused"] == 0, fuzz
    assert fuzz["refused"] > 1000 and fuzz["taken"] > 0, fuzz


def test_a_silent_page_is_gone_only_after_its_time(results):
    assert results["silence"] == {"before": False, "after": True}
