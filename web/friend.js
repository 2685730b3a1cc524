// A table against a friend, page to page, with no game server.
//
// The host's page runs the one engine (pishe.web.host_* in its Python worker);
// the guest's page (opened with an invite link, #join=<offer code>) sends
// intents and paints the views it is sent (pishe.web.guest_*). This module only
// carries text: from the buttons to the worker, from every Python answer's
// `send` list to the data channel (web/rtc.js), from the data channel back to
// the worker, and each answer's own view to paint(). Python decides everything,
// and nothing that comes from the other page is ever inserted as HTML.
//
// Signaling by hand: "Invite a friend" makes the host's offer and shows it as a
// link (and a QR code); the guest's page shows a short reply code that the host
// pastes in "Paste reply code" before pressing Connect.

import { Link } from "./rtc.js";
import { paint, computerTable } from "./table.js";

/** Seat names by seat number, on each side of the table. */
export const HOST_NAMES = ["You", "Friend"];
export const GUEST_NAMES = ["Friend", "You"];

const JOIN = "#join=";
const TOKEN_KEY = "pishe.friend.token";
const SAVED_KEY = "pishe.friend.saved";
const USED_KEY = "pishe.friend.used"; // the invite code this tab has connected with
const HOST_KEY = "pishe.friend.host"; // the host's table (Host.save()), to come back to after a reload
const SVG = "http://www.w3.org/2000/svg";
const ACTIONS = ["turn", "give", "keep"];

export const STATUS = {
  preparing: "Making the invite…",
  answering: "Making your reply code…",
  waiting: "Waiting for your friend…",
  connecting: "Connecting…",
  connected: "Connected",
  hostLost: "Connection lost — invite again",
  guestLost: "Connection lost — ask for a new invite link",
  linkUsed: "This invite link was used already — ask your friend for a new one",
  failed: "Could not reach your friend's page — invite again",
};

const $ = (selector) => document.querySelector(selector);
const list = (value) => (Array.isArray(value) ? value : []);
const text = (value) => (value === undefined || value === null ? "" : String(value));

function setText(node, value) {
  const t = text(value);
  if (node && node.textContent !== t) node.textContent = t;
}

const ui = {
  body: document.body,
  table: $("[data-pishe-table]"),
  match: $("section.match"),
  invite: $("[data-invite]"),
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
  resultFair: $("[data-result-fair]"),
  inviteAgain: $("[data-invite-again]"),
  leave: $("[data-leave]"),
  tableStatus: $("[data-status]"),
  error: $("[data-error]"),
  nextDeal: $("[data-next-deal]"),
  announcer: $("[data-announce]"),
};

// ---------------------------------------------------------------------------
// State of this page's side of the table.

const state = {
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
  lastTurn: undefined, // whose turn the last painted view said ("Your turn." announcement)
  view: null,
  status: null,
};

/** Measurement marks, for bench/friend.py: performance.getEntriesByName(...). */
function mark(name) {
  try {
    performance.mark(name);
  } catch {
    // Marks are for benchmarks only.
  }
}

function py() {
  return computerTable.py;
}

function setIdle() {
  if (!state.role) return;
  ui.body.dataset.idle = String(state.pending === 0 && !state.awaiting);
}

// Worker calls run one after the other, each answer handled (and its messages
// sent) before the next call starts, so messages leave in the order Python made them.
let chain = Promise.resolve();
function queue(job, { changes = true } = {}) {
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

function call(name, ...args) {
  return py().call(name, ...args);
}

function announce(lines) {
  if (!ui.announcer) return;
  for (const line of list(lines)) {
    const p = document.createElement("p");
    p.textContent = text(line);
    ui.announcer.append(p);
  }
  while (ui.announcer.childElementCount > 40) ui.announcer.firstElementChild.remove();
}

function showError(message) {
  setText(ui.error, message);
}

function setStatus(message, kind = "info") {
  setText(ui.status, message);
  if (ui.status) ui.status.dataset.kind = kind;
  if (ui.panel) ui.panel.dataset.state = kind;
  ui.body.dataset.friend = kind;
}

function send(messages) {
  const link = state.link;
  for (const message of list(messages)) {
    if (link && link.open) link.send(String(message));
  }
}

// ---------------------------------------------------------------------------
// Painting: only this seat's view, as Python returned it.

/** The board before any deal: nothing on it but the suit piles' places. */
function blankView(seat, status) {
  const st = status && typeof status === "object" ? status : {};
  const piles = [...document.querySelectorAll("[data-suit-piles] .pile-suit")]
    .map((figure) => ({ suit: figure.dataset.suit, count: 0, top: null }));
  return {
    seat, seats: 2, turn: null, suit_piles: piles, stocks: [{}, {}], discards: [{}, {}],
    turned: null, legal: [], give_card: null, give_problem: "",
    this_turn: { seat: null, steps: [] }, other_last_turn: { seat: null, steps: [] },
    deal_result: null,
    match: { length_name: st.length_name || "", deal: st.deal || 1, dealer: null, scores: [], over: false, next_deal: false },
  };
}

function names() {
  return state.role === "guest" ? GUEST_NAMES : HOST_NAMES;
}

function mySeat() {
  return state.role === "guest" ? 1 : 0;
}

/** Paint the answer's view (or the empty board) and what only the friend's table shows. */
function show(answer, announced) {
  const status = answer.status && typeof answer.status === "object" ? answer.status : state.status || {};
  state.status = status;
  const view = answer.view && typeof answer.view === "object" ? answer.view : null;
  state.view = view;
  const seat = view && Number.isInteger(view.seat) ? view.seat : mySeat();

  const yourTurn = view && view.turn === seat && state.lastTurn !== view.turn;
  state.lastTurn = view ? view.turn : undefined;
  announce(yourTurn ? [...list(announced), "Your turn."] : announced);
  paint(view || blankView(seat, status), { names: names() });

  const dealing = status.phase === "dealing";
  if (dealing || !view) {
    ui.nextDeal.hidden = true;
    ui.nextDeal.setAttribute("aria-disabled", "true");
  }
  // The table's status line, where the view alone cannot say it.
  if (!view) {
    setText(ui.tableStatus, state.role === "host"
      ? "The cards are dealt when your friend joins."
      : "The cards are dealt once you are connected.");
  } else if (dealing) {
    setText(ui.tableStatus, state.role === "host" && !state.connected
      ? `Deal ${text(status.deal)} is dealt when your friend is back.`
      : `Dealing deal ${text(status.deal)}…`);
  } else if (!state.connected && state.role === "guest") {
    setText(ui.tableStatus, "Paused until you are connected again.");
  } else if (!state.connected && view.turn !== null && view.turn !== seat && !view.deal_result) {
    setText(ui.tableStatus, "Your friend is away: their turn waits for them.");
  }
  if (!view || dealing) {
    setText(document.querySelector("[data-match-length]"), status.length_name || "Friend's table");
  }
  if (!view) setText(document.querySelector("[data-dealer]"), "–");
  lockButtons();
  showFairness();
}

/** The guest cannot act while its last intent is unanswered or the channel is closed. */
function lockButtons() {
  if (state.role !== "guest" || (state.connected && !state.awaiting)) return;
  for (const action of ACTIONS) {
    const button = document.querySelector(`[data-action="${action}"]`);
    if (button) button.setAttribute("aria-disabled", "true");
  }
  ui.nextDeal.setAttribute("aria-disabled", "true");
  if (state.awaiting) ui.nextDeal.hidden = true;
}

/** The guest's check of the last finished deal: "Deal N verified" or the warning. */
function fairnessText(status) {
  if (!status || !status.verification) return null;
  return status.verification === "verified"
    ? { ok: true, line: `Deal ${text(status.verification_deal)} verified` }
    : { ok: false, line: text(status.verification) };
}

function showFairness() {
  const fair = state.role === "guest" ? fairnessText(state.status) : null;
  ui.fair.hidden = !fair;
  setText(ui.fair, fair ? fair.line : "");
  if (fair) ui.fair.dataset.kind = fair.ok ? "ok" : "warning";
  ui.fair.setAttribute("role", fair && !fair.ok ? "alert" : "status");

  // In the deal-end box too, for the deal it shows.
  const view = state.view;
  const deal = view && view.match ? view.match.deal : null;
  const here = fair && view && view.deal_result && state.status.verification_deal === deal ? fair : null;
  ui.resultFair.hidden = !here;
  setText(ui.resultFair, here ? here.line : "");
  if (here) ui.resultFair.dataset.kind = here.ok ? "ok" : "warning";
}

// ---------------------------------------------------------------------------
// Answers from Python.

/** A host_* answer: send its messages first (the guest waits on them), then paint. */
function hostAnswer(answer) {
  if (!answer || !("send" in answer)) {
    showError(answer ? answer.error : "No answer from the game.");
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
function guestAnswer(answer, { paintIt = true, sendIt = true } = {}) {
  state.intents = null; // made before this answer: they may carry a used number
  if (!answer || !("send" in answer)) {
    // A message the host should never send (or a call that could not run): nothing changed.
    state.awaiting = false;
    showError(answer ? `Your friend's page sent something this page cannot accept: ${text(answer.error)}` : "No answer from the game.");
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

async function newLink() {
  closeLink();
  const servers = await iceServers();
  let link;
  try {
    link = new Link(servers);
  } catch (err) {
    console.warn("ice-servers.json was refused, connecting without it:", err);
    link = new Link([]);
  }
  state.link = link;
  state.connected = false;
  state.everOpened = false;
  link.onopen = () => link === state.link && opened();
  link.onclose = () => link === state.link && closed();
  link.onmessage = (message) => {
    if (link !== state.link) return;
    if (state.role === "host") queue(async () => hostAnswer(await call("host_receive", message)));
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

function closeLink() {
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
  setText(ui.note, state.role === "host"
    ? "Your page deals the cards and keeps the match; your friend's page checks each deal."
    : "Your friend's page deals; this page checks each deal when it ends.");
  const hadFocus = ui.panel.contains(document.activeElement);
  ui.hostInvite.hidden = true;
  ui.guestReply.hidden = true;
  ui.inviteAgain.hidden = true;
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

function closed() {
  const wasOpen = state.everOpened;
  state.connected = false;
  state.awaiting = false;
  state.intents = null;
  if (state.role === "host") {
    setStatus(wasOpen ? STATUS.hostLost : STATUS.failed, "lost");
    ui.hostInvite.hidden = true;
    ui.inviteAgain.hidden = false;
    queue(async () => hostAnswer(await call("host_disconnect")));
  } else if (state.role === "guest") {
    setStatus(STATUS.guestLost, "lost");
    ui.guestReply.hidden = true;
    if (state.view) show({ view: state.view, status: state.status }, []);
  }
}

function stored(key) {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

function store(key, value) {
  try {
    sessionStorage.setItem(key, value);
  } catch {
    // Storage refused: a reload of this tab answers the link again.
  }
}

function focusTable() {
  const turn = document.querySelector('[data-action="turn"]');
  if (turn) turn.focus();
}

// ---------------------------------------------------------------------------
// Entering and leaving a friend's table.

function enter(role) {
  if (state.role !== role) {
    computerTable.stop();
    state.role = role;
    state.view = null;
    state.status = null;
    state.lastTurn = undefined;
    state.awaiting = false;
  }
  ui.body.dataset.table = "friend";
  ui.body.dataset.role = role;
  ui.panel.hidden = false;
  ui.match.hidden = true;
  ui.fair.hidden = true;
  ui.resultFair.hidden = true;
  document.title = "Pishe Pasha: play a friend";
  showError("");
  setIdle();
}

function leave() {
  const role = state.role;
  closeLink();
  state.role = null;
  state.view = null;
  state.status = null;
  ui.body.dataset.table = "computer";
  delete ui.body.dataset.role;
  delete ui.body.dataset.friend;
  ui.panel.hidden = true;
  ui.match.hidden = false;
  ui.resultFair.hidden = true;
  setText(ui.resultFair, "");
  setText(ui.note, "");
  document.title = "Pishe Pasha: play the computer";
  if (location.hash.startsWith(JOIN)) history.replaceState(null, "", location.pathname + location.search);
  try {
    for (const key of role === "guest" ? [TOKEN_KEY, SAVED_KEY, USED_KEY] : [HOST_KEY]) {
      sessionStorage.removeItem(key);
    }
  } catch {
    // Nothing was stored.
  }
  showError("");
  computerTable.start();
  ui.invite.focus();
}

function chosenLength() {
  const checked = document.querySelector('input[name="length"]:checked');
  return checked ? checked.value : "one-deal";
}

/** Host: "Invite a friend" opens a table with the chosen match length and invites. */
async function openTable() {
  enter("host");
  await queue(async () => hostAnswer(await call("host_open", chosenLength())));
  await invite();
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
    showError(`The table could not be brought back: ${text(answer && answer.error)}`);
  });
}

/** Host: a new offer for the table that is open (first invite, or again after a drop). */
async function invite() {
  setStatus(STATUS.preparing, "waiting");
  ui.inviteAgain.hidden = true;
  ui.hostInvite.hidden = false;
  ui.inviteLink.value = "";
  ui.replyInput.value = "";
  setText(ui.connectError, "");
  ui.connect.setAttribute("aria-disabled", "true");
  ui.qr.replaceChildren();
  const link = await newLink();
  let code;
  try {
    code = await link.offer();
  } catch (err) {
    setStatus(`The invite could not be made: ${err.message || err}`, "lost");
    ui.inviteAgain.hidden = false;
    return;
  }
  if (link !== state.link) return;
  const url = location.origin + location.pathname + JOIN + code;
  ui.inviteLink.value = url;
  ui.connect.setAttribute("aria-disabled", "false");
  setStatus(STATUS.waiting, "waiting");
  if (ui.panel.contains(document.activeElement) || document.activeElement === document.body) {
    ui.hostInvite.querySelector("[data-copy]").focus();
  }
  try {
    const qr = await call("qr_matrix", url);
    if (link === state.link && qr && Array.isArray(qr.rows)) ui.qr.replaceChildren(qrSvg(qr.rows));
  } catch (err) {
    console.warn("no QR code:", err);
  }
}

/** Host: the guest's reply code, pasted; the channel opens shortly after. */
async function connect() {
  if (state.role !== "host" || !state.link || ui.connect.getAttribute("aria-disabled") === "true") return;
  const code = ui.replyInput.value.replace(/\s+/g, "");
  if (!code) {
    setText(ui.connectError, "Paste the reply code your friend's page shows.");
    ui.replyInput.focus();
    return;
  }
  setText(ui.connectError, "");
  mark("pishe:connect");
  ui.connect.setAttribute("aria-disabled", "true");
  try {
    await state.link.accept(code);
    if (!state.connected) setStatus(STATUS.connecting, "waiting");
  } catch (err) {
    setText(ui.connectError, err && err.message ? err.message : String(err));
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
  const link = await newLink();
  let reply;
  try {
    reply = await link.answer(code);
  } catch (err) {
    if (link !== state.link) return;
    ui.guestReply.hidden = true;
    setStatus(`This invite link does not work (${err.message || err}): ask your friend for a new one.`, "lost");
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
  ui.hostInvite.hidden = true;
  ui.inviteAgain.hidden = true;
  ui.guestReply.hidden = true;
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

function joinCodeFromAddress() {
  return location.hash.startsWith(JOIN) ? location.hash.slice(JOIN.length) : null;
}

// ---------------------------------------------------------------------------
// The QR code: segno's matrix from Python, drawn as SVG with DOM methods.

function qrSvg(rows) {
  const size = rows.length;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${size} ${size}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "QR code of the invite link");
  svg.setAttribute("shape-rendering", "crispEdges");
  const paper = document.createElementNS(SVG, "rect");
  paper.setAttribute("width", String(size));
  paper.setAttribute("height", String(size));
  paper.setAttribute("fill", "#fff");
  let d = "";
  rows.forEach((row, y) => {
    const cells = String(row);
    let x = 0;
    while (x < cells.length) {
      if (cells[x] !== "1") {
        x += 1;
        continue;
      }
      let end = x;
      while (end < cells.length && cells[end] === "1") end += 1;
      d += `M${x} ${y}h${end - x}v1h${x - end}z`;
      x = end;
    }
  });
  const ink = document.createElementNS(SVG, "path");
  ink.setAttribute("d", d);
  ink.setAttribute("fill", "#000");
  svg.append(paper, ink);
  return svg;
}

// ---------------------------------------------------------------------------
// Buttons and fields.

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
  if (!usable(ui.nextDeal)) return;
  const hadFocus = document.activeElement === ui.nextDeal;
  if (state.role === "host") {
    hostMove("host_next_deal");
  } else if (state.connected && !state.awaiting) {
    state.awaiting = true;
    lockButtons();
    queue(async () => guestAnswer(await call("guest_next_deal"), { paintIt: false }));
  }
  if (hadFocus) focusTable();
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
    setText(note, ok ? "Copied." : "Select it and copy it by hand.");
    clearTimeout(note.timer);
    note.timer = setTimeout(() => setText(note, ""), 2500);
  }
}

function wire() {
  for (const button of document.querySelectorAll("[data-action]")) {
    button.addEventListener("click", () => act(button));
  }
  ui.nextDeal.addEventListener("click", nextDeal);
  ui.invite.addEventListener("click", () => {
    if (ui.invite.getAttribute("aria-disabled") !== "true") openTable();
  });
  ui.inviteAgain.addEventListener("click", () => {
    if (state.role === "host") invite();
  });
  ui.connect.addEventListener("click", connect);
  ui.replyInput.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      connect();
    }
  });
  ui.leave.addEventListener("click", leave);
  for (const button of document.querySelectorAll("[data-copy]")) {
    const input = document.getElementById(button.dataset.copy);
    button.addEventListener("click", () => copy(input, button));
    input.addEventListener("focus", () => input.select());
  }
  window.addEventListener("hashchange", () => {
    const code = joinCodeFromAddress();
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
  if (!ui.panel || !ui.invite || !computerTable.py) return;
  wire();
  const code = joinCodeFromAddress();
  if (code && code === stored(USED_KEY)) {
    waitForNewLink(code);
  } else if (code) {
    join(code); // the reply code needs no Python: it is ready while Python starts
  } else if (stored(HOST_KEY)) {
    reopenTable(stored(HOST_KEY));
  }
  computerTable.py.ready.then(
    () => ui.invite.setAttribute("aria-disabled", "false"),
    () => {},
  );
  // For developers and tests.
  window.pisheFriend = { state, STATUS };
}

start();
