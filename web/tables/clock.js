// A seat's clock: a ring around the name of the seat to move ([data-clock] in
// its [data-seat] place), emptying over the seconds it has (CSS animates it).
// Its accessible name is the clock's label, as Python words it; over the last
// seconds the ring shows how many are left (its place's data-left, drawn by CSS)
// and is named so ("7 seconds left"), and the page says so politely at the
// moments Python names (the live region: "10 seconds left", "5 seconds left").

import { list, text } from "../text.js";
import { announce } from "./log.js";

let ring = null;
let out = null;
let ticks = [];

/**
 * Run `clock` ({seat, seconds, label, left, left_said, warnings}: pishe.table.words.clock, or null
 * for none) on `table`; `onOut()` when it runs out.
 */
export function runClock(table, clock, onOut) {
  stopClock();
  if (!clock || !Number.isInteger(clock.seat) || !(Number(clock.seconds) > 0)) return;
  const seconds = Number(clock.seconds);
  const old = table.querySelector(`[data-seat="${clock.seat}"] [data-clock]`);
  if (old) {
    // A fresh copy restarts the animation without forcing a layout.
    ring = old.cloneNode(false);
    ring.style.setProperty("--clock-seconds", `${seconds}s`);
    const label = text(clock.label);
    if (label) ring.setAttribute("aria-label", label);
    else ring.removeAttribute("aria-label");
    ring.hidden = false;
    old.replaceWith(ring);
  }
  const shown = ring;
  const left = list(clock.left);
  const said = list(clock.left_said);
  const warnings = list(clock.warnings);
  left.forEach((words, i) => {
    const n = i + 1;
    ticks.push(setTimeout(() => {
      if (shown) {
        shown.parentElement.dataset.left = String(n);
        shown.setAttribute("aria-label", text(words));
      }
      if (warnings.includes(n)) announce([words], [said[i]]);
    }, Math.max(0, seconds - n) * 1000));
  });
  out = setTimeout(onOut, seconds * 1000);
}

/** No clock runs. */
export function stopClock() {
  clearTimeout(out);
  out = null;
  for (const tick of ticks) clearTimeout(tick);
  ticks = [];
  if (ring) {
    ring.hidden = true;
    delete ring.parentElement.dataset.left;
  }
  ring = null;
}
