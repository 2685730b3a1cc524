"""Signaling through Nostr relays (web/tables/friend/relay.js), in the browser,
against a real relay on 127.0.0.1 (the `nostr_relay` fixture): the guest's answer
reaches the host's listener and two pages open a data channel by the link alone;
a relay that is down, or none listed, leaves the reply code by hand, quickly;
garbage, a wrong key, another invite's answer and out-of-date events are
ignored and said so; the relay sees only ciphertext. Also: the computer table
neither loads the Nostr library nor lets the service worker keep it.

The pages here are a bare harness at the built site's root (no Pyodide to boot)
that imports relay.js and rtc.js as the site serves them. The events the tests
forge are sealed by this file's own code, written from docs/PROTOCOL.md, so the
format is checked against its description too.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import socket
from pathlib import Path

import build
import pytest
from playwright.sync_api import Page, expect

from pishe.table.words import PAGE
from returning import link_site

ROOT = Path(__file__).resolve().parent.parent
RELAY_JS = ROOT / "web" / "tables" / "friend" / "relay.js"
KIND = 25050  # docs/PROTOCOL.md, "Signaling through Nostr relays"
BOOT_MS = 120_000

HARNESS = "relay-harness.html"
HARNESS_HTML = """<!doctype html>
<html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>relay.js harness</title></head>
<body><script type="module">
import * as relay from "./web/tables/friend/relay.js";
import { Link } from "./web/core/rtc.js";

const enc = new TextEncoder();
const hex = (b) => Array.from(new Uint8Array(b), (x) => x.toString(16).padStart(2, "0")).join("");
const sha = async (text) => hex(await crypto.subtle.digest("SHA-256", enc.encode(text))).slice(0, 32);
const unb64 = (s) => Uint8Array.from(atob(s.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));

// The event format as docs/PROTOCOL.md describes it, written apart from relay.js.
const forge = {
  tag: (key) => sha("pishe:room:v1:" + key),
  offerHash: (offer) => sha("pishe:offer:v1:" + offer),
  async seal(key, payload) {
    const material = await crypto.subtle.importKey("raw", unb64(key), "HKDF", false, ["deriveKey"]);
    const aes = await crypto.subtle.deriveKey(
      { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: enc.encode("pishe:answer:v1") },
      material, { name: "AES-GCM", length: 256 }, false, ["encrypt"]);
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: "AES-GCM", iv }, aes,
                                                            enc.encode(JSON.stringify(payload))));
    return btoa(String.fromCharCode(...iv, ...sealed));
  },
  // A signed event (a throwaway key) sent straight to the relay: the relay's ["OK", id, ok, message].
  async publish(url, { kind, tag, content, createdAt }) {
    const nostr = (await import("./vendor/nostr-tools.mjs")).default;
    const event = nostr.finalizeEvent({ kind, created_at: createdAt, tags: [["t", tag]], content },
                                      nostr.generateSecretKey());
    const ws = new WebSocket(url);
    await new Promise((resolve, reject) => { ws.onopen = resolve; ws.onerror = reject; });
    const ok = new Promise((resolve) => {
      ws.onmessage = (m) => { const msg = JSON.parse(m.data); if (msg[0] === "OK" && msg[1] === event.id) resolve(msg); };
    });
    ws.send(JSON.stringify(["EVENT", event]));
    const answer = await ok;
    ws.close();
    return answer;
  },
  // Every event of `kind` the relay forwards from now on, raw, as a relay operator would see them.
  spy(url, kind) {
    const seen = [];
    const ws = new WebSocket(url);
    const ready = new Promise((resolve, reject) => {
      ws.onerror = () => reject(new Error("the spy could not reach " + url));
      ws.onmessage = (m) => {
        const msg = JSON.parse(m.data);
        if (msg[0] === "EOSE") resolve();
        if (msg[0] === "EVENT") seen.push(msg[2]);
      };
    });
    // Only events from now on: this relay keeps ephemeral events (public ones do not).
    const since = Math.floor(Date.now() / 1000);
    ws.onopen = () => ws.send(JSON.stringify(["REQ", "spy", { kinds: [kind], since }]));
    return { seen, ready };
  },
};

// The host's side: a Link's offer (its channel read here), a key, and a listener that records what it hears.
async function host({ accept = true } = {}) {
  const heard = { answers: [], ignored: [], states: [], open: false };
  const link = new Link([], (channel) => {
    channel.onopen = () => { heard.open = true; };
    channel.onmessage = (e) => { heard.message = e.data; };
  });
  const offer = await link.offer();
  const key = await relay.linkKey(offer);
  // When it started listening and when it first said a state: how long the relays took.
  heard.listening = performance.now();
  heard.handle = relay.listenForAnswer({
    key, offer,
    onAnswer: async (code) => { heard.answers.push(code); if (accept) await link.accept(code); },
    onIgnored: (word) => heard.ignored.push(word),
    onState: (state) => { heard.states.push(state); heard.firstStateMs ??= performance.now() - heard.listening; },
  });
  Object.assign(window, { hostLink: link, heard });
  return { invite: offer, offer, key };
}

// The guest's side: the invite's offer answered, the answer posted; the time each step took.
async function guest(invite) {
  const offer = invite;
  const key = await relay.linkKey(offer);
  const started = performance.now();
  const link = new Link([], (channel) => {
    channel.onopen = () => { link.opened(); channel.send("hello from the guest"); };
  });
  const answer = await link.answer(offer);
  const answered = performance.now();
  const posted = await relay.postAnswer({ key, offer, answer });
  window.guestLink = link;
  return { answer, posted, answerMs: answered - started, postMs: performance.now() - answered };
}

Object.assign(window, { relay, Link, forge, host, guest });
document.body.dataset.loaded = "true";
</script></body></html>
"""


@pytest.fixture(scope="module")
def harness_site(dist_dir, tmp_path_factory):
    """The built site plus the harness page, served from 127.0.0.1. The harness is
    a real file, not a Playwright route: Chromium lets a page connect to a relay on
    127.0.0.1 only when the page itself came from a local address."""
    root = tmp_path_factory.mktemp("relay-site")
    link_site(dist_dir, root)
    (root / HARNESS).write_text(HARNESS_HTML, encoding="utf-8")
    server = build.SiteServer(root).start()
    yield server
    server.stop()


@pytest.fixture
def new_page(browser, harness_site):
    """new_page(relays, paused=False) -> a harness page at the site's root whose
    signaling.json lists `relays` (a list of addresses, or None for a signaling.json that
    is missing). With `paused`, the page's clock (timers, Date, performance.now) is
    Playwright's, stopped once the page has loaded: its time moves only by
    page.clock.run_for, so a test counts the page's own milliseconds, not the machine's."""
    contexts = []

    def make(relays, paused: bool = False) -> Page:
        context = browser.new_context(service_workers="block")
        contexts.append(context)
        page = context.new_page()
        if relays is None:
            page.route("**/signaling.json", lambda route: route.fulfill(status=404, body=""))
        else:
            page.route("**/signaling.json", lambda route: route.fulfill(json={"relays": relays}))
        if paused:
            page.clock.install()
        page.goto(harness_site.url + HARNESS)
        page.wait_for_selector("body[data-loaded=true]", state="attached")
        if paused:
            page.clock.pause_at(page.evaluate("Date.now()") + 1000)
        return page

    yield make
    for context in contexts:
        context.close()


def closed_port() -> int:
    """A 127.0.0.1 port that nothing listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


# postAnswer of a made-up answer under a new key, started and left running: window.posting
# is {posted, ms} once it has ended (ms: the page's own milliseconds).
POST_STARTED = """async () => {
    window.posting = null;
    const key = await relay.linkKey("p1~x");
    const t = performance.now();
    relay.postAnswer({key, offer: "p1~x", answer: "p1~y"})
        .then((posted) => { window.posting = {posted, ms: performance.now() - t}; });
}"""


def posting(page: Page):
    return page.evaluate("window.posting")


def heard(page: Page) -> dict:
    return page.evaluate("({answers: heard.answers, ignored: heard.ignored, states: heard.states, open: heard.open,"
                         " message: heard.message || null})")


# ---- without a browser ------------------------------------------------------------


def test_every_word_relay_js_reports_is_worded_in_python():
    source = RELAY_JS.read_text(encoding="utf-8")
    ignored = re.search(r"const IGNORED = \{(.*?)\};", source, flags=re.S).group(1)
    words = set(re.findall(r":\s*\"(\w+)\"", ignored))
    assert words == {"relay_unreadable", "relay_other_offer", "relay_stale"}
    assert words <= set(PAGE)


# ---- in the browser ---------------------------------------------------------------


def test_the_link_key_is_made_from_the_offer_code_alone(new_page):
    """docs/PROTOCOL.md: the first 16 bytes of SHA-256("pishe:link:v1:" + offer code), in
    base64url; the invite link carries the offer code alone."""
    page = new_page([])
    offers = ["p1~abcd~" + f"{n:024d}" + "~" + "f" * 43 + "~h127.0.0.1,5000~h::1,6000" for n in range(50)]
    keys = page.evaluate("(offers) => Promise.all(offers.map((o) => relay.linkKey(o)))", offers)
    expected = [base64.urlsafe_b64encode(hashlib.sha256(("pishe:link:v1:" + o).encode()).digest()[:16])
                .decode().rstrip("=") for o in offers]
    assert keys == expected and len(set(keys)) == 50
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{22}", key) for key in keys)
    assert page.evaluate("(o) => relay.linkKey(o)", offers[0]) == keys[0]


def test_join_by_link_alone_through_the_relay(new_page, nostr_relay, console_errors):
    """The guest's answer reaches the host's listener; the data channel opens; the
    relay sees a short-lived ephemeral event with neither the answer nor the key in it."""
    host, guest = new_page([nostr_relay]), new_page([nostr_relay])
    errors = {"host": console_errors(host), "guest": console_errors(guest)}
    host.evaluate("(url) => { window.spy = forge.spy(url, %d); return window.spy.ready; }" % KIND, nostr_relay)
    invite = host.evaluate("host()")
    host.wait_for_function("heard.states.includes('listening')", timeout=10_000)

    out = guest.evaluate("(invite) => guest(invite.invite)", invite)
    assert out["posted"] is True
    host.wait_for_function("heard.open", timeout=15_000)
    guest.wait_for_function("window.guestLink.open", timeout=15_000)
    host.wait_for_function("heard.message", timeout=15_000)
    got = heard(host)
    assert got == {"answers": [out["answer"]], "ignored": [], "states": ["listening"], "open": True,
                   "message": "hello from the guest"}

    # What the relay saw: one event, ephemeral, expiring within minutes, tagged with a hash.
    host.wait_for_function("spy.seen.length >= 1")
    # A marker event published after the answer was taken: once the spy sees it, any second
    # event of the guest's would have been forwarded before it (the relay keeps the order).
    host.evaluate("(url) => forge.publish(url, {kind: %d, tag: 'marker', content: 'marker',"
                  " createdAt: Math.floor(Date.now() / 1000)})" % KIND, nostr_relay)
    host.wait_for_function("spy.seen.some((e) => e.content === 'marker')", timeout=10_000)
    seen = [e for e in host.evaluate("spy.seen") if e["content"] != "marker"]
    assert len(seen) == 1
    event = seen[0]
    assert 20000 <= event["kind"] < 30000
    tags = dict((t[0], t[1]) for t in event["tags"])
    assert set(tags) == {"t", "expiration"}
    assert tags["t"] == host.evaluate("(key) => forge.tag(key)", invite["key"])
    assert 60 <= int(tags["expiration"]) - event["created_at"] <= 600
    text = json.dumps(event)
    for secret in (out["answer"], invite["key"], invite["offer"], *out["answer"].split("~")[1:4],
                   *invite["offer"].split("~")[1:4]):
        assert secret not in text
    assert errors == {"host": [], "guest": []}


def test_a_relay_that_is_down_leaves_the_reply_code_quickly(new_page, nostr_relay):
    """A refused connection is known at once: on a stopped clock, the listener says
    "unreachable" and a post gives up with no time passing in the page (no timer waited on)."""
    down = f"ws://127.0.0.1:{closed_port()}"
    page = new_page([down], paused=True)
    page.evaluate("host()")
    page.wait_for_function("heard.states.length > 0", timeout=10_000, polling=50)
    assert heard(page)["states"] == ["unreachable"] and page.evaluate("heard.firstStateMs") == 0
    page.evaluate(POST_STARTED)
    page.wait_for_function("window.posting", timeout=10_000, polling=50)
    assert posting(page) == {"posted": False, "ms": 0}

    # A relay that takes the connection and never answers: the same once the page's 3 s
    # have passed, and not before. The listener and a post wait for it side by side.
    with socket.socket() as mute:
        mute.bind(("127.0.0.1", 0))
        mute.listen()
        page = new_page([f"ws://127.0.0.1:{mute.getsockname()[1]}"], paused=True)
        page.evaluate("host()")
        page.evaluate(POST_STARTED)
        page.clock.run_for(2900)
        assert posting(page) is None and heard(page)["states"] == []
        page.clock.run_for(200)
        page.wait_for_function("window.posting && heard.states.length > 0", timeout=10_000, polling=50)
        out = posting(page)
        assert out["posted"] is False and 2900 < out["ms"] <= 3100, out
        assert heard(page)["states"] == ["unreachable"]
        assert 2900 < page.evaluate("heard.firstStateMs") <= 3100

    # One relay down and one up: the one that is up is enough, both ways.
    both = new_page([down, nostr_relay])
    invite = both.evaluate("host({accept: false})")
    both.wait_for_function("heard.states.length > 0", timeout=10_000)
    assert heard(both)["states"] == ["listening"]
    assert both.evaluate("(i) => relay.postAnswer({key: i.key, offer: i.offer, answer: 'p1~answer'})", invite) is True
    both.wait_for_function("heard.answers.length === 1", timeout=5_000)


@pytest.mark.parametrize("listed", [[], None, ["https://not-a-relay.example", 7]], ids=["empty", "missing", "invalid"])
def test_no_relay_listed_means_the_reply_code_at_once(new_page, listed):
    page = new_page(listed, paused=True)
    assert page.evaluate("relay.relayList()") == []
    page.evaluate("host()")
    page.wait_for_function("heard.states.length > 0", timeout=10_000, polling=50)
    assert heard(page)["states"] == ["unreachable"] and page.evaluate("heard.firstStateMs") == 0
    page.evaluate(POST_STARTED)
    page.wait_for_function("window.posting", timeout=10_000, polling=50)
    assert posting(page) == {"posted": False, "ms": 0}     # no time passed in the page


FORGED = """async ([url, kind, invite, cases]) => {
    const now = Math.floor(Date.now() / 1000);
    const otherKey = await relay.linkKey(invite.offer + "0");
    const tag = await forge.tag(invite.key);
    const ours = await forge.offerHash(invite.offer);
    const theirs = await forge.offerHash(invite.offer + "0");
    const payload = (extra) => ({v: 1, offer: ours, answer: "p1~forged", at: now, ...extra});
    const make = {
        garbage: async () => ({content: "<b>not base64</b> !!"}),
        random_bytes: async () => ({content: btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(64))))}),
        wrong_key: async () => ({content: await forge.seal(otherKey, payload({}))}),
        not_an_answer: async () => ({content: await forge.seal(invite.key, {v: 1, offer: ours, at: now})}),
        other_offer: async () => ({content: await forge.seal(invite.key, payload({offer: theirs}))}),
        old_payload: async () => ({content: await forge.seal(invite.key, payload({at: now - 3600}))}),
        future_payload: async () => ({content: await forge.seal(invite.key, payload({at: now + 3600}))}),
        old_event: async () => ({content: await forge.seal(invite.key, payload({at: now - 3600})), createdAt: now - 3600}),
        other_room: async () => ({content: await forge.seal(otherKey, payload({})), tag: await forge.tag(otherKey)}),
        valid: async () => ({content: await forge.seal(invite.key, payload({answer: "p1~the-answer"}))}),
    };
    const results = [];
    for (const name of cases) {
        const e = await make[name]();
        results.push(await forge.publish(url, {kind, tag: e.tag || tag, content: e.content, createdAt: e.createdAt || now}));
    }
    return results.map((r) => r[2]);
}"""


def settled(page: Page, url: str, invite: dict) -> dict:
    """What the listener heard once everything published before now has reached it: one more
    answer for another invite (ignored as "relay_other_offer") is published and waited for,
    and taken off again. The relay forwards in order, so nothing sent earlier is still on
    its way (a wait on a state, not a sleep)."""
    before = len(heard(page)["ignored"])
    page.evaluate(FORGED, [url, KIND, invite, ["other_offer"]])
    page.wait_for_function("(n) => heard.ignored.length > n", arg=before, timeout=10_000)
    got = heard(page)
    assert got["ignored"][-1] == "relay_other_offer"
    got["ignored"] = got["ignored"][:-1]
    return got


def test_garbage_wrong_keys_other_invites_and_old_events_are_ignored(new_page, nostr_relay, console_errors):
    page = new_page([nostr_relay])
    errors = console_errors(page)
    invite = page.evaluate("host({accept: false})")
    page.wait_for_function("heard.states.includes('listening')", timeout=10_000)

    ignored = {"garbage": "relay_unreadable", "random_bytes": "relay_unreadable", "wrong_key": "relay_unreadable",
               "not_an_answer": "relay_unreadable", "other_offer": "relay_other_offer", "old_payload": "relay_stale",
               "future_payload": "relay_stale"}
    # Never forwarded at all: an event a day old is before the subscription's `since`
    # (the relay filters it), one for another room has another tag.
    unseen = ["old_event", "other_room"]
    accepted = page.evaluate(FORGED, [nostr_relay, KIND, invite, [*ignored, *unseen]])
    assert accepted == [True] * (len(ignored) + len(unseen))  # the relay took them all
    page.wait_for_function("(n) => heard.ignored.length >= n", arg=len(ignored), timeout=5_000)
    got = settled(page, nostr_relay, invite)
    assert sorted(got["ignored"]) == sorted(ignored.values())
    assert got["answers"] == []

    # The valid answer is taken once; its replay (re-sent, re-signed) is not.
    page.evaluate(FORGED, [nostr_relay, KIND, invite, ["valid", "valid"]])
    page.wait_for_function("heard.answers.length >= 1", timeout=5_000)
    # Nothing to wait for: the listener closes itself before it hands on an answer, and an
    # event still being opened when it closed is dropped (relay.js, onevent).
    got = heard(page)
    assert got["answers"] == ["p1~the-answer"]
    assert len(got["ignored"]) == len(ignored) + 1  # and the marker settled() published
    assert errors == []


def test_a_guest_with_the_wrong_key_is_never_heard(new_page, nostr_relay):
    page = new_page([nostr_relay])
    invite = page.evaluate("host({accept: false})")
    page.wait_for_function("heard.states.includes('listening')", timeout=10_000)
    posted = page.evaluate("async (i) => relay.postAnswer({key: await relay.linkKey(i.offer + 'x'), offer: i.offer,"
                           " answer: 'p1~x'})", invite)
    assert posted is True  # the relay took it, but in another room
    posted = page.evaluate("(i) => relay.postAnswer({key: i.key, offer: i.offer + 'x', answer: 'p1~x'})", invite)
    assert posted is True
    page.wait_for_function("heard.ignored.length >= 1", timeout=5_000)
    got = settled(page, nostr_relay, invite)
    assert got["answers"] == [] and got["ignored"] == ["relay_other_offer"]


def test_close_stops_listening(new_page, nostr_relay):
    page = new_page([nostr_relay])
    invite = page.evaluate("host({accept: false})")
    page.wait_for_function("heard.states.includes('listening')", timeout=10_000)
    page.evaluate("heard.handle.close(); heard.handle.close()")
    # A second listener for the same invite, still open: once it hears the late answer, the
    # closed one would have heard it too (a wait on a state, not a sleep).
    page.evaluate("""(i) => {
        window.other = {answers: [], listening: false};
        relay.listenForAnswer({key: i.key, offer: i.offer, onAnswer: (code) => other.answers.push(code),
                               onIgnored: () => {}, onState: (s) => { other.listening ||= s === 'listening'; }});
    }""", invite)
    page.wait_for_function("other.listening", timeout=10_000)
    assert page.evaluate("(i) => relay.postAnswer({key: i.key, offer: i.offer, answer: 'p1~late'})", invite) is True
    page.wait_for_function("other.answers.length === 1", timeout=10_000)
    assert heard(page)["answers"] == [] and heard(page)["ignored"] == []


def test_the_computer_table_neither_loads_nor_keeps_nostr_nor_a_friends_tables_code(page: Page, site, dist_dir, console_errors):
    errors = console_errors(page)
    requests: list[str] = []
    page.context.on("request", lambda request: requests.append(request.url))
    page.goto(site.url)
    expect(page.locator("body")).to_have_attribute("data-ready", "true", timeout=BOOT_MS)
    kept = page.evaluate("""async () => {
        await navigator.serviceWorker.ready;
        const cache = await caches.open((await caches.keys()).find((name) => name.startsWith("pishe-")));
        return (await cache.keys()).map((request) => new URL(request.url).pathname);
    }""")
    assert "/web/tables/friends.js" in kept  # the service worker has done its work
    assert not {"/vendor/nostr-tools.mjs", "/signaling.json", "/ice-servers.json"} & set(kept)
    assert [url for url in requests if "nostr" in url or "signaling.json" in url] == []
    # Nor any of a friends' table's code: it comes when one opens (build.py's friends_scripts).
    friends = {build.FRIENDS_ZIP, *build.friends_scripts(dist_dir)}
    assert [path for path in kept if path[1:] in friends] == []
    assert [url for url in requests if url.removeprefix(site.url) in friends] == []
    assert errors == []
