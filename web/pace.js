// The computers' pace: the "Fast computers" switch ([data-fast]) in the page's settings,
// remembered on this device; a pace in the page's address (?delay=MS) goes before it.

import { addressNumber } from "./tables/settings.js";

const KEY = "pishe.fastComputers";
/** Milliseconds before a computer's move: the usual pace, and the fast one. */
const NORMAL_MS = 700;
const FAST_MS = 250;

/** Apply the remembered choice to the switch and remember each change. */
export function setupPace() {
  const box = document.querySelector("[data-fast]");
  if (!box) return;
  try {
    box.checked = localStorage.getItem(KEY) === "on";
  } catch {
    // Storage refused (private mode): the switch still works for this visit.
  }
  box.addEventListener("change", () => {
    try {
      if (box.checked) localStorage.setItem(KEY, "on");
      else localStorage.removeItem(KEY);
    } catch {
      // Not remembered, but applied.
    }
  });
}

/** The pause before a computer's move, in ms: the address's ?delay, else the switch's pace. */
export function computerDelay(search = location.search) {
  const fast = document.querySelector("[data-fast]");
  const chosen = fast && fast.checked ? FAST_MS : NORMAL_MS;
  return Math.max(0, addressNumber("delay", chosen, () => true, search));
}
