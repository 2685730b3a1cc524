// What a connection to another page is, said beside it: its path (direct, through a
// TURN server) and a live round-trip figure, read from the link's selected candidate
// pair every few seconds while it is open (web/core/rtc.js: Link.route). The words are
// Python's, by key (pishe/table/words.py: path_*), through ../words.js.

import { say } from "../words.js";

const EVERY_MS = 2000;
const PATHS = { direct: "path_direct", turn: "path_turn", relays: "path_relays" };

/** Say `route` ({path, rtt} or null for nothing) in `node`. */
export function sayRoute(node, route) {
  if (!node) return;
  node.hidden = !route;
  if (!route) {
    say(node, null);
    return;
  }
  node.dataset.path = route.path;
  const path = { word: PATHS[route.path] };
  if (Number.isFinite(route.rtt)) say(node, "path_line", { path, ms: String(route.rtt) });
  else say(node, PATHS[route.path]);
}

/** Keep `node` saying `link`'s route while it is open; returns stop() (which empties it). */
export function watchRoute(link, node) {
  let stopped = false;
  let timer = null;
  const look = async () => {
    timer = null;
    if (stopped || !link.open) return;
    let route = null;
    try {
      route = await link.route();
    } catch (err) {
      console.debug("no stats for the connection:", err);
    }
    if (stopped) return;
    if (route) sayRoute(node, route);
    timer = setTimeout(look, EVERY_MS);
  };
  look();
  return () => {
    stopped = true;
    clearTimeout(timer);
    sayRoute(node, null);
  };
}
