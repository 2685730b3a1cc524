// Signaling by hand, with no server of ours: the host's offer code travels in
// the invite link (#join=<code>), the guest's answer as a reply code pasted
// back. This module makes the data channel (web/core/rtc.js) with the ICE
// servers the site lists, and reads and writes invite links.

import { Link } from "../../core/rtc.js";

const JOIN = "#join=";

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

/** The invite link for an offer code: this page's address with #join=<code>. */
export function inviteLink(code) {
  return location.origin + location.pathname + JOIN + code;
}

/** The offer code of the invite link this page was opened with, or null. */
export function joinCode() {
  return location.hash.startsWith(JOIN) ? location.hash.slice(JOIN.length) : null;
}

/** Take the invite code out of the address bar (leaving a friend's table). */
export function forgetJoinCode() {
  if (location.hash.startsWith(JOIN)) history.replaceState(null, "", location.pathname + location.search);
}
