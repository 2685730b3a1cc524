// The game the page opens on, shown from the first paint: its table, settings and rules (every
// [data-for-game]), its radio in the game choice and its tab title, put in place by
// web/first-paint.js at the end of <body>, before the browser shows it, and again by the
// computer's table (web/tables/computer.js) whenever the game changes. A classic script, so it
// runs before any module; a page opened on a friend's invite shows the invited game instead
// (web/core/invited.js).
(() => {
  /** Where this browser remembers the game last played (web/tables/settings.js writes it). */
  const GAME_KEY = "pishe.game";

  /** The game choice's radio of `game` (a game id; null for a game the page has no table of). */
  const radioOf = (game) => (game ? document.querySelector(`input[name="game"][value="${CSS.escape(game)}"]`) : null);

  /**
   * The game the page opens on: the one its address names (?game=pisti), else the one last
   * played in this browser, else the first whose settings box names the page's language
   * as its home (data-first-for="tr": a Turkish page opens on Pişti), else the first game.
   */
  function opening(search = location.search) {
    const named = new URLSearchParams(search).get("game");
    if (radioOf(named)) return named;
    let last = null;
    try {
      last = localStorage.getItem(GAME_KEY);
    } catch {
      // Storage refused: nothing remembered.
    }
    if (radioOf(last)) return last;
    const lang = document.documentElement.lang;
    const home = [...document.querySelectorAll("[data-settings][data-first-for]")]
      .find((box) => box.dataset.firstFor.split(/\s+/).includes(lang));
    const first = document.querySelector('input[name="game"]');
    return home ? home.dataset.settings : first && first.value;
  }

  /** Show `game`'s table, settings and rules and hide the other games'; its title on the tab
   *  (in the page's language: web/first-words.js). */
  function show(game) {
    for (const node of document.querySelectorAll("[data-for-game]")) node.hidden = node.dataset.forGame !== game;
    const radio = radioOf(game);
    if (radio && radio.dataset.title) document.title = self.pisheFirstWords.title(radio.dataset.title);
  }

  self.pisheFirstGame = {
    GAME_KEY, opening, show,
    /** The end of <body>: the game the page opens on chosen and shown (not on an invite's page). */
    first() {
      if (document.documentElement.dataset.invited) return;
      const game = opening();
      const radio = radioOf(game);
      if (radio) radio.checked = true;
      show(game);
    },
  };
})();
