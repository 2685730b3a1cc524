// What the friend's table shows: this seat's view, as Python returned it, painted by the
// game's painter, with what only a friends' table shows (the status line where the view
// cannot say it, who plays each seat, the fairness lines). It decides nothing and sends
// nothing to Python but for the table with no cards (blank_view); nothing that comes from
// another page is ever inserted as HTML.

import { FIRST_GAME, painter, tableOf } from "../../games/registry.js";
import { list, setText, text } from "../../text.js";
import { say, word } from "../words.js";
import { showFair, ui } from "./panel.js";
import {
  call, keptSeats, queue, session, setGame, setIdle, setSaidNames, setShown, takeBoard, turns,
} from "./core.js";

let paint = null; // the game's painter, once loaded

/** The friend's table's markup: the game's table. */
export function table() {
  return tableOf(session.game || FIRST_GAME);
}

/** Play `game` at this table: its painter is loaded now, so that views paint at once. */
export async function useGame(game) {
  for (const node of document.querySelectorAll("[data-for-game]")) node.hidden = node.dataset.forGame !== game;
  if (session.game === game && paint) return;
  setGame(game);
  paint = null;
  const module = await painter(game);
  if (session.game === game) paint = module.paint;
}

/** Say `message` in the table's error line ("" clears it). */
export function showError(message) {
  setText(table().querySelector("[data-error]"), message);
}

/** Put the keyboard on the table's first move button. */
export function focusTable() {
  const move = table().querySelector("[data-action]");
  if (move) move.focus();
}

/**
 * Paint the answer's view (or the table with no cards, from Python) and what only the
 * friend's table shows; say its steps (and the status when the turn comes to you).
 */
export function show(answer) {
  const status = answer.status && typeof answer.status === "object" ? answer.status : session.status || {};
  const view = answer.view && typeof answer.view === "object" ? answer.view : null;
  setShown(view, status);
  document.body.toggleAttribute("data-dealt", Boolean(view)); // the table comes first (style.css)
  if (answer.said_names !== undefined) setSaidNames(answer.said_names);
  turns.say(view, answer.steps, answer.said, session.saidNames);
  const role = session.role;
  const game = status.game || session.game || FIRST_GAME;
  if (view && paint && game === session.game) {
    paintTable(paint, view, status, answer);
    return;
  }
  // Before the first deal (the table with no cards, as Python shows it to this side), or
  // before the painter of the game the host's welcome named is loaded.
  queue(async () => {
    await useGame(game);
    const shown = view || (await call("blank_view", game, role)).view;
    // Only if nothing newer was painted meanwhile (a view comes while the blank table is made).
    if (session.role === role && session.game === game && session.view === view) paintTable(paint, shown, status, answer);
  });
}

function paintTable(draw, view, status, answer) {
  const root = table();
  // A guest's clock shows only while its channel is open.
  turns.paint(draw, view, root, answer, session.connected || session.role === "host" ? answer.clock : null);
  const nextDealButton = root.querySelector("[data-next-deal]");
  const tableStatus = root.querySelector("[data-status]");
  const dealing = status.phase === "dealing";
  if (dealing || !session.view) {
    nextDealButton.hidden = true;
    nextDealButton.setAttribute("aria-disabled", "true");
  }
  // The table's status line, where the view alone cannot say it (a blank view says its own):
  // the status's own lines while dealing, else the page's words.
  // The host's names whom the table waits on: while dealing (once a friend is here), on a
  // friend's turn while that friend's page is connected (else it is away: below), and on a
  // friend whose key opens a card this page may see now (no-peek), connected or not.
  const host = session.role === "host";
  const seats = keptSeats();
  const forKeys = Boolean(view) && list(status.waiting_for).some((seat) => seat !== view.turn);
  const waitingLine = host && status.waiting_line && (dealing
    ? session.view || seats.some((s) => s.connected)
    : session.view && !view.result && (forKeys || seats.some((s) => s.connected && s.number === view.turn)));
  if (waitingLine) {
    setText(tableStatus, status.waiting_line);
  } else if (!host && !session.view && session.connected && dealing) {
    // A guest here before the first deal: the friends not here yet, else the dealing.
    setText(tableStatus, status.waiting_line || status.dealing);
  } else if (session.view && dealing) {
    setText(tableStatus, host && !session.connected ? status.when_back : status.dealing);
  } else if (session.view && !session.connected && session.role === "guest") {
    setText(tableStatus, word("paused"));
  } else if (session.view && !session.connected && view.turn !== null && view.turn !== view.seat && !dealOver(view) &&
             !answer.computer_moves) {
    setText(tableStatus, word("friend_away"));
  }
  if ((!session.view || dealing) && status.length_name) {
    setText(document.querySelector(`[data-match-line="${session.game}"] [data-match-length]`), status.length_name);
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
  showMatchEnd(root, view);
  lockButtons();
  showFairness();
}

/**
 * At a friends' match end the result panel carries what comes next: the host's Play again
 * (the same friends in the same seats) and New match (the friends' table closes: a new
 * match against the computer, where another game or other friends can be chosen), and on
 * a friend's page the line that the host starts it, with Leave the table.
 */
function showMatchEnd(root, view) {
  const over = Boolean(view && view.match && view.match.over);
  for (const button of root.querySelectorAll("[data-result-new-match], [data-result-fresh]")) {
    button.hidden = !(over && session.role === "host");
    button.setAttribute("aria-disabled", button.hidden ? "true" : "false");
  }
  const wait = root.querySelector("[data-result-wait]");
  wait.hidden = !(over && session.role === "guest");
  say(wait.querySelector("[data-result-wait-line]"), wait.hidden ? null : "waiting_next_match");
  say(wait.querySelector("[data-result-leave]"), wait.hidden ? null : "leave_table");
}

/** The friends' table is left: no table's result panel keeps its actions or its wait line. */
export function clearMatchEnd() {
  for (const root of document.querySelectorAll("[data-pishe-table]")) showMatchEnd(root, null);
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
  if (session.role !== "guest" || (session.connected && !session.awaiting)) return;
  const root = table();
  for (const button of root.querySelectorAll("[data-action]")) button.setAttribute("aria-disabled", "true");
  const nextDealButton = root.querySelector("[data-next-deal]");
  nextDealButton.setAttribute("aria-disabled", "true");
  if (session.awaiting) nextDealButton.hidden = true;
}

/** The guest's check of the last finished deal, as its status words it: {ok, line} or null. */
function fairness(status) {
  const fair = status && status.fair;
  return fair && typeof fair === "object" ? fair : null;
}

function showFairness() {
  // The host's page checks a deal too when it is dealt no-peek (it does not know the deck).
  const fair = fairness(session.status);
  showFair(fair);
  // The table check code of the deal in play, as Python words it: friends compare it on a call.
  // Its words come around the code's pictures ([before, code, after]): those are shown large, together.
  const check = document.querySelector("[data-check-code]");
  const checkLine = list(session.status && session.status.check_line).map(text);
  check.hidden = checkLine.length !== 3;
  setText(check.querySelector("[data-check-before]"), checkLine[0]);
  setText(check.querySelector("[data-check-symbols]"), checkLine[1]);
  setText(check.querySelector("[data-check-after]"), checkLine[2]);
  // A no-peek table says plainly whose cards the host's page knows: its computers'.
  const note = document.querySelector("[data-computers-note]");
  const computers = session.status && typeof session.status.computers_note === "string" ? session.status.computers_note : "";
  note.hidden = !computers;
  setText(note, computers);
  // In the deal-end box too, for the deal it shows.
  const resultFair = table().querySelector("[data-result-fair]");
  if (!resultFair) return;
  const view = session.view;
  const deal = view && view.match ? view.match.deal : null;
  const over = dealOver(view);
  const here = fair && over && session.status.verification_deal === deal ? fair : null;
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

/** The tab's title: `game`'s own for a friends' table, else the panel's, in the page's language. */
export function showTitle(game) {
  const radio = document.querySelector(`input[name="game"][value="${CSS.escape(game)}"]`);
  document.title = radio && radio.dataset.friendTitle ? radio.dataset.friendTitle : ui.panel.dataset.title;
}

/** Take the board as `role` of `game`: the friend panel shown, the game chosen, the host's match settings. */
export function enterTable(role, game) {
  takeBoard(role, game);
  document.body.dataset.table = "friend";
  document.body.dataset.role = role;
  ui.panel.hidden = false;
  // The host's settings for the next match (style.css shows only those).
  document.querySelector("section.match").hidden = role !== "host";
  ui.fair.hidden = true;
  clearResultFair();
  const radio = document.querySelector(`input[name="game"][value="${CSS.escape(game)}"]`);
  if (radio) radio.checked = true;
  showTitle(game);
  ui.nameForm.hidden = false;
  showError("");
  setIdle();
}
