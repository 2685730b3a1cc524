"""Shared test fixtures: Debian's Chromium for pytest-playwright, the built site
and a local server for it.

Fixtures:
    browser_type_launch_args  pytest-playwright's, extended: $CHROMIUM (default
                              /usr/bin/chromium-headless-shell), quiet flags, no host but 127.0.0.1,
                              WebRTC between local pages
    dist_dir                  Path of a dist/ built once per test run (in a temp dir, shared
                              by the xdist workers), with no Nostr relay in its signaling.json
    site                      a build.SiteServer serving dist_dir: .url, .stop(), .start()
    returning_dist            Path of dist_dir's files plus a returning visitor's Python
                              memory (tests/returning.py: welcome_back), made once per run
    console_errors            watch(page) -> list that fills with the page's console
                              errors and uncaught exceptions
    nostr_relay               the ws:// address of a real Nostr relay (PyPI nostr-relay) on
                              127.0.0.1, one per session; its tests skip when the
                              executable is missing ($PISHE_NOSTR_RELAY, which .ci/run sets)
    turn_server               a real TURN server (coturn, tests/turn.py) on 127.0.0.1, one per
                              session: a turn.LocalTurn (.ice_servers); skips without coturn
"""

from __future__ import annotations

import fcntl
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # build.py lives at the repository root, outside the package

import build  # noqa: E402
import machinery  # noqa: E402  (beside this file: pytest puts tests/ on sys.path)
import returning  # noqa: E402
from turn import LocalTurn, turnserver_executable  # noqa: E402

CHROMIUM = machinery.CHROMIUM
QUIET_FLAGS = machinery.CHROMIUM_QUIET_FLAGS
OFFLINE_FLAGS = machinery.CHROMIUM_OFFLINE_FLAGS
# Two local pages open a WebRTC data channel only with real host candidates
# (not mDNS names) and loopback candidates allowed.
WEBRTC_FLAGS = ["--allow-loopback-in-peer-connection"]
WEBRTC_DISABLED_FEATURES = ["WebRtcHideLocalIpsWithMdns"]
# The address bar's popups, which Chromium's headless mode loads in two renderers of their
# own in every browser it starts: no test has an address bar to type in.
BROWSER_UI_DISABLED_FEATURES = ["WebUIOmniboxPopup", "WebUIOmniboxAimPopup"]


# The order files go out in. xdist (--dist loadfile, files in collection order) hands each
# file to the next free worker: the long ones first, so that the short ones fill in at the
# end instead of a long one running on alone. The friend's table's file first, then the
# longest files that need no built site: while the first worker builds the site (a minute or
# more when the build's caches are cold, a fresh machine's case), the other runs those.
# Measured with --durations=0 (each file's total, -n 0), longest first; files under about
# 15 s keep their own order.
LONGEST_FIRST = [
    "test_friend.py",
    # No built site needed.
    "test_rewriting_host.py", "test_table_protocol.py", "test_protocol.py", "test_invariants.py", "test_games.py",
    "test_nopeek_table.py", "test_batak.py", "test_friend_seats.py", "test_pisti_bots.py",
    # The built site's.
    "test_pisti_friends.py", "test_table_ux.py", "test_build.py", "test_batak_page.py", "test_page.py",
    "test_language_page.py", "test_look.py", "test_first_visit.py", "test_friend_connect.py",
    "test_pisti_two_page.py", "test_pisti_page.py", "test_cheating_host_pages.py", "test_friend_turn.py",
    "test_keep_match.py", "test_relay.py", "test_web_friend_hold.py", "test_layout.py",
]


def pytest_collection_modifyitems(items):
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))   # stable: the rest keep their order


def pytest_configure(config):
    # A failing browser test leaves a screenshot in test-results/ unless told otherwise.
    if getattr(config.option, "screenshot", None) == "off":
        config.option.screenshot = "only-on-failure"


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args, playwright):
    """Extend (not replace) pytest-playwright's options, so --headed and --slowmo still work."""
    features = machinery.playwright_disabled_features(playwright) + WEBRTC_DISABLED_FEATURES + BROWSER_UI_DISABLED_FEATURES
    return {
        **browser_type_launch_args,
        "executable_path": CHROMIUM,
        "args": [
            *browser_type_launch_args.get("args", []),
            *QUIET_FLAGS,
            *OFFLINE_FLAGS,
            *WEBRTC_FLAGS,
            "--disable-features=" + ",".join(dict.fromkeys(features)),
        ],
    }


@pytest.fixture(scope="session")
def dist_dir(tmp_path_factory, worker_id) -> Path:
    """The site, built once per test run into a temp dir (the repo's dist/ is left alone):
    the first xdist worker to need it builds it, the other waits for it and reads the same
    files (a build whose caches are cold runs Pyodide under Node for a minute or more)."""
    shared = tmp_path_factory.getbasetemp()
    if worker_id != "master":
        shared = shared.parent  # the run's folder, above each worker's own
    dist = shared / "site" / "dist"
    with open(shared / "site.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        built = shared / "site" / "built"
        if not built.exists():
            build.build(dist)
            # Tests never reach a public relay: the site's relays are none, unless a test
            # routes signaling.json to the local one (the nostr_relay fixture).
            (dist / "signaling.json").write_text('{"relays": []}\n')
            built.touch()
    return dist


@pytest.fixture(scope="session")
def returning_dist(dist_dir, browser) -> Path:
    """dist_dir's files and the Python memory of one first visit of them (tests/returning.py),
    made by the first xdist worker to need them; the other waits and reads the same."""
    shared = dist_dir.parent.parent
    root = shared / "returning"
    with open(shared / "returning.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (root / returning.KEY_FILE).exists():
            shutil.rmtree(root, ignore_errors=True)
            returning.make_root(dist_dir, root, browser, boot_ms=120_000)
    return root


@pytest.fixture
def site(dist_dir):
    """dist_dir served on a free 127.0.0.1 port; stop() then start() keeps the port."""
    server = build.SiteServer(dist_dir).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def module_site(returning_dist):
    """returning_dist served for a whole test module: one origin, so persistent profiles' caches
    keep serving Pyodide from one test to the next."""
    with build.SiteServer(returning_dist) as server:
        yield server


@pytest.fixture
def console_errors():
    """watch(page) returns a list that collects the page's console errors
    (its workers' included) and uncaught exceptions from then on; not the browser's own
    request for /favicon.ico on a page that names no icon (a JSON file the tests open)."""

    def watch(page) -> list[str]:
        errors: list[str] = []

        def console(msg) -> None:
            if msg.type == "error" and not msg.location.get("url", "").endswith("/favicon.ico"):
                errors.append(f"console: {msg.text}")

        page.on("console", console)
        page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
        return errors

    return watch


@pytest.fixture(scope="session")
def nostr_relay(tmp_path_factory):
    """A real Nostr relay on a free 127.0.0.1 port for the session (machinery.LocalRelay),
    taking events of 4 KiB at most (machinery.SMALL_EVENTS: a page told otherwise stalls):
    yields its ws:// address, then stops it by its process id."""
    executable = machinery.nostr_relay_executable()
    if executable is None:
        pytest.skip("no nostr-relay executable: run .ci/run once (it installs one) or set PISHE_NOSTR_RELAY")
    with machinery.LocalRelay(executable, tmp_path_factory.mktemp("nostr-relay"),
                              event_bytes=machinery.SMALL_EVENTS) as relay:
        yield relay.url


@pytest.fixture(scope="session")
def returning_browser(browser_type, browser_type_launch_args, returning_dist, tmp_path_factory):
    """(context, server): one persistent browser profile and one server of returning_dist for
    the whole session, the returning visitor of test_page (and of the modules that take its
    fixtures). Pyodide comes from the profile's disk cache after the session's first boot,
    and Python's memory from its snapshot (tests/returning.py), as for a returning visitor
    (a plain context fetches and compiles the 9.6 MB wasm, and starts Python, on every
    load). Service workers are blocked; a first visit needs a context of its own."""
    with build.SiteServer(returning_dist) as server:
        context = browser_type.launch_persistent_context(
            tmp_path_factory.mktemp("profile"), **browser_type_launch_args,
            service_workers="block", viewport={"width": 1280, "height": 720})
        try:
            returning.welcome_back_profile(context, server)
            yield context, server
        finally:
            context.close()


@pytest.fixture(scope="session")
def turn_server(tmp_path_factory):
    """coturn on a free 127.0.0.1 port for the session (tests/turn.py), stopped by its process id."""
    executable = turnserver_executable()
    if executable is None:
        pytest.skip("no turnserver: install Debian's coturn (.ci/run does)")
    with LocalTurn(executable, tmp_path_factory.mktemp("turn")) as server:
        yield server
