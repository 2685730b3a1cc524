// A table with friends, page to page, with no game server: entering and
// leaving it, the invites, joining by a link, and the buttons while it is on.
//
// "Invite a friend" opens a table of the chosen game on this page (the host's)
// and makes one invite link per seat kept for a friend. Opening a link joins
// that seat: the friend's page answers the link's connection offer through the
// Nostr relays of signaling.json (relay.js), encrypted under a key made from the
// link (only who has the link can make it); when no relay takes the answer, the friend's page shows a
// reply code for the host to paste, as before. The session with the worker and
// the data channels is in session.js; the panel's look in panel.js. Every
// sentence shown is Python's (the page's words by key, ../words.js).

import { FIRST_GAME } from "../../games/registry.js";
import { HOST_KEY } from "../friends.js";
import { chosenSettings, noteSettings } from "../settings.js";
import { computerTable } from "../computer.js";
import { onLanguage } from "../../lang.js";
import { loadWords, say, word } from "../words.js";
import { setText } from "../../text.js";
import { forgetJoinCode, inviteLink, joinCode, joinGame, knockOn, relay } from "./signaling.js";
import { backoff, retry } from "./retry.js";
import {
  STATUS, clearInvite, clearSeatInvites, setStatus, showInvite, showQr, showRelays, ui, seatInvite, wireCopyButtons,
} from "./panel.js";
import {
  GUEST_KEYS, LEDGER_KEY, SAVED_KEY, TOKEN_KEY, USED_KEY, call, clearResultFair, closeLink, closed, noAnswer,
  expectOpen as expectGuestOpen, expectSeatOpen, focusTable, guestAnswer, hostAnswer, lockButtons, mark,
  noteHostSettings, openLink, openSeatLink, queue,
  setIdle, show, showChosenName, showError, state, stored, table, turns, useGame,
} from "./session.js";

const body = document.body;
const match = document.querySelector("section.match");
const invite = document.querySelector("[data-invite]");

/** The tab's title: `game`'s own for a friends' table, else the panel's, in the page's language. */
function showTitle(game) {
  const radio = document.querySelector(`input[name="game"][value="${CSS.escape(game)}"]`);
  document.title = radio && radio.dataset.friendTitle ? radio.dataset.friendTitle : ui.panel.dataset.title;
}

function enter(role, game) {
  if (state.role !== role) {
    computerTable.stop();
    state.role = role;
    state.view = null;
    state.status = null;
    turns.stop();
    state.awaiting = false;
  }
  state.game = game;
  body.dataset.table = "friend";
  body.dataset.role = role;
  ui.panel.hidden = false;
  match.hidden = role !== "host"; // the host's settings for the next match (style.css shows only those)
  ui.fair.hidden = true;
  clearResultFair();
  const radio = document.querySelector(`input[name="game"][value="${CSS.escape(game)}"]`);
  if (radio) radio.checked = true;
  showTitle(game);
  ui.nameForm.hidden = false;
  showError("");
  setIdle();
}

function leave() {
  const role = state.role;
  if (role === "guest" && state.connected) {
    // The seat goes to a computer for good, and the host's page says so to the others
    // (the worker sends the message before it answers, so before the channel closes).
    queue(() => call("guest_leave"));
  }
  queue(async () => {
    closeLink();
    state.seats.clear();
    clearSeatInvites();
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
    showRelays([]);
    ui.dealNow.hidden = true;
    ui.playAgain.hidden = true;
    noteSettings(null);
    ui.nameForm.hidden = true;
    setText(ui.nameNote, "");
    for (const node of document.querySelectorAll("[data-chosen-name]")) showChosenName(node, "");
    forgetJoinCode();
    try {
      for (const key of role === "guest" ? GUEST_KEYS : [HOST_KEY]) sessionStorage.removeItem(key);
    } catch {
      // Nothing was stored.
    }
    showError("");
    computerTable.start();
    invite.focus();
  });
}

/** Host: the invites of the table Python opened (one per seat kept for a friend). */
function makeSeats(answer) {
  clearSeatInvites();
  state.seats.clear();
  // In the order the seat switches list them, so that the panel and the switches agree.
  const switches = [...document.querySelectorAll(`[data-settings="${CSS.escape(state.game)}"] input[data-setting="friend"]`)]
    .map((input) => Number(input.value));
  const place = (seat) => (switches.includes(seat) ? switches.indexOf(seat) : switches.length + seat);
  const seats = (answer.status && Array.isArray(answer.status.seats) ? answer.status.seats : [])
    .filter((s) => s.role === "guest").sort((a, b) => place(a.seat) - place(b.seat));
  const sides = answer.status && Array.isArray(answer.status.sides) ? answer.status.sides : [];
  const view = answer.view;
  return queue(async () => {
    // The seats' names as this side's view gives them (a blank view before the first deal).
    const names = view ? view.names : (await call("blank_view", state.game, "host")).view.names;
    for (const s of seats) {
      const number = s.seat;
      const name = Array.isArray(names) ? names[number] : "";
      const seat = { number, name, link: null, connected: false, everOpened: false, hold: null, listener: null };
      seat.invite = seatInvite(number, name, seats.length > 1, sides[number] || "");
      wireSeat(seat);
      state.seats.set(number, seat);
    }
  });
}

/** Host: "Invite a friend" opens a table of the chosen game and settings, and invites (../friends.js asks first). */
export async function openTable() {
  const { game, length, clock, friends } = chosenSettings();
  enter("host", game);
  await useGame(game);
  let opened = null;
  await queue(async () => {
    opened = await call("host_open", length, null, game, friends, clock);
    hostAnswer(opened);
  });
  if (!opened || !("send" in opened)) return;
  await makeSeats(opened);
  await Promise.all([...state.seats.values()].map(inviteAgain));
}

/**
 * Host: this tab was reloaded at a friend's table. The table comes back as it was
 * (Python replays it from what the tab kept); the friends' connections are gone, so
 * the host invites again.
 */
async function reopenTable(saved) {
  let answer = null;
  enter("host", state.game || FIRST_GAME);
  await queue(async () => {
    answer = await call("host_open", null, saved);
  });
  if (!answer || !("send" in answer)) {
    leave(); // what the tab kept cannot be read: the computer's table, and why
    queue(async () => showError(answer ? word("not_brought_back", { reason: answer.error }) : noAnswer()));
    return;
  }
  enter("host", answer.status.game);
  await useGame(answer.status.game);
  await makeSeats(answer);
  for (const seat of state.seats.values()) {
    seat.everOpened = true;
    seat.invite.hostInvite.hidden = true;
    seat.invite.inviteAgain.hidden = false;
  }
  hostAnswer(answer);
}

/** Host: a new offer for `seat` (its first invite, or again after a drop). */
async function inviteAgain(seat) {
  const card = seat.invite;
  seat.everOpened = false; // a new link: its friend is awaited, not lost
  setStatus(STATUS.preparing, "waiting");
  clearInvite(card);
  let link, code;
  try {
    link = await openSeatLink(seat);
    code = await link.offer();
  } catch (err) {
    failed(STATUS.inviteFailed, err);
    card.inviteAgain.hidden = false;
    return;
  }
  if (link !== seat.link) return;
  link.via = { key: null, offer: code }; // what both pages know the link by (with a key: it can go through the relays)
  try {
    const relays = await relay();
    const key = await relays.linkKey(code);
    seat.key = key;
    seat.offer = code;
    link.via.key = key;
    seat.listener = relays.listenForAnswer({
      key,
      offer: code,
      // (Not an answer that comes again once one was taken: its page posts it until connected.)
      onAnswer: (answer) => link === seat.link && !seat.accepted && accept(seat, answer, true),
      onIgnored: (why) => link === seat.link && say(card.connectError, why),
      onState: () => {},
      onRelays: ({ failed }) => link === seat.link && showRelays(failed),
    });
  } catch (err) {
    console.warn("no relays: the friend sends a reply code", err);
  }
  const url = inviteLink(code, state.game);
  showInvite(card, url);
  if (state.seats.size > 0) queue(async () => hostAnswer(await call("host_current")));
  try {
    const qr = await call("qr_matrix", url);
    if (link === seat.link && qr && Array.isArray(qr.rows)) showQr(card, qr.rows);
  } catch (err) {
    console.warn("no QR code:", err);
  }
}

/** Host: a reply code for `seat` (pasted, or through a relay); the channel opens shortly after. */
async function accept(seat, code, relayed = false) {
  const card = seat.invite;
  if (!seat.link || (!relayed && card.connect.getAttribute("aria-disabled") === "true")) return;
  if (!code) {
    say(card.connectError, "paste_reply");
    card.replyInput.focus();
    return;
  }
  say(card.connectError, null);
  mark("pishe:connect");
  card.connect.setAttribute("aria-disabled", "true");
  try {
    await seat.link.accept(code);
    if (!seat.connected) {
      setStatus(STATUS.connecting, "waiting");
      expectSeatOpen(seat, [seat.link.via.offer, code]);
    }
  } catch (err) {
    // A code that is not ours, or damaged, in the page's words; else why, by its cause.
    if (err && err.word) say(card.connectError, err.word);
    else say(card.connectError, "connect_failed", { reason: { word: (err && err.why) || "why_browser" } });
    card.connect.setAttribute("aria-disabled", "false");
    if (!relayed) card.replyInput.focus();
  }
}

/**
 * Guest: the friend's table of the game the link names (else the one this page shows), its
 * table shown in the same task as the computer's table is put away: never painted between.
 */
function enterInvited() {
  const game = joinGame() || state.game || FIRST_GAME;
  enter("guest", game);
  useGame(game);
}

/** Guest: answer the host's offer from the invite link: through a relay, else by a reply code. */
async function join(fragment) {
  enterInvited();
  let relays = null;
  try {
    relays = await relay();
  } catch (err) {
    console.warn("no relays: this page shows a reply code", err);
  }
  const older = relays && relays.olderInvite(fragment);
  if (older) {
    state.joinCode = fragment;
    if (!state.view) show({ view: null, status: null });
    setStatus(STATUS.linkBroken, "lost", { reason: { word: older } });
    return;
  }
  const offer = fragment;
  const key = relays ? await relays.linkKey(offer) : null;
  // (Listing a relay, it starts loading the Nostr library while the answer is made.)
  const listed = key ? relays.relayList().then((list) => list.length > 0) : false;
  state.joinCode = fragment;
  ui.guestReply.hidden = true;
  ui.replyOutput.value = "";
  setStatus(STATUS.answering, "waiting");
  if (!state.view) show({ view: null, status: null });
  let link, reply;
  try {
    link = await openLink();
    reply = await link.answer(offer);
  } catch (err) {
    if (link && link !== state.link) return;
    failed(STATUS.linkBroken, err);
    return;
  }
  if (link !== state.link || state.connected) return;
  link.via = { key, offer };
  if (!(await listed)) {
    if (link === state.link && !state.connected) showReplyCode(reply);
    return;
  }
  // Posted until a relay takes it, and again while the channel does not open: a post that
  // timed out may still have reached the host, and one a relay took may have come while the
  // host's page was not listening. The reply code shows meanwhile, for the host to paste.
  // Whatever the posts' acknowledgements say, the relays carry the link if this page's own
  // ICE fails: the host, which had the answer, carries it there too.
  expectGuestOpen([offer, reply], { posted: false });
  let posted = false;
  state.retrying = retry(async (n) => {
    if (link !== state.link || state.connected || link.ended) return true;
    const taken = await relays.postAnswer({ key, offer, answer: reply, attempt: n });
    if (link !== state.link || state.connected || link.ended) return true;
    if (taken && !posted) {
      posted = true;
      ui.guestReply.hidden = true;
      setStatus(STATUS.connecting, "waiting");
      expectGuestOpen([offer, reply]);
    } else if (!posted && n === 0) {
      showReplyCode(reply);
    }
    return false;
  }, { waits: ANSWER_WAITS });
}

/** How long a guest's page waits before posting its answer again: 2, 4, 8 s (then the last wait, 16 s). */
const ANSWER_WAITS = backoff(2000, 4);

/** Guest: the reply code for the host to paste (no relay took the answer yet). */
function showReplyCode(reply) {
  ui.guestReply.hidden = false;
  ui.replyOutput.value = reply;
  setStatus(STATUS.waiting, "waiting");
}

/**
 * Guest: this tab was reloaded on an invite link it has connected with. The host's
 * side of that link is gone: with relays, this page knocks (its own offer, sealed
 * with the link's key) and the host's page answers; else, or if no answer comes,
 * the table is shown as this tab kept it, paused, until the host's next invite link
 * is opened here.
 */
async function comeBack(fragment) {
  waitForNewLink(fragment);
  let relays;
  try {
    relays = await relay();
  } catch {
    return;
  }
  const offer = fragment;
  const key = await relays.linkKey(offer);
  if (!(await relays.relayList()).length) return;
  setStatus(STATUS.connecting, "waiting");
  let link;
  try {
    link = await openLink();
  } catch (err) {
    failed(STATUS.linkBroken, err);
    return;
  }
  // (Not while the relays are being tried for this link: expectOpen says when that fails.)
  const gaveUp = () => {
    if (link === state.link && !state.connected && !link.fallingBack) setStatus(STATUS.linkUsed, "lost");
  };
  let mine;
  try {
    mine = await link.offer();
  } catch {
    gaveUp();
    return;
  }
  link.via = { key, offer: mine };
  let answered = false;
  state.listener = relays.listenForAnswer({
    key,
    offer: mine,
    onAnswer: (reply) => {
      answered = true;
      if (link === state.link) {
        link.accept(reply).then(() => {
          if (link === state.link && !state.connected) expectGuestOpen([mine, reply]);
        }, gaveUp);
      }
    },
  });
  // Knocked until the host's page answers: a knock no relay took, or that came while the
  // host's page was not listening, is lost.
  state.retrying = retry(async (n) => {
    if (answered || link !== state.link || state.connected) return true;
    await relays.postAnswer({ key, offer: knockOn(offer), answer: mine, attempt: n });
    return false;
  }, { waits: KNOCK_WAITS, onGiveUp: () => answered || gaveUp() });
}

/** How long a page that knocks waits for the host's answer before it knocks again: 2, 4, then 8 s before it says the link is used. */
const KNOCK_WAITS = backoff(2000, 3);

/** Guest: the table as this tab kept it, paused, until a link connects it again. */
function waitForNewLink(fragment) {
  enterInvited();
  state.joinCode = fragment;
  ui.guestReply.hidden = true;
  setStatus(STATUS.linkUsed, "lost");
  show({ view: null, status: null });
  const token = stored(TOKEN_KEY);
  if (!token) return;
  queue(async () => {
    const answer = await call("guest_open", token, stored(SAVED_KEY), stored(LEDGER_KEY));
    state.joined = true;
    guestAnswer(answer); // its hello waits: there is no channel to send it on
  });
}

// ---------------------------------------------------------------------------
// Buttons and fields.

/**
 * The status line `key` for a link that failed with `err`: its {reason}, the page's words for
 * the failure's cause (web/core/rtc.js names it), and the browser's own words in the details.
 */
function failed(key, err) {
  console.warn("the link failed:", err);
  setStatus(key, "lost", { reason: { word: (err && err.why) || "why_browser" } }, err && err.detail);
}

function usable(button) {
  return Boolean(state.role) && button && !button.hidden && button.getAttribute("aria-disabled") !== "true";
}

function act(button) {
  const action = button.dataset.action;
  if (state.role === "host") {
    hostMove("host_act", action);
  } else if (state.connected && !state.awaiting) {
    state.awaiting = true;
    lockButtons();
    // Posted to the worker in this very task, which sends Python's message at once
    // (after a click, a job queued behind others would wait for the browser's next
    // frame). Saved after the host's answer.
    // At a no-peek table the move is made on this page's own engine: its answer has the board.
    queue(async () => {
      const answer = await call("guest_intent", action, false);
      if (answer && answer.view) state.awaiting = false;
      guestAnswer(answer, { paintIt: Boolean(answer && answer.view) });
    }, { inTurn: false });
  }
}

/** Host: one move at a time, so that each acts on the view you see; at once, as the guest's (act). */
function hostMove(name, ...args) {
  if (state.acting) return;
  state.acting = true;
  queue(async () => {
    try {
      hostAnswer(await call(name, ...args));
    } finally {
      state.acting = false;
    }
  }, { inTurn: false });
}

function nextDeal(button) {
  const hadFocus = document.activeElement === button;
  if (state.role === "host") {
    hostMove("host_next_deal");
  } else if (state.connected && !state.awaiting) {
    state.awaiting = true;
    lockButtons();
    queue(async () => guestAnswer(await call("guest_next_deal"), { paintIt: false }));
  }
  if (hadFocus) focusTable();
}

function takeOver() {
  if (state.role === "host") hostMove("host_take_over");
  else if (state.connected) queue(async () => guestAnswer(await call("guest_take_over")));
}

/**
 * The name this player gives their seat (null: none). Python checks it (20 characters at
 * most, text only) and says why it refuses one; the others see it beside this seat.
 */
function nameSeat(name) {
  if (!state.role || (state.role === "guest" && !state.connected)) return;
  queue(async () => {
    const answer = await call(state.role === "host" ? "host_name" : "guest_name", name);
    const refused = !answer || !("send" in answer);
    setText(ui.nameNote, refused ? (answer ? answer.error : noAnswer()) : word("name_saved"));
    if (refused) return;
    if (state.role === "host") hostAnswer(answer);
    else guestAnswer(answer, { paintIt: false });
  });
}

/** Host: a seat invite's buttons. */
function wireSeat(seat) {
  const card = seat.invite;
  card.inviteAgain.addEventListener("click", () => {
    if (state.role === "host") inviteAgain(seat);
  });
  const connect = () => accept(seat, card.replyInput.value.replace(/\s+/g, ""));
  card.connect.addEventListener("click", connect);
  card.replyInput.addEventListener("keydown", (event) => {
    if (event.key === "Enter") {
      event.preventDefault();
      connect();
    }
  });
}

function wire() {
  // Every game's table: its buttons are made by its painter, so clicks are caught on the table.
  for (const root of document.querySelectorAll("[data-pishe-table]")) {
    root.addEventListener("click", (event) => {
      if (!state.role || root !== table()) return;
      const button = event.target.closest("[data-action], [data-next-deal], [data-take-over]");
      if (!usable(button) || !root.contains(button)) return;
      if (button.dataset.action) act(button);
      else if (button.hasAttribute("data-take-over")) takeOver();
      else nextDeal(button);
    });
  }
  ui.leave.addEventListener("click", leave);
  ui.dealNow.addEventListener("click", () => {
    if (state.role === "host") hostMove("host_deal_now");
  });
  ui.playAgain.addEventListener("click", () => {
    // With the length and clock chosen on the page meanwhile (the settings note said so).
    const { game, length, clock } = chosenSettings();
    if (state.role === "host") hostMove("host_play_again", ...(game === state.game ? [length, clock] : []));
  });
  for (const input of document.querySelectorAll("input[data-setting]")) {
    input.addEventListener("change", noteHostSettings);
  }
  ui.nameForm.addEventListener("submit", (event) => {
    event.preventDefault();
    nameSeat(ui.nameInput.value.trim() || null);
  });
  wireCopyButtons();
  window.addEventListener("hashchange", () => {
    const fragment = joinCode();
    if (fragment && fragment !== state.joinCode) join(fragment);
  });
  // Leaving the page closes the channels at once, so the other pages know (and a page
  // brought back from the back/forward cache says it has lost the connection).
  window.addEventListener("pagehide", () => {
    if (!state.link && state.seats.size === 0) return;
    const role = state.role;
    closeLink();
    if (role === "guest") closed();
  });
}

/**
 * Start the friends' table, once its code is loaded (../friends.js): the buttons wired, and the
 * table the address or the tab asks for opened (an invite link joined, the host's table brought back).
 */
export function start() {
  if (!ui.panel || !invite || !computerTable.py) return;
  wire();
  const fragment = joinCode();
  if (fragment && fragment === stored(USED_KEY)) {
    comeBack(fragment);
  } else if (fragment) {
    join(fragment); // the answer needs no Python: it is on its way while Python starts
  } else if (stored(HOST_KEY)) {
    reopenTable(stored(HOST_KEY));
  }
  loadWords(computerTable.py);
  // Another language: this page's own view of the table, worded anew (nothing goes to the others).
  onLanguage(() => {
    if (state.role) showTitle(state.game);
    if (state.role === "host") queue(async () => hostAnswer(await call("host_current")));
    else if (state.role === "guest" && state.joined) queue(async () => guestAnswer(await call("guest_saved")));
    else if (state.role === "guest") show({ view: null }); // not at a table yet: its blank table
  });
  // For developers and tests.
  window.pisheFriend = { state, STATUS };
}
