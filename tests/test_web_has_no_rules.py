"""The JavaScript in web/ paints views and forwards intents; the rules live in Python.

Statically: no script compares or computes with ranks or suits, lists them in
order, or inserts text as HTML. In the browser: the page paints whatever view it
is given, even one that breaks every rule, without complaint and without
keeping anything from earlier views.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
BOOT_MS = 120_000

RANKS = r"(?:A|[2-9]|10|J|Q|K)"
SUITS = r"(?:C|D|H|S|♣|♦|♥|♠)"
LITERAL = rf"""["'`](?:{RANKS}|{SUITS})["'`]"""
# Comparison and arithmetic operators ("=>" is an arrow, not a comparison).
OPERATOR = r"(?:===?|!==?|<=?|(?<!=)>=?|[-+*/%])"
FIELD = r"\.(?:rank|suit)\b(?!\s*\()"
FORBIDDEN = {
    "rank or suit in a comparison or arithmetic": [
        re.compile(rf"{FIELD}\s*{OPERATOR}(?!=)"),
        re.compile(rf"{OPERATOR}\s*[\w$.\[\]()]*{FIELD}"),
        re.compile(rf"\b(?:rank|suit)\s*(?:===?|!==?|<=?|(?<!=)>=?)"),
        re.compile(rf"(?:===?|!==?|<=?|(?<!=)>=?)\s*(?:rank|suit)\b"),
    ],
    "a rank or suit literal compared": [
        re.compile(rf"(?:===?|!==?)\s*{LITERAL}"),
        re.compile(rf"{LITERAL}\s*(?:===?|!==?)"),
        re.compile(rf"\bcase\s+{LITERAL}\s*:"),
    ],
    "ranks or suits turned into numbers or sorted": [
        re.compile(r"\b(?:parseInt|parseFloat|Number|Math\.\w+)\s*\([^)]*\b(?:rank|suit)\b"),
        re.compile(r"\b(?:rank|suit)\w*\s*\.\s*(?:localeCompare|charCodeAt|codePointAt)\b"),
        re.compile(r"\.sort\s*\([^)]*\b(?:rank|suit)\b"),
        re.compile(r"\.(?:indexOf|findIndex)\s*\([^)]*\b(?:rank|suit)\b"),
    ],
    "a list of ranks or suits in order": [
        re.compile(r"""["']A["']\s*,\s*["']2["']"""),
        re.compile(r"""["']J["']\s*,\s*["']Q["']\s*,\s*["']K["']"""),
        re.compile(r"""["']C["']\s*,\s*["']D["']\s*,\s*["']H["']"""),
    ],
    "text inserted as HTML": [
        re.compile(r"\.(?:innerHTML|outerHTML)\s*\+?="),
        re.compile(r"\binsertAdjacentHTML\b|\bdocument\.write(?:ln)?\b|\bcreateContextualFragment\b"),
    ],
}


def strip_comments(source: str) -> str:
    """JavaScript without its comments (strings are kept; a '//' inside a string
    such as a URL ends the scan of that line early, which only skips text)."""
    source = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group().count("\n"), source, flags=re.S)
    return re.sub(r"(^|[^:\\'\"])//.*", r"\1", source)


def violations(source: str) -> list[str]:
    found = []
    for number, line in enumerate(strip_comments(source).splitlines(), 1):
        for why, patterns in FORBIDDEN.items():
            if any(p.search(line) for p in patterns):
                found.append(f"line {number}: {why}: {line.strip()}")
    return found


def scripts() -> list[Path]:
    return sorted(p for p in WEB.rglob("*") if p.suffix in (".js", ".mjs"))


# The checker itself: it must catch these and let the painting code pass.
BAD = [
    "if (card.rank === 'K') return;",
    'const ok = view.discards[0].top.rank + 1 == other.rank;',
    "if (a.suit !== b.suit) fits = false;",
    "const next = top.rank - 1;",
    'if ("Q" === card.rank) {}',
    "switch (card.suit) { case 'H': red = true; }",
    "const n = parseInt(card.rank, 10);",
    'const ORDER = ["A", "2", "3"];',
    "const SUITS = ['C', 'D', 'H', 'S'];",
    "cards.sort((a, b) => a.rank - b.rank);",
    "node.innerHTML = step;",
    "el.insertAdjacentHTML('beforeend', text);",
    "if (rank > 10) face = true;",
    "const i = RANKS.indexOf(card.rank);",
]
GOOD = [
    "node.dataset.rank = text(c.rank);",
    "rank.textContent = text(card.rank);",
    "const suitName = SUIT_NAMES[suit] || suit;",
    "figure.dataset.suit = suit;",
    "const label = `${card.rank} of ${card.suit}`;",
    "setText(why, v.give_problem);",
    "const legal = list(v.legal); if (legal.includes('give')) {}",
    "node.textContent = step; // not innerHTML",
    "const node = el('div', c.red ? 'card face red' : 'card face');",
]


@pytest.mark.parametrize("snippet", BAD)
def test_checker_catches_rules(snippet):
    assert violations(snippet), snippet


@pytest.mark.parametrize("snippet", GOOD)
def test_checker_lets_painting_pass(snippet):
    assert violations(snippet) == [], snippet


def test_web_scripts_decide_no_rules():
    files = scripts()
    assert {p.name for p in files} >= {"table.js", "cards.js"}
    problems = [f"{p.relative_to(ROOT)} {v}" for p in files for v in violations(p.read_text(encoding="utf-8"))]
    assert problems == []


def test_page_has_no_inline_script_or_foreign_images():
    html = (ROOT / "index.html").read_text(encoding="utf-8")
    assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", html) == []
    assert re.findall(r"<img\b", html) == []
    css = (WEB / "style.css").read_text(encoding="utf-8")
    # Every url() in our CSS is an inline drawing of our own, never a fetched file.
    assert all(u.startswith(("data:", '"data:', "'data:")) for u in re.findall(r"url\(\s*([^)]*)", css))


# ---- in the browser ------------------------------------------------------------

CARD = {
    "KC": {"code": "KC", "rank": "K", "suit": "C", "symbol": "♣", "label": "K♣", "name": "king of clubs", "red": False},
    "7D": {"code": "7D", "rank": "7", "suit": "D", "symbol": "♦", "label": "7♦", "name": "7 of diamonds", "red": True},
    "KS": {"code": "KS", "rank": "K", "suit": "S", "symbol": "♠", "label": "K♠", "name": "king of spades", "red": False},
    "AH": {"code": "AH", "rank": "A", "suit": "H", "symbol": "♥", "label": "A♥", "name": "ace of hearts", "red": True},
    "QD": {"code": "QD", "rank": "Q", "suit": "D", "symbol": "♦", "label": "Q♦", "name": "queen of diamonds", "red": True},
}
EVIL = '<img src="x" onerror="window.__pwned = 1">'

# Breaks every rule: a king offered onto an ace, the same king in two places, a
# seven of diamonds on an empty diamonds pile, a king of spades on the hearts
# pile, negative and impossible counts, buttons the rules would never allow, a
# next deal in mid-deal, and texts that look like HTML.
BROKEN_VIEW = {
    "game": "pishe-pasha", "seat": 0, "seats": 2, "turn": 0,
    "suit_piles": [
        {"suit": "C", "count": 13, "top": CARD["KC"]},
        {"suit": "D", "count": 0, "top": CARD["7D"]},
        {"suit": "H", "count": 2, "top": CARD["KS"]},
        {"suit": "S", "count": 99, "top": None},
    ],
    "stocks": [{"count": 60}, {"count": -3}],
    "discards": [{"count": 2, "top": CARD["KC"]}, {"count": 0, "top": CARD["AH"]}],
    "turned": CARD["QD"],
    "legal": ["give", "keep", "turn", "fly"],
    "give_card": CARD["KC"],
    "give_problem": EVIL,
    "this_turn": {"seat": 0, "steps": [EVIL, "<script>window.__pwned = 2</script>", "K♣ goes home twice"]},
    "other_last_turn": {"seat": 1, "steps": []},
    "deal_result": None,
    "match": {"length": "forever", "length_name": "<i>Forever</i>", "target": 7, "deal": 999,
              "dealer": 1, "leader": 1, "scores": [-5, 1000], "over": False, "winner": None,
              "next_deal": True},
}

PAINT = """async ([view, names]) => {
  const { paint } = await import(new URL("web/table.js", document.baseURI).href);
  return paint(view, names ? { names } : undefined);
}"""

# What the table shows, without the purely cosmetic bits (animation classes, keys).
SNAPSHOT = """() => {
  const out = [];
  const walk = (node) => {
    for (const child of node.childNodes) {
      if (child.nodeType === Node.TEXT_NODE) { if (child.data.trim()) out.push(child.data.trim()); continue; }
      if (child.nodeType !== Node.ELEMENT_NODE) continue;
      out.push([child.tagName, child.hidden, child.getAttribute("aria-label"), child.getAttribute("aria-disabled"),
                child.dataset.code || null, child.dataset.suit || null].join("|"));
      walk(child);
    }
  };
  walk(document.querySelector("[data-pishe-table]"));
  walk(document.querySelector(".topbar"));
  return out;
}"""


def test_page_paints_a_rule_breaking_view(page: Page, site, console_errors):
    errors = console_errors(page)
    page.on("dialog", lambda d: errors.append(f"dialog: {d.message}"))
    page.goto(site.url + "?delay=0")
    expect(page.locator("body")).to_have_attribute("data-ready", "true", timeout=BOOT_MS)

    took = page.evaluate(PAINT, [BROKEN_VIEW, ["Ada", "<b>Bob</b>"]])
    assert took >= 0
    # Enabled exactly as the view says, however illegal.
    for name in ("Turn a card", "Give", "Keep"):
        expect(page.get_by_role("button", name=name, exact=True)).to_have_attribute("aria-disabled", "false")
    expect(page.get_by_role("button", name="Next deal", exact=True)).to_be_visible()
    # Cards where the view puts them.
    piles = page.locator(".pile-suit")
    assert [piles.nth(i).locator(".card.face").get_attribute("data-code") if piles.nth(i).locator(".card.face").count()
            else None for i in range(4)] == ["KC", "7D", "KS", None]
    bottom, top = page.locator('[data-place="bottom"]'), page.locator('[data-place="top"]')
    expect(bottom.locator('[data-pile="discard"] .card.face')).to_have_attribute("data-code", "KC")
    expect(bottom.locator('[data-pile="turned"] .card.face')).to_have_attribute("data-code", "QD")
    expect(top.locator('[data-pile="discard"] .card.face')).to_have_attribute("data-code", "AH")
    expect(bottom.locator('[data-pile="stock"] [data-count]')).to_have_text("60")
    expect(top.locator('[data-pile="stock"] [data-count]')).to_have_text("-3")
    # Names and texts as plain text, never as HTML.
    expect(bottom.locator("[data-seat-name]")).to_have_text("Ada")
    expect(top.locator("[data-seat-name]")).to_have_text("<b>Bob</b>")
    expect(page.locator("[data-match-length]")).to_have_text("<i>Forever</i>")
    expect(page.locator("[data-this-turn] li")).to_have_text([EVIL, "<script>window.__pwned = 2</script>",
                                                              "K♣ goes home twice"])
    expect(page.locator("[data-why]")).to_have_text("You may give your K♣.")

    # Give not allowed: the why-line shows the view's text, still as text.
    view = {**BROKEN_VIEW, "legal": ["keep"]}
    page.evaluate(PAINT, [view, ["Ada", "<b>Bob</b>"]])
    expect(page.locator("[data-why]")).to_have_text(EVIL)
    expect(page.get_by_role("button", name="Give", exact=True)).to_have_attribute("aria-disabled", "true")

    # A finished deal the rules could not produce: a seat that is not there won.
    over = {**BROKEN_VIEW, "turn": None, "legal": [], "deal_result": {"winner": 7, "points": -1}}
    page.evaluate(PAINT, [over, None])
    expect(page.locator("[data-result-title]")).to_have_text("Seat 8 wins the deal")

    # Nothing at all, or not even an object: still no complaint.
    page.evaluate(PAINT, [{}, None])
    page.evaluate(PAINT, [None, None])

    assert page.evaluate("document.querySelectorAll('[data-pishe-table] img, [data-pishe-table] b, "
                         "[data-pishe-table] i, .topbar i').length") == 0
    assert page.evaluate("window.__pwned") is None
    assert errors == []


def test_paint_keeps_nothing_from_earlier_views(page: Page, site, console_errors):
    """paint(A) after paint(B) shows exactly what paint(A) showed the first time."""
    errors = console_errors(page)
    page.goto(site.url + "?delay=0&seed=4")
    expect(page.locator("body")).to_have_attribute("data-ready", "true", timeout=BOOT_MS)
    page.wait_for_function("document.body.dataset.idle === 'true'")
    first = page.evaluate("window.pishe.call('current')")["view"]
    for _ in range(6):
        answer = page.evaluate("window.pishe.call('act', 'turn')")
        assert "error" not in answer
        while answer["computer_moves"]:
            answer = page.evaluate("window.pishe.call('computer_step')")
    later = answer["view"]

    page.evaluate(PAINT, [first, None])
    shown_first = page.evaluate(SNAPSHOT)
    page.evaluate(PAINT, [later, None])
    shown_later = page.evaluate(SNAPSHOT)
    page.evaluate(PAINT, [BROKEN_VIEW, ["Ada", "Bob"]])
    page.evaluate(PAINT, [first, None])
    assert page.evaluate(SNAPSHOT) == shown_first
    assert shown_later != shown_first
    page.evaluate(PAINT, [later, None])
    assert page.evaluate(SNAPSHOT) == shown_later
    assert errors == []
