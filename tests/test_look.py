"""How the page looks, in Chromium, for both tables: every native control covered by
its drawn look, buttons and choices inside their panels from 320 px up, text and suit
marks on the felt in contrast, buttons with borders and a disabled look in forced
colours, the table and its buttons on one screen at 200% zoom, axe-core clean at each
moment of a deal, and the main states compared with screenshots in tests/baselines/.

The baselines are half-scale WebP images; a state matches when few pixels differ by more than
antialiasing does. PISHE_UPDATE_BASELINES=1 rewrites them from this run (then look at
them, and commit them). Full-size screenshots of each state go to test-results/.
"""

from __future__ import annotations

import base64
import os
import re
from pathlib import Path

import pytest
import test_page
from axe import violations
from playwright.sync_api import Page, expect
from table_waits import press, wait_idle
from test_page import BOOT_MS, RESULTS

# test_page's fixtures: one persistent profile and server (kept for the session: Pyodide
# from its disk cache, Python from its snapshot), a tab per test.
returning_visitor, site, page = test_page.returning_visitor, test_page.site, test_page.page

BASELINES = Path(__file__).resolve().parent / "baselines"
UPDATE = os.environ.get("PISHE_UPDATE_BASELINES") == "1"
SEED = 62  # Pishe Pasha's shortest seeded deal among the first 80 (48 moves), a give-or-keep on the way
DESKTOP = {"width": 1280, "height": 720}
# A pixel differs when a channel moves more than antialiasing moves it; a state
# matches while at most this share of its pixels differ.
PIXEL_STEP = 48
DIFFERING_SHARE = 0.006

# Every radio and checkbox the page draws itself must sit, invisible, over its drawn look.
COVERED = """() => [...document.querySelectorAll("input[type=radio], input[type=checkbox]")]
  .filter((input) => input.closest("label").getClientRects().length > 0)
  .flatMap((input) => {
    const look = getComputedStyle(input), box = input.getBoundingClientRect();
    const label = input.closest("label").getBoundingClientRect();
    const covers = Math.abs(box.left - label.left) < 1 && Math.abs(box.top - label.top) < 1
      && Math.abs(box.width - label.width) < 1 && Math.abs(box.height - label.height) < 1;
    const name = input.closest("label").textContent.trim();
    return look.opacity === "0" && covers ? [] : [`${name}: opacity ${look.opacity}, covers its look: ${covers}`];
  })"""

# Buttons, choices and captions: inside the window and their panel, their text inside them.
INSIDE = """() => {
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
  const panels = ".controls, .match, .friend, .turn-list, .felt, .topbar, .result";
  return [...document.querySelectorAll(".btn, .segmented span, .felt figcaption, .hand-card")]
    .filter(shown).flatMap((el) => {
      const box = el.getBoundingClientRect(), panel = el.closest(panels)?.getBoundingClientRect();
      const name = `${el.className} "${el.textContent.trim()}"`;
      const faults = [];
      if (box.left < -0.5 || box.right > innerWidth + 0.5) faults.push(`${name} leaves the window`);
      if (panel && (box.left < panel.left - 0.5 || box.right > panel.right + 0.5)) faults.push(`${name} leaves its panel`);
      if (el.scrollWidth > el.clientWidth + 1) faults.push(`${name} is clipped`);
      return faults;
    });
}"""

# The worst contrast of an element's colour against what may lie behind it: every
# colour of every background (gradient stops included) from the page down to `from`.
CONTRAST = """([selector, fromParent, ownText]) => {
  const parse = (c) => { const n = c.match(/[\\d.]+/g).map(Number); return [n[0], n[1], n[2], n.length > 3 ? n[3] : 1]; };
  const over = (top, under) => { const a = top[3]; return [0, 1, 2].map((i) => top[i] * a + under[i] * (1 - a)).concat(1); };
  const lum = (c) => { const f = (v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
                       return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]); };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const shown = (el) => el.getClientRects().length > 0 && getComputedStyle(el).visibility !== "hidden";
  const texted = (el) => [...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
  return [...document.querySelectorAll(selector)].filter((el) => shown(el) && (!ownText || texted(el))).map((el) => {
    const chain = [];
    for (let at = fromParent ? el.parentElement : el; at; at = at.parentElement) chain.unshift(at);
    let behind = [[255, 255, 255, 1]];
    for (const layer of chain) {
      const look = getComputedStyle(layer);
      for (const paint of [look.backgroundColor, ...look.backgroundImage.split(/,(?![^(]*\\))\\s*(?=[a-z-]+-gradient)/).reverse()]) {
        const stops = paint.match(/rgba?\\([^)]*\\)/g);
        if (stops) behind = stops.map(parse).flatMap((c) => behind.map((b) => over(c, b)));
      }
    }
    const ink = parse(getComputedStyle(el).color);
    return { what: `${el.className || el.tagName} "${el.textContent.trim()}"`,
             ratio: Math.min(...behind.map((b) => ratio(over(ink, b), b))) };
  });
}"""

# Where the table and its buttons reach, scrolled so that the table's top is at the window's.
SPAN = """(game) => {
  const felt = document.querySelector(`${game} .felt`);
  window.scrollBy(0, felt.getBoundingClientRect().top - 4);
  const boxes = [felt, ...document.querySelectorAll(`${game} .actions .btn`)]
    .filter((el) => el.getClientRects().length > 0).map((el) => el.getBoundingClientRect());
  return { bottom: Math.max(...boxes.map((b) => b.bottom)), right: Math.max(...boxes.map((b) => b.right)) };
}"""

# Whether the deal's banner leaves every suit pile of the table uncovered.
UNCOVERED = """(game) => {
  const r = document.querySelector(`${game} [data-result]`).getBoundingClientRect();
  return [...document.querySelectorAll(`${game} .pile-suit`)].every((pile) => {
    const s = pile.getBoundingClientRect();
    return s.right <= r.left || r.right <= s.left || s.bottom <= r.top || r.bottom <= s.top;
  });
}"""

# In forced colours every button has a real border, and a disabled one looks unlike any enabled one.
FORCED = """() => {
  const buttons = [...document.querySelectorAll(".btn")].filter((b) => b.getClientRects().length > 0);
  const look = (b) => { const s = getComputedStyle(b); return `${s.color} ${s.borderTopStyle} ${s.borderTopColor}`; };
  const enabled = new Set(buttons.filter((b) => b.getAttribute("aria-disabled") !== "true").map(look));
  return buttons.flatMap((b) => {
    const s = getComputedStyle(b), name = `"${b.textContent.trim()}"`, faults = [];
    if (s.borderTopStyle === "none" || parseFloat(s.borderTopWidth) < 1) faults.push(`${name} has no border`);
    if (b.getAttribute("aria-disabled") === "true" && enabled.has(look(b))) faults.push(`${name} looks enabled`);
    return faults;
  });
}"""

# Half-scale copies of a screenshot and of its baseline, and the share of pixels that differ.
COMPARE = """async ([shot, baseline, step]) => {
  const bitmap = async (b64) => createImageBitmap(new Blob([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))]));
  const full = await bitmap(shot);
  const canvas = new OffscreenCanvas(Math.round(full.width / 2), Math.round(full.height / 2));
  const ctx = canvas.getContext("2d");
  ctx.imageSmoothingQuality = "high";
  ctx.drawImage(full, 0, 0, canvas.width, canvas.height);
  // Both sides are compared as WebP decodes them, so its losses cancel out.
  const blob = await canvas.convertToBlob({ type: "image/webp", quality: 0.9 });
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  if (!baseline) return { png: btoa(binary), share: null };
  const base = await bitmap(baseline);
  if (base.width !== canvas.width || base.height !== canvas.height) return { png: btoa(binary), share: 1 };
  ctx.drawImage(await createImageBitmap(blob), 0, 0);
  const mine = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
  const other = new OffscreenCanvas(base.width, base.height).getContext("2d");
  other.drawImage(base, 0, 0);
  const theirs = other.getImageData(0, 0, base.width, base.height).data;
  let differ = 0;
  for (let i = 0; i < mine.length; i += 4) {
    if (Math.max(Math.abs(mine[i] - theirs[i]), Math.abs(mine[i + 1] - theirs[i + 1]),
                 Math.abs(mine[i + 2] - theirs[i + 2])) > step) differ += 1;
  }
  return { png: btoa(binary), share: differ / (mine.length / 4) };
}"""


# ---- the page -----------------------------------------------------------------


def table(game: str) -> str:
    """The selector of the game's table on the page."""
    return f'[data-game="{game}"]'


# Resolves once every box on the page is where it was a frame before (at most 60 frames:
# a page that never settles is then measured as it is, and its faults reported).
SETTLED = """() => new Promise((done) => {
  const boxes = () => JSON.stringify([...document.querySelectorAll("body *")].map((el) => {
    const r = el.getBoundingClientRect();
    return [r.left, r.top, r.width, r.height];
  }));
  // Unchanged over three frames in a row: a frame's ResizeObserver callbacks (which may
  // lay the cards out anew) run after its requestAnimationFrame callbacks.
  let last = boxes(), frames = 0, same = 0;
  const look = () => requestAnimationFrame(() => {
    const now = boxes();
    same = now === last ? same + 1 : 0;
    last = now;
    if (same >= 3 || ++frames >= 60) done();
    else look();
  });
  look();
})"""


def resize(page: Page, width: int, height: int) -> None:
    """A window of this size, laid out anew and settled before anything is measured (under
    load a CI run once measured the 320 px table while it was still being laid out)."""
    page.set_viewport_size({"width": width, "height": height})
    page.wait_for_function(f"innerWidth === {width} && innerHeight === {height}")
    # Media queries and vw units follow the new size from the next frame on.
    page.evaluate(SETTLED)


def forced_colours(page: Page, on: bool) -> None:
    """Windows-style forced colours on or off, applied before anything is measured."""
    page.emulate_media(forced_colors="active" if on else "none")
    page.wait_for_function(f"matchMedia('(forced-colors: active)').matches === {str(on).lower()}")


def open_game(page: Page, site, game: str) -> None:
    """The game's table, dealt from SEED with the computers instant, motion reduced."""
    page.emulate_media(reduced_motion="reduce")
    page.goto(f"{site.url}?delay=0&seed={SEED}")
    expect(page.locator("body")).to_have_attribute("data-ready", "true", timeout=BOOT_MS)
    wait_idle(page)
    if game == "pisti":
        press(page, page.get_by_role("radio", name="Pişti", exact=True).check, table(game))


# The actions of the game's buttons that are enabled, read in one go.
ENABLED_ACTIONS = """(game) => [...document.querySelectorAll(`${game} button[data-action]`)]
  .filter((b) => b.getAttribute("aria-disabled") !== "true").map((b) => b.dataset.action)"""


def move(page: Page, game: str) -> None:
    """One move as a simple player makes it: in Pishe Pasha give, else keep, else turn a
    card; in Pişti the first card of the hand that may be played."""
    if game == "pisti":
        card = page.get_by_role("button", name=re.compile("^Play ")).and_(page.locator('[aria-disabled="false"]'))
        press(page, card.first.click, table(game))
        return
    enabled = page.evaluate(ENABLED_ACTIONS, table(game))
    for action, name in (("give", "Give"), ("keep", "Keep"), ("turn", "Turn a card")):
        if action in enabled:
            press(page, page.get_by_role("button", name=name, exact=True).click, table(game))
            return
    raise AssertionError("no move is enabled")


def deal_over(page: Page, game: str) -> bool:
    """Whether the game's table shows the end of a deal (a deck in Pişti)."""
    return page.locator(f"{table(game)} [data-result]").is_visible()


def check(page: Page, script: str, where: str) -> None:
    """Run one of the page checks above; a fault leaves a screenshot of the whole page."""
    faults = page.evaluate(script)
    if faults:
        RESULTS.mkdir(exist_ok=True)
        name = re.sub(r"\W+", "-", where)
        page.screenshot(path=str(RESULTS / f"look-fault-{name}.png"), full_page=True)
    assert faults == [], (where, faults)


def check_contrast(page: Page, where: str) -> None:
    """Every text on the felt (names, scores, captions, flags, the goal) at least 4.5:1;
    the empty suit piles' marks at least 3:1."""
    text = page.evaluate(CONTRAST, [".felt *", False, True])
    marks = page.evaluate(CONTRAST, [".suit-base .pip", True, False])
    low = [t for t in text if t["ratio"] < 4.5] + [m for m in marks if m["ratio"] < 3]
    assert text and low == [], (where, low)


def check_axe(page: Page, where: str) -> None:
    """axe-core finds nothing on the page as it is now."""
    found = violations(page)
    assert found == [], (where, found)


def shot(page: Page, name: str) -> None:
    """Compare the window with its baseline (or write the baseline); keep the full-size shot."""
    page.mouse.move(0, 0)
    page.evaluate("document.activeElement?.blur(); window.scrollTo(0, 0)")
    png = page.screenshot(animations="disabled", caret="hide")
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"look-{name}.png").write_bytes(png)
    baseline = BASELINES / f"{name}.webp"
    known = baseline.read_bytes() if baseline.exists() and not UPDATE else None
    answer = page.evaluate(COMPARE, [base64.b64encode(png).decode(), known and base64.b64encode(known).decode(),
                                     PIXEL_STEP])
    if known is None:
        BASELINES.mkdir(exist_ok=True)
        baseline.write_bytes(base64.b64decode(answer["png"]))
        if not UPDATE:
            pytest.fail(f"no baseline for {name}: written to {baseline}; look at it and commit it")
        return
    if answer["share"] > DIFFERING_SHARE:
        (RESULTS / f"look-{name}-now-half.webp").write_bytes(base64.b64decode(answer["png"]))
        pytest.fail(f"{name} looks different from {baseline} ({answer['share']:.2%} of its pixels); "
                    f"half-scale shot in test-results/look-{name}-now-half.webp; "
                    "PISHE_UPDATE_BASELINES=1 rewrites the baselines")


# ---- tests ------------------------------------------------------------------


@pytest.mark.parametrize("game", ["pishe-pasha", "pisti"])
def test_the_table_looks_as_meant_from_deal_to_invite(page: Page, site, console_errors, game):
    errors = console_errors(page)
    page.set_viewport_size(DESKTOP)
    open_game(page, site, game)

    check(page, COVERED, "ready")
    check(page, INSIDE, "ready, desktop")
    check_contrast(page, "ready")
    check_axe(page, "ready")
    shot(page, f"{game}-desktop")

    page.get_by_role("switch", name="High contrast", exact=True).check()
    check(page, COVERED, "high contrast")
    shot(page, f"{game}-high-contrast")
    page.get_by_role("switch", name="High contrast", exact=True).uncheck()

    forced_colours(page, True)
    check(page, COVERED, "forced colours")
    check(page, FORCED, "forced colours")
    shot(page, f"{game}-forced-colours")
    forced_colours(page, False)

    for width in (320, 360, 901):
        resize(page, width, 740)
        check(page, INSIDE, f"ready, {width} px")
    # A phone keeps the buttons under the cards, and a 1280x900 window at 200% zoom
    # shows the table and its buttons on one screen.
    for width, height in ((360, 740), (640, 450)):
        resize(page, width, height)
        page.evaluate("window.scrollTo(0, 0)")
        span = page.evaluate(SPAN, table(game))
        assert span["bottom"] <= height and span["right"] <= width, (width, height, span)
        check(page, INSIDE, f"ready, {width}x{height}")
    resize(page, DESKTOP["width"], DESKTOP["height"])

    # Mid-deal, a give-or-keep moment (Pishe Pasha's), the deal's end.
    for _ in range(3):
        move(page, game)
    check_axe(page, "mid-deal")
    if game == "pishe-pasha":
        while page.get_by_role("button", name="Keep", exact=True).get_attribute("aria-disabled") == "true":
            move(page, game)
        check_axe(page, "give or keep")
        check(page, INSIDE, "give or keep")
    while not deal_over(page, game):
        move(page, game)
    check_axe(page, "deal end")
    check(page, INSIDE, "deal end")
    # The deal's end leaves the final board in view: its banner covers no suit pile.
    assert page.evaluate(UNCOVERED, table(game)), "the deal's banner covers a suit pile"
    shot(page, f"{game}-deal-end")

    # The invite panel (Pişti's match goes on after one deck: the page asks first), and
    # the page a friend opens from the invite link, before it connects.
    page.get_by_role("button", name="Invite a friend", exact=True).click()
    if game == "pisti":
        dialog = page.get_by_role("dialog", name="Leave the match you are playing?", exact=True)
        expect(dialog).to_be_visible()
        check_axe(page, "asked to leave the match")
        dialog.get_by_role("button", name="Invite a friend", exact=True).click()
    link = page.locator("[data-invite-link]").first
    expect(link).to_have_value(re.compile("^http"), timeout=30_000)
    check_axe(page, "invite panel")
    check(page, INSIDE, "invite panel")
    guest = page.context.new_page()
    try:
        guest.emulate_media(reduced_motion="reduce")
        guest.goto(link.input_value())
        expect(guest.get_by_role("textbox", name="Reply code")).to_be_visible(timeout=BOOT_MS)
        check_axe(guest, "guest's page")
    finally:
        guest.close()
    assert errors == []
