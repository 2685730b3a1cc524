"""Letting Pishe Pasha's bots (functions of a view) play: one step at a time, or a whole deal."""

from __future__ import annotations

from typing import Sequence

from .deal import Deal, Step
from .view import seat_view

__all__ = ["bot_step", "play_deal"]


def bot_step(game, bot) -> list[Step]:
    """Let ``bot`` take one action (one flip or one give) for the seat to move.

    The bot is asked only when there is a choice: with a single legal action
    there is nothing for it to decide.
    """
    deal = game if isinstance(game, Deal) else game.deal
    seat = deal.turn
    legal = deal.legal_actions()
    action = legal[0] if len(legal) == 1 else bot(seat_view(game, seat))
    return game.apply(action, seat)


def play_deal(game, bots: Sequence) -> list[Step]:
    """Play a deal (or a match's current deal) to its end, ``bots[seat]`` choosing for each seat."""
    deal = game if isinstance(game, Deal) else game.deal
    steps: list[Step] = []
    turn_while_forced = deal.turn_while_forced
    # The self-play hot path: a run of forced turns in one call, then the bot at the choice.
    while deal.winner is None:
        steps += turn_while_forced()   # nothing when there is a choice
        if deal.winner is None:
            steps += deal.apply(bots[deal.turn](seat_view(game, deal.turn)))
    return steps
