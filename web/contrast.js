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
  if (!box) return;
  box.checked = on;
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
