// The page's side of the Python worker, and offline support.
//
//   const py = startWorker((progress, stage) => ...);
//   const ms = await py.ready;                 // rejects with the boot error
//   const answer = await py.call("new_match", "one deal");
//
//   registerOffline({ onUpdate })               // service worker for offline play

/**
 * Start the Python worker (web/core/worker.js).
 *
 * @param {(progress: number, stage: string, until?: number) => void} [onProgress]
 *   called at each boot milestone, and as the start-up downloads arrive, with 0..1
 *   (never going back), the loading line's words (Python's, baked in by the build) and,
 *   for a step that cannot report its progress while it runs (Python's start), where
 *   that step ends.
 * @returns {{call: (name: string, ...args: any) => Promise<any>, ready: Promise<object>, worker: Worker}}
 *   `call` runs pishe.web.<name>(...args) (JSON-able args) and resolves with the
 *   parsed JSON it returns, or rejects with an Error carrying Python's message;
 *   calls made before ready wait for it. `ready` rejects with an Error whose `why` names
 *   the cause (a key of pishe/table/words.py's START_FAILED) and `detail` is the error's
 *   own words (for a bug report), or resolves with the boot timings (each milestone of
 *   web/core/worker.js in ms since this page's navigation, and `page`: when the page
 *   heard that Python is ready) and `snapshot`: whether Python's memory was "restored"
 *   from the last start's snapshot, a snapshot "taken" for the next, or "none"
 *   (web/core/worker.js).
 *   `worker` takes data channels to read and write (web/core/channel.js).
 */
export function startWorker(onProgress) {
  // The worker web/core/start.js started from the page's <head>, if it ran first
  // (its messages so far are replayed below); taken once, so that start.js, if
  // it comes later, starts none, and another startWorker() starts its own.
  const started = self.pisheWorker && self.pisheWorker.worker ? self.pisheWorker : null;
  self.pisheWorker = { taken: true };
  const worker = started ? started.worker : new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
  const pending = new Map();
  let nextId = 1;
  let markReady, markFailed;
  const ready = new Promise((resolve, reject) => {
    markReady = resolve;
    markFailed = reject;
  });

  let failure = null; // the boot's error: every call from then on fails with it
  function fail(message, why, detail) {
    const err = Object.assign(new Error(message), { why, detail });
    failure = err;
    markFailed(err);
    for (const { reject } of pending.values()) reject(err);
    pending.clear();
  }

  worker.onmessage = ({ data }) => {
    if (data.id !== undefined) {
      const waiting = pending.get(data.id);
      pending.delete(data.id);
      if (!waiting) return;
      if ("error" in data) waiting.reject(new Error(data.error));
      else waiting.resolve(data.result);
    } else if (data.progress !== undefined) {
      if (onProgress) onProgress(data.progress, data.stage, data.until);
    } else if (data.ready) {
      // The worker's milestones on this page's clock.
      const shift = data.origin - performance.timeOrigin;
      const ms = Object.fromEntries(Object.entries(data.ms).map(([key, at]) => [key, Math.round(at + shift)]));
      markReady({ ...ms, page: Math.round(performance.now()), snapshot: data.snapshot });
    } else if (data.fatal) {
      fail(data.fatal, data.cause, data.detail);
    }
  };
  // The worker script itself failed to load (an event with no message: its file did not
  // come) or to run (this browser cannot run it as a module worker).
  worker.onerror = (event) => {
    event.preventDefault();
    const detail = event.message || "the Python worker's script did not load";
    fail(detail, event.message ? "browser" : "download", detail);
  };
  for (const event of started ? started.early : []) {
    if (event.type === "error") worker.onerror(event);
    else worker.onmessage(event);
  }

  function call(name, ...args) {
    if (failure) return Promise.reject(failure);
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, call: name, args });
    });
  }

  return { call, ready, worker };
}

/**
 * Register the service worker (dist/sw.js) so the page works offline after one
 * visit. A new deploy installs a new worker that takes over at once; the page
 * keeps running what it has loaded (no reload mid-game) and `onUpdate` is told,
 * so it may offer a reload between matches.
 *
 * @param {{onUpdate?: () => void}} [options]
 * @returns {Promise<ServiceWorkerRegistration|null>} null where unsupported or refused.
 */
export async function registerOffline({ onUpdate } = {}) {
  if (!("serviceWorker" in navigator)) return null;
  // The first install also fires controllerchange (no controller -> ours); only a
  // change from one of our workers to another is an update.
  let controlled = Boolean(navigator.serviceWorker.controller);
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (controlled && onUpdate) onUpdate();
    controlled = true;
  });
  try {
    return await navigator.serviceWorker.register(new URL("../../sw.js", import.meta.url));
  } catch (err) {
    // Offline play is a bonus: the game itself works without it.
    console.warn("offline support unavailable:", err);
    return null;
  }
}
