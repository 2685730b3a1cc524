"""Each game's code apart but the first game's: a first visit downloads the table and the game
the page opens on, and another game's code when it is first dealt (as a friends' table's is).
Its Python (the modules of its package) leaves the wheel for a zip of its own, which the
page's finder (pishe.on_demand) downloads and unpacks beside the wheel's modules when the game
is first imported; the wheel keeps the registry's declaration (pishe/games/declared.json:
each package's game ids, in order), so that the page finds a game's package without importing
the others. Its painter's scripts, likewise, are imported when its table is first shown
(web/games/registry.js); the service worker keeps both once fetched."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from sitebuild.common import BuildError
from sitebuild.friends import js_reach, page_scripts
from sitebuild.wheel import wheel_files, write_stored_zip, write_wheel

if TYPE_CHECKING:
    from pishe.table.game import Game

#: Where a game's Python goes in the site ({package}: its package under pishe/games/).
GAME_ZIP = "wheels/pishe-game-{package}.zip"


def split_games(wheel: Path, games: list[Game]) -> list[dict]:
    """Move every game package's modules but the first game's out of `wheel` (rewritten
    without them, with the registry's declaration) into GAME_ZIP beside it, of stored entries
    and the same paths; return the worker's BUILD.game_code: [{"url", "names", "unpack": true}],
    a game package's zip and its modules."""
    from pishe.table.game import DECLARED, declaration

    files = wheel_files(wheel)
    parts = []
    for package in dict.fromkeys(game.package for game in games if game.package != games[0].package):
        folder = f"pishe/games/{package}/"
        moved = {name: files.pop(name) for name in sorted(files) if name.startswith(folder)}
        if not any(name.endswith(".pyc") for name in moved):
            raise BuildError(f"the game {package!r} has no bytecode in {wheel.name}")
        url = GAME_ZIP.format(package=package)
        write_stored_zip(wheel.parent / Path(url).name, moved)
        names = sorted(name[:-4].removesuffix("/__init__").replace("/", ".") for name in moved if name.endswith(".pyc"))
        parts.append({"url": url, "names": names, "unpack": True})
    files[f"pishe/games/{DECLARED}"] = (json.dumps(declaration(), separators=(",", ":")) + "\n").encode()
    write_wheel(wheel, files)
    return parts


def game_scripts(stage: Path, games: list[Game]) -> list[str]:
    """The scripts of the site in `stage` that only another game than the first paints with:
    what their painters (web/games/<package>/paint.js) import, in the end, that neither
    index.html's scripts (the first game's painter is preloaded) nor the worker import."""
    start = js_reach(stage, page_scripts(stage), dynamic=False)
    painters = [f"web/games/{game.package}/paint.js" for game in games[1:] if game.package != games[0].package]
    return sorted(js_reach(stage, painters, dynamic=True) - start)
