// A friend's invite link names its game (#join=…&game=pisti). Opened, the page shows that
// game's table, its game choice, its title and the friend panel's first line ("Connecting
// to the host's table…") from the first paint, before any module or Python runs: this
// classic script runs in <head>, before <body> is parsed, and shows or hides each
// [data-for-game] element as the parser adds it (a MutationObserver's
// callback runs before the browser paints what the parser added). The friend's table
// (web/tables/friend/table.js, which web/tables/friends.js imports at once) takes over once loaded.
(() => {
  const found = location.hash.match(/^#join=[^&]*&game=([a-z][a-z0-9-]{0,30})$/);
  if (!found) return;
  const game = found[1];
  document.documentElement.dataset.invited = game; // the computer's table leaves the page to the invite
  const place = (node) => {
    if (node.dataset.forGame) node.hidden = node.dataset.forGame !== game;
    // The friend panel says at once what is happening; the computer's match panel steps aside.
    if (node.matches("[data-friend], [data-friend-first]")) node.hidden = false;
    if (node.matches("section.match")) node.hidden = true;
    if (node.matches('input[name="game"]')) {
      node.checked = node.value === game;
      if (node.checked && node.dataset.friendTitle) document.title = node.dataset.friendTitle;
    }
  };
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (node.nodeType !== Node.ELEMENT_NODE) continue;
        place(node);
        node.querySelectorAll('[data-for-game], input[name="game"], [data-friend], [data-friend-first], section.match')
          .forEach(place);
      }
    }
  });
  observer.observe(document.documentElement, { childList: true, subtree: true });
  document.addEventListener("DOMContentLoaded", () => observer.disconnect(), { once: true });
})();
