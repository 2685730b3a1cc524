"""The computer table page (index.html + web/), played in Chromium.

A deal is played by clicking the buttons by their accessible names, as a person
would, while pishe.web runs in this process with the same seed and the same
actions: the page must show exactly what that view says.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

import build
import pishe.web as local_web
from pishe.table.words import LOADING, PAGE
from table_waits import press, wait_idle
from test_table_ux import deal_where

RESULTS = Path(__file__).resolve().parent.parent / "test-results"
BOOT_MS = 120_000
PASHA = '[data-game="pishe-pasha"]'  # Pishe Pasha's table on the page
SEED = 390  # a one-deal match of 46 actions you lead (the computer wins it), with gives and a recycle on the way

BUTTON = {"turn": "Turn a card", "give": "Give", "keep": "Keep"}
KEY = {"turn": "t", "give": "g", "keep": "k"}

# Everything the page shows that a view decides, read in one go.
READ_TABLE = """() => {
  const q = (s, root = document) => root.querySelector(s);
  const texts = (s) => [...document.querySelectorAll(s)].map((n) => n.textContent);
  const seat = (place) => {
    const area = q(`[data-place="${place}"]`);
    const pile = (kind) => q(`[data-pile="${kind}"]`, area);
    return {
      name: q("[data-seat-name]", area).textContent,
      score: q("[data-seat-score]", area).textContent,
      stock: q("[data-count]", pile("stock")).textContent,
      discard: q("[data-count]", pile("discard")).textContent,
      discardTop: (q(".card.face", pile("discard")) || {}).dataset?.code || null,
      turned: pile("turned").hidden ? null : q(".card.face", pile("turned")).dataset.code,
    };
  };
  return {
    bottom: seat("bottom"),
    top: seat("top"),
    suitPiles: [...document.querySelectorAll(".pile-suit")].map(
      (f) => (q(".card.face", f) || {}).dataset?.code || null),
    disabled: Object.fromEntries([...document.querySelectorAll("[data-action]")].map(
      (b) => [b.dataset.action, b.getAttribute("aria-disabled") === "true"])),
    nextDealShown: !q("[data-next-deal]").hidden,
    why: q("[data-why]").textContent,
    status: q("[data-status]").textContent,
    thisTurn: texts("[data-this-turn] li"),
    lastTurn: texts("[data-last-turn] li"),
    lastTurnTitle: q("[data-last-turn-title]").textContent,
    deal: q("[data-deal]").textContent,
    dealer: q("[data-dealer]").textContent,
    length: q("[data-match-length]").textContent,
    error: q("[data-error]").textContent,
    announced: texts("[data-announce] p"),
  };
}"""


# ---- the browser: a returning visitor's, but where a test needs a first visit ----------


@pytest.fixture(scope="module")
def returning_visitor(returning_browser):
    """One server and one persistent browser profile (conftest's returning_browser, kept
    for the session): after the session's first boot Pyodide comes from the profile's disk
    cache and Python's memory from its snapshot, as for a returning visitor. Service
    workers are blocked here; the tests of what a page keeps run on a first visit
    (`fresh`). Each module starts with nothing in the origin's local storage (a module
    that failed mid-way may have left something)."""
    context, server = returning_browser
    tab = context.new_page()
    try:
        tab.goto(server.url + "signaling.json")
        tab.evaluate("localStorage.clear()")
    finally:
        tab.close()
    return context, server


@pytest.fixture
def site(returning_visitor):
    """The module's server: one origin, so the profile's cache applies."""
    return returning_visitor[1]


@pytest.fixture
def page(returning_visitor):
    """A new tab (its own sessionStorage) in the returning visitor's profile."""
    tab = returning_visitor[0].new_page()
    yield tab
    tab.close()


@pytest.fixture
def fresh(context, dist_dir):
    """(page, server) of a first visit: a new browser context, nothing stored, service
    workers allowed, and a server of its own (stop() and start() keep its origin)."""
    with build.SiteServer(dist_dir) as server:
        yield context.new_page(), server


# ---- helpers ---------------------------------------------------------------


def local(name: str, *args) -> dict:
    """Call pishe.web in this process, like the page's worker does."""
    return json.loads(getattr(local_web, name)(*args))


def settle(answer: dict) -> tuple[dict, list[str]]:
    """Let the computer move (as the page does on its timer); return the answer
    the page ends on and every step text and news announced on the way."""
    steps = [*answer["steps"], *answer["news"]]
    while answer.get("computer_moves"):
        answer = local("computer_step")
        assert "error" not in answer, answer
        steps += [*answer["steps"], *answer["news"]]
    return answer, steps


def open_table(page: Page, site, query: str = "") -> None:
    page.goto(site.url + (f"?{query}" if query else ""))
    expect(page.locator("body")).to_have_attribute("data-ready", "true", timeout=BOOT_MS)
    wait_idle(page)


def finish_animations(page: Page) -> None:
    """Wait until the page's running animations that end (a card arriving, a banner's
    entrance; not the endless glow of a target) have ended."""
    page.evaluate("""Promise.allSettled(document.getAnimations()
      .filter((a) => a.effect && a.effect.getComputedTiming().endTime < Infinity).map((a) => a.finished))""")


def read_table(page: Page) -> dict:
    return page.evaluate(READ_TABLE)


def code(card) -> str | None:
    return card["code"] if card else None


def assert_shows(table: dict, view: dict) -> None:
    """The page shows what the view (seat 0's) says."""
    legal = view["legal"]
    assert table["disabled"] == {a: a not in legal for a in BUTTON}, (table["disabled"], legal)
    assert table["why"] == view["why"]["text"]
    if "give" in legal and view["names"][0] == "You":
        assert table["why"] == (f"You may give your {view['give_card']['label']} "
                                f"onto their {view['discards'][1]['top']['label']}.")
    assert table["status"] == view["status"]
    assert table["thisTurn"] == view["this_turn"]["steps"]
    assert table["lastTurn"] == view["other_last_turn"]["steps"]
    assert table["lastTurnTitle"] == view["other_last_turn"]["title"]
    for place, seat in (("bottom", 0), ("top", 1)):
        shown = table[place]
        assert shown["name"] == view["names"][seat]
        assert shown["stock"] == str(view["stocks"][seat]["count"])
        assert shown["discard"] == str(view["discards"][seat]["count"])
        assert shown["discardTop"] == code(view["discards"][seat]["top"])
        assert shown["score"] == str(view["match"]["scores"][seat])
        assert shown["turned"] == (code(view["turned"]) if view["turn"] == seat else None)
    assert table["suitPiles"] == [code(p["top"]) for p in view["suit_piles"]]
    match = view["match"]
    assert table["deal"] == str(match["deal"])
    assert table["dealer"] == view["names"][match["dealer"]]
    assert table["length"] == match["length_name"]
    assert table["nextDealShown"] == match["next_deal"]
    assert table["error"] == ""


def choose(legal: list[str]) -> str:
    """A person's simple play: give when Give is enabled, else keep, else turn."""
    return "give" if "give" in legal else "keep" if "keep" in legal else "turn"


def play_deal(page: Page, expected: dict, by_keyboard: bool = False, shots: bool = False) -> tuple[dict, int]:
    """Play the deal on the page to its end, checking every view against pishe in
    this process; return the last view and the number of your actions."""
    actions = 0
    mid_shot = False
    while True:
        view = expected["view"]
        table = read_table(page)
        assert_shows(table, view)
        if view["deal_result"]:
            return view, actions
        action = choose(view["legal"])
        if shots and not mid_shot and (actions >= 12 and "keep" in view["legal"] or actions == 40):
            RESULTS.mkdir(exist_ok=True)
            page.evaluate("window.scrollTo(0, 0)")
            finish_animations(page)  # let the newest card finish arriving
            page.screenshot(path=str(RESULTS / "mid-game.png"))
            mid_shot = True
        if by_keyboard:
            press(page, lambda: page.keyboard.press(KEY[action]))
        else:
            button = page.get_by_role("button", name=BUTTON[action], exact=True)
            press(page, button.click)
        actions += 1
        expected, _ = settle(local("act", action))


# ---- tests -----------------------------------------------------------------


def test_table_is_painted_before_any_script(browser, site):
    """index.html alone (no JavaScript) already shows the table and its buttons."""
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(site.url)
        expect(page.get_by_role("group", name="Suit piles")).to_be_visible()
        for name in ("Turn a card", "Give", "Keep", "New match"):
            expect(page.get_by_role("button", name=name, exact=True)).to_be_visible()
        expect(page.get_by_role("progressbar", name="Starting the game")).to_be_visible()
        expect(page.locator("[data-seat-name]")).to_have_text(["Computer", "You"])
    finally:
        context.close()


def test_boots_with_progress_and_first_paint(page: Page, site, console_errors):
    errors = console_errors(page)
    # Record every progress value the bar shows while Python starts, each step's words with
    # whether the bar runs on its own meanwhile (.running), and the moment the table turns ready.
    page.add_init_script("""
      window.__progress = [];
      window.__stages = [];
      window.__readyAt = null;
      new MutationObserver((records) => {
        for (const r of records) {
          if (r.attributeName === "aria-valuenow") window.__progress.push(Number(r.target.getAttribute("aria-valuenow")));
          else if (r.attributeName === "data-ready" && window.__readyAt === null && document.body.dataset.ready === "true") window.__readyAt = performance.now();
        }
        const stage = document.querySelector("[data-loader-stage]"), bar = document.querySelector("[data-progress-bar]");
        const now = stage && bar && [stage.textContent, bar.classList.contains("running")];
        const last = window.__stages[window.__stages.length - 1];
        if (now && (!last || last[0] !== now[0] || last[1] !== now[1])) window.__stages.push(now);
      }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true,
                             attributeFilter: ["aria-valuenow", "data-ready", "class"] });
    """)
    open_table(page, site)
    progress = page.evaluate("window.__progress")
    assert len(progress) >= 3 and progress == sorted(progress), progress
    assert any(0 < p < 100 for p in progress), progress
    # Python's start is a step of its own, in Python's words, and the bar moves on through it.
    stages = page.evaluate("window.__stages")
    assert [f"{LOADING['runtime']}…", True] in stages, stages
    expect(page.get_by_role("progressbar")).to_be_hidden()

    # The table's markup paints while Python is still starting, not once it is ready
    # (how soon is bench/boot.py's to measure: no test asserts a time).
    fcp, ready = page.evaluate(
        "[performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null, window.__readyAt]")
    assert fcp is not None and ready is not None and fcp < ready, (fcp, ready)

    # Exactly these accessible names, shortcuts declared to assistive technology.
    for name, key in (("Turn a card", "T"), ("Give", "G"), ("Keep", "K"), ("New match", "N")):
        button = page.get_by_role("button", name=name, exact=True)
        expect(button).to_have_count(1)
        expect(button).to_have_attribute("aria-keyshortcuts", key)
    for name in ("One deal", "First to 50", "First to 100"):
        expect(page.get_by_role("radio", name=name, exact=True)).to_have_count(1)
    expect(page.get_by_role("radio", name="One deal")).to_be_checked()
    expect(page.get_by_role("switch", name="High contrast", exact=True)).to_have_count(1)
    expect(page.get_by_role("button", name="Next deal")).to_be_hidden()

    # A fresh deal: you lead, nothing turned yet.
    expected = local("new_match", "one-deal", None)
    table = read_table(page)
    assert table["bottom"]["stock"] == table["top"]["stock"] == "26"
    assert table["disabled"] == {"turn": False, "give": True, "keep": True}
    assert table["why"] == expected["view"]["why"]["text"] == "Can't give: your pile is empty."
    assert table["status"] == "Your turn."

    details = page.locator("details.rules:visible")
    details.locator("summary").click()
    expect(details).to_contain_text("not the War-like game")
    expect(details).to_contain_text("Not played here:")
    for variant in ("stop", "Sam Caron", "three-player", "Denexa"):
        expect(details).to_contain_text(variant)
    expect(details).to_contain_text("the site's files and Python's memory so that the game starts faster and plays "
                                    "offline: nothing about you.")
    assert errors == []


def test_whole_deal_against_the_computer(page: Page, site, console_errors):
    """Click through a one-deal match to its end; every view on the way is the one
    pishe computes in this process for the same seed and the same actions."""
    errors = console_errors(page)
    open_table(page, site, f"delay=0&seed={SEED}")
    expected, steps = settle(local("new_match", "one-deal", SEED))
    view, actions = play_deal(page, expected, shots=True)
    assert actions > 20

    result = view["deal_result"]
    winner = ("You", "Computer")[result["winner"]]
    box = page.locator(PASHA + " [data-result]")
    expect(box).to_be_visible()
    expect(box.locator("[data-result-title]")).to_have_text(
        "You win the deal!" if result["winner"] == 0 else f"{winner} wins the deal")
    expect(box.locator("[data-result-points]")).to_have_text(f"{result['points']} points")
    scores = view["match"]["scores"]
    expect(box.locator("[data-result-match]")).to_have_text(
        f"Match over. Final score: You {scores[0]} · Computer {scores[1]}")
    expect(page.get_by_role("button", name="Next deal")).to_be_hidden()  # one deal: the match is over
    page.evaluate("window.scrollTo(0, 0)")
    finish_animations(page)  # the result's entrance
    page.screenshot(path=str(RESULTS / "deal-end.png"))
    assert errors == []


def test_live_region_announces_every_step(page: Page, site, console_errors):
    errors = console_errors(page)
    open_table(page, site, f"delay=0&seed={SEED}")
    _, announced = settle(local("new_match", "one-deal", SEED))  # "Deal 1 is dealt. Dealer: Computer."
    for _ in range(8):
        view = local("current")["view"]
        action = choose(view["legal"])
        press(page, page.get_by_role("button", name=BUTTON[action], exact=True).click)
        _, steps = settle(local("act", action))
        announced += steps
    log = page.get_by_role("log")
    expect(log).to_have_attribute("aria-live", "polite")
    shown = read_table(page)["announced"]
    # Each step, the computer's too, and "Your turn." when the turn comes back to you.
    assert "Your turn." in shown
    steps = [s for s in shown if s != "Your turn."]
    assert steps == announced[-len(steps):] and len(shown) == min(len(announced) + shown.count("Your turn."), 40)
    assert any(s.startswith("They ") for s in steps)
    assert errors == []


# Marks each card (or place) shown and each line of the step lists, with what its slot showed.
MARK_SHOWN = """() => {
  for (const slot of document.querySelectorAll('[data-pishe-table] [data-slot]')) {
    slot.__key = slot.dataset.key;
    if (slot.firstElementChild) slot.firstElementChild.__shown = true;
  }
  for (const li of document.querySelectorAll('[data-pishe-table] ol > li')) li.__shown = true;
}"""
# After a move: the slots that show what they showed with a node drawn again, the slots kept,
# the slots changed; the lines drawn again while the lines before them stayed.
REDRAWN = """() => {
  const slots = [...document.querySelectorAll('[data-pishe-table] [data-slot]')].filter((s) => s.firstElementChild);
  const same = slots.filter((s) => s.__key === s.dataset.key);
  const lines = [...document.querySelectorAll('[data-pishe-table] ol')].flatMap((ol) => {
    const kept = [...ol.children].filter((li) => li.__shown).length;
    return kept ? [...ol.children].slice(0, kept).filter((li) => !li.__shown) : [];
  });
  return { redrawn: same.filter((s) => !s.firstElementChild.__shown).map((s) => s.dataset.key),
           kept: same.length, changed: slots.length - same.length, lines: lines.length };
}"""


def test_a_redraw_keeps_what_it_does_not_change(page: Page, site, console_errors):
    """A move's redraw replaces only the cards that changed, and adds lines to the step lists
    without drawing the others again: a new node, however alike, is painted again (on a
    phone, battery). The cards kept still say what the view says."""
    errors = console_errors(page)
    open_table(page, site, f"delay=0&seed={SEED}")
    expected, _ = settle(local("new_match", "one-deal", SEED))
    changed = 0
    for _ in range(6):
        view = expected["view"]
        action = choose(view["legal"])
        page.evaluate(MARK_SHOWN)
        press(page, page.get_by_role("button", name=BUTTON[action], exact=True).click)
        expected, _ = settle(local("act", action))
        found = page.evaluate(REDRAWN)
        assert found["redrawn"] == [] and found["lines"] == 0 and found["kept"] > 0, found
        changed += found["changed"]
        assert_shows(read_table(page), expected["view"])
    assert changed > 0
    assert errors == []


def test_computer_moves_on_a_timer(page: Page, site, console_errors):
    """With a delay the computer's steps arrive one by one, and your buttons stay
    disabled while it moves."""
    errors = console_errors(page)
    open_table(page, site, f"delay=150&seed={SEED}")
    expected = local("new_match", "one-deal", SEED)
    # Play until the computer has a turn of more than one step.
    while True:
        action = choose(expected["view"]["legal"])
        expected = local("act", action)
        computer_steps = []
        probe = expected
        while probe["computer_moves"]:
            probe = local("computer_step")
            computer_steps.append(probe["steps"])
        page.get_by_role("button", name=BUTTON[action], exact=True).click()
        if len(computer_steps) >= 2:
            break
        wait_idle(page)
        expected = probe
    # Mid-way through the computer's turn: not idle, all your buttons disabled.
    page.wait_for_function("document.body.dataset.idle === 'false'")
    page.wait_for_function("document.querySelector('[data-this-turn-name]').textContent === 'Computer'")
    for name in BUTTON.values():
        expect(page.get_by_role("button", name=name, exact=True)).to_have_attribute("aria-disabled", "true")
    wait_idle(page)
    assert_shows(read_table(page), probe["view"])
    assert errors == []


def test_keyboard_only_match_with_next_deal(page: Page, site, console_errors):
    """Shortcuts T, G, K, D, N and the Tab key play a two-deal match."""
    errors = console_errors(page)
    open_table(page, site, f"delay=0&seed={SEED}")

    # Tab to the Turn a card button, visibly focused, and press Enter.
    turn = page.get_by_role("button", name="Turn a card", exact=True)
    for _ in range(12):
        page.keyboard.press("Tab")
        if turn.evaluate("b => b === document.activeElement"):
            break
    assert turn.evaluate("b => b === document.activeElement"), "Tab never reached Turn a card"
    assert turn.evaluate("b => b.matches(':focus-visible') && getComputedStyle(b).outlineStyle !== 'none'")
    settle(local("new_match", "one-deal", SEED))
    press(page, lambda: page.keyboard.press("Enter"))
    expected, _ = settle(local("act", "turn"))
    assert_shows(read_table(page), expected["view"])

    # Choose the match length, then N deals a new match of that length (once you say so:
    # a match is in progress).
    page.get_by_role("radio", name="First to 50", exact=True).check()
    page.keyboard.press("n")
    confirm = page.get_by_role("dialog").get_by_role("button", name="Start a new match", exact=True)
    press(page, confirm.click)
    expected, _ = settle(local("new_match", "first-to-50", SEED))
    assert read_table(page)["length"] == "First to 50"
    view, _ = play_deal(page, expected, by_keyboard=True)
    assert not view["match"]["over"] and view["match"]["next_deal"]
    next_deal = page.get_by_role("button", name="Next deal", exact=True)
    expect(next_deal).to_be_visible()
    expect(next_deal).to_have_attribute("aria-keyshortcuts", "D")
    expect(next_deal).to_be_focused()  # the result banner took the focus

    press(page, lambda: page.keyboard.press("d"))
    expected, said = settle(local("next_deal"))
    assert_shows(read_table(page), expected["view"])
    # The live region: the new deal, the computer's lead, then your turn.
    assert said[0] == "Deal 2 is dealt. Dealer: You."
    assert read_table(page)["announced"][-len(said) - 1:] == [*said, expected["view"]["status"]]
    assert read_table(page)["deal"] == "2" and read_table(page)["dealer"] == "You"
    # The computer leads deal 2 and has already moved.
    assert expected["view"]["other_last_turn"]["steps"]
    assert errors == []


def test_a_first_visit_remembers_high_contrast_alone_and_works_offline_after_it(fresh, console_errors):
    """High contrast is remembered, and nothing else outlives the tab; once the service worker
    is active (it has cached the site), the table starts and plays offline.
    One first visit for both: a Python start of its own costs seconds."""
    page, site = fresh
    errors = console_errors(page)
    open_table(page, site, "delay=0&seed=5")
    switch = page.get_by_role("switch", name="High contrast")
    expect(switch).not_to_be_checked()
    assert not page.evaluate("document.documentElement.classList.contains('hc')")
    switch.check()
    assert page.evaluate("document.documentElement.classList.contains('hc')")

    # Without colour, suits still differ: red suits are drawn hollow, all in black.
    looks = page.evaluate("""async () => {
      const { cardFace } = await import(new URL("web/cards.js", document.baseURI).href);
      const hearts = cardFace({code: "7H", rank: "7", suit: "H", label: "7♥", name: "7 of hearts", red: true});
      const spades = cardFace({code: "7S", rank: "7", suit: "S", label: "7♠", name: "7 of spades", red: false});
      const diamonds = cardFace({code: "7D", rank: "7", suit: "D", label: "7♦", name: "7 of diamonds", red: true});
      const box = document.createElement("div");
      box.className = "felt"; box.style.position = "fixed"; box.style.left = "-999px";
      box.append(hearts, spades, diamonds); document.body.append(box);
      const look = (c) => { const s = getComputedStyle(c.querySelector(".middle .pip"));
                            return {color: s.color, shape: s.getPropertyValue("--suit-shape")}; };
      const result = [look(hearts), look(spades), look(diamonds)];
      box.remove();
      return result;
    }""")
    hearts, spades, diamonds = looks
    assert hearts["color"] == spades["color"] == diamonds["color"]
    assert len({hearts["shape"], spades["shape"], diamonds["shape"]}) == 3
    assert "stroke" in hearts["shape"] and "stroke" not in spades["shape"]

    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "true", timeout=BOOT_MS)
    expect(page.get_by_role("switch", name="High contrast")).to_be_checked()
    assert page.evaluate("document.documentElement.classList.contains('hc')")
    stored = page.evaluate("""() => ({
      local: Object.keys(localStorage), session: Object.keys(sessionStorage), cookie: document.cookie })""")
    # The tab keeps its match (test_keep_match), and only it: high contrast and the game the
    # page opens on next alone outlive the tab.
    assert {**stored, "local": sorted(stored["local"])} == {
        "local": ["pishe.game", "pishe.highContrast"], "session": ["pishe-computer-match"], "cookie": ""}

    page.get_by_role("switch", name="High contrast").uncheck()
    assert page.evaluate("Object.keys(localStorage)") == ["pishe.game"]
    assert errors == []

    # Offline: the service worker has cached the site once it is active. It may not
    # control this page: when the reload above began before it was installed, its
    # clients.claim() can miss the page being loaded (seen under load). The offline
    # reload below is a new navigation, which an active worker always controls.
    page.wait_for_function("""async () => {
      const registration = await navigator.serviceWorker.getRegistration();
      return Boolean(registration && registration.active && registration.active.state === "activated");
    }""", timeout=60_000)
    site.stop()
    try:
        page.reload()
        expect(page.locator("body")).to_have_attribute("data-ready", "true", timeout=BOOT_MS)
        assert page.evaluate("navigator.serviceWorker.controller !== null")
        wait_idle(page)
        expected, _ = settle(local("new_match", "one-deal", 5))
        assert_shows(read_table(page), expected["view"])
        press(page, page.get_by_role("button", name="Turn a card", exact=True).click)
        expected, _ = settle(local("act", "turn"))
        assert_shows(read_table(page), expected["view"])
        # The language switch works offline too: its words were kept, gettext is in Python.
        press(page, lambda: page.get_by_role("combobox", name="Language").select_option("tr"))
        assert page.evaluate("document.documentElement.lang") == "tr"
        expect(page.get_by_role("button", name="Kart çevir", exact=True)).to_be_visible()
        local("set_language", "tr")
        try:
            turkish = local("current")["view"]
        finally:
            local("set_language", "en")
        shown = read_table(page)
        assert (shown["status"], shown["thisTurn"], shown["lastTurn"], shown["lastTurnTitle"]) == (
            turkish["status"], turkish["this_turn"]["steps"], turkish["other_last_turn"]["steps"],
            "Bilgisayar — son hamle")
        press(page, lambda: page.get_by_role("combobox", name="Dil").select_option("en"))
        assert_shows(read_table(page), expected["view"])
        # A friends' table's code is fetched when one opens, never by a first visit: offline,
        # the page says it needs the network, and the computer's match goes on.
        page.get_by_role("button", name="Invite a friend", exact=True).click()
        page.get_by_role("dialog").get_by_role("button", name="Invite a friend", exact=True).click()
        expect(page.get_by_role("alert").filter(has_text="needs the network")).to_have_text(
            PAGE["friends_unreachable"])
        assert page.evaluate("document.body.dataset.table") == "computer"
    finally:
        site.start()
    # Online again, Invite fetches it: the friends' table opens.
    page.get_by_role("button", name="Invite a friend", exact=True).click()
    page.get_by_role("dialog").get_by_role("button", name="Invite a friend", exact=True).click()
    expect(page.get_by_role("heading", name="Playing a friend")).to_be_visible()
    expect(page.get_by_role("alert").filter(has_text="needs the network")).to_have_count(0)
    # The only errors: loads that failed offline, the friends' table's script among them (the
    # console names no file; under load the browser may report a retried load more than once).
    failed = [e for e in errors if "offline support" not in e]
    assert failed and set(failed) == {"console: Failed to load resource: net::ERR_FAILED"}


@pytest.mark.parametrize("width", [360])
def test_phone_screen_has_no_horizontal_scroll(page: Page, site, console_errors, width):
    errors = console_errors(page)
    page.set_viewport_size({"width": width, "height": 740})
    open_table(page, site, f"delay=0&seed={SEED}")

    def assert_fits(where: str) -> None:
        overflow = page.evaluate("""() => {
          const doc = document.documentElement;
          const wide = [...document.querySelectorAll("body *")].filter((el) => {
            const r = el.getBoundingClientRect();
            return r.width > 0 && el.closest(".sr-only") === null && (r.right > innerWidth + 0.5 || r.left < -0.5);
          }).map((el) => el.className || el.tagName);
          return { scroll: doc.scrollWidth, client: doc.clientWidth, wide };
        }""")
        assert overflow["scroll"] <= width and overflow["wide"] == [], (where, overflow)

    assert_fits("start")
    page.locator("details.rules:visible summary").click()
    assert_fits("rules open")
    expected, _ = settle(local("new_match", "one-deal", SEED))
    # Play until a turned card waits for give-or-keep (the widest row).
    while "keep" not in expected["view"]["legal"]:
        action = choose(expected["view"]["legal"])
        press(page, page.get_by_role("button", name=BUTTON[action], exact=True).click)
        expected, _ = settle(local("act", action))
    assert_fits("turned card")
    RESULTS.mkdir(exist_ok=True)
    page.evaluate("window.scrollTo(0, 0)")
    finish_animations(page)
    page.screenshot(path=str(RESULTS / "phone-mid-game.png"))
    # The rest of the deal is played here; the page deals it where it was two of your moves
    # before its end, as after a reload (the tab keeps its match), and plays those two.
    answers = []
    while not expected["view"]["deal_result"]:
        action = choose(expected["view"]["legal"])
        expected, _ = settle(local("act", action))
        answers.append((action, expected))
    deal_where(page, answers[-3][1])
    for action, _ in answers[-2:]:
        press(page, page.get_by_role("button", name=BUTTON[action], exact=True).click)
    expect(page.locator(PASHA + " [data-result]")).to_be_visible()
    assert_fits("deal end")
    finish_animations(page)
    page.screenshot(path=str(RESULTS / "phone-deal-end.png"), full_page=True)
    assert errors == []
