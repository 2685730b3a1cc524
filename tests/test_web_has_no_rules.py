"""The JavaScript in web/ paints views and forwards intents; the rules live in Python.

Statically: no script compares or computes with ranks or suits, lists them in
order, or inserts text as HTML; no script of the tables or games words a
sentence (Python does: the views, and the page's own words by key in
pishe/table/words.py), but for the few said when Python itself could not run.
In the browser: the page paints whatever view it is given, even one that breaks
every rule, without complaint and without keeping anything from earlier views.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import test_page
from playwright.sync_api import Page, expect
from table_waits import wait_idle

ROOT = Path(__file__).resolve().parent.parent
WEB = ROOT / "web"
BOOT_MS = 120_000
PASHA = '[data-game="pishe-pasha"]'  # Pishe Pasha's table on the page

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
        re.compile(r"\b(?:rank|suit)\s*(?:===?|!==?|<=?|(?<!=)>=?)"),
        re.compile(r"(?:===?|!==?|<=?|(?<!=)>=?)\s*(?:rank|suit)\b"),
    ],
    "a rank or suit literal compared": [
        re.compile(r"(?:===?|!==?)\s*{LITERAL}"),
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
    "figure.dataset.suit = suit;",
    "const label = `${card.rank} of ${card.suit}`;",
    "setText(whyLine, why.text);",
    "const legal = list(v.legal); if (legal.includes('give')) {}",
    "node.textContent = step; // not innerHTML",
    "const node = el('div', c.red ? 'card face red' : 'card face');",
]


def test_web_scripts_decide_no_rules():
    files = scripts()
    assert {p.relative_to(WEB).as_posix() for p in files} >= {"games/pasha/paint.js", "games/pisti/paint.js", "cards.js"}
    problems = [f"{p.relative_to(ROOT)} {v}" for p in files for v in violations(p.read_text(encoding="utf-8"))]
    assert problems == []


# ---- sentences: Python words them ----------------------------------------------

#: The scripts that must word no sentence: the tables' controllers and the games' painters.
WORDLESS = ("tables", "games")

#: The only sentences these scripts may word: what the page says when Python itself
#: could not run (no answer from the worker; the worker failing to start), since
#: Python's words cannot be had then. (file under web/, the literal as written)
FALLBACKS = {
    ("tables/computer.js", '"No answer from the game."'),
    ("tables/computer.js", '"The game could not start: {reason}"'),
    ("tables/friend/core.js", '"No answer from the game."'),
}

#: Capitalised words that are code, not words: key names.
CODE_WORDS = {"Enter", "Escape", "Tab", "Space", "Backspace", "Home", "End", "ArrowLeft", "ArrowRight",
              "ArrowUp", "ArrowDown", "PageUp", "PageDown"}

# String literals: "…", '…', and `…` (with ${…} inside, one level of braces deep).
STRING = re.compile(r"""'(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|`(?:\\.|\$\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}|[^`\\])*`""")
# A sentence: a capitalised word and more words ("No answer from the game", "Deal ${n} is…"),
# or one capitalised word with a full stop ("Copied."), or one bare word ("Connected").
SENTENCE = [
    re.compile(r"(?<![\w$-])[A-Z][a-z]+(?:['’][a-z]+)?[,:;]?\s+[\w'’“\"(]"),
    re.compile(r"^\W*[A-Z][a-z]+[.!?…]\W*$"),
]


def sentences(source: str) -> list[str]:
    """The string literals in `source` (JavaScript) that word a sentence."""
    found = []
    for match in STRING.finditer(strip_comments(source)):
        literal = match.group()
        body = re.sub(r"\$\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}", " x ", literal[1:-1])
        bare = re.fullmatch(r"[A-Z][a-z]{2,}", body) and body not in CODE_WORDS
        if bare or any(p.search(body) for p in SENTENCE):
            found.append(literal)
    return found


SENTENCES = [
    'setText(note, ok ? "Copied." : "Select it and copy it by hand.");',
    'const STATUS = { connected: "Connected" };',
    "setText(line, `Deal ${text(status.deal)} is dealt when your friend is back.`);",
    "showError(`Your friend's page sent something this page cannot accept: ${reason}`);",
    "label.textContent = 'Cards';",
    'setStatus("Waiting for your friend…");',
]
NOT_SENTENCES = [
    'say(ui.status, "waiting");',
    'if (event.key === "Enter") connect();',
    'console.warn("no QR code:", err);',
    "table.querySelector(`[data-seat=\"${clock.seat}\"] [data-clock]`);",
    'const err = new Error(`unknown game ${JSON.stringify(game)}`);',
    "if (label) setText(stage, `${label}…`);",
    'setAttribute("aria-label", text(place.label));',
    'svg.setAttribute("shape-rendering", "crispEdges");',
    "// Copied. A comment may say anything.",
]


# Each checker against snippets it must flag and snippets it must let pass.
CHECKS = [(violations, BAD, GOOD), (sentences, SENTENCES, NOT_SENTENCES)]


@pytest.mark.parametrize("checker,snippet", [(c, s) for c, bad, _ in CHECKS for s in bad])
def test_checker_catches(checker, snippet):
    assert checker(snippet), snippet


@pytest.mark.parametrize("checker,snippet", [(c, s) for c, _, good in CHECKS for s in good])
def test_checker_lets_pass(checker, snippet):
    assert checker(snippet) == [], snippet


def test_tables_and_games_word_no_sentence():
    """Every sentence a player reads comes from Python; the scripts of the tables and
    games word none, but for the fallbacks said when Python itself could not run."""
    files = [p for p in scripts() if p.relative_to(WEB).parts[0] in WORDLESS]
    assert {p.relative_to(WEB).as_posix() for p in files} >= {
        "tables/computer.js", "tables/friend/panel.js", "tables/friend/core.js", "tables/friend/table.js",
        "games/pisti/paint.js", "games/pasha/paint.js"}
    found = {(p.relative_to(WEB).as_posix(), s) for p in files for s in sentences(p.read_text(encoding="utf-8"))}
    assert found - FALLBACKS == set(), "word these in Python (pishe/table/words.py or the game's view)"
    assert found == FALLBACKS, "a fallback is gone: take it off FALLBACKS"


def test_every_page_word_the_scripts_use_is_worded_in_python():
    """The keys the scripts show (word(), say(), the friend panel's STATUS, an error's
    `word`) are all in Python's page words, which the worker answers."""
    from pishe.table.words import PAGE
    from pishe.web import page_words

    assert json.loads(page_words()) == {"words": PAGE, "language": "en"}
    used = set()
    for p in scripts():
        source = strip_comments(p.read_text(encoding="utf-8"))
        used |= set(re.findall(r"\b(?:word|say)\(\s*(?:[\w.]+\s*,\s*)?\"(\w+)\"", source))
        used |= set(re.findall(r"\bword\s*=\s*\"(\w+)\"", source))
        used |= {key for pair in re.findall(r"\bcodeError\([^,]*,\s*\"(\w+)\",\s*\"(\w+)\"\)", source) for key in pair}
        used |= set(re.findall(r"\"(why_\w+)\"", source))       # a failure's cause (web/core/rtc.js)
        # A choice of two: say(note, ok ? "copied" : "copy_by_hand").
        used |= {key for pair in re.findall(r"\b(?:word|say)\([^;]*?\?\s*\"(\w+)\"\s*:\s*\"(\w+)\"", source)
                 for key in pair}
    panel = (WEB / "tables" / "friend" / "panel.js").read_text(encoding="utf-8")
    status = re.search(r"export const STATUS = \{(.*?)\};", panel, flags=re.S).group(1)
    used |= set(re.findall(r":\s*\"(\w+)\"", status))
    assert {"copied", "copy_by_hand", "host_deals", "friend_deals", "paste_reply", "not_a_code",
            "code_damaged", "unknown_game", "paused", "waiting", "link_used", "why_not_a_code", "why_damaged",
            "why_no_webrtc", "why_refused", "why_browser"} <= used
    assert used - set(PAGE) == set()


def test_every_cause_of_a_failed_start_is_worded_in_python():
    """The causes the worker (causeOf) and the page (a worker that did not load) name for a
    failed start are pishe/table/words.py's START_FAILED, which the page says in every
    language: the build writes them into the page, and each is one of its static words."""
    import catalogs
    from pishe.table.words import START_FAILED

    worker = strip_comments((WEB / "core" / "worker.js").read_text(encoding="utf-8"))
    named = set(re.findall(r'return "(\w+)"', re.search(r"function causeOf\(err\) \{(.*?)\n\}", worker, re.S).group(1)))
    boot = strip_comments((WEB / "core" / "boot.js").read_text(encoding="utf-8"))
    named |= set(re.search(r'event\.message \? "(\w+)" : "(\w+)"', boot).groups())
    assert named == set(START_FAILED)
    for code in catalogs.LANGUAGES:
        words = catalogs.page_words(code)
        assert all(words.get(message) for message in START_FAILED.values()), code


def test_page_has_no_inline_script_or_foreign_images():
    html = (ROOT / "index.html").read_text(encoding="utf-8")
    assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", html) == []
    assert re.findall(r"<img\b", html) == []
    css = "".join(p.read_text(encoding="utf-8") for p in WEB.rglob("*.css"))
    # Every url() in our CSS is an inline drawing of our own, never a fetched file.
    assert all(u.startswith(("data:", '"data:', "'data:")) for u in re.findall(r"url\(\s*([^)]*)", css))


# ---- in the browser ------------------------------------------------------------

# test_page's fixtures: one persistent profile and server (kept for the session), a tab per
# test; after the first boot Python starts from the profile's snapshot of its memory.
returning_visitor, site, page = test_page.returning_visitor, test_page.site, test_page.page

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
    "names": ["Ada", "<b>Bob</b>"],
    "suit_piles": [
        {"suit": "C", "count": 13, "top": CARD["KC"], "label": "Clubs pile: K♣, 13 cards"},
        {"suit": "D", "count": 0, "top": CARD["7D"], "label": EVIL},
        {"suit": "H", "count": 2, "top": CARD["KS"], "label": "Hearts pile: K♠, 2 cards"},
        {"suit": "S", "count": 99, "top": None, "label": "Spades pile: empty"},
    ],
    "stocks": [{"count": 60}, {"count": -3}],
    "discards": [{"count": 2, "top": CARD["KC"]}, {"count": 0, "top": CARD["AH"]}],
    "turned": CARD["QD"],
    "places": [
        {"name": "Ada", "flag": "<b>Now</b>", "flag_kind": "turn", "stock_label": EVIL, "pile_label": "Ada's pile",
         "turned_label": "Ada's turned card: Q♦", "clicks": {"stock": "fly", "pile": EVIL}, "target": True,
         "given": True},
        {"name": "<b>Bob</b>", "flag": "", "flag_kind": "", "stock_label": "Bob's stock", "pile_label": "Bob's pile",
         "turned_label": None},
    ],
    "legal": ["give", "keep", "turn", "fly"],
    "give_card": CARD["KC"],
    "status": "<i>Your turn, twice.</i>",
    "why": {"text": "You may give your K♣.", "kind": "hint"},
    "goal": EVIL, "hint": {"key": EVIL, "text": EVIL},
    "this_turn": {"seat": 0, "title": "This turn", "who": "Ada",
                  "steps": [EVIL, "<script>window.__pwned = 2</script>", "K♣ goes home twice"]},
    "other_last_turn": {"seat": 1, "title": "<b>Bob</b>'s last turn", "steps": []},
    "deal_result": None,
    "result": None,
    "match": {"length": "forever", "length_name": "<i>Forever</i>", "target": 7, "deal": 999,
              "dealer": 1, "leader": 1, "scores": [-5, 1000], "over": False, "winner": None,
              "next_deal": True},
}

PAINT = """async ([game, view]) => {
  const { painter, tableOf } = await import(new URL("web/games/registry.js", document.baseURI).href);
  const { paint } = await painter(game);
  return paint(view, tableOf(game));
}"""

# What the table shows, without the purely cosmetic bits (animation classes, keys).
# The hint box is left out: which hints this visit has shown is the page's memory by design
# (each shows once, in the first deal), the one thing a paint keeps from earlier views.
SNAPSHOT = """() => {
  const out = [];
  const walk = (node) => {
    for (const child of node.childNodes) {
      if (child.nodeType === Node.TEXT_NODE) { if (child.data.trim()) out.push(child.data.trim()); continue; }
      if (child.nodeType !== Node.ELEMENT_NODE || child.hasAttribute("data-hint")) continue;
      out.push([child.tagName, child.hidden, child.getAttribute("aria-label"), child.getAttribute("aria-disabled"),
                child.dataset.code || null, child.dataset.suit || null].join("|"));
      walk(child);
    }
  };
  walk(document.querySelector('[data-pishe-table][data-game="pishe-pasha"]'));
  walk(document.querySelector(".topbar"));
  walk(document.querySelector(".match-lines"));
  return out;
}"""


def test_page_paints_a_rule_breaking_view(page: Page, site, console_errors):
    errors = console_errors(page)
    page.on("dialog", lambda d: errors.append(f"dialog: {d.message}"))
    page.goto(site.url + "?delay=0")
    expect(page.locator("body")).to_have_attribute("data-ready", "true", timeout=BOOT_MS)

    paints = "Number(document.querySelector('[data-pishe-table][data-game=\"pishe-pasha\"]').dataset.paints)"
    before = page.evaluate(paints)
    page.evaluate(PAINT, ["pishe-pasha", BROKEN_VIEW])
    assert page.evaluate(paints) == before + 1  # painted once, to its end: the count is its last step
    # The goal and the hint as plain text; a click on a pile whose action no button has does nothing.
    expect(page.locator(PASHA + " [data-goal]")).to_have_text(EVIL)
    expect(page.locator(PASHA + " [data-hint-text]")).to_have_text(EVIL)
    page.locator(PASHA + ' [data-place="bottom"] [data-pile="stock"]').click()
    page.locator(PASHA + ' [data-place="bottom"] [data-pile="discard"]').click()
    assert page.evaluate(paints) == before + 1
    # Enabled exactly as the view says, however illegal.
    for name in ("Turn a card", "Give", "Keep"):
        expect(page.get_by_role("button", name=name, exact=True)).to_have_attribute("aria-disabled", "false")
    # Cards where the view puts them.
    piles = page.locator(".pile-suit")
    assert [piles.nth(i).locator(".card.face").get_attribute("data-code") if piles.nth(i).locator(".card.face").count()
            else None for i in range(4)] == ["KC", "7D", "KS", None]
    bottom, top = page.locator('[data-place="bottom"]').first, page.locator('[data-place="top"]').first
    expect(bottom.locator('[data-pile="discard"] .card.face')).to_have_attribute("data-code", "KC")
    expect(bottom.locator('[data-pile="turned"] .card.face')).to_have_attribute("data-code", "QD")
    expect(top.locator('[data-pile="discard"] .card.face')).to_have_attribute("data-code", "AH")
    expect(bottom.locator('[data-pile="stock"] [data-count]')).to_have_text("60")
    expect(top.locator('[data-pile="stock"] [data-count]')).to_have_text("-3")
    # Names and texts as plain text, never as HTML; labels as the view words them.
    expect(bottom.locator("[data-seat-name]")).to_have_text("Ada")
    expect(top.locator("[data-seat-name]")).to_have_text("<b>Bob</b>")
    expect(bottom.locator("[data-seat-flag]")).to_have_text("<b>Now</b>")
    expect(page.get_by_role("img", name=EVIL, exact=True)).to_have_count(1)  # the stock's label
    expect(page.get_by_role("figure", name=EVIL, exact=True)).to_have_count(2)  # that stock, and the D pile
    expect(page.locator(PASHA + " [data-status]")).to_have_text("<i>Your turn, twice.</i>")
    expect(page.locator('[data-match-line="pishe-pasha"] [data-match-length]')).to_have_text("<i>Forever</i>")
    expect(page.locator("[data-this-turn] li")).to_have_text([EVIL, "<script>window.__pwned = 2</script>",
                                                              "K♣ goes home twice"])
    expect(page.locator("[data-last-turn-title]")).to_have_text("<b>Bob</b>'s last turn")
    expect(page.locator("[data-why]")).to_have_text("You may give your K♣.")

    # The why-line shows the view's text, whatever it is, and buttons follow legal alone.
    view = {**BROKEN_VIEW, "legal": ["keep"], "why": {"text": EVIL, "kind": "problem"}}
    page.evaluate(PAINT, ["pishe-pasha", view])
    expect(page.locator("[data-why]")).to_have_text(EVIL)
    expect(page.get_by_role("button", name="Give", exact=True)).to_have_attribute("aria-disabled", "true")

    # A finished deal the rules could not produce, worded as the view says.
    over = {**BROKEN_VIEW, "turn": None, "legal": [],
            "result": {"title": "Seat 8 wins the deal", "points": "-1 points", "match": EVIL}}
    page.evaluate(PAINT, ["pishe-pasha", over])
    expect(page.locator(PASHA + " [data-result-title]")).to_have_text("Seat 8 wins the deal")
    expect(page.locator(PASHA + " [data-result-match]")).to_have_text(EVIL)
    expect(page.get_by_role("button", name="Next deal", exact=True)).to_be_visible()  # on the result banner

    # Nothing at all, or not even an object: still no complaint.
    page.evaluate(PAINT, ["pishe-pasha", {}])
    page.evaluate(PAINT, ["pishe-pasha", None])

    assert page.evaluate("document.querySelectorAll('[data-pishe-table] img, [data-pishe-table] b, "
                         "[data-pishe-table] i, .topbar i, .match-lines i').length") == 0
    assert page.evaluate("window.__pwned") is None
    assert errors == []


def test_paint_keeps_nothing_from_earlier_views(page: Page, site, console_errors):
    """paint(A) after paint(B) shows exactly what paint(A) showed the first time."""
    errors = console_errors(page)
    page.goto(site.url + "?delay=0&seed=4")
    expect(page.locator("body")).to_have_attribute("data-ready", "true", timeout=BOOT_MS)
    wait_idle(page)
    first = page.evaluate("window.pishe.call('current')")["view"]
    for _ in range(6):
        answer = page.evaluate("window.pishe.call('act', 'turn')")
        assert "error" not in answer
        while answer["computer_moves"]:
            answer = page.evaluate("window.pishe.call('computer_step')")
    later = answer["view"]

    page.evaluate(PAINT, ["pishe-pasha", first])
    shown_first = page.evaluate(SNAPSHOT)
    page.evaluate(PAINT, ["pishe-pasha", later])
    shown_later = page.evaluate(SNAPSHOT)
    page.evaluate(PAINT, ["pishe-pasha", BROKEN_VIEW])
    page.evaluate(PAINT, ["pishe-pasha", first])
    assert page.evaluate(SNAPSHOT) == shown_first
    assert shown_later != shown_first
    page.evaluate(PAINT, ["pishe-pasha", later])
    assert page.evaluate(SNAPSHOT) == shown_later
    assert errors == []


# A Pişti view no deck could produce: a hand card the view does not allow and a
# legal code in no hand, a jack on an empty pile with a count of 0, negative
# counts, an opening seen by everyone, and texts that look like HTML.
BROKEN_PISTI_VIEW = {
    "game": "pisti", "seat": 0, "seats": 4, "names": ["<b>Ada</b>", "Bo", "Cy", "Di"], "team": 0,
    "teams": [[0, 2], [1, 3]], "team_names": [EVIL, "Them"], "turn": 0, "dealer": 0,
    "hand": [{**CARD["KC"], "play_label": "Play K♣"}, {**CARD["KC"], "play_label": EVIL},
             {**CARD["7D"], "play_label": "Play 7♦"}],
    "hand_counts": [3, -1, 99, 0], "deck_count": -4,
    "pile": {"count": 0, "top": {**CARD["QD"], "code": "JS"}}, "sent_under": [CARD["AH"]] * 5,
    "taken": [{"count": -2, "pishti": [CARD["KS"]], "jack_pishti": []}, {"count": 60, "pishti": [], "jack_pishti": []}],
    "opening": [CARD["KC"], CARD["KC"], CARD["KC"]], "legal": ["KC", "9H"],
    "status": "<i>Play twice</i>", "since_last_turn": [EVIL],
    "deck_result": {"rows": [{"what": EVIL, "values": ["-1", "x"]}], "teams": ["<b>Us</b>", "Them"]},
    "match": {"length": "7", "length_name": "<i>Forever</i>", "target": 7, "deal": 0, "dealer": 0,
              "scores": [-5, 1000], "over": True, "winner": None, "next_deal": True, "result": EVIL},
}


def test_pisti_table_paints_a_rule_breaking_view(page: Page, site, console_errors):
    errors = console_errors(page)
    page.goto(site.url + "?delay=0")
    expect(page.locator("body")).to_have_attribute("data-ready", "true", timeout=BOOT_MS)
    page.get_by_role("radio", name="Pişti", exact=True).check()
    wait_idle(page)
    page.evaluate(PAINT, ["pisti", BROKEN_PISTI_VIEW])
    table = page.locator('[data-game="pisti"]')
    # A card is playable exactly when the view lists its code, whatever else it says.
    hand = table.get_by_role("group", name="Your hand")
    expect(hand.get_by_role("button", name="Play K♣", exact=True)).to_have_attribute("aria-disabled", "false")
    expect(hand.get_by_role("button", name=EVIL, exact=True)).to_have_attribute("aria-disabled", "false")
    expect(hand.get_by_role("button", name="Play 7♦", exact=True)).to_have_attribute("aria-disabled", "true")
    expect(table.locator("[data-deck] [data-count]")).to_have_text("-4")
    expect(table.locator('[data-place="right"] [data-held] [data-count]')).to_have_text("-1")
    expect(table.locator('[data-place="bottom"] [data-name]')).to_have_text("<b>Ada</b>")
    expect(table.locator('[data-team="0"] [data-team-name]')).to_have_text(EVIL)
    expect(table.locator("[data-status]")).to_have_text("<i>Play twice</i>")
    expect(table.locator("[data-since] li")).to_have_text([EVIL])
    expect(table.locator("[data-result-title]")).to_have_text(EVIL)
    expect(table.get_by_role("row")).to_have_count(2)
    expect(table.get_by_role("button", name="Next deck", exact=True)).to_be_visible()
    expect(table.get_by_role("button", name="Opening cards", exact=True)).to_be_visible()
    page.evaluate(PAINT, ["pisti", {}])
    page.evaluate(PAINT, ["pisti", None])
    expect(hand.get_by_role("button")).to_have_count(0)
    assert page.evaluate("document.querySelectorAll('[data-game=\"pisti\"] img, [data-game=\"pisti\"] b, "
                         "[data-game=\"pisti\"] i').length") == 0
    assert page.evaluate("window.__pwned") is None
    assert errors == []
