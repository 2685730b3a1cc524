// When a link's WebRTC connection is given up for the relays (relaypath.js). No network
// and no page here, so that tests/test_relay_frames.py runs it in Node with its own clock.
//
// Each page decides for itself, from what it knows: a host once it has its friend's
// answer, a guest as soon as it has made its answer, whether or not a relay said it
// took the post (a post whose acknowledgement never came may still have reached the
// host, which then carries the link through the relays and waits there for this page).

/**
 * Carry `link` ({open, ended, carrier, pathFound, onfail}) another way if no WebRTC path
 * opens: when its ICE fails (link.onfail), at once when `noCandidates` (a code names no
 * candidate: no path can open), and, with `waitMs`, once that long has passed with no
 * path found (never while one is found: its channel's news is on its way). `carry()`
 * resolves whether the other way took the link; `again()` when it is tried (the time to
 * connect starts again), `noPath()` when it could not be. A link carried stays so: the
 * page keeps listening there for the other page however long it takes. `timers`
 * ({setTimeout, clearTimeout}): the page's, or a test's clock. Returns stop(), which
 * ends the wait only.
 */
export function watchPath(link, { noCandidates, waitMs = null, carry, again, noPath, timers = globalThis }) {
  let timer = null;
  const wait = () => {
    if (waitMs !== null) timer = timers.setTimeout(() => fall(), waitMs);
  };
  const fall = async (iceFailed = false) => {
    timers.clearTimeout(timer);
    timer = null;
    if (link.open || link.ended || link.carrier || link.fallingBack) return;
    if (!iceFailed && link.pathFound) {
      wait();
      return;
    }
    link.fallingBack = true;
    again();
    const carried = await Promise.resolve().then(carry).catch((err) => {
      console.warn("the relays cannot carry the table:", err);
      return false;
    });
    if (!carried && !link.open && !link.ended) noPath();
  };
  link.onfail = () => {
    fall(true);
    return true;
  };
  if (noCandidates) fall();
  else wait();
  return () => timers.clearTimeout(timer);
}
