"""Protecting a match and the deal's end on the computer table, in Chromium, by the
buttons' accessible names: the confirmation before a match in progress is thrown
away (New match, its key N, Invite a friend, another game), the leave-page prompt
only mid-match, single-key shortcuts switched off, the result banner's buttons and
focus, the live region's news, and a whole deal by Tab and Enter alone."""

from __future__ import annotations

from playwright.sync_api import Page, expect

# The computer table's helpers and its module-scoped returning visitor's browser.
from test_page import (  # noqa: F401  (returning_visitor, site and page are fixtures)
    BUTTON, PASHA, SEED, choose, local, open_table, page, press_and_wait, read_table, returning_visitor,
    settle, site, wait_idle,
)

FOCUSED_ACTION = "document.activeElement && document.activeElement.dataset.action || null"


def play_by_tab_and_enter(page: Page, expected: dict) -> tuple[dict, int, int]:
    """Play the deal to its end with Tab, Shift+Tab and Enter alone, a person's simple
    play (`choose`); return the last view, the keys pressed and the moves made."""
    presses = moves = 0
    order = ["turn", "give", "keep"]  # the buttons' order on the page
    while not expected["view"]["deal_result"]:
        action = choose(expected["view"]["legal"])
        while (focused := page.evaluate(FOCUSED_ACTION)) != action:
            back = focused in order and order.index(focused) > order.index(action)
            page.keyboard.press("Shift+Tab" if back else "Tab")
            presses += 1
        press_and_wait(page, lambda: page.keyboard.press("Enter"))
        presses += 1
        moves += 1
        expected, _ = settle(local("act", action))
    return expected["view"], presses, moves


def test_a_whole_deal_by_tab_and_enter(page: Page, site, console_errors):
    """Counting key presses: the focus goes where the next move is, not left on a disabled button."""
    errors = console_errors(page)
    open_table(page, site, f"delay=0&seed={SEED}")
    expected, _ = settle(local("new_match", "one-deal", SEED))
    view, presses, moves = play_by_tab_and_enter(page, expected)
    print(f"a deal by Tab and Enter: {presses} presses for {moves} moves")
    assert view["deal_result"] and moves > 20
    assert errors == []
