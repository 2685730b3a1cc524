// Painting a Pişti seat's view onto its table (index.html's
// [data-pishe-table][data-game="pisti"]): you at the bottom, your partner
// opposite, the opponents on your right (the next seat to play) and left.
//
// paint(view, root) redraws the table from one view, keeping nothing from
// earlier views but cosmetic hints (the card that just arrived on the pile,
// which hand card has the focus, whether the opening cards are shown). It
// decides nothing and words nothing: a hand card is enabled exactly when its
// code is in view.legal, a seat's flags and accessible name are its place's
// (view.places), and every text is the view's or the page's markup.
// Texts are set with textContent only.

import { cardBack, cardFace, emptyPlace, fill } from "../../cards.js";
import { list, record, setText, text } from "../../text.js";
import { travel } from "../motion.js";
import { countRow, countText, endPaint, paintCountHead, paintHand, paintSeat } from "../seats.js";

/** Places around the table, by seats after yours in order of play (two players: face to face). */
const PLACES = ["bottom", "right", "top", "left"];
const TWO_PLACES = ["bottom", "top"];
/** Small face-up cards (pişti records, the opening cards, the jacks sent under). */
function paintMiniCards(box, cards) {
  const codes = list(cards).map((c) => text(record(c).code)).join(" ");
  if (box.dataset.codes === codes) return;
  box.dataset.codes = codes;
  box.replaceChildren(...list(cards).map((card) => cardFace(card)));
}

/**
 * The element of a place a card moves from or to (an answer's moves, named by Python:
 * pishe/games/pisti/view.py's motion): "deck", "pile", "hand:<seat>", "team:<team>".
 */
function placeOf(root, name) {
  const [kind, number] = name.split(":");
  if (kind === "deck") return root.querySelector("[data-deck] [data-slot]");
  if (kind === "pile") return root.querySelector("[data-pile] [data-slot]");
  if (kind === "team") return root.querySelector(`[data-team="${CSS.escape(text(number))}"]`);
  const area = kind === "hand" ? root.querySelector(`[data-place][data-seat="${CSS.escape(text(number))}"]`) : null;
  return area && (area.querySelector("[data-hand]") || area.querySelector("[data-held]"));
}

/**
 * Paint `view` (a Pişti seat's view JSON, see pishe/games/pisti/view.py) onto the table,
 * the cards of `moves` (the answer's, Python's) travelling to where it draws them.
 *
 * @param {object} view
 * @param {Element} [root] the table's markup (index.html's)
 * @param {object[]} [moves] the cards the steps since the last view moved
 * @returns {number} milliseconds the paint took
 */
export function paint(view, root = document.querySelector('[data-pishe-table][data-game="pisti"]'), moves = []) {
  return travel(root, moves, placeOf, () => paintView(view, root));
}

function paintView(view, root) {
  const start = performance.now();
  const v = record(view);
  const me = Number.isInteger(v.seat) ? v.seat : 0;
  const seatCount = Number.isInteger(v.seats) && v.seats > 0 ? v.seats : PLACES.length;
  const match = v.match && typeof v.match === "object" ? v.match : null;
  const turn = Number.isInteger(v.turn) ? v.turn : null;
  const over = Boolean(v.deck_result) || Boolean(match && match.over);

  // Seats around the table.
  for (const area of root.querySelectorAll("[data-place]")) {
    const k = (seatCount === 2 ? TWO_PLACES : PLACES).indexOf(area.dataset.place);
    const seat = k >= 0 && k < seatCount ? (me + k) % seatCount : null;
    area.hidden = seat === null;
    if (seat !== null) paintSeat(area, seat, v, turn);
  }
  paintHand(root.querySelector("[data-hand]"), list(v.hand), list(v.legal));

  // The middle: deck, pile, the jacks sent under the deck.
  const deck = root.querySelector("[data-deck]");
  fill(deck.querySelector("[data-slot]"), v.deck_count > 0 ? cardBack() : emptyPlace(), v.deck_count > 0 ? "back" : "");
  setText(deck.querySelector("[data-count]"), countText(v.deck_count));
  const pile = record(v.pile);
  const pileBox = root.querySelector("[data-pile]");
  fill(pileBox.querySelector("[data-slot]"), pile.top ? cardFace(pile.top) : emptyPlace(), pile.top ? text(pile.top.code) : "");
  pileBox.classList.toggle("thick", pile.count > 8);
  pileBox.classList.toggle("thin", pile.count > 1 && pile.count <= 8);
  setText(pileBox.querySelector("[data-count]"), countText(pile.count));
  const under = root.querySelector("[data-sent-under]");
  under.hidden = list(v.sent_under).length === 0;
  paintMiniCards(under.querySelector("[data-cards]"), v.sent_under);

  // The teams: score, cards taken, pişti records.
  const teamNames = list(v.team_names);
  const taken = list(v.taken);
  const scores = match ? list(match.scores) : [];
  for (const box of root.querySelectorAll("[data-team]")) {
    const t = Number(box.dataset.team);
    const team = record(taken[t]);
    box.classList.toggle("mine", v.team === t);
    setText(box.querySelector("[data-team-name]"), teamNames[t]);
    setText(box.querySelector("[data-team-score]"), scores[t]);
    box.querySelector(".team-score").hidden = !match; // no score before the first deck
    setText(box.querySelector("[data-team-taken]"), countText(team.count));
    paintMiniCards(box.querySelector("[data-team-pishti]"), [...list(team.pishti), ...list(team.jack_pishti)]);
  }
  // Your team first, as the status line and the deck's count say them: first in the
  // document too, so that a screen reader reads the boxes in the order they are seen.
  const mine = root.querySelector("[data-teams] > .mine");
  if (mine && mine.previousElementSibling) mine.parentElement.prepend(mine);

  // The opening cards, once your team took them: shown on request.
  const opening = root.querySelector("[data-opening]");
  const toggle = opening.querySelector("[data-opening-toggle]");
  const openingCards = opening.querySelector("[data-cards]");
  opening.hidden = !Array.isArray(v.opening);
  if (opening.hidden) toggle.setAttribute("aria-expanded", "false");
  openingCards.hidden = toggle.getAttribute("aria-expanded") !== "true";
  paintMiniCards(openingCards, v.opening);
  toggle.onclick = () => {
    const open = toggle.getAttribute("aria-expanded") !== "true";
    toggle.setAttribute("aria-expanded", String(open));
    openingCards.hidden = !open;
  };

  // The match line, whose turn, the goal, the hint, the deck's count and the match's result.
  return endPaint(root, v, { match, me, turn, over, start },
    (box) => paintResult(box, record(v.deck_result), match));
}

/** The count of the deck just played (rows of what and each team's value) and the match's result. */
function paintResult(box, result, match) {
  const rows = list(result.rows);
  const matchResult = match && match.result ? match.result : "";
  box.hidden = rows.length === 0 && !matchResult;
  setText(box.querySelector("[data-result-title]"), matchResult);
  const table = box.querySelector("[data-deck-count]");
  table.hidden = rows.length === 0;
  paintCountHead(table, result.teams);
  table.tBodies[0].replaceChildren(...rows.map((row) => countRow(row)));
  // The match's score so far against its target, under the deck's own points.
  const total = result.total ? record(result.total) : null;
  table.tFoot.replaceChildren(...(total ? [countRow(total)] : []));
}
