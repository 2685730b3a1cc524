"""Pişti for two on the page, in Chromium: a whole deck against the computer by the cards'
accessible names (every view checked against pishe.web run in this process with the same
seed), its table at desktop and phone width, and a whole deck with one friend who joins
by the link alone through a real Nostr relay, its page in Turkish (its own address's ?lang=tr)
while the host's stays English, dealt no-peek (no message the friend receives
names a card not yet played; the deck rebuilt from every page's messages ends as both pages
count it, and both pages verify it)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from pishe.table.game import get_game
from machinery import signaling
from test_friend import persistent_profiles
from test_pisti_friends import AUTOPLAY, HOST_DONE, PLAYED, Pages, check_deck
from test_language_page import ENGLISH, READ_ALL, TURKISH, foreign
from table_waits import press
from test_pisti_page import READ_TABLE, choose_game, local, ready_page, settle

TWO = get_game("pisti-2")
RESULTS = Path(__file__).resolve().parent.parent / "test-results"
BOOT_MS = 120_000
SEED = 21
TABLE = '[data-game="pisti-2"]'
READ_TWO = READ_TABLE.replace('"pisti"', '"pisti-2"')


# Installed on a page before the deck is played: counts the cards that set off from the other
# player's seat (the table's top) towards the middle, as motion.js starts them (a card drawn where
# it lands, moved back to where it was, or a copy flying from there): right as an animation is
# made, its card is where it starts. Whichever paints a no-peek move takes (its card closed, then
# opened), a card of theirs that travels is seen once it sets off.
WATCH_THEIR_CARDS = """(selector) => {
  const top = document.querySelector(selector + ' [data-place="top"]');
  window.theirCards = 0;
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (...args) {
    const animation = animate.apply(this, args);
    const [card, seat] = [this.getBoundingClientRect(), top.getBoundingClientRect()];
    const [x, y] = [card.left + card.width / 2, card.top + card.height / 2];
    if (this.matches(".card") && x > seat.left && x < seat.right && y > seat.top && y < seat.bottom) window.theirCards += 1;
    return animation;
  };
}"""


def assert_shows(table: dict, view: dict) -> None:
    """The page shows what seat 0's view says, the opponent across the table."""
    names = view["names"]
    assert set(table["seats"]) == {"bottom", "top"}
    for place, seat in (("bottom", 0), ("top", 1)):
        shown = table["seats"][place]
        assert shown["seat"] == seat and shown["name"] == names[seat], (place, shown)
        assert shown["turn"] == (view["turn"] == seat) and shown["dealer"] == (view["dealer"] == seat)
        assert shown["label"] == view["places"][seat]["label"]
    assert table["seats"]["top"]["held"] == str(view["hand_counts"][1])
    assert table["hand"] == [{"name": f"Play {c['label']}", "code": c["code"], "enabled": c["code"] in view["legal"]}
                             for c in view["hand"]]
    assert table["deck"] == str(view["deck_count"]) and table["pile"] == str(view["pile"]["count"])
    assert [t["name"] for t in table["teams"]] == view["team_names"]
    assert [t["score"] for t in table["teams"]] == [str(s) for s in view["match"]["scores"]]
    assert table["status"] == view["status"] and table["since"] == view["since_last_turn"]
    match = view["match"]
    assert (table["length"], table["deal"], table["dealer"]) == (match["length_name"], str(match["deal"]),
                                                                names[view["dealer"]])
    assert table["error"] == ""


@pytest.fixture(scope="module")
def two_page(browser, returning_dist):
    with ready_page(browser, returning_dist, SEED) as page:
        yield page


def choose_two(page: Page) -> None:
    choose_game(page, "Pişti for two", TABLE)


def painted(page: Page) -> None:
    """Wait until the page has painted what it just laid out (two animation frames)."""
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")


def shoot(page: Page, name: str) -> None:
    RESULTS.mkdir(exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    painted(page)
    page.screenshot(path=str(RESULTS / name))


def test_its_own_settings_and_rules(two_page: Page):
    page = two_page
    choose_two(page)
    for name in ("51", "101", "151", "No clock", "Fast 15 s"):
        expect(page.get_by_role("radio", name=name, exact=True)).to_be_visible()
    expect(page.get_by_role("radio", name="101", exact=True)).to_be_checked()
    expect(page.get_by_role("checkbox")).to_have_count(0)      # no seats to keep: the one other seat is the friend's
    expect(page.get_by_text("a link for your friend, who plays the other seat")).to_be_visible()
    rules = page.locator("details.rules:visible")
    rules.locator("summary").click()
    expect(rules).to_contain_text("for two players")
    expect(rules).to_contain_text("six hands of four")
    expect(rules).to_contain_text("16 points a deck")
    expect(rules).not_to_contain_text("two-player Pişti")
    rules.locator("summary").click()
    assert page.errors == []


def test_whole_deck_against_the_computer(two_page: Page):
    page = two_page
    choose_two(page)
    # The level is chosen by its name before the match, and the table's match line names it.
    levels = page.get_by_role("group", name="Computer", exact=True)
    for name in ("Easy", "Medium", "Hard"):
        expect(levels.get_by_role("radio", name=name, exact=True)).to_be_visible()
    levels.get_by_role("radio", name="Hard", exact=True).check()
    press(page, page.get_by_role("button", name="New match", exact=True).click, TABLE)
    expect(page.locator('[data-match-line="pisti-2"] [data-match-level]')).to_have_text("Level: Hard")
    expected = settle(local("new_match", "101", SEED, "pisti-2", None, "sampler"))
    assert_shows(page.evaluate(READ_TWO), expected["view"])
    expect(page.locator(f'{TABLE} [data-place="left"]')).to_be_hidden()
    expect(page.locator(f'{TABLE} [data-place="right"]')).to_be_hidden()
    expect(page.locator(f'{TABLE} [data-place="top"]')).to_contain_text("Computer")
    plays = 0
    while not expected["view"]["deck_result"]:
        view = expected["view"]
        assert_shows(page.evaluate(READ_TWO), view)
        if plays == 3:
            shoot(page, "pisti-two-desktop.png")
        card = next(c for c in view["hand"] if c["code"] in view["legal"])
        press(page, page.get_by_role("button", name=f"Play {card['label']}", exact=True).click, TABLE)
        plays += 1
        expected = settle(local("act", card["code"]))
    assert plays == 24                       # six hands of four
    view = expected["view"]
    assert_shows(page.evaluate(READ_TWO), view)
    expect(page.locator(TABLE).get_by_role("table")).to_be_visible()
    assert view["deck_result"]["teams"] == ["You", "Computer"]
    shoot(page, "pisti-two-deck-end.png")
    # Next deck: the deal passes to you, and the computer leads.
    press(page, page.get_by_role("button", name="Next deck", exact=True).click, TABLE)
    expected = settle(local("next_deal"))
    assert expected["view"]["dealer"] == 0 and expected["view"]["match"]["deal"] == 2
    assert_shows(page.evaluate(READ_TWO), expected["view"])
    # At phone width the two seats, the pile and your hand all fit.
    page.set_viewport_size({"width": 360, "height": 740})
    painted(page)
    shoot(page, "pisti-two-360.png")
    widths = page.evaluate("""(sel) => [...document.querySelectorAll(sel + ' [data-hand] button, ' + sel + ' [data-place]')]
        .filter((n) => !n.hidden).map((n) => n.getBoundingClientRect().right)""", TABLE)
    assert widths and max(widths) <= 360
    page.set_viewport_size({"width": 1280, "height": 900})
    assert page.errors == []


# ---- with a friend -------------------------------------------------------------------


@pytest.fixture(scope="module")
def profiles(browser_type, browser_type_launch_args, tmp_path_factory, nostr_relay, module_site):
    with persistent_profiles(browser_type, browser_type_launch_args, tmp_path_factory, ("host", "guest 1"),
                             {"**/signaling.json": signaling([nostr_relay])}, module_site) as launched:
        yield launched


@pytest.fixture
def pages(profiles, module_site, console_errors):
    p = Pages(profiles, module_site, console_errors)
    yield p
    p.close()


def test_a_whole_deck_with_a_friend(pages: Pages):
    host = pages.page("host")
    host.goto(pages.site.url + "?delay=30")
    expect(host.locator("body")).to_have_attribute("data-ready", "true", timeout=BOOT_MS)
    host.get_by_role("radio", name="Pişti for two", exact=True).check()
    host.get_by_role("button", name="Invite a friend", exact=True).click()
    box = host.get_by_role("textbox", name="Invite link", exact=True)
    expect(box).not_to_have_value("", timeout=20_000)
    # The friend reads Turkish: its own page's address says so; the invite link carries no language.
    link = box.input_value()
    assert "lang" not in link and "?" not in link.split("#")[0]
    guest = pages.page("guest 1")
    guest.goto(link.replace("#join=", "?lang=tr#join="))
    expect(host.locator("[data-friend-status]")).to_have_text("Connected", timeout=BOOT_MS)
    expect(guest.locator("[data-friend-status]")).to_have_text("Bağlandı", timeout=BOOT_MS)
    expect(guest.get_by_role("textbox", name="Yanıt kodu", exact=True)).to_be_hidden()
    expect(host.locator(f'{TABLE} [data-place="top"] [data-name]')).to_have_text("Friend", timeout=BOOT_MS)
    guest.wait_for_function("() => window.pisheFriend.state.view && window.pisheFriend.state.view.seat === 1",
                            timeout=BOOT_MS)
    expect(guest.locator(f'{TABLE} [data-place="top"] [data-name]')).to_have_text("Arkadaş")
    assert guest.title() == "İki kişilik Pişti: bir arkadaşla oyna" and host.title() == "Pişti for two: play a friend"
    assert [page.evaluate("document.documentElement.lang") for page in (host, guest)] == ["en", "tr"]
    autoplay = AUTOPLAY.replace('[data-game="pisti"]', f'{TABLE}')
    for page in (host, guest):
        page.evaluate(WATCH_THEIR_CARDS, f"[data-pishe-table]{TABLE}")
        page.evaluate(autoplay, 99)
    host.wait_for_function(HOST_DONE, arg=[99], timeout=180_000, polling=50)
    assert host.evaluate("(" + PLAYED + ")(window.pisheFriend.state.view)") == 48
    assert [page.evaluate("window.__autoplay.clicks") for page in (host, guest)] == [24, 24]
    expect(host.locator("[data-fair]")).to_have_text("Deck 1 verified", timeout=20_000)
    expect(guest.locator("[data-fair]")).to_have_text("El 1 doğrulandı", timeout=20_000)
    # The other player's cards travel on each page: the friend's on the host's, the host's on the friend's.
    travelled = {name: page.evaluate("window.theirCards") for name, page in (("host", host), ("guest", guest))}
    assert min(travelled.values()) > 0, travelled
    check_deck(guest, TWO)
    guest_view = guest.evaluate("window.pisheFriend.state.view")
    assert guest_view["game"] == "pisti-2" and guest_view["deck_result"]["teams"] == ["Sen", "Arkadaş"]
    # Your side's box first, as seen and as a screen reader reads them (the friend's is team 1).
    for page, (you, friend) in ((host, ("You", "Friend")), (guest, ("Sen", "Arkadaş"))):
        teams = page.locator(f"{TABLE} [data-teams]")
        expect(teams).to_match_aria_snapshot(f'- region "{you}"\n- region "{friend}"')
        yours, theirs = (teams.get_by_role("region", name=name, exact=True).bounding_box() for name in (you, friend))
        assert yours["x"] < theirs["x"]
    # Each page in its own player's language, the deck's count table included.
    assert foreign(host.evaluate(READ_ALL), TURKISH) == [] and foreign(guest.evaluate(READ_ALL), ENGLISH) == []
    for name, errors in pages.errors.items():
        assert [e for e in errors if "Service Worker" not in e] == [], (name, errors)
