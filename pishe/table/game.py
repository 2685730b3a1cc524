"""What the table needs of a game, and the games it knows by id.

A game is data plus pure functions, in the spirit of OpenSpiel's
Game/State/observer and boardgame.io's game object: the table (match, seats,
protocol, fair deck, the page's bridge) takes a game by its id and calls only
what :class:`Game` lists here; it never imports a game's own modules. A game
lives in ``pishe/games/<name>/`` and its package exposes ``GAME``, an
instance of a :class:`Game` subclass.

A deal's **state** (whatever the game's ``new_deal`` returns) offers:

- ``turn``: the seat to move (meaningless once ``over``);
- ``over``: whether the deal (a deck, in Pişti) has ended;
- ``legal_actions()``: the actions the seat to move may take now, as a tuple:
  the one source of legality;
- ``apply(action, seat)``: apply ``action`` for ``seat`` (which must be the
  seat to move), return the list of steps it caused (forced ones included);
  an illegal action raises :class:`~pishe.errors.IllegalActionError` (a
  subclass naming the cause) and changes nothing;
- ``team_points()``: once over, each team's points from this deal, by team.

Steps are the game's own values; :meth:`Game.show_step` says how each one
reads to each seat (or that a seat does not see it at all).

A **bot** is an object with ``choose(view) -> action``, ``view`` being the
game's view object for the bot's seat (never the state). The table asks it
at every turn of its seat, even when only one action is legal, so a bot may
keep a memory of what its views showed it. A bot that also has
``observe(shown, new_deal)`` is shown every step as :meth:`Game.show_step`
shows it to its seat (:meth:`Game.show_steps`), ``new_deal`` true for the
first steps of each deal, so it may remember what the views do not keep.
"""

from __future__ import annotations

import importlib
import random
from typing import Any, NamedTuple, Optional, Sequence

from ..cards import Card
from ..errors import UnknownBotError, UnknownGameError
from .lang import N_, TABLE, Catalog

__all__ = ["Game", "Length", "GAME_IDS", "get_game", "names_card"]


class Length(NamedTuple):
    """A match length: its name on the page, the target score (``None``: no
    target) and the most deals a match may last (``None``: no cap)."""

    name: str
    target: Optional[int]
    max_deals: Optional[int]


class Game:
    """The interface between the table and one game (subclass it; see the module docs)."""

    #: The id in views, messages and saves ("pishe-pasha", "pisti").
    id: str
    #: The name players read ("Pishe Pasha", "Pişti").
    name: str
    #: What players call one deal of a match ("Deal"; Pişti's players say "Deck"), in English:
    #: :meth:`deal_word` says it in the page's language.
    deal_name: str = N_("Deal")
    #: Seats, numbered 0 … seats - 1 in order of play.
    seats: int
    #: Seats by team number: ``((0,), (1,))`` when every seat plays for itself.
    teams: tuple
    #: The seat that deals deal 1 of a match; the deal moves one seat on after each deal.
    first_dealer: int
    #: Match lengths by id; the first one is the default.
    lengths: dict
    #: The bot the page's computer plays.
    computer: str
    #: Bot factories by name: ``factory(seat, rng) -> bot``.
    bots: dict
    #: The computer's levels a page offers: bot name -> the level's name there (the first
    #: is the default); none: the computer plays ``computer``.
    levels: dict = {}
    #: The game's own words (its package's ``locale`` folder, :func:`~pishe.table.lang.catalog`):
    #: its lengths', levels' and deal's names are translated there.
    catalog: Catalog = TABLE

    def word(self, message: str) -> str:
        """``message`` (one of the game's names: a length's, a level's) in the page's language."""
        return self.catalog.gettext(message)

    def deal_word(self) -> str:
        """What players call one deal of a match, in the page's language."""
        return self.word(self.deal_name)

    @property
    def default_length(self) -> str:
        """The match length a new match has when none is chosen."""
        return next(iter(self.lengths))

    def new_deal(self, deck: Sequence[Card], dealer: int) -> Any:
        """A new deal's state from ``deck`` (all 52 cards, bottom to top) dealt by ``dealer``."""
        raise NotImplementedError

    def deal_steps(self, state: Any) -> list:
        """The steps that dealing made, before any action (cards to the middle, packets)."""
        return []

    def parse_action(self, text: Any) -> Any:
        """The action written ``text`` (its text form); raises
        :class:`~pishe.errors.UnknownActionError` for anything else."""
        raise NotImplementedError

    def action_text(self, action: Any) -> str:
        """The text form of ``action`` (the inverse of :meth:`parse_action`)."""
        return str(action)

    def view(self, match, seat: int, names: Optional[Sequence[str]] = None) -> Any:
        """``seat``'s view of ``match``'s current deal: the one function that makes
        what a seat sees. Its ``to_json()`` is what a page paints; ``names`` are the
        seats' names from this seat's side (``None``: the game's own)."""
        raise NotImplementedError

    def reword(self, data: dict, names: Optional[Sequence[str]] = None) -> dict:
        """The view JSON ``data`` (another page's: a host's, sent to this seat) made anew
        from its data alone by the one function that makes a view's JSON, every sentence
        and card label in this page's own words (``names``: as for :meth:`view`). Raises
        ``KeyError``, ``TypeError``, ``ValueError`` or a :class:`~pishe.errors.PisheError`
        for data that is not such a view."""
        raise NotImplementedError

    def blank_view(self, seat: int, names: Optional[Sequence[str]], status: str) -> dict:
        """``seat``'s view JSON at a table whose cards are not dealt yet (a friend's table
        waiting for its guests), ``status`` saying what it waits for."""
        raise NotImplementedError

    def show_step(self, step: Any, seat: int) -> Optional[dict]:
        """How ``step`` reads to ``seat``, as JSON data (``None``: the seat does
        not see it). Equal steps read equally; what it names is what the seat may see."""
        raise NotImplementedError

    def describe(self, shown: dict, seat: int) -> str:
        """Plain words for a step as :meth:`show_step` showed it to ``seat``."""
        raise NotImplementedError

    def words(self, steps, seat: int) -> list:
        """Plain words for each of ``steps`` that ``seat`` sees, from its side, in order."""
        shown = (self.show_step(step, seat) for step in steps)
        return [self.describe(data, seat) for data in shown if data is not None]

    def show_steps(self, watchers, steps, new_deal: bool = False) -> None:
        """Show ``steps`` to each ``(seat, watcher)`` of ``watchers`` that remembers (has
        ``observe``): the steps that seat sees, as :meth:`show_step` shows them to it."""
        for seat, watcher in watchers:
            observe = getattr(watcher, "observe", None)
            if observe is not None:
                shown = (self.show_step(step, seat) for step in steps)
                observe([data for data in shown if data is not None], new_deal)

    def new_memory(self, seat: int) -> Any:
        """A memory of what ``seat`` is shown (see :meth:`show_steps`), for the page's
        "Show what you have seen"; ``None``: the game offers none."""
        return None

    def seen(self, memory: Any, seat: int, names: Optional[Sequence[str]] = None) -> Optional[dict]:
        """What ``memory`` (from :meth:`new_memory`) holds, in ``seat``'s words, for the page."""
        return None

    def hidden_cards(self, state: Any, seat: int) -> set:
        """The cards ``seat`` may not see now: no view or message to it names one."""
        raise NotImplementedError

    def new_bot(self, name: str, seat: int, rng: Optional[random.Random] = None):
        """A new bot called ``name`` for ``seat``; raises :class:`UnknownBotError`."""
        try:
            factory = self.bots[name]
        except (KeyError, TypeError):
            raise UnknownBotError(f"unknown bot {name!r}: choose one of {', '.join(self.bots)}") from None
        return factory(seat, rng if rng is not None else random.Random())


#: Every game the table knows, by id, and the module whose ``GAME`` it is.
_MODULES = {"pishe-pasha": "pishe.games.pasha", "pisti": "pishe.games.pisti"}
GAME_IDS = tuple(_MODULES)


def get_game(game_id: str) -> Game:
    """The game ``game_id``, its package imported only now (start-up imports one game)."""
    module = _MODULES.get(game_id) if isinstance(game_id, str) else None
    if module is None:
        raise UnknownGameError(f"unknown game {game_id!r}: choose one of {', '.join(GAME_IDS)}")
    return importlib.import_module(module).GAME


def names_card(shown, codes) -> bool:
    """Whether JSON data ``shown`` (a view, a step as shown, a message) holds any text in
    ``codes``, the text forms of cards (``{"5H", "QS"}``): how the table makes sure no
    view or message to a seat names a card hidden from it."""
    if isinstance(shown, str):
        return shown in codes
    if isinstance(shown, dict):
        return any(names_card(v, codes) for v in shown.values())
    if isinstance(shown, list):
        return any(names_card(v, codes) for v in shown)
    return False
