"""The build (pins, trimmed lock, dist/ layout, build info) and the browser
plumbing around Python: web/core/worker.js, web/core/boot.js, the service worker."""

from __future__ import annotations

import ast
import base64
import email.message
import gzip
import hashlib
import io
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tarfile
import textwrap
import time
import tokenize
import types
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

import pytest

import catalogs
from pishe.table.game import game_ids
from pishe.lang import PSEUDO
from pishe.table.words import LOADING, START_FAILED
from pishe.web import FIRST_GAME, FRIENDS_CALLS
from returning import welcome_back
from sitebuild.common import BuildError, ROOT, RUNTIME_FILES, SETTINGS_FILES, cache_dir
from sitebuild.compress import COMPRESSIBLE, ENCODINGS, precompress
from sitebuild.friends import FRIENDS_ZIP, friends_scripts
from sitebuild.games import GAME_ZIP, game_scripts
from sitebuild.icons import ICON_SIZES
from sitebuild.markup import registered_games
from sitebuild.minify import minified, minify
from sitebuild.pins import (ESBUILD_PIN, NOBLE_DIR, NOBLE_PINS, NOSTR_BUNDLE, NOSTR_MODULE, PINS, Pin, copy_runtime,
                            fetch_pinned)
from sitebuild.serve import SiteServer
from sitebuild.site import BUILD_TOKEN, LOADING_TOKEN
from sitebuild.stdlib import STDLIB_FIRST, STDLIB_MICROPIP, STDLIB_REST, module_names
from sitebuild.wheel import NOT_IN_PAGE_WHEEL, build_pishe_wheel, compile_wheel, strip_source, write_wheel

BOOT_TIMEOUT_MS = 90_000  # a cold Pyodide boot takes ~5 s here; CI machines can be slower

# A page that only loads boot.js. It is not part of the site: the tests hand it
# to the browser with page.route at this address, inside the service worker's scope.
HARNESS = "test-harness.html"
HARNESS_HTML = """<!doctype html>
<html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>boot.js harness</title></head>
<body><script type="module">
import { startWorker, registerOffline } from "./web/core/boot.js";
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


#: Our scripts that build.py writes the build info into, each with the keys it reads.
INFO_SCRIPTS = ("sw.js", "web/core/worker.js", "web/games/registry.js", "web/first-words.js")


def later_games() -> list[str]:
    """The game packages whose code a first visit does not download: every one but the first game's."""
    games = registered_games()
    return list(dict.fromkeys(game.package for game in games if game.package != games[0].package))


def info_literal(text: str) -> tuple[int, int]:
    """Where the build info literal is in a script's text as shipped: its start and end. The
    script is minified (BUILD renamed, keys of other objects unquoted), the literal is JSON: the
    first object after an "=" whose first key is quoted."""
    start = re.search(r'=(\{"\w+":)', text).start(1)
    return start, json.JSONDecoder().raw_decode(text, start)[1]


def script_info(dist: Path, script: str) -> dict:
    """The build info literal that build.py wrote into dist/`script`."""
    text = (dist / script).read_text()
    start, end = info_literal(text)
    return json.loads(text[start:end])


def source_of(rel: str) -> Path:
    """The repository's file that the site's file ``rel`` (sw.js, or under web/) is built from."""
    return ROOT / "web" / rel.removeprefix("web/")


def build_info(dist: Path) -> dict:
    """The build info, as build.py wrote it into our scripts (each has the keys it reads)."""
    return {key: value for script in INFO_SCRIPTS for key, value in script_info(dist, script).items()}


#: The suffixes of the precompressed copies, which the build info does not list.
COPIES = tuple(ENCODINGS.values())


def shipped(dist: Path) -> list[str]:
    """Every file of `dist`, as paths relative to it."""
    return sorted(p.relative_to(dist).as_posix() for p in dist.rglob("*") if p.is_file())


def brotli_decompress(data: bytes) -> bytes:
    """Brotli-decoded `data`, by Node's zlib (Python's standard library has no brotli)."""
    script = ('const z = require("node:zlib"); const chunks = [];'
              'process.stdin.on("data", (c) => chunks.push(c));'
              'process.stdin.on("end", () => process.stdout.write(z.brotliDecompressSync(Buffer.concat(chunks))));')
    return subprocess.run(["node", "-e", script], input=data, capture_output=True, check=True).stdout


#: The harness with web/core/start.js in its <head>, as index.html has it: Python starts
#: before boot.js loads, and startWorker() takes that worker over.
HARNESS_STARTED_HTML = HARNESS_HTML.replace("</title>", '</title><script async src="web/core/start.js"></script>')

# Counts the workers the page starts (window.__workers), before any page script runs.
COUNT_WORKERS = """
window.__workers = 0;
const PageWorker = window.Worker;
window.Worker = class extends PageWorker {
  constructor(...args) { super(...args); window.__workers += 1; }
};
"""


def open_harness(page, server, html: str = HARNESS_HTML) -> None:
    page.route(server.url + HARNESS, lambda route: route.fulfill(body=html, content_type="text/html"))
    page.goto(server.url + HARNESS)
    page.wait_for_selector("body[data-loaded=true]", state="attached")


# --- the build --------------------------------------------------------------


def test_trimmed_lock_lists_exactly_the_shipped_packages_with_their_true_hashes(dist_dir):
    lock = json.loads((dist_dir / "pyodide" / "pyodide-lock.json").read_text())
    with tarfile.open(fetch_pinned(PINS["pyodide"])) as tar:
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
        # A game's markup is written into index.html, not shipped as files.
        and not (p.relative_to(ROOT / "web").parts[0] == "games" and p.suffix == ".html")
    }
    pishe_wheel = build_info(dist_dir)["wheels"]["pishe"]
    expected = web | {
        "sw.js",
        "pyodide/pyodide.mjs",
        "pyodide/pyodide.asm.mjs",
        "pyodide/pyodide.asm.wasm",
        "pyodide/python_stdlib.zip",
        STDLIB_MICROPIP,
        STDLIB_REST,
        "pyodide/pyodide-lock.json",
        f"pyodide/{PINS['micropip'].filename}",
        f"wheels/{PINS['segno'].filename}",
        NOSTR_MODULE,
        pishe_wheel,
        FRIENDS_ZIP,
        # Each game's Python but the first game's, for when it is first dealt.
        *(GAME_ZIP.format(package=package) for package in later_games()),
        *(f"web/icons/icon-{size}.png" for size in ICON_SIZES),
        # The page's static words in each language but English, and the pseudo-language's;
        # each such language's catalogs, for Python.
        *(f"web/lang/{code}.js" for code in (*catalogs.LANGUAGES, PSEUDO)),
        *(f"wheels/pishe-{code}.zip" for code in catalogs.LANGUAGES),
        # The app's manifest in each language but English, its words on top (web/first-words.js
        # links it on a page in that language).
        *(f"web/manifest.{code}.webmanifest" for code in catalogs.LANGUAGES),
    }
    for name in ("index.html", *SETTINGS_FILES):
        if (ROOT / name).exists():
            expected.add(name)
    found = {rel for rel in shipped(dist_dir) if not rel.endswith(COPIES)}
    # @noble/curves, as many of its modules as ed25519.js imports (a friends' table loads them).
    noble = {rel for rel in found if rel.startswith(f"{NOBLE_DIR}/")}
    assert f"{NOBLE_DIR}/curves/ed25519.js" in noble and all(rel.endswith(".js") for rel in noble)
    assert noble <= set(build_info(dist_dir)["later"])
    assert found == expected | noble
    assert re.fullmatch(r"wheels/pishe-[^-]+-py3-none-any\.whl", pishe_wheel)


def test_build_info_is_written_into_our_scripts(dist_dir):
    info = build_info(dist_dir)
    assert info["files"] == sorted(rel for rel in shipped(dist_dir) if not rel.endswith(COPIES))
    assert re.fullmatch(r"[0-9a-f]{12}", info["id"])
    assert all((dist_dir / path).is_file() for path in info["wheels"].values())
    for script in INFO_SCRIPTS:  # minifying renames BUILD: the keys each reads, in its source
        text = source_of(script).read_text()
        assert script_info(dist_dir, script) == {key: info[key] for key in set(re.findall(r"\bBUILD\.(\w+)", text))}
    assert set(info) == {"id", "wheels", "files", "online", "later", "stdlib", "friends", "game_code", "loading",
                         "downloads", "games", "titles", "languages"}
    for path in ["sw.js", *(f for f in info["files"] if f.startswith("web/") and f.endswith(".js"))]:
        assert BUILD_TOKEN not in (dist_dir / path).read_text(), path
    # The loading line is worded in Python, before Python runs in the page: by the build.
    assert info["loading"] == LOADING
    # The games in their declared order (Game.order): the page's first game (web/games/registry.js)
    # is Python's (pishe.web.FIRST_GAME).
    assert list(info["games"]) == list(game_ids()) and list(info["games"])[0] == FIRST_GAME
    assert info["downloads"] == {rel: (dist_dir / rel).stat().st_size for rel in
                                 ("pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip", info["wheels"]["pishe"])}
    if (dist_dir / "index.html").exists():
        page = (dist_dir / "index.html").read_text()
        assert LOADING_TOKEN not in page and f"data-loader-stage>{LOADING['start']}…<" in page
    # Pyodide's own files are shipped untouched, but its standard library, split in three
    # (tests/test_first_visit.py): every module of it in one of them, the same or stripped
    # (or, at the first visit's, compiled: NAME.pyc for NAME.py).
    with tarfile.open(fetch_pinned(PINS["pyodide"])) as tar:
        for name in RUNTIME_FILES:
            upstream = tar.extractfile(f"package/{name}").read()
            if name != "python_stdlib.zip":
                assert sha256(dist_dir / "pyodide" / name) == hashlib.sha256(upstream).hexdigest(), name
                continue
            with zipfile.ZipFile(io.BytesIO(upstream)) as whole:
                files = {i.filename for i in whole.infolist() if not i.is_dir()}
            parts = [STDLIB_FIRST, STDLIB_MICROPIP, STDLIB_REST]
            shipped_files = [{name[:-1] if name.endswith(".pyc") else name
                              for name in zipfile.ZipFile(dist_dir / part).namelist()}
                             for part in parts]
            assert set.union(*shipped_files) == files and sum(map(len, shipped_files)) == len(files)


def test_our_scripts_and_style_sheets_ship_minified(dist_dir):
    """sw.js and web/'s scripts and style sheets ship as esbuild minified them: no comment left,
    each at most 3/4 of its source's bytes (the build info, written in after, not counted). The
    vendored libraries (checked above and below) and the word files the build writes compact
    (test_the_catalogs_ship_compiled_and_small) are not minified."""
    ours = [rel for rel in build_info(dist_dir)["files"] if minified(rel)]
    assert {"sw.js", "web/core/worker.js", "web/core/start.js", "web/style.css"} <= set(ours)
    assert all(rel == "sw.js" or rel.startswith("web/") and not rel.startswith("web/lang/") for rel in ours)
    for rel in ours:
        text = (dist_dir / rel).read_text(encoding="utf-8")
        if rel in INFO_SCRIPTS:
            start, end = info_literal(text)
            text = text[:start] + BUILD_TOKEN + text[end:]
        assert len(text.encode()) <= 0.75 * source_of(rel).stat().st_size, rel
        assert not re.search(r"/\*|^\s*//", text, re.M), rel


def test_minify_keeps_what_other_files_reach_by_name_and_caches_its_results(tmp_path, monkeypatch):
    """A module keeps its exports' and imports' names and the globals it reads, a classic script its
    top-level names (globals other scripts call); only names no other file sees are shortened.
    A file minified before is taken from the cache: no Node runs for it."""
    module = textwrap.dedent("""\
        // A comment, which goes.
        import { farAway } from "./far.js";
        const BUILD = __PISHE_BUILD__;
        function helperWithALongName(value) { return farAway(value) + BUILD.id + self.pisheGlobal; }
        export function painted(value) { return helperWithALongName(value); }
        export const COUNT_OF_THINGS = 2;
        """)
    classic = textwrap.dedent("""\
        /* A classic script: its top-level names are globals. */
        const pisheTopLevel = "Türkçe …";
        function pisheClassicHelper(longParameter) { return longParameter + pisheTopLevel; }
        self.pisheThing = pisheClassicHelper;
        """)
    files = {"web/module.js": module, "sw.js": classic, "web/look.css": "/* gone */\n.card  {  color: #ffffff; }\n"}
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    minify(tmp_path, list(files))
    out = {rel: (tmp_path / rel).read_text(encoding="utf-8") for rel in files}
    assert "comment" not in out["web/module.js"] and "helperWithALongName" not in out["web/module.js"]
    for kept in ('from"./far.js"', "farAway", "__PISHE_BUILD__", ".id", "self.pisheGlobal",
                 "export function painted(", "export const COUNT_OF_THINGS=2"):
        assert kept in out["web/module.js"], kept
    assert "classic" not in out["sw.js"] and "longParameter" not in out["sw.js"]
    for kept in ('const pisheTopLevel="Türkçe …"', "function pisheClassicHelper(", "self.pisheThing=pisheClassicHelper"):
        assert kept in out["sw.js"], kept
    assert out["web/look.css"].strip() == ".card{color:#fff}"

    for rel, text in files.items():
        (tmp_path / rel).write_text(text, encoding="utf-8")
    monkeypatch.setattr("sitebuild.minify.run_node", lambda *args: pytest.fail("minified again, not taken from the cache"))
    minify(tmp_path, list(files))
    assert {rel: (tmp_path / rel).read_text(encoding="utf-8") for rel in files} == out


def test_the_nostr_library_is_the_pinned_bundle_as_a_module_left_to_the_network(dist_dir):
    """vendor/nostr-tools.mjs is nostr-tools' browser bundle, byte for byte, with one
    export added; the service worker keeps neither it nor the files a host edits."""
    with tarfile.open(fetch_pinned(PINS["nostr-tools"])) as tar:
        bundle = tar.extractfile(NOSTR_BUNDLE).read()
    assert (dist_dir / NOSTR_MODULE).read_bytes() == bundle + b"\nexport default NostrTools;\n"
    assert build_info(dist_dir)["online"] == sorted({NOSTR_MODULE, *SETTINGS_FILES}
                                                    & set(build_info(dist_dir)["files"]))


def test_every_pin_matches_its_cached_file():
    for name, pin in {**PINS, **NOBLE_PINS, "esbuild-wasm": ESBUILD_PIN}.items():
        assert sha256(fetch_pinned(pin)) == pin.sha256, name


def test_a_corrupted_cached_download_is_fetched_again(tmp_path, monkeypatch):
    pin = PINS["micropip"]
    cache = tmp_path / "cache"
    cache.mkdir()
    corrupted = bytearray(fetch_pinned(pin).read_bytes())
    corrupted[100] ^= 0xFF
    (cache / pin.filename).write_bytes(corrupted)
    monkeypatch.setenv("PISHE_CACHE", str(cache))
    fetched = fetch_pinned(pin)
    assert fetched == cache / pin.filename
    assert sha256(fetched) == pin.sha256


def test_a_download_with_the_wrong_hash_is_refused(tmp_path):
    # A "download" that writes the wrong bytes, as a tampered mirror would.
    pin = Pin("thing-1.0-py3-none-any.whl", hashlib.sha256(b"expected").hexdigest(),
                    (sys.executable, "-c", "open('thing-1.0-py3-none-any.whl', 'wb').write(b'tampered')"))
    with pytest.raises(BuildError, match="refusing thing-1.0-py3-none-any.whl"):
        fetch_pinned(pin, tmp_path)
    assert list(tmp_path.iterdir()) == []


def record_of(wheel: zipfile.ZipFile) -> dict[str, str]:
    """RECORD of a wheel as {file: "sha256=...,size"}, after checking it covers every file."""
    record_name = next(n for n in wheel.namelist() if n.endswith(".dist-info/RECORD"))
    rows = dict(line.split(",", 1) for line in wheel.read(record_name).decode().splitlines())
    assert rows.pop(record_name) == ","
    assert set(rows) == set(wheel.namelist()) - {record_name}
    for name, row in rows.items():
        data = wheel.read(name)
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        assert row == f"sha256={digest},{len(data)}", name
    return rows


def without_docstrings(source: str) -> str:
    tree = ast.parse(source)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and body
                and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)):
            node.body = body[1:] or [ast.Pass()]
    return ast.dump(tree)


def test_pishe_wheel_holds_the_package_stripped_and_nothing_else(tmp_path):
    path = build_pishe_wheel(tmp_path)
    with zipfile.ZipFile(path) as wheel:
        record_of(wheel)
        modules = {n for n in wheel.namelist() if not n.startswith("pishe-") and not n.endswith(".mo")}
        sources = {p.relative_to(ROOT).as_posix() for p in (ROOT / "pishe").rglob("*.py")
                   if "__pycache__" not in p.parts}
        # The package but its command line; no tests, docs, caches or stray files.
        assert modules == sources - NOT_IN_PAGE_WHEEL
        # And its catalogs, compiled: one .mo beside each .po.
        assert {n for n in wheel.namelist() if n.endswith(".mo")} == {
            p.relative_to(ROOT).with_suffix(".mo").as_posix() for p in (ROOT / "pishe").rglob("*.po")}
        assert not [n for n in NOT_IN_PAGE_WHEEL if "web" in n or "__init__" in n]
        dist_info = {n.split("/", 1)[1] for n in wheel.namelist() if n.startswith("pishe-")}
        assert dist_info == {"METADATA", "WHEEL", "RECORD"}
        metadata = wheel.read(next(n for n in wheel.namelist() if n.endswith("METADATA"))).decode()
        assert "Name: pishe\n" in metadata and "Version: " in metadata
        for info in wheel.infolist():
            assert info.compress_type == zipfile.ZIP_STORED, info.filename  # the server's brotli copy compresses it
            assert info.flag_bits & 0x800, info.filename  # UTF-8 names: no cp437 codec import
        for name in sorted(modules):
            stripped = wheel.read(name).decode()
            # The same code as the repository's module, without docstrings and comments.
            assert without_docstrings(stripped) == without_docstrings((ROOT / name).read_text()), name
            tokens = tokenize.generate_tokens(io.StringIO(stripped).readline)
            assert not [t for t in tokens if t.type == tokenize.COMMENT], name
    assert build_pishe_wheel(tmp_path / "again").read_bytes() == path.read_bytes()


def test_the_page_gets_the_stripped_pishe_as_bytecode(dist_dir, tmp_path):
    """The shipped wheel, with the friends' table's zip and each game's beside it, is the stripped
    one compiled for Pyodide's CPython, module for module, so the page compiles none of our
    Python on start-up; the wheel keeps the first game's, and the registry's declaration."""
    stripped = build_pishe_wheel(tmp_path)
    with zipfile.ZipFile(stripped) as source, \
            zipfile.ZipFile(dist_dir / build_info(dist_dir)["wheels"]["pishe"]) as shipped:
        record_of(shipped)
        expected = {n + "c" if n.endswith(".py") else n for n in source.namelist()
                    if not n.endswith(("/RECORD", ".mo"))}  # the catalogs: test_the_catalogs_ship_compiled_and_small
        in_wheel = {n for n in shipped.namelist() if not n.endswith("/RECORD")}
        apart = [zipfile.ZipFile(dist_dir / FRIENDS_ZIP),
                 *(zipfile.ZipFile(dist_dir / GAME_ZIP.format(package=p)) for p in later_games())]
        parts = [set(part.namelist()) for part in apart]
        assert sum(map(len, parts)) == len(set().union(*parts)) and not in_wheel & set().union(*parts)
        assert in_wheel.union(*parts) == expected | {"pishe/games/declared.json"}
        assert json.loads(shipped.read("pishe/games/declared.json"))[0]["ids"][0] == FIRST_GAME
        assert all(info.compress_type == zipfile.ZIP_STORED for part in apart for info in part.infolist())
        magics = {shipped.read(n)[:4] for n in shipped.namelist() if n.endswith(".pyc")}
        assert {part.read(n)[:4] for part in apart for n in part.namelist()} == magics
        for part in apart:
            part.close()
        micropip = dist_dir / "pyodide" / PINS["micropip"].filename
        with zipfile.ZipFile(micropip) as compiled:  # Pyodide's CPython 3.14 (checked below)
            assert magics == {compiled.read(n)[:4] for n in compiled.namelist() if n.endswith(".pyc")}
        assert all(info.flag_bits & 0x800 for info in shipped.infolist())


# The pishe modules a page's Python imports, in a fresh interpreter (this repository's
# sources, CPython): "computer", the computer's table playing every game (a deal's worth of
# steps at the first level, a timeout, a match restored, the language switched, the page's
# words); "friends", a friends' table of every game opened, joined and dealt (no-peek), a few
# moves played by the host and the guest, and brought back.
_TABLE_RUN = """
import json, sys
import pishe.on_demand, pishe.web as web
from pishe.table.game import game_ids, get_game

def call(name, *args):
    return json.loads(getattr(web, name)(*args))

for game in game_ids():
    if sys.argv[1] == "computer":
        call("set_language", "tr")
        answer = call("new_match", None, 1, game, 15, next(iter(get_game(game).levels), None))
        moves = 0
        while moves < 60 and not answer["view"]["match"]["over"]:   # the next deal, the computers', yours
            view, moves = answer["view"], moves + 1
            next_step = (("next_deal",) if view["match"]["next_deal"] else ("computer_step",)
                         if answer["computer_moves"] else ("act", str(view["legal"][0])))
            answer = call(*next_step)
        call("timeout"), call("take_over"), call("restore_match", answer["saved"])
        call("set_language", "en"), call("current"), call("say_again", answer.get("said") or [])
    else:
        def carry(answer, guest_answers=False):
            # The messages of a host's answer to the guest, or of a guest's to the host, and
            # theirs back, until neither page has more to send.
            for message in answer["send"]:
                if guest_answers:
                    carry(call("host_receive", message))
                else:
                    carry(call("guest_receive", message["text"], False), True)

        call("host_open", None, None, game)
        carry(call("guest_open", None, None), True)       # hello, welcome, the no-peek deal's rounds
        if call("host_current")["status"]["phase"] != "playing":     # seats kept for friends: computers take them
            carry(call("host_deal_now"))
        for _ in range(6):                                   # a few moves of each page
            host, guest = (call(name)["view"] or {} for name in ("host_current", "guest_saved"))
            if host.get("legal"):
                carry(call("host_act", str(host["legal"][0])))
            elif guest.get("legal"):
                carry(call("guest_intent", str(guest["legal"][0]), False), True)
        call("host_open", None, call("host_current")["saved"], game)
print(json.dumps(sorted(name for name in sys.modules if name.startswith("pishe"))))
"""


def table_runs(*kinds: str) -> list[set]:
    """The modules each of `kinds` of _TABLE_RUN imports (the runs side by side)."""
    runs = [subprocess.Popen([sys.executable, "-c", _TABLE_RUN, kind], cwd=ROOT, stdout=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONPATH": str(ROOT)}) for kind in kinds]
    outs = [run.communicate(timeout=120)[0] for run in runs]
    assert [run.returncode for run in runs] == [0] * len(runs)
    return [set(json.loads(out)) for out in outs]


def test_only_a_friends_tables_modules_leave_the_wheel(dist_dir):
    """The friends' zip (build.py finds its modules from the code's imports) holds every
    module a friends' table imports and the computer's table does not, and none the
    computer's table imports: a first visit has all the computer's table needs."""
    info = build_info(dist_dir)
    with zipfile.ZipFile(dist_dir / FRIENDS_ZIP) as friends:
        moved = set(module_names(n.removesuffix("c") for n in friends.namelist()))
    computer, friends_table = table_runs("computer", "friends")
    assert not moved & computer, "the computer's table imports these: keep them in the wheel"
    assert friends_table - computer == moved, "only a friends' table imports these: into the friends' zip"
    assert info["friends"] == {"url": FRIENDS_ZIP, "names": sorted(moved), "calls": list(FRIENDS_CALLS)}


def test_a_friends_tables_scripts_are_imported_when_one_opens(dist_dir):
    """Its JavaScript (what web/tables/friends.js imports when a friends' table opens) is
    neither loaded nor preloaded by the page, nor kept by the service worker's install:
    it keeps them, and the Python zip, once fetched (test_the_site_works_offline_after_one_visit)."""
    scripts = friends_scripts(dist_dir)
    assert set(scripts) == {f"web/tables/friend/{p.name}" for p in (ROOT / "web" / "tables" / "friend").glob("*.js")} \
        | {"web/core/rtc.js", "web/core/group.js"}
    page = (dist_dir / "index.html").read_text()
    assert [s for s in scripts if s in page] == [] and '<script type="module" src="web/tables/friends.js">' in page
    assert {FRIENDS_ZIP, *scripts} <= set(build_info(dist_dir)["later"])


def test_stripped_wheel_runs_like_the_repository(tmp_path):
    with zipfile.ZipFile(build_pishe_wheel(tmp_path / "wheel")) as wheel:
        wheel.extractall(tmp_path)
    script = ("import json, pishe, pishe.web; print(pishe.__file__); "
              "print(pishe.web.new_match('one-deal', 7)); print(pishe.web.act('turn'))")
    installed = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True,
                               check=True).stdout.splitlines()
    repo = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True,
                          check=True).stdout.splitlines()
    assert installed[0].startswith(str(tmp_path)) and repo[0].startswith(str(ROOT))
    assert installed[1:] == repo[1:]


def test_strip_source_keeps_code_and_drops_docstrings_and_comments():
    source = textwrap.dedent('''\
        """Module."""
        from __future__ import annotations
        x = 1  # comment
        class A:
            """Only a docstring."""
        def f(a: int = 2) -> str:
            """Doc."""
            s = "# not a comment"
            return f"{a!r:>4} {s}"
        ''')
    stripped = strip_source(source)
    assert "Module." not in stripped and "Doc." not in stripped and "# comment" not in stripped
    assert "# not a comment" in stripped
    scope = {}
    exec(compile(stripped, "<stripped>", "exec"), scope)
    assert scope["f"]() == "   2 # not a comment" and scope["A"].__doc__ is None and scope["x"] == 1


def test_micropip_ships_precompiled_for_pyodide(dist_dir):
    """micropip's modules as .pyc for Pyodide's CPython (as Pyodide's own build does):
    the browser does not compile them on every start-up."""
    shipped = dist_dir / "pyodide" / PINS["micropip"].filename
    with zipfile.ZipFile(fetch_pinned(PINS["micropip"])) as pypi, zipfile.ZipFile(shipped) as ours:
        record_of(ours)
        expected = {n + "c" if n.endswith(".py") else n for n in pypi.namelist() if not n.endswith("/RECORD")}
        assert set(ours.namelist()) - {n for n in ours.namelist() if n.endswith("/RECORD")} == expected
        with tarfile.open(fetch_pinned(PINS["pyodide"])) as tar:
            # Pyodide 314 is CPython 3.14: its bytecode's magic number is the one in the .pyc files.
            assert json.load(tar.extractfile("package/pyodide-lock.json"))["info"]["python"].startswith("3.14")
        magics = {ours.read(n)[:4] for n in ours.namelist() if n.endswith(".pyc")}
        assert len(magics) == 1
        assert all(info.flag_bits & 0x800 for info in ours.infolist())


def test_a_corrupted_compiled_wheel_is_compiled_again(dist_dir, tmp_path):
    """A cached compiled wheel that is not a sound zip is compiled again, to the very bytes
    shipped (the compile is reproducible). The cache's layout is the one the build's own
    cache has: its copy (made by the session's build) tells where the corrupted one goes."""
    micropip = fetch_pinned(PINS["micropip"])
    # The runtime as the build compiled with it: Pyodide's, its whole standard library.
    runtime = tmp_path / "runtime"
    lock = copy_runtime(fetch_pinned(PINS["pyodide"]), runtime)
    good = (dist_dir / "pyodide" / micropip.name).read_bytes()
    kept = compile_wheel(micropip, runtime, lock)  # the build's cache: no compile
    assert kept.read_bytes() == good
    corrupted = tmp_path / kept.relative_to(cache_dir())
    corrupted.parent.mkdir(parents=True)
    corrupted.write_bytes(good[: len(good) // 2])
    compiled = compile_wheel(micropip, runtime, lock, tmp_path)
    assert compiled == corrupted and compiled.name == micropip.name
    assert compiled.read_bytes() == good  # compiled again, reproducibly
    assert sorted(p.name for p in tmp_path.iterdir()) == ["compiled", "runtime"]  # no scratch folder left behind


# --- the local server ---------------------------------------------------------


def fetch(url: str, **headers) -> tuple[int, "email.message.Message", bytes]:
    request = urllib.request.Request(url, headers=headers)
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as err:
        return err.code, err.headers, err.read()


def test_text_and_wasm_have_precompressed_copies_that_decompress_to_them(dist_dir):
    """Beside each text file, the wasm, the standard library's zips and the wheels: NAME.br
    and NAME.gz, the file's own bytes once decoded and smaller than it. The settings a host
    edits have none."""
    files = set(shipped(dist_dir))
    copies = {rel for rel in files if rel.endswith(COPIES)}
    for rel in sorted(files - copies):
        has = {suffix for suffix in COPIES if rel + suffix in files}
        if rel in SETTINGS_FILES or not rel.endswith(COMPRESSIBLE):
            assert has == set(), rel
            continue
        original = (dist_dir / rel).read_bytes()
        if len(original) > 1000:  # a tiny file may gain nothing from it, and go as it is
            assert has == set(COPIES), rel
        for suffix in has:
            copy = (dist_dir / (rel + suffix)).read_bytes()
            assert len(copy) < len(original), rel + suffix
            if suffix == ".gz":
                assert gzip.decompress(copy) == original, rel + suffix
    # Brotli's decoder is Node's: one run for the largest files, the wasm among them.
    for rel in ("pyodide/pyodide.asm.wasm", "pyodide/pyodide.asm.mjs", "web/core/worker.js"):
        assert brotli_decompress((dist_dir / (rel + ".br")).read_bytes()) == (dist_dir / rel).read_bytes(), rel
    wasm = (dist_dir / "pyodide" / "pyodide.asm.wasm").stat().st_size
    assert (dist_dir / "pyodide" / "pyodide.asm.wasm.gz").stat().st_size < wasm * 0.4


def test_server_sends_a_precompressed_copy_when_accepted(site, dist_dir):
    def plain(rel):
        return (dist_dir / rel).read_bytes()

    for rel, mime in (("index.html", "text/html"), ("sw.js", "text/javascript"),
                      ("web/core/worker.js", "text/javascript"), ("web/style.css", "text/css"),
                      ("pyodide/pyodide-lock.json", "application/json"),
                      ("pyodide/pyodide.asm.wasm", "application/wasm"),
                      ("pyodide/python_stdlib.zip", "application/zip"),
                      (build_info(dist_dir)["wheels"]["pishe"], "application/zip")):
        if not (dist_dir / rel).exists():
            continue
        # Brotli first when both are accepted (Chromium sends "gzip, deflate, br, zstd").
        status, headers, body = fetch(site.url + rel, **{"Accept-Encoding": "gzip, deflate, br, zstd"})
        assert status == 200 and headers["Content-Encoding"] == "br", rel
        assert body == (dist_dir / (rel + ".br")).read_bytes() and int(headers["Content-Length"]) == len(body)
        assert headers["Content-Type"].split(";")[0] == mime and headers["Vary"] == "Accept-Encoding", rel
        for accept in ({"Accept-Encoding": "gzip"}, {"Accept-Encoding": "br;q=0, *"}, {"Accept-Encoding": "x-gzip"}):
            status, headers, body = fetch(site.url + rel, **accept)
            assert status == 200 and headers["Content-Encoding"] == "gzip", (rel, accept)
            assert gzip.decompress(body) == plain(rel) and headers["Content-Type"].split(";")[0] == mime
        # Without an encoding it has (or with both refused) the file itself comes.
        for accept in ({}, {"Accept-Encoding": "deflate"}, {"Accept-Encoding": "gzip;q=0, br;q=0"},
                       {"Accept-Encoding": "*;q=0"}):
            status, headers, body = fetch(site.url + rel, **accept)
            assert status == 200 and "Content-Encoding" not in headers, (rel, accept)
            assert body == plain(rel) and headers["Vary"] == "Accept-Encoding", (rel, accept)
    status, headers, body = fetch(site.url, **{"Accept-Encoding": "gzip"})  # "/" is index.html
    assert status == 200 and gzip.decompress(body) == plain("index.html")
    assert headers["Content-Type"].startswith("text/html")

    # The settings as they are, without Vary: they have no copies.
    for rel in ("signaling.json",):
        status, headers, body = fetch(site.url + rel, **{"Accept-Encoding": "gzip, br"})
        assert status == 200 and "Content-Encoding" not in headers and "Vary" not in headers, rel
        assert body == plain(rel), rel

    # Revalidation, a HEAD and a missing file behave as for plain files.
    status, headers, _ = fetch(site.url + "sw.js", **{"Accept-Encoding": "gzip"})
    later = time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime(time.time() + 60))
    assert fetch(site.url + "sw.js", **{"Accept-Encoding": "gzip", "If-Modified-Since": later})[0] == 304
    head = urllib.request.Request(site.url + "sw.js", method="HEAD", headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(head) as response:
        assert response.headers["Content-Length"] == headers["Content-Length"] and response.read() == b""
    assert fetch(site.url + "no-such-file.js", **{"Accept-Encoding": "gzip"})[0] == 404


def test_a_file_edited_after_the_build_is_sent_as_it_is_now(tmp_path):
    """A copy older than its file is not sent: an edit in dist/ is never hidden by it."""
    (tmp_path / "a.js").write_text("old")
    precompress(tmp_path, ["a.js"], tmp_path / "cache")  # too small: no copies
    assert not (tmp_path / "a.js.gz").exists()
    (tmp_path / "a.js").write_text("let x = 1;\n" * 200)
    assert precompress(tmp_path, ["a.js"], tmp_path / "cache") == ["a.js.br", "a.js.gz"]
    with SiteServer(tmp_path) as server:
        assert gzip.decompress(fetch(server.url + "a.js", **{"Accept-Encoding": "gzip"})[2]) == b"let x = 1;\n" * 200
        time.sleep(0.01)  # a later modification time than the copies'
        (tmp_path / "a.js").write_text("edited")
        status, headers, body = fetch(server.url + "a.js", **{"Accept-Encoding": "gzip, br"})
        assert body == b"edited" and "Content-Encoding" not in headers


def test_build_py_serve_prints_the_address_and_serves_the_site(tmp_path):
    out = tmp_path / "site"
    server = subprocess.Popen([sys.executable, str(ROOT / "build.py"), "--out", str(out), "serve", "--port", "0"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        built = server.stdout.readline()
        assert built.startswith(f"built {out} (build ")
        address = re.fullmatch(r"Play the computer at (http://127\.0\.0\.1:\d+/)\n", server.stdout.readline())
        assert address, "no address printed"
        status, headers, body = fetch(address.group(1) + "sw.js")
        assert status == 200 and body == (out / "sw.js").read_bytes()
    finally:
        server.terminate()
        server.wait(timeout=10)


# --- the worker protocol, against a stand-in pishe.web ----------------------

STUB_WEB = '''
"""Stand-in for pishe.web: just enough to exercise the worker's call protocol."""
import importlib.util
import json
import random
import sys

__all__ = ["echo", "fail", "not_json", "installed", "qr_matrix", "draw"]


def echo(*args):
    return json.dumps({"args": list(args), "types": [type(a).__name__ for a in args]})


def fail(message):
    raise ValueError(message)


def not_json():
    return 42


def hidden():
    return "{}"


def installed(name):
    return json.dumps({"found": importlib.util.find_spec(name) is not None, "imported": name in sys.modules})


def qr_matrix(text):
    import segno
    return json.dumps(segno.make(text, micro=False).symbol_size(scale=1, border=0))


def draw():
    return json.dumps(random.getrandbits(64))
'''


@pytest.fixture(scope="module")
def stub_dist(dist_dir, tmp_path_factory) -> Path:
    """A copy of dist/ whose pishe wheel (same file name) holds only STUB_WEB as pishe.web
    (and pishe.on_demand, which the worker installs before it, and a pishe.page for the
    worker's outbox). The copy's files are hard links to dist/'s (the wheel is unlinked, then
    written anew)."""
    dist = tmp_path_factory.mktemp("stub") / "dist"
    shutil.copytree(dist_dir, dist, copy_function=os.link)
    wheel = dist / build_info(dist)["wheels"]["pishe"]
    version = wheel.name.split("-")[1]
    wheel.unlink()  # a hard link: writing through it would change dist/'s own wheel
    write_wheel(wheel, {
        "pishe/__init__.py": b"",
        "pishe/web.py": STUB_WEB.encode(),
        "pishe/on_demand.py": (ROOT / "pishe" / "on_demand.py").read_bytes(),
        "pishe/page.py": b"outbox = None\n",   # where the worker puts a friend's channel
        f"pishe-{version}.dist-info/METADATA": f"Metadata-Version: 2.1\nName: pishe\nVersion: {version}\n".encode(),
        f"pishe-{version}.dist-info/WHEEL": b"Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    })
    return dist


# The first start, in a page whose <head> started the worker (start.js): its progress, the
# call protocol (a call sent before ready included), a draw, then what is installed before
# and after the first QR code. Ends once its snapshot is stored, then ends the worker.
FIRST_START = """async (ms) => {
    const progress = [];
    const py = startWorker((p, stage, until) => progress.push([p, stage, until ?? null]));
    const early = py.call("echo", {a: [1, 2]}, ["x"], "s", 3, null);  // before ready
    const ready = await settle(py.ready, ms);
    const out = {
        progress, ready,
        early: await settle(early, ms),
        fail: await settle(py.call("fail", "boom"), ms),
        missing: await settle(py.call("missing"), ms),
        hidden: await settle(py.call("hidden"), ms),
        private: await settle(py.call("__import__", "os"), ms),
        notJson: await settle(py.call("not_json"), ms),
        after: await settle(py.call("echo"), ms),
        draw: await settle(py.call("draw"), ms),
        before: await settle(py.call("installed", "segno"), ms),
        installed: await settle(py.call("installed", "micropip"), ms),
    };
    out.qr = await Promise.all([settle(py.call("qr_matrix", "hello"), ms), settle(py.call("qr_matrix", "again"), ms)]);
    out.afterQr = await settle(py.call("installed", "segno"), ms);
    out.workers = window.__workers;
    const deadline = performance.now() + ms;
    const cache = await caches.open("python-memory");
    while (ready.result && ready.result.snapshot === "taken" && (await cache.keys()).length === 0
           && performance.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
    }
    py.worker.terminate();
    return out;
}"""

# Starts workers one after another in the page: each returns {ready, draw, installed, qr}.
# After a start that took a snapshot, waits until it is stored (it is not awaited before
# ready): until a snapshot is stored and it is another than before that start (told by its
# size and its header, which holds Pyodide's build id). Each worker is ended once done.
RESTARTS = """async ([ms, starts]) => {
    const stored = async () => {
        const cache = await caches.open("python-memory");
        return Promise.all((await cache.keys()).map(async (request) => {
            const blob = await (await cache.match(request)).blob();
            const header = new Uint8Array(await blob.slice(0, 64).arrayBuffer());
            return [new URL(request.url).pathname, blob.size, header.join(",")];
        }));
    };
    const out = [];
    for (let i = 0; i < starts; i++) {
        const before = JSON.stringify(await stored());
        const py = startWorker();
        const ready = await settle(py.ready, ms);
        out.push({ready, draw: await settle(py.call("draw"), ms), installed: await settle(py.call("installed", "micropip"), ms),
                  qr: await settle(py.call("qr_matrix", "hello"), ms)});
        const deadline = performance.now() + ms;
        const changed = async () => { const now = await stored(); return now.length > 0 && JSON.stringify(now) !== before; };
        while (ready.result && ready.result.snapshot === "taken" && !(await changed()) && performance.now() < deadline) {
            await new Promise((resolve) => setTimeout(resolve, 50));
        }
        py.worker.terminate();
    }
    return {starts: out, stored: (await stored()).map(([path, size]) => [path, size])};
}"""

CORRUPT_SNAPSHOT = """async () => {
    const cache = await caches.open("python-memory");
    const [request] = await cache.keys();
    const bytes = new Uint8Array(await (await cache.match(request)).arrayBuffer());
    bytes[16] ^= 0xff;  // the header's first byte of Pyodide's build id
    await cache.put(request, new Response(bytes));
}"""


@pytest.fixture(scope="module")
def stub_starts(browser, stub_dist):
    """Every start of the stand-in's worker, in one browser context (one origin), so that
    they share what the browser keeps, as one visitor's starts do:

    failed     a first start whose pishe wheel is missing (HTTP 404): {ready, early, late}
    first      the first start of a working site (FIRST_START), its snapshot stored
    restarts   RESTARTS of one more start
    corrupted  RESTARTS of two starts after the stored snapshot was made unrestorable
    errors     the console errors of the page of every start but the failed one's
    """
    context = browser.new_context()
    try:
        with SiteServer(stub_dist) as server:
            broken = context.new_page()
            broken.route(server.url + build_info(stub_dist)["wheels"]["pishe"],
                         lambda route: route.fulfill(status=404, body="not found"))
            open_harness(broken, server)
            failed = broken.evaluate("""async (ms) => {
                const py = startWorker();
                const early = py.call("echo");
                const ready = await settle(py.ready, ms);
                const why = await py.ready.catch((err) => ({why: err.why, detail: err.detail}));
                return {ready, why, early: await settle(early, ms), late: await settle(py.call("echo"), ms)};
            }""", BOOT_TIMEOUT_MS)
            broken.close()

            page = context.new_page()
            errors: list[str] = []
            page.on("console", lambda msg: errors.append(f"console: {msg.text}") if msg.type == "error" else None)
            page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
            page.add_init_script(COUNT_WORKERS)
            open_harness(page, server, HARNESS_STARTED_HTML)
            page.wait_for_function("window.pisheWorker && window.pisheWorker.early.length > 0")
            first = page.evaluate(FIRST_START, BOOT_TIMEOUT_MS)
            restarts = page.evaluate(RESTARTS, [BOOT_TIMEOUT_MS, 1])
            page.evaluate(CORRUPT_SNAPSHOT)
            corrupted = page.evaluate(RESTARTS, [BOOT_TIMEOUT_MS, 2])
        yield {"failed": failed, "first": first, "restarts": restarts, "corrupted": corrupted, "errors": errors}
    finally:
        context.close()


def test_worker_boots_with_progress_and_answers_calls(stub_starts):
    """The worker that start.js started from the page's <head> is the one startWorker()
    takes (its messages before then replayed): one worker, every milestone shown."""
    out = stub_starts["first"]
    assert out["workers"] == 1
    ms = out["ready"]["result"]
    assert [k for k in ms] == ["start", "runtime", "python", "wheels", "ready", "page", "snapshot"]
    assert ms["snapshot"] == "taken"  # a first start: the next one restores it
    assert ms["start"] <= ms["runtime"] <= ms["python"] <= ms["wheels"] <= ms["ready"]
    fractions = [p for p, *_ in out["progress"]]
    assert fractions == sorted(fractions) and 0 < fractions[0] and fractions[-1] < 1
    assert [stage for _, stage, _ in out["progress"]][0] == LOADING["start"]
    assert {stage for _, stage, _ in out["progress"]} == set(LOADING.values())
    # Python's start is a step of its own, which says where it ends (the page moves the bar
    # on meanwhile); the next milestone begins there.
    starting = [i for i, (_, stage, _) in enumerate(out["progress"]) if stage == LOADING["runtime"]]
    assert len(starting) == 1 and out["progress"][starting[0]][2] == out["progress"][starting[0] + 1][0] == 0.94
    assert [until for *_, until in out["progress"] if until is not None] == [0.94]
    assert out["early"] == {"result": {"args": [{"a": [1, 2]}, ["x"], "s", 3, None],
                                       "types": ["dict", "list", "str", "int", "NoneType"]}}
    assert out["fail"] == {"error": "ValueError: boom"}
    assert out["missing"] == {"error": "LookupError: pishe.web has no function 'missing'"}
    assert out["hidden"] == {"error": "LookupError: pishe.web has no function 'hidden'"}
    assert out["private"] == {"error": "LookupError: pishe.web has no function '__import__'"}
    assert out["notJson"] == {"error": "pishe.web.not_json did not return a JSON string"}
    assert out["after"] == {"result": {"args": [], "types": []}}
    assert stub_starts["errors"] == []


def test_segno_and_micropip_are_loaded_on_first_use_not_at_start_up(stub_starts):
    out = stub_starts["first"]
    assert "result" in out["ready"], out
    assert out["before"] == {"result": {"found": False, "imported": False}}
    # micropip too is loaded only for segno: start-up unpacks the pishe wheel without it.
    assert out["installed"] == {"result": {"found": False, "imported": False}}
    assert out["qr"] == [{"result": [21, 21]}, {"result": [21, 21]}]
    assert out["afterQr"] == {"result": {"found": True, "imported": True}}
    assert stub_starts["errors"] == []


def test_later_starts_restore_the_first_starts_snapshot_of_python(stub_starts, stub_dist):
    """The first start stores a snapshot of Python's memory in the browser under the build's
    id; every later start restores it instead of starting the interpreter, then works as a
    first start does: wheels installed on demand (micropip too is loaded after the
    restore), and `random` reseeded, not replaying the snapshot's numbers."""
    first = stub_starts["first"]
    out = stub_starts["restarts"]
    starts = [{**first, "qr": first["qr"][0]}, *out["starts"]]
    assert [s["ready"]["result"]["snapshot"] for s in starts] == ["taken", "restored"], starts
    for s in starts:
        assert s["installed"] == {"result": {"found": False, "imported": False}}
        assert s["qr"] == {"result": [21, 21]}
    draws = [s["draw"]["result"] for s in starts]
    assert len(set(draws)) == 2, draws
    [(path, size)] = out["stored"]
    assert path == f"/python-memory/{build_info(stub_dist)['id']}" and size > 16 << 20
    assert stub_starts["errors"] == []


def test_a_snapshot_that_cannot_be_restored_is_replaced(stub_starts, stub_dist):
    """A stored snapshot that Pyodide refuses (here: another Pyodide build's id in its
    header) costs one plain start, which stores a sound one."""
    out = stub_starts["corrupted"]
    starts = out["starts"]
    assert [s["ready"]["result"]["snapshot"] for s in starts] == ["taken", "restored"], starts
    assert all(s["qr"] == {"result": [21, 21]} for s in starts)
    assert all(s["installed"] == {"result": {"found": False, "imported": False}} for s in starts)
    assert len({s["draw"]["result"] for s in starts}) == 2
    [(path, size)] = out["stored"]  # the refused one replaced, under the same key
    assert path == f"/python-memory/{build_info(stub_dist)['id']}" and size > 16 << 20
    assert stub_starts["errors"] == []


def test_a_failed_boot_is_reported_as_fatal(stub_starts):
    """By its cause, which the page words (pishe/table/words.py's START_FAILED), and the
    error's own words for a bug report; at once (the start does not go on without the wheel)."""
    out = stub_starts["failed"]
    stage, _, why = out["ready"]["error"].partition(" failed: ")
    assert stage in LOADING.values() and why.startswith("could not download wheels/") and why.endswith("HTTP 404")
    assert out["early"] == out["late"] == out["ready"]
    assert out["why"]["why"] == "download" and "HTTP 404" in out["why"]["detail"]
    assert out["why"]["why"] in START_FAILED


# --- the real pishe.web -----------------------------------------------------

needs_web = pytest.mark.skipif(not (ROOT / "pishe" / "web.py").exists(), reason="pishe/web.py not written yet")


@pytest.fixture(scope="module")
def real_web_starts(browser, module_site):
    """A start of the real pishe.web in a returning visitor's browser (tests/returning.py: a
    real first visit's snapshot, which the site's own first visits in test_first_visit.py and
    the stand-in's starts above take): it restores Python's memory and deals every game.
    {ready, missing (a call to no such function), dealt, blank, errors}."""
    context = browser.new_context()
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("console", lambda msg: errors.append(f"console: {msg.text}") if msg.type == "error" else None)
        page.on("pageerror", lambda exc: errors.append(f"pageerror: {exc}"))
        welcome_back(page, module_site)
        open_harness(page, module_site)
        out = page.evaluate("""async ([ms, games]) => {
            const py = startWorker();
            const ready = await settle(py.ready, ms);
            const missing = await settle(py.call("no_such_function"), ms);
            const dealt = [];
            for (const game of games) {
                const answer = await settle(py.call("new_match", null, 7, game), ms);
                dealt.push(answer.result ? answer.result.view.game : answer);
            }
            const blank = await settle(py.call("blank_view", games[games.length - 1], "guest"), ms);
            return {ready, missing, dealt, blank: blank.result ? blank.result.view.game : blank};
        }""", [BOOT_TIMEOUT_MS, list(game_ids())])
        yield {**out, "errors": errors}
    finally:
        context.close()


@needs_web
def test_the_real_pishe_web_boots_and_answers(real_web_starts):
    out = real_web_starts
    assert "result" in out["ready"], out
    assert out["missing"] == {"error": "LookupError: pishe.web has no function 'no_such_function'"}
    assert out["errors"] == []


@needs_web
def test_the_real_pishe_web_restored_from_a_snapshot_plays_every_game(real_web_starts):
    """A start that restores the snapshot of Python's memory (the first game and the table
    in it) imports the rest from the wheel unpacked again: every game deals, and the
    friend's table (pishe.web_friends) answers."""
    out = real_web_starts
    assert out["ready"]["result"]["snapshot"] == "restored", out
    assert out["dealt"] == list(game_ids())
    assert out["blank"] == game_ids()[-1]
    assert out["errors"] == []


@needs_web
def test_dist_works_from_another_static_server(page, dist_dir, console_errors):
    """dist/ is the whole site: Python's own http.server (no gzip, its own MIME
    table) serves it as well as build.py's server does."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1",
                               "--directory", str(dist_dir)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        url = f"http://127.0.0.1:{port}/"
        for _ in range(100):
            try:
                urllib.request.urlopen(url + "sw.js").close()
                break
            except OSError:
                time.sleep(0.1)
        errors = console_errors(page)
        open_harness(page, types.SimpleNamespace(url=url))
        out = page.evaluate("""async (ms) => {
            const py = startWorker();
            return {ready: await settle(py.ready, ms), missing: await settle(py.call("no_such_function"), ms)};
        }""", BOOT_TIMEOUT_MS)
        assert "result" in out["ready"], out
        assert "no_such_function" in out["missing"]["error"]
        assert errors == []
    finally:
        server.terminate()
        server.wait(timeout=10)


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
    # micropip and segno (an invite's QR code) are not downloaded by a first visit: the
    # service worker keeps them when the page first asks for them.
    later = build_info(dist_dir)["later"]
    # The no-peek deal's arithmetic (@noble/curves) comes when a friends' table opens, as does
    # the rest of its code (its Python, its scripts).
    noble = [f for f in later if f.startswith(f"{NOBLE_DIR}/")]
    assert f"{NOBLE_DIR}/curves/ed25519.js" in noble
    assert sorted(later) == sorted([f"pyodide/{PINS['micropip'].filename}",
                                    f"wheels/{PINS['segno'].filename}", STDLIB_MICROPIP, STDLIB_REST,
                                    f"web/lang/{PSEUDO}.js", *noble, FRIENDS_ZIP,
                                    *friends_scripts(dist_dir),
                                    *(GAME_ZIP.format(package=p) for p in later_games()),
                                    *game_scripts(dist_dir, registered_games())])
    kept = page.evaluate("""async (later) => {
        const cache = await caches.open((await caches.keys())[0]);
        const scope = (await navigator.serviceWorker.ready).scope;
        const held = () => Promise.all(later.map(async (f) => Boolean(await cache.match(new URL(f, scope).href))));
        const before = await held();
        for (const f of later) await fetch(new URL(f, scope));
        return {before, after: await held()};
    }""", later)
    assert kept == {"before": [False] * len(later), "after": [True] * len(later)}

    site.stop()
    out = page.evaluate("""async (ms) => {
        const py = startWorker();
        return {ready: await settle(py.ready, ms), missing: await settle(py.call("no_such_function"), ms),
                qr: await settle(py.call("qr_matrix", "https://example.org/#offer"), ms),
                turkish: await settle(py.call("set_language", "tr"), ms)};
    }""", BOOT_TIMEOUT_MS)
    assert "result" in out["ready"], out
    assert "no_such_function" in out["missing"]["error"]
    # segno, installed on first use, comes from the cache too (kept when it was first fetched).
    assert set(out["qr"]["result"]["rows"][0]) == {"0"} and "1" in out["qr"]["result"]["rows"][4], out["qr"]
    # Turkish, whose words a first visit in English never asked for: kept at install.
    assert out["turkish"]["result"]["words"]["waiting"] == "Arkadaşın bekleniyor…", out["turkish"]
    assert errors == []
    if (dist_dir / "index.html").exists():
        # Only the documents are checked here; the table page's own behaviour is tested elsewhere.
        for address in ("", "index.html", "index.html?delay=0", "?x=1"):
            response = page.goto(site.url + address, wait_until="commit")
            assert response.ok and response.from_service_worker, address

    # stop() and start() keep the origin, so the same service worker applies.
    site.start()
    with urllib.request.urlopen(site.url + "sw.js") as response:
        assert response.status == 200


def test_the_catalogs_ship_compiled_and_small(dist_dir):
    """Each language but English has its catalogs compiled (.mo) in a zip of its own, which the
    worker fetches only once a page speaks that language (the service worker keeps it, as the
    page's static words, for offline play), never in the wheel every start downloads; both
    add at most 30 KB on the wire (brotli'd or gzipped as the server sends them)."""
    info = build_info(dist_dir)
    with zipfile.ZipFile(dist_dir / info["wheels"]["pishe"]) as wheel:
        assert not [n for n in wheel.namelist() if n.endswith(".mo")]
    assert info["languages"] == {"tr": "wheels/pishe-tr.zip"}
    catalogs = dist_dir / info["languages"]["tr"]
    with zipfile.ZipFile(catalogs) as z:
        held = set(z.namelist())
    # The table's catalog and each game's own.
    assert held == {"pishe/table/locale/tr/LC_MESSAGES/table.mo"} | {
        f"{po.relative_to(ROOT).with_suffix('.mo').as_posix()}"
        for po in (ROOT / "pishe" / "games").glob("*/locale/tr/LC_MESSAGES/*.po")}
    words = dist_dir / "web" / "lang" / "tr.js"
    assert {"wheels/pishe-tr.zip", "web/lang/tr.js"} <= set(info["files"]) - set(info["later"]) - set(info["online"])
    sent = [min((path.with_name(path.name + ext) for ext in (".br", ".gz")), key=lambda p: p.stat().st_size)
            for path in (catalogs, words)]
    total = sum(path.stat().st_size for path in sent)
    print(f"Turkish on the wire: {' + '.join(f'{path.name} {path.stat().st_size} B' for path in sent)} = {total} B")
    assert total <= 30_000
    assert '"Turn a card":"Kart çevir"' in words.read_text(encoding="utf-8")
