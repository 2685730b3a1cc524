"""A returning visitor's browser for the tests that open tables in new contexts.

A new browser context is a first visit: the page starts Python (about 7 s of a core here;
restoring a snapshot takes about 4) and keeps a snapshot of its memory for the next start (web/core/worker.js). Most browser
tests are not about that start, and a returning visitor's browser already holds the
snapshot. :func:`make_root` takes the snapshot once, from one real first visit, and serves
it beside the site; :func:`welcome_back` stores it in a new context's Cache Storage, where
the page's own first visit would have put it, before the test opens the table. The page then
restores it as on any later visit. The tests of a first visit (test_first_visit.py,
test_build.py, the service worker's) do not use it.
"""

from __future__ import annotations

import base64
import html
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

import build

#: The snapshot's file beside the site's own (a name the site never uses).
MEMORY_FILE = "test-python-memory"
#: A page of the site that stores it: it names the snapshot's key in Cache Storage,
#: relative to the site (web/core/worker.js: SNAPSHOT_KEY), and an icon (no request for
#: /favicon.ico, which the site has not, to fail in the console).
KEY_FILE = "test-python-memory.html"
_KEY_PAGE = '<!doctype html><link rel="icon" href="data:,"><meta name="snapshot-key" content="{key}">\n'

# Waits for the first visit's snapshot to be stored (the page does not wait for it), then
# reads it back: its key's path and its bytes in base64 (one call, once per run).
_READ = """async (site) => {
  const cache = await caches.open("python-memory");
  let keys = [];
  for (let tries = 0; tries < 600 && !keys.length; tries++) {
    keys = await cache.keys();
    if (!keys.length) await new Promise((done) => setTimeout(done, 50));
  }
  if (!keys.length) throw new Error("the first visit kept no snapshot");
  const bytes = new Uint8Array(await (await cache.match(keys[0])).arrayBuffer());
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return [keys[0].url.slice(site.length), btoa(text)];
}"""

_STORE = """async (file) => {
  const key = document.querySelector('meta[name="snapshot-key"]').content;
  const response = await fetch(file);
  if (!response.ok) throw new Error(`no ${file}: HTTP ${response.status}`);
  await (await caches.open("python-memory")).put(new URL(key, location.href).href, response);
}"""


def link_site(dist: Path, root: Path) -> None:
    """Put in `root` a link to each of `dist`'s entries: the built site, with room beside it."""
    for entry in dist.iterdir():
        (root / entry.name).symlink_to(entry)


def make_root(dist: Path, root: Path, browser: Browser, boot_ms: int) -> None:
    """Fill `root` with `dist`'s entries (links) and the Python memory of one first visit of
    it in `browser` (its key beside it)."""
    root.mkdir(parents=True)
    link_site(dist, root)
    with build.SiteServer(dist) as server:
        context = browser.new_context()
        try:
            page = context.new_page()
            page.goto(server.url + "?delay=0")
            expect(page.locator("body")).to_have_attribute("data-ready", "true", timeout=boot_ms)
            key, memory = page.evaluate(_READ, server.url)
        finally:
            context.close()
    (root / MEMORY_FILE).write_bytes(base64.b64decode(memory))
    (root / KEY_FILE).write_text(_KEY_PAGE.format(key=html.escape(key)))


def welcome_back(page: Page, server) -> None:
    """Make `page`'s context a returning visitor of `server` (a build.SiteServer of a
    :func:`make_root` folder): its Cache Storage holds the snapshot a first visit keeps.
    Call it before the context opens the site; it leaves `page` on one of the site's files."""
    response = page.goto(server.url + KEY_FILE)
    if response is None or not response.ok:
        raise RuntimeError(f"{server.url} serves no {KEY_FILE}: serve conftest's returning_dist")
    page.evaluate(_STORE, MEMORY_FILE)


def welcome_back_profile(context, server) -> None:
    """:func:`welcome_back` for a persistent browser `context` (its first tab, then closed), so
    that every page it opens later restores Python."""
    first = context.pages[0] if context.pages else context.new_page()
    welcome_back(first, server)
    first.close()
