// The friend panel: the connection's status, one invite for each seat kept for
// a friend (its link and QR code, the reply code to paste if their page shows
// one, Invite again), the guest's reply code, the fairness line and Leave the
// table. It shows what the friend's table tells it; it carries nothing to
// Python and decides nothing. Its sentences are Python's, by key
// (pishe/table/words.py, through ../words.js), or the page's markup.

import { setText } from "../../text.js";
import { say, word } from "../words.js";
import { qrSvg } from "./qr.js";

/** The connection's status lines: keys of the page's words (pishe/table/words.py). */
export const STATUS = {
  preparing: "preparing",
  answering: "answering",
  waiting: "waiting",
  connecting: "connecting",
  connected: "connected",
  hostLost: "host_lost",
  reconnecting: "reconnecting",
  guestLost: "guest_lost",
  linkUsed: "link_used",
  failed: "failed",
  noPathHost: "no_path_host",
  noPathGuest: "no_path_guest",
  inviteFailed: "invite_failed",
  linkBroken: "link_broken",
};

const $ = (selector) => document.querySelector(selector);

export const ui = {
  panel: $("[data-friend]"),
  first: $("[data-friend-first]"),
  status: $("[data-friend-status]"),
  details: $("[data-friend-details]"),
  detail: $("[data-friend-detail]"),
  path: $("[data-friend-path]"),
  seatInvites: $("[data-seat-invites]"),
  seatTemplate: $("[data-seat-invite-template]"),
  guestReply: $("[data-guest-reply]"),
  replyOutput: $("[data-reply-output]"),
  fair: $("[data-fair]"),
  note: $("[data-friend-note]"),
  relays: $("[data-relay-details]"),
  leave: $("[data-leave]"),
  dealNow: $("[data-deal-now]"),
  dealAgain: $("[data-deal-again]"),
  hold: $("[data-hold]"),
  nameForm: $("[data-name-form]"),
  nameInput: $("[data-name-input]"),
  nameNote: $("[data-name-note]"),
};

/**
 * A seat's invite in the panel: {seat, root, hostInvite, inviteLink, qr, replyInput,
 * connect, connectError, inviteAgain, state, path}. `name` is the seat's name (Python's,
 * from the view), `side` Python's word for its side ("your partner", "other team", or "");
 * with `several` seats to invite, every label names its seat.
 */
export function seatInvite(seat, name, several, side = "") {
  const root = ui.seatTemplate.content.firstElementChild.cloneNode(true);
  root.dataset.seat = String(seat);
  // Ids unique per seat, so that every label and hint points at its own box.
  for (const node of root.querySelectorAll("[data-id]")) node.id = `${node.dataset.id}-${seat}`;
  for (const node of root.querySelectorAll("[data-for]")) node.htmlFor = `${node.dataset.for}-${seat}`;
  for (const node of root.querySelectorAll("[data-describedby]")) {
    node.setAttribute("aria-describedby", `${node.dataset.describedby}-${seat}`);
  }
  for (const node of root.querySelectorAll("[data-copy]")) node.dataset.copy = `${node.dataset.copy}-${seat}`;
  for (const node of root.querySelectorAll("[data-seat-invite-name]")) setText(node, name);
  const sideNote = root.querySelector("[data-seat-invite-side]");
  setText(sideNote, side);
  sideNote.hidden = !side;
  for (const node of root.querySelectorAll("[data-seat-invite-for]")) node.hidden = !several;
  root.querySelector("[data-seat-invite-title]").hidden = !several;
  const q = (selector) => root.querySelector(selector);
  const invite = {
    seat, root, hostInvite: q("[data-host-invite]"), inviteLink: q("[data-invite-link]"), qr: q("[data-qr]"),
    replyInput: q("[data-reply-input]"), connect: q("[data-connect]"), connectError: q("[data-connect-error]"),
    inviteAgain: q("[data-invite-again]"), state: q("[data-seat-invite-state]"), path: q("[data-seat-invite-path]"),
  };
  ui.seatInvites.append(root);
  if (several) ui.seatInvites.dataset.several = "";
  else delete ui.seatInvites.dataset.several;
  wireCopyButtons(root);
  wireShareButton(root, invite.inviteLink);
  return invite;
}

/**
 * Share beside Copy link, where the browser can share (the Web Share API: most phones):
 * the invite link goes to the app the host picks.
 */
function wireShareButton(root, input) {
  const button = root.querySelector("[data-share]");
  if (!button || typeof navigator.share !== "function") return;
  button.hidden = false;
  button.addEventListener("click", async () => {
    if (!input.value) return;
    const note = root.querySelector("[data-copied]");
    try {
      await navigator.share({ title: word("share_title"), url: input.value });
      say(note, "shared");
    } catch (err) {
      if (err && err.name === "AbortError") return; // the host closed the share sheet
      say(note, "copy_by_hand");
    }
    clearTimeout(note.timer);
    note.timer = setTimeout(() => say(note, null), 2500);
  });
}

/** No seat invites (leaving the table, or the guest's side). */
export function clearSeatInvites() {
  ui.seatInvites.replaceChildren();
}

/** A seat invite's state beside its name: the page's word `key` ("seat_waiting", …). */
export function setSeatState(invite, key) {
  say(invite.state, key);
  invite.root.dataset.state = key;
}

/**
 * The status line: the sentence `key` (one of STATUS), its {name}s from `values`;
 * `kind` ("info", "waiting", "connected", "lost") also styles the page. `detail`: the
 * browser's own words for a failure, shown only in the collapsed details under the line.
 */
export function setStatus(key, kind = "info", values = {}, detail = null) {
  said = [key, values];
  say(ui.status, key, values);
  showFirstLine();
  ui.details.hidden = !detail;
  ui.details.open = false;
  setText(ui.detail, detail);
  ui.status.dataset.kind = kind;
  ui.panel.dataset.state = kind;
  document.body.dataset.friend = kind;
}

/**
 * The status line `key` for a link that failed with `err`: its {reason}, the page's words for
 * the failure's cause (web/core/rtc.js names it), and the browser's own words in the details.
 */
export function sayFailed(key, err) {
  console.warn("the link failed:", err);
  setStatus(key, "lost", { reason: { word: (err && err.why) || "why_browser" } }, err && err.detail);
}

let said = [null, {}]; // the status line's key and values, as last said

/** The status line's sentence, as last said: [key, values] (a null key before any). */
export function statusSaid() {
  return said;
}

/**
 * An invited friend's first line ("Connecting to the host's table…", the page's markup, in
 * its language from the first paint) shows until the status line has words of its own.
 */
export function showFirstLine() {
  if (ui.first.hidden) return;
  ui.first.hidden = Boolean(ui.status.textContent);
}

/** Show a seat's invite step, empty until its link is made. */
export function clearInvite(invite) {
  invite.inviteAgain.hidden = true;
  invite.hostInvite.hidden = false;
  invite.inviteLink.value = "";
  invite.replyInput.value = "";
  invite.root.querySelector("[data-reply-step]").open = false;
  say(invite.connectError, null);
  invite.connect.setAttribute("aria-disabled", "true");
  invite.qr.replaceChildren();
}

/** A seat's invite link is ready: show it, and let Connect take a reply code. */
export function showInvite(invite, url) {
  invite.inviteLink.value = url;
  invite.connect.setAttribute("aria-disabled", "false");
  if (ui.panel.contains(document.activeElement) || document.activeElement === document.body) {
    invite.hostInvite.querySelector("[data-copy]").focus();
  }
}

/** A seat's invite link as a QR code (rows of "0"/"1"). */
export function showQr(invite, rows) {
  invite.qr.replaceChildren(qrSvg(rows, invite.qr.dataset.label));
}

/** Hide a seat's invite step (its friend is connected): Invite again shows if `lost`. */
export function hideInvite(invite, lost = false) {
  invite.hostInvite.hidden = true;
  invite.inviteAgain.hidden = !lost;
}

/** The details line of the relays: those of signaling.json not reached (none: hidden). */
export function showRelays(failed) {
  ui.relays.hidden = failed.length === 0;
  say(ui.relays, failed.length ? "relays_failed" : null, { list: failed.join(", ") });
}

/** The panel's fairness line: {ok, line} or null for none. */
export function showFair(fair) {
  ui.fair.hidden = !fair;
  setText(ui.fair, fair ? fair.line : "");
  if (fair) ui.fair.dataset.kind = fair.ok ? "ok" : "warning";
  ui.fair.setAttribute("role", fair && !fair.ok ? "alert" : "status");
}

async function copy(input, button) {
  const value = input.value;
  if (!value) return;
  input.focus();
  input.select();
  let ok = false;
  try {
    await navigator.clipboard.writeText(value);
    ok = true;
  } catch {
    try {
      ok = document.execCommand("copy");
    } catch {
      ok = false;
    }
  }
  const note = button.parentElement.parentElement.querySelector("[data-copied]");
  if (note) {
    say(note, ok ? "copied" : "copy_by_hand");
    clearTimeout(note.timer);
    note.timer = setTimeout(() => say(note, null), 2500);
  }
}

/** The Copy buttons in `root`, and a code box's text selected when it takes the focus. */
export function wireCopyButtons(root = ui.guestReply) {
  for (const button of root.querySelectorAll("[data-copy]")) {
    const input = document.getElementById(button.dataset.copy);
    button.addEventListener("click", () => copy(input, button));
    input.addEventListener("focus", () => input.select());
  }
}
