// A table with friends, page to page, with no game server: entering and
// leaving it, and the buttons while it is on.
//
// "Invite a friend" opens a table of the chosen game on this page (the host's)
// and makes one invite link per seat kept for a friend. Opening a link joins
// that seat: the friend's page answers the link's connection offer through the
// Nostr relays of signaling.json (relay.js), encrypted under a key made from the
// link (only who has the link can make it); when no relay takes the answer, the
// friend's page shows a reply code for the host to paste. The table's state and
// its calls to Python are in core.js, what it shows in view.js, Python's answers
// in host.js and guest.js, the channels in host-link.js and guest-link.js, the
// waits in timers.js, the panel's look in panel.js. Every sentence shown is
// Python's (the page's words by key, ../words.js).

import { FIRST_GAME } from "../../games/registry.js";
import { HOST_KEY } from "../friend-keys.js";
import { chosenSettings, noteSettings } from "../settings.js";
import { computerTable } from "../computer.js";
import { onLanguage } from "../../lang.js";
import { loadWords, say, word } from "../words.js";
import { setText } from "../../text.js";
import { forgetJoinCode, joinCode } from "./signaling.js";
import { STATUS, clearSeatInvites, showFirstLine, showRelays, ui, wireCopyButtons } from "./panel.js";
import {
  GUEST_KEYS, USED_KEY, answerTurns, call, leaveBoard, noAnswer, queue, sayFailuresWith, session, setActing,
  setAwaiting, store, stored, turns,
} from "./core.js";
import {
  clearMatchEnd, clearResultFair, enterTable, focusTable, lockButtons, show, showChosenName, showError, showTitle,
  table, useGame,
} from "./view.js";
import { hostAnswer, hostCall, noteHostSettings } from "./host.js";
import { guestAnswer, guestCall } from "./guest.js";
import { closeSeatLinks, endHolds, hasSeatLinks, inviteAgain, makeSeats, markSeatsLost } from "./host-link.js";
import { closeGuestLink, closed, comeBack, hasJoined, hasLink, join, joiningWith } from "./guest-link.js";
import { stopSilence } from "./timers.js";

const invite = document.querySelector("[data-invite]");

/** Close every channel of this page, and stop its turn loop and waits. */
function closeLinks() {
  closeGuestLink();
  closeSeatLinks();
  turns.stop();
  stopSilence();
}

function leave() {
  const role = session.role;
  if (role === "guest" && session.connected) {
    // The seat goes to a computer for good, and the host's page says so to the others
    // (the worker sends the message before it answers, so before the channel closes).
    queue(() => call("guest_leave"));
  }
  queue(async () => {
    closeLinks();
    clearSeatInvites();
    leaveBoard();
    clearMatchEnd();
    const body = document.body;
    body.dataset.table = "computer";
    delete body.dataset.role;
    delete body.dataset.friend;
    delete body.dataset.dealt;
    ui.panel.hidden = true;
    ui.first.hidden = true;
    document.querySelector("section.match").hidden = false;
    clearResultFair();
    say(ui.note, null);
    showRelays([]);
    ui.dealNow.hidden = true;
    noteSettings(null);
    ui.nameForm.hidden = true;
    setText(ui.nameNote, "");
    for (const node of document.querySelectorAll("[data-chosen-name]")) showChosenName(node, "");
    forgetJoinCode();
    for (const key of role === "guest" ? GUEST_KEYS : [HOST_KEY]) store(key, null);
    showError("");
    computerTable.start();
    invite.focus();
  });
}

/** Host: "Invite a friend" opens a table of the chosen game and settings, and invites (../friends.js asks first). */
export async function openTable() {
  const { game, length, clock, friends } = chosenSettings();
  enterTable("host", game);
  await useGame(game);
  let opened = null;
  await queue(async () => {
    opened = await call("host_open", length, null, game, friends, clock);
    hostAnswer(opened);
  });
  if (!opened || !("send" in opened)) return;
  await makeSeats(opened);
  const { seats } = session;
  await Promise.all([...seats.values()].map(inviteAgain));
}

/**
 * Host: this tab was reloaded at a friend's table. The table comes back as it was
 * (Python replays it from what the tab kept); the friends' connections are gone, so
 * the host invites again.
 */
async function reopenTable(saved) {
  let answer = null;
  enterTable("host", session.game || FIRST_GAME);
  await queue(async () => {
    answer = await call("host_open", null, saved);
  });
  if (!answer || !("send" in answer)) {
    leave(); // what the tab kept cannot be read: the computer's table, and why
    queue(async () => showError(answer ? word("not_brought_back", { reason: answer.error }) : noAnswer()));
    return;
  }
  enterTable("host", answer.status.game);
  await useGame(answer.status.game);
  await makeSeats(answer);
  markSeatsLost();
  hostAnswer(answer);
}

// ---------------------------------------------------------------------------
// Buttons and fields.

function usable(button) {
  return Boolean(session.role) && button && !button.hidden && button.getAttribute("aria-disabled") !== "true";
}

/** Guest: an intent is on its way; its buttons wait for the answer. */
function awaitAnswer() {
  setAwaiting(true);
  lockButtons();
}

function act(button) {
  const action = button.dataset.action;
  if (session.role === "host") {
    hostMove("host_act", action);
  } else if (session.connected && !session.awaiting) {
    awaitAnswer();
    // Posted to the worker in this very task, which sends Python's message at once
    // (after a click, a job queued behind others would wait for the browser's next
    // frame). Saved after the host's answer.
    // The move is made on this page's own engine: its answer has the board.
    queue(async () => {
      const answer = await call("guest_intent", action, false);
      if (answer && answer.view) setAwaiting(false);
      guestAnswer(answer, { paintIt: Boolean(answer && answer.view) });
    }, { inTurn: false });
  }
}

/** Host: one move at a time, so that each acts on the view you see; at once, as the guest's (act). */
function hostMove(name, ...args) {
  if (session.acting) return;
  setActing(true);
  queue(async () => {
    try {
      hostAnswer(await call(name, ...args));
    } finally {
      setActing(false);
    }
  }, { inTurn: false });
}

function nextDeal(button) {
  const hadFocus = document.activeElement === button;
  if (session.role === "host") {
    hostMove("host_next_deal");
  } else if (session.connected && !session.awaiting) {
    awaitAnswer();
    queue(async () => guestAnswer(await call("guest_next_deal"), { paintIt: false }));
  }
  if (hadFocus) focusTable();
}

/** Host: another match with the same friends in the same seats (the result panel's Play again). */
function playAgain() {
  // With the length and clock chosen on the page meanwhile (the settings note said so).
  const { game, length, clock } = chosenSettings();
  if (session.role === "host") hostMove("host_play_again", ...(game === session.game ? [length, clock] : []));
}

function takeOver() {
  if (session.role === "host") hostMove("host_take_over");
  else if (session.connected) guestCall("guest_take_over");
}

/**
 * The name this player gives their seat (null: none). Python checks it (20 characters at
 * most, text only) and says why it refuses one; the others see it beside this seat.
 */
function nameSeat(name) {
  if (!session.role || (session.role === "guest" && !session.connected)) return;
  queue(async () => {
    const answer = await call(session.role === "host" ? "host_name" : "guest_name", name);
    const refused = !answer || !("send" in answer);
    setText(ui.nameNote, refused ? (answer ? answer.error : noAnswer()) : word("name_saved"));
    if (refused) return;
    if (session.role === "host") hostAnswer(answer);
    else guestAnswer(answer, { paintIt: false });
  });
}

function wire() {
  // Every game's table: its buttons are made by its painter, so clicks are caught on the table.
  for (const root of document.querySelectorAll("[data-pishe-table]")) {
    root.addEventListener("click", (event) => {
      if (!session.role || root !== table()) return;
      const button = event.target.closest(
        "[data-action], [data-next-deal], [data-take-over], [data-result-new-match], [data-result-fresh], "
        + "[data-result-leave]");
      if (!usable(button) || !root.contains(button)) return;
      if (button.dataset.action) act(button);
      else if (button.hasAttribute("data-take-over")) takeOver();
      else if (button.hasAttribute("data-result-new-match")) playAgain();
      else if (button.hasAttribute("data-result-fresh") || button.hasAttribute("data-result-leave")) leave();
      else nextDeal(button);
    });
  }
  ui.leave.addEventListener("click", leave);
  ui.dealNow.addEventListener("click", () => {
    if (session.role === "host") hostMove("host_deal_now");
  });
  ui.dealAgain.addEventListener("click", () => {
    if (session.role === "host") endHolds();
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
    if (fragment && fragment !== joiningWith()) join(fragment);
  });
  // Leaving the page closes the channels at once, so the other pages know (and a page
  // brought back from the back/forward cache says it has lost the connection).
  window.addEventListener("pagehide", () => {
    if (!hasLink() && !hasSeatLinks()) return;
    const role = session.role;
    closeLinks();
    if (role === "guest") closed();
  });
}

/**
 * Start the friends' table, once its code is loaded (../friends.js): the buttons wired, and the
 * table the address or the tab asks for opened (an invite link joined, the host's table brought back).
 */
export function start() {
  if (!ui.panel || !invite || !computerTable.py) return;
  sayFailuresWith(showError);
  answerTurns({
    timeout: () => {
      if (session.role === "host") hostCall("host_timeout");
      // Only a friend's page knows its cards: it plays its own timeout.
      else if (session.connected) guestCall("guest_timeout");
    },
    computerStep: () => {
      if (session.role === "host") hostCall("host_computer_step");
    },
  });
  wire();
  const fragment = joinCode();
  if (fragment && fragment === stored(USED_KEY)) {
    comeBack(fragment);
  } else if (fragment) {
    join(fragment); // the answer needs no Python: it is on its way while Python starts
  } else if (stored(HOST_KEY)) {
    reopenTable(stored(HOST_KEY));
  }
  loadWords(computerTable.py).then(showFirstLine, () => {}); // no Python: the loader says why
  // Another language: this page's own view of the table, worded anew (nothing goes to the others).
  onLanguage(() => {
    if (session.role) showTitle(session.game);
    if (session.role === "host") hostCall("host_current");
    else if (session.role === "guest" && hasJoined()) guestCall("guest_saved");
    else if (session.role === "guest") show({ view: null }); // not at a table yet: its blank table
  });
  // For developers and tests: the table's state, read only.
  window.pisheFriend = { state: session, STATUS };
}
