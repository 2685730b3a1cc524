"""What a Pişti seat has seen of the deck, and of how the other seats play, from its views' steps.

Written for any number of seats (four in partnerships, two head to head): the
seats are the view's ``hand_counts``, a seat's team is its number's parity.
"""

from __future__ import annotations

from typing import Callable, Optional

from ...cards import Card
from ...table.memory import StepMemory
from .deal import CAPTURE, OPENING, PACKET, PISHTI, PLAY, sort_cards

__all__ = ["Memory"]


class Memory(StepMemory):
    """What a seat has seen of the current deck, and how often each seat passed up a capture.

    Taken in from its views (:class:`~pishe.table.memory.StepMemory`); read ``complete``
    before trusting it: it is ``False`` when the seat missed steps (a bot that took a seat
    in the middle of a deck). ``pile`` holds the
    pile's cards, ``None`` for a face-down opening card; ``taken`` the cards
    each team took, ``None`` likewise; ``lacks`` by seat maps each rank a seat
    did not take the pile with, since its last packet, to how many times it
    did not (it played another card on a top of that rank: it holds none, or
    it passed the capture up).

    A seat plays its whole packet before it gets the next one, so a passed-up
    capture always shows before then: the seat plays the rank it did not take
    with. ``skips`` and ``takes`` count, by seat and over every deck this
    memory saw, the captures passed up that way and the ones made with the
    top's rank: how far to believe a seat's ``lacks``.

    ``since`` holds by seat its plays since its last packet, each ``(card, top,
    count, seen)`` as the pile and the cards shown stood before it. Once a seat
    has played its whole packet, every hand it held is known: ``agree`` and
    ``differ`` count, by seat over every deck, the plays with a choice where it
    played the card ``rule(hand, top, count, seen)`` gives (greedy's, from the bots
    built on it) and where it did not: how far its play tells its hand. No ``rule``:
    nothing is counted.
    """

    __slots__ = ("seen", "known", "up", "pile", "taken",
                 "last_capture", "opening_team", "lacks", "skips", "takes", "since", "agree", "differ",
                 "rule")
    seen: list[int]
    known: set[Card]
    up: Optional[Card]
    pile: list[Optional[Card]]
    taken: list[list[Optional[Card]]]
    last_capture: Optional[int]
    opening_team: Optional[int]
    lacks: list[dict[int, int]]
    since: list[list[tuple]]
    skips: list[int]
    takes: list[int]
    agree: list[int]
    differ: list[int]
    rule: Optional[Callable]

    def __init__(self, rule=None):
        self.rule = rule
        # By seat; empty until the first view says how many seats there are.
        self.skips = []
        self.takes = []
        self.agree = []
        self.differ = []
        self.reset(complete=False)

    def reset(self, complete: bool = True) -> None:
        """Forget the deck: a new one, seen from its deal (``skips`` and ``takes`` stay)."""
        super().reset(complete)
        self.seen = [0] * 14
        self.known = set()
        self.up = None
        self.pile = []
        self.taken = [[], []]
        self.last_capture = None
        self.opening_team = None
        self.lacks = [{} for _ in self.skips]       # by seat, as many as the views have shown
        self.since = [[] for _ in self.skips]

    def update(self, view) -> None:
        """Take in the steps of ``view`` not taken in yet (its ``hand_counts`` say how many seats)."""
        seats = len(view.hand_counts)
        if len(self.skips) != seats:
            self.skips, self.takes = [0] * seats, [0] * seats
            self.agree, self.differ = [0] * seats, [0] * seats
            self.lacks = [{} for _ in range(seats)]
            self.since = [[] for _ in range(seats)]
        super().update(view)

    def see(self, shown: dict) -> None:
        """Take in one step: a card played (a capture, a pişti), a packet dealt, the opening."""
        kind = shown["kind"]
        if kind == PLAY or kind == CAPTURE or kind == PISHTI:
            card = Card.parse(shown["card"])
            seat = shown["seat"]
            pile = self.pile
            self.known.add(card)
            lacks = self.lacks[seat]
            passed = lacks.pop(card.rank, 0)
            if passed:
                # It held this rank when it did not take with it: every such pass was a skip.
                self.skips[seat] += passed
            top = pile[-1] if pile else None
            since = self.since[seat]
            since.append((card, top, len(pile), tuple(self.seen)))
            if len(since) == 4 and self.rule:
                self._judge(seat, since, self.rule)
            if top is not None:
                if top.rank == card.rank:
                    self.takes[seat] += 1
                else:
                    lacks[top.rank] = lacks.get(top.rank, 0) + 1
            self.seen[card.rank] += 1
            if kind == PLAY:
                pile.append(card)
                return
            team = seat & 1
            pile.append(card)
            if "opening" in shown:
                opening = [Card.parse(c) for c in shown["opening"]]
                self.known.update(opening)
                pile = [opening.pop(0) if c is None else c for c in pile]
            if self.opening_team is None:
                self.opening_team = team
            self.taken[team] += pile
            self.pile = []
            self.last_capture = team
        elif kind == PACKET:
            self.lacks[shown["seat"]] = {}
            self.since[shown["seat"]] = []
        elif kind == OPENING:
            up = self.up = Card.parse(shown["card"])
            self.seen[up.rank] += 1
            self.known.add(up)
            self.pile = [None, None, None, up]

    def _judge(self, seat: int, plays: list, rule: Callable) -> None:
        """``seat`` has played its whole packet (``plays``): count how often it played ``rule``'s card."""
        hand: list[Card] = []
        for card, top, count, seen in reversed(plays):
            hand = sort_cards(hand + [card])
            if len(hand) > 1:
                if rule(hand, top, count, seen) == card:
                    self.agree[seat] += 1
                else:
                    self.differ[seat] += 1
