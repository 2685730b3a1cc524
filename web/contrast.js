// The high contrast switch, remembered on this device: the only thing the page stores.

const KEY = "pishe.highContrast";

/** Apply the remembered choice and follow the switch ([data-contrast]). */
export function setupContrast() {
  const box = document.querySelector("[data-contrast]");
  let on = false;
  try {
    on = localStorage.getItem(KEY) === "on";
  } catch {
    // Storage refused (private mode): the switch still works for this visit.
  }
  document.documentElement.classList.toggle("hc", on);
  if (box) box.checked = on;
  // Switched in another open tab of this page: follow it here too.
  addEventListener("storage", (event) => {
    if (event.key !== KEY && event.key !== null) return;
    const now = event.newValue === "on";
    document.documentElement.classList.toggle("hc", now);
    if (box) box.checked = now;
  });
  if (!box) return;
  box.addEventListener("change", () => {
    document.documentElement.classList.toggle("hc", box.checked);
    try {
      if (box.checked) localStorage.setItem(KEY, "on");
      else localStorage.removeItem(KEY);
    } catch {
      // Not remembered, but applied.
    }
  });
}
