"""A friend's table through a real TURN server.

coturn (tests/turn.py) runs on 127.0.0.1 with one static user, as the README's
hosting section sets one up; both pages read an ice-servers.json that lists it
with "iceTransportPolicy": "relay", so no direct path is even tried: the moves of
both pages go through the TURN server's relayed addresses (a whole deal, checked
against the deal rebuilt from the wire, is tests/test_friend.py's, on a direct path),
and the friend names their seat. And a TURN server that answers slowly (turn.SlowUdp in
front of it) still gives the invite its address.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from returning import welcome_back
# test_friend's `table` fixture, on this module's `profiles`.
from test_friend import BOOT_MS, RESULTS, Table, answering, no_errors, persistent_profiles, table  # noqa: F401
from turn import SlowUdp

MOVES = 12  # moves played through the TURN server


def offer_candidates(link: str) -> tuple[str, list[str]]:
    """An invite link's connection offer, and its candidates (web/core/rtc.js: encodeDescription)."""
    offer = link.split("#join=", 1)[1].split("&game=")[0]
    return offer, offer.split("~")[4:]


@pytest.fixture(scope="module")
def profiles(browser_type, browser_type_launch_args, tmp_path_factory, turn_server, module_site):
    """The host's and the guest's browsers, whose one ICE server is the local coturn, relayed paths only."""
    config = {"iceServers": turn_server.ice_servers, "iceTransportPolicy": "relay"}
    with persistent_profiles(browser_type, browser_type_launch_args, tmp_path_factory, ("host", "guest"),
                             {"**/ice-servers.json": config}, module_site,
                             viewport={"width": 1280, "height": 860}) as launched:
        yield launched


def test_moves_go_through_a_turn_server(table: Table, turn_server):
    table.open_host("one-deal")
    link = table.invite_link()
    # The offer carries relayed candidates only (r…): the host's page asked coturn for an address.
    offer, candidates = offer_candidates(link)
    assert candidates and all(c.startswith("r127.0.0.1,") for c in candidates), offer
    table.join(link)
    # Each side says its path, with a live round trip.
    through_turn = re.compile(r"Through a TURN server · \d+ ms round trip")
    expect(table.host.locator("[data-seat-invite-path]")).to_have_text(through_turn, timeout=10_000)
    expect(table.guest.locator("[data-friend-path]")).to_have_text(through_turn, timeout=10_000)
    # Moves by both pages (each a card turned, given or kept, and its keys), through TURN.
    h, g = table.play(until=lambda h, g: len(table.actions) >= MOVES and h["turn"] == 0)
    assert h["result"] is None and {seat for _, seat, _ in table.actions} == {0, 1}
    assert h["deal"] == g["deal"] == "1" and h["piles"] == g["piles"]
    # coturn gave both pages relayed addresses for the static user, and relayed between them.
    log = turn_server.log()
    assert len(re.findall(r"ALLOCATE processed, success", log)) >= 2, log[-3000:]
    assert re.search(r"CHANNEL_BIND processed, success|CREATE_PERMISSION processed, success", log), log[-3000:]

    # The friend names their seat: player text, shown as text beside the seat on both pages,
    # never in the table's sentences.
    name = '<b>Ayşe</b> & co'
    table.guest.get_by_role("textbox", name="Your name at the table", exact=True).fill(name)
    table.guest.get_by_role("button", name="Save name", exact=True).click()
    expect(table.guest.locator("[data-name-note]")).to_have_text("Saved: the others see it beside your seat.")
    for page in (table.host, table.guest):
        chosen = page.locator('[data-game="pishe-pasha"] [data-seat="1"] [data-chosen-name]')
        expect(chosen).to_have_text(name, timeout=10_000)
        expect(chosen).to_have_attribute("title", "Name chosen by this player")
        assert page.evaluate("document.querySelectorAll('[data-chosen-name] *').length") == 0
        assert name not in page.locator('[data-game="pishe-pasha"] [data-status]').text_content()
    table.host.get_by_role("textbox", name="Your name at the table", exact=True).fill("Mehmet")
    table.host.get_by_role("button", name="Save name", exact=True).click()
    expect(table.guest.locator('[data-game="pishe-pasha"] [data-seat="0"] [data-chosen-name]')).to_have_text(
        "Mehmet", timeout=10_000)
    table.host.screenshot(path=str(RESULTS / "friend-host-names.png"))
    no_errors(table)


def test_a_slow_turn_server_s_address_still_reaches_the_invite(browser, module_site, turn_server):
    """A TURN server on a slow network (each of its answers held 1.5 s, so its relayed
    address comes after about 3 s, past the 2.5 s a page gives ICE to gather) is still in
    the invite: a page with a TURN server waits for its relayed address (web/core/rtc.js),
    without which a friend behind a strict firewall has no path at all."""
    with SlowUdp(("127.0.0.1", turn_server.port), delay=1.5) as slow:
        config = {"iceServers": slow.ice_servers(turn_server.ice_servers), "iceTransportPolicy": "relay"}
        context = browser.new_context()
        try:
            context.route("**/ice-servers.json", answering(config))
            host = context.new_page()
            welcome_back(host, module_site)
            host.goto(module_site.url)
            expect(host.locator("body")).to_have_attribute("data-ready", "true", timeout=BOOT_MS)
            host.get_by_role("button", name="Invite a friend", exact=True).click()
            link = host.get_by_role("textbox", name="Invite link", exact=True)
            expect(link).not_to_have_value("", timeout=30_000)
            offer, candidates = offer_candidates(link.input_value())
            assert candidates and all(c.startswith("r127.0.0.1,") for c in candidates), offer
        finally:
            context.close()
