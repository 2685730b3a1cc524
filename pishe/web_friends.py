"""The page's Python side for a friend's table: the ``host_*`` and ``guest_*`` calls
(see :mod:`pishe.web`, which answers them by name, and docs/PROTOCOL.md).

Its own module so that the computer table's start-up does not import the protocol.
"""

from __future__ import annotations

import json
from typing import Callable, Optional

from .errors import PisheError
from .table import words
from .table.game import get_game
from .lang import _
from .table.protocol import CorruptSaveError, Guest, Host, Outcome
from .table.protocol.common import friend_names
from .table.protocol.wire import DEALING, VERIFIED
from .table.said import data_of, names_data
from . import page
from .page import check_clock, error as _error, run as _run

_host: Optional[Host] = None
_guest: Optional[Guest] = None


def _friend_status(status: dict) -> dict:
    """A friend's table's status with its own words for the page added: ``"dealing"``
    (the status line while a deal is being dealt), ``"when_back"`` (the host's, while
    its friend is away), ``"waiting_line"`` (naming the seats the table waits on, or
    ``None``: :func:`_waiting_line`), ``"sides"`` (each seat's side from this one's: "your
    partner", "other team" or "") and ``"fair"``, the guest's check of its last finished
    deal (``{"ok", "line"}`` or ``None``; always ``None`` on the host's side), and
    ``"check_line"``, the table check code of the deal in play, worded (or ``None``)."""
    game = get_game(status["game"]) if status.get("game") else None
    if game is not None and status.get("length") in game.lengths:
        # The match length as this page's player reads it (the wire carries it in English).
        status = {**status, "length_name": game.word(game.lengths[status["length"]].name)}
    return {**status, **words.dealing_lines(status.get("deal")),
            "presence": words.presence(status.get("seats") or [], status.get("seat")),
            "waiting_line": _waiting_line(status),
            "sides": words.sides(get_game(status["game"]).teams, status["seat"]) if status.get("game") else [],
            "fair": words.fairness(status.get("verification"), status.get("verification_deal"), VERIFIED,
                                   _deal_name(status.get("game")), status.get("aborts", 0)),
            "check_line": words.check_line(status.get("check_code"), status.get("deal"),
                                           _deal_name(status.get("game")))}


def _deal_name(game: Optional[str]) -> str:
    """The game's word for a deal in the page's language ("Deal" when no game is known)."""
    return get_game(game).deal_word() if game else words.deal_word()


def _waiting_line(status: dict) -> Optional[str]:
    """The status line naming the seats the table waits on, or ``None``: the host's (its
    ``waiting_for``); a guest's while its table is being dealt, the other friends whose
    pages are not here yet (their seats are kept for them: the host may deal without them)."""
    if "waiting_for" in status:
        waiting = status["waiting_for"] or []
    elif status.get("phase") == DEALING:
        waiting = [s["seat"] for s in status.get("seats") or []
                   if s.get("role") == "guest" and s.get("seat") != status.get("seat") and not s.get("connected")
                   and not s.get("away") and not s.get("left")]
    else:
        waiting = []
    if not waiting:
        return None
    game = get_game(status["game"])
    names = game.blank_view(status["seat"], friend_names(game, status["seat"]), "")["names"]
    return words.waiting_for([names[s] for s in waiting])


def _send_now(messages: list) -> list:
    """Send ``messages`` through :data:`pishe.page.outbox` if the page set one (the host's
    are ``(connection, text)``, the guest's text for its host), first thing in an answer,
    before this page's own view and save: what is left for the answer's ``send``."""
    if page.outbox is None:
        return messages
    for message in messages:
        to, text = message if isinstance(message, tuple) else (0, message)
        page.outbox(to, text)
    return []


def _host_answer(host: Host, outcome: Outcome) -> str:
    """The host's answer: messages for the guests' connections, the host's view and words,
    and what the page runs on its own: the computers' moves (``computer_moves``: ask
    :func:`host_computer_step`), the clock of the person to move (``clock``: when it runs
    out, :func:`host_timeout`), and whether a computer plays the host's own seat
    (``autopilot``: Take over)."""
    send = _send_now(outcome.send)
    view, status = host.view(), host.status()
    return json.dumps({"send": [{"to": conn, "text": text} for conn, text in send],
                       "steps": outcome.steps, "moves": list(outcome.moves), "error": outcome.error,
                       **_said(outcome.steps, host.game, host.seat),
                       "view": view, "status": _friend_status(status), "saved": host.save(),
                       "computer_moves": host.match is not None and host.computer_seat() is not None,
                       **_person_clock(status, view)})


def _person_clock(status: dict, view: Optional[dict]) -> dict:
    """For a friend's table's answer: ``clock``, the clock of the person to move
    (:func:`pishe.table.words.clock`, or ``None`` when no clock runs: no clock at the
    table, no deal in play, or a computer playing that seat), and ``autopilot``, whether
    a computer plays this page's own seat now (the page offers Take over)."""
    seats, seconds = status.get("seats") or [], status.get("clock")
    turn = view.get("turn") if view else None
    mine: dict = next((s for s in seats if s.get("seat") == status.get("seat")), {})
    to_move = next((s for s in seats if s.get("seat") == turn), None)
    runs = (status.get("phase") == "playing" and to_move is not None and to_move.get("role") != "computer"
            and not any(to_move.get(k) for k in ("autopilot", "away", "left", "unfair")))
    clock = None
    if runs and turn is not None and seconds is not None:
        clock = words.clock(turn, seconds, turn == status.get("seat"))
    return {"clock": clock, "autopilot": bool(mine.get("autopilot"))}


def _said(steps: list, game, seat: Optional[int]) -> dict:
    """An answer's ``said``, the data of its ``steps``, and ``said_names``, the seats' names its
    views are made with: the page says them again in another language (pishe.table.said)."""
    names = friend_names(game, seat) if game is not None and seat is not None else None
    return {"said": data_of(steps), "said_names": names_data(names)}


def _guest_answer(guest: Guest, outcome: Outcome, keep: bool = True, board: bool = True) -> str:
    """The guest's answer; with ``board=False`` only what the page keeps (its ``view`` and
    ``status`` null): nothing to paint."""
    answer = {"send": _send_now(outcome.send), "steps": outcome.steps, "moves": list(outcome.moves),
              "error": outcome.error,
              **_said(outcome.steps, guest.game, guest.seat),
              "token": guest.token, "ledger": guest.ledger(), "saved": guest.save() if keep else None}
    if not board:
        return json.dumps({**answer, "view": None, "status": None})
    view, status = guest.view(), guest.status()
    return json.dumps({**answer, "view": view, "status": _friend_status(status), **_person_clock(status, view)})


def _then_nothing(call: Callable[..., None], *args) -> Outcome:
    """``call(*args)``, a call that changes the table and sends nothing: an empty outcome."""
    call(*args)
    return Outcome([], [])


def _hosting(call: Callable[[Host], Outcome]) -> str:
    """``call`` on the open table, answered as the host's page reads it."""
    host = _host
    if host is None:
        return _error(PisheError(_("No table is open.")))
    return _run(host, "", lambda outcome: _host_answer(host, outcome), lambda: call(host))


def _guesting(call: Callable[[Guest], Outcome], keep: bool = True, board: bool = True) -> str:
    """``call`` on the table this page joined, answered as the guest's page reads it."""
    guest = _guest
    if guest is None:
        return _error(PisheError(_("This page has not joined a table.")))
    return _run(guest, "", lambda outcome: _guest_answer(guest, outcome, keep, board), lambda: call(guest))


def blank_view(game: str = "pishe-pasha", role: str = "host") -> str:
    """``{"view": …}``: the view a friend's table shows before its cards are dealt, as the
    host (seat 0) or a guest (seat 1) sees it."""
    try:
        if role not in words.WAITING:
            raise PisheError(_("no such role: {role} (host or guest)").format(role=repr(role)))
        seat = 0 if role == "host" else 1
        table = get_game(game)
        return json.dumps({"view": table.blank_view(seat, friend_names(table, seat), words.waiting(role))})
    except PisheError as e:
        return _error(e)


def host_open(length: Optional[str] = None, saved: Optional[str] = None, game: str = "pishe-pasha",
              friends: Optional[list] = None, clock: Optional[int] = None) -> str:
    """Open a table of ``game`` for friends, as host (seat 0), with this match length, the
    seats ``friends`` kept for friends (every other seat if ``None``; the rest are the
    computer's) and ``clock`` seconds per move (``None``: no clock), dealt no-peek (no page,
    this one included, knows a card its seats may not see); or, with ``saved``
    (an answer's ``saved``, kept in the tab), the table as it was before a reload, with
    no guest connected."""
    global _host
    try:
        check_clock(clock)
        host = _host = Host.restore(saved) if saved else Host(game, length, guest_seats=friends, clock=clock)
    except (PisheError, ValueError) as e:
        return _error(e)
    return _host_answer(host, Outcome([], []))


def host_receive(text: str, conn: int = 1) -> str:
    """A message from a guest's page on connection ``conn`` (anything at all: refusals
    go back as errors)."""
    return _hosting(lambda host: host.receive(text, conn))


def host_act(action: str) -> str:
    """The host's own action, in its text form."""
    return _hosting(lambda host: host.act(action))


def host_next_deal() -> str:
    """Deal the next deal (every page at the table deals it, no-peek)."""
    return _hosting(lambda host: host.next_deal())


def host_computer_step() -> str:
    """One move of the computer whose turn it is (a computer's seat, or a person's it plays)."""
    return _hosting(lambda host: host.computer_step())


def host_timeout() -> str:
    """The clock of the person to move ran out: the table plays the computer's move for them."""
    return _hosting(lambda host: host.timeout())


def host_take_over() -> str:
    """The host plays its own seat again after its timeouts."""
    return _hosting(lambda host: _then_nothing(host.take_over))


def host_hold_over(seat: int) -> str:
    """The hold of guest ``seat``'s lost connection ran out: a computer plays it until it is back."""
    return _hosting(lambda host: host.hold_over(seat))


def host_name(name: Optional[str]) -> str:
    """The name the host gives its own seat (``None``: none): at most 20 characters, player
    text (shown as text, in a seat's name places only)."""
    return _hosting(lambda host: host.set_name(name))


def host_play_again(length: Optional[str] = None, clock: Optional[int] = None) -> str:
    """After the match: a new one with the same friends in the same seats, of ``length``
    with ``clock`` seconds per move (``None``: no clock), the page's settings; with no
    ``length``, of the same length and clock."""
    def again(host: Host) -> Outcome:
        check_clock(clock)
        return host.play_again(length, clock)
    return _hosting(again)


def host_deal_now() -> str:
    """Deal now, with computers in the guest seats whose friends are not here."""
    return _hosting(lambda host: host.deal_now())


def host_silent(seat: int) -> str:
    """Guest ``seat``'s page has not answered for its hold: a computer plays it until it acts."""
    return _hosting(lambda host: host.silent(seat))


def host_disconnect(conn: int = 1) -> str:
    """Connection ``conn`` closed: the host keeps the match and can invite again."""
    return _hosting(lambda host: _then_nothing(host.disconnect, conn))


def host_current() -> str:
    """The host's table as it is now (nothing changes)."""
    return _hosting(lambda host: Outcome([], []))


def guest_open(token: Optional[str] = None, saved: Optional[str] = None, ledger: Optional[str] = None) -> str:
    """Join as guest: resume from ``saved`` (sessionStorage) or ``token`` if given; sends hello.
    ``ledger`` is the last answer's ``ledger`` as the page kept it (``None`` if none): even a
    page that joins afresh keeps its count of aborts, its warning and its secret of the try in play."""
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
    guest = _guest
    return _guest_answer(guest, Outcome([guest.hello()], []))


def guest_hello() -> str:
    """Say hello again (a new channel to the same host)."""
    return _guesting(lambda guest: Outcome([guest.hello()], []))


def guest_receive(text: str, keep: bool = True) -> str:
    """A message from the host's page. With ``keep=False`` the answer's ``saved`` is null
    (saving takes most of the call): the page asks :func:`guest_saved` once it has painted."""
    return _guesting(lambda guest: guest.receive(text), keep)


def guest_intent(action: str, keep: bool = True) -> str:
    """The guest's action, made on this page's own engine at once, with its keys: the answer
    carries the messages for the host and the new ``view`` and ``status``. With
    ``keep=False`` its ``saved`` is null, as for :func:`guest_receive`: the page saves once
    it has painted, and the worker is free sooner."""
    return _guesting(lambda guest: guest.move(action), keep)


def guest_timeout() -> str:
    """The clock of the person to move ran out: when that person is this page's, it plays its
    own seat's timeout (the first legal move of its view); otherwise nothing changes."""
    return _guesting(lambda guest: guest.timeout())


def guest_reveal_overdue() -> str:
    """The hold ran out while the guest's page waited for the secrets at a deal's end (its
    status's ``awaiting_reveal``): the deal ends aborted, naming who did not reveal."""
    return _guesting(lambda guest: guest.reveal_overdue())


def guest_saved() -> str:
    """The guest's answer with nothing changed: its ``token`` and ``saved`` are what the page
    keeps in sessionStorage to resume the seat."""
    return _guesting(lambda guest: Outcome([], []))


def guest_next_deal() -> str:
    """Ask the host for the next deal."""
    return _guesting(lambda guest: Outcome([guest.next_deal()], []))


def guest_take_over() -> str:
    """Play this seat again after a computer played it (timeouts)."""
    return _guesting(lambda guest: Outcome([guest.take_over()], []))


def guest_name(name: Optional[str]) -> str:
    """The message giving this guest's seat the name ``name`` (``None``: none), checked here first."""
    return _guesting(lambda guest: Outcome([guest.name(name)], []))


def guest_leave() -> str:
    """Leave the table: the message giving this seat to a computer for good."""
    return _guesting(lambda guest: Outcome([guest.leave()], []))
