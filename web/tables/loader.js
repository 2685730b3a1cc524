// The loading line and bar while Python starts, on every game's table: each game's
// table.html carries a [data-loader] (docs/GAMES.md), so whichever table the page
// shows first (an invited friend's too) says what is happening. The computer's table
// (./computer.js) reports the worker's start here; the words are the page's.

import { setText } from "../text.js";

const loaders = () => [...document.querySelectorAll("[data-loader]")];

/** The loading line as the page first shows it (English, before any language is applied). */
export function firstStage() {
  const stage = document.querySelector("[data-loader-stage]");
  return stage ? stage.textContent : "";
}

/**
 * The bar at `fraction` (0 to 1) of the start; while a step that reports nothing runs
 * (`until` beyond `fraction`: Python's start), it eases towards `until` (style.css's .running).
 */
export function showProgress(fraction, until) {
  const pct = Math.round(Math.max(0, Math.min(1, Number(fraction) || 0)) * 100);
  const running = typeof until === "number" && until > fraction;
  for (const loader of loaders()) {
    loader.querySelector("[data-progress]").setAttribute("aria-valuenow", String(pct));
    const bar = loader.querySelector("[data-progress-bar]");
    bar.classList.toggle("running", running);
    bar.style.transform = `scaleX(${running ? Math.min(1, until) : pct / 100})`;
  }
}

/** The loading line: `line`, in the page's words. */
export function showStage(line) {
  for (const loader of loaders()) setText(loader.querySelector("[data-loader-stage]"), line);
}

/** The start failed: `line` says why, `detail` (the error's own words) only in the details. */
export function showStartFailed(line, detail) {
  for (const loader of loaders()) {
    setText(loader.querySelector("[data-loader-stage]"), line);
    const details = loader.querySelector("[data-loader-details]");
    setText(details.querySelector("[data-loader-detail]"), detail);
    details.hidden = false;
    loader.classList.add("failed");
  }
}

/** Whether the loaders still show (Python not ready yet). */
export function loading() {
  return loaders().some((loader) => !loader.hidden);
}

/** Python is ready: no loader shows. */
export function hideLoaders() {
  for (const loader of loaders()) loader.hidden = true;
}
