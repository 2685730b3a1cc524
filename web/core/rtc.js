// The peer-to-peer link: one WebRTC data channel, set up without a server of ours.
// The host's offer travels in the invite link, the guest's answer in a short reply
// code pasted back by hand. Both are SDP shrunk to what ICE and DTLS need (ufrag,
// password, certificate fingerprint, candidates) and rebuilt from a template.
// This module makes the connection only: the channel is read and written
// wherever its maker hands it (the Python worker: web/core/channel.js).

const VERSION = "p1";
const GATHER_MS = 2500;   // ICE gathering may never say "complete": never wait longer,
// but for a TURN server's first relayed address, which a slow network or a busy server may
// give later: without it a friend behind a strict firewall has no path at all.
const RELAY_GATHER_MS = 8000;

const toUrlSafe = (s) => s.replace(/\+/g, "-").replace(/\//g, "_");
const fromUrlSafe = (s) => s.replace(/-/g, "+").replace(/_/g, "/");
const CAND_TYPES = { host: "h", srflx: "s", relay: "r", prflx: "p" };
const CAND_NAMES = Object.fromEntries(Object.entries(CAND_TYPES).map(([k, v]) => [v, k]));
// A browser hides a host's address behind an mDNS name, "<uuid>.local" (42
// characters): written as "@" and the uuid's 16 bytes in base64url (23), so that
// an invite link stays short.
const MDNS = /^([0-9a-f]{8})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{4})-([0-9a-f]{12})\.local$/i;

function shortAddress(address) {
  const m = address.match(MDNS);
  if (!m) return address;
  const hex = m.slice(1).join("");
  const bytes = hex.match(/../g).map((h) => parseInt(h, 16));
  return "@" + toUrlSafe(btoa(String.fromCharCode(...bytes))).replace(/=+$/, "");
}

function fullAddress(address) {
  if (!address.startsWith("@")) return address;
  const hex = Array.from(atob(fromUrlSafe(address.slice(1))), (c) => c.charCodeAt(0).toString(16).padStart(2, "0")).join("");
  return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join("-") + ".local";
}

function sdpValue(sdp, key) {
  const m = sdp.match(new RegExp("^a=" + key + ":(.*)$", "m"));
  if (!m) throw new Error("the connection offer lacks " + key);
  return m[1].trim();
}

/** Shrink a data-channel SDP to "p1~ufrag~pwd~fingerprint~candidates…". */
export function encodeDescription(sdp, { withCandidates = true } = {}) {
  const fp = sdpValue(sdp, "fingerprint").split(" ")[1].split(":").map((h) => parseInt(h, 16));
  const parts = [VERSION, toUrlSafe(sdpValue(sdp, "ice-ufrag")), toUrlSafe(sdpValue(sdp, "ice-pwd")),
    toUrlSafe(btoa(String.fromCharCode(...fp))).replace(/=+$/, "")];
  if (withCandidates) {
    const seen = new Set();
    for (const line of sdp.split(/\r?\n/)) {
      if (!line.startsWith("a=candidate:")) continue;
      const f = line.slice(12).split(" ");
      if (f[2].toLowerCase() !== "udp" || f[1] !== "1") continue;
      const c = (CAND_TYPES[f[7]] || "h") + shortAddress(f[4]) + "," + f[5];
      if (!seen.has(c)) { seen.add(c); parts.push(c); }
    }
  }
  return parts.join("~");
}

/**
 * A failure named by its cause: `why`, the key of the page's words saying why (pishe/table/words.py's
 * "why_…", the {reason} of the table's line); `word`, for a connection code refused, the key of
 * the sentence the reply box shows; `detail`, the browser's own words, for a bug report only.
 * `message` is for developers.
 */
function failure(message, why, { word = undefined, detail = null } = {}) {
  return Object.assign(new Error(message), { why, word, detail });
}

/** A connection code refused: the key of the page's sentence for it (`word`) and of why (`why`). */
function codeError(message, word, why) {
  return failure(message, why, { word });
}

/** The browser's `err` as a failure named `why`; a failure named already stays as it is. */
function named(err, why) {
  if (err && err.why) return err;
  const detail = err && err.name ? `${err.name}: ${err.message}` : String(err);
  return failure(`the browser failed: ${detail}`, why, { detail });
}

/** Rebuild an SDP of `type` ("offer" or "answer") from a code made by encodeDescription. */
export function decodeDescription(code, type) {
  const parts = String(code).trim().split("~");
  if (parts[0] !== VERSION || parts.length < 4) throw codeError("not a connection code of this game", "not_a_code", "why_not_a_code");
  const [, ufrag, pwd, fp64, ...cands] = parts;
  if (!/^[A-Za-z0-9_-]{4,256}$/.test(ufrag) || !/^[A-Za-z0-9_-]{22,256}$/.test(pwd)) {
    throw codeError("damaged connection code", "code_damaged", "why_damaged");
  }
  let fp;
  try { fp = Uint8Array.from(atob(fromUrlSafe(fp64)), (c) => c.charCodeAt(0)); } catch { fp = []; }
  if (fp.length !== 32) throw codeError("damaged connection code", "code_damaged", "why_damaged");
  const hex = Array.from(fp, (b) => b.toString(16).padStart(2, "0").toUpperCase()).join(":");
  const lines = ["v=0", "o=- 1 2 IN IP4 127.0.0.1", "s=-", "t=0 0", "a=group:BUNDLE 0",
    "a=msid-semantic: WMS", "m=application 9 UDP/DTLS/SCTP webrtc-datachannel", "c=IN IP4 0.0.0.0"];
  cands.forEach((c, i) => {
    const m = c.match(/^([hsrp])(@[A-Za-z0-9_-]{22}|[0-9A-Za-z.:-]+),(\d{1,5})$/);
    if (!m) throw codeError("damaged connection code", "code_damaged", "why_damaged");
    lines.push(`a=candidate:${i + 1} 1 udp ${2122260223 - i} ${fullAddress(m[2])} ${m[3]} typ ${CAND_NAMES[m[1]]} generation 0`);
  });
  lines.push("a=ice-ufrag:" + fromUrlSafe(ufrag), "a=ice-pwd:" + fromUrlSafe(pwd), "a=ice-options:trickle",
    "a=fingerprint:sha-256 " + hex, "a=setup:" + (type === "offer" ? "actpass" : "active"),
    "a=mid:0", "a=sctp-port:5000", "a=max-message-size:262144");
  return lines.join("\r\n") + "\r\n";
}

/** Whether a connection code (encodeDescription's) names a candidate: without one, no WebRTC path can open. */
export function hasCandidates(code) {
  return String(code).split("~").length > 4;
}

/**
 * Resolves when `pc` has gathered its candidates, or after GATHER_MS; with `turn` (a TURN
 * server is configured) not before a relayed candidate came, up to RELAY_GATHER_MS.
 */
function gathered(pc, turn) {
  return new Promise((resolve) => {
    if (pc.iceGatheringState === "complete") return resolve();
    let relayed = false;
    let waited = false;
    const timers = [];
    const done = () => { timers.forEach(clearTimeout); resolve(); };
    timers.push(setTimeout(() => { waited = true; if (!turn || relayed) done(); }, GATHER_MS));
    if (turn) timers.push(setTimeout(done, RELAY_GATHER_MS));
    pc.addEventListener("icecandidate", ({ candidate }) => {
      if (candidate && candidate.type === "relay") { relayed = true; if (waited) done(); }
    });
    pc.addEventListener("icegatheringstatechange", () => {
      if (pc.iceGatheringState === "complete") done();
    });
  });
}

/** Whether `iceServers` (as RTCConfiguration takes them) name a TURN server. */
function namesTurn(iceServers) {
  return (iceServers || []).some((server) => [].concat(server.urls || server.url || [])
    .some((url) => /^turns?:/i.test(String(url))));
}

/**
 * One data channel to the other page. It is made at once and given to
 * `take(channel)` in the task that made it: a channel can be moved to a worker
 * (postMessage(channel, [channel])) only then, before it is used. Whoever reads the
 * channel calls `opened()` and `closed()`, which call `onopen` and `onclose` once
 * each; the connection's own failure closes the link too.
 */
export class Link {
  /**
   * `iceServers` as RTCConfiguration takes them; `iceTransportPolicy` "relay" uses
   * only TURN servers' relayed paths (a site that must hide its players' addresses,
   * and the tests that prove the TURN path), "all" (the default) any path.
   */
  constructor(iceServers, take, { iceTransportPolicy = "all" } = {}) {
    if (typeof RTCPeerConnection !== "function") throw failure("this browser has no WebRTC", "why_no_webrtc");
    this.pc = new RTCPeerConnection({ iceServers, iceTransportPolicy });
    this.turn = namesTurn(iceServers);
    this.onopen = this.onclose = null;
    this.open = false;
    this.carrier = null;
    this.onfail = null;
    this.pc.addEventListener("connectionstatechange", () => {
      if (this.carrier || !["failed", "closed"].includes(this.pc.connectionState)) return;
      // A connection that never opened may still be carried another way (onfail says whether).
      if (!this.open && this.onfail && this.onfail()) return;
      this.closed();
    });
    // Negotiated: both pages make channel 0 themselves, so it exists on both sides from the
    // start (an offered channel would reach the answering page only later, by ondatachannel).
    take(this.pc.createDataChannel("pishe", { negotiated: true, id: 0, ordered: true }));
  }

  /**
   * Whether ICE has found a path: the channel is open, or opens shortly (its news may wait
   * for whoever reads it: a worker still starting Python).
   */
  get pathFound() {
    return this.pc.connectionState === "connected" || ["connected", "completed"].includes(this.pc.iceConnectionState);
  }

  opened() {
    if (this.open || this.ended) return;
    this.open = true;
    if (this.onopen) this.onopen();
  }

  closed() {
    // The WebRTC channel given up for a carrier closes too: only the carrier's end counts.
    if (this.ended || (this.carrier && !this.carrier.ended)) return;
    this.ended = true;
    this.open = false;
    if (this.onclose) this.onclose();
  }

  close() {
    this.ended = true;
    this.open = false;
    this.pc.close();
    if (this.carrier) this.carrier.close();
  }

  /**
   * From now on this link's messages go another way, `carrier` ({route(), close()}):
   * the WebRTC connection is given up, not the link, which opens and closes as the
   * carrier's channel does.
   */
  carryBy(carrier) {
    this.carrier = carrier;
    this.pc.close();
  }

  /**
   * The path the channel takes now, from the selected candidate pair's stats:
   * {path: "direct" | "turn", rtt: round trip in ms or null}, or null before a pair
   * is selected. "turn" when either end is a TURN server's relayed address. A link
   * carried another way says the carrier's (carryBy).
   */
  async route() {
    if (this.carrier) return this.carrier.route();
    const stats = await this.pc.getStats();
    let pair = null;
    stats.forEach((report) => {
      if (report.type === "transport" && report.selectedCandidatePairId) pair = stats.get(report.selectedCandidatePairId);
    });
    if (!pair) stats.forEach((report) => { if (report.type === "candidate-pair" && report.nominated && report.state === "succeeded") pair = report; });
    if (!pair) return null;
    const ends = [stats.get(pair.localCandidateId), stats.get(pair.remoteCandidateId)];
    const relayed = ends.some((end) => end && end.candidateType === "relay");
    const rtt = typeof pair.currentRoundTripTime === "number" ? Math.round(pair.currentRoundTripTime * 1000) : null;
    return { path: relayed ? "turn" : "direct", rtt };
  }

  /** Host: make the offer; returns its code for the invite link. Raises a failure named by its cause. */
  async offer() {
    try {
      await this.pc.setLocalDescription(await this.pc.createOffer());
    } catch (err) {
      throw named(err, "why_browser");
    }
    await gathered(this.pc, this.turn);
    return encodeDescription(this.pc.localDescription.sdp);
  }

  /** Guest: answer an offer code; returns the reply code for the host. Raises a failure named by its cause. */
  async answer(offerCode) {
    await this.takeCode("offer", offerCode);
    try {
      await this.pc.setLocalDescription(await this.pc.createAnswer());
    } catch (err) {
      throw named(err, "why_browser");
    }
    await gathered(this.pc, this.turn);
    return encodeDescription(this.pc.localDescription.sdp);
  }

  /** Host: take the guest's reply code; the channel opens shortly after. Raises a failure named by its cause. */
  async accept(replyCode) {
    await this.takeCode("answer", replyCode);
  }

  /** The other page's code of `type`: one that is not ours, damaged, or that the browser refuses fails so. */
  async takeCode(type, code) {
    const sdp = decodeDescription(code, type);
    try {
      await this.pc.setRemoteDescription({ type, sdp });
    } catch (err) {
      throw named(err, "why_refused");
    }
  }
}
