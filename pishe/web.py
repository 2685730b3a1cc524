"""The computer table's Python side, called by the page's worker.

Every function takes plain values and returns a JSON string
``{"view": …, "steps": […], "computer_moves": bool}`` (the steps this call
caused, in seat 0's words) or ``{"error": "…"}`` with nothing changed. The
page paints the view and asks :func:`computer_step` again after its delay
while ``computer_moves`` is true; it never decides anything itself.
"""

from __future__ import annotations

import json
import random
from typing import Optional

from .bots import always_give
from .errors import PisheError
from .match import ONE_DEAL, Match
from .play import bot_step
from .view import seat_view

__all__ = ["new_match", "act", "computer_step", "next_deal", "current"]

YOU = 0
COMPUTER = 1

_match: Optional[Match] = None


def _answer(steps=()) -> str:
    view = seat_view(_match, YOU).to_json()
    return json.dumps({
        "view": view,
        "steps": [s.describe(YOU) for s in steps],
        "computer_moves": view["turn"] == COMPUTER,
    })


def _error(e: Exception) -> str:
    return json.dumps({"error": str(e)})


def new_match(length: str = ONE_DEAL, seed: Optional[int] = None) -> str:
    """Start a new match against the computer (``seed`` makes its deals repeatable)."""
    global _match
    try:
        _match = Match(length, random.Random(seed))
    except PisheError as e:
        return _error(e)
    return _answer()


def act(action: str) -> str:
    """Your action (``give``, ``turn`` or ``keep``) in seat 0."""
    if _match is None:
        return _error(PisheError("No match is being played."))
    try:
        return _answer(_match.apply(action, YOU))
    except PisheError as e:
        return _error(e)


def computer_step() -> str:
    """One step of the computer's turn: one flip or one give."""
    if _match is None:
        return _error(PisheError("No match is being played."))
    if _match.deal.over or _match.deal.turn != COMPUTER:
        return _error(PisheError("It is not the computer's turn."))
    return _answer(bot_step(_match, always_give))


def next_deal() -> str:
    """Deal the next deal of the match."""
    if _match is None:
        return _error(PisheError("No match is being played."))
    try:
        _match.next_deal()
    except PisheError as e:
        return _error(e)
    return _answer()


def current() -> str:
    """The table as it is now (nothing changes)."""
    if _match is None:
        return _error(PisheError("No match is being played."))
    return _answer()
