// The friend's table's waits: how long a lost friend's seat is held, how long a silent
// page may hold up the table, how long two pages may take to connect, and when a link
// goes through the relays instead. Each wait is told what to do when it runs out; none
// calls Python or paints.

import { addressNumber } from "../settings.js";
import { hasCandidates } from "../../core/rtc.js";
import { carryByRelays } from "./signaling.js";
import { watchPath } from "./fallback.js";
import { mark } from "./core.js";

/** How long a lost friend's seat is held before a computer plays it: ?hold=SECONDS (tests), else 60 s. */
export const holdSeconds = () => addressNumber("hold", 60);

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

/** A wait that can be started again and stopped: start(then) runs `then` after `seconds()` unless stopped. */
function wait(seconds) {
  let timer = null;
  return {
    start(then) {
      clearTimeout(timer);
      timer = setTimeout(() => {
        timer = null;
        then();
      }, seconds() * 1000);
    },
    stop() {
      clearTimeout(timer);
      timer = null;
    },
    /** Whether it is running. */
    get running() {
      return timer !== null;
    },
  };
}

/** The wait for a link's channel to open once both pages have the codes (connectSeconds()). */
export const connectWait = () => wait(connectSeconds);

/**
 * The hold of a lost friend's seat (holdSeconds()); `deadline` is when it runs out
 * (performance.now() milliseconds; null: not running), for the page's countdown.
 */
export function holdWait() {
  const inner = wait(holdSeconds);
  let deadline = null;
  return {
    start(then) {
      deadline = performance.now() + holdSeconds() * 1000;
      inner.start(() => {
        deadline = null;
        then();
      });
    },
    stop() {
      deadline = null;
      inner.stop();
    },
    get running() {
      return inner.running;
    },
    get deadline() {
      return deadline;
    },
  };
}

/**
 * Once this page has both codes of `link` (`codes`: the offer and the answer), carry it
 * through the relays if no WebRTC path opens (fallback.js): when ICE fails, at once when a
 * code names no candidate, and, if `timed`, after fallbackSeconds(); `side` is this page's.
 * `again()` when the relays are tried (the time to connect starts again); `noPath()` when
 * they cannot carry it either (no relay, or a link made by hand without a key). Returns stop().
 */
export function fallBackIfNoPath(link, codes, side, { again, noPath, timed = true }) {
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

/**
 * A hold over `key`: each time what is waited on changes (another `key`), the hold starts
 * again; when it runs out with the same `key` still waited on, `then()`. A null `key`:
 * nothing is waited on.
 */
function silentHold() {
  let held = { key: null, timer: null };
  return (key, then) => {
    if (key === held.key) return;
    clearTimeout(held.timer);
    held = { key, timer: null };
    if (!key) return;
    held.timer = setTimeout(() => {
      if (held.key === key) then();
    }, silentSeconds() * 1000);
  };
}

/**
 * Host: a friend's page that is connected but does not answer (no part of the shuffle, no
 * move) holds up the table. Each time the table starts waiting on someone anew (`key`:
 * another deal, another move, other seats), the hold starts again; when it runs out with
 * the table still waiting on the same, `then()` (a computer plays those seats).
 */
export const watchSilence = silentHold();

/**
 * Guest: at a deal's end this page waits for every page's secret (`key`: the deal awaited).
 * When the hold runs out with the same deal still waiting, `then()`: Python ends it aborted,
 * naming who did not reveal, so the last deal of a match gets its line too.
 */
export const watchReveal = silentHold();

/** Stop the holds (the table is left). */
export function stopSilence() {
  watchSilence(null);
  watchReveal(null);
}
