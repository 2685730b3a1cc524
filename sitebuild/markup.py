"""Every registered game's markup, written into index.html by the build (and read by
catalogs.py for the page's words): the game choice, titles, style sheets, the first game's
painter preloaded, and each game's parts from its files in web/games/<game>/."""

from __future__ import annotations

import html
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from sitebuild.common import ROOT, BuildError

if TYPE_CHECKING:
    from pishe.table.game import Game

#: A place in index.html where the build writes every game's markup: <!-- games: PART -->.
GAMES_MARK = re.compile(r"^([ \t]*)<!-- games: (\w+) -->[ \t]*$|<!-- games: (\w+) -->", re.M)
#: The parts of a game's markup that are files in web/games/<game>/ (PART.html, or
#: PART.<id>.html for one variant only); __GAME__ in them stands for the game's id, and a
#: line __name__ (lowercase) for the piece in name.html (or name.<id>.html) beside them,
#: so that variants share a part and differ by a piece.
GAME_PARTS = ("match", "table", "settings", "note", "rules")


def registered_games() -> list[Game]:
    """The registered games (pishe.table.game.games), this repository's."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))  # this repository's pishe, as a script sees it
    from pishe.table.game import games
    return list(games())


def _levels_markup(game: Game) -> str:
    """The computer's level radios of ``game`` (its ``levels``, in their order; none: no
    fieldset), its ``computer``'s chosen (else the first)."""
    if not game.levels:
        return ""
    chosen = game.computer if game.computer in game.levels else next(iter(game.levels))
    radios = "".join(
        f'\n    <label><input type="radio" name="level-{game.id}" value="{html.escape(bot)}" data-setting="level"'
        f'{" checked" if bot == chosen else ""}><span data-i18n>{html.escape(name)}</span></label>'
        for bot, name in game.levels.items())
    note = game.levels_note
    described = f' aria-describedby="{game.id}-level-note"' if note else ""
    hint = f'\n  <p class="hint" id="{game.id}-level-note" data-i18n>{html.escape(note)}</p>' if note else ""
    return (f'<fieldset class="lengths"{described}>\n  <legend data-i18n>Computer</legend>\n'
            f'  <div class="segmented">{radios}\n  </div>{hint}\n</fieldset>')


def _game_file(folder: Path, name: str, game_id: str) -> str:
    """The markup in ``folder``'s name.<game_id>.html, else name.html ("" if neither)."""
    source = folder / f"{name}.{game_id}.html"
    source = source if source.exists() else folder / f"{name}.html"
    return source.read_text(encoding="utf-8").strip("\n") if source.exists() else ""


def _game_part(game: Game, part: str, first: bool) -> str:
    """``game``'s markup for ``part`` (from web/games/<package>/), hidden unless ``first``."""
    folder = ROOT / "web" / "games" / game.package
    if part == "title":
        return f'<span data-for-game="{game.id}"{"" if first else " hidden"} data-i18n>{html.escape(game.name)}</span>'
    if part == "choice":
        # The titles, worded in the game's catalog; a friends' table's (web/tables/friend/table.js)
        # from an invite's first paint on.
        title, friends = html.escape(game.computer_title), html.escape(game.friends_title)
        return (f'<label><input type="radio" name="game" value="{game.id}" autocomplete="off"'
                f'{" checked" if first else ""} data-i18n-attr="data-title data-friend-title" data-title="{title}"'
                f' data-friend-title="{friends}"><span data-i18n>{html.escape(game.name)}</span></label>')
    if part == "styles":
        return "".join(f'<link rel="stylesheet" href="web/games/{game.package}/{css.name}">\n'
                       for css in sorted(folder.glob("*.css")))
    if part == "preload":
        return f'<link rel="modulepreload" href="web/games/{game.package}/paint.js">\n' if first else ""
    if part not in GAME_PARTS:
        raise BuildError(f"index.html asks for games' {part!r}: the parts are {', '.join(GAME_PARTS)}")
    text = _game_file(folder, part, game.id)
    if not text:
        return ""

    def piece(mark: re.Match) -> str:
        found = _game_file(folder, mark.group(2), game.id)
        return "".join(mark.group(1) + line + "\n" for line in found.split("\n")) if found else ""
    text = re.sub(r"^([ \t]*)__([a-z][a-z-]*)__\n", piece, text + "\n", flags=re.M).rstrip("\n")
    lines = text.split("\n")
    levels = re.search(r"^([ \t]*)__LEVELS__$", text, re.M)
    if levels:
        block = "\n".join(levels.group(1) + line for line in _levels_markup(game).split("\n"))
        text = text[:levels.start()] + block.rstrip() + text[levels.end():]
        lines = text.split("\n")
    if not first:  # the first tag is the part's root: hidden until its game is chosen
        lines[0] = re.sub(r"^(\s*<[^>]*?)(/?>)", r"\1 hidden\2", lines[0], count=1)
    return "\n".join(lines).replace("__GAME__", game.id)


def game_markup(page: str, games: list[Game]) -> str:
    """index.html with every registered game's markup in place of each <!-- games: PART -->:
    the game choice, titles, style sheets, the first game's painter preloaded, and each
    game's match line, table, settings, note and rules from its files in web/games/<game>/
    (written in the page, so the first paint comes before any script). The first game is
    the one shown; the others' parts are hidden."""
    def fill(mark: re.Match) -> str:
        indent, part = (mark.group(1), mark.group(2)) if mark.group(2) else ("", mark.group(3))
        blocks = [_game_part(game, part, n == 0) for n, game in enumerate(games)]
        text = ("\n" if mark.group(2) else "").join(b.rstrip("\n") for b in blocks if b)
        return "\n".join(indent + line if line else line for line in text.split("\n"))
    return GAMES_MARK.sub(fill, page)
