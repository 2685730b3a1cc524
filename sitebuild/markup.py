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
#: so that variants share a part and differ by a piece; a piece the game's folder lacks is
#: the games' shared one, web/games/name.html (the loading line, a seat around the table),
#: else nothing. A piece's line may give it values, __name key=value key="two words" …__,
#: which stand in the piece for {{key}}; pieces may hold pieces (a piece's values reach them).
GAME_PARTS = ("match", "table", "settings", "note", "rules")
#: The folder of the pieces the games share.
SHARED_PIECES = ROOT / "web" / "games"
_PIECE = re.compile(r'^([ \t]*)__([a-z][a-z-]*)((?: [a-z-]+=(?:"[^"\n]*"|[^\s"]+?))*)__\n', re.M)
_PIECE_VALUE = re.compile(r'([a-z-]+)=(?:"([^"\n]*)"|([^\s"]+))')
_VALUE = re.compile(r"\{\{([a-z-]+)\}\}")
#: How deep pieces may hold pieces.
_PIECE_DEPTH = 4


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


def _source(folder: Path, name: str, game_id: str) -> Path | None:
    """``folder``'s name.<game_id>.html, else its name.html (None if neither)."""
    for source in (folder / f"{name}.{game_id}.html", folder / f"{name}.html"):
        if source.exists():
            return source
    return None


def _game_file(folder: Path, name: str, game_id: str) -> str:
    """The markup in ``folder``'s name.<game_id>.html, else name.html ("" if neither)."""
    source = _source(folder, name, game_id)
    return source.read_text(encoding="utf-8").strip("\n") if source else ""


def _pieces(text: str, folder: Path, game_id: str, depth: int = 0, given: dict | None = None) -> str:
    """``text`` with each line __name key=value …__ replaced by its piece (the game's in
    ``folder``, else the shared one), indented as the line, its {{key}} by the line's values
    (and those ``given`` to the piece that holds it)."""
    def piece(mark: re.Match) -> str:
        name = mark.group(2)
        source = _source(folder, name, game_id) or _source(SHARED_PIECES, name, game_id)
        found = source.read_text(encoding="utf-8").strip("\n") if source else ""
        if not found:
            return ""
        values = {**(given or {}),
                  **{key: quoted or plain for key, quoted, plain in _PIECE_VALUE.findall(mark.group(3))}}

        def value(key: re.Match) -> str:
            if key.group(1) not in values:
                raise BuildError(f"the piece {name!r} wants a value for {key.group(1)!r} in {folder.name}")
            return html.escape(values[key.group(1)])
        found = _VALUE.sub(value, found)
        if depth < _PIECE_DEPTH:
            found = _pieces(found + "\n", folder, game_id, depth + 1, values).rstrip("\n")
        elif _PIECE.search(found + "\n"):
            raise BuildError(f"pieces hold pieces more than {_PIECE_DEPTH} deep in {folder.name}")
        return "".join(mark.group(1) + line + "\n" for line in found.split("\n"))
    return _PIECE.sub(piece, text)


def game_file_words(path: Path) -> str:
    """The markup of a game's file at ``path`` (web/games/<game>/*.html) with its pieces in
    place: the words that file shows, for the game's catalog (catalogs.py)."""
    game_id = path.name.split(".")[1] if path.name.count(".") == 2 else path.parent.name
    return _pieces(path.read_text(encoding="utf-8"), path.parent, game_id)


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
    text = _pieces(text + "\n", folder, game.id).rstrip("\n")
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
