"""What the command line does with a game: its own tournament and play-out, or the table's.

A game's package may word its own in a ``cli.py`` (``pishe/games/<package>/cli.py``) with
any of ``tournament(game, a, b, deals, seed, progress) -> dict``, ``tournament_lines(result)
-> list`` and ``play_out(game, data) -> dict``; :class:`CommandLine` takes those it finds
and this module's for the rest, so every game has both without a line of its own. The
page never imports a game's ``cli.py`` (the build leaves it out of the page's wheel).
The table's use only the :class:`~pishe.table.game.Game` contract: deals of a
:class:`~pishe.table.match.Match`, each seat's bot choosing from its own view, watchers
shown the steps they see.
"""

from __future__ import annotations

import importlib
import random
from math import sqrt
from types import ModuleType
from typing import TYPE_CHECKING, Any, Callable, Optional, Sequence

from ..cards import DECK, Card
from ..errors import DealOverError, IllegalActionError, InvalidCardError, InvalidPositionError, PisheError
from .lang import ngettext, _
from .match import Match

if TYPE_CHECKING:
    from .game import Bot, Game

__all__ = ["CommandLine", "PlayOutError", "interval", "line_deck", "play_actions", "play_deal", "tournament",
           "tournament_lines", "play_out"]


class PlayOutError(PisheError, ValueError):
    """A play-out line that is not one (a missing, unknown or malformed field)."""


def interval(pairs: Sequence[float]) -> tuple[float, list[float]]:
    """Mean gain per deal and its 95% interval from per-shuffle pair differences
    (each the A − B points summed over the shuffle's two deals, A on each side once)."""
    n = len(pairs)
    if n == 0:
        return 0.0, [0.0, 0.0]
    mean = sum(pairs) / n
    if n < 2:
        return mean / 2, [mean / 2, mean / 2]
    var = sum((d - mean) ** 2 for d in pairs) / (n - 1)
    half = 1.96 * sqrt(var / n)
    return mean / 2, [(mean - half) / 2, (mean + half) / 2]


def play_deal(match: Match, bots: Sequence[Bot]) -> list[str]:
    """Play ``match``'s current deal to its end, ``bots[seat]`` choosing for each seat from
    its own view (asked at every turn, as the table asks); the actions taken, as text. Bots
    that watch (:class:`~pishe.table.game.Watcher`) are shown each step as their seat sees it."""
    game = match.game
    watchers = list(enumerate(bots))
    game.show_steps(watchers, game.deal_steps(match.deal), new_deal=True)
    taken = []
    while not match.deal.over:
        seat = match.deal.turn
        action = bots[seat].choose(game.view(match, seat))
        game.show_steps(watchers, match.apply(action, seat))
        taken.append(game.action_text(action))
    return taken


def _bots(game: Game, names: Sequence[Any], rng: random.Random) -> list[Bot]:
    return [game.new_bot(name, seat, random.Random(rng.getrandbits(64))) for seat, name in enumerate(names)]


def tournament(game: Game, a: str, b: str, deals: int, seed: Optional[int] = None,
               progress: Optional[Callable[[int], None]] = None) -> dict:
    """Bot ``a``'s side against bot ``b``'s over ``deals`` deals of ``game``: each of
    ``deals // 2`` shuffles is dealt twice, once with A in team 0's seats and once in team
    1's (two teams; with more, A's side is team 0's seats, then the others'). Returns
    ``{"game", "a", "b", "deals", "points": [A, B], "gain", "ci95"}``: the totals, then A's
    mean gain a deal and its 95% interval. ``progress(done)`` is called every 100 deals."""
    if not isinstance(deals, int) or deals < 0 or deals % 2:
        raise ValueError("the number of deals must be even and not negative (each shuffle is played twice)")
    rng = random.Random(seed)
    bot_rng = random.Random(rng.getrandbits(64))
    sides = [set(game.teams[0]), set(range(game.seats)) - set(game.teams[0])]
    seatings = [_bots(game, [a if seat in sides[0] else b for seat in range(game.seats)], bot_rng),
                _bots(game, [b if seat in sides[0] else a for seat in range(game.seats)], bot_rng)]
    points, pairs = [0, 0], []
    for n in range(deals // 2):
        cards = list(DECK)
        rng.shuffle(cards)
        pair = 0
        for a_side, seated in enumerate(seatings):
            match = Match(game, deck=cards)
            play_deal(match, seated)
            by_seat_side = [0, 0]
            for team, got in zip(game.teams, match.deal.team_points()):
                by_seat_side[0 if set(team) <= sides[0] else 1] += got
            points[0] += by_seat_side[a_side]
            points[1] += by_seat_side[1 - a_side]
            pair += by_seat_side[a_side] - by_seat_side[1 - a_side]
        pairs.append(pair)
        if progress is not None and (2 * n + 2) % 100 == 0:
            progress(2 * n + 2)
    gain, ci = interval(pairs)
    return {"game": game.id, "a": a, "b": b, "deals": deals, "points": points,
            "gain": round(gain, 3), "ci95": [round(ci[0], 3), round(ci[1], 3)]}


def tournament_lines(result: dict) -> list:
    """A :func:`tournament` result in lines: each side's points, then A's gain a deal."""
    width = max(len(result["a"]), len(result["b"]))
    low, high = result["ci95"]
    return [*(f"  {name:<{width}}  " + ngettext("{points:>8} point", "{points:>8} points", result["points"][i]).format(
                  points=result["points"][i])
              for i, name in enumerate((result["a"], result["b"]))),
            "  " + _("{a} gains {gain:+.2f} points a deal (95% interval {low:+.2f} to {high:+.2f})").format(
                a=result["a"], gain=result["gain"], low=low, high=high)]


def _check_keys(data: dict, allowed: set) -> None:
    extra = set(data) - allowed
    if extra:
        raise PlayOutError(f"unexpected keys: {', '.join(sorted(extra))}")


def line_deck(data: dict, error: type = InvalidPositionError) -> list[Card]:
    """The cards of a play-out line's ``"deck"``, bottom to top; raises ``error`` unless it is a
    list of 52 card texts (whether each card is there once is the deal's to check)."""
    texts = data.get("deck")
    if not isinstance(texts, list) or len(texts) != 52:
        raise error("deck must be a list of the 52 cards, bottom to top")
    try:
        return [Card.parse(text) for text in texts]
    except InvalidCardError as e:
        raise error(f"deck: {e}") from None


def play_actions(game: Game, deal, actions, apply: Callable, name: str = "action",
                 over: str = "the deal is over") -> None:
    """Plays a play-out line's ``actions`` (the game's action texts, in order) through
    ``apply(action, seat)``, each by ``deal``'s seat to move. Raises :class:`PlayOutError` when
    they are not a list, :class:`~pishe.errors.DealOverError` for one after the deal is over
    (saying ``over``), and an unreadable or illegal one's own error, saying which action it
    was and whose. ``name``: what the game calls an action in these messages (Pişti: "play")."""
    if not isinstance(actions, list):
        raise PlayOutError(f"{name}s must be a list")
    for i, text in enumerate(actions):
        if deal.over:
            raise DealOverError(f"{name} {i + 1} ({str(text)[:40]!r}): {over}")
        try:
            apply(game.parse_action(text), deal.turn)
        except IllegalActionError as e:
            raise type(e)(f"{name} {i + 1} ({str(text)[:40]!r}) by seat {deal.turn}: {e}") from None


def play_out(game: Game, data: dict) -> dict:
    """Answer one ``play-out`` line of ``game`` (its ``game`` and variant keys taken away):
    ``{"deck": [52 cards, bottom to top], "actions": [texts]}`` applies the actions in turn;
    with ``"bots": [names by seat]`` (and an optional ``"seed"``) instead, the bots play the
    deal out. The first deal of a match: its dealer is the game's first. The answer:
    ``"over"``, ``"turn"`` (``None`` once over), ``"legal"`` (the legal actions' texts),
    ``"points"`` by team (``None`` until over) and ``"actions"``, every action taken, as text.
    Raises a :class:`~pishe.errors.PisheError` saying what is wrong."""
    _check_keys(data, {"deck", "actions", "bots", "seed"})
    if ("actions" in data) == ("bots" in data):
        raise PlayOutError('a line needs either "actions" or "bots"')
    cards = line_deck(data)
    if len(set(cards)) != 52:
        raise InvalidPositionError("deck must hold each of the 52 cards once")
    match = Match(game, deck=cards)
    deal = match.deal
    taken: list[str] = []
    if "actions" in data:
        def take(action, seat: int) -> None:
            match.apply(action, seat)
            taken.append(game.action_text(action))

        play_actions(game, deal, data["actions"], take)
    else:
        names = data["bots"]
        if not isinstance(names, list) or len(names) != game.seats:
            raise PlayOutError(f"bots must be a list of {game.seats} bot names, by seat")
        seed = data.get("seed", 0)
        if not isinstance(seed, int):
            raise PlayOutError("seed must be a whole number")
        taken = play_deal(match, _bots(game, names, random.Random(seed)))
    return {
        "over": deal.over,
        "turn": None if deal.over else deal.turn,
        "legal": [] if deal.over else [game.action_text(a) for a in deal.legal_actions()],
        "points": list(deal.team_points()) if deal.over else None,
        "actions": taken,
    }


class CommandLine:
    """The command line's tournament and play-out of ``game``: its package's ``cli.py``'s
    functions where it words them, else the table's (see the module docs)."""

    def __init__(self, game: Game):
        self.game = game
        name = f"pishe.games.{game.package}.cli"
        self.own: Optional[ModuleType] = None
        try:
            self.own = importlib.import_module(name)
        except ModuleNotFoundError as e:
            if e.name != name:          # the module is there but imports something missing
                raise

    def tournament(self, a: str, b: str, deals: int, seed: Optional[int] = None,
                   progress: Optional[Callable[[int], None]] = None) -> dict:
        """Bot ``a`` against bot ``b`` over ``deals`` deals, as JSON data; raises
        :class:`~pishe.errors.UnknownBotError` or ``ValueError`` for arguments it cannot play."""
        return getattr(self.own, "tournament", tournament)(self.game, a, b, deals, seed, progress)

    def tournament_lines(self, result: dict) -> list:
        """A :meth:`tournament` result in lines of text, a line per bot first."""
        return getattr(self.own, "tournament_lines", tournament_lines)(result)

    def play_out(self, data: dict) -> dict:
        """Answer one ``play-out`` line, ``data`` without its ``game``, ``variant`` and
        :attr:`~pishe.table.game.Game.params` keys; raises a :class:`~pishe.errors.PisheError`
        or ``ValueError`` saying what is wrong."""
        return getattr(self.own, "play_out", play_out)(self.game, data)
