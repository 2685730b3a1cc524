// Keyboard shortcuts: a key presses the visible button that declares it in
// aria-keyshortcuts (T, G, K, D, N), on whichever table shows it. The
// "Single-key shortcuts" switch turns them all off (WCAG 2.1.4) for this visit:
// only high contrast is stored. Off, the buttons stop declaring them, so
// assistive technology does not announce keys that do nothing.

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

/** Listen for shortcut keys once `isReady()` says the page can take them, and follow the switch. */
export function setupKeys(isReady) {
  const box = document.querySelector("[data-shortcuts]");
  if (box) {
    declare(box.checked);
    box.addEventListener("change", () => declare(box.checked));
  }
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
