"""Computer players, written against a seat's view only (they never see the engine).

A rule bot (:data:`BOTS`) is a function ``view -> action`` that picks one of
``view.legal``; it moves one step at a time (one flip or one give), so a page
can show its turn on a timer. :data:`FACTORIES` makes every bot by name,
``factory(seat, rng)``, as an object whose ``choose(view)`` picks the action:

- the rule bots: ``always-give`` (the computer SPEC.md describes, the page's
  Easy), ``hold-king``, ``no-give-two-above``, ``never-give``;
- ``pass-one-in-ten``: ``always-give`` that passes up one give in ten at random;
- the bots that remember (:class:`MemoryBot`), also fed every step shown to
  their seat through ``observe``: ``memory-4`` (the page's Medium) looks four
  turns ahead, ``memory`` simulates the deal to its end, ``memory-deep`` (Hard)
  does so making its own later choices by the same simulation.
"""

from __future__ import annotations

import random
from typing import Callable, Optional

from ...cards import Card
from ...table.game import BotFactory
from .deal import GIVE, KEEP, KEPT, TO_PILE, TURN, TURNED, Deal
from .memory import Memory
from .view import SeatView

__all__ = ["BOTS", "FACTORIES", "LookAhead", "MemoryBot", "always_give", "hold_king", "no_give_two_above", "never_give"]

Bot = Callable[[SeatView], str]


def _give_unless(refuse: Callable[[SeatView, Card], bool]) -> Bot:
    """A bot that gives whenever it may, except when ``refuse(view, card)`` says not to give ``card``."""
    def choose(view: SeatView) -> str:
        legal = view.legal
        card = view.give_card
        if GIVE in legal and card is not None and not refuse(view, card):
            return GIVE
        return KEEP if KEEP in legal else TURN
    return choose


#: The computer: gives whenever allowed. Giving before turning chains a run
#: from its discard top, and a turned card that can be given is given.
always_give = _give_unless(lambda view, card: False)
always_give.__doc__ = "Give whenever allowed (the computer on the page)."

#: Never gives a king.
hold_king = _give_unless(lambda view, card: card.rank == 13)
hold_king.__doc__ = "Give whenever allowed, but never a king."

#: Never gives a card exactly two above the top of its own suit pile (empty = 0).
no_give_two_above = _give_unless(
    lambda view, card: card.rank == view.foundations[card.suit] + 2)
no_give_two_above.__doc__ = "Give whenever allowed, but never a card two above its suit pile's top."

#: Never gives at all.
never_give = _give_unless(lambda view, card: True)
never_give.__doc__ = "Never give: always turn, and keep a turned card."

#: The rule bots, functions of a view, by name (every bot by name: :data:`FACTORIES`).
BOTS: dict[str, Bot] = {
    "always-give": always_give,
    "hold-king": hold_king,
    "no-give-two-above": no_give_two_above,
    "never-give": never_give,
}


class _RuleBot:
    """A bot that plays a rule (:data:`BOTS`), remembering nothing."""

    __slots__ = ("choose",)

    def __init__(self, choose: Bot):
        self.choose = choose


def _passes_one_in_ten(seat: int, rng: random.Random) -> _RuleBot:
    """``always-give`` that passes up one give in ten, drawn from ``rng``."""
    return _RuleBot(_give_unless(lambda view, card: rng.random() < 0.1))


# -- looking ahead with the one engine ---------------------------------------------------

#: A won deal scores above any position still being played (whose score is a difference
#: of cards held, -52 to 52), a lost one below: winning comes first, then the points.
_WON = 100


def _score(deal: Deal, me: int) -> int:
    """How good ``deal`` is for ``me``: a won deal by its points, else by cards held."""
    if deal.winner is not None:
        points = deal.points(1 - deal.winner)
        return _WON + points if deal.winner == me else -_WON - points
    return deal.points(1 - me) - deal.points(me)


def _turns_ended(steps) -> int:
    """How many turns ``steps`` finished: every turn ends with a card landing on one's own pile."""
    return sum(1 for s in steps if s.kind == KEPT or (s.kind == TURNED and s.outcome == TO_PILE))


class LookAhead:
    """One decision's look-ahead for ``me``, in positions whose every card is known.

    It plays each action on with the one engine (:meth:`play_on`), the other seat giving
    whenever it may; ``turns`` stops each play-out after that many turns (``None``: at the
    end of the deal). Its own later choices are looked ahead too while ``budget``, the
    play-outs it may still start, lasts; after that it gives whenever it may there, so a
    decision's cost has a bound (the page's computer decides within its step's time).
    """

    __slots__ = ("me", "turns", "budget")

    def __init__(self, me: int, turns: Optional[int], budget: int):
        """A look-ahead for seat ``me`` (see the class docs)."""
        self.me, self.turns, self.budget = me, turns, budget

    def best(self, deals, depth: int, turns: Optional[int]) -> tuple:
        """``(action, score)``: the action for ``me``, to move in each of ``deals`` (the
        positions it may be in), whose play-outs with ``depth - 1`` score best in all of
        them together; giving wins ties (it is what always-give does)."""
        best: tuple = ()
        for action in deals[0].legal_actions():
            score = 0
            for deal in deals:
                self.budget -= 1
                trial = deal.copy()
                steps = trial.apply(action)
                left = None if turns is None else turns - _turns_ended(steps)
                score += self.play_on(trial, depth - 1, left)
            if not best or score > best[1]:
                best = (action, score)
        return best

    def play_on(self, deal: Deal, depth: int, turns: Optional[int]) -> int:
        """Play ``deal`` on and score it for ``me`` (:func:`_score`): the other seat gives
        whenever it may, ``me`` too unless ``depth`` > 0 and the budget lasts, when
        :meth:`best` chooses for it with that depth. Stops after ``turns`` more turns."""
        me = self.me
        if depth <= 0 and turns is None:
            # Both seats always give to the end: the engine's own loop, in one call.
            deal.play(lambda seat: deal.legal_actions()[0])
            return _score(deal, me)
        while deal.winner is None and (turns is None or turns > 0):
            steps = deal.turn_while_forced()
            if deal.winner is None and (turns is None or turns > _turns_ended(steps)):
                if deal.turn == me and depth > 0 and self.budget > 0:
                    left = None if turns is None else turns - _turns_ended(steps)
                    action = self.best([deal], depth, left)[0]
                else:
                    # legal_actions() lists give first: the first legal action is always-give's.
                    action = deal.legal_actions()[0]
                steps += deal.apply(action)
            if turns is not None:
                turns -= _turns_ended(steps)
        return _score(deal, me)


#: The most orders of a stock not yet seen that a bot looks ahead in (those of four cards).
_ORDERS = 24
#: The most play-outs a decision starts before its own later choices are left to giving:
#: Hard's choices then take at most about 13 ms of CPU in CPython, 8 ms at the 99th
#: percentile (Pyodide takes 2.2 to 3.5 times as long), and in a trial of 300 deals it
#: won as often as with 200 (twice the time) or with no bound.
_BUDGET = 60


class MemoryBot:
    """A bot that remembers every step shown to its seat and, once it knows where every
    card is, looks ahead by running the engine on the position it has worked out.

    ``depth`` 1 scores each action by playing on with both seats always giving; 2 makes
    its own later choices that way too (within a :class:`LookAhead`'s budget). ``turns``
    stops the look-ahead after that many turns (``None``: at the end of the deal). When
    one stock is still unseen but holds four cards or fewer, it looks one level deep in
    every order they may be in; else, until every card is known, it gives whenever it
    may, like always-give (sampling the unseen cards did no better).
    """

    def __init__(self, seat: int, depth: int, turns: Optional[int] = None):
        """A bot for ``seat`` with an empty memory (it remembers from the next deal's start)."""
        self.seat = seat
        self.depth = depth
        self.turns = turns
        self.memory = Memory()

    def observe(self, shown, new_deal: bool = False) -> None:
        """Remember ``shown``, the steps as shown to this seat (see :meth:`Memory.observe`)."""
        self.memory.observe(shown, new_deal)

    def choose(self, view: SeatView) -> str:
        """The action for ``view``, one of ``view.legal``."""
        legal = view.legal
        if len(legal) == 1:
            return legal[0]
        deals = self.memory.positions(view, _ORDERS)
        if not deals:
            return always_give(view)
        # Several orders of an unseen stock: each looked at one level deep, to stay quick.
        depth = self.depth if len(deals) == 1 else 1
        return LookAhead(self.seat, self.turns, _BUDGET).best(deals, depth, self.turns)[0]


def _rule(choose: Bot) -> BotFactory:
    """The factory of a rule bot: every seat shares the rule, which remembers nothing."""
    return lambda seat, rng: _RuleBot(choose)


#: Every bot by name, as ``factory(seat, rng) -> bot``: the command line's names and the page's levels.
FACTORIES: dict[str, BotFactory] = {
    **{name: _rule(choose) for name, choose in BOTS.items()},
    "pass-one-in-ten": _passes_one_in_ten,
    "memory-4": lambda seat, rng: MemoryBot(seat, depth=1, turns=4),
    "memory": lambda seat, rng: MemoryBot(seat, depth=1),
    "memory-deep": lambda seat, rng: MemoryBot(seat, depth=2),
}
