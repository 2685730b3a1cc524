// The table against the computer: starts the page (the Python worker, the
// high contrast switch, the keys), deals a match of the chosen game and
// forwards your intents to pishe.web; each answer's view goes to the game's
// painter (web/games/registry.js), its steps to the live region.
//
// pishe.web's calls (arguments positional JSON): new_match(length, seed, game,
// clock, level), restore_match(saved), act(action), computer_step(), timeout(),
// take_over(), next_deal(), current(). Each answers {view, steps, news, in_progress,
// computer_moves, clock, autopilot, settings, saved} or {error}. The turn loop (turns.js,
// shared with a friend's table) says, paints and times each answer: while computer_moves
// is true it asks computer_step() after the computers' pause (web/pace.js), and when your clock runs out,
// timeout(). The live region says the steps and the news (a deal dealt, its result, the
// match score). While in_progress is true,
// New match (N), Invite a friend and another game ask first, in the page's <dialog>.
//
// The match lives as long as the tab: each answer's `saved` (its settings, seed and
// moves) is kept in sessionStorage, and a reload, Back and Forward or a discarded tab
// coming back deals it again where it was (restore_match). A closed tab ends it.
//
// `computerTable` lets another controller on the same page (the friend's
// table) share the Python worker and stop the computer while a friend plays.

import { startWorker, registerOffline } from "../core/boot.js";
import { FIRST_GAME, painter, tableOf } from "../games/registry.js";
import { chosenSettings, noteSettings as showSettingsNote, openingGame, pageSettings, rememberGame } from "./settings.js";
import { setupContrast } from "../contrast.js";
import { computerDelay, setupPace } from "../pace.js";
import { setupMenu } from "../menu.js";
import { setupKeys } from "../keys.js";
import { currentLanguage, onLanguage, pageWord, setupLanguage } from "../lang.js";
import { setupSound } from "../sound.js";
import { list, setText } from "../text.js";
import { restoreLines, sayAgain, saidLines } from "./log.js";
import { turnLoop } from "./turns.js";
import { firstStage, hideLoaders, loading, showProgress, showStage, showStartFailed } from "./loader.js";
import { loadWords, say, word } from "./words.js";

/**
 * The computer table's controller, filled in as soon as the table starts
 * (before Python is ready):
 *   py        the worker ({call, ready}), to share with the friend's table;
 *   active    whether the computer table owns the board and its buttons;
 *   stop()    stop the computer (drops its timer and answers in flight) and
 *             show the first game's table, the one a friend's table waits on;
 *   start()   take the board back and deal a new match of the chosen game;
 *   confirmLeave(cause)  a promise of whether to throw away the match in progress
 *             (true at once when none is): cause "new_match", "invite" or "game".
 * stop() before Python is ready means no computer match is dealt at all.
 */
export const computerTable = {
  py: null, active: false, stop() {}, start() {}, confirmLeave: () => Promise.resolve(true),
};

// The match kept in the tab, for a page at the same address: {v: 2, address, settings,
// saved, said: the live region's lines as [text, data] (web/tables/log.js), language: theirs}. A version 1
// record (no v, no lines) still brings its match back, with no lines.
const MATCH_KEY = "pishe-computer-match";

function keptMatch() {
  try {
    const kept = JSON.parse(sessionStorage.getItem(MATCH_KEY));
    return kept && kept.address === location.search && kept.settings && typeof kept.saved === "string" ? kept : null;
  } catch {
    return null; // storage refused, or not ours: a new match
  }
}

function keepMatch(answer) {
  try {
    sessionStorage.setItem(MATCH_KEY, JSON.stringify(
      { v: 2, address: location.search, settings: answer.settings, saved: answer.saved, said: saidLines(),
        language: currentLanguage() }));
  } catch {
    // Storage full or refused: the match still plays, it only does not survive a reload.
  }
}

function forgetMatch() {
  try {
    sessionStorage.removeItem(MATCH_KEY);
  } catch {
    // Nothing could be stored either.
  }
}

/** Check the radio buttons of `settings` ({game, length, clock, level}), those the page has. */
function showSettings(settings) {
  const check = (root, name, value) => {
    const radio = root && root.querySelector(`input[data-setting="${name}"][value="${CSS.escape(String(value ?? ""))}"]`);
    if (radio) radio.checked = true;
  };
  const game = document.querySelector(`input[name="game"][value="${CSS.escape(settings.game)}"]`);
  if (game) game.checked = true;
  const box = document.querySelector(`[data-settings="${CSS.escape(settings.game)}"]`);
  for (const name of ["length", "clock", "level"]) check(box, name, settings[name]);
}

/** Show `game`'s table, settings and rules (every [data-for-game]) and hide the other games' (web/first-game.js). */
function showGame(game) {
  self.pisheFirstGame.show(game);
}

async function startComputerTable() {
  setupContrast();
  setupMenu();
  setupLanguage();
  setupSound();
  setupPace();
  const { seed } = pageSettings();
  const body = document.body;
  const newMatch = document.querySelector("[data-new-match]");
  const dialog = document.querySelector("[data-confirm]");

  let generation = 0; // bumped by New match: answers and timers of an older match are dropped
  let pending = 0; // calls in flight
  let ready = false;
  let computerMoves = false;
  let game = FIRST_GAME; // the game being played
  // False while another controller (a friend's table) owns the board: from the start on a page
  // opened on an invite (web/core/invited.js), whose friends' table is imported meanwhile and
  // may come after Python is ready: the computer must not deal first.
  let active = !document.documentElement.dataset.invited;
  let inProgress = false; // Python's word: leaving now throws a match in progress away
  let dealOver = false; // the last painted view's deal was over (its banner took the focus)
  let matchOver = false; // the last painted view's match was over
  let playing = null; // the match's settings, as Python's last answer said them

  /** The computer's level on the table's match line ("Level: Hard", Python's words; none: hidden). */
  function showLevel(line) {
    for (const box of document.querySelectorAll("[data-match-level-box]")) {
      setText(box.querySelector("[data-match-level]"), line);
      box.hidden = !line;
    }
  }

  /**
   * A setting chosen while a match is played (level, length, target, clock) says it applies
   * from the next match, until the choice is the match's own again. A friend's table says
   * its own while it has the board.
   */
  function noteSettings() {
    if (active) showSettingsNote(inProgress ? playing : null, ["length", "clock", "level"]);
  }
  // Your own clock running out asks for its timeout; the computers move at the page's pace.
  const turns = turnLoop({
    timeout: (clock, view) => {
      if (clock.seat === view.seat) send("timeout");
    },
    computerStep: () => send("computer_step"),
  });

  function setIdle() {
    if (!active) return;
    body.dataset.idle = String(ready && pending === 0 && !turns.waiting && !computerMoves);
  }

  function showError(message) {
    const table = tableOf(game);
    setText(table && table.querySelector("[data-error]"), message);
  }

  let stageLine = firstStage(); // the loading line, in English ("…" added)
  let startFailure = null; // why Python could not start (web/core/boot.js), said in every language

  /**
   * The loading line once Python could not start: its cause in words (pishe/table/words.py's
   * START_FAILED, which build.py writes into index.html's data-start-failures template, in the
   * page's language like every static word); the error's own words only in the details.
   */
  function sayStartFailed(err) {
    const causes = document.querySelector("[data-start-failures]").content;
    const why = causes.querySelector(`[data-cause="${CSS.escape(String(err.why || "engine"))}"]`) ||
      causes.querySelector('[data-cause="engine"]');
    showStartFailed(pageWord("The game could not start: {reason}").replace("{reason}", () => why.textContent),
      err.detail || err.message);
  }
  const py = startWorker((fraction, label, until) => {
    if (startFailure) return; // a start that failed on a download may still report its steps
    // A step that reports nothing while it runs (Python's start) still moves: the bar
    // eases towards where it ends, and jumps on at the next milestone.
    showProgress(fraction, until);
    // The boot's stages, worded by the worker in English: Python is not running yet.
    if (label) stageLine = `${label}…`;
    showStage(pageWord(stageLine));
  });
  loadWords(py); // the page's words, the first call once Python is ready

  async function receive(answer, gen) {
    if (gen !== generation || !active) return;
    if (!answer || answer.error) {
      computerMoves = false; // nothing moves on its own after a refusal: the page waits for you
      // No answer at all: Python could not run the call, so this one is worded here.
      showError(answer ? answer.error : pageWord("No answer from the game."));
      return;
    }
    const view = answer.view || {};
    const { paint } = await painter(view.game);
    if (gen !== generation || !active) return;
    showError("");
    turns.say(view, [...list(answer.steps), ...list(answer.news)], answer.said, answer.said_names);
    if (answer.saved) keepMatch(answer); // after its lines are said: the tab keeps them too
    inProgress = Boolean(answer.in_progress);
    body.dataset.inProgress = String(inProgress);
    const table = tableOf(game);
    const hadFocus = table.contains(document.activeElement);
    turns.paint(paint, view, table, answer);
    playing = answer.settings || null;
    showLevel(playing && playing.level_line);
    noteSettings();
    const match = view.match || {};
    matchOver = Boolean(match.over);
    table.querySelector("[data-result-new-match]").hidden = !match.over;
    const over = Boolean(match.over || match.next_deal);
    if (over && !dealOver) focusBanner(table);
    else focusNextMove(table, view, hadFocus);
    dealOver = over;
    computerMoves = Boolean(answer.computer_moves);
    turns.next(computerMoves);
  }

  async function send(name, ...args) {
    const gen = generation;
    pending += 1;
    setIdle();
    try {
      await receive(await py.call(name, ...args), gen);
    } catch (err) {
      // An error with a `word` (a game this page cannot show) is said in the page's words;
      // any other (Python could not run the call) is no answer, its own text for developers.
      if (err && !err.word) console.warn(`${name} failed:`, err);
      if (gen === generation) showError(err && err.word ? word(err.word, err.values) : pageWord("No answer from the game."));
    } finally {
      pending -= 1;
      setIdle();
    }
  }

  function halt() {
    generation += 1;
    turns.stop();
    computerMoves = false;
    inProgress = false;
    dealOver = false;
    matchOver = false;
  }

  /** The deal is over: its result banner takes the focus, on Next deal or else New match. */
  function focusBanner(table) {
    const button = [...table.querySelectorAll("[data-result] button")].find((b) => !b.hidden);
    if (button) button.focus();
  }

  /**
   * The focus left on one of your moves that the view no longer allows goes to the
   * first move it allows (the view's legal order), so the keyboard never sits on a
   * disabled button; focus the paint took away (`hadFocus`: it was on the table) goes
   * to your moves, never to the page's body; focus anywhere else is left alone.
   */
  function focusNextMove(table, view, hadFocus) {
    const focused = document.activeElement;
    if (hadFocus && (focused === null || focused === document.body)) {
      // What had the focus is gone: the keyboard stays on the table, on your moves.
      const move = table.querySelector('[data-arrows] [tabindex="0"], [data-action]');
      if (move) move.focus();
      return;
    }
    if (!table.contains(focused) || !focused.matches("[data-action]")) return;
    if (focused.getAttribute("aria-disabled") !== "true") return;
    const first = list(view.legal)[0];
    const button = first === undefined ? null : table.querySelector(`[data-action="${CSS.escape(String(first))}"]`);
    if (button) button.focus();
  }

  /** A button that had the focus was hidden by the table's new state: the keyboard stays on the table. */
  function keepFocusOnTable(table, button, hadFocus) {
    const move = table.querySelector("[data-action]");
    if (hadFocus && button.hidden && move) move.focus();
  }

  /** Ask first when the match in progress would be thrown away for `cause`: true to go on. */
  function confirmLeave(cause) {
    if (!inProgress || !active) return Promise.resolve(true);
    if (dialog.open) return Promise.resolve(false);
    const opener = document.activeElement;
    say(dialog.querySelector("[data-confirm-title]"), "leave_title");
    say(dialog.querySelector("[data-confirm-text]"), `leave_${cause}`);
    say(dialog.querySelector("[data-confirm-ok]"), `leave_ok_${cause}`);
    say(dialog.querySelector("[data-confirm-cancel]"), "leave_cancel");
    dialog.returnValue = "";
    dialog.showModal(); // its first button, Keep playing, has the focus; Escape cancels
    return new Promise((resolve) => {
      dialog.addEventListener("close", () => {
        if (opener && opener !== document.body && opener.isConnected) opener.focus();
        resolve(dialog.returnValue === "ok");
      }, { once: true });
    });
  }

  function startMatch() {
    active = true;
    halt();
    const chosen = chosenSettings();
    game = chosen.game;
    showGame(game);
    rememberGame(game);
    return send("new_match", chosen.length, seed, chosen.game, chosen.clock, chosen.level);
  }

  /** The match the tab kept, dealt again where it was; a new match if it cannot be. */
  async function resumeMatch(kept) {
    active = true;
    halt();
    showSettings(kept.settings);
    game = chosenSettings().game;
    showGame(game);
    rememberGame(game);
    const gen = generation;
    pending += 1;
    setIdle();
    let answer = null;
    try {
      answer = await py.call("restore_match", kept.saved);
    } catch {
      // Python could not run it: a new match below.
    } finally {
      pending -= 1;
      setIdle();
    }
    if (answer && !answer.error) {
      // The lines said before, in the page's language now (Python says them again if another).
      restoreLines(list(kept.said));
      if (kept.said && kept.language !== currentLanguage()) await sayAgain(py);
      return receive(answer, gen);
    }
    forgetMatch();
    return startMatch();
  }

  function usable(button) {
    return ready && active && button && !button.hidden && button.getAttribute("aria-disabled") !== "true";
  }

  // Your moves, on whichever game's table: one call at a time, since a second
  // click before the answer is painted would act on a view you have not seen.
  for (const table of document.querySelectorAll("[data-pishe-table]")) {
    table.addEventListener("click", async (event) => {
      const button = event.target.closest("[data-action], [data-next-deal], [data-take-over], [data-result-new-match]");
      if (!usable(button) || pending !== 0 || !table.contains(button)) return;
      const hadFocus = document.activeElement === button;
      if (button.dataset.action) {
        send("act", button.dataset.action);
      } else if (button.hasAttribute("data-take-over")) {
        send("take_over");
      } else if (button.hasAttribute("data-result-new-match")) {
        await startMatch(); // the match is over: nothing to ask
        keepFocusOnTable(table, button, hadFocus);
      } else {
        await send("next_deal");
        keepFocusOnTable(table, button, hadFocus);
      }
    });
  }
  newMatch.addEventListener("click", async () => {
    if (!(usable(newMatch) && await confirmLeave("new_match"))) return;
    startMatch();
    // The new match is played on the table, above the button: back to the page's top.
    window.scrollTo(0, 0);
  });
  dialog.querySelector("[data-confirm-ok]").addEventListener("click", () => dialog.close("ok"));
  dialog.querySelector("[data-confirm-cancel]").addEventListener("click", () => dialog.close("cancel"));
  // Another game: its own table, dealt at once, once you have said so mid-match.
  for (const radio of document.querySelectorAll('input[name="game"]')) {
    radio.addEventListener("change", async () => {
      if (!(ready && active)) {
        showGame(chosenSettings().game);
      } else if (await confirmLeave("game")) {
        startMatch();
      } else {
        document.querySelector(`input[name="game"][value="${CSS.escape(game)}"]`).checked = true;
      }
    });
  }
  setupKeys(() => ready);
  // A setting chosen before the match's first card applies to it: the match is dealt again
  // with it. Once a card is played the note says it applies from the next match.
  for (const input of document.querySelectorAll("input[data-setting]")) {
    input.addEventListener("change", () => {
      if (!ready) return;
      if (active && !inProgress && !matchOver) startMatch();
      else noteSettings();
    });
  }

  computerTable.py = py;
  Object.defineProperty(computerTable, "active", { get: () => active, enumerable: true });
  computerTable.confirmLeave = confirmLeave;
  computerTable.stop = () => {
    active = false;
    halt();
    forgetMatch(); // the friend's table took the tab: a reload comes back to it, not to this match
    delete body.dataset.inProgress;
    for (const button of document.querySelectorAll("[data-result-new-match]")) button.hidden = true;
    playing = null;
    showLevel(null);
    showSettingsNote(null);
    game = FIRST_GAME;
    showGame(game);
  };
  computerTable.start = () => {
    if (!ready) {
      active = true; // dealt once Python is ready
      return Promise.resolve();
    }
    return startMatch();
  };

  // The game the page opens on (its address's, the last played, the language's); a page
  // opened on a friend's invite shows the invited game already (web/core/invited.js).
  if (!document.documentElement.dataset.invited) {
    showSettings({ game: openingGame() });
    showGame(chosenSettings().game);
  }
  setIdle();
  // Another language: the same table, its view worded anew (Python's language is set first:
  // web/tables/words.js); the tab's title (a friends' table words its own), the loading line.
  onLanguage(async () => {
    if (body.dataset.table !== "friend") showGame(ready && active ? game : chosenSettings().game);
    if (startFailure) sayStartFailed(startFailure);
    else if (loading()) showStage(pageWord(stageLine));
    if (ready && active) {
      showError("");
      await send("current");
    }
  });
  let booted;
  try {
    booted = await py.ready;
  } catch (err) {
    startFailure = err;
    sayStartFailed(err);
    // The table's status line ("Getting the table ready…") would say otherwise.
    for (const line of document.querySelectorAll("[data-status]")) line.hidden = true;
    return;
  }
  ready = true;
  newMatch.setAttribute("aria-disabled", "false");
  if (active) {
    const kept = keptMatch();
    await (kept ? resumeMatch(kept) : startMatch());
  }
  hideLoaders();
  body.dataset.ready = "true";
  setIdle();
  registerOffline({
    onUpdate: () => {
      document.querySelector("[data-update]").hidden = false;
    },
  });
  // For developers, tests and bench/boot.py: the worker's calls, e.g. pishe.call("current"),
  // the computers' pace of the moment (ms), and the start-up's milestones (web/core/boot.js),
  // with `table`: when the table was ready.
  window.pishe = { call: py.call, delay: computerDelay, settings: { seed },
    boot: { ...booted, table: Math.round(performance.now()) } };
}

if (document.body && document.body.dataset.table === "computer") startComputerTable();
