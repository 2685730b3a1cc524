// The host's answers: each host_* answer from Python (its messages already sent by the
// worker) painted, the table kept for a reload of this tab, each invited seat's state in
// the panel and the table's status line, and the waits on pages that hold up the table.

import { list } from "../../text.js";
import { noteSettings } from "../settings.js";
import { HOST_KEY } from "../friend-keys.js";
import { STATUS, setSeatState, setStatus, ui } from "./panel.js";
import { call, keptSeats, noAnswer, queue, seatOf, session, setConnected, setIdle, store, turns } from "./core.js";
import { say } from "../words.js";
import { show, showError } from "./view.js";
import { watchSilence } from "./timers.js";

/** Host: call `name` with `args` in turn, and paint its answer. */
export function hostCall(name, ...args) {
  return queue(async () => hostAnswer(await call(name, ...args)));
}

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
  if (session.role !== "host") return; // the computer's table says its own
  const status = session.status;
  const playing = status && status.phase !== "match-over"
    ? { game: session.game, length: status.length, clock: status.clock } : null;
  noteSettings(playing, ["length", "clock"]);
}

/** Host: each invited seat's state beside its name, and the table's status line. */
export function showSeats(status) {
  if (session.role !== "host" || keptSeats().length === 0) return;
  const seats = new Map(list(status && status.seats).map((s) => [s.seat, s]));
  const kept = keptSeats();
  for (const seat of kept) {
    const info = seats.get(seat.number) || {};
    const key = info.left ? "seat_left" : info.unfair ? "seat_unfair" : info.away ? "seat_away"
      : seat.connected ? "seat_connected"
      : seat.noPath ? "seat_no_path" : seat.everOpened ? (seat.hold.running ? "seat_reconnecting" : "seat_lost")
        : "seat_waiting";
    setSeatState(seat.invite, key);
  }
  const here = kept.filter((s) => s.connected).length;
  setConnected(here === kept.length);
  const reconnecting = kept.find((s) => s.hold.running && s.everOpened && !s.connected); // not once invited again
  if (session.connected) setStatus(STATUS.connected, "connected");
  else if (kept.some((s) => s.noPath)) setStatus(STATUS.noPathHost, "lost");
  else if (reconnecting) setStatus(STATUS.reconnecting, "waiting", { name: reconnecting.name });
  else if (kept.some((s) => s.everOpened && !s.connected)) setStatus(STATUS.hostLost, "lost");
  else if (kept.length > 1) setStatus("waiting_friends", "waiting", { here, all: kept.length });
  else setStatus(STATUS.waiting, "waiting");
  showHold(status, kept.find((s) => s.hold.running && !s.connected));
  // While a deal waits for friends who are not here, the host may deal with computers in their seats.
  const empty = list(status && status.seats).some((s) => s.role === "guest" && !s.connected && !s.away && !s.left);
  ui.dealNow.hidden = !(status && status.phase === "dealing" && empty);
  waitOnSilence(status);
}

let ticking = null; // the countdown's second hand, while a seat is held

/**
 * Host: a lost friend's seat held mid-deal (`held`; none: undefined) shows as a countdown in
 * the panel (the table's status line keeps the game's own line), with Deal again now: the
 * host need not wait out the hold (the deal in play is stopped, named as aborts are, and
 * dealt again with a computer in that seat).
 */
function showHold(status, held) {
  const midDeal = Boolean(held) && Boolean(session.view) && status && status.phase === "playing";
  ui.hold.hidden = !midDeal;
  ui.dealAgain.hidden = !midDeal;
  if (midDeal) {
    const seconds = Math.max(0, Math.ceil((held.hold.deadline - performance.now()) / 1000));
    const values = { name: held.name, seconds: String(seconds) };
    say(ui.hold, "hold_countdown", values);
  } else {
    say(ui.hold, null);
  }
  if (midDeal && !ticking) ticking = setInterval(() => showSeats(session.status), 1000);
  if (!midDeal && ticking) {
    clearInterval(ticking);
    ticking = null;
  }
}

/**
 * Host: the connected friends' pages the table waits on (no part of the shuffle, no
 * move) hold it up a while; then a computer plays those seats (host_silent) until they act.
 */
function waitOnSilence(status) {
  const waiting = list(status && status.waiting_for).filter((number) => {
    const seat = seatOf(number);
    return seat && seat.connected;
  });
  const key = waiting.length ? JSON.stringify([status.phase, status.deal, status.moves, waiting]) : null;
  watchSilence(key, () => {
    if (session.role !== "host") return;
    for (const number of waiting) hostCall("host_silent", number);
  });
}
