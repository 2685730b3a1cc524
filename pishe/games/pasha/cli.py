"""Command-line parts for Pishe Pasha: bot tournaments and play-out lines.

The table's command line (:mod:`pishe.cli`) finds these by their names
(:class:`pishe.table.cli.CommandLine`): :func:`tournament` plays bot A against bot B,
the two alternating as leader, :func:`tournament_lines` reports it; :func:`play_out`
answers one play-out request (a new deal from stocks played out by bots, actions applied
to a position, or a position played on by bots).
"""

from __future__ import annotations

import random
from typing import Optional

from ...cards import parse_cards
from ...errors import IllegalActionError, InvalidCardError, InvalidPositionError, PisheError
from ...table.game import Game
from .deal import Deal
from .play import play_deal
from .position import format_position, parse_position
from .words import ngettext

__all__ = ["tournament", "tournament_lines", "play_out"]


def tournament(game: Game, a: str, b: str, deals: int, seed: Optional[int] = None, progress=None) -> dict:
    """Play ``deals`` deals of ``game`` (Pishe Pasha's), bot ``a`` against bot ``b``; ``a`` leads
    the even-numbered ones.

    Returns ``{"a", "b", "deals", "wins": [a, b], "points": [a, b]}``.
    ``progress(done)`` is called now and then for long runs.
    """
    if not isinstance(deals, int) or deals < 0:
        raise ValueError("the number of deals cannot be negative")
    rng = random.Random(seed)
    # Each bot sits in both seats in turn: one bot object per bot and seat, with its own generator.
    bots = [[game.new_bot(name, seat, random.Random(rng.getrandbits(64))) for seat in (0, 1)] for name in (a, b)]
    wins, points = [0, 0], [0, 0]
    for n in range(deals):
        a_seat = n % 2                 # seat 0 leads every fresh deal: A and B take turns there
        seated = [bots[0][0], bots[1][1]] if a_seat == 0 else [bots[1][0], bots[0][1]]
        deal = Deal.shuffled(rng, leader=0)
        play_deal(deal, seated)
        winner = deal.winner
        assert winner is not None, "a deal played out has a winner"
        player = 0 if winner == a_seat else 1
        wins[player] += 1
        points[player] += deal.points(1 - winner)
        if progress is not None and n % 500 == 499:
            progress(n + 1)
    return {"a": a, "b": b, "deals": deals, "wins": wins, "points": points}


def tournament_lines(result: dict) -> list:
    """A tournament's result in lines: wins and points, a line per bot."""
    width = max(len(result["a"]), len(result["b"]))
    return [f"  {name:<{width}}  " + "  ".join((
                ngettext("{wins:>6} win", "{wins:>6} wins", result["wins"][i]).format(wins=result["wins"][i]),
                ngettext("{points:>8} point", "{points:>8} points", result["points"][i]).format(
                    points=result["points"][i])))
            for i, name in enumerate((result["a"], result["b"]))]


def _check_keys(line: dict, allowed: set, kind: str) -> None:
    extra = set(line) - allowed
    if extra:
        raise InvalidPositionError(f"unexpected keys for {kind}: {', '.join(sorted(extra))}")


def _bots(game: Game, names) -> list:
    if not isinstance(names, list) or len(names) != 2:
        raise PisheError("bots must be a list of two bot names")
    return [game.new_bot(name, seat, random.Random(seat)) for seat, name in enumerate(names)]


def play_out(game: Game, data: dict) -> dict:
    """Answer one play-out request of ``game`` (Pishe Pasha's; see :mod:`pishe.cli`); raises
    PisheError/ValueError."""
    steps = []
    if "stocks" in data:
        _check_keys(data, {"stocks", "leader", "bots"}, "a new deal")
        if not isinstance(data["stocks"], list) or len(data["stocks"]) != 2:
            raise InvalidPositionError("stocks must be a list of two piles")
        leader = data.get("leader", 0)
        if isinstance(leader, bool) or leader not in (0, 1):
            raise InvalidPositionError(f"leader must be seat 0 or 1, not {leader!r}")
        bots = _bots(game, data.get("bots"))
        try:
            stocks = [parse_cards(s) for s in data["stocks"]]
        except InvalidCardError as e:
            raise InvalidPositionError(str(e)) from None
        deal = Deal.from_stocks(stocks, leader)
        steps += play_deal(deal, bots)
    elif "position" in data:
        deal = parse_position(data["position"])
        steps += deal.this_turn           # forced steps due at the position itself
        if "actions" in data:
            _check_keys(data, {"position", "actions"}, "actions from a position")
            actions = data["actions"]
            if not isinstance(actions, list):
                raise PisheError("actions must be a list")
            for i, action in enumerate(actions):
                try:
                    steps += deal.apply(action)
                except IllegalActionError as e:
                    raise IllegalActionError(f"action {i + 1} ({action!r}): {e}") from None
                except TypeError:
                    raise IllegalActionError(f"action {i + 1} is not an action: {action!r}") from None
        else:
            _check_keys(data, {"position", "bots"}, "bots from a position")
            steps += play_deal(deal, _bots(game, data.get("bots")))
    else:
        raise PisheError('a line needs "stocks" (a new deal) or "position"')
    return {
        "winner": deal.winner,
        "score": None if deal.winner is None else deal.points(1 - deal.winner),
        "position": format_position(deal),
        "steps": [s.describe() for s in steps],
    }
