"""Pişti with three friends, in the browser: the host's page and its friends' pages join by
their links alone through a real Nostr relay on 127.0.0.1. Two friends of three come; a
computer plays the empty seat and, with no WebRTC path between any two pages (an ICE list
that cannot work), the three pages play a whole deck through that relay by clicking cards;
the relay takes events of 4 KiB at most, and the pages are told so. The deck is dealt
no-peek (docs/PROTOCOL.md): no data-channel message a guest receives names a card not yet
played, every page verifies the deck, and the deck this test rebuilds from every page's
messages ends with the points the pages count; the third friend, come mid-deck, plays from
the next one. Then a guest's page goes away mid-deck: after the hold (?hold=SECONDS)
its keys are gone, so the deck is aborted by it and dealt again with a computer in its
seat; everyone sees it away, and the same tab, opening the same link again (its page
knocks through the relay; nothing is pasted), has its seat back from the next deck.
Each page plays its own seat by clicking its cards (AUTOPLAY, in the page): the
test waits on the host's view, instead of asking all four pages every few
milliseconds whose turn it is.
Pishe Pasha's friend joins by the link alone as well.
"""

from __future__ import annotations


import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from pishe.table.game import get_game
from nopeek_wire import check_carried, match_id_of, np_messages, played, rebuilt_deck
from machinery import signaling
from test_friend import persistent_profiles
from test_friend_connect import relay_stats

PISTI = get_game("pisti")
TABLE = '[data-game="pisti"]'
BOOT_MS = 120_000
SEAT_NAMES = {1: "Right", 2: "Partner", 3: "Left"}   # from the host's side

STATE = """() => {
  const s = window.pisheFriend && window.pisheFriend.state;
  const v = s && s.view;
  return v ? {turn: v.turn, seat: v.seat, legal: v.legal || [], over: Boolean(v.deck_result),
              idle: document.body.dataset.idle === "true"} : null;
}"""


class Pages:
    """The host's page and its friends' pages, each in its own browser profile."""

    def __init__(self, profiles, site, console_errors):
        self.profiles, self.site = profiles, site
        self.opened, self.errors = [], {}
        self.watch = console_errors

    def page(self, name: str):
        page = self.profiles[name].new_page()
        self.opened.append(page)
        self.errors[name] = self.watch(page)
        return page

    def close(self):
        for page in self.opened:
            page.close()


@pytest.fixture(scope="module")
def profiles(browser_type, browser_type_launch_args, tmp_path_factory, nostr_relay, module_site):
    """A browser for the host and for each friend, signaling through the local relay."""
    with persistent_profiles(browser_type, browser_type_launch_args, tmp_path_factory,
                             ("host", "guest 1", "guest 2", "guest 3"),
                             {"**/signaling.json": signaling([nostr_relay])}, module_site) as launched:
        yield launched


@pytest.fixture
def pages(profiles, module_site, console_errors):
    p = Pages(profiles, module_site, console_errors)
    yield p
    p.close()


# Chromium on Linux has no Web Share API: the page is given one that records what it shares.
SHARE_STUB = "navigator.share = async (data) => { window.__shared = data; };"


def open_table(pages: Pages, friends=(1, 2, 3), query: str = "", share: bool = False):
    """The host opens a Pişti table with friends in ``friends`` (``query``: more of the
    page's address; ``share``: with a Web Share API); returns its page and the links by seat."""
    host = pages.page("host")
    if share:
        host.add_init_script(SHARE_STUB)
    host.goto(pages.site.url + "?delay=30&hold=2" + query)
    expect(host.locator("body")).to_have_attribute("data-ready", "true", timeout=BOOT_MS)
    host.get_by_role("radio", name="Pişti", exact=True).check()
    for seat, name in SEAT_NAMES.items():
        box = host.get_by_role("checkbox", name=name, exact=True)
        box.set_checked(seat in friends)
    host.get_by_role("button", name="Invite a friend", exact=True).click()
    links = {}
    for seat in friends:
        name = f"Invite link for {SEAT_NAMES[seat]}" if len(friends) > 1 else "Invite link"
        box = host.get_by_role("textbox", name=name, exact=True)
        expect(box).not_to_have_value("", timeout=20_000)
        links[seat] = box.input_value()
        assert len(links[seat]) <= 200, links[seat]
    return host, links


# The cards played so far in the deck, as a view counts them (52 less the 4 of the
# opening, the deck left and the hands).
PLAYED = "((v) => 48 - v.deck_count - v.hand_counts.reduce((a, b) => a + b, 0))"
# Installed in a page: whenever the page is idle and its own view says it is its seat's
# turn, it clicks the first legal card of its hand where the card shows (what a pointer at
# the card's centre would hit), until `limit` cards of the deck have been played, as its
# view counts them. Every page plays for itself: the test waits on the host's view alone
# instead of asking every page in turn whether it is to play.
AUTOPLAY = """(limit) => {
  const auto = window.__autoplay || (window.__autoplay = {clicks: 0, last: null, limit});
  auto.limit = limit;
  if (auto.running) return;
  auto.running = true;
  const tick = () => {
    const s = window.pisheFriend && window.pisheFriend.state;
    const v = s && s.view;
    if (v && v.legal && v.legal.length && v.turn === v.seat && v !== auto.last &&
        document.body.dataset.idle === "true" && PLAYED(v) < auto.limit) {
      const card = document.querySelector(`[data-game="pisti"] [data-action="${v.legal[0]}"]`);
      if (card && card.getAttribute("aria-disabled") !== "true") {
        card.scrollIntoView({ block: "nearest" });  // as a person scrolls to their hand
        const box = card.getBoundingClientRect();
        const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        if (hit && card.contains(hit)) {
          auto.last = v;
          auto.clicks += 1;
          hit.click();
        }
      }
    }
    setTimeout(tick, 10);
  };
  tick();
}""".replace("PLAYED", PLAYED)
# Whether the host's page is idle with its view `over` the deck, or past `played` cards.
HOST_DONE = ("([played]) => { const s = window.pisheFriend && window.pisheFriend.state; const v = s && s.view;"
             " return Boolean(v && document.body.dataset.idle === 'true' && (v.deck_result || "
             + PLAYED + "(v) >= played)); }")


def play_until(host, pages: list, played: int = 99, timeout_ms: int = 120_000) -> int:
    """Every page in ``pages`` plays its own seat (AUTOPLAY) until ``played`` cards of the
    deck are played, or the deck is over, as the host's page shows it; returns the cards played."""
    for page in pages:
        page.evaluate(AUTOPLAY, played)
    host.wait_for_function(HOST_DONE, arg=[played], timeout=timeout_ms, polling=50)
    return host.evaluate("(played) => (" + PLAYED + ")(window.pisheFriend.state.view)", None)


def check_deck(guest, game=PISTI) -> None:
    """A friends' deck is dealt no-peek: no message the guest's page received names a card
    not yet played (the host's page carries locked points and masked keys only), and the
    deck this test rebuilds from every page's messages (each shuffle, lock and key checked
    against its page's revealed secret), played by the moves on the wire, ends with the
    points the guest's page counts."""
    assert check_carried(guest.evaluate("window.__wire.received")) > 20
    (deal, tries), messages = max(np_messages(guest.evaluate("window.__wire.both")).items())
    deck = rebuilt_deck(game.id, match_id_of(guest.evaluate("window.__wire.received")), deal, tries, messages)
    state = played(game, deal, deck, messages)
    view = guest.evaluate("window.pisheFriend.state.view")
    team = next(t for t, seats in enumerate(game.teams) if view["seat"] in seats)
    points = state.team_points()
    assert view["deck_result"]["rows"][-1]["values"] == [str(points[team]), str(points[1 - team])]


COMPUTERS_NOTE = ("The computers' cards are known to the host's page: it plays them. "
                  "No page knows a card of a person's seat before that seat may show it.")


# An ICE list that cannot work (relayed paths only, and no TURN server): no candidate, so no
# WebRTC path, as with WebRTC blocked. The table then goes through the relay.
NO_PATH = {"iceServers": [], "iceTransportPolicy": "relay"}
RATE = "&relayrate=40"  # events a second through the relays (the default is a person's pace)


def at_rate(link: str) -> str:
    """An invite link opened at RATE (the page's own address, before the link's fragment)."""
    return link.replace("#join=", "?" + RATE[1:] + "#join=")


@pytest.fixture
def no_webrtc(pages: Pages):
    """Every profile's pages read NO_PATH as their ice-servers.json, for one test."""
    contexts = [pages.profiles[name] for name in ("host", "guest 1", "guest 2", "guest 3")]
    for context in contexts:
        context.route("**/ice-servers.json", lambda route: route.fulfill(json=NO_PATH))
    yield
    for context in contexts:
        context.unroute("**/ice-servers.json")


def test_a_guest_away_is_played_by_a_computer_and_comes_back(pages: Pages):
    host, links = open_table(pages, friends=(2,))
    guest = pages.page("guest 2")
    guest.goto(links[2])
    for page in (host, guest):
        expect(page.locator("[data-friend-status]")).to_have_text("Connected", timeout=BOOT_MS)
    left_at = play_until(host, [host, guest], played=4)
    assert left_at >= 4 and not host.evaluate(STATE)["over"]

    # The guest's page goes away with its keys: after the hold the deck is aborted by it, named,
    # and dealt again with a computer in its seat (the host's page is opened its cards, as it says).
    host.evaluate(STATUSES, "[data-friend-status]")
    guest.goto("about:blank")
    expect(host.locator(f'{TABLE} [data-seat="2"] [data-flag-who]')).to_have_text("Away: computer", timeout=20_000)
    # Within its hold the host's page names the seat coming back, and says "invite again" only after.
    statuses = host.evaluate("window.__statuses")
    back = statuses.index("Partner is reconnecting…")
    assert "Connection lost — invite again" not in statuses[:back], statuses
    expect(host.locator("[data-fair]")).to_have_text(
        "Deck 1 was stopped: Partner left before it was over (stopped and dealt again "
        "at this table: 1).", timeout=20_000)
    expect(host.locator("[data-computers-note]")).to_have_text(COMPUTERS_NOTE)
    # Four cards of the new deck make a whole round of the table: one of them was seat 2's, by the computer.
    assert play_until(host, [host], played=4) >= 4
    assert not host.evaluate(STATE)["over"]

    # The same tab opens the same link again, mid-deck: its page knocks through the relay, the
    # host's page answers, and the seat is its own again (its seat token is in the tab) from the
    # next deck: the computer plays this one out.
    guest.goto(links[2])
    expect(guest.locator("[data-friend-status]")).to_have_text("Connected", timeout=BOOT_MS)
    guest.wait_for_function("window.pisheFriend.state.view && window.pisheFriend.state.view.seat === 2",
                            timeout=BOOT_MS)
    expect(host.locator(f'{TABLE} [data-seat="2"] [data-flag-who]')).to_have_text("Away: computer")
    # It is told of the abort as the others were, by its own seat, and sits the deck out at its place.
    expect(guest.locator("[data-fair]")).to_have_text(
        "Deck 1 was stopped: your page was gone before it was over (stopped and dealt again at this table: 1).")
    expect(guest.locator(f"{TABLE} [data-status]")).to_have_text(
        "A computer plays your seat for now: you play when the next deck is dealt.")
    expect(guest.get_by_role("textbox", name="Reply code", exact=True)).to_be_hidden()


def test_pishe_pasha_joins_by_the_link_alone_too(pages: Pages):
    host = pages.page("host")
    # The address names the game: this browser last played Pişti (the page would open on it).
    host.goto(pages.site.url + "?game=pishe-pasha")
    expect(host.locator("body")).to_have_attribute("data-ready", "true", timeout=BOOT_MS)
    host.get_by_role("button", name="Invite a friend", exact=True).click()
    box = host.get_by_role("textbox", name="Invite link", exact=True)
    expect(box).not_to_have_value("", timeout=20_000)
    guest = pages.page("guest 1")
    guest.goto(box.input_value())
    for page in (host, guest):
        expect(page.locator("[data-friend-status]")).to_have_text("Connected", timeout=BOOT_MS)
    expect(guest.get_by_role("textbox", name="Reply code", exact=True)).to_be_hidden()
    expect(guest.locator('[data-game="pishe-pasha"] [data-seat-name]')).to_have_text(["Friend", "You"],
                                                                                   timeout=BOOT_MS)


DEAL_NOW = "Deal now: computers take the empty seats"
# Installed before a page loads: what each frame shows (the games' tables not hidden, the
# title, whether Python is ready, and the first such frame's words), from the first frame
# until Python is ready.
FRAMES = """(() => {
  const frames = (window.__frames = []);
  const look = () => {
    const shown = [...document.querySelectorAll("[data-pishe-table]")]
      .filter((table) => !table.closest("[hidden]")).map((table) => table.dataset.game);
    const ready = Boolean(document.body && document.body.dataset.ready === "true");
    // The words of the first frame that shows a table (innerText: what is shown, once).
    const words = shown.length && !frames.some((f) => f.words) ? document.body.innerText : null;
    frames.push({title: document.title, shown, ready, words});
    if (ready || frames.length > 2000) frames.done = true;
    else requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
})();"""


def test_a_friend_who_never_comes_gets_a_computer_and_takes_the_seat_from_the_next_deck(pages: Pages, no_webrtc):
    """Three seats for friends, two come: the host names whom the table waits for, deals now
    with a computer in Left's seat (the three pages deal no-peek, each saying the computer's
    cards are the host page's; all verify the deck, and the deck rebuilt from the wire ends
    as counted); Left's friend opens the link mid-deck and plays from the next deck.

    With no WebRTC path between any two pages, all of it goes through the relay
    (web/tables/friend/relaypath.js), each page's frames for all its links in one event."""
    host, links = open_table(pages, query=RATE, share=True)
    assert all(link.endswith("&game=pisti") for link in links.values())
    # The invites in the seat switches' order, each saying its side; Share beside Copy link.
    titles = host.locator("[data-seat-invite-title]")
    expect(titles.locator("[data-seat-invite-name]")).to_have_text(["Partner", "Right", "Left"])
    expect(titles.locator("[data-seat-invite-side]")).to_have_text(["your partner", "other team", "other team"])
    host.get_by_role("button", name="Share", exact=True).last.click()
    host.wait_for_function("window.__shared")
    assert host.evaluate("window.__shared") == {"title": "Come and play at my table", "url": links[3]}
    expect(host.locator('[data-seat-invite][data-seat="3"] [data-copied]')).to_have_text("Shared.")
    guests = {seat: pages.page(f"guest {seat}") for seat in (1, 2)}
    guests[1].add_init_script(FRAMES)
    for seat, guest in guests.items():
        guest.goto(at_rate(links[seat]))
    # The invited game's table and title from the guest's first painted frame, before Python starts.
    guests[1].wait_for_function("window.__frames.done", timeout=BOOT_MS)
    frames = guests[1].evaluate("window.__frames")
    painted = [f for f in frames if f["shown"]]
    assert painted and not painted[0]["ready"], frames[:5]
    assert all(f["shown"] == ["pisti"] and f["title"] == "Pişti: play with friends" for f in painted), frames
    first = painted[0]["words"]                       # Pişti's words, none of Pishe Pasha's
    assert "First to 101" in first and "Dealer: Left" in first, first
    assert not {"Give", "Keep", "Dealer: Computer", "One deal"} & set(first.splitlines()), first
    for guest in guests.values():
        expect(guest.locator("[data-friend-status]")).to_have_text("Connected", timeout=BOOT_MS)
        # By the link alone: no reply code was shown or pasted; through the relay.
        expect(guest.get_by_role("textbox", name="Reply code", exact=True)).to_be_hidden()
        expect(guest.locator("[data-friend-path]")).to_contain_text("Through relays (slower)", timeout=20_000)
    expect(host.locator("[data-friend-status]")).to_have_text("Waiting for your friends: 2 of 3 here…",
                                                              timeout=BOOT_MS)
    # A guest here reads whom the table waits for, from its own seat (not "once you are connected").
    expect(guests[1].locator(f"{TABLE} [data-status]")).to_have_text("Waiting for Partner…", timeout=20_000)
    expect(guests[2].locator(f"{TABLE} [data-status]")).to_have_text("Waiting for Right…", timeout=20_000)
    # The host's match line before the first deck: the length alone, no blank deck or dealer.
    expect(host.locator('[data-match-line="pisti"]')).to_have_text("First to 101", use_inner_text=True)
    for page in (host, *guests.values()):             # no computer at the table yet
        expect(page.locator("[data-computers-note]")).to_be_hidden()
    expect(host.locator(f"{TABLE} [data-status]")).to_have_text("Waiting for Left…", timeout=20_000)
    deal_now = host.get_by_role("button", name=DEAL_NOW, exact=True)
    expect(deal_now).to_be_visible()
    shots(host, "deal-now")
    deal_now.click()
    expect(deal_now).to_be_hidden(timeout=20_000)
    expect(host.locator(f'{TABLE} [data-seat="3"] [data-flag-who]')).to_have_text("Away: computer", timeout=20_000)
    # Dealt no-peek by the three pages: each page says the computer's cards are the host page's.
    for page in (host, *guests.values()):
        expect(page.locator("[data-computers-note]")).to_have_text(COMPUTERS_NOTE, timeout=20_000)
    assert play_until(host, [host, *guests.values()], played=6) >= 6
    expect(guests[1]).to_have_title("Pişti: play with friends")  # still, with Python running the game

    # Left's friend comes mid-deck: seated, but the computer plays the deck out (dealt no-peek
    # without its page, the deck has nothing its page may see but what is played).
    late = pages.page("guest 3")
    late.goto(at_rate(links[3]))
    expect(late.locator("[data-friend-status]")).to_have_text("Connected", timeout=BOOT_MS)
    expect(host.locator("[data-friend-status]")).to_have_text("Connected", timeout=20_000)
    late.wait_for_function("window.pisheFriend.state.status && window.pisheFriend.state.status.seat === 3",
                           timeout=BOOT_MS)
    expect(host.locator(f'{TABLE} [data-seat="3"] [data-flag-who]')).to_have_text("Away: computer")
    expect(host.locator("[data-seat-invite-path]")).to_contain_text(["Through relays (slower)"] * 3)
    play_until(host, [host, *guests.values()])
    assert host.evaluate(STATE)["over"]
    # Every person's seat played its own cards: 12 clicks on each page.
    assert [page.evaluate("window.__autoplay.clicks") for page in (host, *guests.values())] == [12] * 3
    for page in (host, *guests.values()):
        expect(page.locator("[data-fair]")).to_have_text("Deck 1 verified", timeout=20_000)
    for guest in guests.values():
        check_deck(guest)

    # The next deck: Left plays it.
    host.get_by_role("button", name="Next deck", exact=True).click()
    expect(host.locator(f'{TABLE} [data-seat="3"] [data-flag-who]')).to_have_text("Friend", timeout=20_000)
    host.wait_for_function("() => { const v = window.pisheFriend.state.view;"
                           " return v && v.match && v.match.deal === 2 && !v.deck_result; }", timeout=60_000)
    play_until(host, [host, *guests.values(), late], played=8)
    assert late.evaluate("window.__autoplay.clicks") >= 1
    # Every page's frames went as events to the relay, which passes on none over 4 KiB.
    assert all(relay_stats(page)["events"] > 0 for page in (host, *guests.values(), late))
    for name, errors in pages.errors.items():
        assert [e for e in errors if "Service Worker" not in e] == [], (name, errors)


SILENT_S = 8  # the silent page's hold here: long enough to read the waiting line on a busy machine


def test_a_silent_guest_is_named_and_a_computer_plays_it_after_its_hold(pages: Pages):
    """A guest's page stays connected but stops answering: when the table waits on it the
    host's status line names it, and after its hold (?silent=SECONDS) the deck is aborted by
    it and dealt again with a computer in its seat."""
    host, links = open_table(pages, friends=(2,), query=f"&silent={SILENT_S}")
    guest = pages.page("guest 2")
    guest.goto(links[2])
    for page in (host, guest):
        expect(page.locator("[data-friend-status]")).to_have_text("Connected", timeout=BOOT_MS)
    played = play_until(host, [host, guest], played=4)
    guest.evaluate("window.__wire.mute(true)")
    host.evaluate(STATUSES, f"{TABLE} [data-status]")
    # Play on (the host's page and the computers only) until the table waits on the partner's
    # page: its move, or its key for a card the host's page may see (no-peek): it names it.
    host.evaluate(AUTOPLAY, 99)
    try:
        host.wait_for_function("() => window.__statuses.includes('Waiting for Partner…')", timeout=60_000)
    except PlaywrightTimeoutError:
        # What the host's page said instead (seen once, under a load of three test workers).
        raise AssertionError(f"never waiting for Partner: {host.evaluate('window.__statuses')}, "
                             f"{host.locator('[data-friend-status], [data-fair]').all_text_contents()}") from None
    shots(host, "waiting-for-partner")
    # After the hold its keys are gone with it: the deck is aborted, and dealt again with a computer there.
    expect(host.locator(f'{TABLE} [data-seat="2"] [data-flag-who]')).to_have_text("Away: computer", timeout=30_000)
    expect(host.locator("[data-fair]")).to_contain_text("Deck 1 was stopped: Partner", timeout=20_000)
    assert play_until(host, [host], played=played + 8) >= played + 8


# Installed in the host's page: every text a status line (its selector) shows, in order.
STATUSES = """(selector) => {
  const line = document.querySelector(selector);
  const seen = (window.__statuses = [line.textContent]);
  new MutationObserver(() => seen.push(line.textContent))
    .observe(line, { childList: true, characterData: true, subtree: true });
}"""


def shots(page, name: str) -> None:
    """The page at desktop and phone width, in test-results/."""
    from test_friend import RESULTS

    RESULTS.mkdir(exist_ok=True)
    size = page.viewport_size
    page.screenshot(path=str(RESULTS / f"pisti-friends-{name}.png"))
    page.set_viewport_size({"width": 360, "height": 780})
    page.screenshot(path=str(RESULTS / f"pisti-friends-{name}-360.png"), full_page=True)
    page.set_viewport_size(size)
    page.evaluate("window.scrollTo(0, 0)")  # AUTOPLAY clicks cards where they show
