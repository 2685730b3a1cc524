// A newcomer's hints, as the view words them (view.hint: {key, text, touch: its words on a
// touch screen}, or null when none applies to this moment). The first deal of a visit shows each hint once:
// from the moment a view names it until it is dismissed or its moment passes.
// Which hints were shown is this page's memory only: nothing is stored.

import { record, setText, text } from "../text.js";

/** A screen touched, with no mouse: the hint says "tap" (its `touch` words), not "click". */
const TOUCH = matchMedia("(pointer: coarse) and (not (any-pointer: fine))");

const boxes = new WeakMap(); // a table's hint box -> {seen: Set of keys, key: shown now, over}

function state(box) {
  let s = boxes.get(box);
  if (!s) {
    s = { seen: new Set(), key: null, over: false };
    boxes.set(box, s);
    box.querySelector("[data-hint-close]").addEventListener("click", () => {
      s.seen.add(s.key);
      s.key = null;
      box.hidden = true;
    });
  }
  return s;
}

/**
 * Show `hint` (a view's) in `box` if this visit has not shown it yet; `dealOver`
 * (a painted deal result) ends the hints for the visit.
 */
export function paintHint(box, hint, dealOver) {
  if (!box) return;
  const s = state(box);
  const h = record(hint);
  const key = text(h.key);
  if (s.key !== null && s.key !== key) s.seen.add(s.key); // its moment passed
  if (dealOver) s.over = true;
  s.key = key && !s.over && !s.seen.has(key) ? key : null;
  box.hidden = s.key === null;
  box.dataset.key = s.key || "";
  setText(box.querySelector("[data-hint-text]"), s.key ? (TOUCH.matches && h.touch ? h.touch : h.text) : "");
}
