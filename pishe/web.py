"""The page's Python side, called by its worker with plain values; answers JSON text.

The computer table (any game, you in seat 0, computers in the other seats):
:func:`new_match`, :func:`act`, :func:`computer_step`, :func:`timeout`,
:func:`take_over`, :func:`next_deal`, :func:`current` answer ``{"view": …,
"steps": […], "news": […], "in_progress": bool, "computer_moves": bool, "clock": null |
{"seat", "seconds"}, "autopilot": bool}`` (the steps this call caused, in your words;
``news``, what the live region says besides: a deal dealt, a deal's result and the match
score; ``in_progress``, whether a match is being played that leaving would throw away, for
the page to ask first) or ``{"error": "…"}`` with nothing changed. :func:`new_match` takes the computer's
level (a bot of the game's ``levels``); for a game that remembers for you, the
view carries ``seen``, what your seat has been shown (Pishe Pasha's "Show what
you have seen"). The page paints the view and asks
:func:`computer_step` again after its delay while ``computer_moves`` is true;
with a clock it runs the clock of the seat in ``clock`` (``"label"`` is the
clock's accessible name, "Clock: 15 seconds a card") and calls :func:`timeout`
when yours runs out.

A friend's table (see docs/PROTOCOL.md): the host's page uses the ``host_*``
functions, the guest's page the ``guest_*`` ones. Each answers ``{"send":
[…], "steps": […], "error": reason|null, "view": this seat's view|null,
"status": {…}, "saved": text}`` (the guest's also carries ``token`` and ``ledger``); the
status carries the table's own words for the page (see :func:`_friend_status`); the
host's ``send`` holds ``{"to": connection, "text": message}`` objects, the
guest's plain messages. The page keeps ``saved`` (and the token) in
sessionStorage to come back to the table after a reload; a guest's page also
keeps ``ledger`` after every call, however it joins again (the parts of the
shuffle it gave and the moves it asked for: see ``Guest.ledger``). The page carries
the messages over its data channels and passes what arrives to
``*_receive``; it decides nothing.

:func:`page_words` answers the sentences the page itself shows (the friend
panel's, by key: :mod:`pishe.table.words`); the page's JavaScript words none.

Only the table is imported at start-up; a game's modules are imported when a
match of it begins.
"""

from __future__ import annotations

import json
import random
from typing import Optional

from .errors import NotYourTurnError, PisheError, UnknownBotError
from .table.game import get_game
from .table.match import Match
from .table.protocol import CorruptSaveError, Guest, Host, Outcome
from .table.protocol.host import friend_names
from .table.protocol.wire import VERIFIED
from .table import words

__all__ = ["new_match", "act", "computer_step", "timeout", "take_over", "next_deal", "current",
           "blank_view", "host_open", "host_receive", "host_act", "host_next_deal", "host_computer_step", "host_timeout",
           "host_take_over", "host_hold_over", "host_disconnect", "host_current",
           "guest_open", "guest_hello", "guest_receive", "guest_intent", "guest_intents", "guest_next_deal",
           "guest_take_over", "guest_leave",
           "guest_saved", "qr_matrix", "page_words"]

YOU = 0
#: Timeouts in a row after which a computer plays your seat until you take over.
TIMEOUTS_TO_AUTOPILOT = 3
#: The clocks a table may run, in seconds per card.
CLOCKS = (60, 30, 15)


class _ComputerTable:
    """You in seat 0 and the game's computer, at the chosen level, in every other seat, with
    an optional clock. Every step is shown to the computers that remember, and to your own
    memory (the game's, if it has one) for "Show what you have seen"."""

    def __init__(self, game, length, seed, clock, level=None):
        if clock is not None and clock not in CLOCKS:
            raise PisheError(f"no such clock: {clock!r} seconds (choose one of {', '.join(map(str, CLOCKS))})")
        level = game.computer if level is None else level
        if level != game.computer and level not in game.levels:
            raise UnknownBotError(f"no such computer level: {str(level)[:40]!r}"
                                  f" (choose one of {', '.join(game.levels) or game.computer})")
        self.game = game
        self.match = Match(game, length, random.Random(seed))
        self.clock = clock
        self.timeouts = 0
        self.autopilot = False
        rng = random.Random(seed)
        self.bots = {seat: game.new_bot(level, seat, random.Random(rng.getrandbits(64)))
                     for seat in range(game.seats)}
        self.memory = game.new_memory(YOU)
        # A table of two is you and "Computer"; a larger one names seats where they sit.
        self.names = ["You", "Computer"] if game.seats == 2 else None
        self._show(game.deal_steps(self.match.deal), new_deal=True)
        self._dealt = True                            # a deal dealt, not yet told (news)

    def _show(self, steps, new_deal: bool = False) -> None:
        """Show ``steps`` to every seat's computer and to your memory, as each seat sees them."""
        self.game.show_steps([*self.bots.items(), (YOU, self.memory)], steps, new_deal)

    def apply(self, action, seat: int) -> list:
        """Apply ``action`` for ``seat`` and show its steps around the table."""
        steps = self.match.apply(action, seat)
        self._show(steps)
        return steps

    def next_deal(self) -> tuple:
        """Deal the next deal, its dealing shown to the memories; it brings you no steps to read."""
        self.match.next_deal()
        self._show(self.game.deal_steps(self.match.deal), new_deal=True)
        self._dealt = True
        return ()

    def answer(self, steps=()) -> str:
        game, deal = self.game, self.match.deal
        view = game.view(self.match, YOU, self.names).to_json()
        if self.memory is not None:
            view["seen"] = game.seen(self.memory, YOU, self.names)
        playing = not deal.over
        computer = playing and (deal.turn != YOU or self.autopilot)
        return json.dumps({
            "view": view,
            "steps": game.words(steps, YOU),
            "news": self._news(view, steps),
            "in_progress": self.match.in_progress,
            "computer_moves": computer,
            "clock": ({"seat": deal.turn, "seconds": self.clock, "label": words.clock_label(self.clock)}
                      if playing and not computer and self.clock is not None else None),
            "autopilot": self.autopilot,
        })

    def _news(self, view: dict, steps) -> list:
        """What the live region says besides the steps: a deal just dealt (once), or a deal
        that these steps ended, its result as the view's status says it and the match score."""
        match = self.match
        if self._dealt:
            self._dealt = False
            return [words.dealt(self.game.deal_name, match.deal_number, view["names"][match.dealer])]
        if steps and match.deal.over:
            return [view["status"],
                    words.match_score(view.get("team_names") or view["names"], match.scores, match.over)]
        return []

    def act(self, text) -> list:
        steps = self.apply(self.game.parse_action(text), YOU)
        self.timeouts, self.autopilot = 0, False      # playing a card yourself takes over
        return steps

    def computer_step(self, yours: bool = False) -> list:
        deal = self.match.deal
        if deal.over or (deal.turn == YOU) != yours:
            raise NotYourTurnError("It is not the computer's turn." if not yours else "It is not your turn.")
        seat = deal.turn
        return self.apply(self.bots[seat].choose(self.game.view(self.match, seat)), seat)

    def timeout(self) -> list:
        if self.clock is None:
            raise PisheError("This table has no clock.")
        steps = self.computer_step(yours=True)
        self.timeouts += 1
        self.autopilot = self.timeouts >= TIMEOUTS_TO_AUTOPILOT
        return steps


_table: Optional[_ComputerTable] = None


def _error(e: Exception) -> str:
    return json.dumps({"error": str(e)})


def _run(party, missing: str, answer, call) -> str:
    """``answer(call())`` if ``party`` exists; any PisheError becomes ``{"error"}``, changing nothing."""
    if party is None:
        return _error(PisheError(missing))
    try:
        return answer(call())
    except PisheError as e:
        return _error(e)


def _playing(call) -> str:
    return _run(_table, "No match is being played.", lambda steps: _table.answer(steps), call)


def new_match(length: Optional[str] = None, seed: Optional[int] = None, game: str = "pishe-pasha",
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


def act(action: str) -> str:
    """Your action in seat 0, in its text form (``give``, ``turn``, ``keep``; ``7H``)."""
    return _playing(lambda: _table.act(action))


def computer_step() -> str:
    """One move of the computer whose turn it is (one flip or one give; one card); on your
    turn too while a computer plays your seat after timeouts."""
    return _playing(lambda: _table.computer_step(yours=_table.match.deal.turn == YOU and _table.autopilot))


def timeout() -> str:
    """Your clock ran out: the table plays the computer's choice for you (three in a row
    and a computer keeps playing your seat until :func:`take_over`)."""
    return _playing(lambda: _table.timeout())


def take_over() -> str:
    """Play your seat yourself again after timeouts."""
    def call():
        _table.timeouts, _table.autopilot = 0, False
        return ()
    return _playing(call)


def next_deal() -> str:
    """Deal the next deal of the match."""
    return _playing(lambda: _table.next_deal())


def current() -> str:
    """The table as it is now (nothing changes)."""
    return _playing(lambda: ())


# -- a friend's table ----------------------------------------------------------------

_host: Optional[Host] = None
_guest: Optional[Guest] = None


def _friend_status(status: dict) -> dict:
    """A friend's table's status with its own words for the page added: ``"dealing"``
    (the status line while a deal is being dealt), ``"when_back"`` (the host's, while
    its friend is away) and ``"fair"``, the guest's check of its last finished deal
    (``{"ok", "line"}`` or ``None``; always ``None`` on the host's side)."""
    return {**status, **words.dealing_lines(status.get("deal")),
            "presence": words.presence(status.get("seats") or [], status.get("seat")),
            "fair": words.fairness(status.get("verification"), status.get("verification_deal"), VERIFIED,
                                   get_game(status["game"]).deal_name if status.get("game") else "Deal")}


def _host_answer(outcome: Outcome) -> str:
    """The host's answer: messages for the guests' connections, the host's view and words,
    and what the page runs on its own: the computers' moves (``computer_moves``: ask
    :func:`host_computer_step`), the clock of the person to move (``clock``: when it runs
    out, :func:`host_timeout`), and whether a computer plays the host's own seat
    (``autopilot``: Take over)."""
    view, status = _host.view(), _host.status()
    return json.dumps({"send": [{"to": conn, "text": text} for conn, text in outcome.send],
                       "steps": outcome.steps, "error": outcome.error,
                       "view": view, "status": _friend_status(status), "saved": _host.save(),
                       "computer_moves": _host.match is not None and _host.computer_seat() is not None,
                       **_person_clock(status, view)})


def _person_clock(status: dict, view: Optional[dict]) -> dict:
    """For a friend's table's answer: ``clock``, the clock of the person to move
    (``{"seat", "seconds", "label"}``, or ``None`` when no clock runs: no clock at the
    table, no deal in play, or a computer playing that seat), and ``autopilot``, whether
    a computer plays this page's own seat now (the page offers Take over)."""
    seats, seconds = status.get("seats") or [], status.get("clock")
    turn = view.get("turn") if view else None
    mine = next((s for s in seats if s.get("seat") == status.get("seat")), {})
    to_move = next((s for s in seats if s.get("seat") == turn), None)
    runs = (seconds is not None and status.get("phase") == "playing" and to_move is not None
            and to_move.get("role") != "computer"
            and not any(to_move.get(k) for k in ("autopilot", "away", "left")))
    return {"clock": {"seat": turn, "seconds": seconds, "label": words.clock_label(seconds)} if runs else None,
            "autopilot": bool(mine.get("autopilot"))}


def _guest_answer(outcome: Outcome, keep: bool = True) -> str:
    view, status = _guest.view(), _guest.status()
    return json.dumps({"send": outcome.send, "steps": outcome.steps, "error": outcome.error,
                       "view": view, "status": _friend_status(status),
                       "token": _guest.token, "ledger": _guest.ledger(), "saved": _guest.save() if keep else None,
                       **_person_clock(status, view)})


def _hosting(call) -> str:
    return _run(_host, "No table is open.", _host_answer, call)


def _guesting(call, keep: bool = True) -> str:
    return _run(_guest, "This page has not joined a table.",
                lambda outcome: _guest_answer(outcome, keep), call)


def blank_view(game: str = "pishe-pasha", role: str = "host") -> str:
    """``{"view": …}``: the view a friend's table shows before its cards are dealt, as the
    host (seat 0) or a guest (seat 1) sees it."""
    try:
        if role not in words.WAITING:
            raise PisheError(f"no such role: {role!r} (host or guest)")
        seat = 0 if role == "host" else 1
        game = get_game(game)
        return json.dumps({"view": game.blank_view(seat, friend_names(game, seat), words.WAITING[role])})
    except PisheError as e:
        return _error(e)


def host_open(length: Optional[str] = None, saved: Optional[str] = None, game: str = "pishe-pasha",
              friends: Optional[list] = None, clock: Optional[int] = None) -> str:
    """Open a table of ``game`` for friends, as host (seat 0), with this match length, the
    seats ``friends`` kept for friends (every other seat if ``None``; the rest are the
    computer's) and ``clock`` seconds per move (``None``: no clock); or, with ``saved``
    (an answer's ``saved``, kept in the tab), the table as it was before a reload, with
    no guest connected."""
    global _host
    try:
        if clock is not None and clock not in CLOCKS:
            raise PisheError(f"no such clock: {clock!r} seconds (choose one of {', '.join(map(str, CLOCKS))})")
        _host = Host.restore(saved) if saved else Host(game, length, guest_seats=friends, clock=clock)
    except (PisheError, ValueError) as e:
        return _error(e)
    return _host_answer(Outcome([], []))


def host_receive(text: str, conn: int = 1) -> str:
    """A message from a guest's page on connection ``conn`` (anything at all: refusals
    go back as errors)."""
    return _hosting(lambda: _host.receive(text, conn))


def host_act(action: str) -> str:
    """The host's own action, in its text form."""
    return _hosting(lambda: _host.act(action))


def host_next_deal() -> str:
    """Deal the next deal (the host commits to a new seed)."""
    return _hosting(lambda: _host.next_deal())


def host_computer_step() -> str:
    """One move of the computer whose turn it is (a computer's seat, or a person's it plays)."""
    return _hosting(lambda: _host.computer_step())


def host_timeout() -> str:
    """The clock of the person to move ran out: the table plays the computer's move for them."""
    return _hosting(lambda: _host.timeout())


def host_take_over() -> str:
    """The host plays its own seat again after its timeouts."""
    return _hosting(lambda: (_host.take_over(), Outcome([], []))[1])


def host_hold_over(seat: int) -> str:
    """The hold of guest ``seat``'s lost connection ran out: a computer plays it until it is back."""
    return _hosting(lambda: _host.hold_over(seat))


def host_disconnect(conn: int = 1) -> str:
    """Connection ``conn`` closed: the host keeps the match and can invite again."""
    return _hosting(lambda: (_host.disconnect(conn), Outcome([], []))[1])


def host_current() -> str:
    """The host's table as it is now (nothing changes)."""
    return _hosting(lambda: Outcome([], []))


def guest_open(token: Optional[str] = None, saved: Optional[str] = None, ledger: Optional[str] = None) -> str:
    """Join as guest: resume from ``saved`` (sessionStorage) or ``token`` if given; sends hello.
    ``ledger`` is the last answer's ``ledger`` as the page kept it (``None`` if none): even a
    page that joins afresh never gives a second part of the shuffle to a deal of the match."""
    global _guest
    _guest = None
    try:
        Guest(ledger=ledger)
    except PisheError:
        ledger = None               # a damaged ledger: as if none had been kept
    if saved:
        try:
            _guest = Guest.restore(saved, ledger=ledger)
        except CorruptSaveError:
            _guest = None           # a damaged save: join with the token alone
    if _guest is None:
        try:
            _guest = Guest(token, ledger=ledger)
        except PisheError:
            _guest = Guest(ledger=ledger)
    return _guest_answer(Outcome([_guest.hello()], []))


def guest_hello() -> str:
    """Say hello again (a new channel to the same host)."""
    return _guesting(lambda: Outcome([_guest.hello()], []))


def guest_receive(text: str, keep: bool = True) -> str:
    """A message from the host's page. With ``keep=False`` the answer's ``saved`` is null
    (saving takes most of the call): the page asks :func:`guest_saved` once it has painted."""
    return _guesting(lambda: _guest.receive(text), keep)


def guest_intent(action: str, keep: bool = True) -> str:
    """The guest's action, as a message for the host (the host decides). With
    ``keep=False`` the answer's ``saved`` is null, as for :func:`guest_receive`: the
    page saves once the host's answer is painted, and the worker is free for it sooner."""
    return _guesting(lambda: Outcome([_guest.intent(action)], []), keep)


def guest_intents() -> str:
    """``{"intents": {action: message}}``: what :func:`guest_intent` would send now, for each
    action the guest's view allows. Nothing changes. The page sends one the moment its
    button is clicked (a worker round trip right after a click waits for the browser's
    next frame), then calls ``guest_intent(action)``, which makes the same message and
    counts it."""
    def drafts():
        legal = (_guest.view() or {}).get("legal") or []
        return json.dumps({"intents": {action: _guest.draft_intent(action) for action in legal}})
    return _run(_guest, "This page has not joined a table.", lambda answer: answer, drafts)


def guest_saved() -> str:
    """The guest's answer with nothing changed: its ``token`` and ``saved`` are what the page
    keeps in sessionStorage to resume the seat."""
    return _guesting(lambda: Outcome([], []))


def guest_next_deal() -> str:
    """Ask the host for the next deal."""
    return _guesting(lambda: Outcome([_guest.next_deal()], []))


def guest_take_over() -> str:
    """Play this seat again after a computer played it (timeouts)."""
    return _guesting(lambda: Outcome([_guest.take_over()], []))


def guest_leave() -> str:
    """Leave the table: the message giving this seat to a computer for good."""
    return _guesting(lambda: Outcome([_guest.leave()], []))


def qr_matrix(text: str) -> str:
    """The QR code of ``text`` as rows of "0"/"1" (quiet zone included), made by segno."""
    import segno                     # only the host's invite needs it: not loaded at start-up

    if not isinstance(text, str) or not text or len(text) > 1000:
        return _error(PisheError("Nothing to encode."))
    code = segno.make(text, error="m", micro=False)
    return json.dumps({"rows": ["".join("1" if dark else "0" for dark in row)
                                for row in code.matrix_iter(scale=1, border=4)]})


def page_words() -> str:
    """``{"words": {key: sentence}}``: the sentences the page itself shows, by key
    (:data:`pishe.table.words.PAGE`; ``{name}`` marks a value the page puts in)."""
    return json.dumps({"words": words.PAGE})
