// The pieces of a table of seats that more than one game paints alike (Pişti, Batak):
// a seat's name, flags and hand held face down, your hand as buttons, a count table's
// rows, and the end of every paint (the match line, whose turn, the result panel, the
// steps since your last turn). Each is painted from a view's data alone; nothing here
// knows a game's rules.

import { cardBack, cardFace } from "../cards.js";
import { rove } from "../keys.js";
import { list, record, setText, text } from "../text.js";
import { paintHint } from "./hints.js";
import { paintSteps } from "./steps.js";

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

/**
 * The seat `seat` at `area` (a [data-place] of the table): its number, name, accessible name
 * and flags (view.places: the place's words), whether it is to play, and its hand held face
 * down (view.hand_counts) where the area shows one.
 */
export function paintSeat(area, seat, v, turn) {
  area.dataset.seat = String(seat);
  const place = record(list(v.places)[seat]);
  setText(area.querySelector("[data-name]"), list(v.names)[seat]);
  const label = text(place.label);
  if (label) area.setAttribute("aria-label", label);
  else area.removeAttribute("aria-label");
  paintFlag(area.querySelector("[data-flag-turn]"), place.turn_flag);
  paintFlag(area.querySelector("[data-flag-dealer]"), place.dealer_flag);
  area.classList.toggle("to-play", turn === seat);
  const held = area.querySelector("[data-held]");
  if (held) paintHeld(held, list(v.hand_counts)[seat]);
}

/** A count table's head: the corner cell, then a column a team, named by `teams`. */
export function paintCountHead(table, teams) {
  const head = table.tHead.rows[0];
  head.replaceChildren(head.cells[0], ...list(teams).map((name) => {
    const th = document.createElement("th");
    th.scope = "col";
    th.textContent = text(name);
    return th;
  }));
}

/** A count table's row: what it counts (`row.what`), then each team's value; `kind`, its class. */
export function countRow(row, kind = "") {
  const r = record(row);
  const tr = document.createElement("tr");
  if (kind) tr.className = kind;
  const th = document.createElement("th");
  th.scope = "row";
  th.textContent = text(r.what);
  tr.append(th, ...list(r.values).map((value) => {
    const td = document.createElement("td");
    td.textContent = text(value);
    return td;
  }));
  return tr;
}

/**
 * The end of a paint of `root` from view `v`: the match line in the page's top bar (the
 * length, the deal, the dealer; before the first deal the length alone), whose turn, the goal,
 * the hint of the moment, the result panel (`paintResult(box)` fills it) and its Next deal, the
 * steps since your last turn; then the paint is counted (data-paints) and announced
 * (pishe:painted). Returns the milliseconds since `start`.
 */
export function endPaint(root, v, { match, me, turn, over, start }, paintResult) {
  const line = root.ownerDocument.querySelector(`[data-match-line="${CSS.escape(root.dataset.game)}"]`);
  if (line) {
    setText(line.querySelector("[data-match-length]"), match ? match.length_name : "");
    setText(line.querySelector("[data-deal]"), match ? match.deal : "");
    setText(line.querySelector("[data-dealer]"), list(v.names)[v.dealer]);
    line.dataset.dealt = String(Boolean(match));
  }
  setText(root.querySelector("[data-status]"), v.status);
  setText(root.querySelector("[data-goal]"), v.goal);
  paintHint(root.querySelector("[data-hint]"), v.hint, over);
  root.dataset.turn = over ? "over" : turn === null ? "none" : turn === me ? "mine" : "theirs";
  paintResult(root.querySelector("[data-result]"));
  const next = root.querySelector("[data-next-deal]");
  next.hidden = !(match && match.next_deal);
  next.setAttribute("aria-disabled", next.hidden ? "true" : "false");
  paintSteps(root.querySelector("[data-since]"), root.querySelector("[data-since-none]"), v.since_last_turn);

  const end = performance.now();
  root.dataset.paints = String((Number(root.dataset.paints) || 0) + 1);
  root.dispatchEvent(new CustomEvent("pishe:painted", { bubbles: true, detail: { start, end } }));
  return end - start;
}
