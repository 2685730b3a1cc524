"""Pishe Pasha's computer levels on the page, in Chromium: the level is chosen by its
accessible name with the match length, a whole deal is played against Hard, and
"Show what you have seen" shows what pishe.web's memory of your seat holds."""

from __future__ import annotations

from playwright.sync_api import Page, expect

# The computer table's helpers: pishe.web in this process, clicks that wait for a repaint.
from table_waits import press
from test_page import BOOT_MS, BUTTON, PASHA, local, settle

SEED = 242  # Hard, one deal: 41 moves of yours, the memory knowing a stock's order by the end


def seen_lines(view: dict) -> list[str]:
    return [line for place in view["seen"]["places"] for line in (place["stock"], place["next_stock"])]


def test_a_whole_deal_against_hard_with_what_you_have_seen(page: Page, site, console_errors):
    errors = console_errors(page)
    page.goto(f"{site.url}?delay=0&seed={SEED}")
    expect(page.locator("body")).to_have_attribute("data-ready", "true", timeout=BOOT_MS)

    # The levels sit with the match length; Easy (always-give) is the default.
    levels = page.get_by_role("group", name="Computer")
    for name in ("Easy", "Medium", "Hard"):
        expect(levels.get_by_role("radio", name=name, exact=True)).to_have_count(1)
    expect(page.get_by_role("radio", name="Easy", exact=True)).to_be_checked()
    expect(levels).to_contain_text("remembers every card it has seen, as you could")
    page.get_by_role("radio", name="Hard", exact=True).check()
    page.get_by_role("radio", name="One deal", exact=True).check()
    press(page, page.get_by_role("button", name="New match", exact=True).click)

    # Off by default; switched on, it shows the lines of your seat's memory.
    switch = page.get_by_role("switch", name="Show what you have seen", exact=True)
    expect(switch).not_to_be_checked()
    lines = page.locator(PASHA + " [data-seen-lines] li")
    expect(lines.first).to_be_hidden()
    switch.check()

    expected, _ = settle(local("new_match", "one-deal", SEED, "pishe-pasha", None, "memory-deep"))
    actions = 0
    while True:
        view = expected["view"]
        expect(lines).to_have_text(seen_lines(view))
        expect(page.locator(PASHA + " [data-status]")).to_have_text(view["status"])
        if view["deal_result"]:
            break
        action = "give" if "give" in view["legal"] else "keep" if "keep" in view["legal"] else "turn"
        press(page, page.get_by_role("button", name=BUTTON[action], exact=True).click)
        actions += 1
        expected, _ = settle(local("act", action))
    assert actions > 20
    # By the end the memory knows a stock's order: a line lists it, next card first.
    assert any("next card first" in line for line in seen_lines(view))
    expect(page.locator(PASHA + " [data-result]")).to_be_visible()

    switch.uncheck()
    expect(lines.first).to_be_hidden()
    assert errors == []
