#!/usr/bin/env python3
"""Pişti with three friends, measured (prints figures; not a test).

    python bench/pisti_friends.py [--friends N] [--chromium PATH]

Builds the site into a temp dir, serves it on 127.0.0.1 with a local Nostr
relay (machinery.LocalRelay; .ci/run installs it) and opens four pages in four
contexts of headless Chromium (bench/friend.py's flags): the host opens a Pişti
table with friends in seats 1, 2 and 3 (--friends 1: in seat 2 alone), and each
guest's page opens its link, all at once; they connect through the relay with
nothing pasted.

Printed, one run:
  connect       per guest: from its page's navigation to its data channel open
                (the page's own mark pishe:open), the page's load included but no
                Python (answering an invite needs none);
  round trip    from a click on one of a guest's cards to the end of that
                guest's paint() of the view the host sent back (guest click ->
                guest worker -> data channel -> host worker -> data channel ->
                guest worker -> paint), median and p95 over every guest's plays:
                first real clicks from Playwright (with the browser's floor: when
                the page's first task after the click runs), then in-page clicks
                (element.click(): our own pipeline alone). One deck each.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent / "tests"))  # machinery.py
sys.path.insert(0, str(HERE))

import machinery  # noqa: E402  (tests/machinery.py: the Chromium and relay the tests use)
from connect import relay_page, site_with_relay  # noqa: E402
from friend import PROBE, line  # noqa: E402

BOOT_MS = 180_000
SEATS = {1: "Right", 2: "Partner", 3: "Left"}
TURN = """() => {
  const s = window.pisheFriend && window.pisheFriend.state;
  const v = s && s.view;
  return v ? {mine: v.turn === v.seat, legal: v.legal || [], over: Boolean(v.deck_result),
              idle: document.body.dataset.idle === "true"} : null;
}"""


def open_table(host, url: str, seats: dict) -> dict:
    """The host opens a Pişti table with friends in ``seats``; returns the invite links by seat."""
    host.goto(url + "?delay=0")
    host.wait_for_function("document.body.dataset.ready === 'true'", timeout=BOOT_MS)
    host.get_by_role("radio", name="Pişti", exact=True).check()
    for seat, name in SEATS.items():
        host.get_by_role("checkbox", name=name, exact=True).set_checked(seat in seats)
    host.get_by_role("button", name="Invite a friend", exact=True).click()
    links = {}
    for seat, name in seats.items():
        label = f"Invite link for {name}" if len(seats) > 1 else "Invite link"
        box = host.get_by_role("textbox", name=label, exact=True)
        host.wait_for_function("(id) => document.getElementById(id).value !== ''",
                               arg=box.get_attribute("id"), timeout=60_000)
        links[seat] = box.input_value()
    return links


def play_deck(pages: dict, real: bool) -> None:
    """Every page plays its turns until the deck ends: guests by real or in-page clicks."""
    host = pages[0]
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline:
        state = host.evaluate(TURN)
        if state and state["over"]:
            return
        for seat, page in pages.items():
            turn = page.evaluate(TURN)
            if not (turn and turn["idle"] and turn["mine"] and turn["legal"]):
                continue
            card = f'[data-game="pisti"] [data-action="{turn["legal"][0]}"]'
            if real or seat == 0:
                page.locator(card).click()
            else:
                page.evaluate("(card) => document.querySelector(card).click()", card)
            page.wait_for_function("(n) => window.__trips ? window.__trips.open === null : true", arg=0)
        time.sleep(0.01)
    raise RuntimeError("the deck did not end")


def trips(guests: dict) -> tuple[list, list]:
    """Every guest's round trips and floors so far (then forgotten)."""
    times, floors = [], []
    for page in guests.values():
        t = page.evaluate("window.__trips")
        times += [ms for _, ms in t["times"]]
        floors += t["firstTask"]
        page.evaluate("window.__trips.times = []; window.__trips.firstTask = []")
    return times, floors


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--friends", type=int, choices=(1, 3), default=3)
    parser.add_argument("--chromium", default=machinery.CHROMIUM)
    args = parser.parse_args(argv)
    seats = SEATS if args.friends == 3 else {2: SEATS[2]}
    with site_with_relay(args.chromium) as (server, relay, _, browser, _):
        host = relay_page(browser, relay)
        links = open_table(host, server.url, seats)
        guests, connect = {}, {}
        for seat, link in links.items():
            guests[seat] = relay_page(browser, relay, PROBE)
            guests[seat].goto(link)
        for seat, guest in guests.items():
            guest.wait_for_function("performance.getEntriesByName('pishe:open').length > 0", timeout=60_000)
            connect[seat] = guest.evaluate("performance.getEntriesByName('pishe:open')[0].startTime")
        for guest in guests.values():
            guest.wait_for_function("document.body.dataset.ready === 'true'", timeout=BOOT_MS)
        pages = {0: host, **guests}
        host.wait_for_function("window.pisheFriend.state.view !== null", timeout=60_000)

        play_deck(pages, real=True)
        real, floor = trips(guests)
        host.get_by_role("button", name="Next deck", exact=True).click()
        host.wait_for_function("window.pisheFriend.state.view && !window.pisheFriend.state.view.deck_result",
                               timeout=60_000)
        play_deck(pages, real=False)
        in_page, _ = trips(guests)
        browser.close()

    print(f"Pişti with {args.friends} friend(s) through a local Nostr relay (one run)")
    for seat, ms in connect.items():
        print(f"  connect, guest in seat {seat} ({SEATS[seat]}): {ms:.0f} ms from opening the link to its channel open")
    print(line("round trip, real clicks", real))
    print(line("  browser floor (first task after the click)", floor))
    print(line("round trip, in-page clicks", in_page))
    print(f"  (medians: real {statistics.median(real):.1f} ms = floor {statistics.median(floor):.1f} ms "
          f"+ {statistics.median(real) - statistics.median(floor):.1f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
