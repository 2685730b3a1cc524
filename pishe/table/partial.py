"""A deal as one page knows it: the game's own engine on the cards its seat was opened.

In the no-peek deal (:mod:`pishe.table.nopeek`) no page knows the whole deck. Each page
still runs the game's one engine, unchanged: :class:`PartialDeal` deals it a deck whose
**known** positions (the cards opened to this page) hold their cards and whose other
positions hold **stand-ins**, the cards it was not opened, in the fixed order of
:data:`~pishe.cards.DECK`: a function of what the page knows, never of the deal. A
stand-in is where the deal put that card only by a chance the page cannot tell apart.
Learning a card rebuilds the deck and replays the deal's moves on it (the engines are
deterministic), so the state is always "the deal as far as this seat can tell".

That is enough to play, because a game's rules only ever look at cards some seat may
see: a move is made with an opened card, a turned card is opened as it turns. What
*may* be seen is the game's own ``hidden_cards``: :meth:`PartialDeal.visible` maps it to
positions (the deck is a one-to-one map of positions and cards, stand-ins included), so
that every page tells, from the public moves and its own cards, which position a move
opens to whom. Where the flow of a deal depends on an opened card (a jack turned up at
Pişti's deal goes under, a Pishe Pasha turned card goes home or to a pile), the page
opens the positions the stand-ins say, learns them and asks again, until nothing new is
visible (:meth:`PartialDeal.settled`).
"""

from __future__ import annotations

from typing import Optional

from ..cards import DECK, Card
from ..errors import IllegalActionError

__all__ = ["PartialDeal"]


class PartialDeal:
    """One page's engine over the deal of ``game`` dealt by ``dealer``: what it knows
    (``known``: position -> card) and the deal's moves (``actions``: ``[seat, text]``, and the
    mark of a move the table made for a person)."""

    def __init__(self, game, dealer: int):
        self.game = game
        self.dealer = dealer
        self.known: dict = {}
        self.actions: list = []
        self._state = None
        self._deck: Optional[list[Card]] = None
        self._openable: Optional[tuple] = None        # openable()'s answer until a card is learnt or a move made

    def learn(self, position: int, card: Card) -> bool:
        """Take in that ``position`` holds ``card``; whether it was new. Raises ``ValueError``
        if it contradicts what is known (two positions, one card)."""
        if self.known.get(position) == card:
            return False
        if position in self.known or card in self.known.values():
            raise ValueError(f"position {position} cannot hold {card}: it contradicts a card already opened")
        self.known[position] = card
        self._state = self._deck = self._openable = None
        return True

    def deck(self, shift: int = 0) -> list:
        """The deck the engine plays (bottom to top): known cards, stand-ins elsewhere (the
        unknown cards in :data:`~pishe.cards.DECK` order, turned ``shift`` places on)."""
        if shift == 0 and self._deck is not None:
            return self._deck
        taken = set(self.known.values())
        unknown = [c for c in DECK if c not in taken]
        stand_ins = iter(unknown[shift % len(unknown):] + unknown[:shift % len(unknown)] if unknown else [])
        deck = [self.known[p] if p in self.known else next(stand_ins) for p in range(len(DECK))]
        if shift == 0:
            self._deck = deck
        return deck

    def _play(self, deck: list, extra: Optional[tuple] = None):
        state = self.game.new_deal(list(deck), self.dealer)
        for seat, text, *_mark in self.actions:
            self.game.replay(state, self.game.parse_action(text), seat)
        if extra:
            # This page's own move (or a computer's it plays): it sees that hand whole.
            state.apply(self.game.parse_action(extra[1]), extra[0])
        return state

    @property
    def state(self):
        """The deal after every move, on :meth:`deck` (rebuilt after each card learnt)."""
        if self._state is None:
            self._state = self._play(self.deck())
        return self._state

    def apply(self, seat: int, text: str, mark: Optional[str] = None) -> list:
        """Play move ``text`` for ``seat`` (raises the game's refusal of what this page can
        check, changing nothing: :meth:`Game.replay`): its steps. ``mark``: the table made the
        move for a person (kept as the action's third item)."""
        steps = self.game.replay(self.state, self.game.parse_action(text), seat)
        self.actions.append([seat, text, *([mark] if mark is not None else [])])
        self._openable = None
        return steps

    def trial(self, seat: int, text: str):
        """The state after move ``text`` of ``seat``, on a copy (nothing of this deal changes);
        raises the game's refusal."""
        return self._play(self.deck(), (seat, text))

    def visible(self, state=None, deck=None) -> list:
        """By seat, the positions whose card that seat may see in ``state`` played on ``deck``
        (this deal's state and deck by default), by the game's ``hidden_cards``."""
        state = self.state if state is None else state
        where = {card: p for p, card in enumerate(self.deck() if deck is None else deck)}
        everywhere = set(range(len(DECK)))
        return [everywhere - {where[c] for c in self.game.hidden_cards(state, seat)}
                for seat in range(self.game.seats)]

    def openable(self) -> tuple:
        """``(visible, exact)``: by seat, the positions that may be opened to it now, and
        whether that is all it may see. The course of a deal (which position goes where)
        depends on its public cards only; while one that is public under the stand-ins is
        not known yet, the stand-ins may have sent the deal another way than the cards will
        (a stand-in jack turned up at Pişti's deal goes under, and the next card is turned
        instead of dealt). So until every public card is known, only the positions public
        both under the stand-ins and under the stand-ins turned one place on (each unknown
        position then holds another card) may be opened, and to everyone."""
        if self._openable is None:
            self._openable = self._find_openable()
        seen, exact = self._openable
        return [set(v) for v in seen], exact

    def _find_openable(self) -> tuple:
        seen = self.visible()
        public = set.intersection(*seen)
        if public <= set(self.known):
            return seen, True
        other = self.deck(shift=1)
        try:
            also = set.intersection(*self.visible(self._play(other), other))
        except IllegalActionError:      # the moves are impossible there: nothing is safe to open
            also = set()
        safe = public & also
        return [safe for _ in seen], False

    def settled(self, seat: int) -> bool:
        """Whether ``seat`` knows every position it may see (nothing left to open to it)."""
        seen, exact = self.openable()
        return exact and seen[seat] <= set(self.known)

    def card(self, position: int) -> Optional[Card]:
        """The card known at ``position``, or ``None``."""
        return self.known.get(position)
