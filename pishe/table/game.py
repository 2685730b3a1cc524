"""What the table needs of a game, and the registry that finds the games.

A game is data plus pure functions, in the spirit of OpenSpiel's
Game/State/observer and boardgame.io's game object: the table (match, seats,
protocol, fair deck, the page's bridge, the command line) takes a game by its
id and calls only what :class:`Game` lists here; it never imports a game's own
modules. A game lives in ``pishe/games/<package>/`` and registers itself: the
package exposes ``GAMES``, a tuple of :class:`Game` instances, one per variant
(Pişti for four and Pişti for two are two variants of one package, each with
its own id and its :attr:`Game.params`). Nothing else names a game: the
registry finds the packages by scanning ``pishe/games/``, and the build makes
the page's markup from ``web/games/<package>/``. The page's wheel carries the
registry's :func:`declaration` as well (``pishe/games/declared.json``, written by
the build): each package's game ids in the games' order, so that a page finds a
game's package, and its first game, without importing the others (whose code it
downloads only when it deals them).

The contracts are typed: :class:`Game` is the base class a game subclasses;
:class:`State` (a deal's state, what ``new_deal`` returns), :class:`View` (what
``view`` returns), :class:`Bot` (with :class:`Rememberer` and :class:`Watcher`, what some bots
add) are ``typing.Protocol`` classes a game's own types satisfy by their shape. Steps are the game's own values;
:meth:`Game.show_step` says how each one reads to each seat (or that a seat does not
see it at all). :data:`VIEW_KEYS` and :data:`MATCH_KEYS` are the keys of a view's JSON
that the table and the page read, whatever the game (the conformance tests check
every registered game's views for them).
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import random
from pathlib import Path
from typing import Any, Callable, NamedTuple, Optional, Protocol, Sequence, runtime_checkable

from ..cards import Card
from ..errors import UnknownBotError, UnknownGameError
from . import said
from .lang import N_, TABLE, Catalog, _

__all__ = ["Game", "Length", "State", "View", "Bot", "BotFactory", "Rememberer", "Watcher", "VIEW_KEYS", "MATCH_KEYS",
           "get_game", "is_game", "games", "game_ids", "first_game_id", "declaration", "find_game", "names_card"]


@runtime_checkable
class State(Protocol):
    """A deal's state, as :meth:`Game.new_deal` makes it: the one place its rules live."""

    # Read-only to the table: a plain attribute or a property satisfies them.
    @property
    def turn(self) -> int:
        """The seat to move (meaningless once ``over``)."""

    @property
    def over(self) -> bool:
        """Whether the deal (a deck, in Pişti) has ended."""

    def legal_actions(self) -> tuple:
        """The actions the seat to move may take now: the one source of legality."""

    def apply(self, action: Any, seat: Optional[int] = None) -> list:
        """Apply ``action`` for ``seat`` (which must be the seat to move); return the steps it
        caused (forced ones included). An illegal action raises an
        :class:`~pishe.errors.IllegalActionError` subclass naming the cause and changes nothing."""

    def team_points(self) -> list:
        """Once over, each team's points from this deal, by team."""


@runtime_checkable
class View(Protocol):
    """What one seat sees (:meth:`Game.view`): the game's own value, and its JSON for the page."""

    def to_json(self) -> dict:
        """The view as JSON data, every sentence in it in the seat's words; it holds
        :data:`VIEW_KEYS` (and its ``match``, :data:`MATCH_KEYS`)."""


@runtime_checkable
class Bot(Protocol):
    """A computer player (:meth:`Game.new_bot`). The table asks it at every turn of its seat,
    even when only one action is legal, so that it may keep a memory of what its views showed."""

    def choose(self, view: Any) -> Any:
        """The action to take, from ``view`` (the game's view object for its seat, never the state)."""


#: What makes a bot: ``factory(seat, rng) -> bot`` (:attr:`Game.bots`).
BotFactory = Callable[[int, random.Random], Bot]


@runtime_checkable
class Rememberer(Protocol):
    """A bot that learns from its views across deals: a match replayed from its moves (a
    restored tab) shows it each earlier deal's views at its turns through ``remember``,
    instead of asking it to choose again, so it knows what it knew without the cost."""

    def remember(self, view: Any) -> None:
        """Take in what ``view`` shows, as :meth:`Bot.choose` would, without choosing."""


@runtime_checkable
class Watcher(Protocol):
    """A bot (or the page's memory) that is shown every step as its seat sees it
    (:meth:`Game.show_steps`), so it may remember what the views do not keep."""

    def observe(self, shown: list, new_deal: bool) -> None:
        """``shown``: the steps as :meth:`Game.show_step` shows them to its seat; ``new_deal``
        true for the first steps of each deal."""


#: The keys of a view's JSON (:meth:`View.to_json`, :meth:`Game.blank_view`) that the table
#: and the page read, whatever the game, with their types: the game's id, this seat, the
#: seats' names by seat, the seat to move (``None``: nobody, the deal over or not dealt),
#: the legal actions' texts (empty unless it is this seat's turn), the status sentence, and
#: the match (``None`` before the first deal).
VIEW_KEYS = {"game": str, "seat": int, "names": list, "turn": (int, type(None)), "legal": list,
             "status": str, "match": (dict, type(None))}
#: The keys of a view's ``match`` the table and the page read: the length's id and name, the
#: deal's number and dealer, the scores by team, whether the match is over, and whether the
#: deal is over with another to come (a deal has ended: ``over or next_deal``).
MATCH_KEYS = {"length": str, "length_name": str, "deal": int, "dealer": int, "scores": list, "over": bool,
              "next_deal": bool}


class Length(NamedTuple):
    """A match length: its name on the page, the target score (``None``: no
    target) and the most deals a match may last (``None``: no cap)."""

    name: str
    target: Optional[int]
    max_deals: Optional[int]


class Game:
    """The interface between the table and one game (subclass it; see the module docs)."""

    #: The id in views, messages and saves ("pishe-pasha", "pisti", "pisti-2"): unique
    #: among all variants of all games.
    id: str
    #: The id the command line names the game by ("pisti" for both Pişti variants);
    #: ``None``: the game's own id.
    family: Optional[str] = None
    #: The variant's parameters, by name (``{"seats": 2}``): what picks this variant of its
    #: family on the command line (``{"game": "pisti", "seats": 2}``).
    params: dict = {}
    #: The variant's name in its family, what ``--variant`` and a play-out line's ``"variant"``
    #: pick it by ("2" for Pişti for two; its id picks it too); "": the family's only variant.
    variant: str = ""
    #: Where the game stands among the games, smallest first: the page's game choice and the
    #: command line list them so, and the first is the one a page deals first and the command
    #: line plays by default (Pishe Pasha 10, Pişti 20; a new game picks a number of its own).
    #: A package's variants may share one: they keep their order in its ``GAMES``.
    order: int
    #: The name players read ("Pishe Pasha", "Pişti"), in English, marked for the game's own
    #: catalog (:attr:`catalog`), as are its titles:
    name: str
    #: the page's title at the computer's table ("Pişti: play the computer"),
    computer_title: str
    #: and at a friends' table ("Pişti: play with friends").
    friends_title: str
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
    bots: dict[str, BotFactory]
    #: The computer's levels a page offers, in the order shown: bot name -> the level's name
    #: there (``computer``'s is chosen at first, or else the first); none: the computer
    #: plays ``computer``.
    levels: dict = {}
    #: A sentence on how the levels play, shown under them on the page ("" : none).
    levels_note: str = ""
    #: Refusal words by error code (a host's ``"code"``, see
    #: :func:`~pishe.table.protocol.wire.error_code`): what a guest reads when the host
    #: refuses a move of this game's for a cause of its own ("give-not-allowed").
    refusals: dict = {}
    #: Whether a deal may score negative points for a team.
    negative_points: bool = False

    @property
    def package(self) -> str:
        """The game's package under ``pishe/games/`` (and folder under ``web/games/``)."""
        return type(self).__module__.split(".")[2]

    @property
    def family_id(self) -> str:
        """The id the command line names the game by (:attr:`family`, else :attr:`id`)."""
        return self.family or self.id

    def match_over(self, length: Length, scores: Sequence[int], deals: int) -> bool:
        """Whether a match of ``length`` is over after its deal number ``deals`` has ended
        with ``scores`` by team. By default: when the length's most deals have been played,
        or a team is at or past the target with no other team level with it at the top.
        A game with its own end rule overrides this."""
        if length.max_deals is not None and deals >= length.max_deals:
            return True
        if length.target is None:
            return False
        best = max(scores)
        return best >= length.target and list(scores).count(best) == 1

    def check_points(self, points: Sequence) -> bool:
        """Whether ``points`` can be one deal's score by team in this game (used to check
        a saved or a host's match before it is resumed)."""
        return (len(points) == len(self.teams)
                and all(type(p) is int and (p >= 0 or self.negative_points) for p in points))

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

    def new_deal(self, deck: Sequence[Card], dealer: int) -> State:
        """A new deal's state from ``deck`` (all 52 cards, bottom to top) dealt by ``dealer``."""
        raise NotImplementedError

    def deal_steps(self, state: Any) -> list:
        """The steps that dealing made, before any action (cards to the middle, packets)."""
        return []

    def replay(self, state: Any, action: Any, seat: int) -> list:
        """Play ``action`` of ``seat`` on a page's engine of a no-peek deal, where every hand
        the page cannot see holds stand-ins (pishe/table/partial.py): the steps it caused.
        Only the rules that rest on what the page sees may be checked there; the end check
        (fair.py) replays the deal with every card open and every rule. By default every rule,
        for a game whose legality never rests on the other cards of a hand (a game where it
        does, as Batak's following rules, checks the rest at the end)."""
        return state.apply(action, seat)

    def parse_action(self, text: Any) -> Any:
        """The action written ``text`` (its text form); raises
        :class:`~pishe.errors.UnknownActionError` for anything else."""
        raise NotImplementedError

    def action_text(self, action: Any) -> str:
        """The text form of ``action`` (the inverse of :meth:`parse_action`)."""
        return str(action)

    def view(self, match, seat: int, names: Optional[Sequence[str]] = None) -> View:
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

    def describe_timeout(self, shown: dict, seat: int) -> str:
        """Plain words for the first step of a move the table made for a person whose clock
        ran out (its seat is ``shown["seat"]``), from ``seat``'s side: the game's own words
        say that the computer chose it ("Time ran out: the computer plays your K♣")."""
        return _("{step} (time ran out: the computer's choice)").format(step=self.describe(shown, seat))

    def words(self, steps, seat: int, timed_out: bool = False) -> list:
        """Plain words for each of ``steps`` that ``seat`` sees, from its side, in order: each a
        :class:`~pishe.table.said.Said`, which keeps the step as shown, to say it again in
        another language; ``timed_out``: the steps are of a move the table made for a person
        whose clock ran out, so the first reads so (:meth:`describe_timeout`)."""
        shown = (self.show_step(step, seat) for step in steps)
        return said.steps(self, [data for data in shown if data is not None], seat, {0} if timed_out else ())

    def motion(self, shown: dict, seat: int) -> list:
        """How the step ``shown`` (as :meth:`show_step` showed it to ``seat``) moves cards on
        the table, for the page to show them travelling: a list of ``{"card": a card's JSON or
        None (a card the seat may not see), "from": place, "to": place, "sweep": whether a
        whole pile goes, "sound": "lay" | "capture" | "pishti" | None}``. Places are the
        game's painter's names ("pile", "hand:1", "team:0"). None by default."""
        return []

    def motions(self, steps, seat: int) -> list:
        """:meth:`motion` of each of ``steps`` that ``seat`` sees, in order: the page moves
        them one after the other."""
        return [move for data in (self.show_step(step, seat) for step in steps) if data is not None
                for move in self.motion(data, seat)]

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

    def new_bot(self, name: str, seat: int, rng: Optional[random.Random] = None) -> Bot:
        """A new bot called ``name`` for ``seat``; raises :class:`UnknownBotError`."""
        try:
            factory = self.bots[name]
        except (KeyError, TypeError):
            raise UnknownBotError(f"unknown bot {name!r}: choose one of {', '.join(self.bots)}") from None
        return factory(seat, rng if rng is not None else random.Random())


# -- The registry: every package under pishe/games/ that exposes GAMES ----------------

_found: dict = {}       # game id -> Game, of the packages imported so far
_imported: list = []    # those packages, in order
#: The file in pishe/games/ that holds the registry's :func:`declaration` in a page's wheel.
DECLARED = "declared.json"
_declared: list = []    # that declaration, once read: [] until then, [None] where there is none


def _declaration_read() -> Optional[list]:
    """The declaration the build wrote beside the games (None in a source checkout)."""
    if not _declared:
        folder = importlib.import_module("pishe.games").__path__
        path = Path(next(iter(folder))) / DECLARED
        _declared.append(json.loads(path.read_text(encoding="utf-8")) if path.exists() else None)
    return _declared[0]


def _packages() -> list:
    declared = _declaration_read()
    if declared is not None:
        return sorted(entry["package"] for entry in declared)
    folder = importlib.import_module("pishe.games").__path__
    return sorted(name for _, name, is_package in pkgutil.iter_modules(folder) if is_package)


def _import(package: str) -> None:
    for game in importlib.import_module(f"pishe.games.{package}").GAMES:
        if game.id in _found:
            raise RuntimeError(f"two games have the id {game.id!r}")
        if not isinstance(getattr(game, "order", None), int):
            raise RuntimeError(f"the game {game.id!r} declares no order (Game.order: where it stands among the games)")
        _found[game.id] = game
    _imported.append(package)


def get_game(game_id: str) -> Game:
    """The game (variant) ``game_id``. Packages are imported only as far as needed to
    find it (start-up imports one game's; with the build's declaration, only its own)."""
    declared = _declaration_read()
    if isinstance(game_id, str):
        if game_id in _found:
            return _found[game_id]      # no scan of the folder: get_game runs on every message
        for package in _packages() if declared is None else [e["package"] for e in declared if game_id in e["ids"]]:
            if package not in _imported:
                _import(package)
                if game_id in _found:
                    return _found[game_id]
    known = [i for entry in declared for i in entry["ids"]] if declared is not None else game_ids()
    raise UnknownGameError(f"unknown game {str(game_id)[:40]!r}: choose one of {', '.join(known)}")


def is_game(game_id) -> bool:
    """Whether ``game_id`` is a registered game's id (imports no more than :func:`get_game`)."""
    try:
        get_game(game_id)
    except UnknownGameError:
        return False
    return True


def games() -> tuple:
    """Every registered game and variant, in the games' declared order (:attr:`Game.order`;
    a package's variants in its ``GAMES`` order). The first is the one a page and the
    command line play by default."""
    for package in _packages():
        if package not in _imported:
            _import(package)
    packages = {package: n for n, package in enumerate(_packages())}
    return tuple(sorted(_found.values(), key=lambda g: (g.order, packages[g.package])))


def game_ids() -> tuple:
    """The ids of :func:`games`, in order."""
    return tuple(game.id for game in games())


def first_game_id() -> str:
    """The id of the first of :func:`games`, the one a page deals first: from the build's
    declaration where there is one (a page's wheel), importing no game."""
    declared = _declaration_read()
    return declared[0]["ids"][0] if declared else game_ids()[0]


def declaration() -> list:
    """What the build writes beside the games of a page's wheel (pishe/games/declared.json):
    ``[{"package", "ids"}]``, each package's game ids in the games' order (:func:`games`),
    packages in the order of their first game."""
    found: dict = {}
    for game in games():
        found.setdefault(game.package, []).append(game.id)
    return [{"package": package, "ids": ids} for package, ids in found.items()]


def find_game(name: str, params: dict, variant: Optional[str] = None) -> Game:
    """The game the command line names: ``name`` is a game's id or its family's
    (``"pisti"``); ``variant`` a variant's name in that family or its id (``"2"``,
    ``"pisti-2"``); ``params`` the variant's parameters given with it (``{"seats": 2}``).
    Neither: the variant whose id is ``name``, else the family's first."""
    family = [g for g in games() if g.family_id == name] if isinstance(name, str) else []
    if not family:
        raise UnknownGameError(f"unknown game {str(name)[:40]!r}: choose one of "
                               f"{', '.join(dict.fromkeys(g.family_id for g in games()))}")
    if variant is not None:
        family = [g for g in family if variant in (g.variant, g.id)]
        if not family:
            offered = ", ".join(g.variant or g.id for g in games() if g.family_id == name)
            raise UnknownGameError(f"{name} has no variant {str(variant)[:40]!r}: choose one of {offered}")
    if not params:
        return next((g for g in family if g.id == name), family[0])
    for game in family:
        if all(game.params.get(key, object()) == value for key, value in params.items()):
            return game
    offered = "; ".join(", ".join(f"{k} {v}" for k, v in g.params.items()) for g in family if g.params)
    raise UnknownGameError(f"{name} has no variant with {', '.join(f'{k} {v!r}' for k, v in params.items())}"
                           + (f": choose one of {offered}" if offered else ""))


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
