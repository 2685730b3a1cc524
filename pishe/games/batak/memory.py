"""What a Batak seat has seen of the deal, from its views' steps: every card played, every bid,
and the suits each seat has shown it lacks."""

from __future__ import annotations

from typing import Optional

from ...cards import SUITS, Card
from .deal import BID, CARD, OPEN, PASSED, POWER, TRICK, TRUMPS, WON

__all__ = ["Memory"]


class Memory:
    """What a seat has seen of the current deal, kept up to date by :meth:`update` from each of
    its views (asked at every turn, a view holds every step since the seat's last action).

    ``played``: the cards played so far, in order; ``gone``: the same as a set; ``cap``: by
    seat and suit, the power (2 … 14 for the ace) above which the seat has shown it holds no card
    of the suit: 0 when it showed it holds none (it did not follow, or did not trump), the
    trick's highest of the suit when it did not beat it though the rules made it (15: nothing
    shown); ``bids``: by seat, its bids (the opener's announced
    minimum included); ``passed``: the seats that passed, in order; ``declarer``, ``contract``,
    ``trump`` once known; ``trick``: the cards of the trick in play, ``(seat, card)``.
    ``complete`` is ``False`` when the seat missed steps (a bot that took a seat mid-deal).
    """

    __slots__ = ("next_step", "complete", "played", "gone", "cap", "bids", "passed",
                 "declarer", "contract", "trump", "trick")
    next_step: int
    complete: bool
    played: list[Card]
    gone: set[Card]
    cap: list[dict[str, int]]
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
        self.next_step = 0
        self.complete = complete
        self.played = []
        self.gone = set()
        self.cap = [dict.fromkeys(SUITS, 15) for _ in range(4)]
        self.bids = [[], [], [], []]
        self.passed = []
        self.declarer = None
        self.contract = None
        self.trump = None
        self.trick = []

    def update(self, view) -> None:
        """Take in the steps of ``view`` not yet seen."""
        first = view.first_step
        if first == 0:
            self.reset()
        elif first > self.next_step:
            self.complete = False
        skip = max(0, self.next_step - first)
        for shown in view.steps[skip:]:
            self._see(shown)
        self.next_step = first + len(view.steps)

    def _see(self, shown: dict) -> None:
        kind = shown["kind"]
        if kind == CARD:
            seat, card = shown["seat"], Card.parse(shown["card"])
            trick = self.trick
            if trick and self.trump is not None:
                self._learn(seat, card, [c for _, c in trick], self.trump)
            trick.append((seat, card))
            self.played.append(card)
            self.gone.add(card)
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
        """What ``seat`` showed of its hand by playing ``card`` to ``trick``, by the rules of following."""
        cap = self.cap[seat]
        led = trick[0].suit
        trumped = any(c.suit == trump for c in trick)
        if card.suit == led:
            if led == trump or not trumped:
                top = max(POWER[c] for c in trick if c.suit == led)
                if POWER[card] < top:
                    cap[led] = min(cap[led], top)
            return
        cap[led] = 0
        if card.suit != trump:
            cap[trump] = 0
        elif trumped:
            top = max(POWER[c] for c in trick if c.suit == trump)
            if POWER[card] < top:
                cap[trump] = min(cap[trump], top)
