// The table page: painting a seat's view, and (on the computer table) the
// controller that forwards your intents to the Python worker.
//
// paint(view, {names}) redraws the whole table from one view, with nothing kept
// from earlier views but cosmetic hints (which card just arrived, to animate it).
// It decides nothing: what is enabled comes from view.legal and
// view.match.next_deal, every text from the view or from `names`. Texts are set
// with textContent only (a later peer-to-peer page paints a peer's texts).
//
// The computer table starts itself when the page's <body> has
// data-table="computer"; another page may import paint() without that.
// `computerTable` lets another controller on the same page (web/friend.js)
// share its Python worker and stop the computer while a friend plays.

import { startWorker, registerOffline } from "./boot.js";
import { cardBack, cardFace, emptyPlace, SUIT_NAMES } from "./cards.js";

/** Seat names on the computer table, by seat number. */
export const COMPUTER_NAMES = ["You", "Computer"];

const ACTIONS = ["turn", "give", "keep"];

function text(value) {
  return value === undefined || value === null ? "" : String(value);
}

function list(value) {
  return Array.isArray(value) ? value : [];
}

function setText(node, value) {
  const t = text(value);
  if (node && node.textContent !== t) node.textContent = t;
}

/** Put `child` in `slot`, marking it as arriving when it shows another card than before. */
function fill(slot, child, key) {
  if (!slot) return;
  const before = slot.dataset.key;
  slot.dataset.key = key;
  if (before !== undefined && before !== key && key) child.classList.add("arrive");
  slot.replaceChildren(child);
}

function countText(n) {
  return Number.isFinite(n) ? String(n) : "–";
}

function cardsWord(n) {
  return n === 1 ? "1 card" : `${countText(n)} cards`;
}

/**
 * Paint `view` (a seat's view JSON, see pishe/view.py) onto the table.
 *
 * @param {object} view
 * @param {{names?: string[], root?: Element}} [options]
 *   names: seat names by seat number (the view's own seat is painted at the
 *   bottom); root: the element holding the table markup (index.html's).
 * @returns {number} milliseconds the paint took
 */
export function paint(view, { names = COMPUTER_NAMES, root } = {}) {
  const start = performance.now();
  const box = root || document.querySelector("[data-pishe-table]") || document.body;
  const v = view && typeof view === "object" ? view : {};
  const me = Number.isInteger(v.seat) ? v.seat : 0;
  const seatCount = Number.isInteger(v.seats) && v.seats > 0 ? v.seats : Math.max(list(v.stocks).length, 2);
  const name = (seat) =>
    Number.isInteger(seat) && names && names[seat] !== undefined && names[seat] !== null
      ? String(names[seat])
      : Number.isInteger(seat) ? `Seat ${seat + 1}` : "";
  const match = v.match && typeof v.match === "object" ? v.match : null;
  const result = v.deal_result && typeof v.deal_result === "object" ? v.deal_result : null;
  const legal = list(v.legal);
  const turn = Number.isInteger(v.turn) ? v.turn : null;

  // Seats: our own at the bottom, the next seat at the top.
  const places = { bottom: me, top: seatCount > 1 ? (me + 1) % seatCount : null };
  for (const area of box.querySelectorAll("[data-place]")) {
    const seat = places[area.dataset.place];
    area.hidden = seat === null || seat === undefined;
    if (area.hidden) continue;
    paintSeat(area, seat, { v, name, match, result, turn, me });
  }

  // Suit piles, in the view's order.
  const pilesBox = box.querySelector("[data-suit-piles]");
  if (pilesBox) {
    const piles = list(v.suit_piles);
    const figures = [...pilesBox.querySelectorAll(".pile-suit")];
    while (figures.length < piles.length) {
      const figure = document.createElement("figure");
      figure.className = "pile pile-suit";
      const slot = document.createElement("div");
      slot.className = "slot";
      slot.dataset.slot = "";
      figure.append(slot);
      pilesBox.append(figure);
      figures.push(figure);
    }
    figures.forEach((figure, i) => {
      const pile = piles[i];
      figure.hidden = !pile;
      if (!pile) {
        figure.removeAttribute("aria-label");
        figure.querySelector("[data-slot]")?.replaceChildren();
        return;
      }
      const suit = text(pile.suit);
      const suitName = SUIT_NAMES[suit] || suit;
      figure.dataset.suit = suit;
      const slot = figure.querySelector("[data-slot]");
      if (pile.top) {
        fill(slot, cardFace(pile.top), text(pile.top.code));
        figure.setAttribute("aria-label", `${suitName} pile: ${text(pile.top.label)}, ${cardsWord(pile.count)}`);
      } else {
        fill(slot, emptyPlace(suit), "");
        figure.setAttribute("aria-label", `${suitName} pile: empty`);
      }
    });
  }

  // Match line.
  setText(box.ownerDocument.querySelector("[data-match-length]"), match ? match.length_name : "");
  setText(box.ownerDocument.querySelector("[data-deal]"), match ? match.deal : "");
  setText(box.ownerDocument.querySelector("[data-dealer]"), match ? name(match.dealer) : "");

  // Whose turn, and the result of a finished deal.
  const status = box.querySelector("[data-status]");
  const resultBox = box.querySelector("[data-result]");
  if (result) {
    const winner = result.winner === me ? "You win the deal" : `${name(result.winner)} wins the deal`;
    setText(status, `${winner}: ${text(result.points)} points.`);
  } else if (turn === null) {
    setText(status, "");
  } else if (turn === me) {
    setText(status, v.turned && legal.includes("keep")
      ? `Your turn: give or keep the ${text(v.turned.label)}?`
      : "Your turn.");
  } else {
    setText(status, `${name(turn)} to play…`);
  }
  box.dataset.turn = result ? "over" : turn === null ? "none" : turn === me ? "mine" : "theirs";
  if (resultBox) {
    resultBox.hidden = !result;
    if (result) {
      setText(resultBox.querySelector("[data-result-title]"),
        result.winner === me ? "You win the deal!" : `${name(result.winner)} wins the deal`);
      setText(resultBox.querySelector("[data-result-points]"),
        `${text(result.points)} ${result.points === 1 ? "point" : "points"}`);
      const scores = match ? list(match.scores) : [];
      const scoreLine = scores.map((s, seat) => `${name(seat)} ${text(s)}`).join(" · ");
      let line = "";
      if (match && match.over) line = `Match over. Final score: ${scoreLine}`;
      else if (match && match.next_deal) line = `Match score: ${scoreLine}. ${text(match.length_name)}.`;
      setText(resultBox.querySelector("[data-result-match]"), line);
    }
  }

  // Buttons: enabled exactly as the view says.
  for (const action of ACTIONS) {
    const button = box.querySelector(`[data-action="${action}"]`);
    if (button) button.setAttribute("aria-disabled", legal.includes(action) ? "false" : "true");
  }
  const next = box.querySelector("[data-next-deal]");
  if (next) {
    next.hidden = !(match && match.next_deal);
    next.setAttribute("aria-disabled", next.hidden ? "true" : "false");
  }

  // The why-line: why a give is impossible, or which card a give would send.
  const why = box.querySelector("[data-why]");
  if (legal.includes("give")) {
    setText(why, v.give_card ? `You may give your ${text(v.give_card.label)}.` : "");
    if (why) why.dataset.kind = "hint";
  } else {
    setText(why, v.give_problem);
    if (why) why.dataset.kind = "problem";
  }

  // The turns panel.
  const thisTurn = v.this_turn && typeof v.this_turn === "object" ? v.this_turn : {};
  const lastTurn = v.other_last_turn && typeof v.other_last_turn === "object" ? v.other_last_turn : {};
  setText(box.querySelector("[data-this-turn-name]"), Number.isInteger(thisTurn.seat) ? name(thisTurn.seat) : "");
  paintSteps(box.querySelector("[data-this-turn]"), box.querySelector("[data-this-turn-none]"), thisTurn.steps);
  setText(box.querySelector("[data-last-turn-title]"),
    Number.isInteger(lastTurn.seat) ? `${name(lastTurn.seat)}'s last turn` : "Last turn");
  paintSteps(box.querySelector("[data-last-turn]"), box.querySelector("[data-last-turn-none]"), lastTurn.steps);

  const end = performance.now();
  box.dataset.paints = String((Number(box.dataset.paints) || 0) + 1);
  box.dispatchEvent(new CustomEvent("pishe:painted", { bubbles: true, detail: { start, end } }));
  return end - start;
}

function paintSeat(area, seat, { v, name, match, result, turn, me }) {
  area.dataset.seat = String(seat);
  setText(area.querySelector("[data-seat-name]"), name(seat));
  const scores = match ? list(match.scores) : [];
  setText(area.querySelector("[data-seat-score]"), scores[seat] ?? 0);
  const flag = area.querySelector("[data-seat-flag]");
  let flagText = "";
  if (result && result.winner === seat) flagText = "Wins the deal";
  else if (!result && turn === seat) flagText = seat === me ? "Your turn" : "To play";
  else if (match && match.dealer === seat && !result) flagText = "Dealer";
  if (flag) {
    setText(flag, flagText);
    flag.hidden = !flagText;
    flag.dataset.kind = result ? "winner" : turn === seat ? "turn" : "dealer";
  }
  area.classList.toggle("to-play", !result && turn === seat);
  const whose = seat === me ? "Your" : `${name(seat)}'s`;

  const stock = list(v.stocks)[seat] || {};
  const stockPile = area.querySelector('[data-pile="stock"]');
  if (stockPile) {
    const n = stock.count;
    fill(stockPile.querySelector("[data-slot]"), n > 0 ? cardBack(`${whose} stock: ${cardsWord(n)}`) : emptyPlace(), n > 0 ? "back" : "");
    stockPile.classList.toggle("thick", n > 8);
    stockPile.classList.toggle("thin", n > 1 && n <= 8);
    setText(stockPile.querySelector("[data-count]"), countText(n));
    stockPile.setAttribute("aria-label", `${whose} stock: ${cardsWord(n)}`);
  }

  const discard = list(v.discards)[seat] || {};
  const discardPile = area.querySelector('[data-pile="discard"]');
  if (discardPile) {
    const top = discard.top;
    fill(discardPile.querySelector("[data-slot]"), top ? cardFace(top) : emptyPlace(), top ? text(top.code) : "");
    discardPile.classList.toggle("thick", discard.count > 8);
    discardPile.classList.toggle("thin", discard.count > 1 && discard.count <= 8);
    setText(discardPile.querySelector("[data-count]"), countText(discard.count));
    discardPile.setAttribute("aria-label",
      top ? `${whose} pile: ${text(top.label)} on top, ${cardsWord(discard.count)}` : `${whose} pile: empty`);
  }

  // A turned card waiting for give-or-keep belongs to the seat whose turn it is.
  const turnedPile = area.querySelector('[data-pile="turned"]');
  if (turnedPile) {
    const turned = v.turned && turn === seat ? v.turned : null;
    turnedPile.hidden = !turned;
    const slot = turnedPile.querySelector("[data-slot]");
    if (turned) {
      fill(slot, cardFace(turned), text(turned.code));
      setText(turnedPile.querySelector("figcaption"), "Give or keep?");
      turnedPile.setAttribute("aria-label", `${whose} turned card, waiting to be given or kept: ${text(turned.label)}`);
    } else {
      if (slot) {
        slot.replaceChildren();
        delete slot.dataset.key;
      }
      setText(turnedPile.querySelector("figcaption"), "Turned");
      turnedPile.removeAttribute("aria-label");
    }
  }
}

function paintSteps(ol, none, steps) {
  if (!ol) return;
  const texts = list(steps).map(text);
  const before = ol.dataset.texts ? JSON.parse(ol.dataset.texts) : [];
  const same = before.length <= texts.length && before.every((t, i) => t === texts[i]);
  if (same && before.length === texts.length) return;
  const items = texts.map((t, i) => {
    const li = document.createElement("li");
    li.textContent = t;
    if (same && i >= before.length) li.className = "new";
    return li;
  });
  ol.replaceChildren(...items);
  ol.dataset.texts = JSON.stringify(texts);
  if (none) none.hidden = texts.length > 0;
  // Show the newest step; measured at the next frame, so paint() never forces a layout.
  requestAnimationFrame(() => {
    ol.scrollTop = ol.scrollHeight;
  });
}

// ---------------------------------------------------------------------------
// The computer table.

/** Page settings from the address: ?delay=MS (computer's pace), ?seed=N (repeatable deals). */
export function settings(search = location.search) {
  const params = new URLSearchParams(search);
  const delayText = params.get("delay");
  const delay = delayText !== null && delayText.trim() !== "" && Number.isFinite(Number(delayText))
    ? Math.max(0, Number(delayText)) : 700;
  const seedText = params.get("seed");
  const seed = seedText !== null && /^-?\d+$/.test(seedText.trim()) ? Number(seedText) : null;
  return { delay, seed };
}

const CONTRAST_KEY = "pishe.highContrast";

/**
 * The computer table's controller, filled in as soon as the table starts
 * (before Python is ready):
 *   py       the worker ({call, ready}), to share with the friend's table;
 *   active   whether the computer table owns the board and its buttons;
 *   stop()   stop the computer (drops its timer and answers in flight);
 *   start()  take the board back and deal a new match against the computer.
 * stop() before Python is ready means no computer match is dealt at all.
 */
export const computerTable = { py: null, active: false, stop() {}, start() {} };

/** The high contrast switch, remembered on this device (the only thing stored). */
function setupContrast() {
  const box = document.querySelector("[data-contrast]");
  let on = false;
  try {
    on = localStorage.getItem(CONTRAST_KEY) === "on";
  } catch {
    // Storage refused (private mode): the switch still works for this visit.
  }
  document.documentElement.classList.toggle("hc", on);
  if (!box) return;
  box.checked = on;
  box.addEventListener("change", () => {
    document.documentElement.classList.toggle("hc", box.checked);
    try {
      if (box.checked) localStorage.setItem(CONTRAST_KEY, "on");
      else localStorage.removeItem(CONTRAST_KEY);
    } catch {
      // Not remembered, but applied.
    }
  });
}

async function startComputerTable() {
  setupContrast();
  const { delay, seed } = settings();
  const body = document.body;
  const announcer = document.querySelector("[data-announce]");
  const errorLine = document.querySelector("[data-error]");
  const loader = document.querySelector("[data-loader]");
  const progress = document.querySelector("[data-progress]");
  const progressBar = document.querySelector("[data-progress-bar]");
  const stage = document.querySelector("[data-loader-stage]");
  const newMatch = document.querySelector("[data-new-match]");
  const nextDeal = document.querySelector("[data-next-deal]");

  let generation = 0; // bumped by New match: answers and timers of an older match are dropped
  let pending = 0; // calls in flight
  let timer = null;
  let ready = false;
  let computerMoves = false;
  let lastTurn; // whose turn the last painted view said (for the "Your turn." announcement)
  let active = true; // false while another controller (a friend's table) owns the board

  function setIdle() {
    if (!active) return;
    body.dataset.idle = String(ready && pending === 0 && timer === null && !computerMoves);
  }

  function announce(steps) {
    if (!announcer) return;
    for (const step of list(steps)) {
      const p = document.createElement("p");
      p.textContent = text(step);
      announcer.append(p);
    }
    while (announcer.childElementCount > 40) announcer.firstElementChild.remove();
  }

  function showError(message) {
    setText(errorLine, message);
  }

  const py = startWorker((fraction, label) => {
    if (fraction && typeof fraction === "object") ({ progress: fraction, stage: label } = fraction);
    const pct = Math.round(Math.max(0, Math.min(1, Number(fraction) || 0)) * 100);
    progress.setAttribute("aria-valuenow", String(pct));
    progressBar.style.transform = `scaleX(${pct / 100})`;
    if (label) setText(stage, `${label}…`);
  });

  function receive(answer, gen) {
    if (gen !== generation || !active) return;
    if (!answer || answer.error) {
      showError(answer ? answer.error : "No answer from the game.");
      return;
    }
    showError("");
    const view = answer.view || {};
    // Say so when the turn comes (back) to you: the steps alone do not.
    const yourTurn = view.turn === view.seat && (lastTurn === undefined || lastTurn !== view.turn);
    lastTurn = view.turn;
    announce(yourTurn ? [...list(answer.steps), "Your turn."] : answer.steps);
    paint(view, { names: COMPUTER_NAMES });
    computerMoves = Boolean(answer.computer_moves);
    if (computerMoves) {
      timer = setTimeout(() => {
        timer = null;
        send("computer_step");
      }, delay);
    }
  }

  async function send(name, ...args) {
    const gen = generation;
    pending += 1;
    setIdle();
    try {
      receive(await py.call(name, ...args), gen);
    } catch (err) {
      if (gen === generation) showError(err.message || String(err));
    } finally {
      pending -= 1;
      setIdle();
    }
  }

  function chosenLength() {
    const checked = document.querySelector('input[name="length"]:checked');
    return checked ? checked.value : "one-deal";
  }

  function startMatch() {
    active = true;
    generation += 1;
    lastTurn = undefined;
    clearTimeout(timer);
    timer = null;
    computerMoves = false;
    return send("new_match", chosenLength(), seed);
  }

  function usable(button) {
    return ready && active && button && !button.hidden && button.getAttribute("aria-disabled") !== "true";
  }

  // One call at a time from your buttons: a second click before the answer is
  // painted would act on a view you have not seen.
  for (const button of document.querySelectorAll("[data-action]")) {
    button.addEventListener("click", () => {
      if (usable(button) && pending === 0) send("act", button.dataset.action);
    });
  }
  nextDeal.addEventListener("click", async () => {
    if (!usable(nextDeal) || pending !== 0) return;
    const hadFocus = document.activeElement === nextDeal;
    await send("next_deal");
    // The button hides once the deal is dealt: keep the keyboard on the table.
    if (hadFocus && nextDeal.hidden) document.querySelector('[data-action="turn"]').focus();
  });
  newMatch.addEventListener("click", () => {
    if (usable(newMatch)) startMatch();
  });

  const shortcuts = new Map();
  for (const button of document.querySelectorAll("[aria-keyshortcuts]")) {
    shortcuts.set(button.getAttribute("aria-keyshortcuts").toLowerCase(), button);
  }
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
    const target = event.target;
    if (target && (target.isContentEditable || /^(TEXTAREA|SELECT)$/.test(target.tagName) ||
        (target.tagName === "INPUT" && !/^(radio|checkbox)$/.test(target.type)))) return;
    const button = shortcuts.get(event.key.toLowerCase());
    if (!button) return;
    event.preventDefault();
    // The keys work on a friend's table too: its controller listens to the same buttons.
    if (ready && !button.hidden && button.getAttribute("aria-disabled") !== "true") button.click();
  });

  computerTable.py = py;
  Object.defineProperty(computerTable, "active", { get: () => active, enumerable: true });
  computerTable.stop = () => {
    active = false;
    generation += 1;
    clearTimeout(timer);
    timer = null;
    computerMoves = false;
    lastTurn = undefined;
  };
  computerTable.start = () => {
    if (!ready) {
      active = true; // dealt once Python is ready
      return Promise.resolve();
    }
    return startMatch();
  };

  setIdle();
  try {
    await py.ready;
  } catch (err) {
    setText(stage, `The game could not start: ${err.message || err}`);
    loader.classList.add("failed");
    return;
  }
  ready = true;
  newMatch.setAttribute("aria-disabled", "false");
  if (active) await startMatch();
  loader.hidden = true;
  body.dataset.ready = "true";
  setIdle();
  registerOffline({
    onUpdate: () => {
      document.querySelector("[data-update]").hidden = false;
    },
  });
  // For developers and tests: the worker's calls, e.g. pishe.call("current").
  window.pishe = { call: py.call, paint, settings: { delay, seed } };
}

if (document.body && document.body.dataset.table === "computer") startComputerTable();
