// The pieces of a table of seats that more than one game paints alike: a seat's
// flags, another seat's hand held face down, and your hand as buttons. Each is
// painted from a view's data alone; nothing here knows a game's rules.

import { cardBack, cardFace } from "../cards.js";
import { rove } from "../keys.js";
import { list, record, setText, text } from "../text.js";

/** The most face-down cards drawn for a seat's hand (its count says the rest). */
const MOST_BACKS = 4;

/** A count as the page shows it ("–" for none known). */
export function countText(n) {
  return Number.isFinite(n) ? String(n) : "–";
}

/** A seat's flag: the place's word for it, shown when there is one. */
export function paintFlag(flag, word) {
  if (!flag) return;
  setText(flag, word);
  flag.hidden = !text(word);
}

/** Another seat's hand: its count, and as many backs (up to a few). */
export function paintHeld(held, count) {
  setText(held.querySelector("[data-count]"), countText(count));
  const backs = held.querySelector("[data-backs]");
  const n = Number.isFinite(count) ? Math.max(0, Math.min(MOST_BACKS, count)) : 0;
  if (backs.childElementCount === n) return;
  backs.replaceChildren(...Array.from({ length: n }, () => cardBack()));
}

/**
 * Your hand: one button per card, named by the card's `play_label` ("Play 7♥"), enabled
 * exactly when the view lists its code in `legal`.
 */
export function paintHand(box, hand, legal) {
  const buttons = [...box.children];
  hand.forEach((card, i) => {
    const c = record(card);
    let button = buttons[i];
    if (!button) {
      button = document.createElement("button");
      button.type = "button";
      button.className = "hand-card";
      box.append(button);
    }
    if (button.dataset.action !== text(c.code)) {
      button.dataset.action = text(c.code);
      const face = cardFace(c);
      face.setAttribute("aria-hidden", "true");
      button.replaceChildren(face);
    }
    button.setAttribute("aria-label", text(c.play_label));
    button.setAttribute("aria-disabled", list(legal).includes(c.code) ? "false" : "true");
  });
  // Cards played are gone; the keyboard stays in the hand (on the hand itself while it is
  // empty, until the next cards come), one Tab stop whose cards the arrow keys reach.
  const focused = buttons.slice(hand.length).includes(document.activeElement);
  for (const extra of buttons.slice(hand.length)) extra.remove();
  if (focused) (box.lastElementChild || box).focus();
  rove(box);
}
