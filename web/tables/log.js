// The page's live region (role="log"): the lines a table says as it goes (the steps, the
// news of a deal, the status when the turn comes to you), the newest 40.
//
// Each line is kept with its data, as Python made it (an answer's `said`: the step as this
// seat was shown it, the view a status is about, a message and its values; see
// pishe/table/said.py), so that after a switch of language Python says every line again
// in the new one (sayAgain), and a restored match shows the lines it had said.

import { list, text } from "../text.js";

const KEPT = 40;
const data = new WeakMap(); // line node -> its data

function region() {
  return document.querySelector("[data-announce]");
}

function add(log, line, said) {
  const p = document.createElement("p");
  p.textContent = text(line);
  if (said !== undefined) data.set(p, said);
  log.append(p);
}

/**
 * Say `lines` (texts) in the live region, each kept with its data (`said`, the same order;
 * a line without data is said again as it is).
 */
export function announce(lines, said = []) {
  const log = region();
  if (!log) return;
  const kept = list(said);
  log.setAttribute("aria-live", "polite"); // speaking again after restoreLines
  list(lines).forEach((line, n) => add(log, line, kept[n]));
  while (log.childElementCount > KEPT) log.firstElementChild.remove();
}

/** The data of a status line: what `view` (made with the seats' names `names`) says of itself. */
export function statusLine(view, names) {
  return { about: "status", game: view.game, view, names: names === undefined ? null : names };
}

/** The lines said so far, as `[text, data]` pairs, oldest first (kept with a match in the tab). */
export function saidLines() {
  const log = region();
  return log ? [...log.children].map((p) => [p.textContent, data.has(p) ? data.get(p) : p.textContent]) : [];
}

/**
 * Put back the lines `saidLines()` gave (a restored match), without announcing them again:
 * the region is silent until the next line is said.
 */
export function restoreLines(pairs) {
  const log = region();
  if (!log) return;
  log.setAttribute("aria-live", "off");
  log.replaceChildren();
  for (const pair of list(pairs).slice(-KEPT)) if (Array.isArray(pair)) add(log, pair[0], pair[1]);
}

/** Say every line again in the page's language now (Python's is set: web/tables/words.js). */
export async function sayAgain(py) {
  const log = region();
  const lines = log ? [...log.children] : [];
  if (!lines.length) return;
  const answer = await py.call("say_again", lines.map((p) => (data.has(p) ? data.get(p) : p.textContent)));
  list(answer && answer.lines).forEach((line, n) => {
    if (typeof line === "string" && lines[n].isConnected) lines[n].textContent = line;
  });
}
