"""Cards: ranks A (low) to K (high), suits clubs, diamonds, hearts, spades.

A card's text form is its rank then its suit letter (``"AS"``, ``"10H"``,
``"KD"``); :func:`Card.parse` and ``str(card)`` round-trip it. The display form
uses suit symbols (``"A♠"``).
"""

from __future__ import annotations

from .errors import InvalidCardError
from .lang import N_, _

__all__ = ["Card", "RANKS", "SUITS", "SUIT_SYMBOLS", "RANK_NAMES", "DECK", "parse_cards"]

#: Rank names by rank number (index 0 unused so that ``RANK_NAMES[1] == "A"``).
RANK_NAMES = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
#: Rank numbers, A = 1 … K = 13.
RANKS = tuple(range(1, 14))
#: Suit letters in suit-pile order.
SUITS = ("C", "D", "H", "S")
#: Suit symbols for the display form.
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
#: Suit names for plain words.
SUIT_NAMES = {"C": N_("clubs"), "D": N_("diamonds"), "H": N_("hearts"), "S": N_("spades")}

#: Rank words for plain words ("queen of hearts").
RANK_WORDS = ("", N_("ace"), "2", "3", "4", "5", "6", "7", "8", "9", "10", N_("jack"), N_("queen"), N_("king"))


class Card:
    """One playing card, an immutable value. There are exactly 52 instances.

    >>> Card.parse("10H").rank, Card.parse("10H").suit
    (10, 'H')
    >>> str(Card.parse("qs")), Card.parse("QS").display()
    ('QS', 'Q♠')
    """

    __slots__ = ("rank", "suit", "_text")
    _text: str
    _interned: dict[str, Card] = {}

    rank: int
    suit: str

    def __new__(cls, rank: int, suit: str) -> Card:
        text = f"{RANK_NAMES[rank] if rank in RANKS else rank}{suit}"
        card = cls._interned.get(text)
        if card is None:
            if rank not in RANKS or suit not in SUITS:
                raise InvalidCardError(f"no such card: rank {rank!r}, suit {suit!r}")
            card = object.__new__(cls)
            object.__setattr__(card, "rank", rank)
            object.__setattr__(card, "suit", suit)
            object.__setattr__(card, "_text", text)
            cls._interned[text] = card
        return card

    def __setattr__(self, name, value):
        raise AttributeError("Card is immutable")

    def __reduce__(self):
        return (Card, (self.rank, self.suit))

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse the text form (``"AS"``, ``"10H"``, case-insensitive)."""
        if not isinstance(text, str):
            raise InvalidCardError(f"a card must be text like 'AS' or '10H', not {text!r}")
        card = cls._interned.get(text) or cls._interned.get(text.strip().upper())
        if card is None:
            raise InvalidCardError(f"not a card: {text!r} (write rank then suit, like 'AS', '10H', 'KD')")
        return card

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card.parse({self._text!r})"

    def display(self) -> str:
        """The display form with a suit symbol: ``"10♥"``."""
        return RANK_NAMES[self.rank] + SUIT_SYMBOLS[self.suit]

    def is_red(self) -> bool:
        """Whether the suit is diamonds or hearts."""
        return self.suit in ("D", "H")

    def name(self) -> str:
        """The card in words, in the page's language: "queen of hearts"."""
        rank = RANK_WORDS[self.rank]
        return _("{rank} of {suit}").format(rank=_(rank) if rank.isalpha() else rank, suit=_(SUIT_NAMES[self.suit]))

    def to_json(self) -> dict:
        """Everything a painter needs to draw the card, without any rule in it."""
        return {
            "code": self._text,
            "rank": RANK_NAMES[self.rank],
            "suit": self.suit,
            "symbol": SUIT_SYMBOLS[self.suit],
            "label": self.display(),
            "name": self.name(),
            "red": self.is_red(),
        }

    def __lt__(self, other: Card) -> bool:
        return (SUITS.index(self.suit), self.rank) < (SUITS.index(other.suit), other.rank)


#: The 52 cards in a fixed order (clubs A–K, diamonds, hearts, spades).
DECK = tuple(Card(rank, suit) for suit in SUITS for rank in RANKS)


def parse_cards(texts) -> list[Card]:
    """Parse a list of card texts; raises :class:`InvalidCardError` naming the bad one."""
    if not isinstance(texts, (list, tuple)):
        raise InvalidCardError(f"expected a list of cards, got {type(texts).__name__}")
    return [Card.parse(t) for t in texts]
