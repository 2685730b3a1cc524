// Drawing cards as DOM elements. No rules live here: a card object from a view
// ({code, rank, suit, symbol, label, name, red}) is drawn as it is, its texts set
// with textContent only. Suit shapes are CSS masks in style.css, chosen by the
// data-suit attribute; face-card and ace looks are chosen there by data-rank.
// The drawn ranks are CSS content (data-text), not text: the card's name says
// it, and a button holding a card is named by its own words alone.

import { text } from "./text.js";

function el(tag, className) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  return node;
}


function corner(card, where) {
  const idx = el("span", `idx ${where}`);
  const rank = el("span", "rank");
  rank.dataset.text = text(card.rank);
  idx.append(rank, el("span", "pip"));
  return idx;
}

/** A face-up card. `card` is a view's card object; unknown fields draw blank. */
export function cardFace(card) {
  const c = card || {};
  const node = el("div", c.red ? "card face red" : "card face");
  node.dataset.code = text(c.code);
  node.dataset.rank = text(c.rank);
  node.dataset.suit = text(c.suit);
  node.setAttribute("role", "img");
  node.setAttribute("aria-label", text(c.name || c.label || c.code) || "a card");
  node.title = text(c.label);
  const middle = el("span", "middle");
  const court = el("span", "court");
  court.dataset.text = text(c.rank);
  middle.append(court, el("span", "pip"));
  node.append(corner(c, "tl"), middle, corner(c, "br"));
  return node;
}

/** A face-down card; without a label (a view's text) it is left to the text beside it. */
export function cardBack(label) {
  const node = el("div", "card back");
  if (label) {
    node.setAttribute("role", "img");
    node.setAttribute("aria-label", label);
  } else {
    node.setAttribute("aria-hidden", "true");
  }
  return node;
}

/** The outline of an empty place; `suit` draws a faint suit shape in it. */
export function emptyPlace(suit) {
  const node = el("div", "card empty");
  node.setAttribute("aria-hidden", "true");
  if (suit) {
    node.classList.add("suit-base");
    node.append(el("span", "pip"));
  }
  return node;
}

/**
 * Put a card (or place) `child` in `slot`, marking it as arriving when `key` shows another
 * card than before. A slot already showing the same drawing keeps its node, given the new
 * one's attributes (its label may have changed): a new node, however alike, is painted again.
 */
export function fill(slot, child, key) {
  const before = slot.dataset.key;
  slot.dataset.key = key;
  const shown = slot.childElementCount === 1 ? slot.firstElementChild : null;
  if (before !== undefined && before !== key && key) child.classList.add("arrive");
  else if (shown && redraw(shown, child)) return;
  slot.replaceChildren(child);
}

// Give `shown` the attributes of `child` when both draw the same insides, keeping an
// arrival mark so that a redraw does not cut its motion short; false when they differ.
function redraw(shown, child) {
  if (shown.tagName !== child.tagName || shown.innerHTML !== child.innerHTML) return false;
  if (shown.classList.contains("arrive")) child.classList.add("arrive");
  for (const { name } of [...shown.attributes]) if (!child.hasAttribute(name)) shown.removeAttribute(name);
  for (const { name, value } of child.attributes) if (shown.getAttribute(name) !== value) shown.setAttribute(name, value);
  return true;
}
