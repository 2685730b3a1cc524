"""A card table in the browser: one game-agnostic table and its games.

:mod:`pishe.table` holds what every game shares (the match, the fair deck,
the protocol between pages, the page's bridge); each game is a package of
:mod:`pishe.games` (Pishe Pasha in :mod:`pishe.games.pasha`, Pişti in
:mod:`pishe.games.pisti`), found by the registry (:func:`pishe.table.game.games`) and reached by id
through :func:`pishe.table.game.get_game`.

For convenience the names below are importable from ``pishe`` itself; each is
imported only when first asked for, so a page that plays one game loads only
that game's modules.
"""

from __future__ import annotations

import importlib

from .cards import DECK, Card
from .errors import *  # noqa: F401,F403  (every error is public)
from .errors import __all__ as _errors

__version__ = "0.1.0"

# Name -> the module that defines it, imported on first use (PEP 562).
_LAZY = {
    "Match": "pishe.table.match",
    "get_game": "pishe.table.game",
    "game_ids": "pishe.table.game",
    **{name: "pishe.games.pasha.bots" for name in ("BOTS", "FACTORIES")},
    **{name: "pishe.games.pasha.deal" for name in ("ACTIONS", "GIVE", "KEEP", "TURN", "Deal", "Step")},
    **{name: "pishe.games.pasha.play" for name in ("bot_step", "play_deal")},
    **{name: "pishe.games.pasha.position" for name in ("format_position", "parse_position")},
    **{name: "pishe.games.pasha.view" for name in ("SeatView", "seat_view")},
}

__all__ = ["DECK", "Card", *_LAZY, *_errors]


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'pishe' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
