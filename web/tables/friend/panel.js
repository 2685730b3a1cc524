// The friend panel: the connection's status, the invite link and its QR code,
// the reply code (to paste, or to send back), the fairness line, Invite again
// and Leave the table. It shows what the friend's table tells it; it carries
// nothing to Python and decides nothing. Its sentences are Python's, by key
// (pishe/table/words.py, through ../words.js).

import { setText } from "../../text.js";
import { say } from "../words.js";
import { qrSvg } from "./qr.js";

/** The connection's status lines: keys of the page's words (pishe/table/words.py). */
export const STATUS = {
  preparing: "preparing",
  answering: "answering",
  waiting: "waiting",
  connecting: "connecting",
  connected: "connected",
  hostLost: "host_lost",
  guestLost: "guest_lost",
  linkUsed: "link_used",
  failed: "failed",
  inviteFailed: "invite_failed",
  linkBroken: "link_broken",
};

const $ = (selector) => document.querySelector(selector);

export const ui = {
  panel: $("[data-friend]"),
  status: $("[data-friend-status]"),
  hostInvite: $("[data-host-invite]"),
  inviteLink: $("[data-invite-link]"),
  qr: $("[data-qr]"),
  replyInput: $("[data-reply-input]"),
  connect: $("[data-connect]"),
  connectError: $("[data-connect-error]"),
  guestReply: $("[data-guest-reply]"),
  replyOutput: $("[data-reply-output]"),
  fair: $("[data-fair]"),
  note: $("[data-friend-note]"),
  inviteAgain: $("[data-invite-again]"),
  leave: $("[data-leave]"),
};

/**
 * The status line: the sentence `key` (one of STATUS), its {name}s from `values`;
 * `kind` ("info", "waiting", "connected", "lost") also styles the page.
 */
export function setStatus(key, kind = "info", values = {}) {
  say(ui.status, key, values);
  ui.status.dataset.kind = kind;
  ui.panel.dataset.state = kind;
  document.body.dataset.friend = kind;
}

/** Show the host's invite step, empty until the link is made. */
export function clearInvite() {
  ui.inviteAgain.hidden = true;
  ui.hostInvite.hidden = false;
  ui.inviteLink.value = "";
  ui.replyInput.value = "";
  say(ui.connectError, null);
  ui.connect.setAttribute("aria-disabled", "true");
  ui.qr.replaceChildren();
}

/** The invite link is ready: show it, and let Connect take a reply code. */
export function showInvite(url) {
  ui.inviteLink.value = url;
  ui.connect.setAttribute("aria-disabled", "false");
  if (ui.panel.contains(document.activeElement) || document.activeElement === document.body) {
    ui.hostInvite.querySelector("[data-copy]").focus();
  }
}

/** The invite link's QR code (rows of "0"/"1"). */
export function showQr(rows) {
  ui.qr.replaceChildren(qrSvg(rows, ui.qr.dataset.label));
}

/** Hide the invite and reply steps (connected, or nothing more to paste). */
export function hideSteps() {
  ui.hostInvite.hidden = true;
  ui.guestReply.hidden = true;
  ui.inviteAgain.hidden = true;
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

/** The Copy buttons, and a code box's text selected when it takes the focus. */
export function wireCopyButtons() {
  for (const button of ui.panel.querySelectorAll("[data-copy]")) {
    const input = document.getElementById(button.dataset.copy);
    button.addEventListener("click", () => copy(input, button));
    input.addEventListener("focus", () => input.select());
  }
}
