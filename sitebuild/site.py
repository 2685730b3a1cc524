"""The site's assembly: every step of the build, in order, into a folder swapped in at the end.

dist/ layout:
    index.html            the table page (skipped while the repo has none), with every
                          registered game's markup written in (sitebuild/markup.py)
    ice-servers.json      STUN/TURN servers for a friend's table (self-hosters edit it)
    signaling.json        Nostr relays that carry a friend's answer back (self-hosters edit it)
    sw.js                 service worker, at the root so its scope is the whole site
    web/...               everything else under web/ (manifest.webmanifest, the app's manifest,
                          and manifest.<code>.webmanifest, each other language's)
    web/icons/            the app's icons, drawn by the build (sitebuild/icons.py)
    web/lang/<code>.js    the page's static words in each language but English (sitebuild/words.py)
    pyodide/              Pyodide runtime, trimmed pyodide-lock.json, micropip wheel (as bytecode),
                          python_stdlib.zip: only the modules the page imports (stripped;
                          the start-up's as bytecode, as far as STDLIB_FIRST_BYTES allows),
                          python_stdlib_micropip.zip: what micropip adds, fetched with it,
                          python_stdlib_rest.zip: the rest, fetched on first import
                          (sitebuild/stdlib.py)
    wheels/               the pishe wheel (docstrings and comments stripped, as bytecode),
                          pishe-<code>.zip: a language's catalogs (sitebuild/wheel.py),
                          pishe-friends.zip: the modules only a friends' table imports
                          (sitebuild/friends.py), pishe-game-<package>.zip: a game's modules,
                          each game's but the first's (sitebuild/games.py), and the segno wheel
    vendor/nostr-tools.mjs  nostr-tools' browser bundle as an ES module, for a friend's table only
    vendor/noble/         the no-peek deal's arithmetic, for a friend's table only
    *.br, *.gz            precompressed copies (not in the build info's file list: sitebuild/compress.py)

The placeholder __PISHE_BUILD__ in our JavaScript files is replaced by the build
info, a JSON object literal: {"id": ..., "wheels": {...}, "files": [...], "online": [...],
"later": [...], "stdlib": [{"url", "names"}], "friends": {"url", "names", "calls"},
"game_code": [{"url", "names", "unpack"}], "loading": {...}, "titles": {...},
"downloads": {...}, "games": {...}, "languages": {code: zip}},
each script's with only the keys it reads (as BUILD.<key>: build_literal).
"stdlib" lists the zips of the standard library's modules a first visit does not
download (see split_stdlib) and the modules each holds; "friends" the zip of the modules only
a friends' table imports, those modules and pishe.web's calls that need them (split_friends);
"game_code" the zip of each game's modules but the first game's, and those modules (split_games).
"loading" holds the loading line's words by
start-up milestone (pishe/table/words.py: the page shows them before Python runs,
and index.html's __PISHE_LOADING__ becomes the first of them); "downloads" the
sizes of the files the worker downloads to start, for its progress bar.
"online" lists the files the service worker does not keep for offline use: what
a self-hoster edits in dist/ (were they kept, an edit would never reach a
returning visitor) and the Nostr library (a friend's table needs the network anyway, and
the computer table must not download it).
"later" lists the files it keeps on their first use instead of at install: micropip
and segno, which only an invite's QR code needs, the standard library's modules micropip
adds, the rest of the standard library, the pseudo-language's words, and a friends' table's
code: its Python's zip, its scripts (friends_scripts) and the no-peek deal's arithmetic, and
each game's code but the first game's: its Python's zip and its painter's scripts (game_scripts)
(a first visit downloads none of them).
"games" maps every registered game's id to its folder under web/games/ (its painter), in the
games' declared order; "titles" their tab titles in each language but English (tab_titles).
"languages" maps each language but English to the zip of its catalogs (split_catalogs).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import tempfile
from pathlib import Path

from sitebuild.common import DIST, LOCK_NAME, ROOT, SETTINGS_FILES, sha256_file
from sitebuild.compress import precompress
from sitebuild.friends import FRIENDS_ZIP, friends_scripts, split_friends
from sitebuild.games import game_scripts, split_games
from sitebuild.icons import ICON_SIZES, icon_png
from sitebuild.markup import game_markup, registered_games
from sitebuild.minify import NO_MINIFY_ENV, minified, minify
from sitebuild.pins import (NOBLE_DIR, NOSTR_MODULE, PINS, copy_noble, copy_nostr, copy_runtime, fetch_pinned,
                            trimmed_lock)
from sitebuild.stdlib import STDLIB_MICROPIP, STDLIB_REST, split_stdlib
from sitebuild.wheel import build_pishe_wheel, compile_wheel, split_catalogs
from sitebuild.words import (loading_words, pseudo_language, start_failed_markup, tab_titles, write_manifest,
                              write_page_words)

BUILD_TOKEN = "__PISHE_BUILD__"
# In index.html: the loading line's first words (pishe/table/words.py's LOADING["start"]).
LOADING_TOKEN = "__PISHE_LOADING__"
# In index.html: why the game could not start, by cause (pishe/table/words.py's START_FAILED).
START_FAILED_TOKEN = "__PISHE_START_FAILED__"


def _copy_web(stage: Path) -> None:
    """Copy index.html and the settings files (when there) and web/ into the staging folder;
    the games' markup goes into index.html (game_markup), not into the site as files."""
    # The settings sit beside index.html so that a self-hoster can edit them in dist/.
    for name in ("index.html", *SETTINGS_FILES):
        if (ROOT / name).exists():
            shutil.copy2(ROOT / name, stage / name)
    web = ROOT / "web"
    for src in sorted(web.rglob("*")):
        rel = src.relative_to(web)
        if src.is_dir() or any(part.startswith(".") or part == "__pycache__" for part in rel.parts):
            continue
        if rel.parts[0] == "games" and rel.suffix == ".html":
            continue
        # sw.js goes to the root: a service worker only controls pages at or below its own URL.
        dst = stage / "sw.js" if rel == Path("sw.js") else stage / "web" / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dst)


def build_literal(info: dict, script: str) -> str:
    """The build info as the JSON literal for `script` (its text): only the keys it reads
    as BUILD.<key>, so that no script carries the others' lists (the standard library's
    module names are most of the info, and only the worker reads them)."""
    read = set(re.findall(r"\bBUILD\.(\w+)", script))
    return json.dumps({key: value for key, value in info.items() if key in read}, separators=(",", ":"))


def _content_id(stage: Path, files: list[str]) -> str:
    """Short hash over every file's path and bytes (before the build info is inserted)."""
    digest = hashlib.sha256()
    for rel in files:
        digest.update(f"{rel}\0{sha256_file(stage / rel)}\n".encode())
    return digest.hexdigest()[:12]


def build(dist: Path = DIST) -> dict:
    """Build the site into `dist` (replacing it) and return the build info."""
    pinned = {name: fetch_pinned(pin) for name, pin in PINS.items()}
    # Assemble next to dist/ and swap at the end, so a failed build leaves the old dist/ intact.
    dist.parent.mkdir(parents=True, exist_ok=True)
    stage = Path(tempfile.mkdtemp(dir=dist.parent, prefix=".dist-"))
    stage.chmod(0o755)  # mkdtemp makes it private; a web server may run as another user
    try:
        _copy_web(stage)
        (stage / "web" / "icons").mkdir()
        for size in ICON_SIZES:
            (stage / "web" / "icons" / f"icon-{size}.png").write_bytes(icon_png(size))
        write_page_words(stage / "web" / "lang")
        write_manifest(stage / "web" / "manifest.webmanifest")
        lock = copy_runtime(pinned["pyodide"], stage / "pyodide")
        micropip = stage / "pyodide" / pinned["micropip"].name
        shutil.copyfile(compile_wheel(pinned["micropip"], stage / "pyodide", lock), micropip)
        (stage / "pyodide" / LOCK_NAME).write_text(
            json.dumps(trimmed_lock(lock, {"micropip": micropip}), indent=1) + "\n")
        # Our modules as bytecode too, compiled from the stripped sources: the page
        # imports pishe.web on every start-up, and compiling it there was most of
        # that import's time (~5x the bytecode's).
        (stage / "wheels").mkdir()
        with tempfile.TemporaryDirectory() as scratch:
            compiled = compile_wheel(build_pishe_wheel(Path(scratch)), stage / "pyodide", lock)
            pishe = Path(shutil.copyfile(compiled, stage / "wheels" / compiled.name))
        shutil.copyfile(pinned["segno"], stage / "wheels" / pinned["segno"].name)
        on_demand = split_stdlib(stage / "pyodide", lock, micropip, pishe, pinned["segno"])
        # After the trace, which speaks Turkish and opens a friends' table too: the catalogs
        # and the friends' table's modules leave the wheel.
        languages = split_catalogs(pishe)
        friends = split_friends(pishe)
        games = registered_games()
        game_code = split_games(pishe, games)
        copy_nostr(pinned["nostr-tools"], stage / NOSTR_MODULE)
        noble = copy_noble(stage / NOBLE_DIR)

        loading = loading_words()
        if (stage / "index.html").exists():
            page = stage / "index.html"
            text = game_markup(page.read_text(encoding="utf-8"), games)
            text = text.replace(LOADING_TOKEN, f"{loading['start']}…")
            page.write_text(text.replace(START_FAILED_TOKEN, start_failed_markup()), encoding="utf-8")
        files = sorted(p.relative_to(stage).as_posix() for p in stage.rglob("*") if p.is_file())
        friends_js = friends_scripts(stage)  # as written: before minifying
        games_js = game_scripts(stage, games)
        # Our scripts that take the build info: which keys each reads (BUILD.<key>) is read
        # before minifying renames BUILD; the info goes in after it, so the minified text is the
        # same from build to build (cached) and the info stays the JSON that build_literal writes.
        takes_info = {rel: text for rel in files if (rel == "sw.js" or rel.startswith("web/"))
                      and rel.endswith((".js", ".mjs"))
                      and BUILD_TOKEN in (text := (stage / rel).read_text(encoding="utf-8"))}
        if os.environ.get(NO_MINIFY_ENV, "") in ("", "0"):
            minify(stage, [rel for rel in files if minified(rel)])
        downloads = ["pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip", f"wheels/{pishe.name}"]
        info = {
            "id": _content_id(stage, files),
            "wheels": {"pishe": f"wheels/{pishe.name}", "segno": f"wheels/{pinned['segno'].name}"},
            # The words of each language but English, fetched by the worker when first spoken, and
            # kept by the service worker for offline play (its install comes once the table is ready).
            "languages": {code: f"wheels/{name}" for code, name in languages.items()},
            "files": files,
            "online": [rel for rel in files if rel in (*SETTINGS_FILES, NOSTR_MODULE)],
            # The pseudo-language's words are for checking a layout, not for a visitor to keep.
            "later": [micropip.relative_to(stage).as_posix(), f"wheels/{pinned['segno'].name}",
                      STDLIB_MICROPIP, STDLIB_REST, f"web/lang/{pseudo_language()}.js", *noble,
                      FRIENDS_ZIP, *friends_js, *(part["url"] for part in game_code), *games_js],
            "stdlib": on_demand,
            "friends": friends,
            "game_code": game_code,
            "loading": loading,
            "downloads": {rel: (stage / rel).stat().st_size for rel in downloads},
            "games": {game.id: game.package for game in games},
            "titles": tab_titles(games),
        }
        # Only our own scripts carry the placeholder; Pyodide's files are left byte-identical.
        for rel, source in takes_info.items():
            path = stage / rel
            text = path.read_text(encoding="utf-8")
            path.write_text(text.replace(BUILD_TOKEN, build_literal(info, source)), encoding="utf-8")
        # Last, once every file has its final bytes (the build info is in our scripts).
        precompress(stage, files)
        if dist.exists():
            shutil.rmtree(dist)
        stage.rename(dist)
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise
    return info
