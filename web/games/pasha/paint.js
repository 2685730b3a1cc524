// Painting a Pishe Pasha seat's view onto its table (index.html's
// [data-pishe-table][data-game="pishe-pasha"]).
//
// paint(view, root) redraws the whole table from one view, with nothing kept
// from earlier views but cosmetic hints (which card just arrived, to animate
// it) and which of the newcomer's hints this visit has shown (../hints.js). It decides nothing and words nothing: what is enabled comes from
// view.legal and view.match.next_deal, every text from the view (names,
// status, why, the places' flags and labels, the result, what you have seen).
// Texts are set with textContent only: a friend's page sends some of them.
//
// The cards are controls too: a click on a pile presses the button of the action
// its place's `clicks` names (the view's, from its legal actions), so the one
// controller that forwards the buttons' intents forwards the cards' as well.

import { cardBack, cardFace, emptyPlace, fill } from "../../cards.js";
import { list, record, setText, text } from "../../text.js";
import { paintHint } from "../hints.js";
import { travel } from "../motion.js";
import { paintSteps } from "../steps.js";

const ACTIONS = ["turn", "give", "keep"];

function countText(n) {
  return Number.isFinite(n) ? String(n) : "–";
}

/** A pile looks thicker the more cards it holds. */
function thickness(pile, n) {
  pile.classList.toggle("thick", n > 8);
  pile.classList.toggle("thin", n > 1 && n <= 8);
}

const forwarding = new WeakSet(); // tables whose piles already press their buttons

/** A click on a pile the view made a control presses the button of its action. */
function forwardCardClicks(root) {
  if (forwarding.has(root)) return;
  forwarding.add(root);
  root.addEventListener("click", (event) => {
    const pile = event.target.closest("[data-click]");
    const action = pile && root.contains(pile) ? pile.dataset.click : "";
    const button = action && root.querySelector(`button[data-action="${CSS.escape(action)}"]`);
    if (button) button.click();
  });
}

/**
 * The element of a place a card moves from or to (an answer's moves, named by Python:
 * pishe/games/pasha/view.py's motion): "stock:<seat>", "pile:<seat>" (the discard pile),
 * "turned:<seat>", "suit:<suit>".
 */
function placeOf(root, name) {
  const [kind, which] = name.split(":");
  const key = CSS.escape(text(which));
  if (kind === "suit") return root.querySelector(`.pile-suit[data-suit="${key}"] [data-slot]`);
  const pile = { stock: "stock", pile: "discard", turned: "turned" }[kind];
  return pile ? root.querySelector(`[data-place][data-seat="${key}"] [data-pile="${pile}"] [data-slot]`) : null;
}

/**
 * Paint `view` (a seat's view JSON, see pishe/games/pasha/view.py) onto the table, the
 * cards of `moves` (the answer's, Python's) travelling to where it draws them.
 *
 * @param {object} view
 * @param {Element} [root] the table's markup (index.html's)
 * @param {object[]} [moves] the cards the steps since the last view moved
 * @returns {number} milliseconds the paint took
 */
export function paint(view, root = document.querySelector('[data-pishe-table][data-game="pishe-pasha"]'), moves = []) {
  return travel(root, moves, placeOf, () => paintView(view, root));
}

function paintView(view, root) {
  const start = performance.now();
  const v = record(view);
  const me = Number.isInteger(v.seat) ? v.seat : 0;
  const seatCount = Number.isInteger(v.seats) && v.seats > 0 ? v.seats : 2;
  const names = list(v.names);
  const match = v.match && typeof v.match === "object" ? v.match : null;
  const result = v.result && typeof v.result === "object" ? v.result : null;
  const legal = list(v.legal);
  const turn = Number.isInteger(v.turn) ? v.turn : null;
  forwardCardClicks(root);

  // Seats: our own at the bottom, the next seat at the top.
  const seats = { bottom: me, top: seatCount > 1 ? (me + 1) % seatCount : null };
  for (const area of root.querySelectorAll("[data-place]")) {
    const seat = seats[area.dataset.place];
    area.hidden = seat === null || seat === undefined;
    if (!area.hidden) paintSeat(area, seat, v, names, match);
  }

  // Suit piles, in the view's order.
  const figures = [...root.querySelectorAll(".pile-suit")];
  const piles = list(v.suit_piles);
  figures.forEach((figure, i) => {
    const pile = piles[i];
    figure.hidden = !pile;
    const slot = figure.querySelector("[data-slot]");
    if (!pile) {
      figure.removeAttribute("aria-label");
      slot.replaceChildren();
      delete slot.dataset.key;
      return;
    }
    figure.dataset.suit = text(pile.suit);
    fill(slot, pile.top ? cardFace(pile.top) : emptyPlace(text(pile.suit)), pile.top ? text(pile.top.code) : "");
    figure.setAttribute("aria-label", text(pile.label));
  });

  // Match line (in the page's top bar).
  const line = root.ownerDocument.querySelector('[data-match-line="pishe-pasha"]');
  if (line) {
    setText(line.querySelector("[data-match-length]"), match ? match.length_name : "");
    setText(line.querySelector("[data-deal]"), match ? match.deal : "");
    setText(line.querySelector("[data-dealer]"), match ? names[match.dealer] : "");
    line.dataset.dealt = String(Boolean(match)); // before the first deal: the length alone
  }

  // The goal, the hint of the moment, whose turn, and the result of a finished deal.
  setText(root.querySelector("[data-goal]"), v.goal);
  paintHint(root.querySelector("[data-hint]"), v.hint, Boolean(result));
  setText(root.querySelector("[data-status]"), v.status);
  root.dataset.turn = result ? "over" : turn === null ? "none" : turn === me ? "mine" : "theirs";
  const resultBox = root.querySelector("[data-result]");
  resultBox.hidden = !result;
  setText(resultBox.querySelector("[data-result-title]"), result && result.title);
  setText(resultBox.querySelector("[data-result-points]"), result && result.points);
  setText(resultBox.querySelector("[data-result-match]"), result && result.match);

  // Buttons: enabled exactly as the view says.
  for (const action of ACTIONS) {
    const button = root.querySelector(`button[data-action="${action}"]`);
    button.setAttribute("aria-disabled", legal.includes(action) ? "false" : "true");
  }
  const next = root.querySelector("[data-next-deal]");
  next.hidden = !(match && match.next_deal);
  next.setAttribute("aria-disabled", next.hidden ? "true" : "false");

  // The why-line: why a give is impossible, or which card a give would send.
  const why = record(v.why);
  const whyLine = root.querySelector("[data-why]");
  setText(whyLine, why.text);
  whyLine.dataset.kind = text(why.kind);

  // The turns panel.
  const thisTurn = record(v.this_turn);
  const lastTurn = record(v.other_last_turn);
  setText(root.querySelector("[data-this-turn-title]"), thisTurn.title);
  setText(root.querySelector("[data-this-turn-name]"), thisTurn.who);
  paintSteps(root.querySelector("[data-this-turn]"), root.querySelector("[data-this-turn-none]"), thisTurn.steps);
  setText(root.querySelector("[data-last-turn-title]"), lastTurn.title);
  paintSteps(root.querySelector("[data-last-turn]"), root.querySelector("[data-last-turn-none]"), lastTurn.steps);

  // What you have seen (the computer table's memory of your steps): each seat's stock
  // order once known, and its next stock. The switch above it shows or hides it.
  const seen = v.seen && typeof v.seen === "object" ? v.seen : null;
  const seenArea = root.querySelector("[data-seen-area]");
  if (seenArea) paintSeen(seenArea, seen);

  const end = performance.now();
  root.dataset.paints = String((Number(root.dataset.paints) || 0) + 1);
  root.dispatchEvent(new CustomEvent("pishe:painted", { bubbles: true, detail: { start, end } }));
  return end - start;
}

function paintSeat(area, seat, v, names, match) {
  const place = record(list(v.places)[seat]);
  area.dataset.seat = String(seat);
  setText(area.querySelector("[data-seat-name]"), place.name);
  setText(area.querySelector("[data-seat-score]"), match ? list(match.scores)[seat] : "");
  area.querySelector(".seat-score").hidden = !match; // no score before the first deal
  const flag = area.querySelector("[data-seat-flag]");
  setText(flag, place.flag);
  flag.hidden = !place.flag;
  flag.dataset.kind = text(place.flag_kind);
  area.classList.toggle("to-play", place.flag_kind === "turn");

  const stock = record(list(v.stocks)[seat]);
  const stockPile = area.querySelector('[data-pile="stock"]');
  const n = stock.count;
  fill(stockPile.querySelector("[data-slot]"), n > 0 ? cardBack(text(place.stock_label)) : emptyPlace(), n > 0 ? "back" : "");
  thickness(stockPile, n);
  setText(stockPile.querySelector("[data-count]"), countText(n));
  stockPile.setAttribute("aria-label", text(place.stock_label));
  const clicks = record(place.clicks);
  clickable(stockPile, clicks.stock);

  const discard = record(list(v.discards)[seat]);
  const discardPile = area.querySelector('[data-pile="discard"]');
  const top = discard.top;
  fill(discardPile.querySelector("[data-slot]"), top ? cardFace(top) : emptyPlace(), top ? text(top.code) : "");
  thickness(discardPile, discard.count);
  setText(discardPile.querySelector("[data-count]"), countText(discard.count));
  discardPile.setAttribute("aria-label", text(place.pile_label));
  clickable(discardPile, clicks.pile);
  discardPile.classList.toggle("target", place.target === true);
  discardPile.classList.toggle("given", place.given === true);

  // A turned card waiting for give-or-keep: the view says whose (turned_label).
  const turnedPile = area.querySelector('[data-pile="turned"]');
  const turned = v.turned && place.turned_label ? v.turned : null;
  turnedPile.hidden = !turned;
  clickable(turnedPile, turned ? clicks.turned : null);
  const slot = turnedPile.querySelector("[data-slot]");
  if (turned) {
    fill(slot, cardFace(turned), text(turned.code));
    turnedPile.setAttribute("aria-label", text(place.turned_label));
  } else {
    slot.replaceChildren();
    delete slot.dataset.key;
    turnedPile.removeAttribute("aria-label");
  }
}

/** Make `pile` a control for `action` (a view's action name), or no control without one. */
function clickable(pile, action) {
  const name = text(action);
  if (name) pile.dataset.click = name;
  else delete pile.dataset.click;
}

/** The "Show what you have seen" lines: hidden with their switch when the view has none. */
function paintSeen(area, seen) {
  area.hidden = !seen;
  if (!seen) return;
  setText(area.querySelector("[data-seen-title]"), seen.title);
  const lines = list(seen.places).flatMap((place) => [record(place).stock, record(place).next_stock]);
  if (seen.note) lines.push(seen.note);
  const ul = area.querySelector("[data-seen-lines]");
  const texts = lines.map(text);
  if (ul.dataset.texts === JSON.stringify(texts)) return;
  ul.replaceChildren(...texts.map((t) => {
    const li = document.createElement("li");
    li.textContent = t;
    return li;
  }));
  ul.dataset.texts = JSON.stringify(texts);
}
