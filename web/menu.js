// The page's settings menu: below 1100 px the settings (high contrast, sounds, the
// computers' pace, shortcuts, the language) fold behind one button in the top bar
// (style.css decides when). The button opens and closes them; Escape, a click elsewhere,
// a chosen language or the phone's Back closes them: an open menu is a step in the tab's
// history, so that Back closes it instead of leaving the page.

/** Follow the menu button ([data-menu-toggle]) and its panel ([data-page-settings]). */
export function setupMenu() {
  const toggle = document.querySelector("[data-menu-toggle]");
  const panel = document.querySelector("[data-page-settings]");
  if (!toggle || !panel) return;
  const isOpen = () => toggle.getAttribute("aria-expanded") === "true";
  let stepped = false; // the open menu has its own history entry
  const show = (on, refocus) => {
    toggle.setAttribute("aria-expanded", String(on));
    if (!on && refocus && panel.contains(document.activeElement)) toggle.focus();
  };
  const open = (on, refocus = false) => {
    if (on === isOpen()) return;
    show(on, refocus);
    if (on) {
      history.pushState({ ...history.state, menu: true }, "");
      stepped = true;
    } else if (stepped) {
      stepped = false;
      history.back(); // the menu's entry goes: Back then leaves the page, as it would have
    }
  };
  addEventListener("popstate", () => {
    if (!stepped) return;
    stepped = false; // Back took the menu's entry away
    show(false, true);
  });
  toggle.addEventListener("click", () => open(!isOpen()));
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && isOpen()) open(false, true);
  });
  document.addEventListener("click", (event) => {
    if (!toggle.contains(event.target) && !panel.contains(event.target)) open(false);
  });
  panel.querySelector("[data-language]")?.addEventListener("change", () => open(false, true));
}
