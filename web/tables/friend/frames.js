// The order and delivery of a table's messages carried through Nostr relays, when no
// WebRTC path exists (relaypath.js seals the frames and carries them as events). This
// module touches no network and no page, so tests/test_relay_frames.py runs it in Node
// with its own clock.
//
// Each side of a link numbers the chunks it sends (a message longer than a chunk, at most
// CHUNK characters and less when the page's events are small, is cut into several). A frame carries the chunks not sent yet, or, once an acknowledgement
// is overdue, every chunk from the first one not acknowledged (go-back-N: a relay may
// drop an event, and a game sends little), and acknowledges what this side has
// received in order ("a": the next chunk it expects). A frame that
// starts past what the receiver expects is dropped (the sender sends it again when no
// acknowledgement comes); chunks already received are skipped, so nothing is delivered
// twice. A side that has not heard from the other yet knocks ("k": 1), and is answered
// at once: the link is open once each side has heard the other. Frames also carry a
// ping ("p") and the echo of the other side's last one with how long it was held
// ("e"): the round trip the connection line shows. "c": 1 says the sender closed.
//
// A frame as JSON: {"v": 2, "s": first chunk's number, "m": [chunks], "a": next chunk
// expected, "k"?: 1, "c"?: 1, "p"?: ping number, "e"?: [ping number, ms held]}; each chunk
// is "." (the message's last) or "+" (more follows) then its text.

export const VERSION = 2;               // 2: each message deflated, in base64 (relaypath.js)
export const CHUNK = 8_000;             // characters of a message in one chunk, at most
// Chunks' characters in one page's event, all its links' frames together, at most (the
// page's event limit may hold fewer: relaypath.js).
export const FRAME_CHARS = 24_000;
// What a frame's JSON takes besides its chunks' text, at most: its fields, their numbers
// at the longest; and each chunk's quotes and comma. Chunks of base64 (what relaypath.js
// sends) need no escaping, so that a frame's JSON is no longer than these and the chunks.
export const FRAME_FIELDS = 128;
export const CHUNK_QUOTES = 3;
export const MAX_MESSAGE = (1 << 20) + 1024;  // a whole message (the host's largest, pishe/table/protocol/wire.py)
const MAX_CHUNKS = 64;
const MAX_NUMBER = 2 ** 31;
// A bare acknowledgement waits this long for a message to ride with: longer than a person
// takes to answer, so that at a person's pace acknowledgements cost no event of their own.
export const ACK_DELAY_MS = 2000;
export const RESEND_MS = 4000;          // no acknowledgement this long after a frame: send it again
export const KNOCK_MS = 1000;           // not heard from the other side yet: knock again this often
export const KEEPALIVE_MS = 15_000;     // an idle side says it is there this often
export const DEAD_MS = 45_000;          // nothing heard for this long: the other page is gone
const PINGS_KEPT = 16;
const FIELDS = new Set(["v", "s", "m", "a", "k", "c", "p", "e"]);

const isNumber = (value, least = 0) => Number.isInteger(value) && value >= least && value <= MAX_NUMBER;

/**
 * Why `frame` (parsed JSON) is not a frame of this version, in a few words, or null.
 * Only its shape: whether it fits this stream is Stream.receive's to say.
 */
export function refusal(frame) {
  if (!frame || typeof frame !== "object" || Array.isArray(frame)) return "not a frame";
  if (frame.v !== VERSION) return "unsupported frame version";
  for (const key of Object.keys(frame)) if (!FIELDS.has(key)) return `unknown field ${JSON.stringify(key.slice(0, 20))}`;
  if (!isNumber(frame.s) || !isNumber(frame.a)) return "chunk numbers are not whole numbers in range";
  if (!Array.isArray(frame.m) || frame.m.length > MAX_CHUNKS) return "chunks are not a short list";
  if (frame.s + frame.m.length > MAX_NUMBER) return "chunk numbers are not whole numbers in range";
  let chars = 0;
  for (const chunk of frame.m) {
    if (typeof chunk !== "string" || chunk.length < 1 || chunk.length > CHUNK + 1 || !".+".includes(chunk[0])) {
      return "a chunk is not text marked last or not";
    }
    chars += chunk.length;
  }
  if (chars > FRAME_CHARS + MAX_CHUNKS) return "the frame is too long";
  if ("k" in frame && frame.k !== 1) return "knock is not 1";
  if ("c" in frame && frame.c !== 1) return "close is not 1";
  if ("p" in frame && !isNumber(frame.p, 1)) return "ping is not a number";
  if ("e" in frame && !(Array.isArray(frame.e) && frame.e.length === 2 && isNumber(frame.e[0], 1) &&
                         isNumber(frame.e[1]))) {
    return "echo is not a ping number and a time";
  }
  return null;
}

/**
 * One side of a link carried by frames: what it sends, what it has received. `now` in ms;
 * `chunk`: the characters of a message in one chunk, at most (CHUNK).
 */
export class Stream {
  constructor(now, chunk = CHUNK) {
    this.chunk = Math.max(1, Math.min(CHUNK, chunk));
    this.chunks = [];          // sent, not acknowledged yet: {seq, text}
    this.nextSeq = 0;          // the number of the next chunk queued
    this.acked = 0;            // the other side expects this chunk next
    this.sentUpTo = 0;         // chunks before this one were sent at least once
    this.lastSent = -Infinity;
    this.expected = 0;         // the next chunk this side takes
    this.partial = "";         // the message being put together from its chunks
    this.heard = false;        // something valid came from the other side
    this.lastHeard = now;
    this.ackOwed = null;       // since when this side owes an acknowledgement
    this.answerNow = false;    // the other side knocked: answer at once
    this.pings = new Map();    // ping number -> when it was sent
    this.pinged = 0;
    this.echo = null;          // the other side's last ping: {id, at}
    this.rtt = null;           // the last round trip measured, ms
    this.closed = false;
    this.resent = 0;           // frames that carried chunks sent before (none was acknowledged in time)
  }

  /** Queue `text` (a message of the table) to send. */
  send(text) {
    const whole = String(text);
    for (let at = 0; at < whole.length || at === 0; at += this.chunk) {
      const last = at + this.chunk >= whole.length;
      this.chunks.push({ seq: this.nextSeq++, text: (last ? "." : "+") + whole.slice(at, at + this.chunk) });
    }
  }

  /** How long to wait for an acknowledgement before sending again. */
  resendMs() {
    return Math.max(RESEND_MS, ACK_DELAY_MS + 3 * (this.rtt || 0));
  }

  /** When this side should send a frame next (ms, maybe already past); Infinity when closed. */
  due() {
    if (this.closed) return Infinity;
    if (this.answerNow || this.sentUpTo < this.nextSeq) return -Infinity;
    if (!this.heard) return this.lastSent + KNOCK_MS;
    let at = this.lastSent + KEEPALIVE_MS;
    if (this.ackOwed !== null) at = Math.min(at, this.ackOwed + ACK_DELAY_MS);
    if (this.acked < this.nextSeq) at = Math.min(at, this.lastSent + this.resendMs());
    return at;
  }

  /**
   * The next frame to send, with the chunks that fit in `room` characters of its JSON (each
   * with its quotes and comma; at least one): those not sent yet, or, once an
   * acknowledgement is overdue, all from the first unacknowledged.
   */
  frame(now, room = FRAME_CHARS) {
    const again = this.sentUpTo === this.acked || now - this.lastSent >= this.resendMs();
    const start = again ? this.acked : this.sentUpTo;
    if (start < this.sentUpTo) this.resent += 1;
    const m = [];
    let used = 0;
    for (const chunk of this.chunks) {
      if (chunk.seq < start) continue;
      if (m.length === MAX_CHUNKS || (m.length && used + chunk.text.length + CHUNK_QUOTES > room)) break;
      m.push(chunk.text);
      used += chunk.text.length + CHUNK_QUOTES;
    }
    const id = ++this.pinged;
    this.pings.set(id, now);
    if (this.pings.size > PINGS_KEPT) this.pings.delete(this.pings.keys().next().value);
    const frame = { v: VERSION, s: start, m, a: this.expected, p: id };
    if (!this.heard) frame.k = 1;
    if (this.echo) frame.e = [this.echo.id, Math.max(0, Math.round(now - this.echo.at))];
    this.sentUpTo = Math.max(this.sentUpTo, start + m.length);
    this.lastSent = now;
    this.ackOwed = null;
    this.answerNow = false;
    this.echo = null;
    return frame;
  }

  /** The frame that says this side closed; nothing is sent after it. */
  close() {
    this.closed = true;
    return { v: VERSION, s: this.acked, m: [], a: this.expected, c: 1 };
  }

  /** Whether the other side has been silent so long that it is gone. */
  gone(now) {
    return now - this.lastHeard > DEAD_MS;
  }

  /**
   * Take a frame from the other side: {messages} (whole messages, in order, each once),
   * {opened: true} the first time the other side is heard, {closed: true} when it closed,
   * or {refused: why} for a frame that is not one or does not fit this stream, which
   * then changes nothing.
   */
  receive(frame, now) {
    const why = refusal(frame);
    if (why) return { refused: why };
    if (frame.a > this.nextSeq) return { refused: "acknowledges chunks never sent" };
    // What the chunks make, worked out before anything changes.
    let expected = this.expected;
    let partial = this.partial;
    const messages = [];
    for (let i = 0; i < frame.m.length; i += 1) {
      const seq = frame.s + i;
      if (seq < expected) continue;      // had it already
      if (seq > expected) break;         // a gap: sent again from the last acknowledgement
      partial += frame.m[i].slice(1);
      if (partial.length > MAX_MESSAGE) return { refused: "a message is too long" };
      expected += 1;
      if (frame.m[i][0] === ".") {
        messages.push(partial);
        partial = "";
      }
    }
    const opened = !this.heard;
    this.heard = true;
    this.lastHeard = now;
    if (frame.c) {
      this.closed = true;
      return { messages: [], opened, closed: true };
    }
    this.expected = expected;
    this.partial = partial;
    if (frame.a > this.acked) {
      this.chunks = this.chunks.filter((chunk) => chunk.seq >= frame.a);
      this.acked = frame.a;
      this.sentUpTo = Math.max(this.sentUpTo, this.acked);
    }
    if (frame.e && this.pings.has(frame.e[0])) {
      this.rtt = Math.max(0, Math.round(now - this.pings.get(frame.e[0]) - frame.e[1]));
      this.pings.delete(frame.e[0]);
    }
    if (frame.p) this.echo = { id: frame.p, at: now };
    if (frame.k) this.answerNow = true;
    if (frame.m.length && this.ackOwed === null) this.ackOwed = now;
    return { messages, opened, closed: false };
  }
}

/**
 * At most `burst` events at once and `perSecond` a second after that, for all of a
 * page's links together (one page is one client to a relay). wait(now): ms until one
 * may be sent; take(now): count one sent.
 */
export class Bucket {
  constructor(perSecond, burst, now) {
    this.perSecond = perSecond;
    this.burst = burst;
    this.tokens = burst;
    this.at = now;
  }

  refill(now) {
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.at) * this.perSecond) / 1000);
    this.at = now;
  }

  wait(now) {
    this.refill(now);
    return this.tokens >= 1 ? 0 : Math.ceil(((1 - this.tokens) * 1000) / this.perSecond);
  }

  take(now) {
    this.refill(now);
    this.tokens -= 1;
  }
}
