"""Letting Pishe Pasha's bots play: one step at a time, or a whole deal.

A bot here is a function of the view (a rule of :data:`~.bots.BOTS`) or a bot
object (:data:`~.bots.FACTORIES`) whose ``choose(view)`` picks the action; a bot
that has ``observe`` is shown every step, as its seat sees it, so it may remember.
"""

from __future__ import annotations

from typing import Sequence

from .deal import Deal, Step
from .view import seat_view, step_to_json

__all__ = ["bot_step", "show_steps", "play_deal"]


def bot_step(game, bot) -> list[Step]:
    """Let ``bot`` take one action (one flip or one give) for the seat to move.

    The bot is asked only when there is a choice: with a single legal action
    there is nothing for it to decide.
    """
    deal = game if isinstance(game, Deal) else game.deal
    seat = deal.turn
    legal = deal.legal_actions()
    action = legal[0] if len(legal) == 1 else getattr(bot, "choose", bot)(seat_view(game, seat))
    return game.apply(action, seat)


def show_steps(watchers: Sequence, steps: Sequence[Step], new_deal: bool = False) -> None:
    """Show ``steps`` to each ``(seat, bot)`` of ``watchers``: every step of Pishe Pasha is
    public, so each seat sees it as :meth:`~.PishePasha.show_step` shows it to any."""
    shown = [step_to_json(step) for step in steps]
    for _seat, bot in watchers:
        bot.observe(shown, new_deal)


def play_deal(game, bots: Sequence) -> list[Step]:
    """Play a deal (or a match's current deal) to its end, ``bots[seat]`` choosing for each
    seat; its steps (the forced steps already due at its position not included).

    Bots that remember are shown the deal as if from its start, the steps due at its
    position first: a memory checks itself against each view, so a position from the
    middle of a deal leaves it playing as if it knew nothing.
    """
    deal = game if isinstance(game, Deal) else game.deal
    choose = [getattr(bot, "choose", bot) for bot in bots]
    steps = deal.steps
    start = len(steps)
    # Only bots that remember are shown steps: rule bots play at full speed.
    watchers = [(seat, bot) for seat, bot in enumerate(bots) if hasattr(bot, "observe")]
    if not watchers:
        deal.play(lambda seat: choose[seat](seat_view(game, seat)))
        return steps[start:]
    show_steps(watchers, deal.this_turn, new_deal=True)
    shown = start

    def shown_then_chosen(seat: int) -> str:
        # A bot remembers what happened since the last choice, then chooses.
        nonlocal shown
        show_steps(watchers, steps[shown:])
        shown = len(steps)
        return choose[seat](seat_view(game, seat))

    deal.play(shown_then_chosen)
    show_steps(watchers, steps[shown:])
    return steps[start:]
