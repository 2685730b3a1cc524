"""The page's Python side, called by its worker with plain values; answers JSON text.

The computer table (any game, you in seat 0, computers in the other seats):
:func:`new_match`, :func:`restore_match`, :func:`act`, :func:`computer_step`, :func:`timeout`,
:func:`take_over`, :func:`next_deal`, :func:`current` answer ``{"view": …,
"steps": […], "moves": […], "news": […], "in_progress": bool, "computer_moves": bool, "clock": null |
{"seat", "seconds", …}, "autopilot": bool, "settings": {"game", "length", "clock", "level",
"level_line"}, "saved": text}`` (the steps this call caused, in your words, and the cards they
moved: :meth:`pishe.table.game.Game.motions`; ``level_line``, the table's line naming the level;
``news``, what the live region says besides: a deal dealt, a deal's result and the match
score; ``in_progress``, whether a match is being played that leaving would throw away, for
the page to ask first; ``saved``, the match as the tab keeps it in sessionStorage, for
:func:`restore_match` after a reload) or ``{"error": "…"}`` with nothing changed. :func:`new_match` takes the computer's
level (a bot of the game's ``levels``); for a game that remembers for you, the
view carries ``seen``, what your seat has been shown (Pishe Pasha's "Show what
you have seen"). The page paints the view and asks
:func:`computer_step` again after its delay while ``computer_moves`` is true;
with a clock it runs the clock of the seat in ``clock`` (:func:`pishe.table.words.clock`:
its accessible name, "Clock: 15 seconds a card", and the words for its last seconds) and
calls :func:`timeout` when yours runs out; that move's first step reads "Time ran out: the
computer plays your K♣".

A friend's table (see docs/PROTOCOL.md): the host's page uses the ``host_*``
functions, the guest's page the ``guest_*`` ones. Each answers ``{"send": […],
"steps": […], "error": reason|null, "view": this seat's view|null, "status":
{…}|null, "saved": text}`` (the guest's also carries ``token`` and ``ledger``; its
answer to its own move, ``guest_intent``, has no view or status); the status
carries the table's own words for the page (see :func:`_friend_status`); the
host's ``send`` holds ``{"to": connection, "text": message}`` objects, the guest's
plain messages. In the page's worker those messages go out through
:data:`pishe.page.outbox`
as soon as the call has made them, and ``send`` is empty. The page keeps
``saved`` (and the token) in sessionStorage to come back to the table after a
reload; a guest's page also keeps ``ledger`` after every call, however it joins
again (the parts of the shuffle it gave and the moves it asked for: see
``Guest.ledger``). The worker passes what arrives on a data channel to
``*_receive``; the page decides nothing.

:func:`page_words` answers the sentences the page itself shows (the friend
panel's, by key: :mod:`pishe.table.words`); the page's JavaScript words none.

Only the table and the game the page deals first are imported at start-up;
another game's modules are imported when a match of it begins, the friend's
table's (pishe.web_friends, the protocol) on its first call.
"""

from __future__ import annotations

import json
import random
from typing import Any, Callable, Optional

from .errors import NotYourTurnError, PisheError, UnknownBotError
from .table.game import first_game_id, get_game
from .table.match import Match
from .table.seating import Seating
from . import lang
from .lang import TABLE, _
from .table import words
from .table.said import data_of, names_data, say
from .table.said_again import about, again
from .page import check_clock, error as _error, run as _run

#: The game the page deals first: the first in the games' declared order (Game.order), as the
#: page's own first game is (web/games/registry.js: the build writes the games in that order).
#: Found from the registry's declaration in the page's wheel, it is the only game imported with
#: this module (so a returning visitor's page restores it with the rest of Python's memory, the
#: snapshot web/core/worker.js keeps); another game's code is downloaded and imported when a
#: match of it begins (pishe.on_demand: build.py leaves it out of the wheel).
FIRST_GAME = first_game_id()
get_game(FIRST_GAME)


#: The friend's table's calls, made in :mod:`pishe.web_friends` and imported on their
#: first use (module ``__getattr__``): the computer table's start-up never imports the protocol.
#: The page's worker fetches that code (build.py's friends' zip) before the first of them.
FRIENDS_CALLS = ("blank_view", "host_open", "host_receive", "host_act", "host_next_deal", "host_computer_step",
            "host_timeout", "host_take_over", "host_hold_over", "host_name", "host_play_again", "host_deal_now",
            "host_silent", "host_disconnect", "host_current",
            "guest_open", "guest_hello", "guest_receive", "guest_intent", "guest_next_deal",
            "guest_take_over", "guest_name", "guest_leave", "guest_saved", "guest_timeout", "guest_reveal_overdue")


__all__ = ["new_match", "restore_match", "act", "computer_step", "timeout", "take_over", "next_deal", "current",
           *FRIENDS_CALLS, "qr_matrix", "page_words", "set_language", "say_again"]


def __getattr__(name: str):
    """A friend's table's call, from :mod:`pishe.web_friends` (imported now if it was not)."""
    if name in FRIENDS_CALLS:
        from . import web_friends

        return getattr(web_friends, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


YOU = 0
#: The version of :meth:`_ComputerTable.save`'s text; a tab holding another is dealt anew.
SAVE_VERSION = 1
#: A match's seed, drawn when none is given: whole numbers a page's JavaScript holds exactly.
SEED_BITS = 53


class CorruptSaveError(PisheError, ValueError):
    """A saved match that :meth:`_ComputerTable.save` did not make (or another version's)."""


class _ComputerTable:
    """You in seat 0 and the game's computer, at the chosen level, in every other seat, with
    an optional clock. Every step is shown to the computers that remember, and to your own
    memory (the game's, if it has one) for "Show what you have seen"."""

    def __init__(self, game, length, seed, clock, level=None):
        check_clock(clock)
        level = game.computer if level is None else level
        if level != game.computer and level not in game.levels:
            raise UnknownBotError(_("no such computer level: {level} (choose one of {levels})").format(
                level=repr(str(level)[:40]), levels=", ".join(game.levels) or game.computer))
        # A seed is always drawn, so that the tab can keep the match as its seed and moves.
        self.seed = random.SystemRandom().getrandbits(SEED_BITS) if seed is None else seed
        self.game = game
        self.level = level
        self.match = Match(game, length, random.Random(self.seed))
        #: You in seat 0, computers elsewhere: the policy a friend's table's host uses too.
        self.seating = Seating([YOU], clock)
        # Each computer draws from its own generator, seeded again at every deal from the
        # match's seed: a deal replayed from its moves leaves every computer as it was.
        self._rngs = {seat: random.Random() for seat in range(game.seats)}
        self.bots = {seat: game.new_bot(level, seat, rng) for seat, rng in self._rngs.items()}
        self.memory = game.new_memory(YOU)
        # A table of two is you and "Computer"; a larger one names seats where they sit.
        self.two = game.seats == 2
        self.moves: list = [[]]                       # each deal's moves: [seat, action text]
        self._deal_dealt()

    def _deal_dealt(self) -> None:
        """A deal was dealt: seed the computers for it and show them its dealing."""
        for seat, rng in self._rngs.items():
            rng.seed(f"{self.seed}:{self.match.deal_number}:{seat}")
        self._show(self.game.deal_steps(self.match.deal), new_deal=True)
        self._dealt = True                            # a deal dealt, not yet told (news)

    def _show(self, steps, new_deal: bool = False) -> None:
        """Show ``steps`` to every seat's computer and to your memory, as each seat sees them."""
        self.game.show_steps([*self.bots.items(), (YOU, self.memory)], steps, new_deal)

    def apply(self, action, seat: int) -> list:
        """Apply ``action`` for ``seat`` and show its steps around the table."""
        steps = self.match.apply(action, seat)
        self.moves[-1].append([seat, self.game.action_text(action)])
        self._show(steps)
        return steps

    def next_deal(self) -> tuple:
        """Deal the next deal, its dealing shown to the memories; it brings you no steps to read."""
        self.match.next_deal()
        self.moves.append([])
        self._deal_dealt()
        return ()

    # -- surviving a reload -----------------------------------------------------------

    def save(self) -> str:
        """The match as text for the tab's sessionStorage: its settings, seed and moves."""
        return json.dumps({"v": SAVE_VERSION, "game": self.game.id, "length": self.match.length,
                           "seed": self.seed, "clock": self.seating.clock, "level": self.level,
                           "timeouts": self.seating.timeouts(YOU), "autopilot": self.seating.autopilot(YOU),
                           "moves": self.moves}, separators=(",", ":"))

    @classmethod
    def restore(cls, saved) -> "_ComputerTable":
        """The match :meth:`save` kept, replayed from its seed and moves: the same deals and
        the same computers. Raises :class:`CorruptSaveError` for anything else."""
        try:
            data = json.loads(saved)
            if data.get("v") != SAVE_VERSION:
                raise ValueError("another version")
            seed, moves, timeouts = data["seed"], data["moves"], data["timeouts"]
            if type(seed) is not int or not 0 <= seed < 2 ** SEED_BITS:
                raise ValueError("no seed")
            if not isinstance(moves, list) or not moves or not all(isinstance(d, list) for d in moves):
                raise ValueError("no moves")
            if type(timeouts) is not int or timeouts < 0:
                raise ValueError("no timeouts")
            table = cls(get_game(data["game"]), data["length"], seed, data["clock"], data["level"])
            for number, deal in enumerate(moves):
                if number:
                    table.next_deal()
                current = number == len(moves) - 1
                for seat, text in deal:
                    if type(seat) is not int or not isinstance(text, str):
                        raise ValueError("a move is a seat and an action")
                    if seat != YOU:
                        # The computers of the deal in play decide again, as they did, so that
                        # what they remember of it is what they had; the move kept is played.
                        # Of earlier deals they only take in their views (what some carry over
                        # from deal to deal, as how often a seat passes up a capture).
                        bot = table.bots[seat]
                        see = bot.choose if current else getattr(bot, "remember", None)
                        if see is not None:
                            see(table.game.view(table.match, seat))
                    table.apply(table.game.parse_action(text), seat)
            table.seating.resume(YOU, timeouts, data["autopilot"] is True)
        except (PisheError, ValueError, TypeError, KeyError, AttributeError, RecursionError) as e:
            raise CorruptSaveError(_("the saved match cannot be read ({error})").format(error=e)) from None
        table._dealt = False                          # nothing new to tell: the match goes on
        return table

    @property
    def names(self) -> Optional[list]:
        """The seats' names in the page's language: you and "Computer" at a table of two, else the game's own."""
        return [say(TABLE, "You"), say(TABLE, "Computer")] if self.two else None

    def answer(self, steps=(), timed_out: bool = False) -> str:
        """The answer to a call whose move made ``steps`` (``timed_out``: your clock ran out)."""
        game, deal = self.game, self.match.deal
        names = self.names
        view = game.view(self.match, YOU, names).to_json()
        if self.memory is not None:
            view["seen"] = game.seen(self.memory, YOU, names)
        playing, clock = not deal.over, self.seating.clock
        computer = playing and self.seating.by_computer(deal.turn)
        said, news = game.words(steps, YOU, timed_out), self._news(view, steps, names)
        return json.dumps({
            "view": view,
            "steps": said,
            "moves": game.motions(steps, YOU),
            "news": news,
            # Each line's data, and the names the view was made with: the page says them again
            # in another language (pishe.table.said).
            "said": data_of([*said, *news]),
            "said_names": names_data(names),
            "in_progress": self.match.in_progress,
            "computer_moves": computer,
            "clock": (words.clock(deal.turn, clock)
                      if playing and clock is not None and self.seating.clock_runs(deal.turn) else None),
            "autopilot": self.seating.autopilot(YOU),
            "settings": {"game": game.id, "length": self.match.length, "clock": clock, "level": self.level,
                         "level_line": (words.level_line(game.word(game.levels[self.level]))
                                        if self.level in game.levels else None)},
            "saved": self.save(),
        })

    def _news(self, view: dict, steps, names) -> list:
        """What the live region says besides the steps: a deal just dealt (once), or a deal
        that these steps ended, its result as the view's status says it and the match score."""
        if self._dealt:
            self._dealt = False
            return [about("dealt", self.game, view, names)]
        if steps and self.match.deal.over:
            return [about("status", self.game, view, names), about("score", self.game, view, names)]
        return []

    def act(self, text) -> list:
        steps = self.apply(self.game.parse_action(text), YOU)
        self.seating.take_over(YOU)                   # playing a card yourself takes over
        return steps

    def computer_step(self, yours: bool = False) -> list:
        deal = self.match.deal
        if deal.over or (deal.turn == YOU) != yours:
            raise NotYourTurnError(_("It is not the computer's turn.") if not yours else _("It is not your turn."))
        seat = deal.turn
        return self.apply(self.bots[seat].choose(self.game.view(self.match, seat)), seat)

    def timeout(self) -> list:
        if self.seating.clock is None:
            raise PisheError(_("This table has no clock."))
        steps = self.computer_step(yours=True)
        self.seating.timed_out(YOU)
        return steps


_table: Optional[_ComputerTable] = None


def _playing(call: Callable[[_ComputerTable], Any], timed_out: bool = False) -> str:
    """``call(table)`` on the match being played, answered (see :func:`pishe.page.run`)."""
    table = _table
    if table is None:
        return _error(PisheError(_("No match is being played.")))
    return _run(table, "", lambda steps: table.answer(steps, timed_out=timed_out), lambda: call(table))


def new_match(length: Optional[str] = None, seed: Optional[int] = None, game: str = FIRST_GAME,
              clock: Optional[int] = None, level: Optional[str] = None) -> str:
    """Start a new match of ``game`` against the computer (``seed`` makes its deals
    repeatable; ``clock`` is seconds per card, or ``None`` for no clock; ``level`` is one of
    the game's computer levels, by bot name, or ``None`` for its default computer)."""
    global _table
    try:
        _table = _ComputerTable(get_game(game), length, seed, clock, level)
    except PisheError as e:
        return _error(e)
    return _table.answer()


def restore_match(saved: str) -> str:
    """The match against the computer that an answer's ``saved`` held (kept in the tab's
    sessionStorage), where it was: after a reload, Back and Forward, or a discarded tab."""
    global _table
    try:
        _table = _ComputerTable.restore(saved)
    except PisheError as e:
        return _error(e)
    return _table.answer()


def act(action: str) -> str:
    """Your action in seat 0, in its text form (``give``, ``turn``, ``keep``; ``7H``)."""
    return _playing(lambda table: table.act(action))


def computer_step() -> str:
    """One move of the computer whose turn it is (one flip or one give; one card); on your
    turn too while a computer plays your seat after timeouts."""
    return _playing(lambda table: table.computer_step(
        yours=table.match.deal.turn == YOU and table.seating.autopilot(YOU)))


def timeout() -> str:
    """Your clock ran out: the table plays the computer's choice for you (three in a row
    and a computer keeps playing your seat until :func:`take_over`)."""
    return _playing(lambda table: table.timeout(), timed_out=True)


def take_over() -> str:
    """Play your seat yourself again after timeouts."""
    def call(table: _ComputerTable) -> tuple:
        table.seating.take_over(YOU)
        return ()
    return _playing(call)


def next_deal() -> str:
    """Deal the next deal of the match."""
    return _playing(lambda table: table.next_deal())


def current() -> str:
    """The table as it is now (nothing changes)."""
    return _playing(lambda table: ())


# -- a friend's table ----------------------------------------------------------------

def qr_matrix(text: str) -> str:
    """The QR code of ``text`` as rows of "0"/"1" (quiet zone included), made by segno."""
    import segno                     # only the host's invite needs it: not loaded at start-up

    if not isinstance(text, str) or not text or len(text) > 1000:
        return _error(PisheError(_("Nothing to encode.")))
    code = segno.make(text, error="m", micro=False)
    return json.dumps({"rows": ["".join("1" if dark else "0" for dark in row)
                                for row in code.matrix_iter(scale=1, border=4)]})


def page_words() -> str:
    """``{"words": {key: sentence}, "language": code}``: the sentences the page itself shows,
    by key, in its language (:data:`pishe.table.words.PAGE`; ``{name}`` marks a value the page
    puts in)."""
    return json.dumps({"words": words.page(), "language": lang.language()})


def set_language(code: str) -> str:
    """Speak ``code`` (one of :data:`pishe.lang.LANGUAGES`) from now on: every answer's
    words, this page's alone (a friend's page words its own views). Answers :func:`page_words`
    in that language, or ``{"error"}`` with nothing changed. The table's views are worded
    anew when the page asks for them (:func:`current`, ``host_current``, …)."""
    try:
        lang.set_language(code)
    except PisheError as e:
        return _error(e)
    return page_words()


def say_again(lines: list) -> str:
    """``{"lines": [text, …]}``: each of ``lines`` (the data of lines this page said: an
    answer's ``said``, :mod:`pishe.table.said`) in the page's language now; ``None`` for data
    that is no line (the page keeps what it showed)."""
    if not isinstance(lines, list):
        return _error(PisheError(_("Nothing to say again.")))
    texts: list[Optional[str]] = []
    for line in lines:
        try:
            texts.append(again(line))
        except (PisheError, ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError):
            texts.append(None)
    return json.dumps({"lines": texts})
