"""Batak's own tournament and play-out lines for the command line (never shipped to the page).

The table's command line finds these by their names (:class:`pishe.table.cli.CommandLine`):
:func:`tournament` plays bot A against bot B (every seat for itself: A at one seat, B at the
other three, each shuffle dealt four times with A in each seat; Eşli Batak: A's team against
B's, as the table plays partnerships), :func:`tournament_lines` reports it, :func:`play_out`
answers one play-out line.
"""

from __future__ import annotations

import random
from math import sqrt
from typing import Optional

from ...cards import DECK
from ...table import cli as table_cli
from ...table.cli import PlayOutError, line_deck
from ...table.game import Game
from ...table.match import Match
from .deal import Deal, InvalidDeckError
from .view import describe, seat_view, show_step

__all__ = ["tournament", "tournament_lines", "play_out", "shuffle_gains", "interval"]


def _bots(game: Game, names: list, rng: random.Random) -> list:
    return [game.new_bot(name, seat, random.Random(rng.getrandbits(64))) for seat, name in enumerate(names)]


def tournament(game: Game, a: str, b: str, deals: int, seed: Optional[int] = None, progress=None) -> dict:
    """Bot ``a`` against bot ``b`` over ``deals`` deals of ``game``. Every seat for itself: A sits
    at one seat and B at the other three; ``deals`` is a multiple of 4 and each shuffle is dealt
    four times, A in each seat once. Eşli Batak: the table's partnership tournament (A's team
    in seats 0 and 2, then the sides swapped, ``deals`` even). Returns ``{"game", "a", "b",
    "deals", "points": [A, B], "gain", "ci95"}``: A's points and the average B seat's (team's),
    then A's gain a deal over that average and its 95% interval. ``progress(done)`` is called
    every 100 deals."""
    if game.params.get("partners"):
        return table_cli.tournament(game, a, b, deals, seed, progress)
    if not isinstance(deals, int) or deals < 0 or deals % 4:
        raise ValueError("the number of deals must be a multiple of 4 (each shuffle is played with A in each seat)")
    rng = random.Random(seed)
    bot_rng = random.Random(rng.getrandbits(64))
    seatings = [_bots(game, [a if seat == a_seat else b for seat in range(4)], bot_rng) for a_seat in range(4)]
    points, gains = shuffle_gains(game, seatings, rng, deals // 4, progress)
    mean, low, high = interval(gains)
    return {"game": game.id, "a": a, "b": b, "deals": deals, "points": [round(points[0], 3), round(points[1], 3)],
            "gain": round(mean, 3), "ci95": [round(low, 3), round(high, 3)]}


def shuffle_gains(game: Game, seatings: list, rng: random.Random, shuffles: int, progress=None,
                  started=None) -> tuple:
    """Every seat for itself, bot A against the others: ``shuffles`` shuffles drawn from ``rng``,
    each dealt once to each of the four ``seatings`` (bots by seat, A's at the seating's own
    index). Returns ``(points, gains)``: A's total points and the average other seat's, and A's
    gain over that average on each shuffle (a mean of its four deals). ``progress(done)`` is
    called every 100 deals; ``started(match)``, when given, with each match before its deal is
    played (a benchmark's look at the hidden hands, never the table's)."""
    points = [0.0, 0.0]
    gains = []
    for n in range(shuffles):
        cards = list(DECK)
        rng.shuffle(cards)
        gain = 0.0
        for a_seat, seated in enumerate(seatings):
            match = Match(game, deck=cards)
            if started is not None:
                started(match)
            table_cli.play_deal(match, seated)
            got = match.deal.team_points()
            others = (sum(got) - got[a_seat]) / 3
            points[0] += got[a_seat]
            points[1] += others
            gain += got[a_seat] - others
        gains.append(gain / 4)
        if progress is not None and (4 * n + 4) % 100 == 0:
            progress(4 * n + 4)
    return points, gains


def interval(values: list) -> tuple:
    """The mean of ``values`` and its 95% interval (normal approximation)."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0, 0.0
    mean = sum(values) / n
    if n < 2:
        return mean, mean, mean
    half = 1.96 * sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)
    return mean, mean - half, mean + half


def tournament_lines(result: dict) -> list:
    """A tournament's result in lines: A's points, the average B seat's, and A's gain a deal."""
    return table_cli.tournament_lines(result)


def play_out(game: Game, data: dict) -> dict:
    """Answer one play-out line of ``game`` (its ``game``, ``variant`` and ``partners`` keys taken
    away): ``{"deck": [52 cards, bottom to top], "dealer": d, "actions": [...]}`` takes the
    actions in turn (``"pass"``, ``"bid N"``, ``"trump S"`` or a card), or with ``"bots": [B0, B1,
    B2, B3]`` (and an optional ``"seed"``) instead the bots play the deal out. The dealer is 3
    unless given. The answer: ``"over"``, ``"turn"`` (``None`` once over), ``"declarer"``,
    ``"contract"``, ``"trump"``, ``"tricks"`` by seat, ``"points"`` by team (``None`` until
    over) and ``"steps"`` in an onlooker's words. Raises a :class:`~pishe.errors.PisheError`
    subclass saying what is wrong."""
    if not isinstance(data, dict):
        raise PlayOutError("a play-out line must be a JSON object")
    extra = set(data) - {"deck", "dealer", "actions", "bots", "seed"}
    if extra:
        raise PlayOutError(f"unexpected keys: {', '.join(sorted(extra))}")
    if ("actions" in data) == ("bots" in data):
        raise PlayOutError('a play-out line needs either "actions" or "bots"')
    dealer = data.get("dealer", game.first_dealer)
    deal = Deal.deal(line_deck(data, InvalidDeckError), dealer, bool(game.params.get("partners")))
    steps = list(deal.log)
    if "actions" in data:
        table_cli.play_actions(game, deal, data["actions"], lambda action, seat: steps.extend(deal.apply(action, seat)))
    else:
        names = data["bots"]
        if not isinstance(names, list) or len(names) != 4:
            raise PlayOutError("bots must be a list of 4 bot names, by seat")
        seed = data.get("seed", 0)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise PlayOutError("seed must be a whole number")
        bots = _bots(game, names, random.Random(seed))
        while not deal.over:
            seat = deal.turn
            steps += deal.apply(bots[seat].choose(seat_view(deal, seat)), seat)
    partners = bool(game.params.get("partners"))
    return {
        "over": deal.over,
        "turn": None if deal.over else deal.turn,
        "declarer": deal.declarer,
        "contract": deal.contract,
        "trump": deal.trump,
        "tricks": list(deal.tricks),
        "points": deal.team_points() if deal.over else None,
        "steps": [describe(show_step(s, None), None, None, partners) for s in steps],
    }
