"""SPEC-PISHTI.md's baseline player, ``greedy``: the rule the other Pişti bots start from."""

from __future__ import annotations

import random
from typing import Optional

from ...cards import Card
from .deal import JACK, VALUE
from .memory import Memory

__all__ = ["greedy_card", "shed_card", "GreedyBot"]

_value = VALUE


def greedy_card(hand, top: Optional[Card], count: int, seen) -> Card:
    """The card greedy plays from ``hand`` (in card order) onto a pile of ``count``
    cards topped by ``top``, ``seen[rank]`` copies of each rank having shown face up
    this deck (the cards played and the opening card turned up)."""
    value = _value
    if count and top is not None:          # a pile of count cards has a top
        rank = top.rank
        best = None
        for c in hand:
            if c.rank == rank and (best is None or value[c] > value[best]):
                best = c
        if best is not None:
            return best
        if count >= 2 or value[top]:
            for c in hand:
                if c.rank == JACK:
                    return c
    return shed_card(hand, seen)


def shed_card(hand, seen, avoid: int = JACK) -> Card:
    """Greedy's card to leave on the pile: no jack and no card of rank ``avoid``, the rank
    with the fewest copies still out (not seen, not in ``hand``), then the lowest value;
    the first card of ``hand`` when every card is a jack or of rank ``avoid``."""
    value = _value
    best = None
    best_key = (5, 0)                      # above every key: 4 - seen - mine is at most 4
    for c in hand:
        rank = c.rank
        if rank == JACK or rank == avoid:
            continue
        mine = 0
        for d in hand:
            if d.rank == rank:
                mine += 1
        key = (4 - seen[rank] - mine, value[c])
        if key < best_key:
            best, best_key = c, key
    return hand[0] if best is None else best


class GreedyBot:
    """SPEC-PISHTI.md's ``greedy``: take when it can, jack a pile worth it, else
    shed the rank with the fewest copies still out."""

    def __init__(self, seat: int, rng: Optional[random.Random] = None):
        self.seat = seat
        self.memory = Memory(greedy_card)

    def choose(self, view) -> Card:
        """Greedy's card for ``view``."""
        return self.greedy(view)

    def remember(self, view) -> None:
        """Take in ``view``'s new steps without choosing (a replayed match's earlier decks)."""
        self.memory.update(view)

    def greedy(self, view) -> Card:
        """Take in ``view``'s new steps; greedy's card for it (the bots built on greedy start here)."""
        memory = self.memory
        memory.update(view)
        return greedy_card(view.hand, view.pile_top, view.pile_count, memory.seen)
