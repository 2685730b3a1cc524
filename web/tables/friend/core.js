// The friend's table's core: what the table is (whose board, which game, the last view
// and status, the seats kept for friends), the queue of calls to the Python worker, the
// tab's storage and the turn loop. It paints nothing and holds no link: ./view.js shows,
// ./host.js and ./guest.js take Python's answers, ./host-link.js and ./guest-link.js hold
// the channels, ./timers.js the waits. Its state is read through `session` and changed
// only by the functions below.

import { computerTable } from "../computer.js";
import { turnLoop } from "../turns.js";
import { pageWord } from "../../lang.js";

export const TOKEN_KEY = "pishe.friend.token";
export const SAVED_KEY = "pishe.friend.saved";
export const USED_KEY = "pishe.friend.used"; // the invite this tab has connected with
// The guest's ledger (its secret for the deals and the moves it asked for): kept for the
// whole match, however the page joins again, so that no deal is ever answered twice.
export const LEDGER_KEY = "pishe.friend.ledger";
export const GUEST_KEYS = [TOKEN_KEY, SAVED_KEY, USED_KEY, LEDGER_KEY];

const state = {
  role: null, // "host", "guest", or null while the computer table owns the board
  game: null, // the game of the friend's table
  seats: new Map(), // host: seat number -> the seat kept for a friend (./host-link.js)
  connected: false, // guest: its channel is open; host: every friend's seat is
  pending: 0, // worker calls queued or in flight
  acting: false, // host: its own move (or next deal) is with Python, not yet painted
  awaiting: false, // guest: an intent is on its way, the host's answer is not back
  saidNames: null, // the seats' names this side's views are made with, as data (to say a status again)
  view: null,
  status: null,
};

/** The table's state, read only: role, game, seats, connected, acting, awaiting, saidNames, view, status. */
export const session = Object.freeze({
  get role() { return state.role; },
  get game() { return state.game; },
  /** The seats kept for friends, by number (host); a copy of the table's list. */
  get seats() { return new Map(state.seats); },
  get connected() { return state.connected; },
  get acting() { return state.acting; },
  get awaiting() { return state.awaiting; },
  get saidNames() { return state.saidNames; },
  get view() { return state.view; },
  get status() { return state.status; },
});

/**
 * This page's board goes to the friend's table as `role` ("host" or "guest") of `game`: the
 * computer's table stops, and a new role starts with no view.
 */
export function takeBoard(role, game) {
  if (state.role !== role) {
    computerTable.stop();
    state.role = role;
    state.view = null;
    state.status = null;
    turns.stop();
    state.awaiting = false;
  }
  state.game = game;
}

/** The board goes back to the computer's table: no role, no view, no seats. */
export function leaveBoard() {
  state.seats.clear();
  state.role = null;
  state.view = null;
  state.status = null;
  state.connected = false;
}

/** The game whose painter the table now uses (./view.js's useGame). */
export function setGame(game) {
  state.game = game;
}

/** What the table shows now: the last `view` and `status` painted. */
export function setShown(view, status) {
  state.view = view;
  state.status = status;
}

/** The seats' names this side's views are made with (`names`, as the answer gave them). */
export function setSaidNames(names) {
  state.saidNames = names;
}

/** Guest: its channel is open; host: every friend's seat is. */
export function setConnected(connected) {
  state.connected = Boolean(connected);
}

/** Guest: an intent is on its way (true) or answered (false). */
export function setAwaiting(awaiting) {
  state.awaiting = Boolean(awaiting);
}

/** Host: its own move is with Python (true) or painted (false). */
export function setActing(acting) {
  state.acting = Boolean(acting);
}

/** Host: `seat` is kept for a friend (a record of ./host-link.js's, by its number). */
export function keepSeat(seat) {
  state.seats.set(seat.number, seat);
}

/** Host: no seat is kept for a friend. */
export function forgetSeats() {
  state.seats.clear();
}

/** Host: the seat kept for a friend as `number` (undefined: none). */
export function seatOf(number) {
  return state.seats.get(number);
}

/** Host: the seats kept for friends, in the order they were kept. */
export function keptSeats() {
  return [...state.seats.values()];
}

/** What the page says when Python gave no answer at all (it cannot word it then). */
export function noAnswer() {
  return pageWord("No answer from the game.");
}

/** Measurement marks, for bench/friend.py: performance.getEntriesByName(...). */
export function mark(name) {
  try {
    performance.mark(name);
  } catch {
    // Marks are for benchmarks only.
  }
}

// What the turn loop asks for, by role: set by the table (./table.js) once its answers are known.
let turnCalls = { timeout: () => {}, computerStep: () => {} };

/** What the turn loop calls when a clock runs out (`timeout`) and when the computers move (`computerStep`). */
export function answerTurns(calls) {
  turnCalls = calls;
}

/**
 * The table's turn loop (../turns.js, the computer table's too). The host's page runs
 * the clocks and the computers' moves; a guest's shows its clock, and plays its own
 * seat's timeout.
 */
export const turns = turnLoop({
  timeout: () => turnCalls.timeout(),
  computerStep: () => turnCalls.computerStep(),
});

/** The page is idle (body[data-idle]) when no call is queued and nothing is awaited: for tests. */
export function setIdle() {
  if (!state.role) return;
  document.body.dataset.idle = String(state.pending === 0 && !state.awaiting && !turns.waiting);
}

// Jobs with worker calls run one after the other, each acting on what the ones before
// it left. `inTurn: false`: at once, for a move that must reach the worker now.
let chain = Promise.resolve();
// Where a call that could not run is said (./view.js's showError, set by the table).
let sayFailure = () => {};

/** Where the page says that a call could not run (`say(message)`). */
export function sayFailuresWith(say) {
  sayFailure = say;
}

/** Run `job` (it makes worker calls) after the jobs queued before it; `inTurn: false`: at once. */
export function queue(job, { inTurn = true } = {}) {
  state.pending += 1;
  setIdle();
  const run = (inTurn ? chain : Promise.resolve()).then(job)
    .catch((err) => {
      // Python could not run a call (its own text is for developers): no answer.
      console.warn("a call failed:", err);
      sayFailure(noAnswer());
    });
  const done = run.then(() => {
    state.pending -= 1;
    setIdle();
  });
  if (inTurn) chain = done;
  return run;
}

/** Call `name` in the Python worker (pishe.web) with `args`: a promise of its answer. */
export function call(name, ...args) {
  return computerTable.py.call(name, ...args);
}

/** What this tab keeps under `key` (null: nothing, or storage refused). */
export function stored(key) {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

/** Keep `value` under `key` in this tab; null forgets it. */
export function store(key, value) {
  try {
    if (value === null) sessionStorage.removeItem(key);
    else sessionStorage.setItem(key, value);
  } catch {
    // Storage refused: the table is resumed within this page only.
  }
}
