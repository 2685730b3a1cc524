// The way in to a friends' table, loaded with the page. The table itself (./friend/table.js
// and what it imports, the worker's no-peek arithmetic, and its Python: build.py's friends'
// zip) is fetched only when one opens: "Invite a friend" pressed, an invite link opened (or
// come to by the address's fragment changing), a tab that was at a friends' table reloaded.
// A first visit downloads none of it; the service worker keeps it once fetched. A friends'
// table needs the network anyway: when its code cannot be had (offline, in a browser that
// never opened one), the page says so in Python's words, and the next try fetches it again.

import { computerTable } from "./computer.js";
import { say } from "./words.js";
import { HOST_KEY, JOIN } from "./friend-keys.js";

const invite = document.querySelector("[data-invite]");
const failed = document.querySelector("[data-friends-failed]");

let table = null; // a promise of the friends' table's controller, started (null until asked, or if it failed)

/** The friends' table's controller, imported and started on first use. */
function friendsTable() {
  if (!table) {
    table = import("./friend/table.js").then((controller) => {
      controller.start();
      return controller;
    });
    table.then(() => say(failed, null), (err) => {
      console.warn("the friends' table could not be loaded:", err);
      table = null;
      say(failed, "friends_unreachable");
    });
  }
  return table;
}

function keptHostTable() {
  try {
    return Boolean(sessionStorage.getItem(HOST_KEY));
  } catch {
    return false;
  }
}

function start() {
  if (!invite || !computerTable.py) return;
  // Inviting ends the computer's match: asked first while one is in progress.
  invite.addEventListener("click", async () => {
    if (invite.getAttribute("aria-disabled") === "true" || !(await computerTable.confirmLeave("invite"))) return;
    const controller = await friendsTable().catch(() => null);
    if (controller) controller.openTable();
  });
  // Once loaded, the friends' table follows the address itself.
  window.addEventListener("hashchange", () => {
    if (!table && location.hash.startsWith(JOIN)) friendsTable();
  });
  if (location.hash.startsWith(JOIN) || keptHostTable()) friendsTable();
  computerTable.py.ready.then(
    () => invite.setAttribute("aria-disabled", "false"),
    () => {},
  );
}

start();
