"""The order and delivery of a table's messages through the relays (web/tables/friend/frames.js),
run in Node with a clock of the test's own: no relay, no browser.

Two streams talk over a simulated relay that delays, drops and doubles events; every
message arrives once, whole and in order, each way, and the page's events stay within
the chosen rate (60 in any minute). Then the refusals: frames that are not frames, or do
not fit the stream (acknowledging what was never sent, too long, unknown fields), and
random damage to good frames, are refused by name and change nothing. And
web/tables/friend/retry.js: an answer or knock that is not answered is posted again, later
each time, until answered or given up.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from pishe.table import lang
from pishe.table.words import PAGE

ROOT = Path(__file__).resolve().parent.parent
FRIEND = ROOT / "web" / "tables" / "friend"
MODULES = ("frames.js", "retry.js", "relay.js", "relaypath.js", "fallback.js")

SCRIPT = r"""
import { Bucket, CHUNK, DEAD_MS, Stream, VERSION, refusal } from "./frames.js";
import { backoff, retry } from "./retry.js";
import { watchPath } from "./fallback.js";
import { olderInvite } from "./relay.js";
import { chunkSize, deflate, frameRoom, inflate, seal } from "./relaypath.js";

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
    "version": [{ v: VERSION + 1, s: 0, m: [], a: 0 }],
    "unknown field": [{ v: VERSION, s: 0, m: [], a: 0, x: 1 }, { v: VERSION, s: 0, m: [], a: 0, __proto__x: 1 }],
    "numbers": [{ v: VERSION, s: -1, m: [], a: 0 }, { v: VERSION, s: 0.5, m: [], a: 0 }, { v: VERSION, s: 0, m: [], a: "0" },
                { v: VERSION, s: 2 ** 31, m: ["."], a: 0 }, { v: VERSION, s: 0, m: [], a: 2 ** 40 }],
    "chunks": [{ v: VERSION, s: 0, m: "x", a: 0 }, { v: VERSION, s: 0, m: [1], a: 0 }, { v: VERSION, s: 0, m: [""], a: 0 },
               { v: VERSION, s: 0, m: ["xhello"], a: 0 }, { v: VERSION, s: 0, m: ["." + "x".repeat(CHUNK + 1)], a: 0 },
               { v: VERSION, s: 0, m: Array(65).fill("."), a: 0 }],
    "flags": [{ v: VERSION, s: 0, m: [], a: 0, k: true }, { v: VERSION, s: 0, m: [], a: 0, c: 2 },
              { v: VERSION, s: 0, m: [], a: 0, p: 0 }, { v: VERSION, s: 0, m: [], a: 0, e: [1] },
              { v: VERSION, s: 0, m: [], a: 0, e: [0, 5] }, { v: VERSION, s: 0, m: [], a: 0, e: [1, -5] }],
    "acknowledges chunks never sent": [{ v: VERSION, s: 0, m: [], a: 99 }],
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
    const taken = a.receive({ v: VERSION, s, m: Array(2).fill("+" + "y".repeat(CHUNK)), a: 0 }, 60);
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

// A clock of the test's own, for code that takes `timers` ({setTimeout, clearTimeout}):
// run() moves it from one timer to the next (up to `until`), letting promises settle
// between, and calls `each()` before each step.
class Clock {
  constructor() {
    this.now = 0;
    this.timers = new Map();
    this.id = 0;
    this.setTimeout = (f, ms) => { this.timers.set(++this.id, { at: this.now + ms, f }); return this.id; };
    this.clearTimeout = (t) => this.timers.delete(t);
  }

  async run({ until = Infinity, each = () => {} } = {}) {
    for (let step = 0; step < 1000; step += 1) {
      await new Promise((resolve) => setTimeout(resolve, 0));   // what the last timer started settles
      each();
      if (!this.timers.size) break;
      const [next, timer] = [...this.timers].sort((a, b) => a[1].at - b[1].at)[0];
      if (timer.at > until) break;
      this.timers.delete(next);
      this.now = timer.at;
      timer.f();
    }
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

// retry.js on a clock of its own: `answers` says what each try resolves (true: answered;
// "throw": the try fails). Returns when each try ran and when it gave up.
async function retries(answers, { stopAt = Infinity } = {}) {
  const clock = new Clock();
  const tries = [];
  let gaveUp = null;
  const handle = retry(async (n) => {
    tries.push([n, clock.now]);
    if (answers[n] === "throw") throw new Error("no relay");
    return Boolean(answers[n]);
  }, { waits: backoff(1000, 3), onGiveUp: () => { gaveUp = clock.now; }, timers: clock });
  await clock.run({ each: () => clock.now >= stopAt && handle.stop() });
  return { tries, gaveUp };
}

// Events as relaypath.js makes them, for a page whose relays take `limit` bytes: 1 to 4
// links, each sending messages deflated (some random enough not to shrink), their frames
// with every number at its longest, sealed under a real AES-GCM key. The largest event's
// bytes for each limit; and whether every message comes out of the frames as it went in.
async function eventSizes() {
  const key = await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, ["encrypt"]);
  const largest = {};
  let whole = true;
  for (const limit of [2048, 4096, 16384, 65536]) {
    largest[limit] = 0;
    for (let links = 1; links <= 4; links += 1) {
      const far = 2 ** 31 - 50_000;
      const streams = Array.from({ length: links }, () => Object.assign(new Stream(0, chunkSize(limit)),
        { nextSeq: far, sentUpTo: far, acked: far, expected: far, pinged: far }));
      const texts = [];
      for (const s of streams) {
        for (let i = 0; i < 2; i += 1) {
          const noise = Array.from({ length: Math.floor(random() * 6_000) }, () => Math.floor(random() * 36).toString(36)).join("");
          const text = JSON.stringify({ type: "view", names: ["Pişti", "é\"x"], noise, pad: "ab".repeat(500) });
          texts.push(text);
          s.send(await deflate(text));
        }
      }
      const receiver = Object.assign(new Stream(0), { nextSeq: far, sentUpTo: far, acked: far, expected: far });
      for (let round = 1; round < 100_000 && streams.some((s) => s.sentUpTo < s.nextSeq); round += 1) {
        const frames = streams.map((s) => {
          s.echo = { id: 2 ** 31 - 1, at: -1e9 };
          return s.frame(round, frameRoom(limit, links));
        });
        const sealed = await Promise.all(frames.map((frame) => seal(key, frame)));
        const event = {
          id: "f".repeat(64), pubkey: "f".repeat(64), created_at: 9_999_999_999, kind: 25051,
          tags: [...streams.map(() => ["t", "f".repeat(32)]), ["expiration", "9999999999"]],
          content: sealed.join(","), sig: "f".repeat(128),
        };
        largest[limit] = Math.max(largest[limit], new TextEncoder().encode(JSON.stringify(["EVENT", event])).length);
        if (links === 1) {
          const taken = receiver.receive(JSON.parse(JSON.stringify(frames[0])), round);
          if (taken.refused) whole = false;
          for (const packed of taken.messages || []) {
            if (await inflate(packed) !== texts.shift()) whole = false;
          }
        }
      }
      if (links === 1 && texts.length !== 0) whole = false;
    }
  }
  // A message that inflates past any the table sends is refused.
  let bomb = null;
  try {
    await inflate(await deflate("x".repeat(4 * (2 ** 20 + 1024))));
  } catch (err) {
    bomb = err.message;
  }
  return { largest, whole, bomb };
}

// fallback.js on a clock of its own: a host and a guest with each other's codes (naming
// candidates) and no WebRTC path. The host had the answer (through a relay) and waits
// `hostWaitMs` for a path; the guest's posts were all unacknowledged (`guestPosted`
// false: it never learnt that the host had its answer), so only its own ICE failing, at
// `guestIceFailsAt`, moves it. When each page tried the relays, whether any page said "no
// path" by itself, and whether the link opened through the relays (both pages there).
async function paths({ guestPosted, guestIceFailsAt, hostWaitMs = 8000, noCandidates = false, relays = true,
  pathFoundUntil = 0, until = 600_000 }) {
  const clock = new Clock();
  const log = { host: {}, guest: {} };
  const links = {};
  for (const side of ["host", "guest"]) {
    const link = links[side] = { open: false, ended: false, carrier: null, get pathFound() { return clock.now < pathFoundUntil; } };
    watchPath(link, {
      noCandidates,
      waitMs: side === "host" || guestPosted ? hostWaitMs : null,
      carry: async () => {
        log[side].tried = clock.now;
        if (!relays) return false;
        link.carrier = { side };
        return true;
      },
      again: () => { log[side].again = (log[side].again || 0) + 1; },
      noPath: () => { log[side].noPath = clock.now; },
      timers: clock,
    });
  }
  if (guestIceFailsAt !== undefined) {
    clock.setTimeout(() => { log.guest.failHandled = links.guest.onfail(); }, guestIceFailsAt);
  }
  await clock.run({ until });
  log.opened = Boolean(links.host.carrier && links.guest.carrier);
  // Once tried, a second failure (the given-up connection's own) starts nothing more.
  if (log.guest.tried !== undefined) {
    const tried = log.guest.tried;
    clock.now += 1;
    links.guest.onfail();
    await new Promise((resolve) => setTimeout(resolve, 0));
    log.guest.triedAgain = log.guest.tried !== tried;
  }
  return log;
}

const defaultRate = { perSecond: 50 / 60, burst: 10 };
console.log(JSON.stringify({
  clean: simulate({ messages: 40, drop: 0, double: 0, delay: 30, ...defaultRate }),
  lossy: simulate({ messages: 40, drop: 0.2, double: 0.1, delay: 60, ...defaultRate }),
  fast: simulate({ messages: 200, drop: 0.05, double: 0.05, delay: 20, perSecond: 50, burst: 50 }),
  refusals: refusals(),
  fuzz: fuzz(3000),
  silence: silence(),
  events: await eventSizes(),
  retries: {
    answeredThird: await retries([false, "throw", true]),
    neverAnswered: await retries([]),
    stopped: await retries([], { stopAt: 1000 }),
  },
  older: Object.fromEntries(Object.entries({
    // Links as pages made them before the link key was made from the offer code, and as today.
    keyed: "p1~4Xq9~sEcReTsEcReTsEcReTsEcReT~" + "A".repeat(43) + "~h192.168.1.20,51234!AbCdEfGhIjKlMnOpQrStUv",
    keyedNoCandidate: "p1~4Xq9~sEcReTsEcReTsEcReTsEcReT~" + "A".repeat(43) + "!_-cdEfGhIjKlMnOpQrStUv",
    today: "p1~4Xq9~sEcReTsEcReTsEcReTsEcReT~" + "A".repeat(43) + "~h192.168.1.20,51234",
    todayMdns: "p1~4Xq9~sEcReT-sEcReT_sEcReTsEcReT~" + "A".repeat(43) + "~h@AbCdEfGhIjKlMnOpQrStUv,51234",
    damaged: "p1~4Xq9~sEcReTsEcReTsEcReTsEcReT~" + "A".repeat(43) + "~h192.168.1.20,51234!AbC",
    notOurs: "hello!AbCdEfGhIjKlMnOpQrStUv",
  }).map(([name, invite]) => [name, olderInvite(invite)])),
  paths: {
    unacknowledged: await paths({ guestPosted: false, guestIceFailsAt: 30_000 }),
    unacknowledgedNoIceNews: await paths({ guestPosted: false }),
    posted: await paths({ guestPosted: true }),
    pathFoundLate: await paths({ guestPosted: true, pathFoundUntil: 12_000 }),
    noCandidates: await paths({ guestPosted: false, noCandidates: true }),
    noRelay: await paths({ guestPosted: false, guestIceFailsAt: 30_000, relays: false }),
  },
}));
"""


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    node = shutil.which("node")
    if node is None:
        pytest.skip("no node (the build needs it too)")
    folder = tmp_path_factory.mktemp("frames")
    for module in MODULES:
        shutil.copy(FRIEND / module, folder / module)
    (folder / "package.json").write_text('{"type": "module"}')   # Node takes `export` from them
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


def test_an_unanswered_post_is_tried_again_later_each_time_until_answered_or_given_up(results):
    """retry.js: what a guest's page does with an answer or knock no relay took or no page
    answered (a failed try counts as unanswered): again after 1, 2, 4 s (here), then gives up."""
    runs = results["retries"]
    assert runs["answeredThird"] == {"tries": [[0, 0], [1, 1000], [2, 3000]], "gaveUp": None}
    assert runs["neverAnswered"] == {"tries": [[0, 0], [1, 1000], [2, 3000]], "gaveUp": 7000}
    assert runs["stopped"] == {"tries": [[0, 0], [1, 1000]], "gaveUp": None}


@pytest.mark.parametrize("limit", [2048, 4096, 16384, 65536])
def test_every_event_fits_what_the_relays_take(results, limit):
    """A relay refuses an event larger than it takes, and the same frame would be refused
    for ever: every event fits signaling.json's eventBytes, and a small one is well used."""
    largest = results["events"]["largest"][str(limit)]
    assert largest <= limit, results["events"]
    assert limit > 4096 or largest > limit // 2, results["events"]


def test_messages_go_deflated_and_come_back_whole(results):
    assert results["events"]["whole"] is True
    assert results["events"]["bomb"] == "a message longer than any the table sends"


def test_a_guest_whose_posts_went_unacknowledged_falls_back_when_its_own_ice_fails(results):
    """web/tables/friend/fallback.js: a guest whose answer reached the host although no
    relay acknowledged a post tries the relays once its own ICE fails; the host, which
    tried them after its wait, is still there: the link opens through the relays."""
    paths = results["paths"]
    unacked = paths["unacknowledged"]
    assert unacked["host"]["tried"] == 8000 and unacked["guest"]["tried"] == 30_000, unacked
    assert unacked["guest"]["failHandled"] is True            # the link is not closed: it is carried
    assert unacked["opened"] and "noPath" not in unacked["host"] and "noPath" not in unacked["guest"]
    assert unacked["guest"]["again"] == 1 and not unacked["guest"]["triedAgain"]
    # Without news from its ICE, a guest that never learnt the host has its answer waits on.
    quiet = paths["unacknowledgedNoIceNews"]
    assert "tried" not in quiet["guest"] and quiet["host"]["tried"] == 8000 and not quiet["opened"]
    # A guest whose post a relay took waits as the host does.
    assert paths["posted"]["guest"]["tried"] == 8000 and paths["posted"]["opened"]
    # A path found holds the fallback back while it lasts (its channel's news is on its way).
    assert paths["pathFoundLate"]["host"]["tried"] == 16_000, paths["pathFoundLate"]
    # A code with no candidate: the relays at once, on both sides.
    assert paths["noCandidates"]["host"]["tried"] == 0 == paths["noCandidates"]["guest"]["tried"]
    assert paths["noCandidates"]["opened"]
    # No relay to carry it: each page says there is no path, when it finds out.
    assert paths["noRelay"]["host"]["noPath"] == 8000 and paths["noRelay"]["guest"]["noPath"] == 30_000


def test_a_link_an_older_page_made_is_named_so(results):
    """web/tables/friend/relay.js: a link with a key of its own after the offer code ("!" and 22
    characters), as pages made them before the key was made from the offer code, reads a
    sentence of its own (the page's words: "why_older", English and Turkish); today's links,
    and links damaged otherwise, do not."""
    assert results["older"] == {"keyed": "why_older", "keyedNoCandidate": "why_older", "today": None,
                                "todayMdns": None, "damaged": None, "notOurs": None}
    before = lang.language()
    try:
        lang.set_language("tr")
        turkish = lang.catalog_named("table").gettext(PAGE["why_older"])
    finally:
        lang.set_language(before)
    assert "eski bir sürümünden" in turkish
