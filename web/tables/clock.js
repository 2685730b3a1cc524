// A seat's clock: a ring around the name of the seat to move ([data-clock] in
// its [data-seat] place), emptying over the seconds it has (CSS animates it).
// Its accessible name is the clock's label, as Python words it.

import { text } from "../text.js";

let ring = null;
let out = null;

/** Run `clock` ({seat, seconds, label}, or null for none) on `table`; `onOut()` when it runs out. */
export function runClock(table, clock, onOut) {
  stopClock();
  if (!clock || !Number.isInteger(clock.seat) || !(Number(clock.seconds) > 0)) return;
  const old = table.querySelector(`[data-seat="${clock.seat}"] [data-clock]`);
  if (old) {
    // A fresh copy restarts the animation without forcing a layout.
    ring = old.cloneNode(false);
    ring.style.setProperty("--clock-seconds", `${Number(clock.seconds)}s`);
    const label = text(clock.label);
    if (label) ring.setAttribute("aria-label", label);
    else ring.removeAttribute("aria-label");
    ring.hidden = false;
    old.replaceWith(ring);
  }
  out = setTimeout(onOut, Number(clock.seconds) * 1000);
}

/** No clock runs. */
export function stopClock() {
  clearTimeout(out);
  out = null;
  if (ring) ring.hidden = true;
  ring = null;
}
