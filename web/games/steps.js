// A list of step texts (a turn, the cards played since your last turn), as the
// view gives them: newly added lines fade in, and the newest is scrolled to.

import { list, text } from "../text.js";

/** Show `steps` in `ol`; `none` (the "Nothing yet." line) shows while there are none. */
export function paintSteps(ol, none, steps) {
  const texts = list(steps).map(text);
  const before = ol.dataset.texts ? JSON.parse(ol.dataset.texts) : [];
  const same = before.length <= texts.length && before.every((t, i) => t === texts[i]);
  if (same && before.length === texts.length) return;
  // Lines only added are appended: the lines shown stay as they are, not drawn again.
  const added = same ? texts.slice(before.length) : texts;
  const lines = added.map((t) => {
    const li = document.createElement("li");
    li.textContent = t;
    if (same) li.className = "new";
    return li;
  });
  if (same) ol.append(...lines);
  else ol.replaceChildren(...lines);
  ol.dataset.texts = JSON.stringify(texts);
  none.hidden = texts.length > 0;
  // Show the newest step; measured at the next frame, so a paint never forces a layout.
  requestAnimationFrame(() => {
    ol.scrollTop = ol.scrollHeight;
  });
}
