// Cards that travel: a played, given, turned or captured card moves from where it
// was drawn to where the new view draws it, so a player can follow the others' moves.
//
// Which cards moved, from which place to which, comes from Python (an answer's
// `moves`: pishe.table.game.Game.motion); a painter names its places (placeOf).
// The table is painted to its final state at once, before anything moves: a card
// that lands where the view draws it is only given a transform (FLIP with the Web
// Animations API), and a card the view no longer draws there (a pile swept to the
// team that took it, a card dealt face down) flies as a copy in a layer outside the
// table, removed when it lands. Nothing waits for an animation: a new paint
// finishes the running ones first. With prefers-reduced-motion nothing moves.
// The moves' sounds (../sound.js, when switched on) play as the cards go.

import { cardBack, cardFace } from "../cards.js";
import { playSounds } from "../sound.js";
import { record, text } from "../text.js";

/** How long one card travels, and how much later each next move of the same answer starts. */
const DURATION = 220;
const STAGGER = 200;
/** How big a card leaving a place that shows no face of it starts, and how small a swept pile ends. */
const SMALLER = 0.6;
/** The moves after this many start together (a long answer never makes a long wait). */
const MOST_STAGES = 4;

const running = new Set(); // animations in flight, of the last paint
let paints = 0; // each paint's number: a paint's flights are dropped once a newer one is painted

/** When the i-th move of an answer starts, in ms. */
function delayOf(i) {
  return Math.min(i, MOST_STAGES) * STAGGER;
}

/** Whether the player asked for no motion. */
export function reducedMotion() {
  return typeof matchMedia === "function" && matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** The card `code` where the table draws it now (not the small record cards), or null. */
function drawnCard(root, code) {
  if (!code) return null;
  return [...root.querySelectorAll(`.card.face[data-code="${CSS.escape(code)}"]`)]
    .find((card) => !card.closest(".mini-cards") && card.getClientRects().length > 0) || null;
}

function shown(node) {
  return Boolean(node) && node.getClientRects().length > 0;
}

function layer(doc) {
  let box = doc.querySelector("[data-motion-layer]");
  if (!box) {
    box = doc.createElement("div");
    box.className = "motion-layer";
    box.dataset.motionLayer = "";
    box.setAttribute("aria-hidden", "true");
    doc.body.append(box);
  }
  return box;
}

/**
 * Paint with `paintNow()` (the painter's own paint of the final state, whose answer is
 * returned) and move the cards of `moves` (an answer's) from where they were drawn.
 * `placeOf(root, name)` is the painter's element for a place's name, or null.
 */
export function travel(root, moves, placeOf, paintNow) {
  for (const animation of [...running]) animation.finish();
  running.clear();
  const flying = root.ownerDocument.querySelector("[data-motion-layer]");
  if (flying) flying.replaceChildren();
  paints += 1;
  const list = (Array.isArray(moves) ? moves : []).map(record).filter((m) => text(m.to));
  playSounds(list, delayOf);
  if (list.length === 0 || reducedMotion() || root.closest("[hidden]")) return paintNow();
  const starts = list.map((move) => {
    // A card leaves from where it is drawn, or from its place; a swept pile looks as it did.
    const place = placeOf(root, text(move.from));
    const drawn = move.sweep ? place && place.querySelector(".card.face") : drawnCard(root, text(record(move.card).code));
    const from = (!move.sweep && drawn) || place;
    return shown(from) ? { rect: from.getBoundingClientRect(), look: drawn && drawn.cloneNode(true) } : null;
  });
  const painted = paintNow();
  const paint = paints;
  // Measured at the next frame, before it is drawn: the paint itself never forces a layout.
  requestAnimationFrame(() => {
    if (paint !== paints) return;
    list.forEach((move, i) => fly(root, move, starts[i], placeOf, delayOf(i)));
  });
  return painted;
}

function fly(root, move, start, placeOf, delay) {
  const place = placeOf(root, text(move.to));
  if (!start || !shown(place)) return;
  const card = record(move.card);
  const landed = move.sweep ? null : drawnCard(place, text(card.code));
  const from = start.rect;
  if (landed && place.contains(landed)) {
    // From the card it was (its size too), or from the middle of a place that shows no card
    // face (another seat's hand), a little smaller.
    const to = landed.getBoundingClientRect();
    const scale = start.look ? from.width / to.width || 1 : SMALLER;
    const dx = from.left + from.width / 2 - (to.left + to.width / 2);
    const dy = from.top + from.height / 2 - (to.top + to.height / 2);
    keep(landed.animate([{ transform: `translate(${dx}px, ${dy}px) scale(${scale})` }, { transform: "none" }],
      { duration: DURATION, delay, easing: "cubic-bezier(0.2, 0.7, 0.2, 1)", fill: "backwards" }));
    return;
  }
  // The card is not drawn where it went: a copy flies there and is gone, as big as it was
  // drawn, or as a card of the table's middle, from the middle of its place.
  const to = place.getBoundingClientRect();
  const ghost = start.look || (card.code ? cardFace(card) : cardBack());
  const size = start.look ? from : tableCard(root) || from;
  const left = from.left + (from.width - size.width) / 2;
  const top = from.top + (from.height - size.height) / 2;
  ghost.classList.remove("arrive");
  ghost.removeAttribute("role");
  ghost.removeAttribute("aria-label");
  Object.assign(ghost.style, {
    left: `${left}px`, top: `${top}px`, width: `${size.width}px`, height: `${size.height}px`,
  });
  ghost.style.setProperty("--cw", `${size.width}px`);
  ghost.style.setProperty("--ch", `${size.height}px`);
  // A swept pile goes under the card that takes it.
  if (move.sweep) layer(root.ownerDocument).prepend(ghost);
  else layer(root.ownerDocument).append(ghost);
  const dx = to.left + to.width / 2 - (left + size.width / 2);
  const dy = to.top + to.height / 2 - (top + size.height / 2);
  const scale = move.sweep ? SMALLER : Math.min(1, to.width / size.width || 1);
  const animation = ghost.animate(
    [{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) scale(${scale})`, opacity: move.sweep ? 0.4 : 1 }],
    { duration: DURATION, delay, easing: "cubic-bezier(0.4, 0, 0.2, 1)", fill: "both" });
  animation.addEventListener("finish", () => ghost.remove());
  keep(animation);
}

/** The size of a card in the table's middle (a slot's), or null when none is drawn. */
function tableCard(root) {
  const card = [...root.querySelectorAll("[data-slot] > .card")].find(shown);
  return card ? card.getBoundingClientRect() : null;
}

function keep(animation) {
  running.add(animation);
  animation.addEventListener("finish", () => running.delete(animation));
}
