"""Computer players for Batak, written against a seat's view (never the deal itself), and the
levels the page offers.

- ``random``: uniform over the legal actions, from its own generator.
- ``baseline`` (Medium): exactly SPEC-BATAK.md's (:mod:`.baseline`), the yardstick.
"""

from __future__ import annotations

import random

from ...table.game import BotFactory
from .baseline import BaselineBot
from .hard import HardBot
from .words import N_

__all__ = ["RandomBot", "BaselineBot", "BOTS", "COMPUTER", "LEVELS"]


class RandomBot:
    """Takes a legal action uniformly at random, drawn from ``rng``."""

    def __init__(self, seat: int, rng: random.Random):
        self.seat = seat
        self.rng = rng

    def choose(self, view):
        """A legal action at random."""
        legal = view.legal
        return legal[self.rng.randrange(len(legal))]


#: Bot factories by name: ``factory(seat, rng) -> bot``.
BOTS: dict[str, BotFactory] = {
    "random": RandomBot,
    "baseline": BaselineBot,
    "hard": HardBot,
}
#: The bot the page's computer plays when no level is chosen.
COMPUTER = "baseline"
#: The page's levels, easiest first: bot name -> the level's name there.
LEVELS = {"baseline": N_("Medium")}
