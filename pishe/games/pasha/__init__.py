"""Pishe Pasha, pagat's two-player competitive patience, as a game of the table.

The rules live in :mod:`.deal`, a seat's view and the words of each step in
:mod:`.view`, a seat's memory of the steps shown to it in :mod:`.memory`, the
computer players in :mod:`.bots`; :data:`GAME` is what the table
(:mod:`pishe.table`) sees of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional, Sequence

from ...errors import InvalidStepError, UnknownActionError
from ...table.game import Game, Length
from .words import N_, WORDS
from .bots import FACTORIES
from .deal import ACTIONS, Deal
from .memory import Memory
from .view import (GAME_ID, SeatView, blank_view, motion, seat_view, seen_json, step_from_json, step_to_json,
                   view_from_json)

if TYPE_CHECKING:
    # The game's types are the table's contracts: mypy checks each against its protocol.
    from ...table.game import State, View, Watcher
    from .bots import MemoryBot

    _STATE: type[State] = Deal
    _VIEW: type[View] = SeatView
    _MEMORY: type[Watcher] = Memory
    _REMEMBERING_BOT: type[Watcher] = MemoryBot

__all__ = ["GAME", "GAMES", "PishePasha"]


class PishePasha(Game):
    """Pishe Pasha for the table: two seats, each its own team; seat 1 deals deal 1."""

    id = GAME_ID
    order = 10
    name = N_("Pishe Pasha")
    computer_title = N_("Pishe Pasha: play the computer")
    friends_title = N_("Pishe Pasha: play a friend")
    seats = 2
    teams = ((0,), (1,))
    first_dealer = 1
    lengths = {
        "one-deal": Length(N_("One deal"), None, 1),
        "first-to-50": Length(N_("First to 50"), 50, None),
        "first-to-100": Length(N_("First to 100"), 100, None),
    }
    catalog = WORDS
    computer = "always-give"
    bots = FACTORIES
    #: The computer's levels on the page: the bot each plays, and its name there.
    levels = {"always-give": N_("Easy"), "memory-4": N_("Medium"), "memory-deep": N_("Hard")}
    levels_note = N_("Easy gives whenever it can. Hard remembers every card it has seen, as you could, "
                     "and looks ahead to the end of the deal. Medium remembers too, but looks only four turns ahead.")
    refusals = {
        "give-not-allowed": N_("You cannot give now."),
        "keep-not-allowed": N_("You cannot keep now."),
        "turn-not-allowed": N_("You cannot turn a card now."),
    }

    def new_deal(self, deck, dealer: int) -> Deal:
        """Seat 0's stock is the deck's first 26 cards, seat 1's the rest; the non-dealer leads."""
        return Deal.from_deck(deck, dealer)

    def parse_action(self, text) -> str:
        """``give``, ``turn`` or ``keep``."""
        if not isinstance(text, str) or text not in ACTIONS:
            raise UnknownActionError(f"unknown action {str(text)[:40]!r}: the actions are give, turn and keep")
        return text

    def view(self, match, seat: int, names: Optional[Sequence[str]] = None) -> SeatView:
        """The seat's :class:`~.view.SeatView` (names default to "You" and "Opponent")."""
        return seat_view(match, seat, names)

    def reword(self, data: dict, names: Optional[Sequence[str]] = None) -> dict:
        """The view JSON made anew from its data (see :func:`.view.view_from_json`)."""
        return view_from_json(self, data, names).to_json()

    def blank_view(self, seat: int, names: Optional[Sequence[str]], status: str) -> dict:
        """The seat's view JSON before the cards are dealt."""
        return blank_view(seat, names, status)

    def show_step(self, step, seat: int) -> dict:
        """Every step of Pishe Pasha is public: it reads the same to both seats."""
        return step_to_json(step)

    def describe(self, shown: dict, seat: int) -> str:
        """The step's words from ``seat``'s side ("They give the 6♠ to your 7♦")."""
        try:
            return step_from_json(shown).describe(seat)
        except (AttributeError, KeyError, TypeError):
            raise InvalidStepError("the step does not hold together") from None

    def motion(self, shown: dict, seat: int) -> list:
        """The cards ``shown`` moves, for the page (see :func:`.view.motion`)."""
        return motion(shown)

    def new_memory(self, seat: int) -> Memory:
        """The memory the bots that remember keep, for the page's "Show what you have seen"."""
        return Memory()

    def seen(self, memory: Memory, seat: int, names: Optional[Sequence[str]] = None) -> dict:
        """Each seat's stock order once known and its next stock (see :func:`.view.seen_json`)."""
        return seen_json(memory, seat, names)

    def hidden_cards(self, state: Deal, seat: int) -> set:
        """Every stock card, the seat's own included: nobody sees a stock card."""
        return set(state.stocks[0]) | set(state.stocks[1])


GAME = PishePasha()
#: The variants the table's registry finds (:func:`pishe.table.game.games`).
GAMES = (GAME,)
