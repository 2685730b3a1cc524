"""Letting bots play: one step at a time, or a whole deal."""

from __future__ import annotations

from typing import Sequence

from .deal import Deal, Step
from .match import Match
from .view import seat_view

__all__ = ["bot_step", "play_deal"]


def bot_step(game: Deal | Match, bot) -> list[Step]:
    """Let ``bot`` take one action (one flip or one give) for the seat to move.

    The bot is asked only when there is a choice: with a single legal action
    there is nothing for it to decide.
    """
    deal = game.deal if isinstance(game, Match) else game
    seat = deal.turn
    legal = deal.legal_actions()
    action = legal[0] if len(legal) == 1 else bot(seat_view(game, seat))
    return game.apply(action, seat)


def play_deal(game: Deal | Match, bots: Sequence) -> list[Step]:
    """Play the current deal to its end, ``bots[seat]`` choosing for each seat."""
    deal = game.deal if isinstance(game, Match) else game
    steps: list[Step] = []
    apply, legal_actions = game.apply, deal.legal_actions
    # bot_step's body, written out: this loop is the self-play hot path.
    while deal.winner is None:
        legal = legal_actions()
        steps += apply(legal[0] if len(legal) == 1 else bots[deal.turn](seat_view(game, deal.turn)))
    return steps
