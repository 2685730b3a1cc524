// Starts the Python worker as early as the page can: a classic async script in
// index.html's <head> runs as soon as it arrives, long before the page's modules
// (boot.js) have loaded, and Python's start-up is most of the wait for a table.
// boot.js's startWorker() takes this worker and the messages it sent meanwhile;
// whichever of the two runs first claims `pisheWorker`, so there is one worker.
if (!self.pisheWorker) {
  const worker = new Worker(new URL("worker.js", document.currentScript.src), { type: "module" });
  const early = [];
  worker.onmessage = (event) => early.push(event);
  worker.onerror = (event) => {
    event.preventDefault(); // boot.js reports it
    early.push(event);
  };
  self.pisheWorker = { worker, early };
}
