"""What one seat remembers of a deal: every step shown to it, nothing else.

Every card that lands on a discard pile is shown face up, in order, so a seat
that remembers every step knows each discard pile from bottom to top. When a
seat's stock runs out its discard pile turns over as its new stock, so from
then on that stock's order is known too. Once both seats have turned their
pile over, the seat knows where every card is, and :meth:`Memory.position`
builds the deal as it must be: a hypothetical position for the one engine to
look ahead from. Once one seat has turned its pile over, the other's stock
holds just the cards seen nowhere else, in an unknown order:
:meth:`Memory.positions` builds one deal for each order, when they are few. The memory takes
in steps as :func:`~.view.step_to_json` shows them to its seat; it never sees the engine's state.
"""

from __future__ import annotations

from itertools import permutations
from math import factorial
from typing import Optional, Sequence

from ...cards import DECK, Card
from .deal import GIVE_STEP, HOME, KEPT, RECYCLE, SEATS, TO_CHOICE, TO_PILE, TURNED, Deal

__all__ = ["Memory"]


class Memory:
    """One seat's memory of the current deal.

    ``discards[seat]`` is each discard pile, bottom to top; ``stocks[seat]``
    each stock, bottom to top, once its order is known (``None`` before the
    seat first turned its pile over). ``complete`` is ``False`` when the memory
    missed steps (it began in the middle of a deal): then it knows nothing for sure.
    """

    __slots__ = ("discards", "stocks", "turned", "complete")

    def __init__(self):
        """A memory that has seen nothing yet: complete once it sees a deal from its start."""
        self.reset(complete=False)

    def reset(self, complete: bool = True) -> None:
        """Forget everything: a new deal, seen from its start."""
        self.discards: list[list[Card]] = [[] for _ in SEATS]
        self.stocks: list[Optional[Sequence[Card]]] = [None for _ in SEATS]
        self.turned: Optional[Card] = None      # a turned card waiting for give or keep
        self.complete = complete

    def observe(self, shown, new_deal: bool = False) -> None:
        """Take in ``shown``, steps as shown to this seat, in order; ``new_deal``: they are
        the first steps of a new deal (none, in Pishe Pasha: dealing shows nothing)."""
        if new_deal:
            self.reset()
        for step in shown:
            if self.complete:
                self._take(step)

    def _take(self, step: dict) -> None:
        kind, seat = step["kind"], step["seat"]
        card = Card.parse(step["card"]) if step["card"] is not None else None
        pile, stock = self.discards[seat], self.stocks[seat]
        if kind == TURNED:
            if stock is not None and (not stock or stock.pop() != card):
                self.complete = False          # not the card remembered on top: memory is wrong
            if step["outcome"] == TO_PILE:
                pile.append(card)
            elif step["outcome"] == TO_CHOICE:
                self.turned = card
        elif kind == GIVE_STEP:
            if card == self.turned:
                self.turned = None
            elif pile and pile[-1] == card:
                pile.pop()
            else:
                self.complete = False
            self.discards[1 - seat].append(card)
        elif kind == KEPT:
            self.turned = None
            pile.append(card)
        elif kind == HOME:
            if pile and pile[-1] == card:
                pile.pop()
            else:
                self.complete = False
        elif kind == RECYCLE:
            # Turned over as a block: the oldest discard becomes the top of the stock.
            self.stocks[seat] = pile[::-1]
            pile.clear()

    def knows_all(self, view) -> bool:
        """Whether the memory knows every pile of the position ``view`` shows (and agrees with it)."""
        if not self.complete or None in self.stocks:
            return False
        return all(self._agrees(view, s) for s in SEATS)

    def position(self, view) -> Optional[Deal]:
        """The deal at ``view``'s position, every card where the memory knows it is,
        or ``None`` while some card's place is unknown."""
        if view.turn is None or not self.knows_all(view):
            return None
        return Deal(self.stocks, self.discards, view.foundations, view.turn, view.turned)

    def positions(self, view, most: int) -> list:
        """Every deal ``view``'s position can be, by what the memory knows: one when it knows
        every card's place; one per order of the stock it has not seen turned over, when
        just one is unseen and it has at most ``most`` orders; else none."""
        deal = self.position(view)
        if deal is not None:
            return [deal]
        if view.turn is None or not self.complete or self.stocks.count(None) != 1:
            return []
        unseen = self.stocks.index(None)
        count = view.stock_counts[unseen]
        if factorial(count) > most or not self._agrees(view, 1 - unseen):
            return []
        # The cards seen nowhere: the unseen stock, in some order.
        foundations = view.foundations
        placed = {*(self.stocks[1 - unseen] or ()), *self.discards[0], *self.discards[1], view.turned}
        cards = [c for c in DECK if c.rank > foundations[c.suit] and c not in placed]
        if len(cards) != count or len(self.discards[unseen]) != view.discard_counts[unseen]:
            return []
        stocks = list(self.stocks)
        deals = []
        for order in permutations(cards):
            stocks[unseen] = order
            deals.append(Deal(stocks, self.discards, foundations, view.turn, view.turned))
        return deals

    def _agrees(self, view, seat: int) -> bool:
        """Whether the memory's piles of ``seat`` agree with ``view``'s counts and top."""
        pile = self.discards[seat]
        return (len(self.stocks[seat] or ()) == view.stock_counts[seat] and len(pile) == view.discard_counts[seat]
                and (pile[-1] if pile else None) == view.discard_tops[seat])
