// Keyboard shortcuts: a key presses the visible button that declares it in
// aria-keyshortcuts (T, G, K, D, N), on whichever table shows it. The
// "Single-key shortcuts" switch turns them all off (WCAG 2.1.4) for this visit:
// only high contrast is stored. Off, the buttons stop declaring them, so
// assistive technology does not announce keys that do nothing.
//
// Arrow keys move the focus among the buttons of a [data-arrows] group (your hand,
// a row of moves), Home and End to its ends; a group marked data-arrows="rove" is one
// stop of the Tab order (roving tabindex), so a card to the left is an arrow away.

/** Declare the shortcuts on their buttons (on) or keep them aside in data-keyshortcuts (off). */
function declare(on) {
  for (const button of document.querySelectorAll(on ? "[data-keyshortcuts]" : "[aria-keyshortcuts]")) {
    if (on) {
      button.setAttribute("aria-keyshortcuts", button.dataset.keyshortcuts);
      delete button.dataset.keyshortcuts;
    } else {
      button.dataset.keyshortcuts = button.getAttribute("aria-keyshortcuts");
      button.removeAttribute("aria-keyshortcuts");
    }
  }
  document.documentElement.classList.toggle("no-shortcuts", !on);
}

const ARROWS = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 };

function buttonsOf(group) {
  return [...group.querySelectorAll("button")].filter((b) => !b.hidden && b.getClientRects().length > 0);
}

/**
 * Keep a roving group's Tab stop on one button: the focused one, else the first enabled,
 * else the first. A group left with no button holds the focus itself (tabindex -1), so
 * it never falls to the page's body; its next button takes it back.
 */
export function rove(group) {
  const buttons = [...group.querySelectorAll("button")];
  const focused = buttons.find((b) => b === document.activeElement);
  const stop = focused || buttons.find((b) => b.getAttribute("aria-disabled") !== "true") || buttons[0];
  for (const button of buttons) button.tabIndex = button === stop ? 0 : -1;
  group.tabIndex = -1;
  if (document.activeElement === group && stop) stop.focus();
}

/** An arrow, Home or End key inside a [data-arrows] group moves the focus within it. */
function moveInGroup(event) {
  const group = event.target instanceof Element ? event.target.closest("[data-arrows]") : null;
  if (!group || event.ctrlKey || event.metaKey || event.altKey) return;
  const buttons = buttonsOf(group);
  if (buttons.length === 0) return;
  const at = buttons.indexOf(event.target);
  let next;
  if (event.key === "Home") next = 0;
  else if (event.key === "End") next = buttons.length - 1;
  else if (event.key in ARROWS) next = at < 0 ? 0 : Math.max(0, Math.min(buttons.length - 1, at + ARROWS[event.key]));
  else return;
  event.preventDefault();
  buttons[next].focus();
  if (group.dataset.arrows === "rove") rove(group);
}

/** Listen for shortcut keys once `isReady()` says the page can take them, and follow the switch. */
export function setupKeys(isReady) {
  const box = document.querySelector("[data-shortcuts]");
  if (box) {
    declare(box.checked);
    box.addEventListener("change", () => declare(box.checked));
  }
  document.addEventListener("keydown", moveInGroup);
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.repeat || !isReady()) return;
    if (document.querySelector("dialog[open]")) return; // a question waits for its answer
    const target = event.target;
    if (target && (target.isContentEditable || /^(TEXTAREA|SELECT)$/.test(target.tagName) ||
        (target.tagName === "INPUT" && !/^(radio|checkbox)$/.test(target.type)))) return;
    const key = event.key.toLowerCase();
    const button = [...document.querySelectorAll("[aria-keyshortcuts]")].find((b) =>
      b.getAttribute("aria-keyshortcuts").toLowerCase() === key && b.getClientRects().length > 0);
    if (!button) return;
    event.preventDefault();
    if (button.getAttribute("aria-disabled") !== "true") button.click();
  });
}
