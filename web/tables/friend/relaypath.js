// A table's messages through the Nostr relays it signals through, when no WebRTC path
// exists between two pages (signaling.js hands the worker this channel instead of a
// data channel: the protocol above cannot tell them apart).
//
// Each link has two rooms, one a direction, named by a tag only its two pages can
// make: hex SHA-256("pishe:table:v1:" + direction + ":" + link key + ":" + offer code),
// first 32 digits, the direction "to-host" or "to-guest", the offer code the one its
// link was made from. Each message is deflated (CompressionStream "deflate-raw": a view's
// JSON shrinks several times) and put in base64, and goes in one chunk or several of a
// frame (frames.js: numbered, acknowledged, sent again until acknowledged), as JSON,
// sealed with AES-256-GCM under
// a key derived from the link key with HKDF-SHA-256 (info "pishe:table:v1:" + direction
// + ":" + hex SHA-256 of the offer code, first 32 digits): base64(iv ‖ ciphertext), a
// fresh 12-byte iv each time. The relays see tags and sizes, never a message.
//
// A page is one client to the relays: all its links' frames due at once go in ONE
// event (kind 25051, ephemeral: relays pass it on and keep nothing; a NIP-40
// expiration a minute ahead; signed with a throwaway key made for this page), its
// content the sealed frames joined by ",", in the order of its "t" tags. An event is never
// larger than signaling.json says its relays take (relay.js: eventBytes; 16 KiB unless
// it says otherwise): its frames carry as many chunks as fit, and at most FRAMES_AT_MOST links'
// frames go in one (the others' in the next); a relay would refuse a larger one, and the
// same frame would be refused again and again. Events are
// rate-limited for the page: a burst of 10, then 50 a minute, so never more than 60 in
// any minute, which is nostream's default for ephemeral kinds (strfry and
// nostr-rs-relay set no such limit by default); frames that wait meanwhile go out
// together in the next event. A game sends far less at a person's pace. ?relayrate=N
// (tests, benchmarks): N events a second, in bursts of N.

import { Bucket, CHUNK, CHUNK_QUOTES, FRAME_CHARS, FRAME_FIELDS, MAX_MESSAGE, Stream } from "./frames.js";
import { fromBase64, nostr, sha256Hex, signaling } from "./relay.js";

const KIND = 25051;
const ROOM = "pishe:table:v1:";
const EXPIRES_S = 60;            // strfry refuses ephemeral events more than a minute old
const CONNECT_MS = 3000;         // a relay that has not taken the connection by then is not used
const MAX_CONTENT = 96_000;      // an event's content taken: frames of FRAME_CHARS sealed, with room
const PER_MINUTE = 50;
const BURST = 10;
const CHECK_MS = 5000;           // how often a silent link is looked at (frames.js: DEAD_MS)
const DIRECTIONS = { host: ["to-host", "to-guest"], guest: ["to-guest", "to-host"] };  // [in, out]
// An event's bytes besides its frames, at most: its id, key, signature, kind, time and
// expiration tag, its punctuation, and the ["EVENT", …] it is sent in; each frame's
// ["t", tag] and ","; AES-GCM's iv and tag around each frame.
const EVENT_FIXED = 480;
const TAG_BYTES = 48;
const SEAL_BYTES = 28;
const FRAMES_AT_MOST = 4;
const INFLATED_MOST = 3 * MAX_MESSAGE;  // bytes of a message inflated (UTF-8 of MAX_MESSAGE characters)

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const now = () => performance.now();

function toBase64(bytes) {
  let binary = "";
  for (let at = 0; at < bytes.length; at += 0x8000) binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return btoa(binary);
}

/**
 * Characters of a frame's JSON for each of `frames` frames in one event of at most `limit`
 * bytes (the frame sealed: iv, ciphertext, tag, in base64).
 */
export function frameRoom(limit, frames) {
  const content = Math.floor((limit - EVENT_FIXED - frames * TAG_BYTES) / frames);
  return Math.min(FRAME_CHARS, Math.floor(content / 4) * 3 - SEAL_BYTES - FRAME_FIELDS);
}

/** A chunk's characters for a page whose events are at most `limit` bytes: one fits any frame. */
export function chunkSize(limit) {
  return Math.min(CHUNK, frameRoom(limit, FRAMES_AT_MOST) - CHUNK_QUOTES - 1);
}

/** `text` deflated, in base64. */
export async function deflate(text) {
  const packed = new Blob([text]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  return toBase64(new Uint8Array(await new Response(packed).arrayBuffer()));
}

/** The text deflated in base64 `packed`; throws if it is not, or is longer than a message may be. */
export async function inflate(packed) {
  const reader = new Blob([fromBase64(packed)]).stream().pipeThrough(new DecompressionStream("deflate-raw")).getReader();
  const parts = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > INFLATED_MOST) {
      reader.cancel().catch(() => {});
      throw new Error("a message longer than any the table sends");
    }
    parts.push(value);
  }
  return new Blob(parts).text();
}

/** The page's rate from its address (?relayrate=N a second), else the default. */
function rate() {
  const given = Number(new URLSearchParams(location.search).get("relayrate"));
  return Number.isFinite(given) && given > 0 ? { perSecond: given, burst: Math.max(1, Math.round(given)) }
    : { perSecond: PER_MINUTE / 60, burst: BURST };
}

/** What one direction of a link is: its room's tag and its AES key. */
async function room(key, offer, direction) {
  const material = await crypto.subtle.importKey("raw", fromBase64(String(key)), "HKDF", false, ["deriveKey"]);
  const info = ROOM + direction + ":" + (await sha256Hex(String(offer)));
  const aes = await crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: encoder.encode(info) },
    material, { name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
  return { tag: await sha256Hex(ROOM + direction + ":" + key + ":" + offer), aes };
}

/** The page's one client to the relays: its sockets, its rate, its links' channels. */
class PostOffice {
  constructor(tools, relays, limit) {
    this.tools = tools;
    this.relays = relays;
    this.limit = limit;          // bytes of an event, at most
    this.pool = new tools.SimplePool({ maxWaitForConnection: CONNECT_MS, enablePing: true, enableReconnect: true });
    this.secret = tools.generateSecretKey();
    const { perSecond, burst } = rate();
    this.bucket = new Bucket(perSecond, burst, now());
    this.channels = new Set();
    this.timer = null;
    this.flushing = false;
    this.check = null;
    this.sent = 0;               // events sent, for tests and benchmarks
    this.retired = { resent: 0, refused: 0 };   // the same of the links closed
  }

  /** Events sent; frames sent again and refused, over all this page's links. */
  stats() {
    const all = [...this.channels].reduce((sum, channel) => ({
      resent: sum.resent + channel.stream.resent, refused: sum.refused + channel.refused }), this.retired);
    return { events: this.sent, ...all };
  }

  add(channel) {
    this.channels.add(channel);
    if (!this.check) this.check = setInterval(() => this.lookAtSilence(), CHECK_MS);
    this.schedule();
  }

  remove(channel) {
    if (!this.channels.delete(channel)) return;
    this.retired = { resent: this.retired.resent + channel.stream.resent, refused: this.retired.refused + channel.refused };
    if (!this.channels.size) {
      clearInterval(this.check);
      this.check = null;
    }
  }

  lookAtSilence() {
    const at = now();
    for (const channel of this.channels) if (channel.open && channel.stream.gone(at)) channel.end();
  }

  /** Send the frames due as soon as the rate allows. */
  schedule() {
    if (this.flushing) return;
    clearTimeout(this.timer);
    this.timer = null;
    let due = Infinity;
    for (const channel of this.channels) due = Math.min(due, channel.stream.due());
    if (due === Infinity) return;
    const at = now();
    this.timer = setTimeout(() => this.flush(), Math.max(0, due - at, this.bucket.wait(at)));
  }

  async flush() {
    this.timer = null;
    this.flushing = true;
    try {
      // Messages still being deflated go too: what a page sends at once travels together.
      await Promise.all([...this.channels].map((channel) => channel.sending));
      const at = now();
      // The most overdue first; the others' frames go in the next event.
      const ready = [...this.channels].filter((channel) => channel.stream.due() <= at)
        .sort((a, b) => a.stream.due() - b.stream.due()).slice(0, FRAMES_AT_MOST);
      if (ready.length && this.bucket.wait(at) === 0) {
        this.bucket.take(at);
        const room = frameRoom(this.limit, ready.length);
        const frames = ready.map((channel) => [channel, channel.stream.frame(at, room)]);
        await this.post(await Promise.all(frames.map(async ([channel, frame]) => [channel.out.tag, await seal(channel.out.aes, frame)])));
      }
    } catch (err) {
      console.warn("a frame for the relays could not be sent:", err);
    } finally {
      this.flushing = false;
    }
    this.schedule();
  }

  /** One event with `parts` ([tag, sealed frame]…) to every relay. */
  async post(parts) {
    const at = Math.floor(Date.now() / 1000);
    const event = this.tools.finalizeEvent({
      kind: KIND,
      created_at: at,
      tags: [...parts.map(([tag]) => ["t", tag]), ["expiration", String(at + EXPIRES_S)]],
      content: parts.map(([, sealed]) => sealed).join(","),
    }, this.secret);
    this.sent += 1;
    // A relay that refuses (rate-limited, say) loses this frame only: it is sent again.
    for (const post of this.pool.publish(this.relays, event)) post.catch((why) => console.debug("a relay refused a frame:", why));
  }
}

/** `frame` as JSON sealed under `aes`: base64(iv ‖ ciphertext with its tag). */
export async function seal(aes, frame) {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, aes, encoder.encode(JSON.stringify(frame))));
  const out = new Uint8Array(12 + sealed.length);
  out.set(iv);
  out.set(sealed, 12);
  return toBase64(out);
}

/** The frame sealed in `text` under `aes` (parsed JSON), or throws. */
async function unseal(aes, text) {
  const bytes = fromBase64(text);
  const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: bytes.slice(0, 12) }, aes, bytes.slice(12));
  return JSON.parse(decoder.decode(plain));
}

let office = null;

/** The page's post office, on the relays of signaling.json that take a connection; null if none does. */
async function postOffice() {
  if (!office) {
    office = (async () => {
      const [{ relays, eventBytes }, tools] = await Promise.all([signaling(), nostr()]);
      const probe = new tools.SimplePool({ maxWaitForConnection: CONNECT_MS });
      const reached = await Promise.all(relays.map((url) => probe.ensureRelay(url, { connectionTimeout: CONNECT_MS })
        .then(() => url, () => null)));
      probe.destroy();
      const live = reached.filter(Boolean);
      return live.length ? new PostOffice(tools, live, eventBytes) : null;
    })();
    office.then((made) => { if (!made) office = null; }, () => { office = null; });
  }
  return office;
}

/**
 * The channel of one link through the relays, read and written as a data channel is
 * (onopen, onmessage(text), onclose, send(text), close()): open once the other page,
 * on its side of the same link, is heard. `side` is this page's ("host" or "guest"),
 * `key` the invite's link key, `offer` the offer code the link was made from.
 */
export class RelayChannel {
  constructor(office, inbound, outbound) {
    this.office = office;
    this.in = inbound;
    this.out = outbound;
    this.stream = new Stream(now(), chunkSize(office.limit));
    this.sending = Promise.resolve();
    this.open = false;
    this.ended = false;
    this.refused = 0;            // frames refused (not ours, damaged, out of place), for tests
    this.taking = Promise.resolve();
    this.onopen = this.onmessage = this.onclose = null;
    this.subscription = office.pool.subscribe(office.relays, { kinds: [KIND], "#t": [inbound.tag], since: Math.floor(Date.now() / 1000) - EXPIRES_S }, {
      onevent: (event) => this.take(event),
    });
    office.add(this);
  }

  /** The channel's path and round trip, as Link.route says it (route.js). */
  route() {
    return { path: "relays", rtt: this.stream.rtt };
  }

  /** Send `text`: deflated first, each message after the one before. */
  send(text) {
    if (this.ended) return;
    this.sending = this.sending.then(() => deflate(String(text))).then((packed) => {
      if (this.ended) return;
      this.stream.send(packed);
      this.office.schedule();
    }).catch((err) => console.warn("a message for the relays could not be deflated:", err));
  }

  /** An event from the relays: taken in the order they came (opening one takes a while). */
  take(event) {
    this.taking = this.taking.then(() => this.unsealAndTake(event))
      .catch((err) => console.warn("a frame through the relays could not be taken:", err));
  }

  async unsealAndTake(event) {
    let frame;
    try {
      const tags = event.tags.filter((tag) => tag[0] === "t").map((tag) => tag[1]);
      const parts = typeof event.content === "string" && event.content.length <= MAX_CONTENT ? event.content.split(",") : [];
      const at = tags.indexOf(this.in.tag);
      if (parts.length !== tags.length || at < 0) throw new Error("not a table's event");
      frame = await unseal(this.in.aes, parts[at]);
    } catch {
      this.refuse("a frame that this link's key does not open");
      return;
    }
    if (this.ended) return;
    const taken = this.stream.receive(frame, now());
    if (taken.refused) {
      this.refuse(taken.refused);
      return;
    }
    if (taken.opened && !taken.closed) {
      this.open = true;
      if (this.onopen) this.onopen();
    }
    for (const packed of taken.messages) {
      let text;
      try {
        text = await inflate(packed);
      } catch {
        this.refuse("a message that does not inflate");
        continue;
      }
      if (this.ended) return;
      if (this.onmessage) this.onmessage(text);
    }
    if (taken.closed) this.end();
    else this.office.schedule();
  }

  refuse(why) {
    this.refused += 1;
    console.debug("a frame through the relays was refused:", why);
  }

  /** Take and send nothing more; false if that was so already. */
  stop() {
    if (this.ended) return false;
    this.ended = true;
    this.open = false;
    this.office.remove(this);
    this.subscription.close();
    return true;
  }

  /** The other page closed, or went silent: the channel is over. */
  end() {
    if (this.stop() && this.onclose) this.onclose();
  }

  /** Close from this side: the other page is told (one last event), and nothing more is sent. */
  close() {
    if (!this.stop()) return;
    const frame = this.stream.close();
    seal(this.out.aes, frame).then((sealed) => this.office.post([[this.out.tag, sealed]]))
      .catch((err) => console.debug("could not say goodbye through the relays:", err));
  }
}

/**
 * A channel through the relays for the link made from `offer` under link key `key`,
 * this page being `side`; null when no relay of signaling.json takes a connection.
 */
export async function relayChannel({ key, offer, side }) {
  const made = await postOffice();
  if (!made) return null;
  const [inbound, outbound] = await Promise.all(DIRECTIONS[side].map((direction) => room(key, offer, direction)));
  return new RelayChannel(made, inbound, outbound);
}

/** What this page sent through the relays, for tests and benchmarks: {events, resent, refused}. */
export async function relayStats() {
  const made = office ? await office : null;
  return made ? made.stats() : { events: 0, resent: 0, refused: 0 };
}
