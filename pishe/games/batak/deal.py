"""One deal of İhaleli Batak (SPEC-BATAK.md): the authoritative state and the only place its rules live.

The deck is written bottom to top (the last card is the top). The engine is
deterministic: the same deck, dealer and actions always give the same steps and
points. Actions are ``"pass"``, ``"bid N"``, ``"trump S"`` (texts) and cards
(:class:`~pishe.cards.Card`); :func:`legal_cards` is the one place the rules of
play live, and the bots' look-ahead plays by it too.
"""

from __future__ import annotations

from typing import NamedTuple, Optional, Sequence

from ...cards import DECK, SUITS, Card
from ...errors import (
    DealNotOverError,
    DealOverError,
    IllegalActionError,
    NotYourTurnError,
    PisheError,
    UnknownActionError,
)
from .words import _

__all__ = [
    "Deal", "Step", "POWER", "ORDER", "CODE", "CARD_OF", "SUIT_CODE", "sort_cards", "legal_codes", "winning_code",
    "legal_cards", "trick_winner", "bid_text", "trump_text",
    "PASS", "MAX_BID", "MINIMUM", "HAND", "AUCTION", "TRUMP", "PLAY", "OVER",
    "DEALT", "OPEN", "BID", "PASSED", "WON", "TRUMPS", "CARD", "TRICK", "SCORE",
    "InvalidDeckError", "CardNotInHandError", "BidTooLowError", "BidTooHighError", "OutOfAuctionError",
    "NotBiddingNowError", "NotTrumpsNowError", "NotPlayingNowError", "MustFollowSuitError", "MustBeatError",
    "MustTrumpError", "MustOverTrumpError", "TrumpsNotBrokenError",
]

SEATS = 4
#: Cards a seat holds after the deal, and tricks a deal has.
HAND = 13
#: The highest bid: all thirteen tricks.
MAX_BID = 13
#: The opener's announced minimum: every seat for itself, partners.
MINIMUM = {False: 4, True: 7}
#: The pass, as an action and its text.
PASS = "pass"

#: A card's power in a trick: 2 … 10, J 11, Q 12, K 13, A 14.
POWER = {c: 14 if c.rank == 1 else c.rank for c in DECK}
#: Card order (the legal actions', and the baseline's ties): rank (2 … A), then suit ♣ ♦ ♥ ♠.
ORDER = {c: POWER[c] * 4 + SUITS.index(c.suit) for c in DECK}
_order = ORDER.__getitem__

# Phases.
AUCTION = "auction"
TRUMP = "trump"
PLAY = "play"
OVER = "over"

# Step kinds.
DEALT = "dealt"      # seat was dealt its 13 cards (cards), one at a time from the top
OPEN = "open"        # seat opens the auction at the announced minimum (bid)
BID = "bid"          # seat bids (bid)
PASSED = "pass"      # seat passes, out of the auction
WON = "won"          # seat wins the auction: declarer, at the contract (bid)
TRUMPS = "trumps"    # the declarer names trumps (suit)
CARD = "card"        # seat plays card to the trick
TRICK = "trick"      # seat takes the trick (cards: the trick's, in order played; count: its tricks now)
SCORE = "score"      # the deal is scored (points by team; count: the declarer's side's tricks; bid: contract)


def sort_cards(cards) -> list:
    """``cards`` as a new list in card order (rank 2 … A, then suit ♣ ♦ ♥ ♠)."""
    return sorted(cards, key=_order)


def bid_text(tricks: int) -> str:
    """The text of a bid of ``tricks`` ("bid 7")."""
    return f"bid {tricks}"


def trump_text(suit: str) -> str:
    """The text of naming ``suit`` trumps ("trump S")."""
    return f"trump {suit}"


_TRUMPS = {trump_text(s): s for s in SUITS}


class InvalidDeckError(PisheError, ValueError):
    """A deck that is not the 52 cards, each once, or a dealer that is not a seat."""


class CardNotInHandError(IllegalActionError):
    """A card the seat to move does not hold."""


class BidTooLowError(IllegalActionError):
    """A bid not above the highest bid so far."""


class BidTooHighError(IllegalActionError):
    """A bid of more than thirteen tricks."""


class OutOfAuctionError(IllegalActionError):
    """A bid or pass from a seat that has passed: a pass is final."""


class NotBiddingNowError(IllegalActionError):
    """A bid or pass once the auction is over."""


class NotTrumpsNowError(IllegalActionError):
    """Naming trumps when it is not the declarer's moment to."""


class NotPlayingNowError(IllegalActionError):
    """A card before the auction and the trump choice are over."""


class MustFollowSuitError(IllegalActionError):
    """A card of another suit from a seat holding the suit led."""


class MustBeatError(IllegalActionError):
    """A card of the suit led that does not beat the trick when one of the seat's would."""


class MustTrumpError(IllegalActionError):
    """A card that is no trump from a seat void in the suit led that holds a trump."""


class MustOverTrumpError(IllegalActionError):
    """A trump below the trick's highest from a seat that holds a higher one."""


class TrumpsNotBrokenError(IllegalActionError):
    """A trump led before any trump was played, from a seat holding another suit."""


class Step(NamedTuple):
    """Something that happened in a deal, as the engine records it (see the step kinds above).
    How a seat sees it and the words for it: :mod:`.view`."""

    kind: str
    seat: Optional[int] = None
    bid: int = 0
    suit: Optional[str] = None
    card: Optional[Card] = None
    cards: tuple = ()
    count: int = 0  # type: ignore[assignment]  # the field shadows tuple.count, which no step calls
    points: tuple = ()


#: A card's code for the rules' fast paths: power × 4 + suit (♣ 0, ♦ 1, ♥ 2, ♠ 3), so that codes
#: sort in card order, a suit is ``code & 3`` and, within a suit, the higher code the higher card.
CODE = {c: POWER[c] * 4 + SUITS.index(c.suit) for c in DECK}
#: The card of each code.
CARD_OF = {code: c for c, code in CODE.items()}
#: Each suit letter's number in codes.
SUIT_CODE = {s: i for i, s in enumerate(SUITS)}


def legal_codes(hand: Sequence[int], trick: Sequence[int], trump: int, broken: bool) -> list:
    """The rules of play on codes (:data:`CODE`): the codes of ``hand`` (in card order) that may
    be played to ``trick`` (codes in the order played; empty: a lead), ``trump`` being the trump
    suit's number, ``broken`` whether a trump has been played to an earlier trick.

    Leading: no trump until trumps are broken, unless the hand holds nothing else. Following:
    the suit led, higher than its highest in the trick when the hand can (any card of it once
    the trick holds a trump, the suit led not being trumps); void in it, a trump, higher than
    the trick's highest trump when the hand can; with neither, any card."""
    if not trick:
        if broken:
            return list(hand)
        return [c for c in hand if c & 3 != trump] or list(hand)
    led = trick[0] & 3
    follow = [c for c in hand if c & 3 == led]
    if follow:
        if led != trump:
            for c in trick:
                if c & 3 == trump:
                    return follow
        top = max(c for c in trick if c & 3 == led)
        return [c for c in follow if c > top] or follow
    trumps = [c for c in hand if c & 3 == trump]
    if not trumps:
        return list(hand)
    played = [c for c in trick if c & 3 == trump]
    if played:
        top = max(played)
        return [c for c in trumps if c > top] or trumps
    return trumps


def winning_code(trick: Sequence[int], trump: int) -> int:
    """The index in ``trick`` (codes in the order played) of the card that takes it: the highest
    trump, or with none the highest card of the suit led."""
    best = 0
    for i in range(1, len(trick)):
        c, b = trick[i], trick[best]
        if c & 3 == b & 3:
            if c > b:
                best = i
        elif c & 3 == trump:
            best = i
    return best


def legal_cards(hand: Sequence[Card], trick: Sequence[Card], trump: str, broken: bool) -> list:
    """:func:`legal_codes` on cards: the cards of ``hand`` that may be played to ``trick`` (cards in
    the order played), ``trump`` the trump suit's letter; in card order."""
    code = CODE
    return [CARD_OF[c] for c in legal_codes(sorted(code[c] for c in hand), [code[c] for c in trick],
                                            SUIT_CODE[trump], broken)]


def trick_winner(trick: Sequence[Card], trump: str) -> int:
    """:func:`winning_code` on cards: the index in ``trick`` of the card that takes it."""
    return winning_code([CODE[c] for c in trick], SUIT_CODE[trump])


def check_deck(deck: Sequence[Card]) -> None:
    """Raise :class:`InvalidDeckError` unless ``deck`` holds each of the 52 cards once."""
    if len(deck) != 52 or set(deck) != set(DECK) or not all(isinstance(c, Card) for c in deck):
        raise InvalidDeckError("the deck must be the 52 cards, each once")


class Deal:
    """The state of one deal of Batak (every seat for itself) or Eşli Batak (``partners``).

    Build one with :meth:`deal`; move it with :meth:`apply`; ask it what is legal with
    :meth:`legal_actions`. An illegal action raises an
    :class:`~pishe.errors.IllegalActionError` subclass and changes nothing.

    Attributes (read them, never write them): ``partners``; ``dealer``; ``opener`` (the seat
    after the dealer); ``phase`` (``"auction"``, ``"trump"``, ``"play"``, ``"over"``);
    ``turn``; ``over``; ``hands`` (by seat, in card order); ``auction`` (``(seat, bid)``
    in order, ``bid`` ``None`` for a pass; the first is the opener's announced minimum);
    ``highest`` and ``holder`` (the highest bid so far and its seat); ``passed`` (by seat);
    ``declarer`` and ``contract`` (``None`` until the auction is over); ``trump`` (a suit
    letter, ``None`` until named); ``trick`` (``(seat, card)`` in the order played);
    ``last_trick`` (the last completed trick, likewise) and ``last_winner``; ``tricks`` (by
    seat); ``broken`` (whether a trump has been played); ``played`` (every card played, in
    order); ``log`` (every step); ``marks`` (by seat: the index in ``log`` of its last
    action, or ``None``).
    """

    __slots__ = ("partners", "dealer", "opener", "phase", "turn", "hands", "auction", "highest", "holder",
                 "passed", "declarer", "contract", "trump", "trick", "last_trick", "last_winner", "tricks",
                 "broken", "played", "log", "marks", "_points")
    partners: bool
    dealer: int
    opener: int
    phase: str
    turn: int
    hands: list[list[Card]]
    auction: list[tuple[int, Optional[int]]]
    highest: int
    holder: int
    passed: list[bool]
    declarer: Optional[int]
    contract: Optional[int]
    trump: Optional[str]
    trick: list[tuple[int, Card]]
    last_trick: tuple
    last_winner: Optional[int]
    tricks: list[int]
    broken: bool
    played: list[Card]
    log: list[Step]
    marks: list[Optional[int]]
    _points: Optional[list[int]]

    @classmethod
    def deal(cls, deck: Sequence[Card], dealer: int, partners: bool = False) -> Deal:
        """A new deal from ``deck`` (the 52 cards, bottom to top) dealt by ``dealer``: one card at
        a time from the top, starting with the seat after the dealer, which opens the auction at
        the announced minimum. Raises :class:`InvalidDeckError` for a bad deck or dealer."""
        check_deck(deck)
        if isinstance(dealer, bool) or dealer not in range(SEATS):
            raise InvalidDeckError(f"the dealer must be a seat from 0 to 3, not {dealer!r}")
        self = object.__new__(cls)
        hands: list[list[Card]] = [[] for _ in range(SEATS)]
        for i, card in enumerate(reversed(deck)):
            hands[(dealer + 1 + i) % SEATS].append(card)
        self.partners = bool(partners)
        self.dealer = dealer
        self.opener = opener = (dealer + 1) % SEATS
        self.phase = AUCTION
        self.turn = (opener + 1) % SEATS
        self.hands = [sort_cards(h) for h in hands]
        minimum = MINIMUM[self.partners]
        self.auction = [(opener, minimum)]
        self.highest = minimum
        self.holder = opener
        self.passed = [False] * SEATS
        self.declarer = None
        self.contract = None
        self.trump = None
        self.trick = []
        self.last_trick = ()
        self.last_winner = None
        self.tricks = [0] * SEATS
        self.broken = False
        self.played = []
        self.marks = [None] * SEATS
        self._points = None
        self.log = [*(Step(DEALT, (dealer + 1 + s) % SEATS, cards=tuple(self.hands[(dealer + 1 + s) % SEATS]),
                           count=HAND) for s in range(SEATS)),
                    Step(OPEN, opener, minimum)]
        return self

    @property
    def over(self) -> bool:
        """Whether the thirteen tricks have been played and the deal scored."""
        return self.phase == OVER

    @property
    def minimum(self) -> int:
        """The opener's announced minimum: 4, or 7 in Eşli Batak."""
        return MINIMUM[self.partners]

    def team(self, seat: int) -> int:
        """``seat``'s team: itself, or in Eşli Batak 0 for seats 0 and 2, 1 for seats 1 and 3."""
        return seat & 1 if self.partners else seat

    def trick_cards(self) -> list:
        """The cards of the trick in play, in the order played."""
        return [c for _, c in self.trick]

    # -- what the rules allow ---------------------------------------------------------

    def legal_actions(self) -> tuple:
        """What the seat to move may do now, the one source of legality: in the auction the
        pass first, then each bid still open; the declarer's four suits; else the cards it may
        play, in card order (so the first is a timed-out seat's: pass, or its lowest card)."""
        phase = self.phase
        if phase == AUCTION:
            return (PASS, *(bid_text(n) for n in range(self.highest + 1, MAX_BID + 1)))
        if phase == TRUMP:
            return tuple(trump_text(s) for s in SUITS)
        if phase == PLAY:
            assert self.trump is not None
            return tuple(legal_cards(self.hands[self.turn], self.trick_cards(), self.trump, self.broken))
        return ()

    def team_points(self) -> list:
        """Each team's points from this deal, by team (only once it is over)."""
        if self._points is None:
            raise DealNotOverError(_("The deal is still being played."))
        return list(self._points)

    def team_tricks(self) -> list:
        """Each team's tricks so far, by team."""
        if not self.partners:
            return list(self.tricks)
        return [self.tricks[0] + self.tricks[2], self.tricks[1] + self.tricks[3]]

    # -- moving -----------------------------------------------------------------------

    def apply(self, action, seat: Optional[int] = None, *, hand_seen: bool = True) -> list:
        """Take ``action`` for the seat to move (checked against ``seat`` if given); the steps it
        caused. Raises an :class:`~pishe.errors.IllegalActionError` subclass naming the cause,
        and changes nothing, when it is not legal now. ``hand_seen=False``: the rest of the
        mover's hand may be stand-ins (a page's engine of a no-peek deal), so the following
        rules, which rest on it, are left to the end check."""
        if self.phase == OVER:
            raise DealOverError(_("The deal is over: all thirteen tricks have been played."))
        if isinstance(action, Card):
            return self._card(action, seat, hand_seen)
        if action == PASS:
            return self._bid(None, seat)
        if action in _TRUMPS:
            return self._trump(_TRUMPS[action], seat)
        if isinstance(action, str) and action[:4] == "bid " and action[4:].isdigit() and action[4] != "0":
            return self._bid(int(action[4:]), seat)
        raise UnknownActionError(f"not an action of Batak: {str(action)[:40]!r}")

    def _check_turn(self, seat: Optional[int]) -> int:
        me = self.turn
        if seat is not None and seat != me:
            raise NotYourTurnError(_("It is not your turn."))
        return me

    def _bid(self, bid: Optional[int], seat: Optional[int]) -> list:
        if self.phase != AUCTION:
            raise NotBiddingNowError(_("The auction is over."))
        if seat is not None and seat in range(SEATS) and self.passed[seat]:
            raise OutOfAuctionError(_("You have passed: a pass is final."))
        me = self._check_turn(seat)
        if bid is not None and bid > MAX_BID:
            raise BidTooHighError(_("A bid is at most {most} tricks.").format(most=MAX_BID))
        if bid is not None and bid <= self.highest:
            raise BidTooLowError(_("Bid more than {highest}.").format(highest=self.highest))
        start = len(self.log)
        self.marks[me] = start
        self.auction.append((me, bid))
        if bid is None:
            self.passed[me] = True
            self.log.append(Step(PASSED, me))
        else:
            self.highest, self.holder = bid, me
            self.log.append(Step(BID, me, bid))
        left = [s for s in range(SEATS) if not self.passed[s]]
        if len(left) == 1 or bid == MAX_BID:
            self.declarer, self.contract = self.holder, self.highest
            self.phase = TRUMP
            self.turn = self.holder
            self.log.append(Step(WON, self.holder, self.highest))
        else:
            nxt = (me + 1) % SEATS
            while self.passed[nxt]:
                nxt = (nxt + 1) % SEATS
            self.turn = nxt
        return self.log[start:]

    def _trump(self, suit: str, seat: Optional[int]) -> list:
        if self.phase != TRUMP:
            raise NotTrumpsNowError(_("Only the auction's winner names trumps, once the auction is over."))
        me = self._check_turn(seat)
        start = len(self.log)
        self.marks[me] = start
        self.trump = suit
        self.phase = PLAY
        self.log.append(Step(TRUMPS, me, suit=suit))
        return self.log[start:]

    def _card(self, card: Card, seat: Optional[int], hand_seen: bool = True) -> list:
        if self.phase != PLAY:
            raise NotPlayingNowError(_("Cards are played once the auction is over and trumps are named."))
        me = self._check_turn(seat)
        hand = self.hands[me]
        if card not in hand:
            raise CardNotInHandError(_("You do not hold the {card}.").format(card=card.display()))
        trump = self.trump
        assert trump is not None
        trick = self.trick_cards()
        if hand_seen and card not in legal_cards(hand, trick, trump, self.broken):
            raise self._why_not(card, hand, trick, trump)
        start = len(self.log)
        self.marks[me] = start
        hand.remove(card)
        self.trick.append((me, card))
        self.played.append(card)
        if card.suit == trump:
            self.broken = True
        self.log.append(Step(CARD, me, card=card))
        if len(self.trick) < SEATS:
            self.turn = (me + 1) % SEATS
            return self.log[start:]
        cards = tuple(self.trick_cards())
        best = trick_winner(cards, trump)
        winner = self.trick[best][0]
        self.tricks[winner] += 1
        self.last_trick = tuple(self.trick)
        self.last_winner = winner
        self.trick = []
        self.turn = winner
        self.log.append(Step(TRICK, winner, card=cards[best], cards=cards, count=self.tricks[winner]))
        if len(self.played) == 52:
            self._score()
        return self.log[start:]

    def _why_not(self, card: Card, hand, trick, trump: str) -> IllegalActionError:
        """The named error for ``card``, held but not legal now."""
        display = card.display()
        if not trick:
            return TrumpsNotBrokenError(_("Trumps are not broken yet: lead another suit."))
        led = trick[0].suit
        if card.suit != led and any(c.suit == led for c in hand):
            return MustFollowSuitError(_("Follow suit: you hold a card of the suit led."))
        if card.suit == led:
            return MustBeatError(_("Play higher than the trick's highest card of the suit led: the {card} "
                                   "is not.").format(card=display))
        if card.suit != trump:
            return MustTrumpError(_("You hold no card of the suit led: play a trump."))
        return MustOverTrumpError(_("Play a trump higher than the trick's highest trump: the {card} "
                                    "is not.").format(card=display))

    def _score(self) -> None:
        declarer, contract = self.declarer, self.contract
        assert declarer is not None and contract is not None
        tricks = self.team_tricks()
        side = self.team(declarer)
        made = tricks[side]
        points = list(tricks)
        if made < contract:
            points[side] = -contract
        self._points = points
        self.phase = OVER
        self.log.append(Step(SCORE, declarer, contract, count=made, points=tuple(points)))
