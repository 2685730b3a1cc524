// The games the page can paint: a game id (a view's `game` field) -> its
// painter module, imported the first time that game is shown.
//
// A painter module exports paint(view, root) -> milliseconds: it redraws the
// game's table (root: the page's [data-pishe-table][data-game="<id>"]) from one
// view, keeping nothing from earlier views but cosmetic hints. Intents are
// forwarded by the tables' controllers: every button with data-action="<action>"
// inside root asks pishe.web.act(action); [data-next-deal] asks next_deal().

const PAINTERS = {
  "pishe-pasha": () => import("./pasha/paint.js"),
  pisti: () => import("./pisti/paint.js"),
};

/**
 * The painter module of `game`; rejects for a game the page does not know, with
 * the key of the page's sentence for it (`word`, `values`: see web/tables/words.js).
 */
export function painter(game) {
  const load = Object.hasOwn(PAINTERS, game) ? PAINTERS[game] : null;
  if (load) return load();
  const err = new Error(`unknown game ${JSON.stringify(game)}`);
  err.word = "unknown_game";
  err.values = { game: JSON.stringify(game) };
  return Promise.reject(err);
}

/** The page's table for `game` (its markup is in index.html). */
export function tableOf(game) {
  return document.querySelector(`[data-pishe-table][data-game="${CSS.escape(game)}"]`);
}
