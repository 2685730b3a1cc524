"""The build (pins, trimmed lock, dist/ layout, build info) and the browser
plumbing around Python: web/worker.js, web/boot.js, the service worker."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
import subprocess
import sys
import tarfile
import textwrap
import urllib.request
from pathlib import Path

import pytest

import build

ROOT = build.ROOT
BOOT_TIMEOUT_MS = 90_000  # a cold Pyodide boot takes ~5 s here; CI machines can be slower

# A page that only loads boot.js. It is not part of the site: the tests hand it
# to the browser with page.route at this address, inside the service worker's scope.
HARNESS = "test-harness.html"
HARNESS_HTML = """<!doctype html>
<html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>boot.js harness</title></head>
<body><script type="module">
import { startWorker, registerOffline } from "./web/boot.js";
// Settle a promise as {result} or {error}, failing it if it takes longer than ms.
const settle = (promise, ms) => Promise.race([
  promise.then((result) => ({ result }), (err) => ({ error: err.message })),
  new Promise((resolve) => setTimeout(() => resolve({ error: "timed out" }), ms)),
]);
Object.assign(window, { startWorker, registerOffline, settle });
document.body.dataset.loaded = "true";
</script></body></html>
"""


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def build_info(dist: Path) -> dict:
    """The build info literal that build.py wrote into dist/sw.js."""
    text = (dist / "sw.js").read_text()
    return json.loads(re.search(r"const BUILD = (\{.*?\});", text).group(1))


def open_harness(page, server) -> None:
    page.route(server.url + HARNESS, lambda route: route.fulfill(body=HARNESS_HTML, content_type="text/html"))
    page.goto(server.url + HARNESS)
    page.wait_for_selector("body[data-loaded=true]", state="attached")


# --- the build --------------------------------------------------------------


def test_trimmed_lock_lists_exactly_the_shipped_packages_with_their_true_hashes(dist_dir):
    lock = json.loads((dist_dir / "pyodide" / "pyodide-lock.json").read_text())
    with tarfile.open(build.fetch_pinned(build.PINS["pyodide"])) as tar:
        upstream = json.load(tar.extractfile("package/pyodide-lock.json"))
    needed, todo = set(), ["micropip"]
    while todo:
        name = todo.pop()
        needed.add(name)
        todo.extend(upstream["packages"][name]["depends"])
    assert set(lock["packages"]) == needed
    assert lock["info"] == upstream["info"]
    for name, entry in lock["packages"].items():
        assert entry["sha256"] == sha256(dist_dir / "pyodide" / entry["file_name"]), name
    # The reason the lock is rewritten: Pyodide's own micropip build is not the PyPI wheel.
    assert lock["packages"]["micropip"]["sha256"] != upstream["packages"]["micropip"]["sha256"]


def test_dist_holds_only_the_expected_files(dist_dir):
    web = {
        f"web/{p.relative_to(ROOT / 'web').as_posix()}"
        for p in (ROOT / "web").rglob("*")
        if p.is_file() and p.name != "sw.js" and "__pycache__" not in p.parts
    }
    pishe_wheel = build_info(dist_dir)["wheels"]["pishe"]
    expected = web | {
        "sw.js",
        "pyodide/pyodide.mjs",
        "pyodide/pyodide.asm.mjs",
        "pyodide/pyodide.asm.wasm",
        "pyodide/python_stdlib.zip",
        "pyodide/pyodide-lock.json",
        f"pyodide/{build.PINS['micropip'].filename}",
        f"wheels/{build.PINS['segno'].filename}",
        pishe_wheel,
    }
    if (ROOT / "index.html").exists():
        expected.add("index.html")
    found = {p.relative_to(dist_dir).as_posix() for p in dist_dir.rglob("*") if p.is_file()}
    assert found == expected
    assert re.fullmatch(r"wheels/pishe-[^-]+-py3-none-any\.whl", pishe_wheel)


def test_build_info_is_written_into_our_scripts(dist_dir):
    info = build_info(dist_dir)
    found = sorted(p.relative_to(dist_dir).as_posix() for p in dist_dir.rglob("*") if p.is_file())
    assert info["files"] == found
    assert re.fullmatch(r"[0-9a-f]{12}", info["id"])
    assert all((dist_dir / path).is_file() for path in info["wheels"].values())
    worker = (dist_dir / "web" / "worker.js").read_text()
    assert f"const BUILD = {json.dumps(info)};" in worker
    for path in ["sw.js", *(f for f in info["files"] if f.startswith("web/") and f.endswith(".js"))]:
        assert build.BUILD_TOKEN not in (dist_dir / path).read_text(), path
    # Pyodide's own files are shipped untouched.
    with tarfile.open(build.fetch_pinned(build.PINS["pyodide"])) as tar:
        for name in build.RUNTIME_FILES:
            upstream = hashlib.sha256(tar.extractfile(f"package/{name}").read()).hexdigest()
            assert sha256(dist_dir / "pyodide" / name) == upstream, name


def test_every_pin_matches_its_cached_file():
    for name, pin in build.PINS.items():
        assert sha256(build.fetch_pinned(pin)) == pin.sha256, name


def test_a_corrupted_cached_download_is_fetched_again(tmp_path, monkeypatch):
    pin = build.PINS["micropip"]
    cache = tmp_path / "cache"
    cache.mkdir()
    corrupted = bytearray(build.fetch_pinned(pin).read_bytes())
    corrupted[100] ^= 0xFF
    (cache / pin.filename).write_bytes(corrupted)
    monkeypatch.setenv("PISHE_CACHE", str(cache))
    fetched = build.fetch_pinned(pin)
    assert fetched == cache / pin.filename
    assert sha256(fetched) == pin.sha256


def test_a_download_with_the_wrong_hash_is_refused(tmp_path):
    # A "download" that writes the wrong bytes, as a tampered mirror would.
    pin = build.Pin("thing-1.0-py3-none-any.whl", hashlib.sha256(b"expected").hexdigest(),
                    (sys.executable, "-c", "open('thing-1.0-py3-none-any.whl', 'wb').write(b'tampered')"))
    with pytest.raises(build.BuildError, match="refusing thing-1.0-py3-none-any.whl"):
        build.fetch_pinned(pin, tmp_path)
    assert list(tmp_path.iterdir()) == []


# --- the worker protocol, against a stand-in pishe.web ----------------------

STUB_WEB = '''
"""Stand-in for pishe.web: just enough to exercise the worker's call protocol."""
import json

__all__ = ["echo", "fail", "not_json"]


def echo(*args):
    return json.dumps({"args": list(args), "types": [type(a).__name__ for a in args]})


def fail(message):
    raise ValueError(message)


def not_json():
    return 42


def hidden():
    return "{}"
'''


@pytest.fixture(scope="module")
def stub_dist(dist_dir, tmp_path_factory) -> Path:
    """A copy of dist/ whose pishe wheel (same file name) holds only STUB_WEB as pishe.web."""
    tmp = tmp_path_factory.mktemp("stub")
    dist = tmp / "dist"
    shutil.copytree(dist_dir, dist)
    wheel = dist / build_info(dist)["wheels"]["pishe"]
    version = wheel.name.split("-")[1]
    project = tmp / "project"
    (project / "pishe").mkdir(parents=True)
    (project / "pyproject.toml").write_text(textwrap.dedent(f"""\
        [build-system]
        requires = ["setuptools>=61"]
        build-backend = "setuptools.build_meta"
        [project]
        name = "pishe"
        version = "{version}"
        """))
    (project / "pishe" / "__init__.py").write_text("")
    (project / "pishe" / "web.py").write_text(STUB_WEB)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir",
                    str(tmp / "wheel"), str(project)], check=True)
    shutil.copy2(tmp / "wheel" / wheel.name, wheel)
    return dist


def test_worker_boots_with_progress_and_answers_calls(page, stub_dist, console_errors):
    errors = console_errors(page)
    with build.SiteServer(stub_dist) as server:
        open_harness(page, server)
        out = page.evaluate("""async (ms) => {
            const progress = [];
            const py = startWorker((p, stage) => progress.push([p, stage]));
            const early = py.call("echo", {a: [1, 2]}, ["x"], "s", 3, null);  // before ready
            const ready = await settle(py.ready, ms);
            return {
                progress, ready,
                early: await settle(early, ms),
                fail: await settle(py.call("fail", "boom"), ms),
                missing: await settle(py.call("missing"), ms),
                hidden: await settle(py.call("hidden"), ms),
                private: await settle(py.call("__import__", "os"), ms),
                notJson: await settle(py.call("not_json"), ms),
                after: await settle(py.call("echo"), ms),
            };
        }""", BOOT_TIMEOUT_MS)
    ms = out["ready"]["result"]
    assert [k for k in ms] == ["start", "runtime", "python", "wheels", "ready", "page"]
    assert ms["start"] <= ms["runtime"] <= ms["python"] <= ms["wheels"] <= ms["ready"]
    fractions = [p for p, _ in out["progress"]]
    assert fractions == sorted(fractions) and 0 < fractions[0] and fractions[-1] < 1
    assert all(stage for _, stage in out["progress"])
    assert out["early"] == {"result": {"args": [{"a": [1, 2]}, ["x"], "s", 3, None],
                                       "types": ["dict", "list", "str", "int", "NoneType"]}}
    assert out["fail"] == {"error": "ValueError: boom"}
    assert out["missing"] == {"error": "LookupError: pishe.web has no function 'missing'"}
    assert out["hidden"] == {"error": "LookupError: pishe.web has no function 'hidden'"}
    assert out["private"] == {"error": "LookupError: pishe.web has no function '__import__'"}
    assert out["notJson"] == {"error": "pishe.web.not_json did not return a JSON string"}
    assert out["after"] == {"result": {"args": [], "types": []}}
    assert errors == []


def test_a_failed_boot_is_reported_as_fatal(page, stub_dist, tmp_path):
    broken = tmp_path / "dist"
    shutil.copytree(stub_dist, broken)
    (broken / build_info(broken)["wheels"]["pishe"]).unlink()
    with build.SiteServer(broken) as server:
        open_harness(page, server)
        out = page.evaluate("""async (ms) => {
            const py = startWorker();
            const early = py.call("echo");
            const ready = await settle(py.ready, ms);
            return {ready, early: await settle(early, ms), late: await settle(py.call("echo"), ms)};
        }""", BOOT_TIMEOUT_MS)
    assert out["ready"]["error"].startswith("Installing the game failed: ")
    assert out["early"] == out["late"] == out["ready"]


# --- the real pishe.web -----------------------------------------------------

needs_web = pytest.mark.skipif(not (ROOT / "pishe" / "web.py").exists(), reason="pishe/web.py not written yet")


@needs_web
def test_the_real_pishe_web_boots_and_answers(page, site, console_errors):
    errors = console_errors(page)
    open_harness(page, site)
    out = page.evaluate("""async (ms) => {
        const py = startWorker();
        return {ready: await settle(py.ready, ms), missing: await settle(py.call("no_such_function"), ms)};
    }""", BOOT_TIMEOUT_MS)
    assert "result" in out["ready"], out
    assert out["missing"] == {"error": "LookupError: pishe.web has no function 'no_such_function'"}
    assert errors == []


@needs_web
def test_the_site_works_offline_after_one_visit(page, site, dist_dir, console_errors):
    errors = console_errors(page)
    open_harness(page, site)
    registered = page.evaluate("""async () => {
        const registration = await registerOffline();
        await navigator.serviceWorker.ready;
        // The new worker claims this page once it has cached the whole build.
        if (!navigator.serviceWorker.controller) {
            await new Promise((resolve) => navigator.serviceWorker.addEventListener("controllerchange", resolve));
        }
        return {scope: registration.scope, caches: await caches.keys()};
    }""")
    assert registered == {"scope": site.url, "caches": [f"pishe-{build_info(dist_dir)['id']}"]}

    site.stop()
    out = page.evaluate("""async (ms) => {
        const py = startWorker();
        return {ready: await settle(py.ready, ms), missing: await settle(py.call("no_such_function"), ms)};
    }""", BOOT_TIMEOUT_MS)
    assert "result" in out["ready"], out
    assert "no_such_function" in out["missing"]["error"]
    assert errors == []
    if (dist_dir / "index.html").exists():
        # Only the documents are checked here; the table page's own behaviour is tested elsewhere.
        for address in ("", "index.html", "index.html?delay=0", "?x=1"):
            response = page.goto(site.url + address)
            assert response.ok and response.from_service_worker, address

    # stop() and start() keep the origin, so the same service worker applies.
    site.start()
    with urllib.request.urlopen(site.url + "sw.js") as response:
        assert response.status == 200
