"""When two pages find no WebRTC path to each other: their table goes through the relays.

Both browsers read an ice-servers.json that cannot work ("iceTransportPolicy":
"relay" and no TURN server: no candidate at all, so no WebRTC path can open, as with
WebRTC blocked), and a signaling.json listing the local Nostr relay and one that is
down, and saying they take events of 4 KiB only, which the local relay holds to: it
refuses a larger event, as some public relays do (the pages cut their frames to fit: the
sizes are checked in tests/test_relay_frames.py; here the relay takes every event). The guest's answer reaches the host through the relay; the pages see that their
codes name no candidate and carry the table's messages through the relay instead
(web/tables/friend/relaypath.js): a Pishe Pasha deal is played so, both pages showing the
same board after every move, and the connection line says "Through relays (slower)" with
its round trip. (A whole deck through the relay, checked against the deck rebuilt from
the wire, is tests/test_pisti_friends.py's; a whole Pishe Pasha deal checked so is
tests/test_friend.py's.) The pages run at ?relayrate (events a
second) above the default rate, which tests/test_relay_frames.py checks.

When the relays cannot carry it either, within the page's clear time (?connect=SECONDS,
short here) both pages say so in plain words and what to try; the host's page lists the
relay it could not reach in a details line.
"""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from playwright.sync_api import expect

from machinery import SMALL_EVENTS, free_port, signaling
from test_friend import BOOT_MS, RESULTS, Table, no_errors, persistent_profiles

CONNECT_S = 3
MOVES = 12  # moves played through the relay
RATE = "?relayrate=40"
DOWN = f"ws://127.0.0.1:{free_port()}"  # a relay that is down: nothing listens there
SLOWER = re.compile(r"Through relays \(slower\) · \d+ ms round trip")


@pytest.fixture(scope="module")
def profiles(browser_type, browser_type_launch_args, tmp_path_factory, nostr_relay, module_site):
    answers = {"**/ice-servers.json": {"iceServers": [], "iceTransportPolicy": "relay"},
               "**/signaling.json": signaling([nostr_relay, DOWN])}
    with persistent_profiles(browser_type, browser_type_launch_args, tmp_path_factory, ("host", "guest"),
                             answers, module_site, viewport={"width": 1280, "height": 860}) as launched:
        yield launched


def relay_stats(page) -> dict:
    """What `page` sent through the relays (relaypath.js's relayStats)."""
    return page.evaluate("import(new URL('web/tables/friend/relaypath.js', document.baseURI).href)"
                         ".then((m) => m.relayStats())")


# The relay's answer to an event a character over the limit, sent by the page on a socket of
# its own. (nostr-relay answers a refusal with no event id: the Nostr library would only
# see its post time out.)
REFUSAL = f"""(relay) => import(new URL("vendor/nostr-tools.mjs", document.baseURI).href).then(({{ default: tools }}) =>
  new Promise((resolve, reject) => {{
    const event = tools.finalizeEvent({{ kind: 25051, created_at: Math.floor(Date.now() / 1000), tags: [],
      content: "x".repeat({SMALL_EVENTS + 1}) }}, tools.generateSecretKey());
    const socket = new WebSocket(relay);
    socket.onopen = () => socket.send(JSON.stringify(["EVENT", event]));
    socket.onmessage = ({{ data }}) => {{
      socket.close();
      resolve(JSON.parse(data));
    }};
    socket.onerror = () => reject(new Error("the relay closed the socket"));
  }}))"""


def test_a_deal_through_the_relays_when_no_webrtc_path_exists(profiles, module_site, console_errors, nostr_relay):
    table = Table(profiles, SimpleNamespace(url=module_site.url + RATE), console_errors)
    try:
        table.open_host("one-deal")
        link = table.invite_link()
        offer = link.split("#join=", 1)[1].split("&game=")[0]
        assert len(offer.split("~")) == 4, offer        # no candidate: no WebRTC path can open
        table.guest.goto(link.replace("#join=", RATE + "#join="))
        for page in (table.host, table.guest):
            expect(page.locator("[data-friend-status]")).to_have_text("Connected", timeout=BOOT_MS)
        expect(table.guest.get_by_role("textbox", name="Reply code", exact=True)).to_be_hidden()
        # Each side says its path, with the round trip the frames measure.
        expect(table.host.locator("[data-seat-invite-path]")).to_have_text(SLOWER, timeout=20_000)
        expect(table.guest.locator("[data-friend-path]")).to_have_text(SLOWER, timeout=20_000)
        RESULTS.mkdir(exist_ok=True)
        for who, page in (("host", table.host), ("guest", table.guest)):
            page.screenshot(path=str(RESULTS / f"connect-{who}-relays.png"))
            page.set_viewport_size({"width": 360, "height": 780})
            page.screenshot(path=str(RESULTS / f"connect-{who}-relays-360.png"), full_page=True)
            page.set_viewport_size({"width": 1280, "height": 860})
        # Moves by both pages (each a card turned, given or kept, and its keys), through the relay.
        h, g = table.play(until=lambda h, g: len(table.actions) >= MOVES and h["turn"] == 0)
        assert h["result"] is None and {seat for _, seat, _ in table.actions} == {0, 1}
        assert h["deal"] == g["deal"] == "1" and h["piles"] == g["piles"]
        # Through the relays indeed: the host's page sent its frames as events, no data channel
        # opened; the relay, which passed them all on (a frame refused is refused each time it is
        # sent again: the deal would have stalled), refuses an event over 4 KiB.
        sent = [relay_stats(page) for page in (table.host, table.guest)]
        print("through the relay, host and guest:", sent)
        assert all(s["events"] > 0 and s["refused"] == 0 for s in sent), sent
        assert table.host.evaluate("window.pisheFriend.state.seats.get(1).link.carrier !== null")
        ok, _, taken, why = table.host.evaluate(REFUSAL, nostr_relay)
        assert ok == "OK" and taken is False and why.startswith("invalid:"), why
        # The browser says so when the relay that is down refuses its connections; nothing else.
        for errors in table.errors.values():
            errors[:] = [e for e in errors if not e.startswith(f"console: WebSocket connection to '{DOWN}/' failed")]
        no_errors(table)
    finally:
        table.close()


def test_no_path_is_said_in_plain_words_with_what_to_try(profiles, module_site, console_errors):
    host, guest = profiles["host"].new_page(), profiles["guest"].new_page()
    try:
        host.goto(module_site.url + f"?connect={CONNECT_S}")
        expect(host.locator("body")).to_have_attribute("data-ready", "true", timeout=BOOT_MS)
        host.get_by_role("button", name="Invite a friend", exact=True).click()
        box = host.get_by_role("textbox", name="Invite link", exact=True)
        expect(box).not_to_have_value("", timeout=20_000)
        # The relay that is down is named in the details line; the local one is used.
        expect(host.locator("[data-relay-details]")).to_have_text(f"Relays not reached: {DOWN}", timeout=10_000)
        expect(host.locator("[data-friend-status]")).to_have_text("Waiting for your friend…")
        RESULTS.mkdir(exist_ok=True)
        host.screenshot(path=str(RESULTS / "connect-host-waiting.png"))
        # From now on the host's page reaches no relay to carry the table (it reads signaling.json
        # afresh): the answer comes through the relay it already listens on, and nothing more.
        host.route("**/signaling.json", lambda route: route.fulfill(json=signaling([DOWN])))

        link = box.input_value()
        guest.goto(link.replace("#join=", f"?connect={CONNECT_S}#join="))
        # The answer went through the relay (no reply code shown), and no path is found.
        expect(guest.locator("[data-friend-status]")).to_have_text(
            "Your friend's page may be closed: ask them to open the table and send you the link again. "
            "If it is open, this network could not reach it: try another network (Wi-Fi or mobile data).",
            timeout=BOOT_MS)
        # Read first: with no cards dealt, the panel is above the table, on the first screen.
        status_box = guest.locator("[data-friend-status]").bounding_box()
        felt_box = guest.locator("[data-pishe-table]:not([hidden]) .felt").bounding_box()
        assert status_box is not None and felt_box is not None
        assert status_box["y"] < felt_box["y"] or status_box["x"] > felt_box["x"] + felt_box["width"] / 2
        expect(guest.get_by_role("textbox", name="Reply code", exact=True)).to_be_hidden()
        expect(host.locator("[data-friend-status]")).to_have_text(
            "No connection could be made between your two networks. Press Invite again; if it fails "
            "again, try both on the same Wi-Fi, or one of you on mobile data, or ask whoever hosts this "
            "page to add a TURN server.", timeout=20_000)
        expect(host.locator("[data-seat-invite-state]")).to_have_text("could not connect")
        expect(host.get_by_role("button", name="Invite again", exact=True)).to_be_visible()
        expect(host.locator("[data-seat-invite-path]")).to_be_hidden()
        for who, page in (("host", host), ("guest", guest)):
            page.screenshot(path=str(RESULTS / f"connect-{who}-no-path.png"))
            page.set_viewport_size({"width": 360, "height": 780})
            page.screenshot(path=str(RESULTS / f"connect-{who}-no-path-360.png"), full_page=True)
            page.set_viewport_size({"width": 1280, "height": 860})
        # Invite again makes a new link, and the seat waits for its friend again.
        host.get_by_role("button", name="Invite again", exact=True).click()
        expect(box).not_to_have_value("", timeout=20_000)
        expect(host.locator("[data-friend-status]")).to_have_text("Waiting for your friend…")
    finally:
        host.close()
        guest.close()
