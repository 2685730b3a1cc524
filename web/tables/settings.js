// The settings, read in one place for both tables (the computer's and a friend's):
// the match chosen on the page (the game's radio, then that game's own settings box,
// web/games/<game>/settings.html, written into the page by build.py), and the page's
// own from its address.

import { FIRST_GAME } from "../games/registry.js";

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

/** Page settings from the address: ?delay=MS (computer's pace), ?seed=N (repeatable deals). */
export function pageSettings(search = location.search) {
  const params = new URLSearchParams(search);
  const delayText = params.get("delay");
  const delay = delayText !== null && delayText.trim() !== "" && Number.isFinite(Number(delayText))
    ? Math.max(0, Number(delayText)) : 700;
  const seedText = params.get("seed");
  const seed = seedText !== null && /^-?\d+$/.test(seedText.trim()) ? Number(seedText) : null;
  return { delay, seed };
}
