// The guest's answer, carried back to the host through public Nostr relays, so a
// friend joins by opening the invite link alone (no reply code pasted back).
//
// The invite link carries the host's offer code, and the link key is made from it
// (linkKey): nothing has to travel from host to guest. The host's page listens
// (listenForAnswer) from the moment it makes the link; the guest's page posts ONE
// event with its answer code (postAnswer). An event is of an ephemeral kind (relays
// pass it on and do not keep it) with a NIP-40 expiration a few minutes ahead, and
// is signed with a throwaway keypair: relays see no lasting identity. It carries:
//   tag   ["t", hex SHA-256("pishe:room:v1:" + key), first 32 digits]: what the host
//         subscribes to; a hash, so the relay never learns the key
//   content  base64(iv ‖ AES-GCM ciphertext), 12-byte iv, under an AES-256 key
//         derived from the link key with HKDF-SHA-256 (info "pishe:answer:v1"), of
//         the JSON {"v": 1, "offer": hex SHA-256("pishe:offer:v1:" + offer code),
//         first 32 digits, "answer": answer code, "at": Unix seconds when posted}
// The host takes the first event that decrypts, answers its own offer and is not
// out of date; it ignores every other one and says why by the key of a sentence in
// pishe/table/words.py (IGNORED below). docs/PROTOCOL.md, "Signaling through Nostr
// relays", describes the same.
//
// The relays are listed in signaling.json beside index.html ({"relays": ["wss://…"]});
// an empty list or no readable file means the reply code by hand only. The Nostr
// library (nostr-tools' browser bundle, which build.py pins and puts in vendor/) is
// loaded on first use only, so the computer table never downloads it.

const KIND = 25050;                       // ephemeral (20000–29999): relays forward it, NIP-01 says not to keep it
const ROOM = "pishe:room:v1:";
const OFFER = "pishe:offer:v1:";
const AES_INFO = "pishe:answer:v1";
const LINK = "pishe:link:v1:";
const KEY_BYTES = 16;
const LISTEN_MS = 3000;                   // a relay that has not taken the subscription by then is unreachable
const POST_MS = 3000;
const EXPIRES_S = 300;                    // NIP-40: relays may drop the event after five minutes
const SKEW_S = 600;                       // the two pages' clocks may differ by this much
const MAX_CONTENT = 4096;
// The largest event a relay takes, in bytes of its JSON: what signaling.json may state
// (some public relays take only 4 KiB; strfry 64 KiB by default, nostr-rs-relay 128 KiB),
// and what is assumed when it does not: a Pişti view to three friends, deflated, in one.
const EVENT_BYTES = { least: 2048, assumed: 16384, most: 65536 };
const IGNORED = {
  unreadable: "relay_unreadable",         // not base64, not decryptable with this key, not our JSON
  otherOffer: "relay_other_offer",        // an answer to another invite made with the same key
  stale: "relay_stale",                   // posted long before this link was made, or in the future
};

const encoder = new TextEncoder();
const nowSeconds = () => Math.floor(Date.now() / 1000);
const hex = (bytes) => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");

function toBase64url(bytes) {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The bytes of `text` in base64 or base64url. */
export function fromBase64(text) {
  return Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
}

let library = null;

/** nostr-tools (finalizeEvent, generateSecretKey, SimplePool), imported on first use. */
export function nostr() {
  if (!library) {
    library = import(new URL("../../../vendor/nostr-tools.mjs", import.meta.url).href)
      .then((module) => module.default)
      .catch((err) => { library = null; throw err; });  // offline now, maybe not on the next try
  }
  return library;
}

/**
 * The link key of the invite made from the offer code `offer`: the first 16 bytes of
 * SHA-256("pishe:link:v1:" + offer code), in base64url (22 characters). The offer code
 * holds the host's ICE password (at least 128 random bits, RFC 8445), which only the
 * invite link carries: the key is as secret as a random one, and the link carries no
 * key of its own (23 characters shorter).
 */
export async function linkKey(offer) {
  const digest = await crypto.subtle.digest("SHA-256", encoder.encode(LINK + String(offer)));
  return toBase64url(new Uint8Array(digest).slice(0, KEY_BYTES));
}

/**
 * Why `invite` (what follows #join= in a link) cannot be answered because an older page made
 * it, by the key of the page's words for it (pishe/table/words.py), else null. Before the link
 * key was made from the offer code (linkKey), a link carried one of its own after the offer
 * code: "<offer code>!<22 characters>". The host's page that made it listens under that key,
 * which no page today reads: its friend is told to ask for a new link.
 */
export function olderInvite(invite) {
  return /^p1~[^!]*![A-Za-z0-9_-]{22}$/.test(String(invite)) ? "why_older" : null;
}

/**
 * What signaling.json beside the page says: {relays, eventBytes}. `relays`: the relays'
 * addresses ({"relays": [...]}), ws:// or wss:// only; [] when it is missing, unreadable
 * or empty (the reply code by hand, then). `eventBytes`: the largest event (its JSON, in
 * bytes) every one of them takes ({"eventBytes": N}, EVENT_BYTES.least to .most), else
 * EVENT_BYTES.assumed. Read afresh each time, so a
 * host's edit in dist/ counts at once. With a relay listed it also starts loading the
 * Nostr library, so that it is ready by the time the answer is.
 */
export async function signaling() {
  let relays = [];
  let eventBytes = EVENT_BYTES.assumed;
  try {
    const response = await fetch(new URL("signaling.json", document.baseURI), { cache: "no-cache" });
    const data = response.ok ? await response.json() : null;
    if (data && Array.isArray(data.relays)) {
      relays = [...new Set(data.relays.filter((url) => typeof url === "string" && /^wss?:\/\/[^\s]+$/.test(url)))];
    }
    const stated = data ? data.eventBytes : undefined;
    if (Number.isInteger(stated) && stated >= EVENT_BYTES.least && stated <= EVENT_BYTES.most) eventBytes = stated;
    else if (stated !== undefined) console.warn(`signaling.json's eventBytes is not a whole number of bytes from ${EVENT_BYTES.least} to ${EVENT_BYTES.most}: ${EVENT_BYTES.assumed} is assumed.`);
  } catch (err) {
    console.warn("signaling.json is unreadable: the reply code by hand only.", err);
  }
  if (relays.length) nostr().catch(() => {});  // a failure is reported when it is used
  return { relays, eventBytes };
}

/** The relays' addresses from signaling.json (signaling()). */
export async function relayList() {
  return (await signaling()).relays;
}

/** The first 32 hex digits of the SHA-256 of `text`. */
export async function sha256Hex(text) {
  return hex(await crypto.subtle.digest("SHA-256", encoder.encode(text))).slice(0, 32);
}

/** What a link key and offer code give: the room tag, the offer's hash, the AES key. */
async function secrets(key, offer) {
  const raw = fromBase64(String(key));
  // A damaged link, by the key of the page's words for it (pishe/table/words.py), as web/core/rtc.js names its failures.
  if (raw.length !== KEY_BYTES) throw Object.assign(new Error(`a link key is ${KEY_BYTES} bytes of base64url`), { why: "why_damaged" });
  const material = await crypto.subtle.importKey("raw", raw, "HKDF", false, ["deriveKey"]);
  const aes = await crypto.subtle.deriveKey(
    { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: encoder.encode(AES_INFO) },
    material, { name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
  return { tag: await sha256Hex(ROOM + key), offerHash: await sha256Hex(OFFER + offer), aes };
}

/**
 * The answer code in a relay's event, or {ignored: key of the sentence saying why}.
 * Only an event that decrypts under this link's key, names this offer and was
 * posted within the link's lifetime (give or take the clocks' skew) is taken.
 */
async function openAnswer(event, { aes, offerHash }, since) {
  let payload;
  try {
    if (typeof event.content !== "string" || event.content.length > MAX_CONTENT) throw new Error("too long");
    const sealed = fromBase64(event.content);
    const plain = await crypto.subtle.decrypt({ name: "AES-GCM", iv: sealed.slice(0, 12) }, aes, sealed.slice(12));
    payload = JSON.parse(new TextDecoder().decode(plain));
  } catch {
    return { ignored: IGNORED.unreadable };
  }
  if (!payload || payload.v !== 1 || typeof payload.answer !== "string" || !Number.isInteger(payload.at)) {
    return { ignored: IGNORED.unreadable };
  }
  if (payload.offer !== offerHash) return { ignored: IGNORED.otherOffer };
  if (payload.at < since - SKEW_S || payload.at > nowSeconds() + SKEW_S) return { ignored: IGNORED.stale };
  return { answer: payload.answer };
}

/**
 * Host: listen on every relay for the guest's answer to `offer` (its code), made
 * under link key `key`. Calls onAnswer(answerCode) once, for the first valid
 * answer, then stops listening by itself; every other event is ignored and
 * reported as onIgnored(wordKey) (a key of pishe/table/words.py's PAGE:
 * "relay_unreadable", "relay_other_offer", "relay_stale"). onState("listening")
 * once a relay has taken the subscription, onState("unreachable") when none has
 * within a few seconds (or none is listed, or the last one dropped); each is said
 * on a change only. onRelays({live, failed}) after each relay's news: the addresses
 * listening now, and those not reached (or dropped), for the page's details line.
 * `seen`: the ids of the events taken already (each relay forwards the same event, and
 * one that keeps it sends it to every later listener too), shared by listeners in turn.
 * Returns {close()}: stop listening (safe to call twice).
 */
export function listenForAnswer({ key, offer, onAnswer, onIgnored = () => {}, onState = () => {}, onRelays = () => {},
  seen = new Set() }) {
  const since = nowSeconds();
  const live = new Set();      // relays that have taken the subscription and not dropped it
  const failed = new Set();    // relays that could not be reached, or dropped the subscription
  let pending = 0;             // relays that have neither taken the subscription nor failed yet
  const connecting = [];       // each relay's connection, settled or not
  const subscriptions = [];
  let pool = null;
  let closed = false;
  let waited = false;
  let state = null;

  const report = () => {
    if (closed) return;
    const now = live.size ? "listening" : "unreachable";
    if (now !== state && (live.size || waited || pending === 0)) {
      state = now;
      onState(now);
    }
  };
  const timer = setTimeout(() => { waited = true; report(); }, LISTEN_MS);
  const close = () => {
    if (closed) return;
    closed = true;
    clearTimeout(timer);
    if (!pool) return;
    // Let connections under way finish, then tell each relay CLOSE before its socket
    // goes (nostr-tools sends it a moment later): a socket closed while connecting,
    // or before that CLOSE is sent, has the browser log an error.
    const ending = pool;
    Promise.allSettled(connecting).then(() => {
      subscriptions.forEach((sub) => sub.close());
      setTimeout(() => ending.destroy(), 0);
    });
  };

  (async () => {
    const [relays, secret] = await Promise.all([relayList(), secrets(key, offer)]);
    if (closed) return;
    if (!relays.length) { waited = true; report(); return; }
    const tools = await nostr();
    if (closed) return;
    // A friend may take minutes to open the link: ping the relays so that no idle
    // connection is dropped on the way, and reconnect (resubscribing) if one is.
    pool = new tools.SimplePool({ maxWaitForConnection: LISTEN_MS, enablePing: true, enableReconnect: true });
    const filter = { kinds: [KIND], "#t": [secret.tag], since: since - SKEW_S };
    const onevent = async (event) => {
      if (closed || seen.has(event.id)) return;
      seen.add(event.id);
      const opened = await openAnswer(event, secret, since);
      if (closed) return;
      if (opened.ignored) { onIgnored(opened.ignored); return; }
      close();
      onAnswer(opened.answer);
    };
    // A subscription on each relay's own connection, so that each relay's state is
    // known (the pool's subscribe reports a relay it could not reach as done, too).
    for (const url of relays) {
      pending += 1;
      let settled = false;
      const settle = (taken) => {
        if (!settled) { settled = true; pending -= 1; }
        if (taken) { live.add(url); failed.delete(url); } else { live.delete(url); failed.add(url); }
        report();
        if (!closed) onRelays({ live: [...live], failed: [...failed] });
      };
      const connection = pool.ensureRelay(url, { connectionTimeout: LISTEN_MS });
      connecting.push(connection);
      connection.then((relay) => {
        if (closed) return;
        subscriptions.push(relay.subscribe([filter], {
          onevent,
          oneose: () => settle(true),
          onclose: () => settle(false),
        }));
      }, () => settle(false));
    }
  })().catch((err) => {
    console.warn("listening on the relays failed:", err);
    pending = 0;
    waited = true;
    report();
  });

  return { close };
}

/**
 * Guest: post the answer code `answer` to the offer `offer`, under link key `key`,
 * as one event to every relay. Resolves true as soon as one relay has taken it,
 * false when none has in time or no relay is listed: show the reply code
 * then. Never rejects. `attempt` (0, 1, …): the how-manieth try this is; a relay
 * is given longer each time (a busy relay is slow, not gone).
 */
export function postAnswer({ key, offer, answer, attempt = 0 }) {
  const timeoutMs = POST_MS * (attempt + 1);
  return new Promise((resolve) => {
    let pool = null;
    let over = false;
    // The first relay's OK settles the promise; the others may still take the event
    // until they have all answered or the time is up, and only then are the sockets closed.
    const end = () => {
      over = true;
      clearTimeout(timer);
      resolve(false);
      if (pool) pool.destroy();
    };
    const timer = setTimeout(end, timeoutMs);
    (async () => {
      const [relays, secret] = await Promise.all([relayList(), secrets(key, offer)]);
      if (!relays.length) return;
      const at = nowSeconds();
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const payload = encoder.encode(JSON.stringify({ v: 1, offer: secret.offerHash, answer, at }));
      const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, secret.aes, payload));
      const tools = await nostr();
      if (over) return;
      const event = tools.finalizeEvent({
        kind: KIND,
        created_at: at,
        tags: [["t", secret.tag], ["expiration", String(at + EXPIRES_S)]],
        content: btoa(String.fromCharCode(...iv, ...sealed)),
      }, tools.generateSecretKey());
      pool = new tools.SimplePool({ maxWaitForConnection: timeoutMs });
      const posts = pool.publish(relays, event);
      posts.forEach((post) => post.then(() => resolve(true), () => {}));
      await Promise.allSettled(posts);
    })().catch((err) => console.warn("posting the answer to the relays failed:", err)).finally(end);
  });
}
