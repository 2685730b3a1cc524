"""A friend's table: two pages play each other over a WebRTC data channel.

Two persistent browser profiles of Debian's Chromium (the flags are in
conftest.py) hold the host's and the guest's pages: each test opens fresh tabs
in them, and the profiles' disk caches keep Pyodide between tests, as a
returning visitor's browser does. The host invites, the guest opens the link,
the reply code goes back, and both play by clicking buttons, as two people
would: the table's buttons by their accessible names, each move where its button
shows (a click in the page on what is hit at the button's centre). The guest gives
whenever it may, the host only early in a deal (Table.choose). The test waits on
each page's paint counter and idle flag (`data-paints`, `data-idle`), watched
inside the page, so it never polls while the pages work.

Secrets are checked on the wire, not in the page's own code: an init script
taps every RTCDataChannel the page hands to its worker and records each message
it receives and sends. A friends' table deals no-peek (docs/PROTOCOL.md): no message
the guest received may name a card, but a move's own action; the host's page carries
locked points and masked keys only. When the deal is over every page reveals its
secret; the test rebuilds the deck from every page's messages (tests/nopeek_wire.py,
each shuffle, lock and key checked against its page's secret) and replays the deal in
this process with the very actions that were clicked: every board both pages showed
must be their own seat's view of that deal.
"""

from __future__ import annotations

import contextlib
import json
import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from nopeek_wire import check_carried, match_id_of, np_messages, rebuilt_deck
from returning import welcome_back_profile
from table_waits import press, wait_idle
from pishe.table.game import get_game
from pishe.table.match import Match
from pishe.table.protocol.wire import VERSION

GAME = get_game("pishe-pasha")

RESULTS = Path(__file__).resolve().parent.parent / "test-results"
BOOT_MS = 120_000
PASHA = '[data-game="pishe-pasha"]'  # Pishe Pasha's table on the page
SYNC_S = 30

BUTTON = {"turn": "Turn a card", "give": "Give", "keep": "Keep"}
# The host gives only in a deal's first HOST_GIVES actions (Table.choose).
HOST_GIVES = 40


# Installed before the page's scripts: records every message each data channel
# of the page receives (and sends), whatever the page's code does with it. The
# page hands its channels to its (module) worker, so every such worker first runs
# WORKER_TAP, which taps each channel it is given (or port, for a link carried through
# the relays) and posts a copy of every
# message to the page, here, before the worker's own code sees it. window.__wire.send(text)
# sends `text` down the page's newest open channel, as a tampered page could;
# window.__wire.mute(true) drops everything the page sends from then on (a page that
# stops answering while its channel stays open).
WORKER_TAP = """
const channels = [];
let muted = false;
const copy = (kind, text) => self.postMessage({ __wire: [kind, String(text)] });
self.addEventListener("message", (event) => {
  const data = event.data;
  if (data && data.__wireMute !== undefined) {
    event.stopImmediatePropagation();
    muted = data.__wireMute;
    return;
  }
  if (data && data.__wireSend !== undefined) {
    event.stopImmediatePropagation();
    channels.filter((c) => c.readyState === "open").at(-1).send(data.__wireSend);
    return;
  }
  const channel = data && typeof data === "object" && Object.values(data).find((v) => v instanceof RTCDataChannel);
  const port = data && typeof data === "object" && data.port instanceof MessagePort ? data.port : null;
  if (channel) {
    channels.push(channel);
    channel.addEventListener("message", (e) => copy("received", e.data));
    const send = channel.send.bind(channel);
    channel.send = (text) => { if (muted) return undefined; copy("sent", text); return send(text); };
  } else if (port) {
    // A link carried through the relays: the page posts {text} for each message received
    // and takes each text the worker posts.
    const post = port.postMessage.bind(port);
    port.postMessage = (text) => { if (muted) return undefined; copy("sent", text); return post(text); };
    port.addEventListener("message", (e) => { if (e.data && typeof e.data.text === "string") copy("received", e.data.text); });
    channels.push({ readyState: "open", send: (text) => port.postMessage(text) });
  }
});
"""
# A JavaScript function (tap, onWorker): from now on every module worker the page makes
# first runs the module `tap` (its source), then its own; onWorker(worker) is called with
# each worker made. Taps chain: a later one wraps the Worker an earlier one made.
TAP_WORKERS = """(tap, onWorker) => {
  const script = (text) => URL.createObjectURL(new Blob([text], { type: "text/javascript" }));
  const tapUrl = script(tap);
  const Native = window.Worker;
  window.Worker = class extends Native {
    constructor(url, options) {
      const real = new URL(url, location.href).href;
      super(options && options.type === "module"
        ? script(`import ${JSON.stringify(tapUrl)};\nimport ${JSON.stringify(real)};\n`) : url, options);
      onWorker(this);
    }
  };
}"""
WIRE_TAP = """((tap) => {
  const wire = (window.__wire = { received: [], sent: [], both: [] });  // both: [kind, text], in order
  const workers = [];
  (""" + TAP_WORKERS + """)(tap, (worker) => {
    workers.push(worker);
    worker.addEventListener("message", (event) => {
      const copy = event.data && event.data.__wire;
      if (!copy) return;
      event.stopImmediatePropagation();
      wire[copy[0]].push(copy[1]);
      wire.both.push(copy);
    });
  });
  wire.send = (text) => workers.forEach((w) => w.postMessage({ __wireSend: text }));
  wire.mute = (on) => workers.forEach((w) => w.postMessage({ __wireMute: on }));
})(""" + json.dumps(WORKER_TAP) + ");"

# The board as a page shows it, with seats by their seat number.
READ_BOARD = """() => {
  const q = (s, root = document) => root.querySelector(s);
  const table = q("[data-pishe-table]");
  const seats = {};
  let mine = null;
  for (const area of document.querySelectorAll('[data-game="pishe-pasha"] [data-place]')) {
    if (area.hidden) continue;
    const seat = Number(area.dataset.seat);
    if (area.dataset.place === "bottom") mine = seat;
    const pile = (kind) => q(`[data-pile="${kind}"]`, area);
    const face = (kind) => { const c = q(".card.face", pile(kind)); return c ? c.dataset.code : null; };
    seats[seat] = {
      name: q("[data-seat-name]", area).textContent,
      flag: q("[data-seat-flag]", area).hidden ? null : q("[data-seat-flag]", area).textContent,
      score: q("[data-seat-score]", area).textContent,
      stock: q("[data-count]", pile("stock")).textContent,
      discard: q("[data-count]", pile("discard")).textContent,
      top: face("discard"),
      turned: pile("turned").hidden ? null : face("turned"),
    };
  }
  const state = table.dataset.turn;
  const result = q("[data-result]");
  return {
    mine,
    seats,
    turn: state === "mine" ? mine : state === "theirs" ? 1 - mine : state,
    piles: [...document.querySelectorAll(".pile-suit")].map((f) => { const c = q(".card.face", f); return c ? c.dataset.code : null; }),
    enabled: [...document.querySelectorAll("[data-action]")].filter(
      (b) => b.getAttribute("aria-disabled") === "false").map((b) => b.dataset.action),
    nextDeal: !q("[data-next-deal]").hidden && q("[data-next-deal]").getAttribute("aria-disabled") === "false",
    deal: q("[data-deal]").textContent,
    length: q("[data-match-length]").textContent,
    idle: document.body.dataset.idle === "true",
    paints: Number(table.dataset.paints || 0),
    friend: q("[data-friend-status]").textContent,
    result: result.hidden ? null : q("[data-result-points]").textContent,
    fair: q("[data-fair]").hidden ? null : q("[data-fair]").textContent,
    resultFair: q("[data-result-fair]").hidden ? null : q("[data-result-fair]").textContent,
    error: q("[data-error]").textContent,
    at: Object.fromEntries([...document.querySelectorAll("[data-action]")].flatMap((b) => {
      const box = b.getBoundingClientRect();
      const x = box.left + box.width / 2, y = box.top + box.height / 2;
      return b.contains(document.elementFromPoint(x, y)) ? [[b.dataset.action, [x, y]]] : [];
    })),
  };
}"""

SHARED = ("seats", "turn", "piles", "deal", "length", "result")  # and not "paints"
# What both pages must show alike (shared(), below) as text: a board's `key`.
SHARED_KEY = """(b) => JSON.stringify([
  Object.keys(b.seats).sort().map((s) => { const { name, flag, ...rest } = b.seats[s]; return [s, rest]; }),
  b.turn, b.piles, b.deal, b.length, b.result])"""
# The page's board with its key.
READ_KEYED = "() => { const b = (" + READ_BOARD + ")(); b.key = (" + SHARED_KEY + ")(b); return b; }"

# Resolves with the page's board (READ_KEYED) once it is settled, or null after `ms`:
# idle, painted more than `after` times, a dealt board, and on this seat's turn a move
# offered (no-peek: until the card its seat may see now is opened, its view stands still,
# with no move); a board whose key is `like`, if given, and not `unlike`. A MutationObserver
# on the two attributes wakes it: the test waits for the page's state, never for a time.
WAIT_SETTLED = """([after, like, unlike, ms]) => new Promise((resolve) => {
  const table = document.querySelector("[data-pishe-table]");
  const settled = () => {
    if (document.body.dataset.idle !== "true" || Number(table.dataset.paints || 0) <= after) return null;
    const board = (""" + READ_KEYED + """)();
    if (board.turn === "none" || (board.turn === board.mine && board.enabled.length === 0)) return null;
    if ((like !== null && board.key !== like) || (unlike !== null && board.key === unlike)) return null;
    return board;
  };
  const now = settled();
  if (now) return resolve(now);
  const observer = new MutationObserver(() => { const board = settled(); if (board) finish(board); });
  const timer = setTimeout(() => finish(null), ms);
  function finish(result) { observer.disconnect(); clearTimeout(timer); resolve(result); }
  observer.observe(document.body, { subtree: true, attributes: true, attributeFilter: ["data-paints", "data-idle"] });
})"""
# A click on what the page shows at (x, y), as a pointer there would make it, if that is
# the move button `action` (else {missed: true}, and no click); then WAIT_SETTLED.
CLICK_AND_WAIT = """([[x, y, action], wait]) => {
  const hit = document.elementFromPoint(x, y);
  const button = hit && hit.closest("[data-action]");
  if (!button || button.dataset.action !== action) return { missed: true };
  hit.click();
  return (""" + WAIT_SETTLED + """)(wait);
}"""
# How long the second page is waited for at once, before the test looks whether the first
# page's board has moved on meanwhile (it never has, so far: then it waits on, to SYNC_S).
SECOND_MS = 5000


# Resolves once nothing on the page moves: after the next frame (a paint's cards start
# travelling there: web/games/motion.js), when every animation then running that ends has
# finished (not the ones that run for ever: a waiting status's glow).
STILL = """() => new Promise((frame) => requestAnimationFrame(() => requestAnimationFrame(frame)))
  .then(() => Promise.all(document.getAnimations()
    .filter((a) => a.effect && a.effect.getComputedTiming().endTime !== Infinity)
    .map((a) => a.finished.catch(() => null))))
  .then(() => true)"""


def still(page: Page) -> None:
    """Wait until nothing moves on the page (for a screenshot): its state, not a time."""
    page.evaluate(STILL)


def paste_reply_code(page: Page) -> Locator:
    """The host's Paste reply code box, unfolded as a person would ("Their page shows a reply
    code?") while it is folded away; a later join finds it open already."""
    box = page.get_by_role("textbox", name="Paste reply code", exact=True)
    if not box.is_visible():
        page.get_by_text("Their page shows a reply code?", exact=True).click()
    expect(box).to_be_visible()
    return box


def shared(board: dict) -> dict:
    """What both pages must show alike (names and enabled buttons differ by seat)."""
    out = {k: board[k] for k in SHARED}
    out["seats"] = {s: {k: v for k, v in seat.items() if k not in ("name", "flag")}
                    for s, seat in board["seats"].items()}
    return out


# ---- cards named in a message ------------------------------------------------

SUIT_OF_SYMBOL = {"♣": "C", "♦": "D", "♥": "H", "♠": "S"}
SUIT_OF_WORD = {"clubs": "C", "diamonds": "D", "hearts": "H", "spades": "S"}
RANK_OF_WORD = {"ace": "A", "jack": "J", "queen": "Q", "king": "K"}
CODE = re.compile(r"(?:A|[2-9]|10|J|Q|K)[CDHS]")
LABEL = re.compile(r"(A|10|[2-9]|J|Q|K)([♣♦♥♠])")
NAME = re.compile(r"\b(ace|jack|queen|king|10|[2-9]) of (clubs|diamonds|hearts|spades)\b", re.I)


def named_cards(value) -> set[str]:
    """Every card a message names anywhere: as a code, a label or in words."""
    found: set[str] = set()
    if isinstance(value, dict):
        for v in value.values():
            found |= named_cards(v)
    elif isinstance(value, list):
        for v in value:
            found |= named_cards(v)
    elif isinstance(value, str):
        if CODE.fullmatch(value):
            found.add(value)
        found |= {rank + SUIT_OF_SYMBOL[suit] for rank, suit in LABEL.findall(value)}
        found |= {RANK_OF_WORD.get(rank.lower(), rank) + SUIT_OF_WORD[suit.lower()]
                  for rank, suit in NAME.findall(value)}
    return found


def test_named_cards_finds_codes_labels_and_names():
    message = {"a": "10H", "b": ["They turn a card: Q♠, to their pile"], "c": {"name": "ace of clubs"},
               "d": "da8a4f6e", "e": "Your 9♦ is not one rank above or below their 4♦."}
    assert named_cards(message) == {"10H", "QS", "AC", "9D", "4D"}


# ---- pishe.web's calls for the page, in this process --------------------------------


def test_a_guest_saves_only_when_asked():
    """The page's worker answers the host's messages and the guest's moves without
    saving (keep=False: saving is most of such a call), and saves once the view is
    painted (guest_saved); a move made so is counted, and the host takes it."""
    import pishe.web as web

    def call(name, *args):
        return json.loads(getattr(web, name)(*args))

    def deliver(queue):
        """Carry messages both ways until neither page has more to send (the guest's answers
        unsaved), asserting that no answer of the guest's page saves."""
        while queue:
            for message in call("host_receive", queue.pop(0))["send"]:
                answer = call("guest_receive", message["text"], False)
                assert answer["saved"] is None and answer["token"]
                queue += answer["send"]

    call("host_open", "one-deal")
    deliver(call("guest_open", None, None)["send"])     # hello, welcome, the no-peek deal's rounds
    while call("host_current")["view"]["turn"] == 0:
        host = call("host_current")["view"]
        action = "give" if "give" in host["legal"] else "keep" if "keep" in host["legal"] else "turn"
        queue = []
        for message in call("host_act", action)["send"]:
            answer = call("guest_receive", message["text"], False)
            assert answer["saved"] is None and answer["token"]
            queue += answer["send"]
        deliver(queue)
    saved = call("guest_saved")["saved"]
    assert saved and call("guest_saved")["saved"] == saved          # nothing changed
    legal = call("guest_saved")["view"]["legal"]
    first = call("guest_intent", legal[0], False)
    assert first["saved"] is None and first["send"]
    assert json.loads(first["send"][0])["message"]["type"] == "np-act"   # the move, with its keys
    assert first["ledger"] and first["token"]
    assert first["view"]["legal"] != legal          # made on its own engine at once (no-peek)
    assert call("guest_saved")["saved"] != saved                     # the move is counted
    for text in first["send"]:
        assert call("host_receive", text)["error"] is None


def test_with_an_outbox_messages_leave_as_they_are_made(monkeypatch):
    """The page's worker sets pishe.page.outbox: each call's messages go through it, in
    order, before the call's answer is built (which then sends nothing more), and a
    refused move sends nothing."""
    import pishe.page
    import pishe.web as web

    def call(name, *args):
        return json.loads(getattr(web, name)(*args))

    out: list = []
    monkeypatch.setattr(pishe.page, "outbox", lambda to, text: out.append((to, text)))
    call("host_open", "one-deal")
    assert call("guest_open", None, None)["send"] == []
    queue = [text for _, text in out]
    assert [json.loads(t)["type"] for t in queue] == ["hello"] and out == [(0, queue[0])]
    while queue:                       # hello, welcome, the no-peek deal's rounds
        out.clear()
        assert call("host_receive", queue.pop(0))["send"] == []
        assert {to for to, _ in out} <= {1}
        for _, text in list(out):
            out.clear()
            assert call("guest_receive", text, False)["send"] == []
            queue += [t for _, t in out]
    out.clear()
    view = call("host_current")["view"]
    refused = "turn" if "turn" not in view["legal"] else "keep"
    assert call("host_act", refused)["error"] and out == []
    turns = call("host_act", view["legal"][0])
    assert turns["send"] == [] and turns["error"] is None
    sent = [(to, json.loads(text)) for to, text in out]
    assert sent and all(to == 1 and m["type"] == "np" for to, m in sent)
    assert sent[0][1]["message"]["type"] == "np-act"       # the move with its keys, then keys that follow


# ---- the two pages ---------------------------------------------------------------


class Table:
    """Both pages of one friend's table, the actions clicked, and what the guest received."""

    def __init__(self, profiles: dict, site, console_errors):
        self.site, self.watch = site, console_errors
        self.pages: list[Page] = []
        self.host = self.page(profiles["host"])
        self.guest = self.page(profiles["guest"])
        self.errors = {"host": self.watch(self.host), "guest": self.watch(self.guest)}
        self.actions: list[tuple[int, int, str]] = []   # (deal, seat, action), in order
        self.boards: list[tuple[int, int, dict, dict]] = []  # (deal, actions so far, host board, guest board)
        self.received: list[str] = []                  # every message the guest page received
        self.sent: list[str] = []                      # every message the guest page sent
        self.both: list[list] = []                     # both, in order: [received or sent, text]

    def page(self, context) -> Page:
        """A new tab (its own sessionStorage) in one of the two profiles."""
        page = context.new_page()
        self.pages.append(page)
        return page

    def close(self):
        for page in self.pages:
            if not page.is_closed():
                page.close()

    # -- reading ---------------------------------------------------------------

    @staticmethod
    def board(page: Page, wait: list | None = None) -> dict | None:
        """The page's board (with its `key`); with `wait` (WAIT_SETTLED's arguments), once
        settled so (None if it is not within the time given)."""
        board = page.evaluate(READ_KEYED) if wait is None else page.evaluate(WAIT_SETTLED, wait)
        return Table.seated(board)

    @staticmethod
    def seated(board: dict | None) -> dict | None:
        """`board` with its seats by number."""
        if board is not None:
            board["seats"] = {int(seat): shown for seat, shown in board["seats"].items()}
        return board

    def collect_wire(self) -> None:
        """Move what the guest page's tap recorded into this test (before it navigates away)."""
        wire = self.guest.evaluate("window.__wire ? window.__wire : {received: [], sent: [], both: []}")
        self.received += wire["received"]
        self.sent += wire["sent"]
        self.both += wire["both"]
        self.guest.evaluate("window.__wire && (window.__wire.received = [], window.__wire.sent = [], "
                            "window.__wire.both = [])")

    # -- connecting --------------------------------------------------------------

    def open_host(self, length: str = "one-deal") -> None:
        # A lost or silent friend's seat is held 60 s before a computer plays it: longer here,
        # where a loaded machine can take that long to bring the friend's page back.
        self.host.goto(self.site.url + ("&" if "?" in self.site.url else "?") + "hold=600&silent=600")
        expect(self.host.locator("body")).to_have_attribute("data-ready", "true", timeout=BOOT_MS)
        self.host.get_by_role("radio", name={"one-deal": "One deal", "first-to-50": "First to 50",
                                             "first-to-100": "First to 100"}[length], exact=True).check()
        self.host.get_by_role("button", name="Invite a friend", exact=True).click()

    def invite_link(self) -> str:
        box = self.host.get_by_role("textbox", name="Invite link", exact=True)
        expect(box).not_to_have_value("", timeout=20_000)
        expect(self.host.locator("[data-friend-status]")).to_have_text("Waiting for your friend…")
        return box.input_value()

    def join(self, link: str, shot: str | None = None) -> None:
        """The guest's page opens the link; its reply code goes back to the host."""
        self.guest.goto(link)
        reply_box = self.guest.get_by_role("textbox", name="Reply code", exact=True)
        expect(reply_box).not_to_have_value("", timeout=20_000)
        expect(reply_box).to_have_attribute("readonly", "")
        reply = reply_box.input_value()
        assert len(reply) <= 160, reply
        if shot:
            still(self.guest)
            self.guest.screenshot(path=str(RESULTS / shot))
        paste_reply_code(self.host).fill(reply)
        self.host.get_by_role("button", name="Connect", exact=True).click()
        # The channel may open before the guest's Python is up, and the status line's words come from it.
        expect(self.guest.locator("body")).to_have_attribute("data-ready", "true", timeout=BOOT_MS)
        for page in (self.host, self.guest):
            expect(page.locator("[data-friend-status]")).to_have_text("Connected", timeout=20_000)

    # -- playing -------------------------------------------------------------------

    def sync(self, before: dict | None = None, painted: tuple[int, int] = (-1, -1),
             click: tuple[int, list] | None = None) -> tuple[dict, dict]:
        """Wait until both pages are settled (WAIT_SETTLED: idle, the mover offered its moves)
        and show the same dealt board: another board than `before`, if given, and painted
        since the paint counts `painted` (host, guest). (A move can leave the board as it
        was: a one-card stock turned over and its card turned back onto the pile; both pages
        repaint all the same.) `click` (seat, [x, y, action]): first click `action` where
        seat's page shows it, in the same round trip as the wait for that page.

        The clicking page (else the host's) is waited for first, then the other one until it
        shows the same board: each wait is the page's own, on its state."""
        deadline = time.monotonic() + SYNC_S
        first = click[0] if click else 0
        pages = (self.host, self.guest)
        unlike = before["key"] if before is not None else None
        marks = list(painted)

        def left(cap: float = SYNC_S * 1000) -> float:
            return min(cap, max(0.0, deadline - time.monotonic()) * 1000)

        while True:
            wait = [marks[first], None, unlike, left()]
            if click:
                one = pages[first].evaluate(CLICK_AND_WAIT, [click[1], wait])
                assert one is None or not one.get("missed"), \
                    f"no {click[1][2]} button at {click[1][:2]} on seat {first}'s page"
                click = None
            else:
                one = pages[first].evaluate(WAIT_SETTLED, wait)
            if one is None:
                raise AssertionError(f"seat {first}'s page never settled: {self.board(pages[first])}")
            one = self.seated(one)
            while True:
                other = self.board(pages[1 - first], [marks[1 - first], one["key"], unlike, left(SECOND_MS)])
                if other is not None:
                    return (one, other) if first == 0 else (other, one)
                now = self.board(pages[first])
                if now["key"] != one["key"] or time.monotonic() > deadline:
                    break
            if time.monotonic() > deadline:
                raise AssertionError(f"the pages never agreed:\nseat {first}  {now}\nother   "
                                     f"{self.board(pages[1 - first])}")
            marks[first] = one["paints"]        # its board moved on: wait for where it settles

    def act(self, seat: int, h: dict, g: dict) -> tuple[dict, dict]:
        """Click on `seat`'s page what a player of this test does (see `choose`), given both
        pages' boards as the last sync left them (idle: nothing changes on either page until
        this click)."""
        board = h if seat == 0 else g
        deal = int(h["deal"])
        action = self.choose(seat, board["enabled"], sum(1 for a in self.actions if a[0] == deal))
        assert action in board["enabled"], (h, g)
        # The click lands on whatever the page shows at the button's centre, as a person's
        # would: READ_BOARD lists a button under `at` only when it is hit there. The click is
        # dispatched in the page (a real input event costs three round trips to the browser
        # and a frame's wait, most of each move's time, and the page handles both alike;
        # other tests click with real input events).
        assert action in board["at"], (action, board)
        self.actions.append((deal, seat, action))
        h, g = self.sync(painted=(h["paints"], g["paints"]), click=(seat, [*board["at"][action], action]))
        self.boards.append((deal, sum(1 for a in self.actions if a[0] == deal), h, g))
        return h, g

    @staticmethod
    def choose(seat: int, enabled: list[str], done: int) -> str:
        """What each seat plays: the guest gives whenever it may; the host gives while the
        deal is young (the first HOST_GIVES actions of the deal) and then keeps the card it turned. Every
        move is still legal and both sides give, but the deal ends in about two thirds of the
        moves of one where both always give (they pass the same cards back and forth)."""
        gives = seat == 1 or done < HOST_GIVES
        if gives and "give" in enabled:
            return "give"
        return "keep" if "keep" in enabled else "turn" if "turn" in enabled else "give"

    def play(self, until=lambda h, g: False, shots: str | None = None) -> tuple[dict, dict]:
        """Play on until the deal ends (or `until` says stop); returns both boards."""
        h, g = self.sync()
        shot_taken = False
        while h["result"] is None and not until(h, g):
            if shots and not shot_taken and len(self.actions) >= 14 and (
                    h["turn"] == 1 and "keep" in g["enabled"] or len(self.actions) >= 60):
                self.screenshots(shots)
                shot_taken = True
            if h["turn"] == 0:
                assert h["enabled"] and g["enabled"] == [], (h, g)
                h, g = self.act(0, h, g)
            else:
                assert h["turn"] == 1 and g["enabled"] and h["enabled"] == [], (h, g)
                h, g = self.act(1, h, g)
        return h, g

    def screenshots(self, name: str) -> None:
        RESULTS.mkdir(exist_ok=True)
        for who, page in (("host", self.host), ("guest", self.guest)):
            page.evaluate("window.scrollTo(0, 0)")
            still(page)  # the newest card's arrival
            page.screenshot(path=str(RESULTS / f"friend-{who}-{name.split('-', 1)[1]}.png"))

    # -- checking --------------------------------------------------------------------

    def replay(self, length: str) -> dict:
        """Replay the match in this process on the decks rebuilt from every page's no-peek
        messages (tests/nopeek_wire.py: every shuffle, lock and key checked against its
        page's revealed secret) and the clicked actions.

        Returns {"views": {(deal, actions so far): [view of seat 0, view of seat 1]}}.
        """
        tries = np_messages(self.both)
        match_id = match_id_of(self.received)
        views_at = {}
        match = None
        for deal in sorted({a[0] for a in self.actions}):
            count = max(t for d, t in tries if d == deal)        # its try that was played
            messages = tries[(deal, count)]
            deck = rebuilt_deck(GAME.id, match_id, deal, count, messages)
            # The guest's page took part: its shuffle and lock are in the deck, as it sent them.
            mine = {m["type"] for m in messages if m["seat"] == 1}
            assert {"np-commit", "np-shuffle", "np-lock", "np-reveal"} <= mine, mine
            if match is None:
                match = Match(GAME, length, deck=deck)
            else:
                match.next_deal(deck=deck)

            def snapshot(count):
                views_at[(deal, count)] = [GAME.view(match, s).to_json() for s in (0, 1)]

            snapshot(0)
            # The deal's record of moves, as every page had them on the wire (np-act, in order).
            recorded = [[m["seat"], m["action"]] for m in messages if m["type"] == "np-act"]
            clicked = [[seat, action] for d, seat, action in self.actions if d == deal]
            if clicked != recorded:
                first = next((i for i, (a, b) in enumerate(zip(clicked, recorded)) if a != b),
                             min(len(clicked), len(recorded)))
                raise AssertionError(f"deal {deal}: the moves clicked and the deal's record differ from move "
                                     f"{first}:\nclicked {clicked[first:first + 6]}\nrecord  "
                                     f"{recorded[first:first + 6]}")
            for n, (seat, action) in enumerate(clicked, 1):
                match.apply(GAME.parse_action(action), seat)
                snapshot(n)
            assert match.deal.over
        return {"views": views_at}

    def check_secrets(self) -> int:
        """No message the guest received names a card (but the moves' own, public as played)."""
        return check_carried(self.received)

    def check_boards(self, replayed: dict) -> None:
        """Every board either page showed was its own seat's view of the true deal."""
        for deal, count, host_board, guest_board in self.boards:
            views = replayed["views"][(deal, count)]
            for board, seat in ((host_board, 0), (guest_board, 1)):
                view = views[seat]
                assert board["mine"] == seat
                expected_turn = "over" if view["deal_result"] else view["turn"]
                assert board["turn"] == expected_turn
                assert sorted(board["enabled"]) == sorted(view["legal"])
                assert board["piles"] == [p["top"]["code"] if p["top"] else None for p in view["suit_piles"]]
                for s in (0, 1):
                    shown = board["seats"][s]
                    assert shown["stock"] == str(view["stocks"][s]["count"])
                    assert shown["discard"] == str(view["discards"][s]["count"])
                    top = view["discards"][s]["top"]
                    assert shown["top"] == (top["code"] if top else None)
                    turned = view["turned"] if view["turn"] == s else None
                    assert shown["turned"] == (turned["code"] if turned else None)
                    assert shown["score"] == str(view["match"]["scores"][s])


def answering(answer):
    """A route handler that answers every request with the JSON `answer`."""
    return lambda route: route.fulfill(json=answer)


@contextlib.contextmanager
def persistent_profiles(browser_type, launch_args: dict, tmp_path_factory, names, answers: dict, site, **options):
    """Browsers by name, each a persistent profile (it keeps the 9.6 MB wasm in its disk
    cache; a plain context fetches and compiles it again on every load) of a returning
    visitor of `site` (tests/returning.py), whose requests for each glob of `answers` get
    that JSON, with the wire tap. No service worker: Playwright's routes must see the
    pages' own requests."""
    launched = {}
    try:
        for name in names:
            context = browser_type.launch_persistent_context(
                tmp_path_factory.mktemp("profile"), **launch_args, service_workers="block", **options)
            welcome_back_profile(context, site)
            for glob, answer in answers.items():
                context.route(glob, answering(answer))
            context.add_init_script(WIRE_TAP)
            launched[name] = context
        yield launched
    finally:
        for context in launched.values():
            context.close()


@pytest.fixture(scope="module")
def profiles(browser_type, browser_type_launch_args, tmp_path_factory, module_site):
    """The host's and the guest's browsers, with no ICE server."""
    with persistent_profiles(browser_type, browser_type_launch_args, tmp_path_factory, ("host", "guest"),
                             {"**/ice-servers.json": {"iceServers": []}}, module_site,
                             viewport={"width": 1280, "height": 860}) as launched:
        yield launched


@pytest.fixture
def table(profiles, module_site, console_errors):
    t = Table(profiles, module_site, console_errors)
    yield t
    t.close()


def no_errors(table: Table) -> None:
    for who, errors in table.errors.items():
        assert [e for e in errors if "Service Worker" not in e] == [], (who, errors)


# ---- tests -----------------------------------------------------------------------


def test_a_friends_match_through_every_way_a_page_leaves_mid_deal_then_play_again(table: Table):
    """A one-deal match played to its end through four ways a page leaves mid-deal, one
    after the other (one table connected for all, each scenario as it would be alone), then
    a new match with the same friend; only one try of the deal is played whole.

    The guest's tab reloads: the address keeps the used invite link; the tab does not
    answer it again (the host's side of it is gone) but shows the table as it was, paused,
    and takes its seat back from the host's next link, and plays on.

    The guest's tab is closed (its sessionStorage with it, and its secret of the deal): a
    new tab opens the new invite and gets the guest seat; the deal was dealt no-peek, so
    without that secret nobody can open its cards: the host's page says the deal was aborted
    by its friend, and deal 1 is dealt again with the new tab. On that try:

    The host's tab reloads: its table comes back as it was, the friend's page says the
    connection is lost, and a new invite link lets both play on.

    The guest's page goes away: the host plays on, invites again, and the guest's tab opens
    the new link: same seat (resumed with its token and its kept secret), the deal goes on,
    and both pages verify the whole deal, as this test does on the wire.

    The match is over on both pages, with the deal's check code. The host chose another
    length mid-match: Play again starts a match of it with the same friend in the same seat,
    on the same channel. Then leaving the table forgets it: a reload opens the computer's
    table. (The guest asking for the next deal of a longer match: test_protocol.py.)"""
    RESULTS.mkdir(exist_ok=True)
    table.open_host("one-deal")
    link = table.invite_link()
    assert len(link) <= 200 and "#join=" in link, link
    # The QR code of the link: an SVG drawn from Python's matrix.
    qr = table.host.get_by_role("img", name="QR code of the invite link")
    expect(qr).to_be_visible(timeout=20_000)
    assert table.host.evaluate("document.querySelector('[data-qr] svg path').getAttribute('d').length") > 100
    still(table.host)
    table.host.screenshot(path=str(RESULTS / "friend-host-invite.png"))

    table.join(link, shot="friend-guest-reply.png")
    # Each side says its path, with a live round trip (tests/test_friend_turn.py: through TURN).
    direct = re.compile(r"Direct connection · \d+ ms round trip")
    expect(table.host.locator("[data-seat-invite-path]")).to_have_text(direct, timeout=10_000)
    expect(table.guest.locator("[data-friend-path]")).to_have_text(direct, timeout=10_000)
    h, g = table.sync()
    # Both pages show the match length the host chose, and the guest sits in seat 1.
    assert h["length"] == g["length"] == "One deal"
    assert h["mine"] == 0 and g["mine"] == 1
    assert h["seats"][0]["name"] == "You" and h["seats"][1]["name"] == "Friend"
    assert g["seats"][1]["name"] == "You" and g["seats"][0]["name"] == "Friend"
    assert h["turn"] == 0 and h["enabled"] == ["turn"] and g["enabled"] == []
    h, g = table.play(until=lambda h, g: len(table.actions) >= 8 and h["turn"] == 0)
    assert h["result"] is None, "the deal ended too soon for this test"
    table.collect_wire()

    # -- the guest's tab reloads
    table.guest.reload()
    # Worded by Python (pishe/table/words.py): shown once the reloaded tab's Python is ready.
    expect(table.guest.locator("[data-friend-status]")).to_have_text(
        "This invite link was used already — ask your friend for a new one", timeout=BOOT_MS)
    expect(table.guest.get_by_role("textbox", name="Reply code", exact=True)).to_be_hidden()
    table.guest.wait_for_function(
        "Number(document.querySelector('[data-pishe-table]').dataset.paints || 0) > 1 && "
        "document.body.dataset.idle === 'true'", timeout=BOOT_MS)
    paused = table.board(table.guest)
    assert shared(paused) == shared(g) and paused["enabled"] == []
    expect(table.guest.locator(PASHA + " [data-status]")).to_have_text("Paused until you are connected again.")
    expect(table.host.locator("[data-friend-status]")).to_have_text("Friend is reconnecting…", timeout=40_000)

    table.host.get_by_role("button", name="Invite again", exact=True).click()
    table.join(table.invite_link())           # the same tab: only the address's fragment changes
    reloaded_at = len(table.actions)
    h, g = table.play(until=lambda h, g: len(table.actions) >= reloaded_at + 6 and h["turn"] == 1)
    assert h["result"] is None, "the deal ended too soon for this test"
    table.collect_wire()

    # -- the guest's tab is closed
    context = table.guest.context
    table.guest.close()
    expect(table.host.locator("[data-friend-status]")).to_have_text("Friend is reconnecting…", timeout=40_000)
    host_before = table.board(table.host)
    table.host.get_by_role("button", name="Invite again", exact=True).click()
    link = table.invite_link()
    table.guest = table.page(context)
    table.errors["guest (new tab)"] = table.watch(table.guest)
    table.join(link)
    expect(table.host.locator("[data-fair]")).to_have_text(
        "Deal 1 was stopped: Friend left before it was over (stopped and dealt again "
        "at this table: 1).", timeout=20_000)
    table.actions = [a for a in table.actions if a[0] != 1]     # the aborted try's: its deck is gone
    table.boards = [b for b in table.boards if b[0] != 1]
    h, g = table.sync()
    assert shared(h) != shared(host_before) and h["deal"] == g["deal"] == "1" and g["mine"] == 1
    assert h["turn"] == 0 and [h["seats"][s]["discard"] for s in (0, 1)] == ["0", "0"]  # dealt afresh
    h, g = table.play(until=lambda h, g: len(table.actions) >= 10)
    assert h["result"] is None, "the deal ended too soon for this test"

    # -- the host's tab reloads
    table.host.reload()
    expect(table.host.locator("[data-friend-status]")).to_have_text("Connection lost — invite again",
                                                                     timeout=BOOT_MS)
    expect(table.guest.locator("[data-friend-status]")).to_have_text(
        "Connection lost — ask for a new invite link", timeout=40_000)
    back = table.board(table.host)
    assert shared(back) == shared(h) and back["length"] == h["length"]
    table.host.get_by_role("button", name="Invite again", exact=True).click()
    table.join(table.invite_link())

    # -- the guest's page goes away
    # Play until the host is to move, some way into the deal.
    h, g = table.play(until=lambda h, g: len(table.actions) >= 16 and h["turn"] == 0
                      and int(h["seats"][0]["stock"]) >= 10)
    assert h["result"] is None, "the deal ended too soon for this test"
    token = table.guest.evaluate("sessionStorage.getItem('pishe.friend.token')")
    assert token and re.fullmatch(r"[0-9a-f]{32}", token)
    table.collect_wire()

    # The guest's page goes away; the host sees it and plays its turn on until a card it
    # turns needs its friend's key.
    table.guest.goto("about:blank")
    # Within the hold the host reads that its friend is reconnecting (Invite again is there too).
    expect(table.host.locator("[data-friend-status]")).to_have_text("Friend is reconnecting…", timeout=40_000)
    expect(table.host.locator("[data-seat-invite-state]")).to_have_text("reconnecting…")
    expect(table.host.locator("[data-seat-invite-path]")).to_be_hidden()
    away = 0
    while True:
        wait_idle(table.host)
        h = table.board(table.host)
        if h["turn"] != 0 or h["result"] is not None:
            break
        if not h["enabled"]:
            # The card it turned opens with its friend's key: no page knows it alone (no-peek).
            expect(table.host.locator(PASHA + " [data-status]")).to_have_text("Waiting for Friend…")
            break
        action = table.choose(0, h["enabled"], len(table.actions))
        press(table.host, table.host.get_by_role("button", name=BUTTON[action], exact=True).click)
        table.actions.append((1, 0, action))
        away += 1
    assert away >= 1
    assert h["result"] is None
    host_before = table.board(table.host)

    # Invite again: a new link; the same tab opens it and takes its seat back.
    table.host.get_by_role("button", name="Invite again", exact=True).click()
    table.join(table.invite_link())
    h, g = table.sync()
    if host_before["turn"] == 0 and not host_before["enabled"]:
        # The card the host turned last opened with its friend's key, once back: one card off
        # its stock since the board it showed while it waited (its moves while away are there).
        assert int(h["seats"][0]["stock"]) == int(host_before["seats"][0]["stock"]) - 1
    else:
        assert shared(h) == shared(host_before)   # the host's moves while away are there
    assert g["mine"] == 1 and g["deal"] == "1"
    welcomes = [json.loads(t) for t in table.guest.evaluate("window.__wire.received")
                if json.loads(t)["type"] == "welcome"]
    assert welcomes and welcomes[0]["token"] == token  # resumed with its token, not joined afresh
    hellos = [json.loads(t) for t in table.guest.evaluate("window.__wire.sent")]
    assert hellos[0]["type"] == "hello" and hellos[0]["token"] == token
    # The host sent the deal's log; the page rebuilt its part from its kept secret (no new commitment).
    logs = [m["log"] for m in map(json.loads, table.guest.evaluate("window.__wire.received")) if m["type"] == "np-deal"]
    assert logs and any(m["seat"] == 1 and m["type"] == "np-commit" for m in logs[0])
    assert not any(m["type"] == "np" and m["message"]["type"] == "np-commit" for m in hellos)

    # A length chosen during the match applies from the next one (Play again below), as the host's page says.
    note = table.host.get_by_role("status").filter(has_text="Changed settings apply from the next match.")
    table.host.get_by_role("radio", name="First to 50", exact=True).check()
    expect(note).to_be_visible()

    # Deal 1 to its end.
    h, g = table.play(shots="friend-mid-game")
    assert len(table.actions) > 20
    # Same result on both pages; the guest checked the deal. The guest page kept every
    # step it had seen (sessionStorage), and was sent every move made while it was away
    # (the steps of those naming cards back in a stock, if the host's stock was turned over
    # meanwhile, as null), so it replays and checks the whole deal; the host's page counts
    # the try its friend's closed tab stopped.
    assert h["result"] == g["result"]
    expect(table.guest.locator("[data-result-fair]")).to_have_text("Deal 1 verified", timeout=20_000)
    expect(table.guest.locator("[data-fair]")).to_have_text("Deal 1 verified")
    expect(table.host.locator("[data-fair]")).to_have_text(
        "Deal 1 verified (stopped and dealt again at this table: 1)")
    table.collect_wire()
    replayed = table.replay("one-deal")
    winners = [s for s in (0, 1) if h["seats"][s]["flag"] == "Wins the deal"]
    assert winners == [s for s in (0, 1) if g["seats"][s]["flag"] == "Wins the deal"] and len(winners) == 1
    winner = winners[0]
    host_title = table.host.locator(PASHA + " [data-result-title]").text_content()
    guest_title = table.guest.locator(PASHA + " [data-result-title]").text_content()
    assert (host_title, guest_title) == (("You win the deal!", "Friend wins the deal") if winner == 0
                                         else ("Friend wins the deal", "You win the deal!"))
    # A one-deal match is over at its deal's end, and both pages' result panels say so.
    for page in (table.host, table.guest):
        expect(page.locator(PASHA + " [data-result-match]")).to_have_text(re.compile(r"^Match over\. "))
    # The deal's check code, four pictures, the same on both pages: friends compare it on a call.
    code = re.compile(r"^Deal 1 check code: \S+ \S+ \S+ \S+ \(the same on every page at this table")
    for page in (table.host, table.guest):
        expect(page.locator("[data-check-code]")).to_have_text(code)
    codes = {page.locator("[data-check-code]").text_content() for page in (table.host, table.guest)}
    assert len(codes) == 1, codes
    # Its four pictures stay on one line, larger than the words, even on a narrow phone.
    table.guest.set_viewport_size({"width": 320, "height": 640})
    symbols = table.guest.locator("[data-check-symbols]").bounding_box()
    words = table.guest.locator("[data-check-before]").bounding_box()
    assert symbols and words and symbols["height"] < symbols["width"] / 3 and symbols["height"] > words["height"]
    table.guest.set_viewport_size({"width": 1280, "height": 860})
    table.screenshots("friend-deal-end")

    checked = table.check_secrets()
    # A message for every move of the host's, at least, but those it made while the guest was away.
    assert checked >= sum(1 for a in table.actions if a[1] == 0) - away
    table.check_boards(replayed)

    # -- Play again: a new match with the same friend in the same seat, on the same channel
    play_again = table.host.get_by_role("button", name="Play again", exact=True)
    expect(play_again).to_be_visible()
    # Beside it the host's New match (the friends' table closes); the friend's panel has neither.
    expect(table.host.get_by_role("button", name="New match", exact=True)).to_be_visible()
    for name in ("Play again", "New match"):
        expect(table.guest.get_by_role("button", name=name, exact=True)).to_be_hidden()
    expect(table.guest.locator(PASHA + " [data-result-wait-line]")).to_have_text(
        "Waiting for the host to start another match.")
    table.host.screenshot(path=str(RESULTS / "friend-host-match-over.png"))
    welcomes = len([m for m in table.guest.evaluate("window.__wire.received") if '"welcome"' in m])
    play_again.click()
    expect(play_again).to_be_hidden(timeout=10_000)
    h2, g2 = table.sync()
    assert h2["deal"] == g2["deal"] == "1" and h2["result"] is None
    assert [h2["seats"][s]["score"] for s in (0, 1)] == ["0", "0"] and g2["mine"] == 1
    for page in (table.host, table.guest):
        expect(page.locator('[data-match-line="pishe-pasha"] [data-match-length]')).to_have_text("First to 50")
    expect(note).to_be_hidden()
    received = table.guest.evaluate("window.__wire.received")
    assert len([m for m in received if '"welcome"' in m]) == welcomes + 1
    expect(table.host.get_by_role("textbox", name="Invite link", exact=True)).to_be_hidden()
    expect(table.host.locator("[data-friend-status]")).to_have_text("Connected")

    # The host leaves the friends' table (Leave the table, as the result panel's New match
    # does at a match end) for a new match against the computer; leaving forgets the friends'
    # table: a reload then opens the computer's table.
    table.host.get_by_role("button", name="Leave the table", exact=True).click()
    expect(table.host.locator("body")).to_have_attribute("data-table", "computer")
    expect(table.host.locator(PASHA).get_by_role("button", name="New match", exact=True)).to_be_hidden()
    expect(table.host.locator(PASHA + " [data-result-wait]")).to_be_hidden()
    table.host.reload()
    expect(table.host.locator("body")).to_have_attribute("data-ready", "true", timeout=BOOT_MS)
    expect(table.host.locator("body")).to_have_attribute("data-table", "computer")
    no_errors(table)


EVIL = '<img src="x" onerror="window.__pwned = 1">'


def test_bad_input_from_either_page_is_refused_and_shown_as_text(table: Table):
    """A page that sends junk gets errors back and changes nothing; nothing the peer
    sends is ever inserted as HTML; a damaged reply code is refused in plain words."""
    table.open_host("one-deal")
    link = table.invite_link()
    paste_reply_code(table.host).fill(EVIL)
    table.host.get_by_role("button", name="Connect", exact=True).click()
    expect(table.host.locator("[data-connect-error]")).to_have_text("This is not a connection code from this game.")
    table.join(link)
    h, g = table.sync()

    # The guest's page sends junk straight down its data channel, as a tampered page could.
    send = "(messages) => messages.forEach((m) => window.__wire.send(m))"
    v = VERSION
    junk = [EVIL, "{}", "x" * 5000,
            json.dumps({"v": v, "game": "pishe-pasha", "type": "np", "seq": 0, "deal": 1, "message": {}}),
            json.dumps({"v": v - 1, "game": "pishe-pasha", "type": "act", "seq": 1, "action": "turn"}),
            json.dumps({"v": v, "game": "pisti", "type": "take-over", "seq": 1}),
            json.dumps({"v": v, "game": "pishe-pasha", "type": "fly", "seq": 1})]
    table.guest.evaluate(send, junk)
    table.guest.wait_for_function(
        "(n) => window.__wire.received.filter((m) => JSON.parse(m).type === 'error').length >= n", arg=len(junk))
    errors = [json.loads(m) for m in table.guest.evaluate("window.__wire.received") if json.loads(m)["type"] == "error"]
    assert [e["code"] for e in errors] == ["malformed-message", "malformed-message", "message-too-long",
                                           "replayed-message", "unsupported-version", "wrong-game",
                                           "unknown-message-type"]
    # A move of the removed deal with the right number: a no-peek table takes moves with their
    # keys only (np-act); it is refused with a sentence and changes nothing.
    table.guest.evaluate(send, [json.dumps({"v": v, "game": "pishe-pasha", "type": "act",
                                            "seq": errors[-1]["next_seq"], "action": "turn"})])
    table.guest.wait_for_function(
        "(n) => window.__wire.received.filter((m) => JSON.parse(m).type === 'error').length > n", arg=len(junk))
    refused = json.loads(table.guest.evaluate("window.__wire.received.at(-1)"))
    assert refused["code"] == "removed-deal" and refused["next_seq"] == errors[-1]["next_seq"]
    # The guest's page words a refusal by its code, never in the host's text.
    expect(table.guest.locator(PASHA + " [data-error]")).to_have_text(
        "The host's page refused a message of the old way to deal: this page deals no-peek only.")
    h2, g2 = table.sync()
    assert shared(h2) == shared(h) and h2["error"] == ""   # nothing changed on the host's table

    # The host's page sends the guest an error whose reason is HTML, then junk.
    table.host.evaluate(send, [json.dumps({"v": v, "game": "pishe-pasha", "type": "error", "reason": EVIL,
                                           "code": "x", "ref": None, "next_seq": None})])
    # The guest's page words the refusal itself: the host's text is never shown.
    expect(table.guest.locator(PASHA + " [data-error]")).to_have_text("The host refused a message of yours.")
    table.host.evaluate(send, ["<b>not json</b>"])
    expect(table.guest.locator(PASHA + " [data-error]")).to_contain_text(
        "Your friend's page sent something this page cannot accept")
    assert table.guest.evaluate("document.querySelectorAll('[data-error] *, .controls img').length") == 0
    assert table.guest.evaluate("window.__pwned") is None and table.host.evaluate("window.__pwned") is None

    # Play goes on, by keyboard on the host's page: T turns a card.
    h, g = table.sync()
    painted = (h["paints"], g["paints"])
    table.host.locator("body").press("t")
    table.actions.append((1, 0, "turn"))
    h, g = table.sync(painted=painted)
    assert g["error"] == ""

    # The host leaves: its page is the computer's table again; the guest is told.
    table.host.get_by_role("button", name="Leave the table", exact=True).click()
    expect(table.host.locator("[data-seat-name]")).to_have_text(["Computer", "You"])
    expect(table.host.locator(PASHA + " [data-status]")).to_have_text("Your turn.")
    expect(table.host.get_by_role("button", name="New match", exact=True)).to_be_visible()
    expect(table.guest.locator("[data-friend-status]")).to_have_text(
        "Connection lost — ask for a new invite link", timeout=40_000)
    for name in BUTTON.values():
        expect(table.guest.get_by_role("button", name=name, exact=True)).to_have_attribute("aria-disabled", "true")
    no_errors(table)
