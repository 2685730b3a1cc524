// The friend's table's session with the Python worker and the data channels.
//
// The host's page runs the one engine (pishe.web.host_* in its worker) and
// holds one data channel per seat kept for a friend; a guest's page sends
// intents and paints the views it is sent (pishe.web.guest_*). The channels
// are read and written in the worker (web/core/channel.js): Python sends its
// messages from there, and a peer's message goes to Python there. This module
// paints each answer's own view with the game's painter and follows the
// channels' state. It runs what Python asks the page to run (the
// computers' moves after a pause, the clock of the person to move, a lost friend's hold) and
// decides nothing: Python decides everything, and words everything (the
// views, the status's own lines, the page's words by key: ../words.js);
// nothing that comes from another page is ever inserted as HTML.

import { computerTable } from "../computer.js";
import { turnLoop } from "../turns.js";
import { FIRST_GAME, painter, tableOf } from "../../games/registry.js";
import { list, setText } from "../../text.js";
import { pageWord } from "../../lang.js";
import { say, word } from "../words.js";
import { addressNumber, noteSettings } from "../settings.js";
import { hasCandidates } from "../../core/rtc.js";
import { carryByRelays, knockOn, newLink, relay } from "./signaling.js";
import { STATUS, hideInvite, setSeatState, setStatus, showFair, ui } from "./panel.js";
import { watchRoute } from "./route.js";
import { backoff, retry } from "./retry.js";
import { watchPath } from "./fallback.js";
import { HOST_KEY } from "../friends.js";

/**
 * Said when the worker gave no answer at all: Python could not run the call, so
 * its words cannot be had. The one sentence of the friend's table worded here.
 */
/** What the page says when Python gave no answer at all (it cannot word it then). */
export function noAnswer() {
  return pageWord("No answer from the game.");
}

export const TOKEN_KEY = "pishe.friend.token";
export const SAVED_KEY = "pishe.friend.saved";
export const USED_KEY = "pishe.friend.used"; // the invite this tab has connected with
// The guest's ledger (its parts of the shuffle and the moves it asked for): kept for the
// whole match, however the page joins again, so that no deal ever gets a second part.
export const LEDGER_KEY = "pishe.friend.ledger";
export const GUEST_KEYS = [TOKEN_KEY, SAVED_KEY, USED_KEY, LEDGER_KEY];

/** How long a lost friend's seat is held before a computer plays it: ?hold=SECONDS (tests), else 60 s. */
const holdSeconds = () => addressNumber("hold", 60);

/** How long a friend's page that is connected but silent holds up the table: ?silent=SECONDS (tests), else 60 s. */
const silentSeconds = () => addressNumber("silent", 60);

/**
 * How long two pages that have each other's codes may take to connect before the page
 * says no path was found: ?connect=SECONDS (tests), else 20 s (ICE's own checks give
 * up after about 30 s; most connections open within 2 s, through TURN within 5 s).
 */
const connectSeconds = () => addressNumber("connect", 20);

/**
 * How long two pages that have each other's codes try for a WebRTC path before their
 * messages go through the relays instead: ?fallback=SECONDS (tests), else 8 s. At once
 * when a code names no candidate at all, or when ICE gives up.
 */
const fallbackSeconds = () => addressNumber("fallback", 8);

/**
 * Once this page has both codes of `link` (`codes`: the offer and the answer), carry it
 * through the relays if no WebRTC path opens (fallback.js): when ICE fails, at once when a
 * code names no candidate, and, if `timed`, after fallbackSeconds(); `side` is this page's.
 * `again()` when the relays are tried (the time to connect starts again); `noPath()` when
 * they cannot carry it either (no relay, or a link made by hand without a key). Returns stop().
 */
function fallBackIfNoPath(link, codes, side, { again, noPath, timed = true }) {
  const via = link.via;
  return watchPath(link, {
    noCandidates: !codes.every(hasCandidates),
    waitMs: timed ? fallbackSeconds() * 1000 : null,
    carry: () => {
      mark("pishe:fallback");
      return via && via.key ? carryByRelays(link, { ...via, side }) : false;
    },
    again,
    noPath,
  });
}

export const state = {
  role: null, // "host", "guest", or null while the computer table owns the board
  game: null, // the game of the friend's table
  seats: new Map(), // host: seat kept for a friend -> {invite, link, connected, everOpened, hold, listener,
  //                   accepted (its friend's answer taken), connectTimer, stopFallback, noPath, stopRoute,
  //                   knocks (its page's knocks heard, and the last answered), posting (that answer, retry.js)}
  link: null, // guest: its one data channel
  listener: null, // guest: listening on the relays for the host's answer to its knock (coming back)
  retrying: null, // guest: posting its answer or knock again until answered (retry.js)
  connectTimer: null, // guest: how long its answer may take to connect (expectOpen)
  stopFallback: null, // guest: stops waiting to carry its link through the relays (expectOpen)
  stopRoute: null, // guest: stops saying the channel's path (route.js)
  connected: false, // guest: the channel is open; host: every friend's seat is
  everOpened: false, // guest: the current link opened once (else a close is a failed connection)
  pending: 0, // worker calls queued or in flight
  acting: false, // host: its own move (or next deal) is with Python, not yet painted
  saveQueued: false, // guest: a guest_saved call is queued
  awaiting: false, // guest: an intent is on its way, the host's answer is not back
  joined: false, // guest: the worker holds a Guest (guest_open was called)
  joinCode: null, // guest: the invite (offer code and key) being answered
  saidNames: null, // the seats' names this side's views are made with, as data (to say a status again)
  silence: { key: null, timer: null }, // host: the hold of the pages the table waits on (watchSilence)
  reveal: { key: null, timer: null }, // guest: the hold of the secrets awaited at a deal's end (watchReveal)
  paint: null, // the game's painter, once loaded
  view: null,
  status: null,
};

/**
 * The table's turn loop (../turns.js, the computer table's too). The host's page runs
 * the clocks and the computers' moves; a guest's shows its clock, and at a no-peek table
 * plays its own seat's timeout.
 */
export const turns = turnLoop({
  timeout: () => {
    if (state.role === "host") queue(async () => hostAnswer(await call("host_timeout")));
    // At a no-peek table only a friend's page knows its cards: it plays its own timeout.
    else if (state.connected) queue(async () => guestAnswer(await call("guest_timeout")));
  },
  computerStep: () => {
    if (state.role === "host") queue(async () => hostAnswer(await call("host_computer_step")));
  },
});

/** The friend's table's markup: the game's table. */
export function table() {
  return tableOf(state.game || FIRST_GAME);
}

/** Play `game` at this table: its painter is loaded now, so that views paint at once. */
export async function useGame(game) {
  for (const node of document.querySelectorAll("[data-for-game]")) node.hidden = node.dataset.forGame !== game;
  if (state.game === game && state.paint) return;
  state.game = game;
  state.paint = null;
  const { paint } = await painter(game);
  if (state.game === game) state.paint = paint;
}

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
  document.body.dataset.idle = String(state.pending === 0 && !state.awaiting && !turns.waiting);
}

// Jobs with worker calls run one after the other, each acting on what the ones before
// it left. `inTurn: false`: at once, for a move that must reach the worker now.
let chain = Promise.resolve();
export function queue(job, { inTurn = true } = {}) {
  state.pending += 1;
  setIdle();
  const run = (inTurn ? chain : Promise.resolve()).then(job)
    .catch((err) => {
      // Python could not run a call (its own text is for developers): no answer.
      console.warn("a call failed:", err);
      showError(noAnswer());
    });
  const done = run.then(() => {
    state.pending -= 1;
    setIdle();
  });
  if (inTurn) chain = done;
  return run;
}

export function call(name, ...args) {
  return computerTable.py.call(name, ...args);
}

export function showError(message) {
  setText(table().querySelector("[data-error]"), message);
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
  const move = table().querySelector("[data-action]");
  if (move) move.focus();
}

// ---------------------------------------------------------------------------
// Painting: only this seat's view, as Python returned it.

/**
 * Paint the answer's view (or the table with no cards, from Python) and what only the
 * friend's table shows; say its steps (and the status when the turn comes to you).
 */
export function show(answer) {
  const status = answer.status && typeof answer.status === "object" ? answer.status : state.status || {};
  state.status = status;
  const view = answer.view && typeof answer.view === "object" ? answer.view : null;
  state.view = view;

  if (answer.said_names !== undefined) state.saidNames = answer.said_names;
  turns.say(view, answer.steps, answer.said, state.saidNames);
  const role = state.role;
  const game = status.game || state.game || FIRST_GAME;
  if (view && state.paint && game === state.game) {
    paintTable(state.paint, view, status, answer);
    return;
  }
  // Before the first deal (the table with no cards, as Python shows it to this side), or
  // before the painter of the game the host's welcome named is loaded.
  queue(async () => {
    await useGame(game);
    const shown = view || (await call("blank_view", game, role)).view;
    // Only if nothing newer was painted meanwhile (a view comes while the blank table is made).
    if (state.role === role && state.game === game && state.view === view) paintTable(state.paint, shown, status, answer);
  });
}

function paintTable(paint, view, status, answer) {
  const root = table();
  // A guest's clock shows only while its channel is open.
  turns.paint(paint, view, root, answer, state.connected || state.role === "host" ? answer.clock : null);
  const nextDealButton = root.querySelector("[data-next-deal]");
  const tableStatus = root.querySelector("[data-status]");
  const dealing = status.phase === "dealing";
  if (dealing || !state.view) {
    nextDealButton.hidden = true;
    nextDealButton.setAttribute("aria-disabled", "true");
  }
  // The table's status line, where the view alone cannot say it (a blank view says its own):
  // the status's own lines while dealing, else the page's words.
  // The host's names whom the table waits on: while dealing (once a friend is here), on a
  // friend's turn while that friend's page is connected (else it is away: below), and on a
  // friend whose key opens a card this page may see now (no-peek), connected or not.
  const host = state.role === "host";
  const seats = [...state.seats.values()];
  const forKeys = Boolean(view) && list(status.waiting_for).some((seat) => seat !== view.turn);
  const waitingLine = host && status.waiting_line && (dealing
    ? state.view || seats.some((s) => s.connected)
    : state.view && !view.result && (forKeys || seats.some((s) => s.connected && s.number === view.turn)));
  if (waitingLine) {
    setText(tableStatus, status.waiting_line);
  } else if (!host && !state.view && state.connected && dealing) {
    // A guest here before the first deal: the friends not here yet, else the dealing.
    setText(tableStatus, status.waiting_line || status.dealing);
  } else if (state.view && dealing) {
    setText(tableStatus, host && !state.connected ? status.when_back : status.dealing);
  } else if (state.view && !state.connected && state.role === "guest") {
    setText(tableStatus, word("paused"));
  } else if (state.view && !state.connected && view.turn !== null && view.turn !== view.seat && !dealOver(view) &&
             !answer.computer_moves) {
    setText(tableStatus, word("friend_away"));
  }
  if ((!state.view || dealing) && status.length_name) {
    setText(document.querySelector(`[data-match-line="${state.game}"] [data-match-length]`), status.length_name);
  }
  // Who plays each seat (a friend, a computer, someone away), as Python words it, and the
  // name its player chose: player text, shown as text in its own place, never in a sentence.
  const flags = list(status.presence);
  const people = list(status.seats);
  for (const area of root.querySelectorAll("[data-seat]")) {
    const flag = area.querySelector("[data-flag-who]");
    const line = flags[Number(area.dataset.seat)] || "";
    if (flag) {
      setText(flag, line);
      flag.hidden = !line;
    }
    const person = people[Number(area.dataset.seat)];
    showChosenName(area.querySelector("[data-chosen-name]"), person && typeof person.name === "string" ? person.name : "");
  }
  lockButtons();
  showFairness();
}

/** A seat's chosen name (player text) in `node`, marked as the player's own; "" for none. */
export function showChosenName(node, name) {
  if (!node) return;
  setText(node, name);
  node.hidden = !name;
  if (name) node.title = word("chosen_name");
  else node.removeAttribute("title");
}

/** The guest cannot act while its last intent is unanswered or the channel is closed. */
export function lockButtons() {
  if (state.role !== "guest" || (state.connected && !state.awaiting)) return;
  const root = table();
  for (const button of root.querySelectorAll("[data-action]")) button.setAttribute("aria-disabled", "true");
  const nextDealButton = root.querySelector("[data-next-deal]");
  nextDealButton.setAttribute("aria-disabled", "true");
  if (state.awaiting) nextDealButton.hidden = true;
}

/** The guest's check of the last finished deal, as its status words it: {ok, line} or null. */
function fairness(status) {
  const fair = status && status.fair;
  return fair && typeof fair === "object" ? fair : null;
}

function showFairness() {
  // The host's page checks a deal too when it is dealt no-peek (it does not know the deck).
  const fair = fairness(state.status);
  showFair(fair);
  // A no-peek table says plainly whose cards the host's page knows: its computers'.
  const note = document.querySelector("[data-computers-note]");
  const computers = state.status && typeof state.status.computers_note === "string" ? state.status.computers_note : "";
  note.hidden = !computers;
  setText(note, computers);
  // In the deal-end box too, for the deal it shows.
  const resultFair = table().querySelector("[data-result-fair]");
  if (!resultFair) return;
  const view = state.view;
  const deal = view && view.match ? view.match.deal : null;
  const over = dealOver(view);
  const here = fair && over && state.status.verification_deal === deal ? fair : null;
  resultFair.hidden = !here;
  setText(resultFair, here ? here.line : "");
  if (here) resultFair.dataset.kind = here.ok ? "ok" : "warning";
}

/** Whether `view`'s deal has ended, from the match keys every game's view has. */
function dealOver(view) {
  return Boolean(view && view.match && (view.match.over || view.match.next_deal));
}

/** Forget the fairness line of the deal-end box (a new table). */
export function clearResultFair() {
  const resultFair = table().querySelector("[data-result-fair]");
  if (!resultFair) return;
  resultFair.hidden = true;
  setText(resultFair, "");
}

// ---------------------------------------------------------------------------
// Answers from Python.

/** A host_* answer (its messages already sent by the worker): paint it. */
export function hostAnswer(answer) {
  if (!answer || !("send" in answer)) {
    showError(answer ? answer.error : noAnswer());
    return;
  }
  if (answer.saved) store(HOST_KEY, answer.saved);
  // answer.error here is why a guest's message was refused: the guest is told, not us.
  if (answer.error) console.debug("refused a message from a guest:", answer.error);
  else showError("");
  show(answer);
  showSeats(answer.status);
  noteHostSettings();
  turns.next(answer.computer_moves);
  setIdle();
}

/**
 * Host: a length or clock chosen on the page while the friends' match is played applies
 * from the next match (Play again takes it), and the settings note says so.
 */
export function noteHostSettings() {
  if (state.role !== "host") return; // the computer's table says its own
  const status = state.status;
  const playing = status && status.phase !== "match-over"
    ? { game: state.game, length: status.length, clock: status.clock } : null;
  noteSettings(playing, ["length", "clock"]);
}

/** Host: each invited seat's state beside its name, and the table's status line. */
function showSeats(status) {
  if (state.role !== "host" || state.seats.size === 0) return;
  const seats = new Map(list(status && status.seats).map((s) => [s.seat, s]));
  let here = 0;
  for (const [number, seat] of state.seats) {
    const info = seats.get(number) || {};
    if (seat.connected) here += 1;
    const key = info.left ? "seat_left" : info.away ? "seat_away" : seat.connected ? "seat_connected"
      : seat.noPath ? "seat_no_path" : seat.everOpened ? (seat.hold ? "seat_reconnecting" : "seat_lost")
        : "seat_waiting";
    setSeatState(seat.invite, key);
  }
  state.connected = here === state.seats.size;
  const several = state.seats.size > 1;
  const kept = [...state.seats.values()];
  const reconnecting = kept.find((s) => s.hold && s.everOpened && !s.connected); // not once invited again
  if (state.connected) setStatus(STATUS.connected, "connected");
  else if (kept.some((s) => s.noPath)) setStatus(STATUS.noPathHost, "lost");
  else if (reconnecting) setStatus(STATUS.reconnecting, "waiting", { name: reconnecting.name });
  else if (kept.some((s) => s.everOpened && !s.connected)) setStatus(STATUS.hostLost, "lost");
  else if (several) setStatus("waiting_friends", "waiting", { here, all: state.seats.size });
  else setStatus(STATUS.waiting, "waiting");
  // While a deal waits for friends who are not here, the host may deal with computers in their seats.
  const empty = list(status && status.seats).some((s) => s.role === "guest" && !s.connected && !s.away && !s.left);
  ui.dealNow.hidden = !(status && status.phase === "dealing" && empty);
  // After the match: another with the same friends in the same seats, on the same links.
  ui.playAgain.hidden = !(status && status.phase === "match-over");
  watchSilence(status);
}

/**
 * Host: a friend's page that is connected but does not answer (no part of the shuffle, no
 * move) holds up the table. Each time the table starts waiting on someone anew (another
 * deal, another move, other seats), the hold starts again; when it runs out with the table
 * still waiting on the same, a computer plays those seats (host_silent) until they act.
 */
function watchSilence(status) {
  const waiting = list(status && status.waiting_for).filter((seat) => {
    const kept = state.seats.get(seat);
    return kept && kept.connected;
  });
  const key = waiting.length ? JSON.stringify([status.phase, status.deal, status.moves, waiting]) : null;
  if (key === state.silence.key) return;
  clearTimeout(state.silence.timer);
  state.silence = { key, timer: null };
  if (!key) return;
  state.silence.timer = setTimeout(() => {
    if (state.role !== "host" || state.silence.key !== key) return;
    for (const seat of waiting) queue(async () => hostAnswer(await call("host_silent", seat)));
  }, silentSeconds() * 1000);
}

/** A guest_* answer (its messages already sent by Python, in the worker): paint, keep what resumes the seat. */
export function guestAnswer(answer, { paintIt = true } = {}) {
  if (!answer || !("send" in answer)) {
    // A message the host should never send (or a call that could not run): nothing changed.
    state.awaiting = false;
    showError(answer ? word("refused", { reason: answer.error }) : noAnswer());
    if (state.view) show({ view: state.view, status: state.status });
    return;
  }
  if (paintIt) {
    showError(answer.error || "");
    show(answer);
  }
  keep(answer);
  watchReveal(answer.status);
}

/**
 * Guest: at a deal's end this page waits for every page's secret. When the hold runs out
 * with the same deal still waiting, Python ends it aborted, naming who did not reveal
 * (guest_reveal_overdue): the last deal of a match too gets its line.
 */
function watchReveal(status) {
  const key = status && status.awaiting_reveal ? String(status.deal) : null;
  if (key === state.reveal.key) return;
  clearTimeout(state.reveal.timer);
  state.reveal = { key, timer: null };
  if (!key) return;
  state.reveal.timer = setTimeout(() => {
    if (state.role !== "guest" || state.reveal.key !== key) return;
    queue(async () => guestAnswer(await call("guest_reveal_overdue")));
  }, silentSeconds() * 1000);
}

/** Keep what resumes the seat after a reload of this tab: the seat token, the ledger and Guest.save(). */
function keep(answer) {
  try {
    if (answer.token) sessionStorage.setItem(TOKEN_KEY, answer.token);
    else sessionStorage.removeItem(TOKEN_KEY);
    if (answer.ledger) sessionStorage.setItem(LEDGER_KEY, answer.ledger);
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
  });
}

// ---------------------------------------------------------------------------
// The data channels.

/**
 * Host: a new data channel for `seat` (closing its old one), its events handled here;
 * the worker gives its friend's messages to host_receive, and the answer comes here.
 */
export async function openSeatLink(seat) {
  closeSeatLink(seat);
  const link = await newLink(computerTable.py.worker, { to: seat.number, receive: ["host_receive", seat.number] });
  seat.link = link;
  seat.connected = false;
  seat.accepted = false;
  seat.noPath = false;
  link.onopen = () => link === seat.link && seatOpened(seat);
  link.onclose = () => link === seat.link && seatClosed(seat);
  // Painted at once, not behind the queue: the guest waits on this view.
  link.onanswer = (answer) => link === seat.link && state.role === "host" && hostAnswer(answer);
  return link;
}

/** Host: close `seat`'s channel and stop listening for its friend's answer. */
export function closeSeatLink(seat) {
  if (seat.listener) seat.listener.close();
  seat.listener = null;
  stopSeatRoute(seat);
  const link = seat.link;
  seat.link = null;
  seat.connected = false;
  if (link) link.close();
}

function seatOpened(seat) {
  mark("pishe:open");
  seat.connected = true;
  seat.everOpened = true;
  seat.noPath = false;   // (said before its friend's page reached the relays)
  clearTimeout(seat.connectTimer);
  if (seat.stopRoute) seat.stopRoute();
  seat.stopRoute = watchRoute(seat.link, seat.invite.path);
  clearTimeout(seat.hold);
  seat.hold = null;
  if (seat.listener) seat.listener.close();
  seat.listener = null;
  const hadFocus = ui.panel.contains(document.activeElement);
  hideInvite(seat.invite);
  say(ui.note, "host_deals");
  if (hadFocus) focusTable();
  showSeats(state.status);
  if (state.view || state.status) show({ view: state.view, status: state.status });
}

/**
 * Host: `seat`'s friend lost the connection. Its page, opened again on the same link
 * in the same tab, knocks: it sends its own connection offer through the relays,
 * sealed with the link's key. The host's page answers it the same way, and the
 * channel opens with nothing pasted. (Invite again still makes a new link.)
 */
async function listenForKnock(seat) {
  if (!seat.key || seat.listener) return;
  const relays = await relay();
  const { key, offer } = seat;
  if (seat.listener || seat.key !== key) return;
  // Each knock is taken once, however many listeners in turn hear it (a relay may keep it).
  if (!seat.knocks || seat.knocks.key !== key) seat.knocks = { key, seen: new Set(), answered: null };
  const knocks = seat.knocks;
  seat.listener = relays.listenForAnswer({
    key,
    offer: knockOn(offer),
    seen: knocks.seen,
    onAnswer: async (theirOffer) => {
      if (state.role !== "host" || seat.connected || seat.key !== key) return;
      seat.listener = null;
      // The same knock again: its page did not hear the answer, which is posted again.
      if (knocks.answered && knocks.answered.offer === theirOffer && seat.link) {
        listenForKnock(seat);
        postKnockAnswer(seat, seat.link, relays, knocks.answered);
        return;
      }
      const link = await openSeatLink(seat);
      link.via = { key, offer: theirOffer };
      // Still listening: its page knocks again until it hears the answer (or comes back once more).
      listenForKnock(seat);
      try {
        const reply = await link.answer(theirOffer);
        if (link !== seat.link) return;
        knocks.answered = { key, offer: theirOffer, reply };
        postKnockAnswer(seat, link, relays, knocks.answered);
      } catch (err) {
        console.warn("could not answer the friend's knock:", err);
      }
    },
  });
}

/** Host: post `answered`'s reply to a friend's knock until a relay takes it; then the channel is awaited. */
function postKnockAnswer(seat, link, relays, { key, offer, reply }) {
  if (seat.posting) seat.posting.stop();
  seat.posting = retry(async (attempt) => {
    if (link !== seat.link || seat.connected) return true;
    if (!await relays.postAnswer({ key, offer, answer: reply, attempt })) return false;
    if (link === seat.link && !seat.connected && !seat.accepted) expectSeatOpen(seat, [offer, reply]);
    return true;
  }, { waits: backoff(2000, 3) });
}

function stopSeatRoute(seat) {
  if (seat.posting) seat.posting.stop();
  seat.posting = null;
  clearTimeout(seat.connectTimer);
  seat.connectTimer = null;
  if (seat.stopFallback) seat.stopFallback();
  seat.stopFallback = null;
  if (seat.stopRoute) seat.stopRoute();
  seat.stopRoute = null;
}

/**
 * Host: both pages have each other's codes for `seat`'s link (its friend's answer was
 * taken): if the channel is not open within connectSeconds(), say that no path was found
 * and what to try. A link that fails before then says so at once (seatClosed).
 */
export function expectSeatOpen(seat, codes) {
  seat.accepted = true;
  const link = seat.link;
  const arm = () => {
    clearTimeout(seat.connectTimer);
    seat.connectTimer = setTimeout(() => {
      if (link === seat.link && !seat.connected && state.role === "host") noPath(seat);
    }, connectSeconds() * 1000);
  };
  arm();
  if (seat.stopFallback) seat.stopFallback();
  seat.stopFallback = fallBackIfNoPath(link, codes, "host", {
    again: arm,
    noPath: () => link === seat.link && !seat.connected && state.role === "host" && noPath(seat),
  });
}

// The link is left as it is: carried through the relays, it still opens when its friend's
// page gets there later (a guest whose posts were never acknowledged tries the relays only
// once its own ICE fails), and the seat is connected then.
function noPath(seat) {
  clearTimeout(seat.connectTimer);
  seat.connectTimer = null;
  seat.noPath = true;
  hideInvite(seat.invite, true);
  setSeatState(seat.invite, "seat_no_path");
  setStatus(STATUS.noPathHost, "lost");
}

function seatClosed(seat) {
  const wasOpen = seat.connected || seat.everOpened;
  seat.connected = false;
  stopSeatRoute(seat);
  if (state.role !== "host") return;
  if (!wasOpen && seat.accepted) {
    noPath(seat);
    return;
  }
  hideInvite(seat.invite, true);
  if (!wasOpen) setSeatState(seat.invite, "seat_lost");
  queue(async () => hostAnswer(await call("host_disconnect", seat.number)));
  listenForKnock(seat).catch((err) => console.warn("not listening for the friend's return:", err));
  // The seat is held for its friend a while; then a computer plays it until they are back.
  clearTimeout(seat.hold);
  // Meanwhile the host reads that its friend is reconnecting (a reloaded page knocks by itself).
  seat.hold = setTimeout(() => {
    seat.hold = null;
    if (state.role === "host" && !seat.connected) {
      queue(async () => hostAnswer(await call("host_hold_over", seat.number)));
    }
  }, holdSeconds() * 1000);
  showSeats(state.status);
}

/**
 * Guest: a new data channel to the host (closing the one before), its events handled
 * here; the worker gives the host's messages to guest_receive (saving nothing: saveSoon),
 * and the answer comes here. (A table that does not know this tab's seat token is
 * answered by Python itself: its answer drops the token and says hello afresh, keeping
 * the ledger.)
 */
export async function openLink() {
  closeLink();
  const link = await newLink(computerTable.py.worker, { to: 0, receive: ["guest_receive", false] });
  state.link = link;
  state.connected = false;
  state.everOpened = false;
  link.onopen = () => link === state.link && opened();
  link.onclose = () => link === state.link && closed();
  // Painted at once, not behind the queue: this is the answer to the click.
  link.onanswer = (answer) => {
    if (link !== state.link || state.role !== "guest") return;
    state.awaiting = false;
    guestAnswer(answer);
    saveSoon();
  };
  return link;
}

/** Close every channel of this page. */
export function closeLink() {
  if (state.listener) state.listener.close();
  state.listener = null;
  stopRoute();
  const link = state.link;
  state.link = null;
  state.connected = false;
  if (link) link.close();
  for (const seat of state.seats.values()) {
    clearTimeout(seat.hold);
    closeSeatLink(seat);
  }
  turns.stop();
  clearTimeout(state.silence.timer);
  state.silence = { key: null, timer: null };
}

function stopRoute() {
  if (state.retrying) state.retrying.stop();
  state.retrying = null;
  clearTimeout(state.connectTimer);
  state.connectTimer = null;
  if (state.stopFallback) state.stopFallback();
  state.stopFallback = null;
  if (state.stopRoute) state.stopRoute();
  state.stopRoute = null;
}

/**
 * Guest: its answer has reached the host (through a relay): if the channel is not open
 * within connectSeconds(), say that no path was found and what to try (a link that
 * fails before then says so at once: closed()). Not `posted` (no relay said it took the
 * answer yet, which may have reached the host all the same): the relays are tried when
 * this page's own ICE fails (or a code names no candidate), and the time runs from then.
 */
export function expectOpen(codes, { posted = true } = {}) {
  const link = state.link;
  const noPathHere = () => {
    clearTimeout(state.connectTimer);
    state.connectTimer = null;
    if (link !== state.link || state.everOpened || state.role !== "guest") return;
    if (state.retrying) state.retrying.stop();
    setStatus(STATUS.noPathGuest, "lost");
  };
  const arm = () => {
    clearTimeout(state.connectTimer);
    state.connectTimer = setTimeout(noPathHere, connectSeconds() * 1000);
  };
  if (posted) arm();
  if (state.stopFallback) state.stopFallback();
  state.stopFallback = fallBackIfNoPath(link, codes, "guest", { again: arm, noPath: noPathHere, timed: posted });
}

function opened() {
  mark("pishe:open");
  state.connected = true;
  state.everOpened = true;
  stopRoute();
  state.stopRoute = watchRoute(state.link, ui.path);
  setStatus(STATUS.connected, "connected");
  say(ui.note, "friend_deals");
  const hadFocus = ui.panel.contains(document.activeElement);
  ui.guestReply.hidden = true;
  if (hadFocus) focusTable();
  store(USED_KEY, state.joinCode);
  queue(async () => {
    // First time on this page: resume the seat kept in this tab, if any; else say hello again.
    let answer;
    if (state.joined) {
      answer = await call("guest_hello");
    } else {
      answer = await call("guest_open", stored(TOKEN_KEY), stored(SAVED_KEY), stored(LEDGER_KEY));
      state.joined = true;
    }
    guestAnswer(answer);
  });
}

/** The guest's channel closed (or this page is leaving): say so, and keep the table. */
export function closed() {
  state.connected = false;
  state.awaiting = false;
  const expected = !state.everOpened && state.connectTimer !== null;
  stopRoute();
  if (state.role !== "guest") return;
  setStatus(expected ? STATUS.noPathGuest : STATUS.guestLost, "lost");
  ui.guestReply.hidden = true;
  // With no view yet, the table with no cards says again what it waits for.
  show({ view: state.view, status: state.status });
}
