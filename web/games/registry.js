// The games the page can paint: a game id (a view's `game` field) -> its
// painter module, imported the first time that game is shown. The build writes
// the registered games (Python's registry: every package under pishe/games/)
// into BUILD.games, game id -> its folder under web/games/.
//
// A painter module exports paint(view, root) -> milliseconds: it redraws the
// game's table (root: the page's [data-pishe-table][data-game="<id>"]) from one
// view, keeping nothing from earlier views but cosmetic hints. Intents are
// forwarded by the tables' controllers: every button with data-action="<action>"
// inside root asks pishe.web.act(action); [data-next-deal] asks next_deal().

const BUILD = __PISHE_BUILD__; // replaced by build.py: {..., games: {id: folder}}
const FOLDERS = BUILD.games;

/** The game the page shows first (the registry's first): a friend's table waits on its table. */
export const FIRST_GAME = Object.keys(FOLDERS)[0];

/**
 * The painter module of `game`; rejects for a game the page does not know, with
 * the key of the page's sentence for it (`word`, `values`: see web/tables/words.js).
 */
export function painter(game) {
  if (typeof game === "string" && Object.hasOwn(FOLDERS, game)) return import(`./${FOLDERS[game]}/paint.js`);
  const err = new Error(`unknown game ${JSON.stringify(game)}`);
  err.word = "unknown_game";
  err.values = { game: JSON.stringify(game) };
  return Promise.reject(err);
}

/** The page's table for `game` (its markup, web/games/<folder>/table.html, is in index.html). */
export function tableOf(game) {
  return document.querySelector(`[data-pishe-table][data-game="${CSS.escape(game)}"]`);
}
