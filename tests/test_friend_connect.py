"""When two pages find no path to each other, and what the pages say of their relays.

Both browsers read an ice-servers.json that cannot work ("iceTransportPolicy":
"relay" and no TURN server: no candidate at all), and a signaling.json listing
the local Nostr relay and one that is down. The guest's answer reaches the host
through the relay, the pages then try to connect and cannot: within the page's
clear time (?connect=SECONDS, short here) both say so in plain words and what to
try; the host's page lists the relay it could not reach in a details line.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from machinery import free_port
from test_friend import BOOT_MS, RESULTS, persistent_profiles

CONNECT_S = 3
DOWN = f"ws://127.0.0.1:{free_port()}"  # a relay that is down: nothing listens there


@pytest.fixture(scope="module")
def pathless(browser_type, browser_type_launch_args, tmp_path_factory, nostr_relay):
    answers = {"**/ice-servers.json": {"iceServers": [], "iceTransportPolicy": "relay"},
               "**/signaling.json": {"relays": [nostr_relay, DOWN]}}
    with persistent_profiles(browser_type, browser_type_launch_args, tmp_path_factory, ("host", "guest"),
                             answers, viewport={"width": 1280, "height": 860}) as launched:
        yield launched


def test_no_path_is_said_in_plain_words_with_what_to_try(pathless, module_site, console_errors):
    host, guest = pathless["host"].new_page(), pathless["guest"].new_page()
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

        link = box.input_value()
        guest.goto(link.replace("#join=", f"?connect={CONNECT_S}#join="))
        # The answer went through the relay (no reply code shown), and no path is found.
        expect(guest.locator("[data-friend-status]")).to_have_text(
            "No connection could be made to your friend's page from this network. Try another network "
            "(Wi-Fi or mobile data), then ask your friend for a new invite link.", timeout=BOOT_MS)
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
