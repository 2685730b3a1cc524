"""One deck of Pişti: the authoritative state and the only place its rules live.

Piles and decks are lists from bottom to top: the last card of the deck is the
top, dealt first; the last card of the pile is its face-up top. The engine is
deterministic: the same deck, dealer and plays always give the same steps and
the same count. Bots play hypothetical decks through this same :meth:`Deck.apply`
(see :meth:`Deck.hypothetical`): there is no second copy of the rules.
"""

from __future__ import annotations

from typing import Callable, NamedTuple, Optional, Sequence

from ...cards import DECK, SUITS, Card
from .words import _
from ...errors import (
    DealNotOverError,
    DealOverError,
    IllegalActionError,
    InvalidPositionError,
    NotYourTurnError,
    PisheError,
    UnknownActionError,
)

__all__ = [
    "Deck", "Step", "CardNotInHandError", "InvalidDeckError",
    "SEATS", "TEAMS", "JACK", "VALUE", "ORDER", "sort_cards",
    "UNDER", "OPENING", "PACKET", "PLAY", "CAPTURE", "PISHTI", "LEFTOVER", "COUNT",
    "PISHTI_POINTS", "JACK_PISHTI_POINTS",
]

#: Seats in order of play, four players (the two-player game has seats 0 and 1).
SEATS = (0, 1, 2, 3)
#: Seats by team: partners sit opposite (two players: each seat is its own team, seat & 1
#: either way).
TEAMS = ((0, 2), (1, 3))
JACK = 11
PISHTI_POINTS = 10
JACK_PISHTI_POINTS = 20
#: The deck's last card (this many plays in all) never makes a pişti.
PLAYS = 48

#: A card's count value: ace 1, jack 1, 2♣ 2, 10♦ 3, else 0.
VALUE = {c: (1 if c.rank in (1, JACK) else 2 if str(c) == "2C" else 3 if str(c) == "10D" else 0)
         for c in DECK}
#: Card order on the table: rank (A 2 … 10 J Q K), then suit ♣ ♦ ♥ ♠.
ORDER = {c: c.rank * 4 + SUITS.index(c.suit) for c in DECK}
_order = ORDER.__getitem__


def sort_cards(cards) -> list:
    """``cards`` as a new list in card order (rank, then ♣ ♦ ♥ ♠)."""
    return sorted(cards, key=_order)


class CardNotInHandError(IllegalActionError):
    """A card the seat to move does not hold."""


class InvalidDeckError(PisheError, ValueError):
    """A deck that is not the 52 cards, each once, or a dealer that is not a seat."""


# Step kinds.
UNDER = "under"        # a jack turned up at the deal, sent under the deck
OPENING = "opening"    # four cards to the middle: three face down (cards), one face up (card)
PACKET = "packet"      # four cards dealt to seat (cards)
PLAY = "play"          # seat's card stays on the pile (count: the pile's cards now)
CAPTURE = "capture"    # seat's card takes the pile (count: cards taken; cards: the
                       # face-down opening cards, when this is the deck's first capture)
PISHTI = "pishti"      # seat's card takes a single card of its rank (points: 10 or 20)
LEFTOVER = "leftover"  # the cards left in the middle go to team (count)
COUNT = "count"        # the deck is counted: points by team


class Step(NamedTuple):
    """Something that happened in a deck, as the engine records it.

    What a seat may see of it, and the words for it: :meth:`PistiGame.show_step`
    and :meth:`PistiGame.describe`. ``points`` is a pişti's points, or the
    count's points by team (a tuple).
    """

    kind: str
    seat: Optional[int] = None
    team: Optional[int] = None
    card: Optional[Card] = None
    count: int = 0  # type: ignore[assignment]  # the field shadows tuple.count, which no step calls
    points: object = 0
    cards: tuple = ()


# Steps on the hot path are made with the C-level tuple constructor, every field
# given (NamedTuple's own constructor is a Python function, several times slower).
_new_step = tuple.__new__


class Deck:
    """The state of one deck of Pişti.

    Build one with :meth:`deal` (a real deck) or :meth:`hypothetical` (a bot's
    guess at the unseen cards); move it with :meth:`apply`; ask it what is
    legal with :meth:`legal_actions`. An illegal action raises an
    :class:`~pishe.errors.IllegalActionError` subclass and changes nothing.

    Four players in two partnerships, or two players (pagat's two-player game: the
    same rules, six rounds of packets instead of three). Attributes (read them,
    never write them): ``seats`` (4 or 2); ``dealer``; ``turn`` (the seat to
    move); ``over``; ``hands`` (by seat, each in card order); ``stock`` (cards
    to be dealt, bottom to top); ``pile`` (bottom to top); ``face_down`` (the
    three face-down opening cards); ``up`` (the opening card turned face up);
    ``sent_under`` (jacks turned up at the deal, in the order sent);
    ``taken`` (captured cards by team); ``pishti`` and ``jack_pishti`` (the
    capturing cards of each team's piştis); ``opening_team`` (the team that took
    the face-down cards, or ``None``); ``last_capture`` (a team or ``None``);
    ``played`` (cards played so far); ``seen`` (by rank: copies shown face up so
    far, the opening card included, the jacks sent under not); ``log`` (every
    step of the deck); ``marks`` (by seat: the index in ``log`` of its last
    play, or ``None``).
    """

    __slots__ = ("seats", "dealer", "turn", "over", "hands", "stock", "pile", "face_down", "up",
                 "sent_under", "taken", "pishti", "jack_pishti", "opening_team", "last_capture",
                 "played", "seen", "log", "marks", "_points")
    seats: int
    dealer: int
    turn: int
    over: bool
    hands: list[list[Card]]
    stock: list[Card]
    pile: list[Card]
    face_down: tuple[Card, ...]
    up: Card
    sent_under: list[Card]
    taken: list[list[Card]]
    pishti: list[list[Card]]
    jack_pishti: list[list[Card]]
    opening_team: Optional[int]
    last_capture: Optional[int]
    played: int
    seen: list[int]
    log: list[Step]
    marks: list[Optional[int]]
    _points: Optional[tuple[int, ...]]

    # -- construction -----------------------------------------------------------------

    @classmethod
    def deal(cls, deck: Sequence[Card], dealer: int, seats: int = 4) -> Deck:
        """A new deck from ``deck`` (the 52 cards, bottom to top) dealt by ``dealer``
        for ``seats`` players (4 or 2).

        Raises :class:`InvalidDeckError` unless ``deck`` holds each card once
        and ``dealer`` is a seat.
        """
        check_deck(deck)
        if seats not in (2, 4) or isinstance(seats, bool):
            raise InvalidDeckError(f"Pişti is played by 4 or 2 players, not {seats!r}")
        if isinstance(dealer, bool) or dealer not in range(seats):
            raise InvalidDeckError(f"the dealer must be a seat from 0 to {seats - 1}, not {dealer!r}")
        self = object.__new__(cls)
        stock = list(deck)
        log = []
        face_down = (stock.pop(), stock.pop(), stock.pop())
        up = stock.pop()
        sent_under = []
        while up.rank == JACK:
            # A jack turned up goes to the bottom; the next top card is turned instead.
            sent_under.append(up)
            log.append(Step(UNDER, dealer, None, up))
            stock.insert(0, up)
            up = stock.pop()
        log.append(Step(OPENING, dealer, None, up, 4, 0, face_down))
        seen = [0] * 14
        seen[up.rank] = 1
        self.seats = seats
        self.dealer = dealer
        self.turn = (dealer + 1) % seats
        self.over = False
        self.hands = [[] for _ in range(seats)]
        self.stock = stock
        self.pile = [*face_down, up]
        self.face_down = face_down
        self.up = up
        self.sent_under = sent_under
        self.taken = [[], []]
        self.pishti = [[], []]
        self.jack_pishti = [[], []]
        self.opening_team = None
        self.last_capture = None
        self.played = 0
        self.seen = seen
        self.log = log
        self.marks = [None] * seats
        self._points = None
        self._deal_packets(log.append)
        return self

    @classmethod
    def hypothetical(cls, *, dealer: int, turn: int, hands, stock, pile, face_down, up, sent_under,
                     taken, pishti, jack_pishti, opening_team, last_capture, played, seen) -> Deck:
        """A deck in the middle of play, from its parts (a bot's guess at what it cannot see).

        Nothing is checked (bots build thousands): :meth:`check` does it when
        wanted. The lists are copied; the log starts empty; ``hands`` say how many seats.
        """
        self = object.__new__(cls)
        self.seats = len(hands)
        self.dealer = dealer
        self.turn = turn
        self.over = False
        self.hands = [sort_cards(h) for h in hands]
        self.stock = list(stock)
        self.pile = list(pile)
        self.face_down = tuple(face_down)
        self.up = up
        self.sent_under = list(sent_under)
        self.taken = [list(taken[0]), list(taken[1])]
        self.pishti = [list(pishti[0]), list(pishti[1])]
        self.jack_pishti = [list(jack_pishti[0]), list(jack_pishti[1])]
        self.opening_team = opening_team
        self.last_capture = last_capture
        self.played = played
        self.seen = list(seen)
        self.log = []
        self.marks = [None] * self.seats
        self._points = None
        return self

    def copy(self) -> Deck:
        """An independent copy to play on; its log starts empty (bots play on copies)."""
        other = object.__new__(Deck)
        other.seats = self.seats
        other.dealer = self.dealer
        other.turn = self.turn
        other.over = self.over
        other.hands = [h[:] for h in self.hands]
        other.stock = self.stock[:]
        other.pile = self.pile[:]
        other.face_down = self.face_down
        other.up = self.up
        other.sent_under = self.sent_under[:]
        t = self.taken
        other.taken = [t[0][:], t[1][:]]
        p = self.pishti
        other.pishti = [p[0][:], p[1][:]]
        j = self.jack_pishti
        other.jack_pishti = [j[0][:], j[1][:]]
        other.opening_team = self.opening_team
        other.last_capture = self.last_capture
        other.played = self.played
        other.seen = self.seen[:]
        other.log = []
        other.marks = [None] * self.seats
        other._points = self._points
        return other

    def check(self) -> None:
        """Raise :class:`~pishe.errors.InvalidPositionError` unless the 52 cards are all here once."""
        cards = [c for h in self.hands for c in h] + self.stock + self.pile + self.taken[0] + self.taken[1]
        if len(cards) != 52 or set(cards) != set(DECK):
            raise InvalidPositionError("the deck's cards are not the 52 cards, each once")

    # -- what the rules allow --------------------------------------------------------

    def legal_actions(self) -> tuple:
        """The cards the seat to move may play now (its hand, in card order): the one source of legality."""
        if self.over:
            return ()
        return tuple(self.hands[self.turn])

    def team_points(self) -> list:
        """Each team's points from this deck, by team (only once it is over)."""
        if not self.over:
            raise DealNotOverError(_("The deck is still being played."))
        return list(self._points or ())

    def tally(self) -> list:
        """Each team's count so far, by team: a dict of cards, aces, jacks, two_clubs,
        ten_diamonds, most_cards, pishti, jack_pishti (points, except cards) and points."""
        rows = []
        counts = [len(self.taken[0]), len(self.taken[1])]
        for team in (0, 1):
            taken = self.taken[team]
            aces = sum(1 for c in taken if c.rank == 1)
            jacks = sum(1 for c in taken if c.rank == JACK)
            two = 2 if any(VALUE[c] == 2 for c in taken) else 0
            ten = 3 if any(VALUE[c] == 3 for c in taken) else 0
            most = 3 if counts[team] > counts[1 - team] and counts[team] >= 27 else 0
            pishti = PISHTI_POINTS * len(self.pishti[team])
            jack_pishti = JACK_PISHTI_POINTS * len(self.jack_pishti[team])
            rows.append({"cards": counts[team], "aces": aces, "jacks": jacks, "two_clubs": two,
                         "ten_diamonds": ten, "most_cards": most, "pishti": pishti,
                         "jack_pishti": jack_pishti,
                         "points": aces + jacks + two + ten + most + pishti + jack_pishti})
        return rows

    # -- moving ----------------------------------------------------------------------

    def apply(self, card: Card, seat: Optional[int] = None) -> list:
        """Play ``card`` for the seat to move (checked against ``seat`` if given).

        Returns the steps it caused: the play (or the capture or pişti it
        made), the next packets when all hands are empty, and at the deck's end
        the leftover and the count. Raises an
        :class:`~pishe.errors.IllegalActionError` subclass and changes nothing
        when the play is not legal now.
        """
        if self.over:
            raise DealOverError(_("The deck is over: all 48 cards have been played."))
        me = self.turn
        if seat is not None and seat != me:
            raise NotYourTurnError(_("It is not your turn."))
        hand = self.hands[me]
        if card not in hand:
            if not isinstance(card, Card):
                raise UnknownActionError(f"not a card: {card!r}")
            raise CardNotInHandError(_("You do not hold the {card}.").format(card=card.display()))
        start = len(self.log)
        self._play(card, None)
        return self.log[start:]

    def play_out(self, card: Card, choose: Callable) -> tuple:
        """Play ``card`` (trusted: one of the legal cards), then the deck to its end, each
        next card ``choose(hand, top, count, seen)`` (the hand of the seat to move, the
        pile's top and number of cards, :attr:`seen`), trusted likewise; each team's points.

        A bot's play-out: :meth:`apply`'s rules in one loop, with no step logged.
        """
        self._play(card, choose)
        return self._points or ()

    def _play(self, card: Card, choose: Optional[Callable]) -> None:
        """The rules: ``card`` played by the seat to move; with ``choose``, the next cards
        too (from it) until the deck is over, logging nothing (:meth:`play_out`)."""
        # The hot path of every play-out: tests and bookkeeping written out.
        hands, pile, seen, seats = self.hands, self.pile, self.seen, self.seats
        record = self.log.append if choose is None else None
        packet_plays = 4 * seats
        me = self.turn
        played = self.played
        while True:
            hands[me].remove(card)
            team = me & 1
            rank = card.rank
            seen[rank] += 1
            played += 1
            if pile and (rank == pile[-1].rank or rank == JACK):
                if len(pile) == 1 and rank == pile[0].rank and played != PLAYS:
                    # The pile is one card (never so before the first capture) and not the last play.
                    if rank == JACK:
                        self.jack_pishti[team].append(card)
                        points = JACK_PISHTI_POINTS
                    else:
                        self.pishti[team].append(card)
                        points = PISHTI_POINTS
                    if record:
                        record(_new_step(Step, (PISHTI, me, team, card, 2, points, ())))
                    taken = self.taken[team]
                    taken.append(pile[0])
                    taken.append(card)
                    pile.clear()
                else:
                    if self.opening_team is None:
                        self.opening_team = team
                        opening = self.face_down
                    else:
                        opening = ()
                    pile.append(card)
                    if record:
                        record(_new_step(Step, (CAPTURE, me, team, card, len(pile), 0, opening)))
                    self.taken[team] += pile
                    pile.clear()
                self.last_capture = team
            else:
                pile.append(card)
                if record:
                    record(_new_step(Step, (PLAY, me, team, card, len(pile), 0, ())))
            if record:
                self.marks[me] = len(self.log) - 1
            me = (me + 1) % seats
            if not played % packet_plays:
                # The dealer has played the last card of a round of packets.
                self.played = played
                if self.stock:
                    self._deal_packets(record)
                else:
                    self.turn = me
                    self._end(record)
                    return
            if choose is None:
                self.turn, self.played = me, played
                return
            card = choose(hands[me], pile[-1] if pile else None, len(pile), seen)

    def _deal_packets(self, record=None) -> None:
        """Four cards to each seat from the stock, the dealer's last (``record``: log.append, or None)."""
        stock, hands = self.stock, self.hands
        seat, seats = self.dealer, self.seats
        for _turn in range(seats):
            seat = (seat + 1) % seats
            packet = sorted((stock.pop(), stock.pop(), stock.pop(), stock.pop()), key=_order)
            hands[seat] = packet
            if record:
                record(_new_step(Step, (PACKET, seat, None, None, 4, 0, tuple(packet))))

    def _end(self, record=None) -> None:
        """The leftover to the last team that took, and the count (``record`` as above)."""
        pile = self.pile
        if pile:
            team = self.last_capture
            assert team is not None, "a leftover follows a capture: 48 cards cannot all lay"
            if record:
                record(_new_step(Step, (LEFTOVER, None, team, None, len(pile), 0, ())))
            self.taken[team] += pile
            pile.clear()
        self.over = True
        self._points = points = self._count()
        if record:
            record(_new_step(Step, (COUNT, None, None, None, 0, points, ())))

    def _count(self) -> tuple:
        """Each team's points (the fast form of :meth:`tally`)."""
        result = []
        t0, t1 = self.taken
        n0, n1 = len(t0), len(t1)
        value = VALUE
        for team, taken in ((0, t0), (1, t1)):
            points = 0
            for c in taken:
                points += value[c]
            if (n0 if team == 0 else n1) >= 27:
                points += 3
            result.append(points + PISHTI_POINTS * len(self.pishti[team])
                          + JACK_PISHTI_POINTS * len(self.jack_pishti[team]))
        return tuple(result)


def check_deck(deck) -> None:
    """Raise :class:`InvalidDeckError` unless ``deck`` is the 52 cards, each once."""
    if not isinstance(deck, (list, tuple)) or len(deck) != 52 or not all(isinstance(c, Card) for c in deck):
        raise InvalidDeckError("a deck must be a list of the 52 cards")
    if len(set(deck)) != 52:
        once, twice = set(), []
        for c in deck:
            if c in once:
                twice.append(c.display())
            once.add(c)
        raise InvalidDeckError(f"a deck holds each card once: {' '.join(twice)} twice")
