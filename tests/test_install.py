"""The site can be installed as an app: its web manifest, its icons (maskable), cached
by the service worker, and Chromium's own installability check (over the DevTools
protocol: Lighthouse dropped its PWA audits)."""

from __future__ import annotations

import json
import struct

from sitebuild.icons import ICON_FELT, ICON_SIZES, icon_paint
from sitebuild.serve import SiteServer


def test_the_manifest_names_the_app_its_icons_and_its_start(dist_dir):
    manifest = json.loads((dist_dir / "web" / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == manifest["scope"] == "../"      # the site's root, from web/
    assert manifest["name"] and manifest["short_name"] and manifest["theme_color"] and manifest["background_color"]
    # One manifest for every language: the English, and the Turkish in its "translations".
    assert manifest["lang"] == "en" and manifest["translations"]["tr"]["short_name"] == "Kart masası"
    assert set(manifest["translations"]["tr"]) == {"name", "short_name", "description"}
    # A Turkish page links its own manifest (web/first-words.js): the Turkish words on top.
    turkish = json.loads((dist_dir / "web" / "manifest.tr.webmanifest").read_text(encoding="utf-8"))
    assert turkish["lang"] == "tr" and turkish["short_name"] == "Kart masası" and "translations" not in turkish
    assert {k: v for k, v in turkish.items() if k not in ("lang", *manifest["translations"]["tr"])} == \
        {k: v for k, v in manifest.items() if k not in ("lang", "translations", *manifest["translations"]["tr"])}
    purposes = {}
    for icon in manifest["icons"]:
        png = (dist_dir / "web" / icon["src"]).read_bytes()
        assert png[:8] == b"\x89PNG\r\n\x1a\n"
        width, height = struct.unpack(">II", png[16:24])
        assert icon["sizes"] == f"{width}x{height}" and icon["type"] == "image/png"
        purposes.setdefault(icon["purpose"], set()).add(width)
    assert purposes == {"any": set(ICON_SIZES), "maskable": set(ICON_SIZES)}
    assert 'rel="manifest" href="web/manifest.webmanifest"' in (dist_dir / "index.html").read_text(encoding="utf-8")


def test_a_maskable_icon_keeps_its_drawing_inside_the_safe_circle():
    """Launchers cut a maskable icon to any shape holding the circle of 40% radius:
    outside it, nothing but the felt."""
    n = 200
    for i in range(n):
        for j in range(n):
            x, y = (i + 0.5) / n, (j + 0.5) / n
            if (x - 0.5) ** 2 + (y - 0.5) ** 2 > 0.4 ** 2:
                assert icon_paint(x, y) == ICON_FELT, (x, y)


def test_chromium_finds_the_site_installable_and_the_service_worker_keeps_the_manifest(
        browser_type, browser_type_launch_args, dist_dir, tmp_path):
    # A profile on disk: Chromium never offers to install from an incognito one (a plain context).
    with SiteServer(dist_dir) as server, browser_type.launch_persistent_context(
            tmp_path / "profile", **browser_type_launch_args) as context:
        page = context.new_page()
        page.goto(server.url + "?delay=0")
        # Active once it has cached the whole build (awaited in the page: a predicate of
        # wait_for_function that returns a promise counts as true at once).
        page.evaluate("""() => navigator.serviceWorker.ready""")
        cdp = context.new_cdp_session(page)
        manifest = cdp.send("Page.getAppManifest")
        assert manifest["url"] == server.url + "web/manifest.webmanifest"
        assert manifest["errors"] == []
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
        kept = page.evaluate("""async () => {
          const cache = await caches.open((await caches.keys()).find((n) => n.startsWith("pishe-")));
          const has = async (f) => Boolean(await cache.match(new URL(f, location.href).href));
          return [await has("web/manifest.webmanifest"), await has("web/icons/icon-192.png"),
                  await has("web/icons/icon-512.png")];
        }""")
        assert kept == [True, True, True]
