"""Computer players, written against a seat's view only (they never see the engine).

A bot is a function ``view -> action`` that picks one of ``view.legal``; it
moves one step at a time (one flip or one give), so a page can show its turn
on a timer.
"""

from __future__ import annotations

from typing import Callable

from .deal import GIVE, KEEP, TURN
from ...errors import UnknownBotError
from .view import SeatView

__all__ = ["BOTS", "get_bot", "always_give", "hold_king", "no_give_two_above", "never_give"]

Bot = Callable[[SeatView], str]


def _give_unless(refuse: Callable[[SeatView], bool]) -> Bot:
    """A bot that gives whenever it may, except when ``refuse(view)`` says not to."""
    def choose(view: SeatView) -> str:
        legal = view.legal
        if GIVE in legal and not refuse(view):
            return GIVE
        return KEEP if KEEP in legal else TURN
    return choose


#: The computer: gives whenever allowed. Giving before turning chains a run
#: from its discard top, and a turned card that can be given is given.
always_give = _give_unless(lambda view: False)
always_give.__doc__ = "Give whenever allowed (the computer on the page)."

#: Never gives a king.
hold_king = _give_unless(lambda view: view.give_card.rank == 13)
hold_king.__doc__ = "Give whenever allowed, but never a king."

#: Never gives a card exactly two above the top of its own suit pile (empty = 0).
no_give_two_above = _give_unless(
    lambda view: view.give_card.rank == view.foundations[view.give_card.suit] + 2)
no_give_two_above.__doc__ = "Give whenever allowed, but never a card two above its suit pile's top."

#: Never gives at all.
never_give = _give_unless(lambda view: True)
never_give.__doc__ = "Never give: always turn, and keep a turned card."

#: Bots by the name the command line and the page use.
BOTS: dict[str, Bot] = {
    "always-give": always_give,
    "hold-king": hold_king,
    "no-give-two-above": no_give_two_above,
    "never-give": never_give,
}


def get_bot(name: str) -> Bot:
    """The bot called ``name``; raises :class:`UnknownBotError` for any other name."""
    try:
        return BOTS[name]
    except (KeyError, TypeError):
        raise UnknownBotError(
            f"unknown bot {name!r}: choose one of {', '.join(BOTS)}") from None
