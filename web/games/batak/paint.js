// Painting a Batak seat's view onto its table (index.html's
// [data-pishe-table][data-game="batak"] or [data-game="batak-esli"]): you at the
// bottom, the seat opposite at the top, the next seat to play on your right and
// the one before you on your left; the trick in the middle, each card in front of
// the seat that played it, and in its place the bid buttons or the four trumps
// when the view offers them.
//
// paint(view, root) redraws the table from one view, keeping nothing from earlier
// views but cosmetic hints (which hand card or button has the focus, whether the
// last trick is open). It decides nothing and words nothing: a hand card is enabled
// exactly when its code is in view.legal, the bids and trumps are the view's
// actions with their labels, a seat's flags, tricks and accessible name are its
// place's (view.places), and every text is the view's or the page's markup.
// Texts are set with textContent only.

import { cardFace, emptyPlace, fill } from "../../cards.js";
import { rove } from "../../keys.js";
import { list, record, setText, text } from "../../text.js";
import { travel } from "../motion.js";
import { countRow, endPaint, paintCountHead, paintFlag, paintHand, paintSeat } from "../seats.js";

/** Places around the table, by seats after yours in order of play. */
const PLACES = ["bottom", "right", "top", "left"];

/**
 * The element of a place a card moves from or to (an answer's moves, named by Python:
 * pishe/games/batak/view.py's motion): "hand:<seat>", "trick", "tricks:<seat>".
 */
function placeOf(root, name) {
  const [kind, number] = name.split(":");
  if (kind === "trick") return root.querySelector("[data-trick]");
  const area = root.querySelector(`[data-place][data-seat="${CSS.escape(text(number))}"]`);
  if (!area) return null;
  if (kind === "tricks") return area.querySelector("[data-taken]");
  return kind === "hand" ? area.querySelector("[data-hand]") || area.querySelector("[data-held]") : null;
}

/**
 * Paint `view` (a Batak seat's view JSON, see pishe/games/batak/view.py) onto the table,
 * the cards of `moves` (the answer's, Python's) travelling to where it draws them.
 *
 * @param {object} view
 * @param {Element} [root] the table's markup (index.html's)
 * @param {object[]} [moves] the cards the steps since the last view moved
 * @returns {number} milliseconds the paint took
 */
export function paint(view, root = document.querySelector('[data-pishe-table][data-game="batak"]'), moves = []) {
  return travel(root, moves, placeOf, () => paintView(view, root));
}

function paintView(view, root) {
  const start = performance.now();
  const v = record(view);
  const me = Number.isInteger(v.seat) ? v.seat : 0;
  const names = list(v.names);
  const match = v.match && typeof v.match === "object" ? v.match : null;
  const turn = Number.isInteger(v.turn) ? v.turn : null;
  const over = Boolean(v.deal_result) || Boolean(match && match.over);
  const lines = list(record(v.auction).lines);

  // Seats around the table.
  for (const area of root.querySelectorAll("[data-place]")) {
    const seat = (me + PLACES.indexOf(area.dataset.place)) % 4;
    paintSeat(area, seat, v, turn);
    const place = record(list(v.places)[seat]);
    paintFlag(area.querySelector("[data-flag-declarer]"), place.declarer_flag);
    paintBids(area.querySelector("[data-bids]"), record(lines.find((line) => record(line).seat === seat)).bids);
    setText(area.querySelector("[data-taken]"), place.tricks);
  }
  paintHand(root.querySelector("[data-hand]"), list(v.hand), list(v.legal));

  // The contract, the trick in play and the last one, the moves offered in the middle.
  const contract = root.querySelector("[data-contract]");
  setText(contract, record(v.contract).text);
  contract.hidden = !text(record(v.contract).text);
  paintTrick(root.querySelector("[data-trick]"), list(v.trick), me, names);
  paintLastTrick(root.querySelector("[data-last-trick]"), v.last_trick, names);
  const actions = list(v.actions);
  paintChoice(root.querySelector("[data-bidding]"), v.phase === "auction" ? actions : []);
  paintChoice(root.querySelector("[data-trump-choice]"), v.phase === "trump" ? actions : []);
  root.dataset.phase = text(v.phase) || "none";

  // Each seat's (team's) tricks and score.
  paintScores(root.querySelector("[data-scores]"), v, match);

  // The match line, whose turn, the goal, the hint, the deal's table and the match's result.
  return endPaint(root, v, { match, me, turn, over, start },
    (box) => paintResult(box, record(v.deal_result), match));
}

/** A seat's auction so far: each of its bids and passes, as the view words them. */
function paintBids(box, bids) {
  const said = list(bids).map(text);
  if (box.dataset.said === JSON.stringify(said)) return;
  box.dataset.said = JSON.stringify(said);
  box.replaceChildren(...said.map((bid) => {
    const chip = document.createElement("span");
    chip.className = "bid";
    chip.textContent = bid;
    return chip;
  }));
}

/** The trick in play: each card in front of the seat that played it, named by that seat. */
function paintTrick(box, trick, me, names) {
  const played = new Map(trick.map((t) => [record(t).seat, record(record(t).card)]));
  const lead = trick.length ? record(trick[0]).seat : null;
  for (const figure of box.querySelectorAll("[data-trick-place]")) {
    const seat = (me + PLACES.indexOf(figure.dataset.trickPlace)) % 4;
    const card = played.get(seat);
    fill(figure.querySelector("[data-slot]"), card ? cardFace(card) : emptyPlace(), card ? text(card.code) : "");
    figure.hidden = !card;
    figure.classList.toggle("lead", seat === lead);
    setText(figure.querySelector("[data-trick-who]"), card ? names[seat] : "");
  }
}

/** The last completed trick, shown on request: its cards in the order played, each with its seat's name. */
function paintLastTrick(box, last, names) {
  const l = record(last);
  const cards = list(l.cards);
  const toggle = box.querySelector("[data-last-trick-toggle]");
  const shown = box.querySelector("[data-cards]");
  box.hidden = cards.length === 0;
  if (box.hidden) toggle.setAttribute("aria-expanded", "false");
  shown.hidden = toggle.getAttribute("aria-expanded") !== "true";
  const key = JSON.stringify([names, cards.map((t) => [record(t).seat, text(record(record(t).card).code)])]);
  if (shown.dataset.key !== key) {
    shown.dataset.key = key;
    shown.replaceChildren(...cards.map((t) => {
      const seat = record(t).seat;
      const li = document.createElement("li");
      li.classList.toggle("winner", seat === l.seat);
      const who = document.createElement("span");
      who.className = "last-who";
      who.textContent = text(names[seat]);
      li.append(cardFace(record(record(t).card)), who);
      return li;
    }));
  }
  toggle.onclick = () => {
    const open = toggle.getAttribute("aria-expanded") !== "true";
    toggle.setAttribute("aria-expanded", String(open));
    shown.hidden = !open;
  };
}

/** The moves the view offers as buttons (the auction's bids and pass, or the four trumps), in its order. */
function paintChoice(box, actions) {
  const wanted = actions.map((a) => [text(record(a).action), text(record(a).label)]);
  box.hidden = wanted.length === 0;
  if (box.dataset.key !== JSON.stringify(wanted)) {
    const hadFocus = box.contains(document.activeElement);
    box.dataset.key = JSON.stringify(wanted);
    box.replaceChildren(...wanted.map(([action, label]) => {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "btn batak-move";
      button.dataset.action = action;
      button.setAttribute("aria-disabled", "false");
      button.textContent = label;
      return button;
    }));
    if (hadFocus) (box.firstElementChild || box).focus();
  }
  rove(box);
}

/** Each seat's (team's) tricks this deal and score in the match, a row a team. */
function paintScores(table, v, match) {
  const tricks = list(v.team_tricks);
  const scores = match ? list(match.scores) : [];
  table.querySelector("[data-scores-head]").hidden = !match; // no score before the first deal
  table.tBodies[0].replaceChildren(...list(v.team_names).map((name, t) => {
    const tr = document.createElement("tr");
    tr.classList.toggle("mine", t === v.team);
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = text(name);
    const cells = [tricks[t], ...(match ? [scores[t]] : [])].map((value) => {
      const td = document.createElement("td");
      td.textContent = text(value);
      return td;
    });
    tr.append(th, ...cells);
    return tr;
  }));
}

/** The deal just played (contract, each team's tricks and points, each deal's and the total) and the match's result. */
function paintResult(box, result, match) {
  const rows = [...list(result.rows).map((r) => [record(r), ""]), ...list(result.history).map((r) => [record(r), "history"])];
  if (result.total) rows.push([record(result.total), "total"]);
  const matchResult = match && match.result ? match.result : "";
  box.hidden = rows.length === 0 && !matchResult;
  setText(box.querySelector("[data-result-title]"), matchResult);
  const table = box.querySelector("[data-deal-count]");
  table.hidden = rows.length === 0;
  setText(table.querySelector("[data-deal-caption]"), result.heading);
  paintCountHead(table, result.teams);
  table.tBodies[0].replaceChildren(...rows.map(([r, kind]) => countRow(r, kind)));
}
