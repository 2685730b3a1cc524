"""One deal of Pishe Pasha: the authoritative state and the rules that move it.

Piles are lists from bottom to top: the last card of a stock is the next one
turned, the last card of a discard pile is its top. The engine is
deterministic: the same stocks and the same actions always give the same
result; randomness comes only from the generator handed to :meth:`Deal.shuffled`.
"""

from __future__ import annotations

import random
from typing import Callable, NamedTuple, NoReturn, Optional

from ...cards import DECK, SUITS, Card
from .words import N_, _, ngettext
from ...errors import (
    DealOverError,
    GiveNotAllowedError,
    InvalidPositionError,
    KeepNotAllowedError,
    NotYourTurnError,
    TurnNotAllowedError,
    UnknownActionError,
)

__all__ = ["Deal", "Step", "ACTIONS", "GIVE", "TURN", "KEEP", "SEATS", "stocks_of", "deal_stocks",
           "give_problem_words"]

GIVE = "give"
TURN = "turn"
KEEP = "keep"
#: Every action there is. Which of them are legal now: :meth:`Deal.legal_actions`.
ACTIONS = (GIVE, TURN, KEEP)
#: Seats of a deal, as a list so nothing else assumes two of them by accident.
SEATS = (0, 1)

_GIVE_OR_KEEP = (GIVE, KEEP)
_GIVE_OR_TURN = (GIVE, TURN)
_TURN_ONLY = (TURN,)

# Step kinds.
HOME = "home"          # the discard top was forced home
GIVE_STEP = "give"     # a card given onto the other seat's discard pile
TURNED = "turn"        # a stock card turned; outcome says where it went
KEPT = "keep"          # a turned card kept on one's own pile, ending the turn
RECYCLE = "recycle"    # the discard pile turned over as the new stock
WIN = "win"            # the seat holds no card any more

# Outcomes of a turned card.
TO_HOME = "home"
TO_PILE = "pile"
TO_CHOICE = "choice"


class Step(NamedTuple):
    """Something that happened: by ``seat``, of ``kind``, with ``card``.

    ``onto`` is the card given onto (for a give); ``outcome`` says where a
    turned card went (``home``, ``pile`` or ``choice``); ``count`` is the
    number of cards recycled, or the points of a win.
    """

    kind: str
    seat: int
    card: Optional[Card] = None
    onto: Optional[Card] = None
    outcome: Optional[str] = None
    count: int = 0  # type: ignore[assignment]  # the field shadows tuple.count, which no step calls

    def describe(self, viewer: Optional[int] = None) -> str:
        """Plain words, from the viewer's side of the table, as what happened.

        The viewer's own steps read "You give the 6♠ onto their 7♦"; the other
        seat's read "They give you the 6♠, onto your 7♦"; with no viewer each step is
        prefixed by its seat number ("Seat 0: You give the 6♠ onto their 7♦").
        """
        mine = viewer is None or viewer == self.seat
        text = _describe(self, mine)
        return _("Seat {seat}: {step}").format(seat=self.seat, step=text) if viewer is None else text


#: A step's words by kind and outcome (a turned card's: where it went), from its seat's side and the other's.
_WORDS = {
    (HOME, None): (N_("Your {card} goes to its suit pile"), N_("Their {card} goes to its suit pile")),
    (GIVE_STEP, None): (N_("You give the {card} onto their {onto}"), N_("They give you the {card}, onto your {onto}")),
    (TURNED, TO_HOME): (N_("You turn the {card}; it goes to its suit pile"),
              N_("They turn the {card}; it goes to its suit pile")),
    (TURNED, TO_PILE): (N_("You turn the {card}; it goes on your pile"),
                        N_("They turn the {card}; it goes on their pile")),
    (TURNED, TO_CHOICE): (N_("You turn the {card}; you may give it or keep it"),
                N_("They turn the {card}; they may give it or keep it")),
    (KEPT, None): (N_("You keep the {card} on your pile"), N_("They keep the {card} on their pile")),
}


def _describe(step: Step, mine: bool) -> str:
    # One name for each pile, the page's own: "suit pile", "your pile"/"their pile", "stock".
    kind, count = step.kind, step.count
    if kind == RECYCLE:
        return (ngettext("Your stock is empty: your pile ({count} card) turns over as your stock",
                         "Your stock is empty: your pile ({count} cards) turns over as your stock", count) if mine else
                ngettext("Their stock is empty: their pile ({count} card) turns over as their stock",
                         "Their stock is empty: their pile ({count} cards) turns over as their stock", count)
                ).format(count=count)
    if kind == WIN:
        return (ngettext("You win the deal: {count} point", "You win the deal: {count} points", count) if mine else
                ngettext("They win the deal: {count} point", "They win the deal: {count} points", count)
                ).format(count=count)
    words = _WORDS[kind, step.outcome]
    assert step.card is not None, kind          # every other kind of step moves a card
    return _(words[0 if mine else 1]).format(card=step.card.display(),
                                             onto=step.onto.display() if step.onto else "")


#: Each card's neighbours: the cards it may be given onto (one rank above or below, any
#: suit, no wrap between king and ace). The one statement of that rule; the hot paths
#: look it up rather than compute it.
_NEIGHBOURS = {card: frozenset(c for c in DECK if abs(c.rank - card.rank) == 1) for card in DECK}


#: Each suit's cards, ace to king: a suit pile whose top rank is ``n`` holds the first ``n``.
_SUIT_PILE = {suit: [c for c in DECK if c.suit == suit] for suit in SUITS}
# What a position's suit piles are checked against: their suits, and the one type of a rank.
_SUIT_SET = set(SUITS)
_INT = {int}


def _steps_of_each_card(kind: str, outcome: Optional[str] = None) -> tuple:
    """Per seat, ``{card: step}``: every step of ``kind`` there can be, made once."""
    return tuple({card: _new_step(Step, (kind, seat, card, None, outcome, 0)) for card in DECK} for seat in SEATS)


# Steps are made with the C-level tuple constructor, every field given (NamedTuple's own
# is a Python function, twice as slow). The steps of a card moved (all but a deal's few
# recycles and its win) are made once at import, and looked up: turned, gone home, kept, given.
_new_step = tuple.__new__
#: Per seat, a turned card's steps by where it went: home, to one's own pile, to the choice.
_TURNED = tuple(zip(_steps_of_each_card(TURNED, TO_HOME), _steps_of_each_card(TURNED, TO_PILE),
                    _steps_of_each_card(TURNED, TO_CHOICE)))
_GOES_HOME = _steps_of_each_card(HOME)
_KEPT = _steps_of_each_card(KEPT)
#: Per seat, ``{card: {onto: step}}``: the gives there can be.
_GIVEN = tuple({card: {onto: _new_step(Step, (GIVE_STEP, seat, card, onto, None, 0)) for onto in _NEIGHBOURS[card]}
                for card in DECK} for seat in SEATS)


def _fits(card: Card, foundations: dict) -> bool:
    return foundations[card.suit] + 1 == card.rank


def _neighbours(card: Card, onto: Optional[Card]) -> bool:
    return onto in _NEIGHBOURS[card]


def give_problem_words(card: Optional[Card], theirs: Optional[Card]) -> Optional[str]:
    """Why ``card`` (the turned card, else the giver's pile top) cannot be given onto
    ``theirs`` (the other pile's top), as a reason ("Can't give: your pile is empty.");
    ``None`` if it can. A seat's view words its problem with it too, from the view's own cards."""
    if card is None:
        return _("Can't give: your pile is empty.")
    if theirs is None:
        return _("Can't give: their pile is empty.")
    if not _neighbours(card, theirs):
        return _("Can't give: your {card} is not one above or below their {onto}.").format(
            card=card.display(), onto=theirs.display())
    return None


class Deal:
    """The state of one deal and the only place its rules live.

    Build one with :meth:`shuffled` (from a random generator) or
    :meth:`from_stocks`; move it with :meth:`apply`; ask it what is legal with
    :meth:`legal_actions`. It never guesses: an illegal action raises an
    :class:`~pishe.errors.IllegalActionError` subclass and changes nothing.
    """

    __slots__ = ("stocks", "discards", "foundations", "turn", "turned", "winner", "steps",
                 "_this_start", "_last_start", "_recycled")

    def __init__(self, stocks, discards, foundations, turn, turned=None):
        """Low-level constructor; prefer :meth:`from_stocks` or :func:`pishe.position.parse_position`."""
        self.stocks = [list(s) for s in stocks]
        self.discards = [list(d) for d in discards]
        self.foundations = dict(foundations)
        self.turn = turn
        self.turned: Optional[Card] = turned      # a turned card waiting for give or keep
        self.winner: Optional[int] = None
        self._start_steps()
        self._check()

    def _start_steps(self) -> None:
        # One log of steps, appended to and never changed: each turn is a stretch of it, so
        # ending a turn moves two indices rather than copying steps.
        self.steps: list[Step] = []
        self._this_start = 0            # where the turn in progress begins in steps
        self._last_start = [0 for _ in SEATS]   # where each seat's last finished turn begins
        # Each recycle: where in steps, and the cards it turned over, which no view may name
        # again (last_turn filters them out when it is read, not at each recycle).
        self._recycled: list[tuple[int, tuple]] = []

    # -- construction -----------------------------------------------------------------

    @classmethod
    def from_stocks(cls, stocks, leader: int = 0) -> Deal:
        """A new deal from two stocks (bottom to top); ``leader`` moves first."""
        return cls(stocks, [[], []], {s: 0 for s in SUITS}, leader)

    @classmethod
    def from_deck(cls, deck, dealer: int) -> Deal:
        """A new deal from a whole deck (bottom to top) dealt by ``dealer``: seat 0's
        stock is the first 26 cards, seat 1's the rest; the other seat leads."""
        return cls.from_stocks(stocks_of(deck), 1 - dealer)

    @classmethod
    def shuffled(cls, rng: random.Random, leader: int = 0) -> Deal:
        """A new deal from a deck shuffled by ``rng``: 26 cards to each stock."""
        return cls.from_stocks(deal_stocks(rng), leader)

    def _check(self) -> None:
        if self.turn not in SEATS:
            raise InvalidPositionError(f"the seat to move must be 0 or 1, not {self.turn!r}")
        ranks = self.foundations.values()
        # Whole numbers (no bools, no floats), tested without a Python-level loop: every deal is checked.
        if (set(self.foundations) != _SUIT_SET or set(map(type, ranks)) != _INT
                or not 0 <= min(ranks) <= max(ranks) <= 13):
            raise InvalidPositionError("suit piles must give a top rank from 0 to 13 for each of C, D, H, S")
        foundations = self.foundations
        cards = [c for pile in (*self.stocks, *self.discards) for c in pile]
        if self.turned is not None:
            cards.append(self.turned)
        for suit in SUITS:
            cards += _SUIT_PILE[suit][:foundations[suit]]
        seen = set(cards)
        if len(cards) != 52 or len(seen) != 52:
            # Every deal is checked: the words are found only once something is wrong.
            once = set()
            for c in cards:
                if c in once:
                    raise InvalidPositionError(f"the {c.display()} is in the position twice")
                once.add(c)
            missing = " ".join(c.display() for c in DECK if c not in seen)
            raise InvalidPositionError(f"cards missing from the position: {missing}")
        if self.turned is not None:
            other = self.discards[1 - self.turn]
            if _fits(self.turned, self.foundations) or not _neighbours(self.turned, other[-1] if other else None):
                raise InvalidPositionError(
                    f"the turned {self.turned.display()} could not be waiting for give or keep")
        idle = 1 - self.turn
        if not self.stocks[idle] and not self.discards[idle]:
            raise InvalidPositionError(f"seat {idle} holds no card: it would have won on its own turn")
        self._settle()

    def copy(self) -> Deal:
        """The same position as a new deal, with no steps recorded: a position to look ahead from."""
        other = object.__new__(Deal)
        other.stocks = [list(s) for s in self.stocks]
        other.discards = [list(d) for d in self.discards]
        other.foundations = dict(self.foundations)
        other.turn, other.turned, other.winner = self.turn, self.turned, self.winner
        other._start_steps()
        return other

    # -- what happened ---------------------------------------------------------------

    @property
    def this_turn(self) -> list[Step]:
        """The steps of the turn in progress (a list of :attr:`steps`' last ones)."""
        return self.steps[self._this_start:]

    def last_turn(self, seat: int) -> list[Step]:
        """``seat``'s last finished turn, as it may be shown: without the steps that name a
        card turned back into a stock since, which no view may hold."""
        # Turns alternate: a seat's last turn ends where the other seat's next one begins.
        end = self._last_start[1 - seat] if seat == self.turn else self._this_start
        turn = self.steps[self._last_start[seat]:end]
        recycled = self._recycled
        if not recycled or recycled[-1][0] < end:
            return turn
        # Only the recycles since the turn ended hide anything: the latest first.
        hidden: set[Card] = set()
        n = len(recycled)
        while n and recycled[n - 1][0] >= end:
            n -= 1
            hidden.update(recycled[n][1])
        return [s for s in turn if s.card not in hidden and s.onto not in hidden]

    # -- what the rules allow --------------------------------------------------------

    @property
    def over(self) -> bool:
        """Whether the deal has been won."""
        return self.winner is not None

    def give_card(self) -> Optional[Card]:
        """The card a give would move: the turned card if one waits, else the discard top."""
        if self.turned is not None:
            return self.turned
        pile = self.discards[self.turn]
        return pile[-1] if pile else None

    def give_problem(self) -> Optional[str]:
        """Why the seat to move cannot give now, in plain words; ``None`` if it can."""
        if self.winner is not None:
            return "The deal is over."
        theirs = self.discards[1 - self.turn]
        return give_problem_words(self.give_card(), theirs[-1] if theirs else None)

    def legal_actions(self) -> tuple:
        """The actions the seat to move may take now: the one source of legality."""
        if self.winner is not None:
            return ()
        if self.turned is not None:
            return _GIVE_OR_KEEP
        mine, theirs = self.discards[self.turn], self.discards[1 - self.turn]
        # The same test as give_problem(), without building its words on the hot path.
        if mine and theirs and theirs[-1] in _NEIGHBOURS[mine[-1]]:
            return _GIVE_OR_TURN
        return _TURN_ONLY

    def team_points(self) -> list[int]:
        """Once the deal is won, each seat's points from it (every seat is its own team)."""
        points = [0 for _ in SEATS]
        if self.winner is not None:
            points[self.winner] = self.points(1 - self.winner)
        return points

    def points(self, seat: int) -> int:
        """Cards ``seat`` still holds (stock and discard pile): what the winner scores from it."""
        return len(self.stocks[seat]) + len(self.discards[seat])

    # -- moving ----------------------------------------------------------------------

    def apply(self, action: str, seat: Optional[int] = None) -> list[Step]:
        """Apply ``action`` for the seat to move (checked against ``seat`` if given).

        Returns the steps it caused, forced ones included. Raises an
        :class:`~pishe.errors.IllegalActionError` and changes nothing when the
        action is not legal now.
        """
        if action not in self.legal_actions() or (seat is not None and seat != self.turn):
            self._refuse(action, seat)
        start = len(self.steps)
        self._play(action)
        return self.steps[start:]

    def turn_while_forced(self) -> list[Step]:
        """Turn cards for as long as turning is the only legal action; their steps.

        The same as calling ``apply("turn")`` while :meth:`legal_actions` is
        ``("turn",)``, across turns: most of a deal's actions are forced turns.
        Turns nothing when there is a choice.
        """
        if self.winner is not None:
            raise DealOverError(_("The deal is over."))
        start = len(self.steps)
        self._play(None)
        return self.steps[start:]

    def play(self, choose: Callable[[int], str]) -> None:
        """Play the deal to its end: forced turns by themselves, and at each choice the
        action ``choose(seat)`` returns for the seat to move (the deal stands at the choice
        while it is asked). The same as :meth:`turn_while_forced` and :meth:`apply` in
        turn, in one loop: self-play's hot path. Raises as :meth:`apply` does for an
        illegal choice, the deal left at that choice."""
        if self.winner is None:
            self._play(None, choose)

    def _refuse(self, action, seat: Optional[int] = None) -> NoReturn:
        """Raise the error that says why ``action`` (by ``seat``) is not legal now."""
        if action not in ACTIONS:
            raise UnknownActionError(f"unknown action {action!r}: the actions are give, turn and keep")
        if self.winner is not None:
            raise DealOverError(_("The deal is over."))
        if seat is not None and seat != self.turn:
            raise NotYourTurnError(_("It is not your turn."))
        if action == GIVE:
            raise GiveNotAllowedError(self.give_problem())
        if action == KEEP:
            raise KeepNotAllowedError(_("There is no turned card to keep."))
        turned = self.turned
        assert turned is not None, "turning is refused only while a turned card waits"
        raise TurnNotAllowedError(_("The turned {card} waits: give it or keep it.").format(card=turned.display()))

    def _play(self, action: Optional[str], choose: Optional[Callable[[int], str]] = None) -> None:
        """The one loop that moves a deal. Take ``action`` (legal: the caller checked it) and
        stop; or, with no action, turn while turning is forced and at a choice stop, or
        take ``choose(seat)``'s action and go on, until the deal is won."""
        # The hot path of every deal: legal_actions()'s tests are written out rather than
        # called, steps looked up, and a give chosen here costs no call into the deal. A move
        # that keeps the turn ends its own branch (a shared tail behind a flag cost 2%).
        foundations, stocks, discards, neighbours = self.foundations, self.stocks, self.discards, _NEIGHBOURS
        steps = self.steps
        step = steps.append
        last_start = self._last_start
        me = self.turn
        stock, mine, theirs = stocks[me], discards[me], discards[1 - me]
        to_home, to_pile, to_choice = _TURNED[me]
        one = action is not None
        while True:
            if action is None:
                if self.turned is not None:
                    legal = _GIVE_OR_KEEP
                elif mine and theirs and theirs[-1] in neighbours[mine[-1]]:
                    legal = _GIVE_OR_TURN
                else:
                    legal = None
                if legal is None:
                    action = TURN
                elif choose is None:
                    return
                else:
                    action = choose(me)
                    if action not in legal:
                        self._refuse(action)
            if action == TURN:
                if not stock:
                    # Turned over as a block: the oldest discard becomes the top of the stock.
                    stock.extend(reversed(mine))
                    mine.clear()
                    self._recycled.append((len(steps), tuple(stock)))
                    step(Step(RECYCLE, me, None, None, None, len(stock)))
                card = stock.pop()
                suit = card.suit
                if foundations[suit] + 1 == card.rank:
                    step(to_home[card])
                    foundations[suit] = card.rank
                    # _settle() has work only when the pile's top now fits, or the seat holds no card.
                    if ((foundations[mine[-1].suit] + 1 == mine[-1].rank) if mine else not stock) and self._settle():
                        return
                    if one:
                        return
                    action = None
                    continue
                if theirs and theirs[-1] in neighbours[card]:
                    step(to_choice[card])
                    self.turned = card
                    if one:
                        return
                    action = None
                    continue
                step(to_pile[card])
            elif action == GIVE:
                card = self.turned
                if card is None:
                    card = mine.pop()
                else:
                    self.turned = None
                step(_GIVEN[me][card][theirs[-1]])
                theirs.append(card)
                # _settle() has work only when the pile is empty (a win?) or its new top fits.
                if (not mine or foundations[mine[-1].suit] + 1 == mine[-1].rank) and self._settle():
                    return
                if one:
                    return
                action = None
                continue
            else:
                card, self.turned = self.turned, None
                step(_KEPT[me][card])
            # The card lands on one's own pile and the turn passes.
            mine.append(card)
            last_start[me] = self._this_start
            self._this_start = len(steps)
            self.turn = me = 1 - me
            stock, mine, theirs = stocks[me], theirs, mine
            to_home, to_pile, to_choice = _TURNED[me]
            # _settle() has work only when the new mover's pile is empty or its top fits.
            if (not mine or foundations[mine[-1].suit] + 1 == mine[-1].rank) and self._settle():
                return
            if one:
                return
            action = None

    def _settle(self) -> bool:
        """Forced home from the mover's discard pile, then the check for a win; whether it is won."""
        me = self.turn
        pile = self.discards[me]
        foundations = self.foundations
        while pile and foundations[pile[-1].suit] + 1 == pile[-1].rank:
            card = pile.pop()
            foundations[card.suit] = card.rank
            self.steps.append(_GOES_HOME[me][card])
        if not pile and not self.stocks[me] and self.turned is None:
            self.winner = me
            self.steps.append(Step(WIN, me, None, None, None, self.points(1 - me)))
        return self.winner is not None


def stocks_of(deck) -> list[list[Card]]:
    """A deck (bottom to top) split into the two stocks: 26 cards each, seat 0's first."""
    half = len(deck) // len(SEATS)
    return [list(deck[half * s:half * (s + 1)]) for s in SEATS]


def deal_stocks(rng: random.Random) -> list[list[Card]]:
    """Shuffle a fresh deck with ``rng`` and split it into two stocks of 26."""
    deck = list(DECK)
    rng.shuffle(deck)
    return stocks_of(deck)
