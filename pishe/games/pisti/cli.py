"""Command-line parts for Pişti: bot tournaments and play-out lines.

The table's command line finds these by their names (:class:`pishe.table.cli.CommandLine`):
:func:`tournament` plays bot A's team against bot B's, every shuffle twice with the teams
swapping seats, :func:`tournament_lines` reports it; :func:`play_out` answers one play-out
request (a deck with plays, or a deck with its bots).
"""

from __future__ import annotations

import random
from typing import Optional

from ...cards import DECK
from ...errors import UnknownBotError
from ...table.cli import PlayOutError, interval, line_deck, play_actions
from ...table.game import Game
from .bots import BOTS
from .deal import Deck, InvalidDeckError
from .view import describe, seat_view, show_step
from .words import _, ngettext

__all__ = ["play_deck", "tournament", "tournament_lines", "play_out"]


def new_bots(names, rng: random.Random, bots: Optional[dict] = None) -> list:
    """Bots for seats 0, 1, … by name (from ``bots``, by default :data:`.bots.BOTS`), each with
    its own generator drawn from ``rng``."""
    factories = BOTS if bots is None else bots
    made = []
    for seat, name in enumerate(names):
        try:
            factory = factories[name]
        except (KeyError, TypeError):
            raise UnknownBotError(f"unknown bot {name!r}: choose one of {', '.join(factories)}") from None
        made.append(factory(seat, random.Random(rng.getrandbits(64))))
    return made


def play_deck(deck: Deck, bots) -> list:
    """Play ``deck`` to its end, each seat's bot choosing from its own view; the steps."""
    steps = []
    while not deck.over:
        seat = deck.turn
        steps += deck.apply(bots[seat].choose(seat_view(deck, seat)), seat)
    return steps


def tournament(game: Game, a: str, b: str, decks: int, seed: Optional[int] = None, progress=None,
               bots: Optional[dict] = None) -> dict:
    """Play bot ``a``'s team against bot ``b``'s over ``decks`` decks of ``game`` (a Pişti variant).

    Each of ``decks // 2`` shuffles is played twice: once with A in seats 0
    and 2 (two players: seat 0), once with the sides swapped (the dealer moves on
    from shuffle to shuffle). Returns ``{"game", "a", "b", "decks", "points": [A, B],
    "pishti": [A, B], "gain", "ci95"}``: totals, then A's mean gain per deck
    and its 95% interval. ``progress(done)`` is called every 100 decks. ``bots``: the
    bot factories by name (by default :data:`.bots.BOTS`).
    """
    if not isinstance(decks, int) or decks < 0 or decks % 2:
        raise ValueError("the number of decks must be even and not negative (each shuffle is played twice)")
    seats = game.seats
    rng = random.Random(seed)
    bot_rng = random.Random(rng.getrandbits(64))
    seatings = [new_bots([a, b, a, b][:seats], bot_rng, bots), new_bots([b, a, b, a][:seats], bot_rng, bots)]
    points, pishti = [0, 0], [0, 0]
    pairs = []
    for n in range(decks // 2):
        cards = list(DECK)
        rng.shuffle(cards)
        dealer = (seats - 1 + n) % seats
        pair = 0
        for a_team, seated in ((0, seatings[0]), (1, seatings[1])):
            deck = Deck.deal(cards, dealer, seats)
            play_deck(deck, seated)
            got = deck.team_points()
            points[0] += got[a_team]
            points[1] += got[1 - a_team]
            pishti[0] += len(deck.pishti[a_team]) + len(deck.jack_pishti[a_team])
            pishti[1] += len(deck.pishti[1 - a_team]) + len(deck.jack_pishti[1 - a_team])
            pair += got[a_team] - got[1 - a_team]
        pairs.append(pair)
        if progress is not None and (2 * n + 2) % 100 == 0:
            progress(2 * n + 2)
    gain, ci = interval(pairs)
    return {"game": game.id, "a": a, "b": b, "decks": decks, "points": points, "pishti": pishti,
            "gain": round(gain, 3), "ci95": [round(ci[0], 3), round(ci[1], 3)]}


def tournament_lines(result: dict) -> list:
    """A tournament's result in lines: each team's points and piştis, then A's gain a deck."""
    width = max(len(result["a"]), len(result["b"]))
    low, high = result["ci95"]
    return [*(f"  {name:<{width}}  " + "  ".join((
                ngettext("{points:>8} point", "{points:>8} points", result["points"][i]).format(
                    points=result["points"][i]),
                ngettext("{pishti:>6} pişti", "{pishti:>6} piştis", result["pishti"][i]).format(
                    pishti=result["pishti"][i])))
              for i, name in enumerate((result["a"], result["b"]))),
            "  " + _("{a} gains {gain:+.2f} points a deck (95% interval {low:+.2f} to {high:+.2f})").format(
                a=result["a"], gain=result["gain"], low=low, high=high)]


def play_out(game: Game, data: dict) -> dict:
    """Answer one play-out request of ``game`` (a Pişti variant; the table's command line
    has taken its ``game``, ``variant`` and ``seats`` keys away).

    ``{"deck": [52 cards, bottom to top], "dealer": d, "plays": [cards]}``
    applies the plays in order; with ``"bots": [B0, B1, B2, B3]`` (two players:
    ``[B0, B1]``) instead the bots play the deck out. The answer: ``"over"``, ``"turn"`` (``None`` once
    over), ``"played"``, ``"points"`` (``None`` until over), ``"cards"``,
    ``"pishti"``, ``"jack_pishti"`` (by team) and ``"steps"`` in neutral
    words. Raises a :class:`~pishe.errors.PisheError` subclass saying what is wrong.
    """
    if not isinstance(data, dict):
        raise PlayOutError("a play-out request must be a JSON object")
    seats = game.seats
    extra = set(data) - {"deck", "dealer", "plays", "bots", "seed"}
    if extra:
        raise PlayOutError(f"unexpected keys: {', '.join(sorted(extra))}")
    if ("plays" in data) == ("bots" in data):
        raise PlayOutError('a play-out request needs either "plays" or "bots"')
    cards = line_deck(data, InvalidDeckError)
    dealer = data.get("dealer", seats - 1)
    deck = Deck.deal(cards, dealer, seats)
    steps = list(deck.log)
    if "plays" in data:
        play_actions(game, deck, data["plays"], lambda card, seat: steps.extend(deck.apply(card, seat)),
                     name="play", over="the deck is over after 48 plays")
    else:
        names = data["bots"]
        if not isinstance(names, list) or len(names) != seats:
            raise PlayOutError(f"bots must be a list of {seats} bot names, by seat")
        seed = data.get("seed", 0)
        steps += play_deck(deck, new_bots(names, random.Random(seed)))
    return {
        "over": deck.over,
        "turn": None if deck.over else deck.turn,
        "played": deck.played,
        "points": deck.team_points() if deck.over else None,
        "cards": [len(deck.taken[0]), len(deck.taken[1])],
        "pishti": [len(deck.pishti[0]), len(deck.pishti[1])],
        "jack_pishti": [len(deck.jack_pishti[0]), len(deck.jack_pishti[1])],
        "steps": [describe(shown, None, None, seats) for shown in (show_step(s, None) for s in steps) if shown],
    }
