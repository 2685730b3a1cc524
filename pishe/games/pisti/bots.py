"""Computer players for Pişti, written against a seat's view (never the deck itself),
for any number of seats, and the levels the page offers.

Each bot is asked at every turn of its seat; those that remember keep a
:class:`~.memory.Memory` of what their views showed them.

- ``random``: a card uniformly from the hand, from its own generator.
- ``easy`` (the page's Easy): greedy's rule played as a casual player plays
  it: it forgets what was played, sometimes overlooks a capture, and now
  and then throws a jack away.
- ``greedy`` (Medium): exactly SPEC-PISHTI.md's baseline (:func:`greedy_card`).
- ``skipper``: greedy that passes up a capture about one time in six, as
  many people and some other games' computers do: a non-greedy opponent for
  tournaments.
- ``sampler`` (Hard): greedy's card unless sampled deals of the unseen cards
  show a better one (:class:`~.sampler.SamplerBot`).
"""

from __future__ import annotations

import random

from ...cards import Card
from ...table.game import BotFactory
from .words import N_
from .deal import JACK
from .greedy import GreedyBot, greedy_card, shed_card
from .memory import Memory
from .sampler import SamplerBot

__all__ = ["greedy_card", "Memory", "RandomBot", "EasyBot", "GreedyBot", "SkipperBot", "SamplerBot",
           "BOTS", "COMPUTER", "LEVELS"]

#: What Easy remembers of the cards played: nothing.
_NOTHING_SEEN = (0,) * 14


class RandomBot:
    """Plays a card uniformly from its hand, drawn from ``rng``."""

    def __init__(self, seat: int, rng: random.Random):
        self.seat = seat
        self.rng = rng

    def choose(self, view) -> Card:
        """A legal card at random."""
        legal = view.legal
        return legal[self.rng.randrange(len(legal))]


class EasyBot:
    """Greedy's rule as a casual player plays it, its mistakes drawn from ``rng``.

    It remembers no card played (it sheds as if none had been); it overlooks a
    capture with the top's rank with chance ``overlook``; and when it would
    leave a card on the pile while holding a jack, it throws the jack instead
    with chance ``throw`` (onto an empty pile, or to take a pile not worth it).
    """

    def __init__(self, seat: int, rng: random.Random, overlook: float = 0.05, throw: float = 0.2):
        self.seat = seat
        self.rng = rng
        self.overlook = overlook
        self.throw = throw

    def choose(self, view) -> Card:
        """Easy's card for ``view``."""
        hand, top, count = view.hand, view.pile_top, view.pile_count
        chance = self.rng.random
        card = greedy_card(hand, top, count, _NOTHING_SEEN)
        if top is not None and card.rank == top.rank and card.rank != JACK and chance() < self.overlook:
            card = shed_card(hand, _NOTHING_SEEN, top.rank)
        if card.rank != JACK and (top is None or card.rank != top.rank) and chance() < self.throw:
            for c in hand:
                if c.rank == JACK:
                    return c
        return card


class SkipperBot(GreedyBot):
    """Greedy that passes up a capture with chance ``skip`` (drawn from ``rng``): it then
    sheds a card that takes nothing, when it holds one."""

    def __init__(self, seat: int, rng: random.Random, skip: float = 0.17):
        super().__init__(seat)
        self.rng = rng
        self.skip = skip

    def choose(self, view) -> Card:
        """The skipper's card for ``view``."""
        card = self.greedy(view)
        top = view.pile_top
        if top is not None and (card.rank == top.rank or card.rank == JACK) and self.rng.random() < self.skip:
            other = shed_card(view.hand, self.memory.seen, top.rank)
            if other.rank != top.rank and other.rank != JACK:
                return other
        return card


#: Bot factories by name: ``factory(seat, rng) -> bot``.
BOTS: dict[str, BotFactory] = {
    "random": RandomBot,
    "easy": EasyBot,
    "greedy": GreedyBot,
    "skipper": SkipperBot,
    "sampler": SamplerBot,
}
#: The bot the page's computer plays when no level is chosen.
COMPUTER = "sampler"
#: The page's levels, easiest first: bot name -> the level's name there. Hard (``COMPUTER``,
#: Pişti's computer before it had levels) is chosen until the player chooses another.
LEVELS = {"easy": N_("Easy"), "greedy": N_("Medium"), "sampler": N_("Hard")}
