// Keyboard shortcuts: a key presses the visible button that declares it in
// aria-keyshortcuts (T, G, K, D, N), on whichever table shows it.

/** Listen for shortcut keys once `isReady()` says the page can take them. */
export function setupKeys(isReady) {
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey || event.repeat || !isReady()) return;
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
