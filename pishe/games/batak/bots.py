"""Computer players for Batak, written against a seat's view (never the deal itself), and the
levels the page offers.

- ``random``: uniform over the legal actions, from its own generator.
- ``easy`` (Easy): the baseline as a hopeful beginner plays it: it bids two tricks above its
  estimate, and now and then plays a legal card at random.
- ``baseline`` (Medium): exactly SPEC-BATAK.md's (:mod:`.baseline`), the yardstick.
- ``hard`` (Hard): looks ahead over sampled deals of the cards it cannot see (:mod:`.hard`).
"""

from __future__ import annotations

import random

from ...table.game import BotFactory
from .baseline import BaselineBot, baseline_action, estimate
from .deal import PASS, bid_text
from .hard import HardBot
from .words import N_

__all__ = ["RandomBot", "EasyBot", "BaselineBot", "HardBot", "BOTS", "COMPUTER", "LEVELS"]


class RandomBot:
    """Takes a legal action uniformly at random, drawn from ``rng``."""

    def __init__(self, seat: int, rng: random.Random):
        self.seat = seat
        self.rng = rng

    def choose(self, view):
        """A legal action at random."""
        legal = view.legal
        return legal[self.rng.randrange(len(legal))]


class EasyBot(BaselineBot):
    """The baseline with a beginner's mistakes, drawn from ``rng``: it bids as if its hand were
    worth ``hope`` tricks more, and plays a legal card at random with chance ``slip``."""

    def __init__(self, seat: int, rng: random.Random, hope: int = 2, slip: float = 0.3):
        super().__init__(seat)
        self.rng = rng
        self.hope = hope
        self.slip = slip

    def choose(self, view):
        """Easy's action for ``view``."""
        self.memory.update(view)
        legal = view.legal
        if legal[0] == PASS:
            highest = view.highest
            return bid_text(highest + 1) if estimate(view.hand, view.partners) + self.hope > highest else PASS
        if not isinstance(legal[0], str) and self.rng.random() < self.slip:
            return legal[self.rng.randrange(len(legal))]
        return baseline_action(view, self.memory)


#: Bot factories by name: ``factory(seat, rng) -> bot``.
BOTS: dict[str, BotFactory] = {
    "random": RandomBot,
    "easy": EasyBot,
    "baseline": BaselineBot,
    "hard": HardBot,
}
#: The bot the page's computer plays when no level is chosen.
COMPUTER = "hard"
#: The page's levels, easiest first: bot name -> the level's name there.
LEVELS = {"easy": N_("Easy"), "baseline": N_("Medium"), "hard": N_("Hard")}
