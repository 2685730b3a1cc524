"""A friend who leaves mid-deal: the host's page shows the hold of their seat as a countdown
in the panel (the table's status line keeps the game's own line), keeps the table first on a
phone's screen, and offers Deal again now: the deal in play is stopped at once, named as aborts are, and dealt
again with a computer in that seat. At the match's end the host's Play again is on the
result panel. Screenshots in test-results/."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import expect

from test_friend import PASHA, Table, profiles, table  # noqa: F401  (fixtures)

RESULTS = Path(__file__).resolve().parent.parent / "test-results"
COUNTDOWN = re.compile(r"^Friend is reconnecting: a computer takes the seat in (\d+) s\.$")


def test_a_lost_friend_s_hold_counts_down_and_the_host_deals_again_now(table: Table):
    table.open_host("first-to-100")
    table.join(table.invite_link())
    table.play(until=lambda h, g: len(table.actions) >= 4 and h["turn"] == 0 and h["result"] is None)
    table.host.set_viewport_size({"width": 390, "height": 844})
    table.guest.close()

    hold = table.host.locator("[data-hold]")
    expect(hold).to_have_text(COUNTDOWN, timeout=40_000)
    first = int(COUNTDOWN.match(hold.text_content() or "").group(1))  # type: ignore[union-attr]
    table.host.wait_for_function(
        "([n]) => { const m = document.querySelector('[data-hold]').textContent.match(/\\d+/);"
        " return m && Number(m[0]) < n; }", arg=[first])   # it counts down
    # The table's status line keeps the game's own line ("your turn", "Waiting for Friend…").
    expect(table.host.locator(PASHA + " [data-status]")).not_to_have_text(COUNTDOWN)
    # The table stays first on the phone's screen: the panel does not push it down.
    felt = table.host.locator(PASHA + " .felt").bounding_box()
    assert felt is not None and felt["y"] < 200, felt
    table.host.screenshot(path=str(RESULTS / "friend-hold-390.png"))

    table.host.get_by_role("button", name="Deal again now, a computer takes the seat", exact=True).click()
    expect(table.host.locator("[data-fair]")).to_have_text(
        "Deal 1 was stopped: Friend left before it was over (stopped and dealt again at this table: 1).",
        timeout=20_000)
    expect(hold).to_be_hidden()
    expect(table.host.get_by_role("button", name="Deal again now, a computer takes the seat")).to_be_hidden()
