// The page's settings menu: below 1100 px the settings (high contrast, shortcuts, the
// language) fold behind one button in the top bar (style.css decides when). The button
// opens and closes them; Escape, a click elsewhere or a chosen language closes them.

/** Follow the menu button ([data-menu-toggle]) and its panel ([data-page-settings]). */
export function setupMenu() {
  const toggle = document.querySelector("[data-menu-toggle]");
  const panel = document.querySelector("[data-page-settings]");
  if (!toggle || !panel) return;
  const open = (on, refocus = false) => {
    toggle.setAttribute("aria-expanded", String(on));
    if (!on && refocus && panel.contains(document.activeElement)) toggle.focus();
  };
  toggle.addEventListener("click", () => open(toggle.getAttribute("aria-expanded") !== "true"));
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && toggle.getAttribute("aria-expanded") === "true") open(false, true);
  });
  document.addEventListener("click", (event) => {
    if (!toggle.contains(event.target) && !panel.contains(event.target)) open(false);
  });
  panel.querySelector("[data-language]")?.addEventListener("change", () => open(false, true));
}
