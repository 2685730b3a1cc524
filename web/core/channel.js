// The data channels to other pages, read and written in the Python worker
// (worker.js imports this module). The page makes each channel (rtc.js) and
// hands it over at once; from then on a peer's message goes straight to Python
// here and Python's messages straight out, with no hop through the page's main
// thread, which after a click runs nothing until its next frame.
//
// Python sends its messages itself (send, below, is pishe.page.outbox).
//
// Page -> worker:
//   {link, channel, to, receive: [name, ...args]}   (channel transferred) the page's
//       link number; `to`, the seat at the channel's other end; each message received
//       runs pishe.web.name(text, ...args)
// Worker -> page:
//   {link, open: true} / {link, closed: true}   the channel opened / closed
//   {link, result} / {link, error}              Python's answer to a message received
//                                               (its messages already sent)

const links = new Map(); // link number -> {channel, to}: each seat's newest channel

/**
 * Read the channel of a page's link, which replaces any older one to the same seat
 * (whose messages are ignored from now on, as the page ignores that link): `run(name,
 * args)` calls Python (and sends what its answer says to send), resolving with
 * {result} or {error}.
 */
export function attach({ link, channel, to, receive }, run) {
  for (const [number, old] of links) if (old.to === to) links.delete(number);
  links.set(link, { channel, to });
  const [name, ...args] = receive;
  channel.onopen = () => self.postMessage({ link, open: true });
  channel.onclose = () => {
    links.delete(link);
    self.postMessage({ link, closed: true });
  };
  channel.onmessage = async ({ data }) => {
    if (links.has(link)) self.postMessage({ link, ...(await run(name, [String(data), ...args])) });
  };
}

/**
 * Send `text` on the channel to seat `to` (the host's; 0 on a guest's page, its one
 * channel, to its host), if that channel is open. Python calls it (pishe.page.outbox)
 * as soon as a call has made a message, before it builds the rest of its answer.
 */
export function send(to, text) {
  const seat = [...links.values()].find((l) => l.to === to);
  if (seat && seat.channel.readyState === "open") seat.channel.send(String(text));
}
