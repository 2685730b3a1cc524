// The settings, read in one place for both tables (the computer's and a friend's):
// the match chosen on the page (the game's radio, then that game's own settings box,
// web/games/<game>/settings.html, written into the page by build.py), and the page's
// own from its address; the game the page opens on (openingGame) and remembering it.

import { FIRST_GAME } from "../games/registry.js";
import { say } from "./words.js";

/**
 * The chosen game and its settings: {game, length, clock, level, friends}, each null
 * where the game's box offers no such choice (clock: seconds a card; friends: the seats
 * kept for friends, in order).
 */
export function chosenSettings() {
  const checked = document.querySelector('input[name="game"]:checked');
  const game = checked ? checked.value : FIRST_GAME;
  const box = document.querySelector(`[data-settings="${CSS.escape(game)}"]`);
  const value = (name) => {
    const input = box && box.querySelector(`input[data-setting="${name}"]:checked`);
    return input && input.value ? input.value : null;
  };
  const friends = box
    ? [...box.querySelectorAll('input[data-setting="friend"]:checked')].map((i) => Number(i.value)).sort((a, b) => a - b)
    : [];
  const clock = value("clock");
  return { game, length: value("length"), clock: clock === null ? null : Number(clock), level: value("level"),
    friends: friends.length ? friends : null };
}

/**
 * A number from the page's address (?name=N), else `fallback`: when it is absent, not a
 * number, or not `fit` (by default: more than 0).
 */
export function addressNumber(name, fallback, fit = (n) => n > 0, search = location.search) {
  const text = new URLSearchParams(search).get(name);
  const given = text === null || text.trim() === "" ? NaN : Number(text);
  return Number.isFinite(given) && fit(given) ? given : fallback;
}

/** Page settings from the address: ?seed=N (repeatable deals); the pace is web/pace.js's. */
export function pageSettings(search = location.search) {
  return { seed: addressNumber("seed", null, Number.isInteger, search) };
}

/**
 * The page's settings note: while a match of `playing` is played ({game, length, clock,
 * level}: the match's own, as Python's answer says them; null: none is), a choice of the
 * same game that differs in any of `names` applies from the next match, and the note says
 * so (Python's words); otherwise it is hidden.
 */
export function noteSettings(playing, names = []) {
  const note = document.querySelector("[data-settings-note]");
  const chosen = chosenSettings();
  const changed = playing !== null && chosen.game === playing.game &&
    names.some((name) => String(chosen[name] ?? "") !== String(playing[name] ?? ""));
  if (changed) say(note, "from_next_match");
  note.hidden = !changed;
}

/** The game the page opens on (web/first-game.js: ?game=, the last played, the language's, the first). */
export function openingGame(search = location.search) {
  return self.pisheFirstGame.opening(search);
}

/**
 * `game` is played: this browser opens on it next time, and the page's address names it
 * (?game=…, the other parameters kept), so that it can be bookmarked and shared.
 */
export function rememberGame(game) {
  try {
    localStorage.setItem(self.pisheFirstGame.GAME_KEY, game);
  } catch {
    // Not remembered: the address still names it.
  }
  const params = new URLSearchParams(location.search);
  if (params.get("game") === game) return;
  params.set("game", game);
  // Relative to the page's own address: a path such as "//" would otherwise read as a host.
  history.replaceState(history.state, "", `?${params}${location.hash}`);
}
