"""A match: deals in a row, their scores, dealer alternation and the match length."""

from __future__ import annotations

import random
from typing import Optional

from .deal import SEATS, Deal, Step, deal_stocks
from .errors import DealNotOverError, InvalidMatchLengthError, MatchOverError

__all__ = ["Match", "MATCH_LENGTHS", "ONE_DEAL", "FIRST_TO_50", "FIRST_TO_100"]

ONE_DEAL = "one-deal"
FIRST_TO_50 = "first-to-50"
FIRST_TO_100 = "first-to-100"
#: Match lengths and their target score (``None``: the match is one deal).
MATCH_LENGTHS = {ONE_DEAL: None, FIRST_TO_50: 50, FIRST_TO_100: 100}
#: What the page and the command line call each length.
MATCH_LENGTH_NAMES = {ONE_DEAL: "One deal", FIRST_TO_50: "First to 50", FIRST_TO_100: "First to 100"}


class Match:
    """Deals in a row until the match length is reached.

    Deal 1 is dealt by seat 1, so seat 0 leads it; the dealer changes every
    deal. Stocks come from ``rng`` (an explicit generator) unless given.
    """

    def __init__(self, length: str = ONE_DEAL, rng: Optional[random.Random] = None, stocks=None):
        """Start a match of ``length`` and its first deal (from ``stocks`` if given)."""
        if length not in MATCH_LENGTHS:
            raise InvalidMatchLengthError(
                f"unknown match length {length!r}: choose one of {', '.join(MATCH_LENGTHS)}")
        self.length = length
        self.target: Optional[int] = MATCH_LENGTHS[length]
        self.rng = rng if rng is not None else random.Random()
        self._finished: list[tuple[int, int]] = []   # (winner, points) of each deal before this one
        self.deal_number = 0
        self.deal: Deal
        self._start_deal(stocks)

    @classmethod
    def resume(cls, length: str, results: list, stocks) -> Match:
        """A match whose earlier deals ended with ``results`` (``(winner, points)`` each),
        its current deal new from ``stocks``: what a saved match is rebuilt from."""
        match = cls(length, stocks=stocks)
        finished = [(w, p) for w, p in results]
        if not all(w in SEATS and isinstance(p, int) and p >= 0 for w, p in finished):
            raise ValueError("each finished deal needs a winning seat and its points")
        match._finished = finished
        match.deal_number = len(finished) + 1
        match.deal = Deal.from_stocks(stocks, match.leader)
        return match

    @property
    def dealer(self) -> int:
        """The seat that dealt the current deal (seat 1 deals deal 1)."""
        return self.deal_number % 2

    @property
    def leader(self) -> int:
        """The seat that leads the current deal: the one that did not deal."""
        return 1 - self.dealer

    @property
    def results(self) -> list[tuple[int, int]]:
        """``(winner, points)`` of each won deal, the current one included once it is won.

        Derived from the deals themselves, so a deal played on directly
        (as self-play does) is scored all the same.
        """
        deal = self.deal
        if deal.winner is None:
            return list(self._finished)
        return [*self._finished, (deal.winner, deal.points(1 - deal.winner))]

    @property
    def scores(self) -> list[int]:
        """Each seat's points so far in the match."""
        scores = [0 for _ in SEATS]
        for winner, points in self.results:
            scores[winner] += points
        return scores

    @property
    def over(self) -> bool:
        """Whether the match has been decided."""
        if not self.deal.over:
            return False
        if self.target is None:
            return True
        return max(self.scores) >= self.target

    @property
    def winner(self) -> Optional[int]:
        """The seat that won the match, once it is over."""
        if not self.over:
            return None
        scores = self.scores
        return max(SEATS, key=lambda s: scores[s])

    def _start_deal(self, stocks) -> None:
        if self.deal_number:
            self._finished = self.results
        self.deal_number += 1
        if stocks is None:
            stocks = deal_stocks(self.rng)
        self.deal = Deal.from_stocks(stocks, self.leader)

    def apply(self, action: str, seat: Optional[int] = None) -> list[Step]:
        """Apply an action to the current deal (see :meth:`Deal.apply`)."""
        return self.deal.apply(action, seat)

    def next_deal(self, stocks=None) -> None:
        """Deal again once the current deal is over and the match is not."""
        if not self.deal.over:
            raise DealNotOverError("The deal is still being played.")
        if self.over:
            raise MatchOverError("The match is over: start a new match.")
        self._start_deal(stocks)
