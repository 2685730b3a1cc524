// The guest's answers: each guest_* answer from Python (its messages already sent by the
// worker) painted, and what resumes the seat after a reload of this tab kept.

import { word } from "../words.js";
import {
  LEDGER_KEY, SAVED_KEY, TOKEN_KEY, call, noAnswer, queue, session, setAwaiting, store,
} from "./core.js";
import { show, showError } from "./view.js";
import { watchReveal } from "./timers.js";

/** Guest: call `name` with `args` in turn, and paint its answer. */
export function guestCall(name, ...args) {
  return queue(async () => guestAnswer(await call(name, ...args)));
}

/** A guest_* answer (its messages already sent by Python, in the worker): paint, keep what resumes the seat. */
export function guestAnswer(answer, { paintIt = true } = {}) {
  if (!answer || !("send" in answer)) {
    // A message the host should never send (or a call that could not run): nothing changed.
    setAwaiting(false);
    showError(answer ? word("refused", { reason: answer.error }) : noAnswer());
    if (session.view) show({ view: session.view, status: session.status });
    return;
  }
  if (paintIt) {
    showError(answer.error || "");
    show(answer);
  }
  keep(answer);
  const status = answer.status;
  watchReveal(status && status.awaiting_reveal ? String(status.deal) : null, () => {
    if (session.role === "guest") guestCall("guest_reveal_overdue");
  });
}

/** Keep what resumes the seat after a reload of this tab: the seat token, the ledger and Guest.save(). */
function keep(answer) {
  store(TOKEN_KEY, answer.token || null);
  if (answer.ledger) store(LEDGER_KEY, answer.ledger);
  if (answer.saved) store(SAVED_KEY, answer.saved);
}

let saveQueued = false; // a guest_saved call is queued

/** Guest: save once the view is painted (saving is most of a guest_receive's time). */
export function saveSoon() {
  if (saveQueued) return;
  saveQueued = true;
  queue(async () => {
    saveQueued = false;
    const answer = await call("guest_saved");
    if (answer && "saved" in answer) keep(answer);
  });
}
