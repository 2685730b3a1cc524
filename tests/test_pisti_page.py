"""The Pişti table against the computer (index.html + web/), played in Chromium.

A whole deck is played by clicking your cards by their accessible names ("Play
7♥"), as a person would, while pishe.web runs in this process with the same
seed and the same cards: the page must show exactly what that view says. The
pages are shared between scenarios (one page per test module): a Pyodide boot
is the costly part.
"""

from __future__ import annotations

import contextlib

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

import build
import pishe.web as local_web
from returning import welcome_back
from table_waits import press, wait_idle

RESULTS = Path(__file__).resolve().parent.parent / "test-results"
BOOT_MS = 120_000
SEED = 13  # your team takes the opening cards in deck 1; the match goes on after it
PISTI = '[data-game="pisti"]'  # Pişti's table on the page

# Everything the Pişti table shows that a view decides, read in one go.
READ_TABLE = """() => {
  const root = document.querySelector('[data-pishe-table][data-game="pisti"]');
  const q = (s, from = root) => from.querySelector(s);
  const code = (node) => (node ? node.dataset.code : null);
  const texts = (s) => [...root.querySelectorAll(s)].map((n) => n.textContent);
  const seats = {};
  for (const area of root.querySelectorAll("[data-place]")) {
    if (area.hidden) continue;
    seats[area.dataset.place] = {
      seat: Number(area.dataset.seat),
      name: q("[data-name]", area).textContent,
      label: area.getAttribute("aria-label"),
      turn: !q("[data-flag-turn]", area).hidden,
      dealer: !q("[data-flag-dealer]", area).hidden,
      flags: [...area.querySelectorAll(".seat-flag")].filter((f) => !f.hidden).map((f) => f.textContent),
      held: q("[data-held] [data-count]", area)?.textContent ?? null,
    };
  }
  const line = document.querySelector('[data-match-line="pisti"]');
  const result = q("[data-result]");
  return {
    seats,
    hand: [...root.querySelectorAll("[data-hand] button")].map((b) => ({
      name: b.getAttribute("aria-label"), code: b.dataset.action, enabled: b.getAttribute("aria-disabled") === "false" })),
    deck: q("[data-deck] [data-count]").textContent,
    pile: q("[data-pile] [data-count]").textContent,
    pileTop: code(q("[data-pile] .card.face")),
    under: q("[data-sent-under]").hidden ? [] : [...root.querySelectorAll("[data-sent-under] .card.face")].map(code),
    teams: [...root.querySelectorAll("[data-team]")].map((t) => ({
      name: q("[data-team-name]", t).textContent, score: q("[data-team-score]", t).textContent,
      taken: q("[data-team-taken]", t).textContent,
      pishti: [...t.querySelectorAll("[data-team-pishti] .card.face")].map(code) })),
    opening: q("[data-opening]").hidden ? null : [...root.querySelectorAll("[data-opening] .card.face")].map(code),
    status: q("[data-status]").textContent,
    since: texts("[data-since] li"),
    result: result.hidden ? null : {
      title: q("[data-result-title]").textContent,
      rows: [...result.querySelectorAll("tbody tr")].map((tr) => [...tr.children].map((c) => c.textContent)),
      teams: [...result.querySelectorAll("thead th")].map((th) => th.textContent) },
    nextDeck: !q("[data-next-deal]").hidden,
    takeOver: !q("[data-take-over]").hidden,
    length: q("[data-match-length]", line).textContent,
    deal: q("[data-deal]", line).textContent,
    dealer: q("[data-dealer]", line).textContent,
    error: q("[data-error]").textContent,
  };
}"""


# ---- helpers ---------------------------------------------------------------


def local(name: str, *args) -> dict:
    """Call pishe.web in this process, like the page's worker does."""
    return json.loads(getattr(local_web, name)(*args))


def settle(answer: dict) -> dict:
    """Let the computers move (as the page does on its timer); return the answer the page ends on."""
    while answer.get("computer_moves"):
        answer = local("computer_step")
        assert "error" not in answer, answer
    return answer


def code(card) -> str | None:
    return card["code"] if card else None


def assert_shows(table: dict, view: dict) -> None:
    """The page shows what the view (seat 0's) says."""
    names = view["names"]
    for place, k in (("bottom", 0), ("right", 1), ("top", 2), ("left", 3)):
        seat = (view["seat"] + k) % 4
        shown = table["seats"][place]
        assert shown["seat"] == seat and shown["name"] == names[seat], (place, shown)
        assert shown["turn"] == (view["turn"] == seat)
        assert shown["dealer"] == (view["dealer"] == seat)
        # The seat's accessible name and flags, as its place words them.
        words = view["places"][seat]
        assert shown["label"] == words["label"]
        assert shown["flags"] == [f for f in (words["turn_flag"], words["dealer_flag"]) if f]
        if place != "bottom":
            assert shown["held"] == str(view["hand_counts"][seat])
    assert table["hand"] == [{"name": f"Play {c['label']}", "code": c["code"], "enabled": c["code"] in view["legal"]}
                             for c in view["hand"]]
    assert table["deck"] == str(view["deck_count"])
    assert table["pile"] == str(view["pile"]["count"]) and table["pileTop"] == code(view["pile"]["top"])
    assert table["under"] == [c["code"] for c in view["sent_under"]]
    assert table["teams"] == [{"name": view["team_names"][t], "score": str(view["match"]["scores"][t]),
                               "taken": str(view["taken"][t]["count"]),
                               "pishti": [c["code"] for c in view["taken"][t]["pishti"] + view["taken"][t]["jack_pishti"]]}
                              for t in (0, 1)]
    assert table["opening"] == (None if view["opening"] is None else [c["code"] for c in view["opening"]])
    assert table["status"] == view["status"]
    assert table["since"] == view["since_last_turn"]
    result = view["deck_result"]
    if result is None and not view["match"]["result"]:
        assert table["result"] is None
    else:
        assert table["result"]["title"] == (view["match"]["result"] or "")
        assert table["result"]["rows"] == [[r["what"], *r["values"]] for r in (result or {"rows": []})["rows"]]
        assert table["result"]["teams"] == (result or {"teams": []})["teams"]
    match = view["match"]
    assert table["nextDeck"] == match["next_deal"]
    assert (table["length"], table["deal"], table["dealer"]) == (match["length_name"], str(match["deal"]),
                                                                names[view["dealer"]])
    assert table["error"] == ""


# ---- one page for the module -------------------------------------------------------


@contextlib.contextmanager
def ready_page(browser, returning_dist, seed: int = SEED):
    """A page of the built site (conftest's returning_dist), served for the module, in a
    returning visitor's browser (tests/returning.py), ready and idle, with no computer delay
    and the computer's deals from ``seed``; ``page.errors`` collects its console errors."""
    server = build.SiteServer(returning_dist).start()
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda msg: errors.append(f"console: {msg.text}") if msg.type == "error" else None)
    page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
    try:
        welcome_back(page, server)
        page.goto(f"{server.url}?delay=0&seed={seed}")
        expect(page.locator("body")).to_have_attribute("data-ready", "true", timeout=BOOT_MS)
        wait_idle(page)
        page.errors = errors
        yield page
    finally:
        context.close()
        server.stop()


@pytest.fixture(scope="module")
def pisti_page(browser, returning_dist):
    with ready_page(browser, returning_dist) as page:
        yield page


def choose_game(page: Page, name: str, table: str = PISTI) -> None:
    """The game choice: the game called ``name`` (its table ``table``), dealt at once with its
    own settings."""
    radio = page.get_by_role("radio", name=name, exact=True)
    if not radio.is_checked():
        press(page, radio.check, table)
    expect(page.get_by_role("heading", level=1, name=name, exact=True)).to_be_visible()
    assert page.title() == f"{name}: play the computer"


def choose_pisti(page: Page) -> None:
    """Pişti's table (:func:`choose_game`)."""
    choose_game(page, "Pişti")


def scores_line(view: dict) -> str:
    return ", ".join(f"{name} {points}" for name, points in zip(view["team_names"], view["match"]["scores"]))


def new_match(page: Page, table: str = PISTI) -> None:
    """New match of the game whose table is ``table``, confirmed when the page asks first (a
    match in progress would be lost). The page asks within the click, so its question is open,
    or not, once the click is done; a look at the match before it could be outdated by a
    computer's move in between."""
    dialog = page.get_by_role("dialog")

    def start():
        page.get_by_role("button", name="New match", exact=True).click()
        if dialog.is_visible():
            dialog.get_by_role("button", name="Start a new match", exact=True).click()
    press(page, start, table)


# ---- tests -----------------------------------------------------------------


def test_game_choice_settings_and_rules(pisti_page: Page):
    page = pisti_page
    expect(page.get_by_role("radio", name="Pishe Pasha", exact=True)).to_be_checked()
    choose_pisti(page)
    # Pişti's own settings (the seats kept for friends among them); Pishe Pasha's match lengths aside.
    for name in ("51", "101", "151", "No clock", "Relaxed 60 s", "Normal 30 s", "Fast 15 s"):
        expect(page.get_by_role("radio", name=name, exact=True)).to_be_visible()
    for name in ("Partner", "Right", "Left"):
        expect(page.get_by_role("checkbox", name=name, exact=True)).to_be_visible()
    expect(page.get_by_role("checkbox", name="Partner", exact=True)).to_be_checked()
    expect(page.get_by_role("radio", name="101", exact=True)).to_be_checked()
    expect(page.get_by_role("radio", name="No clock", exact=True)).to_be_checked()
    for name in ("One deal", "First to 50"):
        expect(page.get_by_role("radio", name=name, exact=True)).to_be_hidden()
    expect(page.get_by_role("button", name="Invite a friend")).to_be_visible()
    # (Batak's notes, hidden while Pişti is chosen, say the same of their seats.)
    expect(page.get_by_text("a link for each seat you keep for a friend").locator("visible=true")).to_be_visible()
    expect(page.get_by_role("group", name="Your hand")).to_be_visible()
    # Its own How to play, saying what is not played.
    rules = page.locator("details.rules:visible")
    rules.locator("summary").click()
    expect(rules).to_contain_text("Pişti")
    for variant in ("three players", "every player for themselves", "bluffing", "bottom card shown"):
        expect(rules).to_contain_text(variant)
    # What the browser keeps, truthfully: the match and a friend's seat in the tab, high
    # contrast, the site's files and Python's memory; nothing about you.
    for kept in ("This tab keeps the match you are playing (and, at a friend's table, what lets it take its seat back)",
                 "keeps the high contrast switch, and the site's files and Python's memory", "nothing about you"):
        expect(rules).to_contain_text(kept)
    rules.locator("summary").click()
    assert page.errors == []


def test_whole_deck_against_the_computer(pisti_page: Page):
    """Click through deck 1 to its end; every view on the way is the one pishe
    computes in this process for the same seed and the same cards."""
    page = pisti_page
    choose_pisti(page)
    new_match(page)
    expected = settle(local("new_match", "101", SEED, "pisti", None))
    plays = 0
    saw_opening = False
    while not expected["view"]["deck_result"]:
        view = expected["view"]
        assert_shows(page.evaluate(READ_TABLE), view)
        if view["opening"] and not saw_opening:
            # Your team took the opening cards: they are yours to look at.
            toggle = page.get_by_role("button", name="Opening cards", exact=True)
            expect(toggle).to_have_attribute("aria-expanded", "false")
            toggle.click()
            expect(toggle).to_have_attribute("aria-expanded", "true")
            for card in view["opening"]:
                expect(page.locator(PISTI).get_by_role("img", name=card["name"], exact=True).first).to_be_visible()
            saw_opening = True
        if plays == 5:
            RESULTS.mkdir(exist_ok=True)
            page.evaluate("window.scrollTo(0, 0)")
            page.wait_for_timeout(300)
            page.screenshot(path=str(RESULTS / "pisti-mid-deck.png"))
        card = view["hand"][plays % len(view["hand"])]
        if card["code"] not in view["legal"]:
            card = next(c for c in view["hand"] if c["code"] in view["legal"])
        press(page, page.get_by_role("button", name=f"Play {card['label']}", exact=True).click, PISTI)
        plays += 1
        expected = settle(local("act", card["code"]))
    assert plays == 12 and saw_opening
    view = expected["view"]
    assert_shows(page.evaluate(READ_TABLE), view)
    expect(page.locator(PISTI).get_by_role("table")).to_be_visible()
    # The live region said what happened, in the view's words.
    announced = page.locator("[data-announce] p").all_text_contents()
    assert "Your turn: play a card." in announced and announced[-3] == view["since_last_turn"][-1]
    # Then the deck's result and the match score, in Python's words.
    assert announced[-2:] == expected["news"] == [view["status"], f"Match score: {scores_line(view)}."]
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_timeout(400)
    page.screenshot(path=str(RESULTS / "pisti-deck-end.png"))

    # Next deck (key D): the deal moves one seat on.
    next_deck = page.get_by_role("button", name="Next deck", exact=True)
    expect(next_deck).to_have_attribute("aria-keyshortcuts", "D")
    expect(next_deck).to_be_focused()  # the deck's result banner took the focus
    press(page, lambda: page.keyboard.press("d"), PISTI)
    expected = settle(local("next_deal"))
    assert_shows(page.evaluate(READ_TABLE), expected["view"])
    assert expected["view"]["dealer"] == 0
    assert page.errors == []


def test_keyboard_plays_a_card(pisti_page: Page):
    """Tab reaches your hand, one stop; arrow keys, Home and End move among its cards;
    Enter plays the focused card, and through a whole deck (new hands included) the focus
    stays in the hand, never on the page's body, until the deck's result takes it."""
    page = pisti_page
    choose_pisti(page)
    new_match(page)
    expected = settle(local("new_match", "101", SEED, "pisti", None))
    hand = page.get_by_role("group", name="Your hand")
    first = hand.get_by_role("button").first
    for _ in range(40):
        page.keyboard.press("Tab")
        if first.evaluate("b => b === document.activeElement"):
            break
    assert first.evaluate("b => b === document.activeElement && b.matches(':focus-visible')")
    # Its ring is white, off the card's gold edge (not gold on gold).
    ring = first.evaluate("""(b) => { const s = getComputedStyle(b), card = getComputedStyle(b.querySelector('.card') || b);
      return [s.outlineStyle, s.outlineColor, parseFloat(s.outlineOffset), card.borderTopColor]; }""")
    assert ring[:2] == ["solid", "rgb(255, 255, 255)"] and ring[2] >= 3 and ring[3] != ring[1], ring
    assert hand.evaluate("h => [...h.children].map((b) => b.tabIndex)") == [0, -1, -1, -1]
    focused = "document.activeElement.getAttribute('aria-label')"
    labels = [f"Play {c['label']}" for c in expected["view"]["hand"]]
    for key, label in (("End", labels[3]), ("ArrowLeft", labels[2]), ("Home", labels[0]), ("ArrowRight", labels[1]),
                       ("ArrowLeft", labels[0]), ("ArrowLeft", labels[0])):
        page.keyboard.press(key)
        assert page.evaluate(focused) == label, key
    card = expected["view"]["hand"][0]
    press(page, lambda: page.keyboard.press("Enter"), PISTI)
    # The card went to the pile; the computers' answers are checked by the whole deck above.
    table = page.evaluate(READ_TABLE)
    assert card["code"] not in [c["code"] for c in table["hand"]] and len(table["hand"]) == 3
    assert table["error"] == ""
    assert page.evaluate("document.activeElement.closest('[data-hand]') !== null")
    for _ in range(11):
        press(page, lambda: page.keyboard.press("Enter"), PISTI)
        assert page.evaluate("document.activeElement.closest('[data-hand], [data-result]') !== null")
    expect(page.get_by_role("button", name="Next deck", exact=True)).to_be_focused()
    # On a touch phone the deck's result banner's buttons are a finger's size.
    cdp = page.context.new_cdp_session(page)
    cdp.send("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    page.set_viewport_size({"width": 390, "height": 844})
    try:
        page.wait_for_function("matchMedia('(pointer: coarse)').matches && innerWidth === 390")
        sizes = page.locator(f"{PISTI} [data-result] button:visible").evaluate_all(
            "bs => bs.map((b) => { const r = b.getBoundingClientRect(); return [b.textContent.trim(), r.width, r.height]; })")
        assert sizes and all(w >= 44 and h >= 44 for _, w, h in sizes), sizes
    finally:
        cdp.send("Emulation.setTouchEmulationEnabled", {"enabled": False})
        cdp.detach()
        page.set_viewport_size({"width": 1280, "height": 900})
    assert page.errors == []


def test_clock_timeouts_and_take_over(pisti_page: Page):
    """With a clock, a ring runs around your name; three timeouts and the computer
    plays your seat until you press Take over."""
    page = pisti_page
    choose_pisti(page)
    page.clock.install()
    page.get_by_role("radio", name="Fast 15 s", exact=True).check()
    # The page's time moves only as told from here until it is resumed (the match is dealt
    # with your turn first: no computer waits on a timer).
    page.clock.pause_at(page.evaluate("Date.now()") / 1000 + 1)
    new_match(page)
    clock = page.evaluate("window.pishe.call('current')")["clock"]
    assert {k: clock[k] for k in ("seat", "seconds", "label", "warnings")} == {
        "seat": 0, "seconds": 15, "label": "Clock: 15 seconds a card", "warnings": [10, 5]}
    ring = page.locator(f'{PISTI} [data-place="bottom"] [data-clock]')
    expect(ring).to_be_visible()
    # The ring has an accessible name, as Python words it.
    expect(page.get_by_role("timer", name="Clock: 15 seconds a card", exact=True)).to_be_visible()
    expect(page.get_by_role("group", name="You hold 4 cards", exact=True)).to_be_visible()
    assert ring.evaluate("r => r.style.getPropertyValue('--clock-seconds')") == "15s"
    # The last ten seconds show beside your name, the ring is named by them, and the page
    # says "10 seconds left" and "5 seconds left" in its polite live region.
    said = "() => [...document.querySelectorAll('[data-announce] p')].map((p) => p.textContent)"
    names = f'{PISTI} [data-place="bottom"] .name-ring'
    page.clock.run_for(5_000)
    expect(page.locator(names)).to_have_attribute("data-left", "10")
    expect(page.get_by_role("timer", name="10 seconds left", exact=True)).to_be_visible()
    assert page.evaluate(said)[-1] == "10 seconds left"
    page.clock.run_for(3_000)
    expect(page.locator(names)).to_have_attribute("data-left", "7")
    expect(page.get_by_role("timer", name="7 seconds left", exact=True)).to_be_visible()
    assert page.evaluate(said)[-1] == "10 seconds left"
    page.clock.run_for(2_000)
    assert page.evaluate(said)[-1] == "5 seconds left"
    page.clock.resume()
    held = [c["name"].removeprefix("Play ") for c in page.evaluate(READ_TABLE)["hand"]]
    page.evaluate("document.querySelector('[data-announce]').replaceChildren()")  # what is said from now
    press(page, lambda: page.clock.fast_forward(6_000), PISTI)
    # Your card was the computer's choice, and the step says so.
    timed_out = [line for line in page.evaluate(said) if line.startswith("Time ran out: ")]
    assert len(timed_out) == 1 and timed_out[0].startswith("Time ran out: the computer plays your ")
    assert timed_out[0].removeprefix("Time ran out: the computer plays your ").split(" ")[0].rstrip(":") in held
    for timeouts in range(2, 4):
        held = len(page.evaluate(READ_TABLE)["hand"])
        press(page, lambda: page.clock.fast_forward(16_000), PISTI)
        if timeouts < 3:
            # The table played a card for you, and your clock runs again.
            assert len(page.evaluate(READ_TABLE)["hand"]) in (held - 1, 4)
            expect(page.get_by_role("button", name="Take over")).to_be_hidden()
            expect(ring).to_be_visible()
    # The computer now plays your seat: Take over gives it back.
    take_over = page.get_by_role("button", name="Take over", exact=True)
    expect(take_over).to_be_visible()
    press(page, take_over.click, PISTI)
    expect(take_over).to_be_hidden()
    assert page.errors == []
    page.get_by_role("radio", name="No clock", exact=True).check()


def test_phone_and_high_contrast_look(pisti_page: Page):
    """At 360 px nothing runs off the side; high contrast draws the hand and teams in black, white and yellow."""
    page = pisti_page
    page.set_viewport_size({"width": 360, "height": 780})
    choose_pisti(page)
    new_match(page)
    RESULTS.mkdir(exist_ok=True)
    page.screenshot(path=str(RESULTS / "pisti-phone.png"), full_page=True)
    overflow = page.evaluate("""() => {
      const wide = [...document.querySelectorAll("body *")].filter((el) => {
        const r = el.getBoundingClientRect();
        return r.width > 0 && el.closest(".sr-only") === null && (r.right > innerWidth + 0.5 || r.left < -0.5);
      }).map((el) => el.className || el.tagName);
      return { scroll: document.documentElement.scrollWidth, wide };
    }""")
    assert overflow == {"scroll": 360, "wide": []}, overflow
    # Your cards are tap targets of a finger's size.
    sizes = page.locator(f"{PISTI} [data-hand] button").evaluate_all(
        "bs => bs.map((b) => { const r = b.getBoundingClientRect(); return [r.width, r.height]; })")
    assert sizes and all(w >= 44 and h >= 44 for w, h in sizes), sizes

    page.get_by_role("button", name="Settings and language").click()  # a phone's top bar keeps it in its menu
    page.get_by_role("switch", name="High contrast").check()
    page.keyboard.press("Escape")
    looks = page.evaluate("""() => {
      const root = document.querySelector('[data-game="pisti"]');
      const mine = getComputedStyle(root.querySelector(".team.mine"));
      const felt = getComputedStyle(root.querySelector(".felt"));
      return { team: mine.backgroundColor, ring: mine.boxShadow, felt: felt.backgroundColor };
    }""")
    assert looks["team"] == "rgb(0, 0, 0)" and "rgb(255, 255, 0)" in looks["ring"], looks
    assert looks["felt"] == "rgb(0, 0, 0)", looks
    page.screenshot(path=str(RESULTS / "pisti-phone-high-contrast.png"), full_page=True)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.get_by_role("switch", name="High contrast").uncheck()
    assert page.errors == []


def test_levels_easy_plays_a_whole_deck(pisti_page: Page):
    """Pişti's levels sit with its settings, Hard (the computer before levels) chosen; with
    Easy chosen, every view of a whole deck is the one pishe computes with Easy's bots."""
    page = pisti_page
    choose_pisti(page)
    levels = page.get_by_role("group", name="Computer", exact=True)
    for name in ("Easy", "Medium", "Hard"):
        expect(levels.get_by_role("radio", name=name, exact=True)).to_be_visible()
    expect(levels.get_by_role("radio", name="Hard", exact=True)).to_be_checked()
    expect(levels).to_contain_text("sometimes throws a jack away")
    levels.get_by_role("radio", name="Easy", exact=True).check()
    new_match(page)
    expected = settle(local("new_match", "101", SEED, "pisti", None, "easy"))
    while not expected["view"]["deck_result"]:
        view = expected["view"]
        assert_shows(page.evaluate(READ_TABLE), view)
        card = next(c for c in view["hand"] if c["code"] in view["legal"])
        press(page, page.get_by_role("button", name=f"Play {card['label']}", exact=True).click, PISTI)
        expected = settle(local("act", card["code"]))
    assert_shows(page.evaluate(READ_TABLE), expected["view"])
    levels.get_by_role("radio", name="Hard", exact=True).check()
    assert page.errors == []


# Each paint's table as the painter left it (on its pishe:painted event), the cards that
# flew as copies, and the script animations (the cards' moves) seen on any frame.
# A table's DOM as text, its attributes in name order (their order in the markup is history,
# not state), without the count of paints and the newcomer's hints (this visit's memory,
# shown once, not the move's).
# Each card's move as it starts (Element.animate, wrapped): its duration and the places
# (the painters' names: "hand:1", "pile", "team:0", "turned:0", "suit:C") under its start and
# end points, the smallest place holding each.
WATCH_PAINTS = """() => {
  window.watched = { doms: [], flights: 0, moving: 0, travels: [] };
  if (window.watching) return;
  window.watching = true;
  const placeAt = (x, y) => {
    const named = [];
    for (const el of document.querySelectorAll("[data-pishe-table] :is([data-team], [data-pile], [data-deck], .pile-suit, [data-place])")) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || x < r.left || x > r.right || y < r.top || y > r.bottom) continue;
      const seat = el.closest("[data-seat]")?.dataset.seat;
      const name = el.dataset.team !== undefined ? `team:${el.dataset.team}`
        : el.dataset.suit ? `suit:${el.dataset.suit}`
        : el.dataset.pile ? `${el.dataset.pile === "discard" ? "pile" : el.dataset.pile}:${seat}`
        : el.dataset.pile !== undefined ? "pile" : el.dataset.deck !== undefined ? "deck" : `hand:${seat}`;
      named.push([r.width * r.height, name]);
    }
    return named.sort((a, b) => a[0] - b[0]).map((n) => n[1])[0] || null;
  };
  const animate = Element.prototype.animate;
  Element.prototype.animate = function (frames, timing) {
    // Measured before the animation shifts it: a copy starts where it is and ends shifted;
    // a card drawn where it landed starts shifted back.
    if (!this.closest("[data-motion-layer], [data-pishe-table]")) return animate.call(this, frames, timing);
    const r = this.getBoundingClientRect();
    const shift = (frame) => (/translate\\(([-\\d.e]+)px, ([-\\d.e]+)px\\)/.exec(frame.transform) || [0, 0, 0]).slice(1).map(Number);
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const copy = this.closest("[data-motion-layer]") !== null;
    const [dx, dy] = shift(copy ? frames[frames.length - 1] : frames[0]);
    window.watched.travels.push({ duration: timing.duration, copy,
      from: copy ? placeAt(x, y) : placeAt(x + dx, y + dy), to: copy ? placeAt(x + dx, y + dy) : placeAt(x, y) });
    return animate.call(this, frames, timing);
  };
  const dom = (node) => {
    if (node.nodeType === Node.TEXT_NODE) return node.data;
    if (node.nodeType !== Node.ELEMENT_NODE || node.hasAttribute("data-hint")) return "";
    const attributes = [...node.attributes].filter((a) => a.name !== "data-paints").map((a) => `${a.name}=${JSON.stringify(a.value)}`).sort().join(" ");
    return `<${node.tagName} ${attributes}>${[...node.childNodes].map(dom).join("")}</${node.tagName}>`;
  };
  window.tableDom = dom;
  for (const root of document.querySelectorAll("[data-pishe-table]")) {
    root.addEventListener("pishe:painted", () => window.watched.doms.push(dom(root)));
  }
  const frame = () => {
    const moving = document.getAnimations().filter((a) => !(a instanceof CSSAnimation || a instanceof CSSTransition));
    window.watched.moving = Math.max(window.watched.moving, moving.length);
    const layer = document.querySelector("[data-motion-layer]");
    window.watched.flights = Math.max(window.watched.flights, layer ? layer.childElementCount : 0);
    requestAnimationFrame(frame);
  };
  frame();
}"""

# The sounds the page made: Web Audio sources started, counted on the prototypes.
COUNT_SOUNDS = """() => {
  window.sounds = 0;
  for (const name of ["createOscillator", "createBufferSource"]) {
    const made = AudioContext.prototype[name];
    AudioContext.prototype[name] = function (...args) { window.sounds += 1; return made.apply(this, args); };
  }
}"""


def play_moves(page: Page, game: str, moves: int) -> dict:
    """A new match of ``game`` (the page's seed: the same cards each time), your first
    enabled move ``moves`` times; what was painted and what moved on the way."""
    root = f'[data-pishe-table][data-game="{ {"Pişti": "pisti", "Pishe Pasha": "pishe-pasha"}[game] }"]'

    def painted(do) -> None:
        before = page.evaluate(f"document.querySelector('{root}').dataset.paints")
        do()
        page.wait_for_function(f"document.querySelector('{root}').dataset.paints !== '{before}'", timeout=30_000)
        wait_idle(page)
        # The last paint's cards start moving at its next frame: seen before the next move.
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")

    shown = page.get_by_role("radio", name=game, exact=True).is_checked()
    ask = page.get_by_role("button", name="New match", exact=True) if shown else page.get_by_role(
        "radio", name=game, exact=True)
    if page.evaluate("document.body.dataset.inProgress") == "true":
        ask.click()
        ok = "Start a new match" if shown else "Change the game"
        painted(page.get_by_role("dialog").get_by_role("button", name=ok, exact=True).click)
    else:
        painted(ask.click)
    page.evaluate(WATCH_PAINTS)
    table = page.locator(root)
    for _ in range(moves):
        painted(table.locator('[data-hand] button[aria-disabled="false"], .actions button[aria-disabled="false"]').first.click)
    page.wait_for_timeout(50)
    end = table.evaluate("t => window.tableDom(t)")
    return {**page.evaluate("window.watched"), "end": end}


def python_moves(game_id: str, moves: int) -> list:
    """The cards Python moves in :func:`play_moves`'s match (your first legal move ``moves``
    times, the computers answering), in order: (from, to)."""
    moved = []

    def seen(answer: dict) -> dict:
        moved.extend((m["from"], m["to"]) for m in answer.get("moves", []))
        return answer

    answer = settle(local("new_match", None, SEED, game_id, None))
    for _ in range(moves):
        view = answer["view"]
        first = (next(c["code"] for c in view["hand"] if c["code"] in view["legal"]) if game_id == "pisti"
                 else next(a for a in ("turn", "give", "keep") if a in view["legal"]))
        answer = seen(local("act", first))
        while answer.get("computer_moves"):
            answer = seen(local("computer_step"))
    return moved


def assert_travels(travels: list, expected: list, what: str) -> None:
    """The cards that moved on the page (each a copy or the card where it landed), in order, are
    Python's moves, some left out (a paint whose next came before a frame moved nothing; a
    card you gave moves from where the page drew it: the turned card); each 150-300 ms."""
    assert travels and all(150 <= t["duration"] <= 300 for t in travels), (what, travels)
    rest = iter(expected)
    for t in travels:
        seen = (t["from"], t["to"])
        assert any(seen == e or seen == (e[0].replace("pile:", "turned:"), e[1]) for e in rest), (
            what, seen, "not among Python's moves, in order", expected, travels)


def from_the_next_match(settings, note, own: str, other: str) -> None:
    """Mid-match, choosing ``other`` in ``settings`` shows ``note`` (it applies from the next
    match); choosing the match's ``own`` again takes it away."""
    expect(settings.get_by_role("radio", name=own, exact=True)).to_be_checked()
    settings.get_by_role("radio", name=other, exact=True).check()
    expect(note).to_be_visible()
    settings.get_by_role("radio", name=own, exact=True).check()
    expect(note).to_be_hidden()


def same_dom(a: str, b: str, what: str) -> None:
    """``a`` and ``b`` (a table's HTML) are the same; else where they first differ."""
    if a != b:
        at = next(i for i, (x, y) in enumerate(zip(a + "\0", b + "\0")) if x != y)
        raise AssertionError(f"{what}: …{a[max(0, at - 160):at + 80]}… != …{b[max(0, at - 160):at + 80]}…")


def test_moves_end_in_the_same_table_with_motion_and_with_reduced_motion(pisti_page: Page):
    """Cards travel (the computers' too, a capture's pile swept to its team), each paint is
    the view's final table at once: every paint and the end are the same DOM with motion
    and with prefers-reduced-motion, which moves nothing. Sounds, switched on, play what
    the moves did. The level is on the match line, and a setting changed mid-match (clock,
    level, length) says it applies from the next match."""
    page = pisti_page
    page.evaluate(COUNT_SOUNDS)
    sounds = page.get_by_role("switch", name="Sounds", exact=True)
    expect(sounds).not_to_be_checked()              # off by default
    sounds.check()
    moved, still = {}, {}
    note = page.get_by_role("status").filter(has_text="Changed settings apply from the next match.")
    for game in ("Pişti", "Pishe Pasha"):
        # The same match first, so that both runs compared start from the same page
        # (what a painter keeps of earlier views: which card just arrived, the steps shown).
        play_moves(page, game, 4)
        sounds.uncheck()
        moved[game] = play_moves(page, game, 4)
        page.emulate_media(reduced_motion="reduce")
        try:
            still[game] = play_moves(page, game, 4)
        finally:
            page.emulate_media(reduced_motion="no-preference")
        if game == "Pişti":
            made = page.evaluate("window.sounds")
            assert made > 0                          # the first run's, switched on
            # Mid-match, another clock applies from the next match.
            from_the_next_match(page.locator('[data-settings="pisti"]'), note, "No clock", "Fast 15 s")
    assert page.evaluate("window.sounds") == made    # none since it was switched off
    for game in moved:
        assert moved[game]["moving"] > 0 and still[game]["moving"] == 0 and still[game]["flights"] == 0
        assert len(moved[game]["doms"]) == len(still[game]["doms"]) > 4
        for paint, (with_motion, without) in enumerate(zip([*moved[game]["doms"], moved[game]["end"]],
                                                            [*still[game]["doms"], still[game]["end"]])):
            same_dom(with_motion, without, f"{game}, paint {paint}")
    assert moved["Pişti"]["flights"] > 0           # a capture: the pile flew to its team
    # Where each card went: Python's moves, in order (a paint that the next one followed before
    # a frame moved nothing: here the computers wait for nobody). The last paint's moves are
    # always seen: a computer's capture goes as a copy from the pile to its team's box, then
    # the new hand's packets.
    for game, game_id in (("Pişti", "pisti"), ("Pishe Pasha", "pishe-pasha")):
        assert_travels(moved[game]["travels"], python_moves(game_id, 4), game)
    pisti = [(t["from"], t["to"]) for t in moved["Pişti"]["travels"]]
    assert pisti[-6:] == [("hand:3", "pile"), ("pile", "team:1"), *[("deck", f"hand:{s}") for s in range(4)]], pisti
    # In Pishe Pasha, your give: the turned card goes to the other seat's pile.
    assert ("turned:0", "pile:1") in {(t["from"], t["to"]) for t in moved["Pishe Pasha"]["travels"]}

    # Pishe Pasha's moves are a row the arrow keys, Home and End move along.
    moves = page.locator('[data-game="pishe-pasha"] .actions')
    moves.get_by_role("button", name="Turn a card").focus()
    for key, name in (("ArrowRight", "Give"), ("End", "Keep"), ("ArrowLeft", "Give"), ("Home", "Turn a card")):
        page.keyboard.press(key)
        expect(moves.get_by_role("button", name=name)).to_be_focused()

    # The level on the table; another chosen mid-match applies from the next match.
    line = page.locator('[data-match-line="pishe-pasha"] [data-match-level]')
    expect(line).to_have_text("Level: Easy")
    settings = page.locator('[data-settings="pishe-pasha"]')
    from_the_next_match(settings, note, "Easy", "Hard")
    from_the_next_match(settings, note, "One deal", "First to 100")     # so does a length (a target)
    expect(line).to_have_text("Level: Easy")
    assert page.errors == []
