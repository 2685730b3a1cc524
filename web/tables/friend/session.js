// The friend's table's session with the Python worker and the data channel.
//
// The host's page runs the one engine (pishe.web.host_* in its worker); the
// guest's page sends intents and paints the views it is sent (pishe.web.guest_*).
// This module only carries text: from every Python answer's `send` list to the
// data channel, from the data channel back to the worker, and each answer's
// own view to the painter. Python decides everything, and words everything
// (the views, the status's own lines, the page's words by key: ../words.js);
// nothing that comes from the other page is ever inserted as HTML.

import { computerTable } from "../computer.js";
import { paint } from "../../games/pasha/paint.js";
import { tableOf } from "../../games/registry.js";
import { announce, list, setText } from "../../text.js";
import { say, word } from "../words.js";
import { newLink } from "./signaling.js";
import { STATUS, hideSteps, setStatus, showFair, ui } from "./panel.js";

/**
 * Said when the worker gave no answer at all: Python could not run the call, so
 * its words cannot be had. The one sentence of the friend's table worded here.
 */
export const NO_ANSWER = "No answer from the game.";

/** The one game a friend's table plays for now. */
export const GAME = "pishe-pasha";

export const TOKEN_KEY = "pishe.friend.token";
export const SAVED_KEY = "pishe.friend.saved";
export const USED_KEY = "pishe.friend.used"; // the invite code this tab has connected with
export const HOST_KEY = "pishe.friend.host"; // the host's table (Host.save()), to come back to after a reload
export const GUEST_KEYS = [TOKEN_KEY, SAVED_KEY, USED_KEY];

const ACTIONS = ["turn", "give", "keep"];

export const table = tableOf(GAME);
const tableStatus = table.querySelector("[data-status]");
const errorLine = table.querySelector("[data-error]");
const nextDealButton = table.querySelector("[data-next-deal]");
const resultFair = table.querySelector("[data-result-fair]");

export const state = {
  role: null, // "host", "guest", or null while the computer table owns the board
  link: null, // the current Link, or null
  connected: false, // the data channel is open
  everOpened: false, // the current link opened once (else a close is a failed connection)
  pending: 0, // worker calls queued or in flight
  changing: 0, // of those, calls that may change the guest's Python state (all but saves and intents)
  acting: false, // host: its own move (or next deal) is with Python, not yet painted
  saveQueued: false, // guest: a guest_saved call is queued
  awaiting: false, // guest: an intent is on its way, the host's answer is not back
  intents: null, // guest: Python's message for each legal action, made ahead of the click
  joined: false, // guest: the worker holds a Guest (guest_open was called)
  joinCode: null, // guest: the offer code being answered
  lastTurn: undefined, // whose turn the last painted view said (to announce the turn coming to you)
  view: null,
  status: null,
};

/** Measurement marks, for bench/friend.py: performance.getEntriesByName(...). */
export function mark(name) {
  try {
    performance.mark(name);
  } catch {
    // Marks are for benchmarks only.
  }
}

export function setIdle() {
  if (!state.role) return;
  document.body.dataset.idle = String(state.pending === 0 && !state.awaiting);
}

// Worker calls run one after the other, each answer handled (and its messages
// sent) before the next call starts, so messages leave in the order Python made them.
let chain = Promise.resolve();
export function queue(job, { changes = true } = {}) {
  state.pending += 1;
  if (changes) state.changing += 1;
  setIdle();
  const run = chain.then(job).catch((err) => showError(err && err.message ? err.message : String(err)));
  chain = run.then(() => {
    state.pending -= 1;
    if (changes) state.changing -= 1;
    setIdle();
  });
  return run;
}

export function call(name, ...args) {
  return computerTable.py.call(name, ...args);
}

export function showError(message) {
  setText(errorLine, message);
}

/** The guest's one connection, as the host's Python numbers it. */
const GUEST_CONNECTION = 1;

/** Send messages over the data channel: the guest's are texts, the host's {to, text}. */
export function send(messages) {
  const link = state.link;
  for (const message of list(messages)) {
    const out = message && typeof message === "object" ? message : { to: GUEST_CONNECTION, text: message };
    if (link && link.open && out.to === GUEST_CONNECTION) link.send(String(out.text));
  }
}

export function stored(key) {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

export function store(key, value) {
  try {
    sessionStorage.setItem(key, value);
  } catch {
    // Storage refused: a reload of this tab answers the link again.
  }
}

/** Put the keyboard on the table's first move button. */
export function focusTable() {
  const move = table.querySelector("[data-action]");
  if (move) move.focus();
}

// ---------------------------------------------------------------------------
// Painting: only this seat's view, as Python returned it.

/** Paint the answer's view (or the table with no cards, from Python) and what only the friend's table shows. */
export function show(answer, announced) {
  const status = answer.status && typeof answer.status === "object" ? answer.status : state.status || {};
  state.status = status;
  const view = answer.view && typeof answer.view === "object" ? answer.view : null;
  state.view = view;

  const yourTurn = view && view.turn === view.seat && state.lastTurn !== view.turn;
  state.lastTurn = view ? view.turn : undefined;
  announce(yourTurn ? [...list(announced), view.status] : announced);
  if (view) {
    paintTable(view, status);
  } else {
    // Before the first deal: the table with no cards, as Python shows it to this side.
    const role = state.role;
    queue(async () => {
      const blank = await call("blank_view", GAME, role);
      if (state.role === role && !state.view) paintTable(blank, status);
    }, { changes: false });
  }
}

function paintTable(view, status) {
  paint(view, table);
  const dealing = status.phase === "dealing";
  if (dealing || !state.view) {
    nextDealButton.hidden = true;
    nextDealButton.setAttribute("aria-disabled", "true");
  }
  // The table's status line, where the view alone cannot say it (a blank view says its own):
  // the status's own lines while dealing, else the page's words.
  if (state.view && dealing) {
    setText(tableStatus, state.role === "host" && !state.connected ? status.when_back : status.dealing);
  } else if (state.view && !state.connected && state.role === "guest") {
    setText(tableStatus, word("paused"));
  } else if (state.view && !state.connected && view.turn !== null && view.turn !== view.seat && !view.result) {
    setText(tableStatus, word("friend_away"));
  }
  if ((!state.view || dealing) && status.length_name) {
    setText(document.querySelector('[data-match-line="pishe-pasha"] [data-match-length]'), status.length_name);
  }
  lockButtons();
  showFairness();
}

/** The guest cannot act while its last intent is unanswered or the channel is closed. */
export function lockButtons() {
  if (state.role !== "guest" || (state.connected && !state.awaiting)) return;
  for (const action of ACTIONS) {
    table.querySelector(`[data-action="${action}"]`).setAttribute("aria-disabled", "true");
  }
  nextDealButton.setAttribute("aria-disabled", "true");
  if (state.awaiting) nextDealButton.hidden = true;
}

/** The guest's check of the last finished deal, as its status words it: {ok, line} or null. */
function fairness(status) {
  const fair = status && status.fair;
  return fair && typeof fair === "object" ? fair : null;
}

function showFairness() {
  const fair = state.role === "guest" ? fairness(state.status) : null;
  showFair(fair);
  // In the deal-end box too, for the deal it shows.
  const view = state.view;
  const deal = view && view.match ? view.match.deal : null;
  const here = fair && view && view.result && state.status.verification_deal === deal ? fair : null;
  resultFair.hidden = !here;
  setText(resultFair, here ? here.line : "");
  if (here) resultFair.dataset.kind = here.ok ? "ok" : "warning";
}

/** Forget the fairness line of the deal-end box (a new table). */
export function clearResultFair() {
  resultFair.hidden = true;
  setText(resultFair, "");
}

// ---------------------------------------------------------------------------
// Answers from Python.

/** A host_* answer: send its messages first (the guest waits on them), then paint. */
export function hostAnswer(answer) {
  if (!answer || !("send" in answer)) {
    showError(answer ? answer.error : NO_ANSWER);
    return;
  }
  send(answer.send);
  if (answer.saved) store(HOST_KEY, answer.saved);
  // answer.error here is why the guest's message was refused: the guest is told, not us.
  if (answer.error) console.debug("refused a message from the guest:", answer.error);
  else showError("");
  show(answer, answer.steps);
}

/** A guest_* answer: send its messages, paint, keep what resumes the seat. */
export function guestAnswer(answer, { paintIt = true, sendIt = true } = {}) {
  state.intents = null; // made before this answer: they may carry a used number
  if (!answer || !("send" in answer)) {
    // A message the host should never send (or a call that could not run): nothing changed.
    state.awaiting = false;
    showError(answer ? word("refused", { reason: answer.error }) : NO_ANSWER);
    if (state.view) show({ view: state.view, status: state.status }, []);
    return;
  }
  if (sendIt) send(answer.send);
  if (paintIt) {
    showError(answer.error || "");
    show(answer, answer.steps);
  }
  keep(answer);
  if (paintIt) prepareIntents();
}

/** Keep what resumes the seat after a reload of this tab: the seat token and Guest.save(). */
function keep(answer) {
  try {
    if (answer.token) sessionStorage.setItem(TOKEN_KEY, answer.token);
    else sessionStorage.removeItem(TOKEN_KEY);
    if (answer.saved) sessionStorage.setItem(SAVED_KEY, answer.saved);
  } catch {
    // Storage refused: the seat is resumed within this page only.
  }
}

/** Guest: save once the view is painted (saving is most of a guest_receive's time). */
function saveSoon() {
  if (state.saveQueued) return;
  state.saveQueued = true;
  queue(async () => {
    state.saveQueued = false;
    const answer = await call("guest_saved");
    if (answer && "saved" in answer) keep(answer);
  }, { changes: false });
}

/**
 * Guest: on its turn, ask Python now for the message each enabled button would
 * send, so that a click sends it at once. (A worker round trip started by a
 * click waits for the browser's next frame, up to 17 ms.) Python still counts
 * the message afterwards with guest_intent, which makes the very same one.
 */
function prepareIntents() {
  const view = state.view;
  if (state.role !== "guest" || !state.connected || state.awaiting || !view) return;
  if (view.turn !== view.seat || list(view.legal).length === 0) return;
  queue(async () => {
    const answer = await call("guest_intents");
    // Good until the guest's state changes: any such call queued meanwhile voids them.
    if (state.changing === 0 && !state.awaiting && answer && answer.intents) state.intents = answer.intents;
  }, { changes: false });
}

// ---------------------------------------------------------------------------
// The data channel.

/** A new data channel to the other page (closing the one before), its events handled here. */
export async function openLink() {
  closeLink();
  const link = await newLink();
  state.link = link;
  state.connected = false;
  state.everOpened = false;
  link.onopen = () => link === state.link && opened();
  link.onclose = () => link === state.link && closed();
  link.onmessage = (message) => {
    if (link !== state.link) return;
    if (state.role === "host") queue(async () => hostAnswer(await call("host_receive", message, GUEST_CONNECTION)));
    else if (state.role === "guest") {
      queue(async () => {
        const hadToken = Boolean(stored(TOKEN_KEY));
        const answer = await call("guest_receive", message, false);
        state.awaiting = false;
        if (hadToken && answer && "send" in answer && !answer.token) {
          // The table does not know this tab's seat token (another table since, or the
          // seat was given away): join it afresh, forgetting what was kept of the old one.
          showError(answer.error || "");
          guestAnswer(await call("guest_open", null, null));
          return;
        }
        guestAnswer(answer);
        saveSoon();
      });
    }
  };
  return link;
}

export function closeLink() {
  const link = state.link;
  state.link = null;
  state.connected = false;
  if (link) link.close();
}

function opened() {
  mark("pishe:open");
  state.connected = true;
  state.everOpened = true;
  setStatus(STATUS.connected, "connected");
  say(ui.note, state.role === "host" ? "host_deals" : "friend_deals");
  const hadFocus = ui.panel.contains(document.activeElement);
  hideSteps();
  if (hadFocus) focusTable();
  if (state.role === "guest") {
    store(USED_KEY, state.joinCode);
    queue(async () => {
      // First time on this page: resume the seat kept in this tab, if any; else say hello again.
      let answer;
      if (state.joined) {
        answer = await call("guest_hello");
      } else {
        answer = await call("guest_open", stored(TOKEN_KEY), stored(SAVED_KEY));
        state.joined = true;
      }
      guestAnswer(answer);
    });
  } else if (state.view || state.status) {
    show({ view: state.view, status: state.status }, []);
  }
}

/** The channel closed (or this page is leaving): say so, and keep the table. */
export function closed() {
  const wasOpen = state.everOpened;
  state.connected = false;
  state.awaiting = false;
  state.intents = null;
  if (state.role === "host") {
    setStatus(wasOpen ? STATUS.hostLost : STATUS.failed, "lost");
    ui.hostInvite.hidden = true;
    ui.inviteAgain.hidden = false;
    queue(async () => hostAnswer(await call("host_disconnect", GUEST_CONNECTION)));
  } else if (state.role === "guest") {
    setStatus(STATUS.guestLost, "lost");
    ui.guestReply.hidden = true;
    if (state.view) show({ view: state.view, status: state.status }, []);
  }
}
