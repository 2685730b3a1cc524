// Signaling with no server of ours: the host's offer code travels in the
// invite link (#join=<offer code>&game=<game>); the guest's answer goes back
// through a Nostr relay, encrypted with a key made from that code (relay.js), or
// as a reply code pasted back by hand. This module makes the data channel (web/core/rtc.js)
// with the ICE servers the site lists, handing it to the Python worker, carries a link
// through the relays instead when no WebRTC path exists (relaypath.js), and reads and
// writes invite links.

import { Link } from "../../core/rtc.js";
import { JOIN } from "../friend-keys.js";

let iceConfigPromise = null;
const POLICIES = ["all", "relay"];

/**
 * What ice-servers.json beside the page says ({"iceServers": [...], "iceTransportPolicy":
 * "all" | "relay"}): {iceServers, iceTransportPolicy}; no server and "all" if unreadable.
 */
function iceConfig() {
  if (!iceConfigPromise) {
    iceConfigPromise = fetch(new URL("ice-servers.json", document.baseURI), { cache: "no-cache" })
      .then((response) => (response.ok ? response.json() : {}))
      .catch(() => ({}))
      .then((data) => ({
        iceServers: data && Array.isArray(data.iceServers) ? data.iceServers : [],
        iceTransportPolicy: data && POLICIES.includes(data.iceTransportPolicy) ? data.iceTransportPolicy : "all",
      }));
  }
  return iceConfigPromise;
}

const links = new Map(); // link number -> Link, while the worker holds its channel
let numbered = 0;
const heard = new WeakSet();

/**
 * A new data channel to the other page, not yet offered or answered, read and
 * written by the Python worker `worker` (web/core/channel.js): each message it
 * receives goes to Python's `receive` call there ([name, ...args]: name(text, ...args)),
 * and every Python answer's messages for seat `to` go out from there. The link
 * calls `onopen`, `onclose`, and `onanswer(answer)` with Python's answer to each
 * message received (null if Python could not answer).
 */
export async function newLink(worker, { to, receive }) {
  const { iceServers, iceTransportPolicy } = await iceConfig();
  hear(worker);
  const number = ++numbered;
  const take = (channel) => worker.postMessage({ link: number, channel, to, receive }, [channel]);
  let link;
  try {
    link = new Link(iceServers, take, { iceTransportPolicy });
  } catch (err) {
    console.warn("ice-servers.json was refused, connecting without it:", err);
    link = new Link([], take);
  }
  link.onanswer = null;
  link.handOver = (extra, transfer) => worker.postMessage({ link: number, to, receive, ...extra }, transfer);
  links.set(number, link);
  return link;
}

/**
 * Carry `link`'s messages through the relays from now on, its WebRTC connection given
 * up (no path was found): the worker reads a port instead of a data channel, and this
 * page carries what goes through it (relaypath.js). `side` is this page's ("host" or
 * "guest"), `key` and `offer` the link key and offer code both pages know the link by.
 * Resolves false when no relay takes a connection (the link is left as it was).
 */
export async function carryByRelays(link, { key, offer, side }) {
  const { relayChannel } = await import("./relaypath.js");
  const channel = await relayChannel({ key, offer, side });
  if (!channel || link.ended || link.open) {
    if (channel) channel.close();
    return false;
  }
  const { port1, port2 } = new MessageChannel();
  channel.onopen = () => port1.postMessage({ open: true });
  channel.onmessage = (text) => port1.postMessage({ text });
  channel.onclose = () => port1.postMessage({ closed: true });
  port1.onmessage = ({ data }) => channel.send(String(data));
  link.handOver({ port: port2 }, [port2]);
  link.carryBy(channel);
  return true;
}

/** Follow the worker's news of the links' channels (once per worker). */
function hear(worker) {
  if (heard.has(worker)) return;
  heard.add(worker);
  worker.addEventListener("message", ({ data }) => {
    const link = data && links.get(data.link);
    if (!link) return;
    if (data.open) {
      link.opened();
    } else if (data.closed) {
      if (link.carrier && !link.carrier.ended) return;  // its given-up data channel, not its carrier
      links.delete(data.link);
      link.closed();
    } else {
      if ("error" in data) console.warn("no answer to the other page's message:", data.error);
      if (link.onanswer) link.onanswer("error" in data ? null : data.result);
    }
  });
}

const GAME = "&game=";

/**
 * The invite link for `invite` (an offer code) to a
 * table of `game`: this page's address with #join=…&game=…, so that the friend's page
 * shows that game from its first paint (web/core/invited.js).
 */
export function inviteLink(invite, game) {
  return location.origin + location.pathname + JOIN + invite + GAME + encodeURIComponent(game);
}

/** The invite in the link this page was opened with (what follows #join=, up to &game=), or null. */
export function joinCode() {
  if (!location.hash.startsWith(JOIN)) return null;
  const at = location.hash.indexOf(GAME);
  return location.hash.slice(JOIN.length, at < 0 ? undefined : at);
}

/** The game the invite link this page was opened with names, or null (an older link: the host's welcome says). */
export function joinGame() {
  const at = location.hash.startsWith(JOIN) ? location.hash.indexOf(GAME) : -1;
  const game = at < 0 ? "" : decodeURIComponent(location.hash.slice(at + GAME.length));
  return /^[a-z][a-z0-9-]{0,30}$/.test(game) ? game : null;
}

/** Take the invite code out of the address bar (leaving a friend's table). */
export function forgetJoinCode() {
  if (location.hash.startsWith(JOIN)) history.replaceState(null, "", location.pathname + location.search);
}

/**
 * What a knock (a friend's page coming back on its link) is bound to instead of the
 * link's offer itself: so that the relays' copy of the friend's first answer, which
 * is bound to the offer, is never taken for a knock.
 */
export function knockOn(offer) {
  return "knock:" + offer;
}

/** The relays' module (relay.js), loaded when a table is opened or joined (never by the computer's table). */
export function relay() {
  return import("./relay.js");
}
