"""Layouts that fit the hand, in Chromium: at phone sizes (portrait and on its side, touch
emulated), a tablet, a desktop and 200% zoom, each game's table on arrival has your cards
and its move controls on the first screen, nothing wider than the window, a top bar of one
row (two at 320 px and at 200% zoom), and on touch every control a finger's size; each size
is compared with a screenshot in tests/baselines/ (test_look's `shot`). On touch, the open
menu's contents are a finger's size too; and at a Pishe Pasha moment to give or keep, your
own stock, turned card and pile are on the first screen at 320x640, 200% zoom and 844x390
(with its baseline), as are the buttons of the question that leaving a match asks.

Cheap on purpose: one tab of the session's returning visitor (Pyodide from its cache), one
boot, every size and game in it; the games are switched by their radios, which deals each
anew. 200% zoom of a 1280x800 window is a 640x400 window of CSS pixels: that is what the
layout sees, so that is the size set.
"""

from __future__ import annotations

import pytest
import test_page
from playwright.sync_api import Page, expect
from table_waits import press, wait_idle
from test_look import resize, shot, table
from test_page import BOOT_MS

returning_visitor, site, page = test_page.returning_visitor, test_page.site, test_page.page

GAMES = ("pishe-pasha", "pisti", "pisti-2")
SHOWN = ("pishe-pasha", "pisti")  # the games whose look is kept in a baseline at each size
#: (name, width, height, touch, most rows of the top bar); desktop sizes first, since touch
#: emulation, once on, stays on for the tab.
SIZES = (
    # Five games' tabs and the page's five settings: the settings take a row of their own.
    ("1280x800", 1280, 800, False, 2),
    ("768x1024", 768, 1024, False, 1),
    ("zoom-200", 640, 400, False, 2),
    ("390x844", 390, 844, True, 2),
    ("844x390", 844, 390, True, 1),
    ("360x740", 360, 740, True, 2),
    ("320x640", 320, 640, True, 2),
)
FINGER = 44  # CSS px, each way, of anything a finger presses
#: Your cards and move controls: what must be on the first screen.
MOVES = ".hand-card, .actions .btn, .pile[data-click] .slot"
#: Pishe Pasha's own stock, turned card and discard pile.
OWN_PILES = '[data-place="bottom"] .pile .slot'
LONGEST = {"pishe-pasha": "First to 100", "pisti": "151", "pisti-2": "151"}  # each game's last length

# What a size shows of a game's table, read in one go: your cards and move controls, or
# what `moves` selects (boxes), every control of the page that shows (boxes), the page's width, the
# top bar's rows (its items grouped by line).
MEASURE = """([game, moves]) => {
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
  const box = (el) => { const r = el.getBoundingClientRect();
    return { what: `${el.className || el.tagName} "${(el.getAttribute("aria-label") || el.textContent).trim().slice(0, 30)}"`,
             left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height }; };
  const root = document.querySelector(`[data-game="${game}"]`);
  const shownMoves = [...root.querySelectorAll(moves)].filter(shown).map(box);
  const controls = [...document.querySelectorAll("button, select, summary, .segmented label, .switch")]
    .filter((el) => shown(el) && !el.closest(".sr-only")).map(box);
  const items = [...document.querySelector(".topbar").children]
    .filter((el) => shown(el) && getComputedStyle(el).position !== "absolute")
    .map((el) => el.getBoundingClientRect()).sort((a, b) => a.top - b.top);
  let rows = 0, bottom = -Infinity;
  for (const r of items) if (r.top >= bottom - 1) { rows += 1; bottom = r.bottom; } else bottom = Math.max(bottom, r.bottom);
  return { moves: shownMoves, controls, rows, scrollWidth: document.documentElement.scrollWidth, width: innerWidth, height: innerHeight };
}"""


def choose_game(page: Page, game: str) -> None:
    """Deal `game` anew by its radio (nothing played yet: no question asked), from the page's top."""
    page.evaluate("window.scrollTo(0, 0)")
    radio = page.locator(f'input[name="game"][value="{game}"]')
    if radio.is_checked():
        return
    press(page, lambda: radio.check(force=True), table(game))
    page.evaluate("window.scrollTo(0, 0)")


def check_fits(page: Page, where: str, game: str, touch: bool, most_rows: int, moves: str = MOVES) -> list:
    """Your ``moves`` (:data:`MOVES`) on the first screen, every control a finger's size on
    touch, nothing sideways, the top bar's rows; the boxes of ``moves``."""
    found = page.evaluate(MEASURE, [game, moves])
    width, height = found["width"], found["height"]
    off = [m["what"] for m in found["moves"]
           if m["top"] < -0.5 or m["left"] < -0.5 or m["bottom"] > height + 0.5 or m["right"] > width + 0.5]
    small = [f'{c["what"]} {c["width"]:.0f}x{c["height"]:.0f}' for c in found["moves"] + found["controls"]
             if touch and (c["width"] < FINGER - 0.5 or c["height"] < FINGER - 0.5)]
    assert found["moves"] and off == [] and small == [], (where, "off the first screen", off, "small", small)
    assert found["scrollWidth"] <= width, (where, "sideways", found["scrollWidth"])
    assert 1 <= found["rows"] <= most_rows, (where, "top bar rows", found["rows"])
    return found["moves"]


def test_every_size_shows_your_cards_and_moves_on_arrival(page: Page, site, console_errors):
    errors = console_errors(page)
    page.emulate_media(reduced_motion="reduce")
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{site.url}?delay=0&seed=62")
    expect(page.locator("body")).to_have_attribute("data-ready", "true", timeout=BOOT_MS)
    wait_idle(page)
    # The page's own background is one colour (its glow is a box of its own): an image there
    # is sized to the whole page, which the browser then paints again whole at every move
    # that changes the page's height (a turn's list growing or shrinking).
    assert page.evaluate("[document.documentElement, document.body]"
                         ".map((el) => getComputedStyle(el).backgroundImage)") == ["none", "none"]
    touch = False
    for name, width, height, on_touch, most_rows in SIZES:
        if on_touch and not touch:
            page.context.new_cdp_session(page).send("Emulation.setTouchEmulationEnabled",
                                                    {"enabled": True, "maxTouchPoints": 5})
            touch = True
            assert page.evaluate("matchMedia('(pointer: coarse)').matches")
        resize(page, width, height)
        for game in GAMES:
            choose_game(page, game)
            check_fits(page, f"{name} {game}", game, touch, most_rows)
            if game in SHOWN:
                shot(page, f"layout-{name}-{game}")
            if name == "1280x800":
                # A desktop's first screen: New match and the game's length and level beside the table.
                for control in (page.get_by_role("button", name="New match", exact=True),
                                page.get_by_role("radio", name="Medium", exact=True),
                                page.get_by_role("radio", name=LONGEST[game], exact=True)):
                    expect(control).to_be_in_viewport(ratio=1)
            if name == "1280x800" and game == "pisti":
                # The deck's first lines (the deal, the hands, the plays before yours) all show.
                since = page.locator(f"{table(game)} [data-since]")
                assert since.evaluate("(ol) => ol.childElementCount >= 5 && ol.scrollHeight <= ol.clientHeight")
        if name == "1280x800":
            expect(page.get_by_role("switch", name="Single-key shortcuts", exact=True)).to_be_visible()
        if name == "390x844":
            # On touch alone: the settings in the menu, but no keys' switch.
            menu = page.get_by_role("button", name="Settings and language", exact=True)
            menu.click()
            expect(menu).to_have_attribute("aria-expanded", "true")
            expect(page.get_by_role("switch", name="High contrast", exact=True)).to_be_visible()
            expect(page.get_by_role("combobox", name="Language", exact=True)).to_be_visible()
            expect(page.get_by_role("switch", name="Single-key shortcuts", exact=True)).to_be_hidden()
            check_fits(page, f"{name} menu open", GAMES[-1], touch, most_rows)  # the menu's contents too
            page.keyboard.press("Escape")
            expect(menu).to_have_attribute("aria-expanded", "false")
            expect(page.get_by_role("switch", name="High contrast", exact=True)).to_be_hidden()
            # After New match the page goes back up to the table's top.
            page.get_by_role("button", name="New match", exact=True).scroll_into_view_if_needed()
            assert page.evaluate("scrollY") > 0
            press(page, page.get_by_role("button", name="New match", exact=True).click, table("pisti-2"))
            assert page.evaluate("scrollY") == 0
    # Pishe Pasha's own stock, turned card and pile, at a moment to give or keep, at the
    # narrowest and lowest sizes (touch on): on the first screen, each a finger's size.
    choose_game(page, "pishe-pasha")
    turned, turn = (f'{table("pishe-pasha")} {where}' for where in ('[data-place="bottom"] [data-pile="turned"]',
                                                                    '[data-action="turn"]'))
    for _ in range(12):
        # Your turn again (Turn a card enabled), or a card turned to give or keep.
        page.wait_for_function("""([turned, turn]) => !document.querySelector(turned).hidden
            || document.querySelector(turn).getAttribute("aria-disabled") === "false" """, arg=[turned, turn])
        if page.locator(turned).evaluate("(pile) => !pile.hidden"):
            break
        press(page, page.locator(turn).click, table("pishe-pasha"))
    else:
        raise AssertionError(page.locator(f'{table("pishe-pasha")} [data-status]').text_content())
    rows = {name: most_rows for name, *_, most_rows in SIZES}
    for name, width, height, *_ in sorted((s for s in SIZES if s[0] in ("zoom-200", "320x640", "844x390")),
                                          key=lambda s: -s[2]):                   # 844x390 last
        resize(page, width, height)
        expect(page.locator(turned)).to_be_visible()
        piles = check_fits(page, f"{name} pishe-pasha, a card turned", "pishe-pasha", True, rows[name], OWN_PILES)
        assert len(piles) == 3, (name, piles)
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "layout-844x390-pishe-pasha-turned")
    # Leaving the match asks first: the question's buttons are a finger's size too.
    page.locator('input[name="game"][value="pisti"]').check(force=True)
    expect(page.get_by_role("dialog")).to_be_visible()
    check_fits(page, "844x390 leaving the match", "pishe-pasha", True, 1)
    page.get_by_role("dialog").get_by_role("button", name="Keep playing", exact=True).click()
    expect(page.get_by_role("dialog")).to_be_hidden()
    assert errors == []


def test_high_contrast_reaches_the_other_open_tabs(page: Page, site):
    """Switched in one tab, high contrast follows in another tab of the page at once, both ways."""
    # The switch works from the page's first scripts on: Python is not started (no worker).
    other = page.context.new_page()
    try:
        for tab in (page, other):
            tab.route("**/web/core/worker.js", lambda route: route.abort())
            tab.goto(f"{site.url}?delay=0", wait_until="domcontentloaded")
        switch = page.get_by_role("switch", name="High contrast", exact=True)
        switch.check()
        expect(other.locator("html")).to_have_class("hc")
        expect(other.get_by_role("switch", name="High contrast", exact=True)).to_be_checked()
        switch.uncheck()
        expect(other.locator("html")).not_to_have_class("hc")
    finally:
        other.close()


@pytest.fixture(autouse=True)
def _no_contrast_left(page: Page):
    """Each test ends with high contrast off in the profile (it is stored for the origin)."""
    yield
    if not page.is_closed() and page.url.startswith("http"):
        page.evaluate("localStorage.removeItem('pishe.highContrast')")
