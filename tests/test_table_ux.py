"""The computer's table as a phone player meets it (issue 31), in Chromium, by accessible names.

The last screen: the deck-end and match-end panels under the header and scrollable into view
on a phone on its side and at 200% zoom, with the match's Total, and Play again on them; the
Pişti table's labels apart at 200%. The game the player came
for: the address's (?game=), the last one played, a Turkish page's Pişti. Settings where
people look: the ☰ menu (Sounds, Fast computers, Back closes it), a target chosen before
the first card, the game tabs at 320 px, the confirm dialog's two choices, the first-move
hint and the words for a touch screen.

A match's end is reached as the tab keeps a match (sessionStorage, web/tables/computer.js):
pishe.web plays it here, in this process, and the page deals it again where it was.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

import build
import pishe.web as local_web
from axe import violations
from returning import welcome_back
from table_waits import wait_idle

RESULTS = Path(__file__).resolve().parent.parent / "test-results"
BOOT_MS = 120_000
SEED = 7
#: The tab's kept match (web/tables/computer.js's MATCH_KEY) and how the page keeps it.
KEEP = """([settings, saved]) => sessionStorage.setItem("pishe-computer-match", JSON.stringify(
  {v: 2, address: location.search, settings, saved, said: [], language: document.documentElement.lang}))"""
PHONE_ON_ITS_SIDE = {"viewport": {"width": 844, "height": 390}, "has_touch": True}
ZOOM_200 = {"viewport": {"width": 640, "height": 400}, "device_scale_factor": 2}   # 1280×800 at 200%
#: Pairs of the Pişti table's labels, seats' names, flags and cards that overlap (none: []).
OVERLAPS = """() => {
  const root = document.querySelector('[data-pishe-table][data-game="pisti"]');
  const shown = [...root.querySelectorAll(
    ".pisti-middle figcaption, .seat-flag, .held figcaption, .backs, .pisti-middle .slot, .player-name, .mini-cards")]
    .filter((e) => e.getClientRects().length > 0);
  const found = [];
  for (const [i, a] of shown.entries()) for (const b of shown.slice(i + 1)) {
    if (a.contains(b) || b.contains(a)) continue;
    const r = a.getBoundingClientRect(), q = b.getBoundingClientRect();
    const w = Math.min(r.right, q.right) - Math.max(r.left, q.left);
    const h = Math.min(r.bottom, q.bottom) - Math.max(r.top, q.top);
    if (w > 1 && h > 1) found.push(`${a.textContent.trim() || a.className} over ${b.textContent.trim() || b.className}`);
  }
  return found;
}"""


def local(name: str, *args) -> dict:
    """Call pishe.web in this process, as the page's worker does."""
    answer = json.loads(getattr(local_web, name)(*args))
    assert "error" not in answer, answer
    return answer


def played(game: str, length: str, until: str) -> dict:
    """An answer of a match of ``game`` played here (your moves: the first legal one) up to
    ``until``: "deck" (a deck's count, the match going on), "match" (its end), "under" (your
    turn with a jack sent under the deck)."""
    answer = local("new_match", length, SEED, game, None, None)
    while True:
        view = answer["view"]
        match = view.get("match") or {}
        if match.get("over") or (until == "deck" and match.get("next_deal")):
            return answer
        if until == "under" and view.get("sent_under") and view["turn"] == view["seat"]:
            return answer
        if answer["computer_moves"]:
            answer = local("computer_step")
        elif match.get("next_deal"):
            answer = local("next_deal")
        else:
            answer = local("act", str(view["legal"][0]))


@pytest.fixture(scope="module")
def server(returning_dist):
    with build.SiteServer(returning_dist) as served:
        yield served


def open_page(browser, server, query: str = "delay=0", locale: str = "en-US", **options) -> Page:
    """A new context's page of the site at ``?query``, ready, in a returning visitor's browser
    (tests/returning.py); ``page.errors`` its console's errors."""
    context = browser.new_context(locale=locale, **{"viewport": {"width": 390, "height": 844}, **options})
    page = context.new_page()
    page.errors = []
    page.on("console", lambda msg: page.errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    welcome_back(page, server)
    page.goto(f"{server.url}?{query}")
    ready(page)
    return page


def ready(page: Page) -> None:
    expect(page.locator("body")).to_have_attribute("data-ready", "true", timeout=BOOT_MS)
    wait_idle(page)


def deal_where(page: Page, answer: dict) -> None:
    """The page deals the match of ``answer`` again where it was, as after a reload."""
    page.evaluate(KEEP, [answer["settings"], answer["saved"]])
    page.reload()
    ready(page)


def table(page: Page, game: str):
    return page.locator(f'[data-pishe-table][data-game="{game}"]')


@pytest.mark.parametrize("look", ["phone on its side", "200%"])
def test_the_result_panels_start_under_the_header_and_scroll_into_view(browser, server, look):
    """Each panel's lines in view; at a match's end Play again has the focus and deals anew (on a
    phone on its side; Pishe Pasha's: test_protect_page.py). At 200% the Pişti table's labels
    stay apart first, with a jack sent under the deck."""
    page = open_page(browser, server, **(PHONE_ON_ITS_SIDE if look == "phone on its side" else ZOOM_200))
    RESULTS.mkdir(exist_ok=True)
    if look == "200%":
        deal_where(page, played("pisti", "51", "under"))
        under = table(page, "pisti").locator("[data-sent-under]")
        expect(under).to_be_visible()
        expect(under).to_contain_text("Under the deck")
        assert page.evaluate(OVERLAPS) == []
        page.screenshot(path=str(RESULTS / "ux-pisti-200-under.png"))
    for game in ("pisti", "pisti-2"):
        for until in ("deck", "match"):
            answer = played(game, "51", until)
            deal_where(page, answer)
            panel = table(page, game).locator("[data-result]")
            expect(panel).to_be_visible()
            # Its top is under the header, in the page (not above its top, out of reach).
            header = page.locator(".topbar").bounding_box()
            page.evaluate("window.scrollTo(0, 0)")
            top = panel.bounding_box()["y"]
            assert top >= header["y"] + header["height"], (game, until, top, header)
            # Every line of it can be scrolled into view and is seen there, not covered.
            lines = [panel.locator("caption")]
            if until == "match":
                lines.insert(0, panel.locator("[data-result-title]"))
            for line in [*lines, panel.locator("tfoot th"), panel.get_by_role("button").first]:
                line.scroll_into_view_if_needed()
                seen = line.evaluate("""(node) => {
                  const r = node.getBoundingClientRect();
                  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
                  return r.top >= -1 && r.bottom <= innerHeight + 1 && Boolean(hit) && (node.contains(hit) || hit.contains(node));
                }""")
                assert seen, (game, until, line)
            # The match so far against its target, under the deck's points.
            scores = answer["view"]["match"]["scores"]
            team = answer["view"]["team"]
            expect(panel.locator("tfoot tr")).to_have_text(
                f"Total (target 51){scores[team]}{scores[1 - team]}")
            page.screenshot(path=str(RESULTS / f"ux-result-{look.replace(' ', '-')}-{game}-{until}.png"))
            if until == "match" and look == "phone on its side":
                again = panel.get_by_role("button", name="Play again", exact=True)
                expect(again).to_be_focused()             # the match's end: the panel has the focus
                again.click()
                ready(page)
                expect(panel).to_be_hidden()
                assert page.evaluate("document.body.dataset.inProgress") == "false"
    assert page.errors == []
    page.context.close()


def checked_game(page: Page) -> str:
    return page.locator('input[name="game"]:checked').get_attribute("value")


def test_the_page_opens_on_the_game_of_the_address_the_last_played_or_the_language(browser, server):
    page = open_page(browser, server)
    assert checked_game(page) == "pishe-pasha"                  # an English first visit: the first game
    page.get_by_role("radio", name="Pişti for two", exact=True).check()
    ready(page)
    expect(table(page, "pisti-2")).to_be_visible()
    assert "game=pisti-2" in page.url                           # the address names it: a bookmark, a link
    # A new tab of this browser opens on the game last played.
    again = page.context.new_page()
    again.goto(f"{server.url}?delay=0")
    ready(again)
    assert checked_game(again) == "pisti-2"
    expect(table(again, "pisti-2")).to_be_visible()
    # An address that names a game opens on it.
    again.goto(f"{server.url}?delay=0&game=pisti")
    ready(again)
    assert checked_game(again) == "pisti" and again.title() == "Pişti: play the computer"
    page.context.close()
    # A Turkish first visit with no address: Pişti, in Turkish.
    turkish = open_page(browser, server, locale="tr-TR")
    assert checked_game(turkish) == "pisti"
    expect(table(turkish, "pisti")).to_be_visible()
    assert turkish.title() == "Pişti: bilgisayara karşı oyna"
    tabs_on_one_line_at_320(turkish, "tr-TR")
    assert turkish.errors == []
    turkish.context.close()


@pytest.mark.parametrize("locale, query, game", [("en-US", "", "pisti-2"), ("en-US", "&game=pisti", "pisti"),
                                                 ("tr-TR", "", "pisti")])
def test_the_game_the_page_opens_on_is_its_first_paint(browser, server, locale, query, game):
    """The game the page opens on (here the last played, Pişti for two; an address's; a Turkish
    page's) is the table, the radio and the tab's title of its first paint: shown before any
    module runs (none does here: the page's modules and the worker are not served)."""
    context = browser.new_context(locale=locale, service_workers="block")
    context.add_init_script('localStorage.setItem("pishe.game", "pisti-2")' if locale == "en-US" else "")
    page = context.new_page()
    page.route("**/web/{tables,core}/*.js", lambda route: route.abort())
    page.goto(f"{server.url}?delay=0{query}", wait_until="domcontentloaded")
    page.wait_for_function("!document.documentElement.dataset.words")    # a Turkish page: its words in place
    expect(table(page, game)).to_be_visible()
    expect(table(page, "pishe-pasha")).to_be_hidden()
    titles = {"pisti-2": "Pişti for two: play the computer", "pisti": "Pişti: play the computer"}
    assert checked_game(page) == game
    assert page.title() == (titles[game] if locale == "en-US" else "Pişti: bilgisayara karşı oyna")
    context.close()


def test_a_turkish_tab_title_is_turkish_before_the_page_words_come(browser, server):
    """A cold Turkish visit: the tab's title is Turkish from the start (the build's titles),
    while the page's words (web/lang/tr.js) are still on their way, and after."""
    context = browser.new_context(locale="tr-TR", service_workers="block")
    page = context.new_page()
    held = []
    page.route("**/web/lang/tr.js", lambda route: held.append(route))
    page.goto(f"{server.url}?delay=0", wait_until="domcontentloaded")
    assert page.evaluate("document.documentElement.dataset.words") == "pending"
    assert page.title() == "Pişti: bilgisayara karşı oyna"
    held[0].continue_()
    page.wait_for_function("!document.documentElement.dataset.words")
    assert page.title() == "Pişti: bilgisayara karşı oyna"
    context.close()


def test_the_menu_holds_the_page_settings_and_back_closes_it(browser, server):
    page = open_page(browser, server, "game=pisti", has_touch=True)
    menu = page.get_by_role("button", name="Settings and language")
    menu.click()
    expect(menu).to_have_attribute("aria-expanded", "true")
    panel = page.locator("[data-page-settings]")
    for name in ("High contrast", "Sounds", "Fast computers"):
        expect(panel.get_by_role("switch", name=name, exact=True)).to_be_visible()
    expect(panel.get_by_role("combobox", name="Language")).to_be_visible()
    # The computers' pace: 700 ms a move, 250 ms with Fast computers, remembered.
    assert page.evaluate("window.pishe.delay()") == 700
    panel.get_by_role("switch", name="Fast computers", exact=True).check()
    assert page.evaluate("window.pishe.delay()") == 250
    # Phone Back with the menu open closes the menu; the page and its match stay.
    address = page.url
    page.go_back()
    expect(menu).to_have_attribute("aria-expanded", "false")
    assert page.url == address
    expect(table(page, "pisti")).to_be_visible()
    page.reload()
    ready(page)
    assert page.locator("[data-fast]").is_checked() and page.evaluate("window.pishe.delay()") == 250
    # Opened and closed by its button: the menu's step in the history is gone back from.
    menu.click()
    assert page.evaluate("history.state.menu") is True
    menu.click()
    expect(menu).to_have_attribute("aria-expanded", "false")
    page.wait_for_function("!(history.state && history.state.menu)")
    assert page.errors == []
    page.context.close()


def test_a_target_chosen_before_the_first_card_applies_to_that_match(browser, server):
    page = open_page(browser, server, f"delay=0&seed={SEED}&game=pisti", viewport={"width": 1280, "height": 800})
    line = page.locator('[data-match-line="pisti"]')
    expect(line.locator("[data-match-length]")).to_have_text("First to 101")
    settings = page.locator('[data-settings="pisti"]')
    settings.get_by_role("radio", name="51", exact=True).check()
    ready(page)
    expect(line.locator("[data-match-length]")).to_have_text("First to 51")
    note = page.locator("[data-settings-note]")
    expect(note).to_be_hidden()
    # Once a card is played it applies from the next match, and the note says so.
    table(page, "pisti").locator("[data-hand] button[aria-disabled='false']").first.click()
    ready(page)
    settings.get_by_role("radio", name="151", exact=True).check()
    expect(note).to_be_visible()
    expect(line.locator("[data-match-length]")).to_have_text("First to 51")
    assert page.errors == []
    page.context.close()


def tabs_on_one_line_at_320(page: Page, locale: str) -> None:
    """At 320 px every game tab keeps its name on one line."""
    RESULTS.mkdir(exist_ok=True)
    page.set_viewport_size({"width": 320, "height": 640})
    lines = page.evaluate("""() => [...document.querySelectorAll('.game-choice .segmented span')].map((span) => {
      const range = document.createRange();
      range.selectNodeContents(span);
      return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
    })""")
    assert len(lines) >= 3 and set(lines) == {1}, (locale, lines)
    page.screenshot(path=str(RESULTS / f"ux-320-{locale}.png"))


def test_phone_details_tabs_confirm_hint_and_tap(browser, server):
    page = open_page(browser, server, "delay=0&game=pisti", viewport={"width": 390, "height": 844}, has_touch=True,
                     is_mobile=True)
    tabs_on_one_line_at_320(page, "en-US")          # Turkish: the test above
    page.set_viewport_size({"width": 390, "height": 844})
    pisti = table(page, "pisti")
    # A touch screen's hint says tap, and it sits under the scores: closing it moves them not.
    hint = pisti.locator("[data-hint]")
    expect(hint).to_be_visible()
    expect(hint).to_contain_text("tap a card")
    expect(hint).not_to_contain_text("click")
    # Where the scores sit on the page, not in the window: the click may scroll the button into view.
    on_page = "(el) => el.getBoundingClientRect().top + window.scrollY"
    scores = pisti.locator("[data-teams]").evaluate(on_page)
    hint.get_by_role("button", name="Got it").click()
    expect(hint).to_be_hidden()
    assert pisti.locator("[data-teams]").evaluate(on_page) == scores
    # Mid-match, New match asks first: the choice that throws the match away looks unlike the safe one.
    pisti.locator("[data-hand] button[aria-disabled='false']").first.click()
    ready(page)
    page.get_by_role("button", name="New match", exact=True).click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    look = """(b) => { const s = getComputedStyle(b); return [s.backgroundImage, s.backgroundColor, s.color, s.boxShadow]; }"""
    safe = dialog.get_by_role("button", name="Keep playing").evaluate(look)
    risky = dialog.get_by_role("button", name="Start a new match").evaluate(look)
    assert safe[0] != risky[0] and safe[2] != risky[2], (safe, risky)
    page.screenshot(path=str(RESULTS / "ux-confirm-390.png"))
    assert violations(page) == []
    dialog.get_by_role("button", name="Keep playing").click()
    assert page.errors == []
    page.context.close()
