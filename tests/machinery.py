"""Machinery the tests and benchmarks share, kept out of build.py (which builds the site):
the Chromium they drive and its switches, and a real Nostr relay on 127.0.0.1.

Benchmarks import it too (``sys.path`` holds ``tests/``).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

from build import cache_dir

#: The Chromium the tests and benchmarks drive: Debian's (Playwright cannot download one here), its
#: headless shell (package chromium-headless-shell, the same version), which Playwright itself runs
#: for headless tests: the whole suite costs about 7% less CPU than in the full browser's headless
#: mode. CHROMIUM=/usr/bin/chromium runs them in the full browser (--headed needs it).
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium-headless-shell")
#: Switches that keep Chromium quiet: no background traffic, no first-run work.
CHROMIUM_QUIET_FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
#: Every host but 127.0.0.1 unreachable, so a stray fetch from elsewhere fails loudly.
CHROMIUM_OFFLINE_FLAGS = ["--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]


def playwright_disabled_features(playwright, chromium: str = CHROMIUM) -> list[str]:
    """The --disable-features list Playwright passes to `chromium`, read from one throwaway
    launch. Chromium honours only the last --disable-features switch, so another list has to
    repeat Playwright's or it would silently drop it. (The browser tells its command line over
    CDP only with --enable-automation, harmless in a throwaway launch.)"""
    browser = playwright.chromium.launch(executable_path=chromium,
                                         args=[*CHROMIUM_QUIET_FLAGS, "--enable-automation"])
    try:
        command_line = browser.new_browser_cdp_session().send("Browser.getBrowserCommandLine")["arguments"]
    finally:
        browser.close()
    for token in command_line:
        if token.startswith("--disable-features="):
            return token.split("=", 1)[1].split(",")
    return []


class RelayError(Exception):
    """The local Nostr relay could not be started; the message says why."""


def nostr_relay_executable() -> str | None:
    """PyPI nostr-relay's command: $PISHE_NOSTR_RELAY as it is (set, it must work:
    CI sets it), else the venv .ci/run makes in the cache (relay-venv), else one
    on PATH; None when there is none."""
    if os.environ.get("PISHE_NOSTR_RELAY"):
        return os.environ["PISHE_NOSTR_RELAY"]
    candidates = [str(cache_dir() / "relay-venv" / "bin" / "nostr-relay"), shutil.which("nostr-relay")]
    return next((c for c in candidates if c and os.access(c, os.X_OK)), None)


class LocalServer:
    """A real server the tests start themselves on 127.0.0.1, in `folder`, with its log
    there: start() returns once it takes TCP connections on .port (``command()`` names
    the program; ``prepare()`` picks the port and writes what it reads); stop() ends it
    by its process id. ``error`` is what a failed start raises."""

    name = "server"
    error = RuntimeError

    def __init__(self, executable: str, folder: Path):
        self.executable, self.folder = executable, Path(folder)
        self.port = 0
        self._process: subprocess.Popen | None = None

    def prepare(self) -> None:
        self.port = free_port()

    def command(self) -> list:
        raise NotImplementedError

    def log(self) -> str:
        path = self.folder / f"{self.name}.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def start(self, timeout: float = 60):
        self.prepare()
        with open(self.folder / f"{self.name}.log", "wb") as log:
            try:
                self._process = subprocess.Popen(self.command(), cwd=self.folder, stdin=subprocess.DEVNULL,
                                                 stdout=log, stderr=subprocess.STDOUT)
            except OSError as err:
                raise self.error(f"could not run {self.executable}: {err}") from err
        deadline = time.monotonic() + timeout
        while True:
            if self._process.poll() is not None:
                raise self.error(f"{self.name} exited with {self._process.returncode}:\n{self.log()}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return self
            except OSError:
                if time.monotonic() > deadline:
                    self.stop()
                    raise self.error(f"{self.name} took no connection in {timeout:.0f} s:\n{self.log()}") from None
                time.sleep(0.2)

    def stop(self) -> None:
        if self._process:
            self._process.terminate()
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
            self._process = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def free_port(kind: int = socket.SOCK_STREAM) -> int:
    """A port nothing listens on at 127.0.0.1 now (TCP, or ``socket.SOCK_DGRAM``: UDP)."""
    with socket.socket(socket.AF_INET, kind) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


#: The largest event the tests' relay takes, as the smallest public relays (4 KiB): every page
#: pointed at it is told so (signaling.json's eventBytes), so that a frame too large is refused.
SMALL_EVENTS = 4096


def signaling(relays: list) -> dict:
    """The signaling.json of a page that signals through `relays`, the tests' relay among them."""
    return {"relays": list(relays), "eventBytes": SMALL_EVENTS}


class LocalRelay(LocalServer):
    """A real Nostr relay (PyPI nostr-relay) on a free 127.0.0.1 port, its events
    in a SQLite file in `folder` (its default in-memory database has no tables and
    refuses every event); .url is its ws:// address. start() returns once it takes
    connections (~5 s here); stop() ends it by its process id."""

    name = "relay"
    error = RelayError

    # The checks a public relay makes: size, signature, not a year old. Its size limit
    # (bytes of an event's content; `event_bytes`) is strfry's default, 64 KiB, unless told
    # otherwise; the tests' relay takes 4 KiB only, as some public relays (SMALL_EVENTS).
    CONFIG = """max_event_size: {event_bytes}
storage:
  sqlalchemy.url: "sqlite+aiosqlite:///{folder}/nostr.sqlite3"
  validators:
    - nostr_relay.validators.is_not_too_large
    - nostr_relay.validators.is_signed
    - nostr_relay.validators.is_recent
gunicorn:
  bind: 127.0.0.1:{port}
  workers: 1
"""

    def __init__(self, executable: str, folder: Path, event_bytes: int = 65536):
        super().__init__(executable, folder)
        self.event_bytes = event_bytes

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def prepare(self) -> None:
        super().prepare()
        (self.folder / "config.yaml").write_text(
            self.CONFIG.format(folder=self.folder, port=self.port, event_bytes=self.event_bytes))

    def command(self) -> list:
        return [self.executable, "-c", str(self.folder / "config.yaml"), "serve", "--use-uvicorn"]
