#!/usr/bin/env python3
"""Joining by link alone through a Nostr relay, and each path a table can take, measured
(prints figures; not a test).

    python bench/connect.py [--rounds N] [--stun URL] [--origin URL] [--chromium PATH]
                            [--moves N] [--pause MS] [--playable N]

Besides the connect rounds below: the move round trip (a move of ~100 characters
answered with ~3,000, one every --pause ms, a person's pace) on the direct data channel
and through the relay with no WebRTC path (web/tables/friend/relaypath.js at its own
default rate), side by side (target for the relay: p95 <= 500 ms); and the time to a
playable table on each path (direct, TURN, relay fallback): whole pages, the host
invites, the guest's page, open and ready, opens the link, until its first dealt view.

Each path in turn: direct (no ICE server, or --stun's), then through a real TURN
server (tests/turn.py starts coturn on 127.0.0.1; the pages forced to
iceTransportPolicy "relay"), with the TURN/direct ratio of the connect medians.

Builds the site into a temp dir, serves it on 127.0.0.1, starts a local Nostr
relay (machinery.LocalRelay; .ci/run installs it) and opens the built index.html in
two contexts of headless Chromium (the flags of tests/conftest.py), whose
signaling.json lists that relay only. Each round, with web/core/rtc.js and
web/tables/friend/relay.js as the pages load them: the host makes an offer and its
link key and listens (not timed: the link exists before the guest has it); the guest's
page is handed the invite link's text, answers the offer and posts the answer;
the host's listener takes it and accepts; both channels open.

Printed, median and p95 over the rounds (the first round, which also loads the
Nostr library on both pages, on its own line):
  connect       from the guest having the link to the host's channel open (target <= 1 s),
  and its parts: the guest's answer (ICE gathering: rtc.js waits for it, up to
  its GATHER_MS), postAnswer (until a relay's OK), the relay bringing the answer to
  the host (from the post's start), the host's accept to its channel open;
  the invite link's length for --origin (target <= 200 characters), with this
  machine's candidates (IP addresses) and with a browser's usual mDNS host names.

Measured on this 2-core machine (quiet: load 2.8 at the start, 20 rounds, no STUN
server): connect p50 41 ms, p95 51 ms (first round 142 ms: it loads the Nostr
library); the answer's ICE gathering ~10 ms, postAnswer ~20 ms, the relay to the
host ~21 ms from the answer, accept to open ~10 ms. Through coturn: connect p50
197 ms, p95 211 ms (4.9 times direct). A move's round trip: p50 2.4 ms, p95 5.4 ms
on the data channel; p50 33 ms, p95 43 ms through the relay (target p95 <= 500 ms).
A playable table from opening the link, medians of 3: 1.56 s direct, 1.95 s
through TURN, 2.91 s by the relay fallback (channel open at 0.38, 0.57, 0.74 s). The invite
link: 169 characters with IP addresses as candidates, 199 with a browser's default mDNS host names (rtc.js writes each
"<uuid>.local" in 23 characters; 237 before it did); 23 fewer each since the link
key is made from the offer code instead of travelling in the link (146 and 176).

By default the pages have no STUN server (as bench/friend.py). --stun URL gives
both pages that one (e.g. stun:10.255.255.1:3478, which never answers here), to
see what a STUN server that does not answer costs the answer's ICE gathering:
the built ice-servers.json's public server fails at once here (no DNS), which
says nothing of a network that drops its packets.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))  # machinery.py

import build  # noqa: E402
import machinery  # noqa: E402  (tests/machinery.py: the Chromium and relay the tests use)
from turn import LocalTurn, turnserver_executable  # noqa: E402  (tests/turn.py: coturn on 127.0.0.1)
from friend import FLAGS, line, percentile  # noqa: E402  (bench/friend.py)

BOOT_MS = 180_000


@contextmanager
def site_with_relay(chromium: str):
    """The site built into a temp dir and served on 127.0.0.1, a local Nostr relay and
    headless Chromium (bench/friend.py's flags, no mDNS host names): yields
    ``(server, relay, pw, browser, features)``, ``features`` Playwright's own
    --disable-features list. Exits the program when there is no nostr-relay."""
    executable = machinery.nostr_relay_executable()
    if executable is None:
        sys.exit("no nostr-relay: run .ci/run once, or set PISHE_NOSTR_RELAY")
    with tempfile.TemporaryDirectory() as tmp:
        dist = Path(tmp) / "dist"
        build.build(dist)
        relay_dir = Path(tmp) / "relay"
        relay_dir.mkdir()
        with build.SiteServer(dist) as server, machinery.LocalRelay(executable, relay_dir) as relay, \
                sync_playwright() as pw:
            features = machinery.playwright_disabled_features(pw, chromium)
            browser = pw.chromium.launch(executable_path=chromium, args=FLAGS + [
                "--disable-features=" + ",".join(dict.fromkeys(features + ["WebRtcHideLocalIpsWithMdns"]))])
            yield server, relay, pw, browser, features


def relay_page(browser, relay, init_script: str | None = None):
    """A page in a new context whose signaling.json lists the local relay alone."""
    context = browser.new_context(service_workers="block")
    context.route("**/signaling.json", lambda route: route.fulfill(json={"relays": [relay.url]}))
    if init_script:
        context.add_init_script(init_script)
    return context.new_page()

# The page's own modules, as the site serves them, and its ICE servers (none unless --stun).
MODULES = """async (stun) => {
  const load = (path) => import(new URL(path, document.baseURI).href);
  window.rtc = await load("web/core/rtc.js");
  window.relay = await load("web/tables/friend/relay.js");
  window.iceServers = stun ? [{ urls: stun }] : [];
  window.policy = "all";
  window.now = () => performance.timeOrigin + performance.now();  // comparable across pages
}"""
# The path to measure: the direct one (the ICE servers above), or a TURN server's alone.
PATH = """(turn) => {
  if (turn) { window.iceServers = turn; window.policy = "relay"; }
}"""

# Host: an offer, its link key, a listener; resolves with the invite link once a relay listens.
HOST = """async () => {
  const round = window.round = { opened: null, heard: null };
  const link = round.link = new rtc.Link(iceServers, (channel) => {
    round.channel = channel;
    channel.onopen = () => { round.opened = now(); };
  }, { iceTransportPolicy: policy });
  const offer = await link.offer();
  const key = await relay.linkKey(offer);
  await new Promise((resolve, reject) => {
    round.handle = relay.listenForAnswer({
      key, offer,
      onAnswer: (code) => { round.heard = now(); link.accept(code); },
      onState: (state) => (state === "listening" ? resolve() : reject(new Error("relay " + state))),
    });
  });
  return location.origin + location.pathname + "#join=" + offer;
}"""

# Guest: from the invite link's text to the answer posted.
GUEST = """async (invite) => {
  const start = now();
  const offer = new URL(invite).hash.slice("#join=".length);
  const key = await relay.linkKey(offer);
  relay.relayList();  // as the page will: it starts loading the Nostr library
  const link = window.guestLink = new rtc.Link(iceServers, (channel) => {
    window.guestChannel = channel;
    channel.onopen = () => link.opened();
  }, { iceTransportPolicy: policy });
  const answer = await link.answer(offer);
  const answered = now();
  const posted = await relay.postAnswer({ key, offer, answer });
  return { start, answered, postedAt: now(), posted };
}"""

# An offer code made by a browser that hides its addresses behind mDNS names.
MDNS_OFFER = """async () => {
  const { Link } = await import(new URL("web/core/rtc.js", document.baseURI).href);
  const link = new Link([], () => {});
  const code = await link.offer();
  link.close();
  return code;
}"""


# A move and its answer: the guest sends a move (~100 characters, as an intent is) on its
# channel and waits for the host's answer (a view, ~3,000 characters), `count` times, a
# pause between (a person's pace); returns each round trip in ms. `kind`: "rtc" (the data
# channel of the last round) or "relays" (the channels of RELAYS).
ECHO = """(kind) => {
  const view = "v".repeat(3000);
  if (kind === "rtc") round.channel.onmessage = ({ data }) => round.channel.send(data + view);
  else hostRelay.onmessage = (text) => hostRelay.send(text + view);
}"""
MOVES = """async ([kind, count, pause]) => {
  const channel = kind === "rtc" ? guestChannel : guestRelay;
  const times = [];
  for (let i = 0; i < count; i += 1) {
    const answered = new Promise((resolve) => { channel.onmessage = resolve; });
    const start = now();
    channel.send(JSON.stringify({ v: 3, type: "act", seq: i, action: "give" }).padEnd(100));
    await answered;
    times.push(now() - start);
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
  return times;
}"""
# Both pages' channels through the relays for one link (web/tables/friend/relaypath.js):
# started on each page, then awaited (each opens once the other's is there).
RELAYS = """([side, key, offer]) => {
  window.relayOpen = (async () => {
    const paths = await import(new URL("web/tables/friend/relaypath.js", document.baseURI).href);
    const channel = await paths.relayChannel({ key, offer, side });
    window[side === "host" ? "hostRelay" : "guestRelay"] = channel;
    const start = now();
    await new Promise((resolve) => { channel.onopen = resolve; });
    return now() - start;
  })();
}"""


def moves(host, guest, kind: str, count: int, pause: int) -> list[float]:
    host.evaluate(ECHO, kind)
    return guest.evaluate(MOVES, [kind, count, pause])


def one_round(host, guest, moves_too: tuple[int, int] | None = None) -> dict:
    invite = host.evaluate(HOST)
    out = guest.evaluate(GUEST, invite)
    if not out["posted"]:
        raise RuntimeError("no relay took the answer")
    host.wait_for_function("round.opened !== null", timeout=30_000)
    guest.wait_for_function("guestLink.open", timeout=30_000)
    times = host.evaluate("({opened: round.opened, heard: round.heard})")
    played = moves(host, guest, "rtc", *moves_too) if moves_too else []
    host.evaluate("round.handle.close(); round.link.close()")
    guest.evaluate("guestLink.close()")
    return {
        "invite": invite,
        "connect": times["opened"] - out["start"],
        "answer": out["answered"] - out["start"],
        "post": out["postedAt"] - out["answered"],
        "delivery": times["heard"] - out["answered"],
        "open": times["opened"] - times["heard"],
        "moves": played,
    }


def answering(answer):
    """A route handler that answers with the JSON `answer`."""
    return lambda route: route.fulfill(json=answer)


def progress(text: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


def paths(turn_config: dict | None) -> dict:
    """Each path's ice-servers.json: direct, through TURN (if coturn runs), and none that can
    work (no candidate: the table falls back to the relays)."""
    out = {"direct": {"iceServers": []}}
    if turn_config:
        out["TURN"] = turn_config
    out["relay fallback"] = {"iceServers": [], "iceTransportPolicy": "relay"}
    return out


def time_to_play(browser, server, relay, ice: dict) -> dict:
    """One table page to page on the path `ice` gives: the host invites, the guest's page, open
    and ready, opens the link; ms from then to its channel open and to its first dealt view."""
    contexts = []
    try:
        pages = []
        for _ in range(2):
            context = browser.new_context(service_workers="block")
            for glob, answer in (("**/signaling.json", {"relays": [relay.url]}), ("**/ice-servers.json", ice)):
                context.route(glob, answering(answer))
            contexts.append(context)
            pages.append(context.new_page())
        host, guest = pages
        # Both pages are open and ready: what is timed is the path, not Python's start (which
        # is the same on every path, and which a loaded machine makes vary by seconds).
        for page in pages:
            page.goto(server.url)
            page.wait_for_function("document.body.dataset.ready === 'true'", timeout=BOOT_MS)
        host.get_by_role("button", name="Invite a friend", exact=True).click()
        link = host.wait_for_function(
            "() => { const box = document.querySelector('[data-seat-invites] [data-invite-link]');"
            " return box && box.value; }", timeout=30_000).json_value()
        guest.evaluate("(link) => { window.__opened = performance.now(); location.href = link; }", link)
        playable = guest.wait_for_function(
            "() => { const s = window.pisheFriend && window.pisheFriend.state;"
            " return s && s.connected && s.view && s.view.match ? performance.now() - window.__opened : false; }",
            timeout=120_000, polling=20).json_value()
        opened = guest.evaluate("performance.getEntriesByName('pishe:open').at(-1).startTime - window.__opened")
        return {"playable": playable, "open": opened}
    finally:
        for context in contexts:
            context.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--stun", metavar="URL", help="a STUN server for both pages (default: none)")
    parser.add_argument("--origin", default="https://pishe-pasha.example.org/",
                        help="the site's address for the link's length")
    parser.add_argument("--chromium", default=machinery.CHROMIUM)
    parser.add_argument("--moves", type=int, default=20, help="moves timed on each path")
    parser.add_argument("--pause", type=int, default=2000, help="ms between two moves (a person's pace)")
    parser.add_argument("--playable", type=int, default=3, help="tables opened on each path, page to page")
    args = parser.parse_args(argv)
    with site_with_relay(args.chromium) as (server, relay, pw, browser, features):
        pages = []
        for _ in range(2):
            page = relay_page(browser, relay)
            page.goto(server.url)
            page.wait_for_function("document.body.dataset.ready === 'true'", timeout=BOOT_MS)
            page.evaluate(MODULES, args.stun)
            pages.append(page)
        host, guest = pages
        rounds = []
        for _ in range(args.rounds):
            rounds.append(one_round(host, guest))
            time.sleep(0.2)  # the closed links' sockets go before the next round
        progress("direct rounds done; timing moves on the data channel")
        direct_moves = one_round(host, guest, (args.moves, args.pause))["moves"]
        time.sleep(0.2)
        # The table's messages through the relay (no WebRTC path), at the page's own rate.
        key, offer = "k" * 22, f"p1~bench~{time.time()}"
        progress("timing moves through the relay")
        for page, side in ((host, "host"), (guest, "guest")):
            page.evaluate(RELAYS, [side, key, offer])
        relay_open = [page.evaluate("relayOpen") for page in pages]
        relay_moves = moves(host, guest, "relays", args.moves, args.pause)
        relay_events = [page.evaluate("import(new URL('web/tables/friend/relaypath.js', document.baseURI).href)"
                                      ".then((m) => m.relayStats())") for page in pages]
        for page, side in ((host, "host"), (guest, "guest")):
            page.evaluate(f"{side}Relay.close()")
        # The same through a real TURN server (coturn on 127.0.0.1), the pages forced to relay.
        turned = []
        turn_config = None
        executable = turnserver_executable()
        turn_dir = tempfile.TemporaryDirectory()
        turn = LocalTurn(executable, Path(turn_dir.name)).start() if executable else None
        if turn:
            turn_config = {"iceServers": turn.ice_servers, "iceTransportPolicy": "relay"}
            for page in pages:
                page.evaluate(PATH, turn.ice_servers)
            for _ in range(args.rounds):
                turned.append(one_round(host, guest))
                time.sleep(0.2)
        progress("timing tables page to page")
        playable = {}
        for name, config in paths(turn_config).items() if args.playable else ():
            playable[name] = []
            for _ in range(args.playable):
                try:
                    playable[name].append(time_to_play(browser, server, relay, config))
                except Exception as err:    # a table that never became playable: said, not timed
                    progress(f"{name}: no playable table ({str(err).splitlines()[0]})")
        browser.close()

        # The same offer from a browser with its default mDNS host names.
        plain = pw.chromium.launch(executable_path=args.chromium,
                                   args=FLAGS + ["--disable-features=" + ",".join(features)])
        page = plain.new_page()
        page.goto(server.url)
        mdns_offer = page.evaluate(MDNS_OFFER)
        plain.close()
        if turn:
            turn.stop()
        turn_dir.cleanup()

    first, rest = rounds[0], rounds[1:] or rounds
    invite = rest[-1]["invite"]
    fragment = invite[invite.index("#"):]
    print(f"Joining by link through a local Nostr relay: {len(rounds)} rounds "
          f"({'STUN server ' + args.stun if args.stun else 'no STUN server'})")
    print(f"  first round (loads the Nostr library)  connect {first['connect']:.1f} ms = answer "
          f"{first['answer']:.1f} + post {first['post']:.1f}, relay to host {first['delivery']:.1f}, "
          f"accept to open {first['open']:.1f}")
    for name, label in (("connect", "connect (link -> host open)"), ("answer", "  guest's answer (ICE gathering)"),
                        ("post", "  postAnswer (to a relay's OK)"), ("delivery", "  answer made -> host hears it"),
                        ("open", "  host's accept -> open")):
        print(line(label, [r[name] for r in rest]))
    print(f"  connect over all {len(rounds)} rounds: p50 {statistics.median(r['connect'] for r in rounds):.1f} ms, "
          f"p95 {percentile([r['connect'] for r in rounds], 0.95):.1f} ms")
    if turned:
        print(f"Through a TURN server (coturn on 127.0.0.1, iceTransportPolicy relay): {len(turned)} rounds")
        for name, label in (("connect", "connect (link -> host open)"), ("answer", "  guest's answer (ICE gathering)"),
                            ("open", "  host's accept -> open")):
            print(line(label, [r[name] for r in turned]))
        ratio = statistics.median(r["connect"] for r in turned) / statistics.median(r["connect"] for r in rest)
        print(f"  TURN / direct, connect medians: {ratio:.2f}")
    else:
        print("No TURN path measured: no turnserver (Debian's coturn; .ci/run installs it)")
    print(f"Move round trip (a move of ~100 characters, its answer ~3,000), one every {args.pause} ms:")
    print(line("direct (data channel)", direct_moves))
    print(line("through the relay (no WebRTC path)", relay_moves))
    print(f"  relays / direct, p95: {percentile(relay_moves, 0.95) / percentile(direct_moves, 0.95):.1f} "
          f"(target for the relay path: p95 <= 500 ms); relay channels open in "
          f"{relay_open[0]:.0f} / {relay_open[1]:.0f} ms; host / guest: {relay_events[0]} / {relay_events[1]}")
    if playable:
        print(f"Time to a playable table: the guest's page, open and ready, from opening the link to its "
              f"first dealt view (add Python's start, the same on every path: bench/boot.py), "
              f"{args.playable} tables each:")
        for name, times in playable.items():
            print(line(name, [t["playable"] for t in times]))
            print(line("  of which channel open at", [t["open"] for t in times]))
    print(f"  invite link for {args.origin}: {len(args.origin) + len(fragment)} characters "
          f"(offer code {len(fragment) - len('#join=')}; the link key is made from it): {args.origin}{fragment}")
    mdns_link = f"{args.origin}#join={mdns_offer}"
    print(f"  with mDNS host names (a browser's default): {len(mdns_link)} characters (offer code {len(mdns_offer)})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
