"""SPEC-BATAK.md's ``baseline``, exactly: the yardstick every stronger Batak computer is measured
against, and the rule the others start from. Written against a seat's view plus its
:class:`~.memory.Memory` of the cards played."""

from __future__ import annotations

import random
from typing import Optional, Sequence

from ...cards import SUITS, Card
from .deal import ORDER, PASS, POWER, bid_text, trick_winner, trump_text
from .memory import Memory

__all__ = ["estimate", "baseline_bid", "baseline_trump", "baseline_lead", "baseline_follow", "BaselineBot"]

_order = ORDER.__getitem__


def estimate(hand: Sequence[Card], partners: bool) -> int:
    """The tricks a hand is worth: its aces, its kings in suits of 2 or more cards, its queens in
    suits of 3 or more, plus (longest suit's length − 4) when positive; plus 3 with a partner."""
    lengths = {s: 0 for s in SUITS}
    for c in hand:
        lengths[c.suit] += 1
    value = sum(1 for c in hand if c.rank == 1 or (c.rank == 13 and lengths[c.suit] >= 2)
                or (c.rank == 12 and lengths[c.suit] >= 3))
    value += max(0, max(lengths.values()) - 4)
    return value + (3 if partners else 0)


def baseline_bid(hand: Sequence[Card], highest: int, partners: bool) -> str:
    """One more than ``highest`` when the hand's estimate is higher than it; else pass."""
    return bid_text(highest + 1) if estimate(hand, partners) > highest else PASS


def baseline_trump(hand: Sequence[Card]) -> str:
    """The longest suit; ties: more of A, K and Q together, then the later suit (♣ ♦ ♥ ♠)."""
    def key(suit: str) -> tuple:
        cards = [c for c in hand if c.suit == suit]
        return (len(cards), sum(1 for c in cards if c.rank in (1, 12, 13)), SUITS.index(suit))
    return trump_text(max(SUITS, key=key))


def is_master(card: Card, hand: Sequence[Card], gone) -> bool:
    """Whether every higher card of ``card``'s suit has been played (is in ``gone``) or is in ``hand``."""
    power = POWER[card]
    return all(c in gone or c in hand for c in _SUIT_CARDS[card.suit] if POWER[c] > power)


_SUIT_CARDS = {s: [Card(r, s) for r in range(1, 14)] for s in SUITS}


def baseline_lead(hand: Sequence[Card], trump: str, gone) -> Card:
    """A master of a suit other than trumps, the first in card order; else the first in card order
    of its longest suit other than trumps (ties: the earlier suit); holding only trumps, the first."""
    ordered = sorted(hand, key=_order)
    others = [c for c in ordered if c.suit != trump]
    if not others:
        return ordered[0]
    for c in others:
        if is_master(c, hand, gone):
            return c
    lengths = {s: sum(1 for c in others if c.suit == s) for s in SUITS if s != trump}
    longest = max(lengths.values())
    suit = next(s for s in SUITS if s != trump and lengths[s] == longest)
    return next(c for c in others if c.suit == suit)


def baseline_follow(legal: Sequence[Card], trick: Sequence[Card], trump: str) -> Card:
    """Among ``legal`` (any order), the first in card order that would win ``trick`` as it stands;
    if none would, the first in card order."""
    ordered = sorted(legal, key=_order)
    for c in ordered:
        if trick_winner([*trick, c], trump) == len(trick):
            return c
    return ordered[0]


class BaselineBot:
    """SPEC-BATAK.md's ``baseline``: bids its estimate, names its longest suit, leads masters,
    follows with the cheapest card that wins."""

    def __init__(self, seat: int, rng: Optional[random.Random] = None):
        self.seat = seat
        self.memory = Memory()

    def remember(self, view) -> None:
        """Take in ``view``'s new steps without choosing (a replayed match's earlier deals)."""
        self.memory.update(view)

    def choose(self, view):
        """Baseline's action for ``view``."""
        self.memory.update(view)
        return baseline_action(view, self.memory)


def baseline_action(view, memory: Memory):
    """Baseline's action for ``view``, its seat's memory up to date."""
    legal = view.legal
    if legal[0] == PASS:
        return baseline_bid(view.hand, view.highest, view.partners)
    if isinstance(legal[0], str):
        return baseline_trump(view.hand)
    trick = [c for _, c in view.trick]
    if not trick:
        return baseline_lead(view.hand, view.trump, memory.gone)
    return baseline_follow(legal, trick, view.trump)
