"""Lines said again: a line whose data was kept (:mod:`.said`) in the page's language now
(:func:`again`, :func:`kept`, :func:`now`), and what a view says of itself (:func:`about`).

Above the games' registry, the table's words and the seats' names at a friends' table, which
it words lines with; :mod:`.said`, which they all use, imports none of them."""

from __future__ import annotations

from typing import Any, Optional, Sequence

from . import words
from .game import get_game
from .lang import catalog_named, lower, named
from .said import Said, names_data

__all__ = ["ABOUT", "about", "again", "kept", "now"]

#: What a view line can say of its view (:func:`about`).
ABOUT = ("status", "dealt", "score")
# Lines nest (a message's values, a list's parts): this deep at most, for data from storage.
_DEPTH = 8


def about(kind: str, game, view: dict, names: Optional[Sequence]) -> Said:
    """What ``view`` (its JSON, made with ``names``) says: ``"status"``, its status;
    ``"dealt"``, that its deal is dealt; ``"score"``, the match score after its deal."""
    view = {k: v for k, v in view.items() if k != "seen"}       # what the page's memory adds
    data = {"about": kind, "game": game.id, "view": view, "names": names_data(names)}
    return Said(_about(kind, game, view), data)


def _about(kind: str, game, view: dict) -> str:
    match = view["match"]
    if kind == "dealt":
        return words.dealt(game.deal_word(), match["deal"], view["names"][match["dealer"]])
    if kind == "score":
        return words.match_score(view.get("team_names") or view["names"], match["scores"], match["over"])
    return view["status"]


def _seat_name(game, seat: int, own: int) -> str:
    # Imported when first needed: the computer table's start-up never imports the protocol.
    from .protocol.common import friend_names

    return game.blank_view(own, friend_names(game, own), "")["names"][seat]


def kept(data: Any) -> Said:
    """The line whose data ``data`` was kept (in a save), said in the page's language now;
    raises as :func:`again` does."""
    return Said(again(data), data)


def now(line: Optional[str]) -> Optional[str]:
    """``line`` said again in the page's language now (``None`` stays ``None``)."""
    return kept(line.data) if isinstance(line, Said) else line


def again(data: Any, depth: int = 0) -> str:
    """The line whose data is ``data`` in the page's language now. Raises ``ValueError``
    (or ``KeyError``, ``TypeError``, a :class:`~pishe.errors.PisheError`) for data that no
    line has."""
    if isinstance(data, str):
        return data
    if type(data) in (int, float) or data is None:
        return "" if data is None else str(data)
    if depth > _DEPTH or not isinstance(data, dict):
        raise ValueError("not a line")
    if "cat" in data:
        return "".join(again(part, depth + 1) for part in _list(data["cat"]))
    if "m" in data:
        return _message(data, depth)
    game = get_game(_text(data["game"]))
    if "step" in data:
        describe = game.describe_timeout if data.get("timeout") is True else game.describe
        return describe(data["step"], _whole(data["seat"]))
    if "name" in data:
        name = _seat_name(game, _whole(data["name"]), _whole(data["seat"]))
        return named(name) if data.get("named") is True else name
    if data.get("about") in ABOUT:
        names = data["names"]
        names = None if names is None else [again(name, depth + 1) for name in _list(names)]
        return _about(data["about"], game, game.reword(data["view"], names))
    raise ValueError("not a line")


def _message(data: dict, depth: int) -> str:
    words = catalog_named(_text(data["d"]))
    values = data.get("a", {})
    if not isinstance(values, dict):
        raise ValueError("a message's values are named")
    values = {_text(k): v if type(v) in (int, float) else again(v, depth + 1) for k, v in values.items()}
    if "p" in data:
        n = _whole(data["n"])
        text = words.ngettext(_text(data["m"]), _text(data["p"]), n).format(**values)
    else:
        text = words.gettext(_text(data["m"])).format(**values)
    return lower(text[:1]) + text[1:] if data.get("lower") is True else text


def _text(value) -> str:
    if not isinstance(value, str):
        raise ValueError("not a text")
    return value


def _whole(value) -> int:
    if type(value) is not int or value < 0:
        raise ValueError("not a whole number")
    return value


def _list(value) -> list:
    if not isinstance(value, list):
        raise ValueError("not a list")
    return value
