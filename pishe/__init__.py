"""Pishe Pasha, pagat's two-player competitive patience: rules, views, bots.

The engine (:class:`Deal`, :class:`Match`) is the one place the rules live;
:func:`seat_view` makes what one seat may see; bots and the page act on views.
"""

from .bots import BOTS, get_bot
from .cards import DECK, Card
from .deal import ACTIONS, GIVE, KEEP, TURN, Deal, Step
from .errors import *  # noqa: F401,F403  (every error is public)
from .errors import __all__ as _errors
from .match import MATCH_LENGTHS, Match
from .play import bot_step, play_deal
from .position import format_position, parse_position
from .view import SeatView, seat_view

__version__ = "0.1.0"

__all__ = [
    "BOTS", "get_bot", "DECK", "Card", "ACTIONS", "GIVE", "KEEP", "TURN", "Deal", "Step",
    "MATCH_LENGTHS", "Match", "bot_step", "play_deal", "format_position", "parse_position",
    "SeatView", "seat_view", *_errors,
]
