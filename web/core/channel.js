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
//   {link, port, to, receive}   the same for a link whose messages the page carries
//       another way (through the relays: web/tables/friend/relaypath.js): a MessagePort
//       (transferred), read and written as a channel (portChannel)
// Worker -> page:
//   {link, open: true} / {link, closed: true}   the channel opened / closed
//   {link, result} / {link, error}              Python's answer to a message received
//                                               (its messages already sent)

const links = new Map(); // link number -> {channel, to}: each seat's newest channel

/**
 * A MessagePort as a data channel: the page posts {open: true}, {closed: true} and
 * {text} (a message received), and takes each text sent.
 */
function portChannel(port) {
  const channel = {
    readyState: "connecting",
    onopen: null,
    onclose: null,
    onmessage: null,
    send: (text) => port.postMessage(String(text)),
  };
  port.onmessage = ({ data }) => {
    if (!data || typeof data !== "object") return;
    if (data.open && channel.readyState === "connecting") {
      channel.readyState = "open";
      if (channel.onopen) channel.onopen();
    } else if (data.closed && channel.readyState !== "closed") {
      channel.readyState = "closed";
      port.close();
      if (channel.onclose) channel.onclose();
    } else if (typeof data.text === "string" && channel.onmessage) {
      channel.onmessage({ data: data.text });
    }
  };
  return channel;
}

/**
 * Read the channel of a page's link, which replaces any older one to the same seat
 * (whose messages are ignored from now on, as the page ignores that link): `run(name,
 * args)` calls Python (and sends what its answer says to send), resolving with
 * {result} or {error}.
 */
export function attach({ link, channel: given, port, to, receive }, run) {
  const channel = given || portChannel(port);
  for (const [number, old] of links) if (old.to === to) links.delete(number);
  links.set(link, { channel, to });
  const [name, ...args] = receive;
  // A link carried another way from now on keeps its number: its old channel says nothing more.
  const current = () => links.has(link) && links.get(link).channel === channel;
  channel.onopen = () => current() && self.postMessage({ link, open: true });
  channel.onclose = () => {
    if (!current()) return;
    links.delete(link);
    self.postMessage({ link, closed: true });
  };
  channel.onmessage = async ({ data }) => {
    if (current()) self.postMessage({ link, ...(await run(name, [String(data), ...args])) });
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
