"""What a Batak seat has seen of the deal, from its views' steps: every card played, every bid,
and the suits each seat has shown it lacks."""

from __future__ import annotations

from typing import Optional

from ...cards import DECK, SUITS, Card
from ...table.memory import StepMemory
from .deal import BID, CARD, OPEN, ORDER, PASSED, POWER, TRICK, TRUMPS, WON, trick_winner

__all__ = ["Memory"]


class Memory(StepMemory):
    """What a seat has seen of the current deal, kept up to date by :meth:`update` from each of
    its views (:class:`~pishe.table.memory.StepMemory`).

    ``played``: the cards played so far, in order; ``gone``: the same as a set; ``broken``:
    whether a trump has been played; ``ruled_out``: by seat, the cards its plays have shown, by
    the rules of following, that it does not hold (a suit it did not follow, a card it would
    have had to beat the trick with); ``unlikely``: by seat, the cards it would not hold had it
    played the baseline's way (a player who follows with the cheapest card that wins, else its
    lowest: the others' computers, and a fair guess at most people); ``shown``: by seat, the
    cards it has played; ``bids``: by seat, its bids (the opener's announced
    minimum included); ``passed``: the seats that passed, in order; ``declarer``, ``contract``,
    ``trump`` once known; ``trick``: the cards of the trick in play, ``(seat, card)``.
    ``complete`` is ``False`` when the seat missed steps (a bot that took a seat mid-deal).
    """

    __slots__ = ("played", "gone", "broken", "ruled_out", "unlikely", "shown", "bids",
                 "passed", "declarer", "contract", "trump", "trick")
    played: list[Card]
    gone: set[Card]
    broken: bool
    ruled_out: list[set[Card]]
    unlikely: list[set[Card]]
    shown: list[list[Card]]
    bids: list[list[int]]
    passed: list[int]
    declarer: Optional[int]
    contract: Optional[int]
    trump: Optional[str]
    trick: list[tuple[int, Card]]

    def __init__(self) -> None:
        self.reset(complete=False)

    def reset(self, complete: bool = True) -> None:
        """Forget the deal: a new one, seen from its deal."""
        super().reset(complete)
        self.played = []
        self.gone = set()
        self.broken = False
        self.ruled_out = [set(), set(), set(), set()]
        self.unlikely = [set(), set(), set(), set()]
        self.shown = [[], [], [], []]
        self.bids = [[], [], [], []]
        self.passed = []
        self.declarer = None
        self.contract = None
        self.trump = None
        self.trick = []

    def see(self, shown: dict) -> None:
        """Take in one step: a card played, a trick gathered, a bid, a pass, the contract, trumps."""
        kind = shown["kind"]
        if kind == CARD:
            seat, card = shown["seat"], Card.parse(shown["card"])
            if self.trump is not None:
                self._learn(seat, card, [c for _, c in self.trick], self.trump)
                self.broken = self.broken or card.suit == self.trump
            self.trick.append((seat, card))
            self.played.append(card)
            self.gone.add(card)
            self.shown[seat].append(card)
        elif kind == TRICK:
            self.trick = []
        elif kind in (BID, OPEN):
            self.bids[shown["seat"]].append(shown["bid"])
        elif kind == PASSED:
            self.passed.append(shown["seat"])
        elif kind == WON:
            self.declarer, self.contract = shown["seat"], shown["bid"]
        elif kind == TRUMPS:
            self.trump = shown["suit"]

    def _learn(self, seat: int, card: Card, trick: list, trump: str) -> None:
        """What ``seat`` showed of its hand by playing ``card`` to ``trick`` (its cards so far; empty:
        a lead): by the rules of following into ``ruled_out``, by the baseline's way into ``unlikely``."""
        out, unlikely = self.ruled_out[seat], self.unlikely[seat]
        power = POWER[card]
        if not trick:
            self._learn_lead(seat, card, trump)
            return
        led = trick[0].suit
        trumped = any(c.suit == trump for c in trick)
        wins = trick_winner([*trick, card], trump) == len(trick)
        if card.suit == led:
            if led == trump or not trumped:
                top = max(POWER[c] for c in trick if c.suit == led)
                if power < top:
                    out.update(_between(led, top, 15))          # it could not beat the trick
                elif wins:
                    unlikely.update(_between(led, top, power))  # the cheapest card that wins
            if not wins:
                unlikely.update(_between(led, 0, power))        # its lowest legal card
            return
        out.update(_SUIT[led])
        if card.suit != trump:
            out.update(_SUIT[trump])
            unlikely.update(c for c in DECK if ORDER[c] < ORDER[card])  # its lowest card of all
            return
        top = max((POWER[c] for c in trick if c.suit == trump), default=0)
        if power < top:
            out.update(_between(trump, top, 15))                # it could not over-trump
            unlikely.update(_between(trump, 0, power))
        else:
            unlikely.update(_between(trump, top, power))

    def _learn_lead(self, seat: int, card: Card, trump: str) -> None:
        """What a lead tells for certain of the leader's hand, played the baseline's way: a trump
        led, that it holds no other suit (by the rules too, trumps unbroken) and no lower trump;
        another card, that it holds no master of another suit coming first in card order (the
        highest card of a suit not yet played). The rest a lead tells rests on the whole hand:
        the Hard computer replays the lead on each hand it samples."""
        unlikely = self.unlikely[seat]
        if card.suit == trump:
            (unlikely if self.broken else self.ruled_out[seat]).update(c for c in DECK if c.suit != trump)
            unlikely.update(_between(trump, 0, POWER[card]))
            return
        for suit in SUITS:
            if suit != trump and suit != card.suit:
                top = max((c for c in _SUIT[suit] if c not in self.gone), key=POWER.__getitem__, default=None)
                if top is not None and ORDER[top] < ORDER[card]:
                    unlikely.add(top)


_SUIT = {s: [Card(r, s) for r in range(1, 14)] for s in SUITS}


def _between(suit: str, low: int, high: int) -> list:
    """The cards of ``suit`` of power strictly between ``low`` and ``high``."""
    return [c for c in _SUIT[suit] if low < POWER[c] < high]
