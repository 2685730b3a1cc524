"""The friend's table's pipeline with no Python in it: the floor our own code stands on.

bench/friend.py calls measure() after its own figures, in the same browser, so the
two compare within one run. Two pages in two browser contexts, as the guest's and
the host's, each with a negotiated data channel moved to a worker in the task that
makes it (as web/core/rtc.js and web/core/channel.js do). A click on the guest's
button posts to its worker, which sends a move-sized text; the host's worker answers
at once with a view-sized one; the guest's worker posts that to its page, which
writes it into the page. Measured from the click to the end of that write: the same
hops as a give's round trip (guest page -> guest worker -> channel -> host worker ->
channel -> guest worker -> guest page), without Python's work or a paint's.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import build

# The sizes of a give's messages late in a deal: the guest's move, the host's view.
MOVE_CHARS, VIEW_CHARS = 60, 5_700

PAGE = """<!doctype html><meta charset="utf-8"><title>bare channel</title>
<button type="button" id="move">Give</button><output id="out"></output>
<script type="module">
const pc = new RTCPeerConnection({ iceServers: [] });
const worker = new Worker("worker.js");
const channel = pc.createDataChannel("bare", { negotiated: true, id: 0, ordered: true });
worker.postMessage({ channel, role: location.hash.slice(1) }, [channel]);
const out = document.getElementById("out");
window.__bare = { open: false, times: [], firstTask: [], start: null, done: null };
worker.onmessage = ({ data }) => {
  const b = window.__bare;
  if (data.open) { b.open = true; return; }
  out.textContent = data.view.length;
  const took = performance.now() - b.start;
  b.times.push(took);
  if (b.done) b.done(took);
};
document.getElementById("move").addEventListener("click", () => {
  const b = window.__bare, start = performance.now();
  b.start = start;
  setTimeout(() => b.firstTask.push(performance.now() - start), 0);
  worker.postMessage({ send: "m".repeat(%(move)d) });
});
async function gathered() {
  if (pc.iceGatheringState !== "complete") {
    await new Promise((resolve) => pc.addEventListener("icegatheringstatechange",
      () => pc.iceGatheringState === "complete" && resolve()));
  }
  return pc.localDescription.sdp;
}
window.offer = async () => { await pc.setLocalDescription(await pc.createOffer()); return gathered(); };
window.answer = async (sdp) => {
  await pc.setRemoteDescription({ type: "offer", sdp });
  await pc.setLocalDescription(await pc.createAnswer());
  return gathered();
};
window.accept = (sdp) => pc.setRemoteDescription({ type: "answer", sdp });
// In-page: n moves by button.click(), each `pause` ms after the last one's answer.
window.play = async (n, pause) => {
  const b = window.__bare, times = [];
  for (let i = 0; i < n; i++) {
    const answered = new Promise((resolve) => { b.done = resolve; });
    document.getElementById("move").click();
    times.push(await answered);
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
  b.done = null;
  return times;
};
</script>
"""

WORKER = """let channel = null, role = null;
self.onmessage = ({ data }) => {
  if (data.channel) {
    ({ channel, role } = data);
    channel.onopen = () => self.postMessage({ open: true });
    channel.onmessage = ({ data: text }) => {
      if (role === "host") channel.send("v".repeat(%(view)d));
      else self.postMessage({ view: String(text) });
    };
  } else if (data.send) {
    channel.send(data.send);
  }
};
"""


def measure(browser, moves: int = 200, pause_ms: int = 30) -> dict[str, list[float]]:
    """ms lists: "real clicks" (Playwright's clicks), "floor" (the guest page's first
    task after each of them), "in-page" (button.click()), over `moves` moves each."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "index.html").write_text(PAGE % {"move": MOVE_CHARS})
        (root / "worker.js").write_text(WORKER % {"view": VIEW_CHARS})
        with build.SiteServer(root) as server:
            contexts = [browser.new_context(service_workers="block") for _ in range(2)]
            try:
                host, guest = (c.new_page() for c in contexts)
                host.goto(server.url + "#host")
                guest.goto(server.url + "#guest")
                offer = guest.evaluate("offer()")
                guest.evaluate("(sdp) => accept(sdp)", host.evaluate("(sdp) => answer(sdp)", offer))
                guest.wait_for_function("window.__bare.open", timeout=30_000)
                button = guest.locator("#move")
                for i in range(moves):
                    button.click()
                    guest.wait_for_function("(n) => window.__bare.times.length > n", arg=i, timeout=10_000)
                    guest.wait_for_timeout(pause_ms)
                clicks = guest.evaluate("window.__bare")
                in_page = guest.evaluate("([n, pause]) => play(n, pause)", [moves, pause_ms])
            finally:
                for c in contexts:
                    c.close()
    return {"real clicks": clicks["times"], "floor": clicks["firstTask"], "in-page": in_page}

