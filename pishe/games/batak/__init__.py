"""İhaleli Batak (SPEC-BATAK.md): four seats, an auction for the right to name trumps, a
contract of tricks to make. Two variants of one package: Batak, every seat for itself (id
``"batak"``, the default), and Eşli Batak, partners opposite (id ``"batak-esli"``).

Modules: :mod:`.deal` (one deal's state and its rules), :mod:`.view` (what a seat sees and
the words for it), :mod:`.memory` (what a seat has seen), :mod:`.baseline` and :mod:`.bots`
(computer players), :mod:`.cli` (the command line's tournaments and play-out lines).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Sequence

from ...cards import Card
from ...errors import InvalidCardError, UnknownActionError
from ...table.game import Game, Length
from .words import N_, WORDS
from .bots import BOTS, COMPUTER, LEVELS
from .deal import PASS, Deal, Step, bid_text
from .view import (GAME_IDS, BatakView, blank_view, describe, describe_timeout, hidden_cards, match_info, motion,
                   seat_view, show_step, view_from_json)

if TYPE_CHECKING:
    # The game's types are the table's contracts: mypy checks each against its protocol.
    from ...table.game import Rememberer, State, View
    from .baseline import BaselineBot

    _STATE: type[State] = Deal
    _VIEW: type[View] = BatakView
    _REMEMBERING_BOT: type[Rememberer] = BaselineBot

__all__ = ["GAME", "GAMES", "BatakGame", "Deal", "Step", "BatakView"]


class BatakGame(Game):
    """İhaleli Batak at our table: every seat for itself, or with ``partners`` opposite (Eşli
    Batak). Actions are ``"pass"``, ``"bid N"``, ``"trump S"`` and :class:`~pishe.cards.Card`
    values; states are :class:`~.deal.Deal`, views :class:`~.view.BatakView`. Seat 3 deals
    deal 1, so seat 0 opens the auction."""

    family = "batak"
    order = 30
    seats = 4
    first_dealer = 3
    negative_points = True
    lengths = {
        "8": Length(N_("8 deals"), None, 8),
        "4": Length(N_("4 deals"), None, 4),
        "12": Length(N_("12 deals"), None, 12),
    }
    catalog = WORDS
    computer = COMPUTER
    bots = BOTS
    levels = LEVELS
    levels_note = N_("All three computers play at this level. Easy bids too high and sometimes plays a card at "
                     "random; Medium bids what its high cards are worth and wins tricks as cheaply as it can; Hard "
                     "also reads what the auction and the others' plays reveal of their hands and looks ahead to "
                     "the end of the deal.")
    refusals = {
        "card-not-in-hand": N_("That card is not in your hand."),
        "bid-too-low": N_("Bid more than the highest bid."),
        "bid-too-high": N_("A bid is at most 13 tricks."),
        "out-of-auction": N_("You have passed: a pass is final."),
        "not-bidding-now": N_("The auction is over."),
        "not-trumps-now": N_("Only the auction's winner names trumps, once the auction is over."),
        "not-playing-now": N_("Cards are played once the auction is over and trumps are named."),
        "must-follow-suit": N_("Follow suit: you hold a card of the suit led."),
        "must-beat": N_("Play higher than the trick's highest card of the suit led."),
        "must-trump": N_("You hold no card of the suit led: play a trump."),
        "must-over-trump": N_("Play a trump higher than the trick's highest trump."),
        "trumps-not-broken": N_("Trumps are not broken yet: lead another suit."),
    }

    def __init__(self, partners: bool = False):
        self.partners = partners
        self.id = GAME_IDS[partners]
        if partners:
            self.name = N_("Eşli Batak")
            self.computer_title = N_("Eşli Batak: play the computer")
            self.friends_title = N_("Eşli Batak: play with friends")
        else:
            self.name = N_("Batak")
            self.computer_title, self.friends_title = N_("Batak: play the computer"), N_("Batak: play with friends")
        self.params = {"partners": partners}
        self.variant = "esli" if partners else "solo"
        self.teams = ((0, 2), (1, 3)) if partners else ((0,), (1,), (2,), (3,))

    def new_deal(self, deck: Sequence[Card], dealer: int) -> Deal:
        """A new deal from ``deck`` (the 52 cards, bottom to top) dealt by ``dealer``."""
        return Deal.deal(deck, dealer, self.partners)

    def deal_steps(self, state: Deal) -> list:
        """The dealing's steps: each seat's thirteen cards, and the opener's announced minimum."""
        return state.log[:5]

    def replay(self, state: Deal, action, seat: int) -> list:
        """A move on a page's engine of a no-peek deal: following, beating and trumping rest on
        the mover's whole hand, which the page may hold as stand-ins, so the end check (every
        card open) judges them."""
        return state.apply(action, seat, hand_seen=False)

    def parse_action(self, text: Any) -> Any:
        """The action written ``text``: ``"pass"``, ``"bid N"``, ``"trump S"`` (S one of C D H S)
        or a card ("10H"); raises :class:`~pishe.errors.UnknownActionError` otherwise."""
        if isinstance(text, str):
            word = text.strip().lower()
            if word == PASS:
                return PASS
            parts = word.split()
            if len(parts) == 2 and parts[0] == "bid" and parts[1].isdigit() and 0 < int(parts[1]) < 100:
                return bid_text(int(parts[1]))
            if len(parts) == 2 and parts[0] == "trump" and parts[1].upper() in ("C", "D", "H", "S"):
                return f"trump {parts[1].upper()}"
        try:
            return Card.parse(text)
        except InvalidCardError:
            raise UnknownActionError(f"not an action of Batak: {str(text)[:40]!r} (write pass, bid N, "
                                     "trump S or a card like 10H)") from None

    def action_text(self, action: Any) -> str:
        """The text form of ``action`` ("pass", "bid 7", "trump S", "10H")."""
        return str(action)

    def view(self, match, seat: int, names: Optional[Sequence[str]] = None) -> BatakView:
        """``seat``'s view of ``match``'s current deal (see :func:`.view.seat_view`)."""
        return seat_view(match.deal, seat, match_info(match, seat, names), names)

    def blank_view(self, seat: int, names: Optional[Sequence[str]], status: str) -> dict:
        """``seat``'s view before the first deal is dealt (see :func:`.view.blank_view`)."""
        return blank_view(seat, names, status, self.partners)

    def reword(self, data: dict, names: Optional[Sequence[str]] = None) -> dict:
        """The view JSON made anew from its data (see :func:`.view.view_from_json`)."""
        return view_from_json(self, data, names).to_json()

    def show_step(self, step: Step, seat: int) -> Optional[dict]:
        """How ``step`` reads to ``seat`` as JSON data (see :func:`.view.show_step`)."""
        return show_step(step, seat)

    def describe(self, shown: dict, seat: int) -> str:
        """Plain words for ``shown`` from ``seat``'s side (see :func:`.view.describe`)."""
        return describe(shown, seat, None, self.partners)

    def describe_timeout(self, shown: dict, seat: int) -> str:
        """The words for what the computer did for a seat whose time ran out."""
        return describe_timeout(shown, seat, None, self.partners)

    def motion(self, shown: dict, seat: int) -> list:
        """The cards ``shown`` moves, for the page (see :func:`.view.motion`)."""
        return motion(shown)

    def hidden_cards(self, state: Deal, seat: int) -> set:
        """The cards ``seat`` may not see now: the other seats' hands."""
        return hidden_cards(state, seat)


#: Batak, every seat for itself: what :func:`pishe.table.game.get_game` finds by ``"batak"``.
GAME = BatakGame(False)
#: The variants the table's registry finds: every seat for itself, partners (Eşli Batak).
GAMES = (GAME, BatakGame(True))
