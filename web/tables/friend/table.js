// A table against a friend, page to page, with no game server: entering and
// leaving it, the invite and the reply code, and the buttons while it is on.
//
// "Invite a friend" makes the host's offer and shows it as a link (and a QR
// code); the guest's page shows a short reply code that the host pastes in
// "Paste reply code" before pressing Connect. The session with the worker and
// the data channel is in session.js; the panel's look in panel.js. Every
// sentence shown is Python's (the page's words by key, ../words.js).

import { computerTable } from "../computer.js";
import { loadWords, say, word } from "../words.js";
import { forgetJoinCode, inviteLink, joinCode } from "./signaling.js";
import { STATUS, clearInvite, hideSteps, setStatus, showInvite, showQr, ui, wireCopyButtons } from "./panel.js";
import {
  GAME, GUEST_KEYS, HOST_KEY, NO_ANSWER, SAVED_KEY, TOKEN_KEY, USED_KEY, call, clearResultFair, closeLink, closed,
  focusTable, guestAnswer, hostAnswer, lockButtons, mark, openLink, queue, send, setIdle, show, showError, state,
  stored, table,
} from "./session.js";

const body = document.body;
const match = document.querySelector("section.match");
const invite = document.querySelector("[data-invite]");
const nextDealButton = table.querySelector("[data-next-deal]");

function enter(role) {
  if (state.role !== role) {
    computerTable.stop();
    state.role = role;
    state.view = null;
    state.status = null;
    state.lastTurn = undefined;
    state.awaiting = false;
  }
  body.dataset.table = "friend";
  body.dataset.role = role;
  ui.panel.hidden = false;
  match.hidden = true;
  ui.fair.hidden = true;
  clearResultFair();
  document.title = ui.panel.dataset.title;
  showError("");
  setIdle();
}

function leave() {
  const role = state.role;
  closeLink();
  state.role = null;
  state.view = null;
  state.status = null;
  body.dataset.table = "computer";
  delete body.dataset.role;
  delete body.dataset.friend;
  ui.panel.hidden = true;
  match.hidden = false;
  clearResultFair();
  say(ui.note, null);
  forgetJoinCode();
  try {
    for (const key of role === "guest" ? GUEST_KEYS : [HOST_KEY]) sessionStorage.removeItem(key);
  } catch {
    // Nothing was stored.
  }
  showError("");
  computerTable.start();
  invite.focus();
}

function chosenLength() {
  const checked = document.querySelector(`[data-settings="${GAME}"] input[data-setting="length"]:checked`);
  return checked ? checked.value : null;
}

/** Host: "Invite a friend" opens a table with the chosen match length and invites. */
async function openTable() {
  enter("host");
  await queue(async () => hostAnswer(await call("host_open", chosenLength())));
  await inviteAgain();
}

/**
 * Host: this tab was reloaded at a friend's table. The table comes back as it was
 * (Python replays it from what the tab kept); the friend's connection is gone, so
 * the host invites again.
 */
async function reopenTable(saved) {
  enter("host");
  ui.hostInvite.hidden = true;
  await queue(async () => {
    const answer = await call("host_open", null, saved);
    if (answer && "send" in answer) {
      hostAnswer(answer);
      setStatus(STATUS.hostLost, "lost");
      ui.inviteAgain.hidden = false;
      return;
    }
    leave(); // what the tab kept cannot be read: the computer's table, and why
    showError(answer ? word("not_brought_back", { reason: answer.error }) : NO_ANSWER);
  });
}

/** Host: a new offer for the table that is open (first invite, or again after a drop). */
async function inviteAgain() {
  setStatus(STATUS.preparing, "waiting");
  clearInvite();
  const link = await openLink();
  let code;
  try {
    code = await link.offer();
  } catch (err) {
    setStatus(STATUS.inviteFailed, "lost", { reason: reason(err) });
    ui.inviteAgain.hidden = false;
    return;
  }
  if (link !== state.link) return;
  const url = inviteLink(code);
  showInvite(url);
  setStatus(STATUS.waiting, "waiting");
  try {
    const qr = await call("qr_matrix", url);
    if (link === state.link && qr && Array.isArray(qr.rows)) showQr(qr.rows);
  } catch (err) {
    console.warn("no QR code:", err);
  }
}

/** Host: the guest's reply code, pasted; the channel opens shortly after. */
async function connect() {
  if (state.role !== "host" || !state.link || ui.connect.getAttribute("aria-disabled") === "true") return;
  const code = ui.replyInput.value.replace(/\s+/g, "");
  if (!code) {
    say(ui.connectError, "paste_reply");
    ui.replyInput.focus();
    return;
  }
  say(ui.connectError, null);
  mark("pishe:connect");
  ui.connect.setAttribute("aria-disabled", "true");
  try {
    await state.link.accept(code);
    if (!state.connected) setStatus(STATUS.connecting, "waiting");
  } catch (err) {
    // A code that is not ours, or damaged, in the page's words; else the browser's reason.
    if (err && err.word) say(ui.connectError, err.word);
    else say(ui.connectError, "connect_failed", { reason: reason(err) });
    ui.connect.setAttribute("aria-disabled", "false");
    ui.replyInput.focus();
  }
}

/** Guest: answer the host's offer from the invite link; show the reply code. */
async function join(code) {
  enter("guest");
  state.joinCode = code;
  ui.hostInvite.hidden = true;
  ui.inviteAgain.hidden = true;
  ui.guestReply.hidden = false;
  ui.replyOutput.value = "";
  setStatus(STATUS.answering, "waiting");
  if (!state.view) show({ view: null, status: null }, []);
  const link = await openLink();
  let reply;
  try {
    reply = await link.answer(code);
  } catch (err) {
    if (link !== state.link) return;
    ui.guestReply.hidden = true;
    setStatus(STATUS.linkBroken, "lost", { reason: reason(err) });
    return;
  }
  if (link !== state.link) return;
  if (!state.connected) {
    ui.replyOutput.value = reply;
    setStatus(STATUS.waiting, "waiting");
  }
}

/**
 * Guest: this tab was reloaded on an invite link it has connected with. The host's
 * side of that link is gone, so no reply code is made for it: the table is shown as
 * this tab kept it, paused, until the host's next invite link is opened here.
 */
function waitForNewLink(code) {
  enter("guest");
  state.joinCode = code;
  hideSteps();
  setStatus(STATUS.linkUsed, "lost");
  show({ view: null, status: null }, []);
  const token = stored(TOKEN_KEY);
  if (!token) return;
  queue(async () => {
    const answer = await call("guest_open", token, stored(SAVED_KEY));
    state.joined = true;
    guestAnswer(answer); // its hello waits: there is no channel to send it on
  });
}

// ---------------------------------------------------------------------------
// Buttons and fields.

/** Why `err` happened: the page's sentence by its key, else the error's own words (the browser's). */
function reason(err) {
  if (err && err.word) return { word: err.word };
  return err && err.message ? err.message : String(err);
}

function usable(button) {
  return Boolean(state.role) && button && !button.hidden && button.getAttribute("aria-disabled") !== "true";
}

function act(button) {
  if (!usable(button)) return;
  const action = button.dataset.action;
  if (state.role === "host") {
    hostMove("host_act", action);
  } else if (state.connected && !state.awaiting) {
    const ready = state.changing === 0 && state.intents ? state.intents[action] : undefined;
    state.awaiting = true;
    state.intents = null;
    if (typeof ready === "string") send([ready]); // Python's own message, made for this click
    lockButtons();
    queue(async () => {
      const answer = await call("guest_intent", action, false); // saved after the host's answer
      const same = typeof ready === "string" && answer && Array.isArray(answer.send) && answer.send[0] === ready;
      if (typeof ready === "string" && !same) console.warn("the intent sent ahead differs from Python's", ready, answer);
      guestAnswer(answer, { paintIt: false, sendIt: typeof ready !== "string" });
    });
  }
}

/** Host: one move at a time, so that each acts on the view you see. */
function hostMove(name, ...args) {
  if (state.acting) return;
  state.acting = true;
  queue(async () => {
    try {
      hostAnswer(await call(name, ...args));
    } finally {
      state.acting = false;
    }
  });
}

function nextDeal() {
  if (!usable(nextDealButton)) return;
  const hadFocus = document.activeElement === nextDealButton;
  if (state.role === "host") {
    hostMove("host_next_deal");
  } else if (state.connected && !state.awaiting) {
    state.awaiting = true;
    lockButtons();
    queue(async () => guestAnswer(await call("guest_next_deal"), { paintIt: false }));
  }
  if (hadFocus) focusTable();
}

function wire() {
  for (const button of table.querySelectorAll("[data-action]")) {
    button.addEventListener("click", () => act(button));
  }
  nextDealButton.addEventListener("click", nextDeal);
  invite.addEventListener("click", () => {
    if (invite.getAttribute("aria-disabled") !== "true") openTable();
  });
  ui.inviteAgain.addEventListener("click", () => {
    if (state.role === "host") inviteAgain();
  });
  ui.connect.addEventListener("click", connect);
  ui.replyInput.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      connect();
    }
  });
  ui.leave.addEventListener("click", leave);
  wireCopyButtons();
  window.addEventListener("hashchange", () => {
    const code = joinCode();
    if (code && code !== state.joinCode) join(code);
  });
  // Leaving the page closes the channel at once, so the other page knows (and a page
  // brought back from the back/forward cache says it has lost the connection).
  window.addEventListener("pagehide", () => {
    if (!state.link) return;
    closeLink();
    closed();
  });
}

function start() {
  if (!ui.panel || !invite || !computerTable.py) return;
  wire();
  const code = joinCode();
  if (code && code === stored(USED_KEY)) {
    waitForNewLink(code);
  } else if (code) {
    join(code); // the reply code needs no Python: it is ready while Python starts
  } else if (stored(HOST_KEY)) {
    reopenTable(stored(HOST_KEY));
  }
  loadWords(computerTable.py);
  computerTable.py.ready.then(
    () => invite.setAttribute("aria-disabled", "false"),
    () => {},
  );
  // For developers and tests.
  window.pisheFriend = { state, STATUS };
}

start();
