// Trying again, later each time. A page's answer or knock goes to the other page as one
// ephemeral event through the relays: a relay slow to take it (a busy phone, a busy
// relay), or another page not listening at that moment (public relays keep no ephemeral
// event; a socket that reconnects misses what came meanwhile), and it is lost. So a page
// posts it again until the other page answers or the tries run out. No network and no
// page here, so that tests/test_relay_frames.py runs it in Node with its own clock.

/** Waits of `tries` tries, ms: `first`, then twice as long each time. */
export function backoff(first, tries) {
  return Array.from({ length: tries }, (_, n) => first * 2 ** n);
}

/**
 * Call `attempt(n)` (n = 0, 1, …) now, and again after each wait of `waits` while it
 * resolves false (or throws); stop once it resolves true or stop() is called. When the
 * wait after the last try runs out unanswered, `onGiveUp()`. `timers` ({setTimeout,
 * clearTimeout}): the page's, or a test's clock. Returns {stop()}.
 */
export function retry(attempt, { waits, onGiveUp = () => {}, timers = globalThis }) {
  let stopped = false;
  let timer = null;
  const run = async (n) => {
    let done = false;
    try {
      done = await attempt(n);
    } catch (err) {
      console.warn("a try failed:", err);
    }
    if (stopped || done) return;
    timer = timers.setTimeout(() => {
      timer = null;
      if (stopped) return;
      if (n + 1 < waits.length) run(n + 1);
      else {
        stopped = true;
        onGiveUp();
      }
    }, waits[n]);
  };
  run(0);
  return {
    stop() {
      stopped = true;
      if (timer !== null) timers.clearTimeout(timer);
      timer = null;
    },
  };
}
