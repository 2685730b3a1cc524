"""Pişti (SPEC-PISHTI.md): four seats in two partnerships, the game the table plays by id
``"pisti"``, and pagat's two-player game, id ``"pisti-2"``: two variants of one package.

Modules: :mod:`.deal` (one deck's state and its rules), :mod:`.view` (what a
seat sees and the words for it), :mod:`.bots` (computer players),
:mod:`.cli` (tournaments and play-out lines for the command line alone, found by
:class:`pishe.table.cli.CommandLine`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Sequence

from ...cards import Card
from ...errors import InvalidCardError, UnknownActionError
from ...table.game import Game, Length
from .words import N_, WORDS
from .bots import BOTS, COMPUTER, LEVELS
from .deal import CardNotInHandError, Deck, InvalidDeckError, Step
from .view import (GAME_IDS, PistiView, blank_view, describe, describe_timeout, hidden_cards, match_info, motion,
                   seat_view, show_step, view_from_json)

if TYPE_CHECKING:
    # The game's types are the table's contracts: mypy checks each against its protocol.
    from ...table.game import Rememberer, State, View
    from .greedy import GreedyBot

    _STATE: type[State] = Deck
    _VIEW: type[View] = PistiView
    _REMEMBERING_BOT: type[Rememberer] = GreedyBot

__all__ = ["GAME", "GAMES", "PistiGame", "Deck", "Step", "PistiView", "CardNotInHandError", "InvalidDeckError"]


class PistiGame(Game):
    """Pişti at our table for ``seats`` players (4: two partnerships; 2: pagat's game for
    two, the same rules with six rounds of packets): actions are :class:`~pishe.cards.Card`
    values, states are :class:`~.deal.Deck`, views are :class:`~.view.PistiView`. The
    seat before seat 0 deals deck 1, so that seat 0 leads it."""

    family = "pisti"
    order = 20
    deal_name = N_("Deck")
    lengths = {
        "101": Length(N_("First to 101"), 101, 99),
        "51": Length(N_("First to 51"), 51, 99),
        "151": Length(N_("First to 151"), 151, 99),
    }
    catalog = WORDS
    computer = COMPUTER
    bots = BOTS
    levels = LEVELS
    levels_note = N_("All three computers play at this level, your partner too. Easy forgets the cards played "
                     "and sometimes throws a jack away; Medium takes whenever it can; Hard also reads what the "
                     "others' plays reveal of their hands and looks ahead to the end of the deck.")
    refusals = {"card-not-in-hand": N_("That card is not in your hand.")}

    def __init__(self, seats: int = 4):
        self.seats = seats
        self.id = GAME_IDS[seats]
        if seats == 4:
            self.name = N_("Pişti")
            self.computer_title, self.friends_title = N_("Pişti: play the computer"), N_("Pişti: play with friends")
        else:
            self.name = N_("Pişti for two")
            self.computer_title = N_("Pişti for two: play the computer")
            self.friends_title = N_("Pişti for two: play a friend")
        self.params = {"seats": seats}
        self.variant = str(seats)
        if seats == 2:
            self.levels_note = N_("The computer plays at this level. Easy forgets the cards played and sometimes "
                                  "throws a jack away; Medium takes whenever it can; Hard also reads what your "
                                  "plays reveal of your hand and looks ahead to the end of the deck.")
        self.teams = ((0, 2), (1, 3)) if seats == 4 else ((0,), (1,))
        self.first_dealer = seats - 1

    def new_deal(self, deck: Sequence[Card], dealer: int) -> Deck:
        """A new deck's state from ``deck`` (the 52 cards, bottom to top) dealt by ``dealer``."""
        return Deck.deal(deck, dealer, self.seats)

    def deal_steps(self, state: Deck) -> list:
        """The dealing's steps: jacks sent under, the opening cards, the first packets."""
        return state.log[:len(state.sent_under) + 1 + self.seats]

    def parse_action(self, text: Any) -> Card:
        """The card written ``text`` ("7H"); raises :class:`~pishe.errors.UnknownActionError` otherwise."""
        try:
            return Card.parse(text)
        except InvalidCardError as e:
            raise UnknownActionError(str(e)) from None

    def action_text(self, action: Card) -> str:
        """The text form of a card ("7H")."""
        return str(action)

    def view(self, match, seat: int, names: Optional[Sequence[str]] = None) -> PistiView:
        """``seat``'s view of ``match``'s current deck (see :func:`.view.seat_view`)."""
        return seat_view(match.deal, seat, match_info(match, seat, names), names)

    def blank_view(self, seat: int, names: Optional[Sequence[str]], status: str) -> dict:
        """``seat``'s view before the first deck is dealt (see :func:`.view.blank_view`)."""
        return blank_view(seat, names, status, self.seats)

    def reword(self, data: dict, names: Optional[Sequence[str]] = None) -> dict:
        """The view JSON made anew from its data (see :func:`.view.view_from_json`)."""
        return view_from_json(self, data, names).to_json()

    def show_step(self, step: Step, seat: int) -> Optional[dict]:
        """How ``step`` reads to ``seat`` as JSON data (see :func:`.view.show_step`)."""
        return show_step(step, seat)

    def describe(self, shown: dict, seat: int) -> str:
        """Plain words for ``shown`` from ``seat``'s side (see :func:`.view.describe`)."""
        return describe(shown, seat, None, self.seats)

    def describe_timeout(self, shown: dict, seat: int) -> str:
        """The words for a card played when its seat's time ran out (see :func:`.view.describe_timeout`)."""
        return describe_timeout(shown, seat, None, self.seats)

    def motion(self, shown: dict, seat: int) -> list:
        """The cards ``shown`` moves, for the page (see :func:`.view.motion`)."""
        return motion(shown)

    def hidden_cards(self, state: Deck, seat: int) -> set:
        """The cards ``seat`` may not see now (see :func:`.view.hidden_cards`)."""
        return hidden_cards(state, seat)


#: The game for four, as :func:`pishe.table.game.get_game` finds it by ``"pisti"``.
GAME = PistiGame(4)
#: The variants the table's registry finds (:func:`pishe.table.game.games`): for four, for two.
GAMES = (GAME, PistiGame(2))
