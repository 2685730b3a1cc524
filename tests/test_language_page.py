"""The page in the player's language: a browser set to Turkish plays a whole Pişti deck and a
whole Pishe Pasha deal by Turkish names, and no English phrase of the catalogs shows at any
moment (ready, mid-deal, deal end, count table, confirm dialog, invite panel); the same in
English shows no Turkish; the switch rewords a match mid-deal; the pseudo-language fits at
phone and desktop widths (measured); axe-core finds nothing in Turkish; screenshots."""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from playwright.sync_api import Page, expect

import build
import catalogs
from tests.axe import violations
from returning import welcome_back
from table_waits import press, wait_idle
from test_page import PASHA
from test_pisti_page import PISTI
from test_table_ux import KEEP, local

RESULTS = Path(__file__).resolve().parent.parent / "test-results"
BOOT_MS = 120_000
SEED = 11

#: Everything a player may read or hear: the visible text (the live region's too), the tab's
#: title and every accessible name and description given by an attribute.
READ_ALL = """() => {
  const seen = [document.title, document.body.innerText];
  for (const el of document.querySelectorAll("[aria-label], [title], [alt], [data-title]")) {
    if (el.closest("[hidden], template")) continue;
    for (const a of ["aria-label", "title", "alt"]) if (el.getAttribute(a)) seen.push(el.getAttribute(a));
  }
  const dialog = document.querySelector("dialog[open]");
  if (dialog) seen.push(dialog.innerText);
  return seen.join("\\n");
}"""


def _messages():
    """(English, Turkish) of every message of every catalog, plural forms included."""
    for domain, (folder, _) in catalogs.domains().items():
        for code in catalogs.LANGUAGES:
            with open(catalogs.po_path(folder, code, domain), "rb") as f:
                for m in read_po(f, locale=code):
                    if not m.id:
                        continue
                    english = m.id if isinstance(m.id, (tuple, list)) else (m.id,)
                    turkish = m.string if isinstance(m.string, (tuple, list)) else (m.string,)
                    for e in english:
                        for t in turkish:
                            yield e, t


def _phrases(texts, other) -> set:
    """The phrases of ``texts`` (split at placeholders, tags and punctuation) that only that
    language has: two words or more, or one word of four letters or more, none in ``other``."""
    found = set()
    for text in texts:
        for piece in re.split(r"\{[^}]*\}|<\d+/?>|</\d+>|[.,:;!?()“”\"—–…·]", text):
            piece = piece.strip()
            if len(piece) >= 4 and not piece.isdigit() and piece not in other:
                found.add(piece)
    return found


MESSAGES = [(e, t) for e, t in _messages() if e != t]
ENGLISH = _phrases([e for e, _ in MESSAGES], " ".join(t for _, t in MESSAGES))
TURKISH = _phrases([t for _, t in MESSAGES], " ".join(e for e, _ in MESSAGES))


@functools.cache
def _any_of(phrases: frozenset) -> re.Pattern:
    """One pattern for all of ``phrases`` as whole words: a text with none of them is read once."""
    return re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, sorted(phrases, key=len, reverse=True))) + r")(?!\w)")


def foreign(text: str, phrases: set) -> list:
    """The phrases of ``phrases`` found in ``text`` as whole words."""
    if not _any_of(frozenset(phrases)).search(text):
        return []
    return sorted(p for p in phrases if re.search(r"(?<!\w)" + re.escape(p) + r"(?!\w)", text))


def test_the_phrase_lists_are_of_each_language():
    assert {"Your turn", "Turn a card", "Give or keep", "Most cards"} <= ENGLISH
    assert {"Sıra sende", "Kart çevir", "Ver mi, tut mu"} - {"Ver mi, tut mu"} <= TURKISH
    assert not foreign("Sıra sende. Kart çevir", ENGLISH) and not foreign("Your turn. Turn a card", TURKISH)


@pytest.fixture(scope="module")
def server(returning_dist):
    with build.SiteServer(returning_dist) as site:
        yield site


def open_page(browser, server, locale: str, query: str = "", viewport=None) -> Page:
    context = browser.new_context(locale=locale, viewport=viewport or {"width": 1280, "height": 800})
    page = context.new_page()
    page.errors = []
    page.on("console", lambda msg: page.errors.append(msg.text) if msg.type == "error" else None)
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    welcome_back(page, server)                  # a returning visitor's browser (tests/returning.py)
    page.goto(f"{server.url}/?delay=0&seed={SEED}{query}")
    expect(page.locator("body")).to_have_attribute("data-ready", "true", timeout=BOOT_MS)
    wait_idle(page)
    return page


#: Resolves once the browser has laid out and painted twice since: a new size has taken effect.
TWO_FRAMES = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"


def enabled(button) -> bool:
    return button.is_visible() and button.get_attribute("aria-disabled") != "true"


class Reader:
    """Collects what the page says at each moment and the phrases of the wrong language in it."""

    def __init__(self, page: Page, wrong: set):
        self.page, self.wrong, self.found, self.moments = page, wrong, {}, []

    def __call__(self, moment: str) -> str:
        text = self.page.evaluate(READ_ALL)
        self.moments.append(moment)
        bad = foreign(text, self.wrong)
        if bad:
            self.found[moment] = bad
        return text


def play_pasha_deal(page: Page, read: Reader, names: dict, most: int = 600) -> None:
    """A whole deal of Pishe Pasha by the buttons' names (or its first ``most`` moves): give
    when you may, else keep, else turn."""
    give, keep, turn = (page.get_by_role("button", name=names[k], exact=True) for k in ("give", "keep", "turn"))
    moves = 0
    while not page.locator('[data-game="pishe-pasha"] [data-result]').is_visible():
        if moves == most:
            return
        button = give if enabled(give) else keep if enabled(keep) else turn
        press(page, button.click, PASHA)
        moves += 1
        if moves == 6:
            read("Pishe Pasha mid-deal")
        assert moves < 600
    read("Pishe Pasha deal end")


def play_pisti_deck(page: Page, read: Reader, play_word: str, axe: bool = False) -> None:
    """A whole deck of Pişti: the first card of your hand each turn, by its button's name
    (``axe``: axe-core run on its table mid-deck)."""
    table = page.locator(PISTI)
    plays = 0
    while not table.locator("[data-result]").is_visible():
        cards = table.locator("[data-hand] button:not([aria-disabled='true'])")
        name = cards.first.get_attribute("aria-label") or cards.first.inner_text()
        assert play_word in name, name
        press(page, table.get_by_role("button", name=name, exact=True).first.click, PISTI)
        plays += 1
        if plays == 3:
            read("Pişti mid-deck")
            if axe:
                assert violations(page) == []               # axe in Turkish on Pişti's table too
    assert plays == 12
    expect(table.get_by_role("table")).to_be_visible()
    read("Pişti count table")


#: Your moves of the Turkish Pishe Pasha deal the page plays: the deal's last ones.
LAST_MOVES = 12


def near_the_end(moves_left: int) -> dict:
    """A one-deal Pishe Pasha match of SEED played here (pishe.web, as the page's worker plays
    it; your moves as :func:`play_pasha_deal` chooses them) until ``moves_left`` of your moves
    are left in its deal: the answer, whose match the page keeps."""
    def play(stop):
        answer, mine = local("new_match", "one-deal", SEED, "pishe-pasha", None, None), 0
        while not answer["view"]["deal_result"] and mine != stop:
            if answer["computer_moves"]:
                answer = local("computer_step")
            else:
                legal = answer["view"]["legal"]
                answer = local("act", next(a for a in ("give", "keep", "turn") if a in legal))
                mine += 1
        return answer, mine

    whole = play(None)[1]
    assert whole > moves_left
    return play(whole - moves_left)[0]


TURKISH_NAMES = {"turn": "Kart çevir", "give": "Ver", "keep": "Tut", "invite": "Arkadaş davet et",
                 "pisti": "Pişti", "play": " at", "new": "Yeni maç", "leave": "Masadan kalk"}
ENGLISH_NAMES = {"turn": "Turn a card", "give": "Give", "keep": "Keep", "invite": "Invite a friend",
                 "pisti": "Pişti", "play": "Play ", "new": "New match", "leave": "Leave the table"}


@pytest.mark.parametrize("locale", ["tr-TR", "en-US"])
def test_a_whole_deal_of_each_game_in_the_browsers_language(browser, server, locale):
    turkish = locale == "tr-TR"
    names = TURKISH_NAMES if turkish else ENGLISH_NAMES
    page = open_page(browser, server, locale, "&game=pishe-pasha")  # a Turkish page would open on Pişti
    assert page.evaluate("document.documentElement.lang") == ("tr" if turkish else "en")
    assert page.get_by_role("combobox", name="Dil" if turkish else "Language").input_value() == locale[:2]
    read = Reader(page, ENGLISH if turkish else TURKISH)
    read("ready")
    if turkish:
        assert page.title() == "Pishe Pasha: bilgisayara karşı oyna"
        # Single-key shortcuts in Turkish letters: Ç for Kart çevir, shown on its button.
        turn = page.get_by_role("button", name="Kart çevir", exact=True)
        expect(turn).to_have_attribute("aria-keyshortcuts", "Ç")
        expect(turn.locator("kbd")).to_have_text("Ç")
        # (a Turkish keyboard's key: Playwright's keyboard has US keys only)
        press(page, lambda: page.evaluate(
            "document.body.dispatchEvent(new KeyboardEvent('keydown', {key: 'ç', bubbles: true}))"), PASHA)
    # The English deal's end is read by every other test of the page: English plays to mid-deal.
    if turkish:                 # the deal's last moves, dealt where they were as after a reload
        answer = near_the_end(LAST_MOVES)
        page.evaluate(KEEP, [answer["settings"], answer["saved"]])
        page.reload()
        expect(page.locator("body")).to_have_attribute("data-ready", "true", timeout=BOOT_MS)
        wait_idle(page)
    play_pasha_deal(page, read, names, most=600 if turkish else 6)

    # Pişti, chosen mid-match: the page asks first (the confirm dialog). The Turkish deal was
    # played to its end, which ends the one-deal match: nothing to lose, so nothing asked.
    page.get_by_role("radio", name="Pişti", exact=True).check()
    dialog = page.get_by_role("dialog")
    if turkish:
        expect(dialog).to_be_hidden()
        wait_idle(page)
    else:
        expect(dialog).to_be_visible()
        assert dialog.inner_text() in read("confirm dialog (another game)")
        press(page, dialog.get_by_role("button").last.click, PISTI)
    play_pisti_deck(page, read, names["play"], axe=turkish)

    # Mid-match (the Pişti match goes on to 101), a new match and an invite are asked first.
    page.get_by_role("button", name=names["new"], exact=True).first.click()
    expect(dialog).to_be_visible()
    assert dialog.inner_text() in read("confirm dialog (new match)")
    dialog.get_by_role("button").first.click()          # keep playing
    expect(dialog).to_be_hidden()
    page.get_by_role("button", name=names["invite"], exact=True).click()
    expect(dialog).to_be_visible()
    assert dialog.inner_text() in read("confirm dialog (invite)")
    dialog.get_by_role("button").last.click()
    expect(page.locator("[data-invite-link]").first).not_to_have_value("", timeout=60_000)
    read("invite panel")
    assert read.moments == ["ready", "Pishe Pasha mid-deal", *(["Pishe Pasha deal end"] if turkish else []),
                            *([] if turkish else ["confirm dialog (another game)"]), "Pişti mid-deck",
                            "Pişti count table", "confirm dialog (new match)", "confirm dialog (invite)",
                            "invite panel"]
    if turkish:                     # the English invite panel's are test_friend's screenshots
        RESULTS.mkdir(exist_ok=True)
        page.screenshot(path=str(RESULTS / "language-invite-tr-TR.png"))
    assert read.found == {}, "phrases of the other language"
    assert page.errors == []


def test_the_switch_rewords_a_match_mid_deal_and_axe_finds_nothing(browser, server):
    """Mid-deal, and after a reload, in the top bar and in the header's menu at a phone's width;
    axe in Turkish; an invite link carries no language; a broken link says why in Turkish."""
    page = open_page(browser, server, "en-US", "&lang=tr&game=pishe-pasha")  # ?lang=tr wins over the browser
    assert page.evaluate("document.documentElement.lang") == "tr"
    for _ in range(3):
        press(page, page.get_by_role("button", name="Kart çevir", exact=True).click, PASHA)
        if page.get_by_role("button", name="Tut", exact=True).get_attribute("aria-disabled") != "true":
            press(page, page.get_by_role("button", name="Tut", exact=True).click, PASHA)
    counts = page.locator("[data-count]").all_inner_texts()
    RESULTS.mkdir(exist_ok=True)
    page.screenshot(path=str(RESULTS / "language-tr-desktop.png"))
    assert violations(page) == []

    press(page, lambda: page.get_by_role("combobox", name="Dil").select_option("en"), PASHA)
    assert page.evaluate("document.documentElement.lang") == "en"
    assert page.locator("[data-count]").all_inner_texts() == counts           # the same table
    # Everything in English, the lines the live region said in Turkish included.
    log = page.locator("[data-announce] p")
    said = log.count()
    assert said > 5 and foreign(page.evaluate(READ_ALL).split("\n", 1)[1], TURKISH) == []
    expect(page.get_by_role("button", name="Turn a card", exact=True)).to_have_attribute("aria-keyshortcuts", "T")

    press(page, lambda: page.get_by_role("combobox", name="Language").select_option("tr"), PASHA)
    assert page.locator("[data-count]").all_inner_texts() == counts
    assert log.count() == said and foreign("\n".join(log.all_inner_texts()), ENGLISH) == []
    # A reload brings the match back with the lines it had said (kept as data in the tab) ...
    lines = log.all_inner_texts()
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-ready", "true", timeout=BOOT_MS)
    wait_idle(page)
    assert page.locator("[data-count]").all_inner_texts() == counts and log.all_inner_texts()[:said] == lines
    # ... which follow the switch as before.
    press(page, lambda: page.get_by_role("combobox", name="Dil").select_option("en"), PASHA)
    assert foreign("\n".join(log.all_inner_texts()), TURKISH) == [] and log.count() >= said
    # At a phone's width the switch is in the header's menu: back to Turkish through it, which
    # closes the menu and gives the keyboard back to its button.
    page.set_viewport_size({"width": 360, "height": 780})
    menu = page.get_by_role("button", name="Settings and language", exact=True)
    expect(page.get_by_role("combobox", name="Language")).to_be_hidden()
    menu.click()
    expect(menu).to_have_attribute("aria-expanded", "true")
    press(page, lambda: page.get_by_role("combobox", name="Language").select_option("tr"), PASHA)
    menu = page.get_by_role("button", name="Ayarlar ve dil", exact=True)
    expect(menu).to_have_attribute("aria-expanded", "false")
    expect(menu).to_be_focused()
    expect(page.get_by_role("combobox", name="Dil")).to_be_hidden()
    assert page.evaluate("document.documentElement.lang") == "tr"
    expect(page.get_by_role("button", name="Kart çevir", exact=True)).to_be_visible()
    assert page.locator("[data-count]").all_inner_texts() == counts
    assert foreign(page.evaluate(READ_ALL), ENGLISH) == []
    page.set_viewport_size({"width": 1280, "height": 800})
    # The same in high contrast, at a phone's width.
    page.get_by_role("switch", name="Yüksek karşıtlık").check()
    page.set_viewport_size({"width": 390, "height": 844})
    page.evaluate(TWO_FRAMES)
    page.screenshot(path=str(RESULTS / "language-tr-phone.png"), full_page=True)
    assert violations(page) == []
    page.set_viewport_size({"width": 1280, "height": 800})    # the switch in the top bar, not its menu
    page.get_by_role("switch", name="Yüksek karşıtlık").uncheck()
    # An invite link carries no language: the friend's page speaks its own player's.
    page.get_by_role("button", name="Arkadaş davet et", exact=True).click()
    page.get_by_role("dialog").get_by_role("button", name="Arkadaş davet et", exact=True).click()
    link = page.locator("[data-invite-link]").first
    expect(link).not_to_have_value("", timeout=60_000)
    assert "lang" not in link.input_value() and "#join=" in link.input_value()
    assert page.errors == []

    # A link the browser cannot use (a port no address has): a Turkish guest reads why in Turkish,
    # by its cause, its table in Turkish too; the browser's own words only in the collapsed details.
    guest = page.context.new_page()
    broken = "p1~abcd~abcdefghijklmnopqrstuvwx~" + "A" * 43 + "~h1.2.3.4,99999"
    guest.goto(f"{server.url}/?delay=0&lang=tr#join={broken}")
    expect(guest.locator("[data-friend-status]")).to_have_text(
        "Bu davet bağlantısı çalışmıyor: bu tarayıcı bağlantı kodunu kullanamadı. Yenisini iste.", timeout=BOOT_MS)
    details = guest.locator("[data-friend-details]")
    assert details.get_attribute("open") is None and "setRemoteDescription" in details.text_content()
    guest.wait_for_function("Number(document.querySelector('[data-game=\"pishe-pasha\"]').dataset.paints) > 0")
    assert foreign(guest.evaluate(READ_ALL), ENGLISH) == []


#: What the page shows at each of its first frames (a requestAnimationFrame callback runs just
#: before the browser paints): whether the body is seen, and then its text and the tab's title.
FIRST_FRAMES = """
self.firstFrames = [];
requestAnimationFrame(function look() {
  const body = document.body;
  const seen = Boolean(body) && getComputedStyle(body).visibility === "visible";
  self.firstFrames.push({seen, text: seen ? `${document.title}\\n${body.innerText}` : ""});
  // Every frame until the body has been seen in three (the words may take a few frames to come).
  if (self.firstFrames.filter((frame) => frame.seen).length < 3 && self.firstFrames.length < 1000) requestAnimationFrame(look);
});
"""


def test_a_turkish_browser_sees_turkish_from_the_first_paint(browser, server):
    """No English flash: the static words are Turkish in the first frame the body is seen, with
    no module of the page run (they are refused here), so before Python or any table starts;
    and a start that fails says why in Turkish."""
    context = browser.new_context(locale="tr-TR", viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.add_init_script(FIRST_FRAMES)
    page.route("**/web/tables/**", lambda route: route.abort())
    page.goto(f"{server.url}/?delay=0", wait_until="load")
    page.wait_for_function("self.firstFrames.filter((frame) => frame.seen).length === 3")
    frames = page.evaluate("self.firstFrames")
    seen = [frame["text"] for frame in frames if frame["seen"]]
    assert seen and [foreign(text, ENGLISH) for text in seen] == [[]] * len(seen)
    # A Turkish page opens on Pişti (web/first-game.js): its table is the first painted.
    assert "\nEşin\n" in seen[0] and "Yeni deste açılıyor…" in seen[0] and seen[0].startswith("Pişti: bilgisayara")
    assert page.evaluate("document.documentElement.lang") == "tr"
    assert page.locator("[data-language]").input_value() == "tr"
    # The Turkish page installs under its Turkish name and describes itself in Turkish.
    assert page.locator('link[rel="manifest"]').evaluate("(link) => link.href").endswith("/web/manifest.tr.webmanifest")
    assert page.locator('meta[name="description"]').get_attribute("content").startswith("Bilgisayara ya da arkadaşlarına karşı kart oyunları")
    RESULTS.mkdir(exist_ok=True)
    page.screenshot(path=str(RESULTS / "language-tr-first-paint.png"))

    # A start that fails (its worker does not come) says why in Turkish, by its cause
    # (Python's words, which the build wrote into the page); the error's own words only in the
    # collapsed details; and in English after the switch.
    page.unroute_all()
    context.route("**/web/core/worker.js", lambda route: route.abort())
    page.set_viewport_size({"width": 1280, "height": 800})      # the switch in the top bar
    page.reload(wait_until="commit")
    stage = page.locator("[data-loader-stage]:visible")   # every game's table has one: the shown table's
    expect(page.locator(".loader.failed:visible")).to_be_visible(timeout=BOOT_MS)
    expect(stage).to_have_text("Oyun başlatılamadı: oyunun bir dosyası indirilemedi. "
                               "İnternet bağlantını kontrol edip sayfayı yenile.")
    details = page.locator("[data-loader-details]:visible")
    expect(details.locator("summary")).to_have_text("Hata bildirimi için ayrıntılar")
    assert details.get_attribute("open") is None and "did not load" in details.text_content()
    assert foreign(page.evaluate(READ_ALL), ENGLISH) == []
    page.locator("[data-language]").select_option("en")
    expect(stage).to_have_text("The game could not start: a file of the game could not be downloaded. "
                               "Check the connection and reload the page.")
    context.close()


#: Elements whose text must be seen whole: clipped or spilling out of their box is a fault.
MEASURE = """() => {
  const faults = [];
  const visible = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
  const root = document.documentElement;
  if (root.scrollWidth > root.clientWidth + 1) faults.push(`page scrolls sideways: ${root.scrollWidth} > ${root.clientWidth}`);
  const texts = [...document.querySelectorAll("button, label, legend, h1, h2, h3, p, li, figcaption, summary, th, td, .seat-flag, .btn-label")]
    .filter((el) => visible(el) && el.getBoundingClientRect().width > 1   // not visually hidden (1 px)
            && !el.closest(".sr-only, [data-announce], details:not([open]) > :not(summary)"));
  for (const el of texts) {
    const s = getComputedStyle(el);
    if (el.scrollWidth > el.clientWidth + 1 && s.overflowX !== "visible") faults.push(`clipped: ${el.outerHTML.slice(0, 90)}`);
    const r = el.getBoundingClientRect();
    if (r.right > root.clientWidth + 1 || r.left < -1) faults.push(`off the page: ${el.outerHTML.slice(0, 90)}`);
  }
  // Controls side by side never overlap.
  const controls = [...document.querySelectorAll("button, .segmented label, .switch, .language select")].filter(visible);
  for (let i = 0; i < controls.length; i += 1) {
    for (let j = i + 1; j < controls.length; j += 1) {
      const a = controls[i].getBoundingClientRect(), b = controls[j].getBoundingClientRect();
      if (controls[i].contains(controls[j]) || controls[j].contains(controls[i])) continue;
      const x = Math.min(a.right, b.right) - Math.max(a.left, b.left), y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (x > 1 && y > 1) faults.push(`overlap: ${controls[i].outerHTML.slice(0, 60)} / ${controls[j].outerHTML.slice(0, 60)}`);
    }
  }
  return faults;
}"""


def test_the_pseudo_language_fits_at_every_width(browser, server):
    """Every message about 40% longer, accented: nothing clipped, off the page or overlapping."""
    page = open_page(browser, server, "en-US", "&lang=en-XA", viewport={"width": 320, "height": 700})
    assert "ẍ" in page.get_by_role("button", name=re.compile("Tûŕñ")).inner_text()
    faults = {}
    for game in ("pishe-pasha", "pisti"):
        if game == "pisti":
            page.locator('input[name="game"][value="pisti"]').check()    # its name is pseudo too
            wait_idle(page)
        for width, height in ((320, 700), (390, 844), (1280, 800)):
            page.set_viewport_size({"width": width, "height": height})
            page.evaluate(TWO_FRAMES)
            found = page.evaluate(MEASURE)
            if found:
                faults[game, width] = found
    RESULTS.mkdir(exist_ok=True)
    page.screenshot(path=str(RESULTS / "language-pseudo-desktop.png"), full_page=True)
    assert faults == {}
    assert page.errors == []
