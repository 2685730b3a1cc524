// Yardstick page for bench/boot.py: start the bare worker and mark the body
// ready (the same signal the table gives) when Python has answered.
const worker = new Worker(new URL("./boot_bare_worker.js", import.meta.url), { type: "module" });
worker.onmessage = ({ data }) => {
  document.querySelector("p").textContent = `Python answered ${data}`;
  document.body.dataset.ready = "true";
};
