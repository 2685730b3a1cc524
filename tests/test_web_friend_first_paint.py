"""An invited friend's first seconds, before Python runs: the page opened on an invite link
paints the invited variant's own table (Pişti for two: one seat facing yours), its loading
line and bar, and the friend panel's first line ("Connecting to the host's table…"), all on
the first screen of a phone, in the browser's language. Screenshots in test-results/."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

RESULTS = Path(__file__).resolve().parent.parent / "test-results"
PHONES = {"390x844": {"width": 390, "height": 844}, "360x740": {"width": 360, "height": 740}}
FIRST_LINE = {"en-US": "Connecting to the host's table…", "tr-TR": "Masayı kuranın sayfasına bağlanılıyor…"}

#: The first screen as the parser left it: the shown table, its seats and loader, the panel's line.
FIRST_PAINT = """() => {
  const shown = (el) => el && el.getClientRects().length > 0;
  // (A table's root lays its sections out in the page's grid: its felt is what shows.)
  const tables = [...document.querySelectorAll("[data-pishe-table]")].filter((t) => shown(t.querySelector(".felt")));
  const table = tables[0];
  const places = table ? [...table.querySelectorAll("[data-place]")].filter(shown) : [];
  const first = [...document.querySelectorAll("[data-friend-first], [data-friend-status]")]
    .find((el) => shown(el) && el.textContent.trim());
  const loader = table && table.querySelector("[data-loader]");
  return {
    tables: tables.map((t) => t.dataset.game),
    places: places.map((p) => p.dataset.place).sort(),
    names: places.map((p) => (p.querySelector("[data-name]") || {}).textContent),
    loader: shown(loader) ? loader.getBoundingClientRect().bottom : null,
    line: first ? first.textContent.trim() : null,
    lineBottom: first ? first.getBoundingClientRect().bottom : null,
    overflow: document.documentElement.scrollWidth - window.innerWidth,
  };
}"""


def first_paint(browser, site, locale: str, game: str, viewport: dict) -> tuple[Page, dict]:
    """A friend's page opened on an invite link for ``game``, read as soon as the parser is done."""
    context = browser.new_context(locale=locale, viewport=viewport)
    page = context.new_page()
    # Python never starts here: the first paint is all there is to see.
    page.route("**/web/core/worker.js", lambda route: route.abort())
    page.goto(f"{site.url}/#join=AAAA&game={game}", wait_until="load")
    return page, page.evaluate(FIRST_PAINT)


@pytest.mark.parametrize("size", PHONES)
@pytest.mark.parametrize("locale", ["tr-TR", "en-US"])
def test_a_two_seat_invite_paints_its_own_table_and_says_what_happens(browser, site, locale, size):
    """A game=pisti-2 link: the two-seat table (no partner, no sides), its loader, and the
    panel's first line, all within a phone's first screen; nothing wider than the screen."""
    viewport = PHONES[size]
    page, seen = first_paint(browser, site, locale, "pisti-2", viewport)
    page.screenshot(path=str(RESULTS / f"friend-first-paint-pisti-2-{locale}-{size}.png"))
    assert seen["tables"] == ["pisti-2"]
    assert seen["places"] == ["bottom", "top"]
    assert seen["loader"] is not None and seen["loader"] <= viewport["height"]
    assert seen["line"] == FIRST_LINE[locale]
    assert seen["lineBottom"] <= viewport["height"]
    assert seen["overflow"] <= 0
    page.context.close()


@pytest.mark.parametrize("game", ["pisti", "pishe-pasha"])
def test_every_game_s_invite_shows_the_loader_first(browser, site, game):
    """Whichever game the link names, its table shows the loading line and bar from the first paint."""
    page, seen = first_paint(browser, site, "en-US", game, PHONES["390x844"])
    assert seen["tables"] == [game] and seen["loader"] is not None
    assert seen["line"] == FIRST_LINE["en-US"]
    page.context.close()


INVITE = """() => {
  const box = document.querySelector("[data-seat-invites] [data-invite-link]");
  const lines = [...document.querySelectorAll("[data-friend] .friend-status")].filter((el) => el.getClientRects().length);
  return box && box.value ? {whole: box.scrollHeight <= box.clientHeight + 1, width: box.clientWidth,
                             lines: lines.map((el) => el.textContent.trim())} : null;
}"""


def test_the_host_s_invite_link_reads_whole_at_390_px(browser, site):
    """The host's invite at 390 px: the whole link shows (wrapped, nothing scrolled away), the
    panel has one status line (the friend's first line is an invite's only), and the reply
    code's step is folded until the host opens it."""
    context = browser.new_context(viewport=PHONES["390x844"])
    page = context.new_page()
    page.goto(site.url)
    page.wait_for_function("document.body.dataset.ready === 'true'", timeout=180_000)
    page.locator("[data-invite]").click()
    seen = page.wait_for_function(INVITE, timeout=60_000).json_value()
    page.screenshot(path=str(RESULTS / "friend-invite-390.png"))
    assert seen["whole"] and seen["width"] >= 250, seen
    assert len(seen["lines"]) == 1 and seen["lines"][0] != "Connecting to the host's table…", seen
    expect(page.get_by_role("textbox", name="Paste reply code", exact=True)).to_be_hidden()
    page.get_by_text("Their page shows a reply code?", exact=True).click()
    expect(page.get_by_role("textbox", name="Paste reply code", exact=True)).to_be_visible()
    context.close()


def test_the_computer_s_page_shows_no_friend_panel(browser, site):
    """Without an invite the friend panel stays away (its first line is an invite's only)."""
    context = browser.new_context(viewport=PHONES["390x844"])
    page = context.new_page()
    page.route("**/web/core/worker.js", lambda route: route.abort())
    page.goto(site.url, wait_until="domcontentloaded")
    expect(page.locator("[data-friend]")).to_be_hidden()
    expect(page.locator("[data-friend-first]")).to_be_hidden()
    context.close()
