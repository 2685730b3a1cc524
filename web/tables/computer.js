// The table against the computer: starts the page (the Python worker, the
// high contrast switch, the keys), deals a match of the chosen game and
// forwards your intents to pishe.web; each answer's view goes to the game's
// painter (web/games/registry.js), its steps to the live region.
//
// pishe.web's calls (arguments positional JSON): new_match(length, seed, game,
// clock, level), act(action), computer_step(), timeout(), take_over(), next_deal(),
// current(). Each answers {view, steps, computer_moves, clock, autopilot} or
// {error}. While computer_moves is true the page asks computer_step() after
// ?delay ms; a clock runs as a ring around the name of the seat to move, and
// when yours runs out the page asks timeout().
//
// `computerTable` lets another controller on the same page (the friend's
// table) share the Python worker and stop the computer while a friend plays.

import { startWorker, registerOffline } from "../core/boot.js";
import { painter, tableOf } from "../games/registry.js";
import { setupContrast } from "../contrast.js";
import { setupKeys } from "../keys.js";
import { announce, list, setText } from "../text.js";
import { runClock, stopClock } from "./clock.js";
import { loadWords, word } from "./words.js";

/** Page settings from the address: ?delay=MS (computer's pace), ?seed=N (repeatable deals). */
export function settings(search = location.search) {
  const params = new URLSearchParams(search);
  const delayText = params.get("delay");
  const delay = delayText !== null && delayText.trim() !== "" && Number.isFinite(Number(delayText))
    ? Math.max(0, Number(delayText)) : 700;
  const seedText = params.get("seed");
  const seed = seedText !== null && /^-?\d+$/.test(seedText.trim()) ? Number(seedText) : null;
  return { delay, seed };
}

/**
 * The computer table's controller, filled in as soon as the table starts
 * (before Python is ready):
 *   py        the worker ({call, ready}), to share with the friend's table;
 *   active    whether the computer table owns the board and its buttons;
 *   stop()    stop the computer (drops its timer and answers in flight) and
 *             show Pishe Pasha's table, the one a friend's table plays on;
 *   start()   take the board back and deal a new match of the chosen game.
 * stop() before Python is ready means no computer match is dealt at all.
 */
export const computerTable = { py: null, active: false, stop() {}, start() {} };

/** The chosen game and its match settings, from the page's radio buttons. */
function choice() {
  const checked = (name) => document.querySelector(`input[name="${name}"]:checked`);
  const game = checked("game") ? checked("game").value : "pishe-pasha";
  const box = document.querySelector(`[data-settings="${game}"]`);
  const length = box && box.querySelector('input[data-setting="length"]:checked');
  const clock = box && box.querySelector('input[data-setting="clock"]:checked');
  const level = box && box.querySelector('input[data-setting="level"]:checked');
  return {
    game,
    length: length ? length.value : null,
    clock: clock && clock.value ? Number(clock.value) : null,
    level: level ? level.value : null,
  };
}

/** Show `game`'s table, settings and rules (every [data-for-game]) and hide the other games'. */
function showGame(game) {
  for (const node of document.querySelectorAll("[data-for-game]")) node.hidden = node.dataset.forGame !== game;
  const radio = document.querySelector(`input[name="game"][value="${CSS.escape(game)}"]`);
  if (radio && radio.dataset.title) document.title = radio.dataset.title;
}

async function startComputerTable() {
  setupContrast();
  const { delay, seed } = settings();
  const body = document.body;
  const loader = document.querySelector("[data-loader]");
  const progress = document.querySelector("[data-progress]");
  const progressBar = document.querySelector("[data-progress-bar]");
  const stage = document.querySelector("[data-loader-stage]");
  const newMatch = document.querySelector("[data-new-match]");

  let generation = 0; // bumped by New match: answers and timers of an older match are dropped
  let pending = 0; // calls in flight
  let timer = null;
  let ready = false;
  let computerMoves = false;
  let game = "pishe-pasha"; // the game being played
  let lastTurn; // whose turn the last painted view said (to announce the turn coming to you)
  let active = true; // false while another controller (a friend's table) owns the board

  function setIdle() {
    if (!active) return;
    body.dataset.idle = String(ready && pending === 0 && timer === null && !computerMoves);
  }

  function showError(message) {
    const table = tableOf(game);
    setText(table && table.querySelector("[data-error]"), message);
  }

  const py = startWorker((fraction, label) => {
    const pct = Math.round(Math.max(0, Math.min(1, Number(fraction) || 0)) * 100);
    progress.setAttribute("aria-valuenow", String(pct));
    progressBar.style.transform = `scaleX(${pct / 100})`;
    // The boot's stages, worded by the worker: Python is not running yet.
    if (label) setText(stage, `${label}…`);
  });
  loadWords(py); // the page's words, the first call once Python is ready

  async function receive(answer, gen) {
    if (gen !== generation || !active) return;
    if (!answer || answer.error) {
      computerMoves = false; // nothing moves on its own after a refusal: the page waits for you
      // No answer at all: Python could not run the call, so this one is worded here.
      showError(answer ? answer.error : "No answer from the game.");
      return;
    }
    const view = answer.view || {};
    const { paint } = await painter(view.game);
    if (gen !== generation || !active) return;
    showError("");
    // Say so when the turn comes (back) to you: the steps alone do not.
    const yourTurn = view.turn === view.seat && lastTurn !== view.turn;
    lastTurn = view.turn;
    announce(yourTurn ? [...list(answer.steps), view.status] : answer.steps);
    const table = tableOf(game);
    paint(view, table);
    const takeOver = table.querySelector("[data-take-over]");
    if (takeOver) takeOver.hidden = !answer.autopilot;
    runClock(table, answer.clock, () => {
      if (gen === generation && answer.clock.seat === view.seat) send("timeout");
    });
    computerMoves = Boolean(answer.computer_moves);
    if (computerMoves) {
      timer = setTimeout(() => {
        timer = null;
        send("computer_step");
      }, delay);
    }
  }

  async function send(name, ...args) {
    const gen = generation;
    pending += 1;
    setIdle();
    try {
      await receive(await py.call(name, ...args), gen);
    } catch (err) {
      // An error with a `word` (a game this page cannot show) is said in the page's words.
      if (gen === generation) showError(err && err.word ? word(err.word, err.values) : err.message || String(err));
    } finally {
      pending -= 1;
      setIdle();
    }
  }

  function halt() {
    generation += 1;
    clearTimeout(timer);
    timer = null;
    computerMoves = false;
    lastTurn = undefined;
    stopClock();
  }

  function startMatch() {
    active = true;
    halt();
    const chosen = choice();
    game = chosen.game;
    showGame(game);
    return send("new_match", chosen.length, seed, chosen.game, chosen.clock, chosen.level);
  }

  function usable(button) {
    return ready && active && button && !button.hidden && button.getAttribute("aria-disabled") !== "true";
  }

  // Your moves, on whichever game's table: one call at a time, since a second
  // click before the answer is painted would act on a view you have not seen.
  for (const table of document.querySelectorAll("[data-pishe-table]")) {
    table.addEventListener("click", async (event) => {
      const button = event.target.closest("[data-action], [data-next-deal], [data-take-over]");
      if (!usable(button) || pending !== 0 || !table.contains(button)) return;
      if (button.dataset.action) {
        send("act", button.dataset.action);
      } else if (button.hasAttribute("data-take-over")) {
        send("take_over");
      } else {
        const hadFocus = document.activeElement === button;
        await send("next_deal");
        // The button hides once the deal is dealt: keep the keyboard on the table.
        const move = table.querySelector("[data-action]");
        if (hadFocus && button.hidden && move) move.focus();
      }
    });
  }
  newMatch.addEventListener("click", () => {
    if (usable(newMatch)) startMatch();
  });
  // Another game: its own table, dealt at once.
  for (const radio of document.querySelectorAll('input[name="game"]')) {
    radio.addEventListener("change", () => {
      if (ready && active) startMatch();
      else showGame(choice().game);
    });
  }
  setupKeys(() => ready);

  computerTable.py = py;
  Object.defineProperty(computerTable, "active", { get: () => active, enumerable: true });
  computerTable.stop = () => {
    active = false;
    halt();
    game = "pishe-pasha";
    showGame(game);
  };
  computerTable.start = () => {
    if (!ready) {
      active = true; // dealt once Python is ready
      return Promise.resolve();
    }
    return startMatch();
  };

  showGame(choice().game);
  setIdle();
  try {
    await py.ready;
  } catch (err) {
    // Python could not start: its words cannot be had, so this line is worded here.
    setText(stage, `The game could not start: ${err.message || err}`);
    loader.classList.add("failed");
    return;
  }
  ready = true;
  newMatch.setAttribute("aria-disabled", "false");
  if (active) await startMatch();
  loader.hidden = true;
  body.dataset.ready = "true";
  setIdle();
  registerOffline({
    onUpdate: () => {
      document.querySelector("[data-update]").hidden = false;
    },
  });
  // For developers and tests: the worker's calls, e.g. pishe.call("current").
  window.pishe = { call: py.call, settings: { delay, seed } };
}

if (document.body && document.body.dataset.table === "computer") startComputerTable();
