"""Batak's table against the computer (index.html + web/games/batak/), played in Chromium.

A whole deal is played by pressing buttons by their accessible names (the bids in "Your
bid", the suits in "Name trumps", "Play 7♥" in your hand), as a person would, while
pishe.web runs in this process with the same seed: every view on the way must be the one
the page shows. One page for the module (a Pyodide boot is the costly part).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from axe import violations
from test_friend import Table, profiles  # noqa: F401  (the host's and the friend's browsers)
from test_language_page import TWO_FRAMES
from table_waits import press
from test_pisti_page import local, new_match, ready_page, settle

RESULTS = Path(__file__).resolve().parent.parent / "test-results"
SEED = 2  # the auction comes back to you with bids open; you win it at 6
TABLES = {"batak": '[data-pishe-table][data-game="batak"]', "batak-esli": '[data-pishe-table][data-game="batak-esli"]'}
NAMES = {"batak": "Batak", "batak-esli": "Eşli Batak"}
PLACES = ("bottom", "right", "top", "left")

# Everything the table shows that a view decides, read in one go.
READ_TABLE = """(root) => {
  root = document.querySelector(root);
  const q = (s, from = root) => from.querySelector(s);
  const shown = (n) => n && !n.hidden;
  const seats = {};
  for (const area of root.querySelectorAll(".batak-seat[data-place]")) {
    seats[area.dataset.place] = {
      seat: Number(area.dataset.seat), name: q("[data-name]", area).textContent, label: area.getAttribute("aria-label"),
      flags: [...area.querySelectorAll(".seat-flag")].filter((f) => !f.hidden).map((f) => f.textContent),
      bids: [...area.querySelectorAll("[data-bids] .bid")].map((b) => b.textContent),
      taken: q("[data-taken]", area).textContent, held: q("[data-held] [data-count]", area)?.textContent ?? null };
  }
  const result = q("[data-result]");
  return {
    seats,
    hand: [...root.querySelectorAll("[data-hand] button")].map((b) => ({
      name: b.getAttribute("aria-label"), enabled: b.getAttribute("aria-disabled") === "false" })),
    moves: [...root.querySelectorAll("[data-bidding]:not([hidden]) button, [data-trump-choice]:not([hidden]) button")]
      .map((b) => [b.dataset.action, b.textContent]),
    trick: Object.fromEntries([...root.querySelectorAll("[data-trick-place]")].filter(shown).map((f) =>
      [f.dataset.trickPlace, f.querySelector(".card.face").dataset.code])),
    contract: shown(q("[data-contract]")) ? q("[data-contract]").textContent : null,
    scores: [...root.querySelectorAll("[data-scores] tbody tr")].map((tr) => [...tr.children].map((c) => c.textContent)),
    status: q("[data-status]").textContent,
    since: [...root.querySelectorAll("[data-since] li")].map((n) => n.textContent),
    result: result.hidden ? null : {
      caption: q("[data-deal-caption]").textContent,
      rows: [...result.querySelectorAll("tbody tr")].map((tr) => [...tr.children].map((c) => c.textContent)) },
    error: q("[data-error]").textContent,
  };
}"""


def choose_game(page: Page, game: str) -> None:
    """The game choice: ``game``'s table, dealt at once, its name the page's heading and title."""
    name = NAMES[game]
    radio = page.get_by_role("radio", name=name, exact=True)
    if not radio.is_checked():
        def change():
            radio.check()
            dialog = page.get_by_role("dialog")
            if dialog.is_visible():  # a match in progress would be lost: the page asks first
                dialog.get_by_role("button", name="Change the game", exact=True).click()
        press(page, change, TABLES[game])
    expect(page.get_by_role("heading", level=1, name=name, exact=True)).to_be_attached()
    assert page.title() == f"{name}: play the computer"


def assert_shows(table: dict, view: dict) -> None:
    """The page shows what seat 0's view says."""
    names = view["names"]
    for k, place in enumerate(PLACES):
        seat = (view["seat"] + k) % 4
        shown, words = table["seats"][place], view["places"][seat]
        assert (shown["seat"], shown["name"], shown["label"]) == (seat, names[seat], words["label"]), place
        assert shown["flags"] == [f for f in (words["turn_flag"], words["dealer_flag"], words["declarer_flag"]) if f]
        assert shown["bids"] == view["auction"]["lines"][seat]["bids"]
        assert shown["taken"] == words["tricks"]
        if place != "bottom":
            assert shown["held"] == str(view["hand_counts"][seat])
    # Every card, named to be played, enabled exactly when the view lists it as legal.
    assert table["hand"] == [{"name": c["play_label"], "enabled": c["code"] in view["legal"]} for c in view["hand"]]
    assert table["moves"] == [[a["action"], a["label"]] for a in view["actions"] if view["phase"] in ("auction", "trump")]
    assert table["trick"] == {PLACES[(t["seat"] - view["seat"]) % 4]: t["card"]["code"] for t in view["trick"]}
    assert table["contract"] == (view["contract"]["text"] if view["contract"] else None)
    scores = view["match"]["scores"]
    assert table["scores"] == [[name, str(view["team_tricks"][t]), str(scores[t])]
                               for t, name in enumerate(view["team_names"])]
    assert table["status"] == view["status"] and table["since"] == view["since_last_turn"]
    result = view["deal_result"]
    if result is None:
        assert table["result"] is None
    else:
        rows = [*result["rows"], *result["history"], result["total"]]
        assert table["result"] == {"caption": result["heading"], "rows": [[r["what"], *r["values"]] for r in rows]}
    assert table["error"] == ""


def move_button(page: Page, game: str, view: dict, action: str):
    """The button of ``action`` by its accessible name, in its group."""
    root = page.locator(TABLES[game])
    if view["phase"] == "play":
        card = next(c for c in view["hand"] if c["code"] == action)
        return root.get_by_role("group", name="Your hand").get_by_role("button", name=card["play_label"], exact=True)
    label = next(a["label"] for a in view["actions"] if a["action"] == action)
    group = "Your bid" if view["phase"] == "auction" else "Name trumps"
    return root.get_by_role("group", name=group).get_by_role("button", name=label, exact=True)


def choose(view: dict, bid_once: bool) -> str:
    """Your move: one bid (the lowest open) the first time, then pass; the first trump; the first legal card."""
    if view["phase"] == "auction":
        bids = [a for a in view["legal"] if a.startswith("bid ")]
        return bids[0] if bid_once and bids else "pass"
    return view["legal"][0]


def play_deal(page: Page, game: str, seed: int, on_turn=None) -> dict:
    """New match of ``game``; the whole first deal played through the buttons, every view checked.
    ``on_turn(view)`` is called at each of your turns, before you move: true, it has seen what it
    looks for and the deal stops there. Returns the last answer."""
    choose_game(page, game)
    new_match(page, TABLES[game])
    expected = settle(local("new_match", "8", seed, game, None))
    bid_once = True
    while expected["view"]["turn"] is not None:
        view = expected["view"]
        # The computers' moves are painted one by one: read the table once it is your turn there too.
        page.wait_for_function(f"document.querySelector('{TABLES[game]}').dataset.turn === 'mine'", timeout=30_000)
        assert_shows(page.evaluate(READ_TABLE, TABLES[game]), view)
        assert view["turn"] == view["seat"]
        if on_turn and on_turn(view):
            return expected
        action = choose(view, bid_once)
        bid_once = bid_once and not action.startswith("bid ")
        press(page, move_button(page, game, view, action).click, TABLES[game])
        expected = settle(local("act", action))
    assert_shows(page.evaluate(READ_TABLE, TABLES[game]), expected["view"])
    return expected


@pytest.fixture(scope="module")
def batak_page(browser, returning_dist):
    with ready_page(browser, returning_dist, SEED) as page:
        yield page


def test_whole_deal_against_the_computer_with_axe(batak_page: Page):
    """Bid, name trumps, play thirteen tricks by accessible names; axe finds nothing in the
    auction, the trump choice, a trick in play and the deal's table."""
    page = batak_page
    seen: dict[str, list] = {}

    def check(view):
        phase = "trick" if view["phase"] == "play" and view["trick"] else view["phase"]
        if phase not in seen:
            seen[phase] = violations(page)
    expected = play_deal(page, "batak", SEED, check)
    view = expected["view"]
    seen["deal end"] = violations(page)
    assert set(seen) == {"auction", "trump", "play", "trick", "deal end"}
    assert all(found == [] for found in seen.values()), seen
    # The deal's table: contract, each seat's tricks, the deal's points, the total.
    table = page.locator(TABLES["batak"]).get_by_role("table").filter(has_text=view["deal_result"]["heading"])
    expect(table).to_be_visible()
    expect(table.get_by_role("row").last).to_contain_text("Total")
    assert sum(view["tricks"]) == 13
    next_deal = page.get_by_role("button", name="Next deal", exact=True)
    expect(next_deal).to_be_focused()
    # On a phone, in Turkish, the seats' names over the columns stay whole ("Karşıdaki") and
    # the table fits its panel.
    size = page.viewport_size
    deal_count = page.locator(TABLES["batak"] + " .deal-count")
    page.locator("[data-language]").select_option("tr")
    expect(deal_count.get_by_role("row").last).to_contain_text("Toplam")
    for width, height in ((360, 740), (320, 640)):
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate(TWO_FRAMES)
        fit = page.evaluate("""(root) => {
          const t = document.querySelector(root + ' .deal-count');
          return { heads: [...t.querySelectorAll('thead th')].filter((h) => h.scrollWidth > h.clientWidth)
                     .map((h) => h.textContent),
                   over: t.getBoundingClientRect().width - t.closest('[data-result]').clientWidth };
        }""", TABLES["batak"])
        assert fit["heads"] == [] and fit["over"] <= 0, (width, fit)
        page.screenshot(path=str(RESULTS / f"batak-deal-end-tr-{width}.png"))
    page.set_viewport_size(size)
    page.locator("[data-language]").select_option("en")
    expect(deal_count.get_by_role("row").last).to_contain_text("Total")
    next_deal.focus()
    press(page, lambda: page.keyboard.press("d"), TABLES["batak"])
    expected = settle(local("next_deal"))
    assert_shows(page.evaluate(READ_TABLE, TABLES["batak"]), expected["view"])
    assert page.errors == []


def test_keyboard_bids_names_trumps_and_plays(batak_page: Page):
    """Your bids are one Tab stop, the arrow keys move among them, Enter bids; so are the
    trumps; in play the focus stays in your hand, Enter plays the focused card."""
    page = batak_page
    choose_game(page, "batak")
    new_match(page, TABLES["batak"])
    expected = settle(local("new_match", "8", SEED, "batak", None))
    assert expected["view"]["phase"] == "auction"
    bids = page.locator(TABLES["batak"]).get_by_role("group", name="Your bid")
    first = bids.get_by_role("button").first
    for _ in range(60):
        page.keyboard.press("Tab")
        if first.evaluate("b => b === document.activeElement"):
            break
    assert first.evaluate("b => b === document.activeElement && b.matches(':focus-visible')")
    assert bids.evaluate("g => [...g.children].filter((b) => b.tabIndex === 0).length") == 1
    page.keyboard.press("ArrowRight")  # from Pass to the lowest bid open
    action = expected["view"]["actions"][1]["action"]
    assert page.evaluate("document.activeElement.dataset.action") == action
    press(page, lambda: page.keyboard.press("Enter"), TABLES["batak"])
    expected = settle(local("act", action))
    while expected["view"]["phase"] == "auction":
        press(page, lambda: page.keyboard.press("Enter"), TABLES["batak"])  # the focus went to the first move: Pass
        expected = settle(local("act", "pass"))
    assert expected["view"]["phase"] == "trump"
    # The focus is on the trumps, ready: the first is named with Enter.
    assert page.evaluate("document.activeElement.closest('[data-trump-choice]') !== null")
    trump = page.evaluate("document.activeElement.dataset.action")
    press(page, lambda: page.keyboard.press("Enter"), TABLES["batak"])
    expected = settle(local("act", trump))
    for _ in range(13):
        view = expected["view"]
        if view["turn"] is None:
            break
        assert page.evaluate("document.activeElement.closest('[data-hand]') !== null")
        page.keyboard.press("Home")
        page.keyboard.press("End")
        # The roving stop is on a card you may play; arrows reach the first one.
        focused = page.evaluate("document.activeElement.dataset.action")
        while focused != view["legal"][0]:
            page.keyboard.press("ArrowLeft" if [c["code"] for c in view["hand"]].index(focused) >
                                [c["code"] for c in view["hand"]].index(view["legal"][0]) else "ArrowRight")
            focused = page.evaluate("document.activeElement.dataset.action")
        press(page, lambda: page.keyboard.press("Enter"), TABLES["batak"])
        expected = settle(local("act", view["legal"][0]))
    expect(page.get_by_role("button", name="Next deal", exact=True)).to_be_focused()
    assert page.errors == []


LAYOUT = """(root) => {
  root = document.querySelector(root);
  const boxes = [...root.querySelectorAll("button")].filter((b) => b.getClientRects().length > 0 && !b.closest("[hidden]"))
    .map((b) => { const r = b.getBoundingClientRect();
      return { name: b.getAttribute("aria-label") || b.textContent.trim(), l: r.left, t: r.top, r: r.right, b: r.bottom }; });
  const small = boxes.filter((b) => b.r - b.l < 44 || b.b - b.t < 44).map((b) => [b.name, b.r - b.l, b.b - b.t]);
  const off = boxes.filter((b) => b.b > innerHeight + 0.5 || b.r > innerWidth + 0.5 || b.l < -0.5 || b.t < -0.5)
    .map((b) => b.name);
  const overlap = [];
  boxes.forEach((a, i) => boxes.slice(i + 1).forEach((b) => {
    if (Math.min(a.r, b.r) - Math.max(a.l, b.l) > 0.5 && Math.min(a.b, b.b) - Math.max(a.t, b.t) > 0.5) overlap.push([a.name, b.name]);
  }));
  const wide = [...document.querySelectorAll("body *")].filter((el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && !el.closest(".sr-only, [data-motion-layer]") && (r.right > innerWidth + 0.5 || r.left < -0.5);
  }).map((el) => el.className || el.tagName);
  return { count: boxes.length, small, off, overlap, wide, scroll: document.documentElement.scrollWidth };
}"""


@pytest.mark.parametrize("width,height", [(360, 740), (390, 844), (844, 390)])
def test_touch_targets_on_the_first_screen(batak_page: Page, width, height):
    """On a touch phone every control of the table (thirteen cards, the bids, the trumps) is
    at least 44 px each way, on the first screen, and none overlaps another; nothing runs
    off the side."""
    page = batak_page
    cdp = page.context.new_cdp_session(page)
    cdp.send("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    page.set_viewport_size({"width": width, "height": height})
    found = {}
    try:
        page.wait_for_function(f"matchMedia('(pointer: coarse)').matches && innerWidth === {width}")

        def measure(view):
            phase = view["phase"]
            if phase not in found:
                page.evaluate("window.scrollTo(0, 0)")
                page.wait_for_timeout(250)  # the cards' travel ends
                found[phase] = page.evaluate(LAYOUT, TABLES["batak"])
                RESULTS.mkdir(exist_ok=True)
                page.screenshot(path=str(RESULTS / f"batak-{phase}-{width}x{height}.png"))
            return phase == "play"
        play_deal(page, "batak", SEED, measure)
    finally:
        cdp.send("Emulation.setTouchEmulationEnabled", {"enabled": False})
        cdp.detach()
        page.set_viewport_size({"width": 1280, "height": 900})
    assert set(found) == {"auction", "trump", "play"}
    assert found["play"]["count"] >= 13
    for phase, layout in found.items():
        assert layout["small"] == [] and layout["off"] == [] and layout["overlap"] == [], (phase, layout)
        assert layout["wide"] == [] and layout["scroll"] == width, (phase, layout)
    assert page.errors == []


def test_high_contrast_look(batak_page: Page):
    """High contrast draws the felt black, the playable cards ringed in yellow and the others faded."""
    page = batak_page
    page.set_viewport_size({"width": 390, "height": 844})
    page.get_by_role("button", name="Settings and language").click()
    page.get_by_role("switch", name="High contrast").check()
    page.keyboard.press("Escape")
    looks = {}

    def look(view):
        if view["phase"] == "play" and view["trick"] and not looks:
            looks.update(page.evaluate("""(root) => {
              root = document.querySelector(root);
              const card = (s) => getComputedStyle(root.querySelector(s + " .card"));
              return { felt: getComputedStyle(root.querySelector(".felt")).backgroundColor,
                       playable: card('.hand-card[aria-disabled="false"]').boxShadow,
                       other: root.querySelector('.hand-card[aria-disabled="true"]')
                         ? card('.hand-card[aria-disabled="true"]').opacity : "0.4" };
            }""", TABLES["batak"]))
            RESULTS.mkdir(exist_ok=True)
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=str(RESULTS / "batak-phone-high-contrast.png"))
        return bool(looks)
    try:
        play_deal(page, "batak", SEED, look)
    finally:
        page.set_viewport_size({"width": 1280, "height": 900})
        page.get_by_role("switch", name="High contrast").uncheck()
    assert looks["felt"] == "rgb(0, 0, 0)" and "rgb(255, 255, 0)" in looks["playable"], looks
    assert float(looks["other"]) <= 0.5, looks
    assert page.errors == []


def test_esli_deal(batak_page: Page):
    """Eşli Batak: the seat opposite is your partner, the scores are by team, the minimum is 7;
    a whole deal plays through the buttons and axe finds nothing at its end."""
    page = batak_page
    expected = play_deal(page, "batak-esli", SEED)
    view = expected["view"]
    assert view["names"][2] == "Partner" and len(view["team_names"]) == 2
    assert view["auction"]["minimum"] == 7
    assert violations(page) == []
    assert page.errors == []


# ---- with a friend ------------------------------------------------------------------

# Installed in a friends' table page: whenever the page is idle and its own view says it is
# its seat's turn, it presses the button of the view's first legal move (pass, the first
# trump, the lowest card), as a timeout would; the test waits on the host's view alone.
AUTOPLAY = """() => {
  if (window.__autoplay) return;
  window.__autoplay = { last: null, clicks: 0 };
  const tick = () => {
    const s = window.pisheFriend && window.pisheFriend.state;
    const v = s && s.view;
    if (v && v.legal && v.legal.length && v.turn === v.seat && v !== window.__autoplay.last &&
        document.body.dataset.idle === "true") {
      const button = document.querySelector(`[data-game="batak"] [data-action="${CSS.escape(v.legal[0])}"]`);
      if (button && button.getAttribute("aria-disabled") !== "true") {
        window.__autoplay.last = v;
        window.__autoplay.clicks += 1;
        button.click();
      }
    }
    setTimeout(tick, 20);
  };
  tick();
}"""
DEAL_OVER = ("() => { const s = window.pisheFriend && window.pisheFriend.state; const v = s && s.view;"
             " return Boolean(v && v.deal_result && document.body.dataset.idle === 'true'); }")


@pytest.fixture
def table(profiles, module_site, console_errors):  # noqa: F811
    t = Table(profiles, module_site, console_errors)
    yield t
    t.close()


def test_a_deal_with_a_friend_and_two_computers(table):
    """The host keeps the seat across for a friend; the friend's page joins by its link and
    both pages play a whole deal through their own buttons, two computers in the other seats.
    Each page shows its own seat at the bottom and the deal's table at the end."""
    host, guest = table.host, table.guest
    host.goto(table.site.url + "?delay=30&hold=600&silent=600")
    expect(host.locator("body")).to_have_attribute("data-ready", "true", timeout=120_000)
    radio = host.get_by_role("radio", name="Batak", exact=True)
    if not radio.is_checked():
        radio.check()
    expect(host.get_by_role("checkbox", name="Across", exact=True)).to_be_checked()
    host.get_by_role("checkbox", name="Right", exact=True).set_checked(False)
    host.get_by_role("checkbox", name="Left", exact=True).set_checked(False)
    host.get_by_role("button", name="Invite a friend", exact=True).click()
    dialog = host.get_by_role("dialog")
    if dialog.is_visible():
        dialog.get_by_role("button", name="Invite a friend", exact=True).click()
    table.join(table.invite_link())
    for page in (host, guest):
        page.evaluate(AUTOPLAY)
    host.wait_for_function(DEAL_OVER, timeout=90_000, polling=100)
    guest.wait_for_function(DEAL_OVER, timeout=60_000, polling=100)
    views = [page.evaluate("window.pisheFriend.state.view") for page in (host, guest)]
    assert [v["seat"] for v in views] == [0, 2] and all(v["game"] == "batak" for v in views)
    # The same deal on both pages: each seat's tricks, seen from each side.
    assert views[0]["tricks"] == views[1]["tricks"]
    assert sum(views[0]["tricks"]) == sum(views[1]["tricks"]) == 13
    for page, view in zip((host, guest), views):
        shown = page.evaluate(READ_TABLE, TABLES["batak"])
        assert shown["seats"]["bottom"]["seat"] == view["seat"] and shown["seats"]["top"]["seat"] == (view["seat"] + 2) % 4
        assert shown["result"]["caption"] == view["deal_result"]["heading"]
        assert page.evaluate("window.__autoplay.clicks") >= 13
    RESULTS.mkdir(exist_ok=True)
    guest.screenshot(path=str(RESULTS / "batak-friend-guest-deal-end.png"))
    for who, errors in table.errors.items():
        assert [e for e in errors if "Service Worker" not in e] == [], (who, errors)
