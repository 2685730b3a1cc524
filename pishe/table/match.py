"""A match of any game: deals in a row, their scores by team, the dealer moving
one seat on after each deal, the length's target and cap."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Optional, Sequence

from ..cards import DECK, Card
from ..errors import DealNotOverError, InvalidMatchLengthError, MatchOverError
from .lang import _

if TYPE_CHECKING:           # the game's default command line (.cli) plays matches: no import back
    from .game import Game, State

__all__ = ["Match", "shuffled_deck"]


def shuffled_deck(rng: random.Random) -> list[Card]:
    """The 52 cards shuffled by ``rng``, bottom to top."""
    deck = list(DECK)
    rng.shuffle(deck)
    return deck


class Match:
    """Deals of ``game`` in a row until the match length is reached.

    Deal 1 is dealt by ``game.first_dealer``, and the deal moves one seat on
    after every deal. Decks come from ``rng`` (an explicit generator) unless
    given. When the match is over the game says (:meth:`Game.match_over`: by
    default when a team is at or past the target with no other team level
    with it at the top, or when the length's most deals have been played,
    then level scores are a drawn match).
    """

    def __init__(self, game: Game, length: Optional[str] = None, rng: Optional[random.Random] = None,
                 deck: Optional[Sequence[Card]] = None):
        """Start a match of ``length`` (the game's default if ``None``) and its first deal
        (from ``deck``, bottom to top, if given)."""
        length = game.default_length if length is None else length
        if not isinstance(length, str) or length not in game.lengths:
            raise InvalidMatchLengthError(
                f"unknown match length {length!r} for {game.name}: choose one of {', '.join(game.lengths)}")
        self.game = game
        self.length = length
        self.rng = rng if rng is not None else random.Random()
        self._finished: list[list[int]] = []     # each earlier deal's points, by team
        self.deal_number = 0
        self.deal: State            # the current deal's, dealt now
        self._moved = False                      # whether any move was made in this match
        self._start_deal(deck)

    @classmethod
    def resume(cls, game: Game, length: str, results: list, deck: Sequence[Card]) -> Match:
        """A match whose earlier deals scored ``results`` (points by team, one list a deal),
        its current deal new from ``deck``: what a saved match is rebuilt from."""
        match = cls(game, length, deck=deck)
        finished = [list(r) for r in results]
        if not all(game.check_points(r) for r in finished):
            raise ValueError(f"each finished deal needs {len(game.teams)} team scores "
                             f"({'whole numbers' if game.negative_points else 'whole numbers, none negative'})")
        match._finished = finished
        match.deal_number = len(finished) + 1
        match.deal = game.new_deal(list(deck), match.dealer)
        return match

    @property
    def target(self) -> Optional[int]:
        """The score that wins the match (``None``: the match is a number of deals)."""
        return self.game.lengths[self.length].target

    @property
    def length_name(self) -> str:
        """The match length as players read it ("First to 101"), in the page's language."""
        return self.game.word(self.game.lengths[self.length].name)

    @property
    def dealer(self) -> int:
        """The seat that dealt the current deal."""
        return (self.game.first_dealer + self.deal_number - 1) % self.game.seats

    @property
    def results(self) -> list[list[int]]:
        """Each finished deal's points by team, the current one included once it is over.

        Derived from the deals themselves, so a deal played on directly
        (as self-play does) is scored all the same.
        """
        if not self.deal.over:
            return [list(r) for r in self._finished]
        return [*(list(r) for r in self._finished), list(self.deal.team_points())]

    @property
    def scores(self) -> list[int]:
        """Each team's points so far in the match."""
        scores = [0] * len(self.game.teams)
        for points in self.results:
            for team, p in enumerate(points):
                scores[team] += p
        return scores

    @property
    def over(self) -> bool:
        """Whether the match has been decided (or drawn at the cap)."""
        if not self.deal.over:
            return False
        return self.game.match_over(self.game.lengths[self.length], self.scores, self.deal_number)

    @property
    def in_progress(self) -> bool:
        """Whether leaving now would throw play away: the match has begun (a move was made,
        or a later deal is on) and is not over."""
        return (self._moved or self.deal_number > 1) and not self.over

    @property
    def winner(self) -> Optional[int]:
        """The team that won the match once it is over (``None`` before, and for a draw)."""
        if not self.over:
            return None
        scores = self.scores
        best = max(scores)
        return scores.index(best) if scores.count(best) == 1 else None

    def _start_deal(self, deck) -> None:
        if self.deal_number:
            self._finished = self.results
        self.deal_number += 1
        if deck is None:
            deck = shuffled_deck(self.rng)
        self.deal = self.game.new_deal(list(deck), self.dealer)

    def apply(self, action, seat: Optional[int] = None) -> list:
        """Apply an action to the current deal (see the game's state ``apply``)."""
        steps = self.deal.apply(action, seat)
        self._moved = True
        return steps

    def next_deal(self, deck: Optional[Sequence[Card]] = None) -> None:
        """Deal again once the current deal is over and the match is not."""
        if not self.deal.over:
            raise DealNotOverError(_("The deal is still being played."))
        if self.over:
            raise MatchOverError(_("The match is over: start a new match."))
        self._start_deal(deck)

    def to_json(self) -> dict:
        """The match as every seat sees it: length, target, deal, dealer, scores, result."""
        return {
            "length": self.length,
            "length_name": self.length_name,
            "target": self.target,
            "deal": self.deal_number,
            "dealer": self.dealer,
            "scores": self.scores,
            "over": self.over,
            "winner": self.winner,
            "next_deal": self.deal.over and not self.over,
        }
