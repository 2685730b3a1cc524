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
    const to = landed.getBoundingClientRect();
    const shift = `translate(${from.left - to.left}px, ${from.top - to.top}px) scale(${from.width / to.width || 1})`;
    keep(landed.animate([{ transform: shift, transformOrigin: "0 0" }, { transform: "none", transformOrigin: "0 0" }],
      { duration: DURATION, delay, easing: "cubic-bezier(0.2, 0.7, 0.2, 1)", fill: "backwards" }));
    return;
  }
  // The card is not drawn where it went: a copy flies there and is gone.
  const to = place.getBoundingClientRect();
  const ghost = start.look || (card.code ? cardFace(card) : cardBack());
  ghost.classList.remove("arrive");
  ghost.removeAttribute("role");
  ghost.removeAttribute("aria-label");
  Object.assign(ghost.style, {
    left: `${from.left}px`, top: `${from.top}px`, width: `${from.width}px`, height: `${from.height}px`,
  });
  ghost.style.setProperty("--cw", `${from.width}px`);
  ghost.style.setProperty("--ch", `${from.height}px`);
  // A swept pile goes under the card that takes it.
  if (move.sweep) layer(root.ownerDocument).prepend(ghost);
  else layer(root.ownerDocument).append(ghost);
  const dx = to.left + to.width / 2 - (from.left + from.width / 2);
  const dy = to.top + to.height / 2 - (from.top + from.height / 2);
  const scale = move.sweep ? 0.55 : Math.min(1, to.width / from.width || 1);
  const animation = ghost.animate(
    [{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) scale(${scale})`, opacity: move.sweep ? 0.4 : 1 }],
    { duration: DURATION, delay, easing: "cubic-bezier(0.4, 0, 0.2, 1)", fill: "both" });
  animation.addEventListener("finish", () => ghost.remove());
  keep(animation);
}

function keep(animation) {
  running.add(animation);
  animation.addEventListener("finish", () => running.delete(animation));
}
