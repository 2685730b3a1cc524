"""A seat's view: everything one seat may see, and nothing more.

:func:`seat_view` is the one function that makes it. The bots, the page and
the protocol only ever get views; no stock card is ever in one (a seat sees
stock counts only, its own included).
"""

from __future__ import annotations

from typing import NamedTuple, Optional

from .cards import SUITS, Card
from .deal import GIVE, Deal, Step
from .match import MATCH_LENGTH_NAMES, Match

__all__ = ["SeatView", "seat_view", "GAME"]

#: The game's name in views and messages (a second game will have another).
GAME = "pishe-pasha"


class SeatView(NamedTuple):
    """What ``seat`` sees of a deal (and of its match, when there is one).

    Piles are per seat, indexed by seat number. ``legal`` and ``give_card``
    are empty/None unless it is this seat's turn; ``give_problem`` says in
    plain words why a give is impossible now.
    """

    seat: int
    turn: Optional[int]
    foundations: dict
    stock_counts: tuple
    discard_tops: tuple
    discard_counts: tuple
    turned: Optional[Card]
    legal: tuple
    give_card: Optional[Card]
    give_problem: Optional[str]
    this_turn: tuple
    other_last_turn: tuple
    deal_winner: Optional[int]
    deal_points: Optional[int]
    match: Optional[dict]

    def to_json(self) -> dict:
        """The view as plain JSON data, step texts in this seat's words."""
        seat = self.seat
        card = _card_json
        return {
            "game": GAME,
            "seat": seat,
            "seats": len(self.stock_counts),
            "turn": self.turn,
            "suit_piles": [{"suit": s, "count": self.foundations[s],
                            "top": card(Card(self.foundations[s], s)) if self.foundations[s] else None}
                           for s in SUITS],
            "stocks": [{"count": n} for n in self.stock_counts],
            "discards": [{"count": n, "top": card(top)}
                         for n, top in zip(self.discard_counts, self.discard_tops)],
            "turned": card(self.turned),
            "legal": list(self.legal),
            "give_card": card(self.give_card),
            "give_problem": self.give_problem,
            "this_turn": {"seat": self.turn if self.turn is not None else self.deal_winner,
                          "steps": [s.describe(seat) for s in self.this_turn]},
            "other_last_turn": {"seat": 1 - seat,
                                "steps": [s.describe(seat) for s in self.other_last_turn]},
            "deal_result": (None if self.deal_winner is None
                            else {"winner": self.deal_winner, "points": self.deal_points}),
            "match": self.match,
        }


_new_view = tuple.__new__


def _card_json(card: Optional[Card]) -> Optional[dict]:
    return card.to_json() if card is not None else None


def seat_view(game: Deal | Match, seat: int) -> SeatView:
    """Make ``seat``'s view of a deal or of a match's current deal."""
    if isinstance(game, Match):
        match, deal = game, game.deal
    else:
        match, deal = None, game
    winner, turn = deal.winner, deal.turn
    # Pishe Pasha has two seats (the other is 1 - seat): each seat's piles, unpacked.
    (stock0, stock1), (pile0, pile1) = deal.stocks, deal.discards
    if winner is None and turn == seat:
        legal = deal.legal_actions()
        give_card = deal.give_card()
        problem = None if GIVE in legal else deal.give_problem()
    else:
        legal, give_card = (), None
        problem = "It is not your turn." if winner is None else "The deal is over."
    # Bots build a view at every choice: fields in order, through the C-level tuple
    # constructor (NamedTuple's own is a Python function, several times slower).
    return _new_view(SeatView, (
        seat,
        turn if winner is None else None,
        dict(deal.foundations),
        (len(stock0), len(stock1)),
        (pile0[-1] if pile0 else None, pile1[-1] if pile1 else None),
        (len(pile0), len(pile1)),
        deal.turned,
        legal,
        give_card,
        problem,
        tuple(deal.this_turn),
        tuple(deal.last_turns[1 - seat]),
        winner,
        None if winner is None else deal.points(1 - winner),
        None if match is None else _match_json(match),
    ))


def _match_json(match: Match) -> dict:
    return {
        "length": match.length,
        "length_name": MATCH_LENGTH_NAMES[match.length],
        "target": match.target,
        "deal": match.deal_number,
        "dealer": match.dealer,
        "leader": match.leader,
        "scores": list(match.scores),
        "over": match.over,
        "winner": match.winner,
        "next_deal": match.deal.over and not match.over,
    }
