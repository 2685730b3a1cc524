// Signaling with no server of ours: the host's offer code travels in the
// invite link (#join=<code>&k=<key>); the guest's answer goes back through a
// Nostr relay, encrypted with the link's key (relay.js), or as a reply code
// pasted back by hand. This module makes the data channel (web/core/rtc.js)
// with the ICE servers the site lists, and reads and writes invite links.

import { Link } from "../../core/rtc.js";

const JOIN = "#join=";
const KEY = "&k="; // neither an offer code nor a key has "&" in it

let iceServersPromise = null;

/** The ICE servers from ice-servers.json beside the page ({"iceServers": [...]}); none if unreadable. */
function iceServers() {
  if (!iceServersPromise) {
    iceServersPromise = fetch(new URL("ice-servers.json", document.baseURI), { cache: "no-cache" })
      .then((response) => (response.ok ? response.json() : {}))
      .then((data) => (data && Array.isArray(data.iceServers) ? data.iceServers : []))
      .catch(() => []);
  }
  return iceServersPromise;
}

/** A new data channel to the other page, not yet offered or answered. */
export async function newLink() {
  const servers = await iceServers();
  try {
    return new Link(servers);
  } catch (err) {
    console.warn("ice-servers.json was refused, connecting without it:", err);
    return new Link([]);
  }
}

/** The invite link for an offer code and the relay key (null: none): this page's address with #join=…. */
export function inviteLink(code, key = null) {
  return location.origin + location.pathname + JOIN + code + (key ? KEY + key : "");
}

/** What follows #join= in the invite link this page was opened with, or null. */
export function joinCode() {
  return location.hash.startsWith(JOIN) ? location.hash.slice(JOIN.length) : null;
}

/** An invite's offer code and relay key (null when the link has none). */
export function parseJoin(fragment) {
  const at = fragment.indexOf(KEY);
  return at < 0 ? { offer: fragment, key: null } : { offer: fragment.slice(0, at), key: fragment.slice(at + KEY.length) };
}

/** Take the invite code out of the address bar (leaving a friend's table). */
export function forgetJoinCode() {
  if (location.hash.startsWith(JOIN)) history.replaceState(null, "", location.pathname + location.search);
}
