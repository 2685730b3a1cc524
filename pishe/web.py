"""The page's Python side, called by its worker with plain values; answers JSON text.

The computer table: :func:`new_match`, :func:`act`, :func:`computer_step`,
:func:`next_deal`, :func:`current` answer ``{"view": …, "steps": […],
"computer_moves": bool}`` (the steps this call caused, in seat 0's words) or
``{"error": "…"}`` with nothing changed. The page paints the view and asks
:func:`computer_step` again after its delay while ``computer_moves`` is true.

A friend's table (see docs/PROTOCOL.md): the host's page uses the ``host_*``
functions, the guest's page the ``guest_*`` ones. Each answers ``{"send":
[messages for the other page], "steps": […], "error": reason|null, "view":
this seat's view|null, "status": {…}, "saved": text}`` (the guest's also
carries ``token``); the page keeps ``saved`` (and the token) in sessionStorage
to come back to the table after a reload. The page carries ``send`` over
the data channel and passes what arrives to ``*_receive``; it decides nothing.
"""

from __future__ import annotations

import json
import random
from typing import Optional

from .bots import always_give
from .errors import PisheError
from .match import ONE_DEAL, Match
from .play import bot_step
from .protocol import CorruptSaveError, Guest, Host, Outcome
from .view import seat_view

__all__ = ["new_match", "act", "computer_step", "next_deal", "current",
           "host_open", "host_receive", "host_act", "host_next_deal", "host_disconnect", "host_current",
           "guest_open", "guest_hello", "guest_receive", "guest_intent", "guest_intents", "guest_next_deal", "guest_saved",
           "qr_matrix"]

YOU = 0
COMPUTER = 1

_match: Optional[Match] = None


def _answer(steps=()) -> str:
    view = seat_view(_match, YOU).to_json()
    return json.dumps({
        "view": view,
        "steps": [s.describe(YOU) for s in steps],
        "computer_moves": view["turn"] == COMPUTER,
    })


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
    return _run(_match, "No match is being played.", _answer, call)


def new_match(length: str = ONE_DEAL, seed: Optional[int] = None) -> str:
    """Start a new match against the computer (``seed`` makes its deals repeatable)."""
    global _match
    try:
        _match = Match(length, random.Random(seed))
    except PisheError as e:
        return _error(e)
    return _answer()


def act(action: str) -> str:
    """Your action (``give``, ``turn`` or ``keep``) in seat 0."""
    return _playing(lambda: _match.apply(action, YOU))


def _computer_step() -> list:
    if _match.deal.over or _match.deal.turn != COMPUTER:
        raise PisheError("It is not the computer's turn.")
    return bot_step(_match, always_give)


def computer_step() -> str:
    """One step of the computer's turn: one flip or one give."""
    return _playing(_computer_step)


def next_deal() -> str:
    """Deal the next deal of the match."""
    return _playing(lambda: _match.next_deal() or ())


def current() -> str:
    """The table as it is now (nothing changes)."""
    return _playing(lambda: ())


# -- a friend's table ----------------------------------------------------------------

_host: Optional[Host] = None
_guest: Optional[Guest] = None


def _host_answer(outcome: Outcome) -> str:
    return json.dumps({"send": outcome.send, "steps": outcome.steps, "error": outcome.error,
                       "view": _host.view(), "status": _host.status(), "saved": _host.save()})


def _guest_answer(outcome: Outcome, keep: bool = True) -> str:
    return json.dumps({"send": outcome.send, "steps": outcome.steps, "error": outcome.error,
                       "view": _guest.view(), "status": _guest.status(),
                       "token": _guest.token, "saved": _guest.save() if keep else None})


def _hosting(call) -> str:
    return _run(_host, "No table is open.", _host_answer, call)


def _guesting(call, keep: bool = True) -> str:
    return _run(_guest, "This page has not joined a table.",
                lambda outcome: _guest_answer(outcome, keep), call)


def host_open(length: str = ONE_DEAL, saved: Optional[str] = None) -> str:
    """Open a table for a friend, as host (seat 0), with this match length; or, with
    ``saved`` (an answer's ``saved``, kept in the tab), the table as it was before a
    reload, with no guest connected."""
    global _host
    try:
        _host = Host.restore(saved) if saved else Host(length)
    except PisheError as e:
        return _error(e)
    return _host_answer(Outcome([], []))


def host_receive(text: str) -> str:
    """A message from the guest's page (anything at all: refusals go back as errors)."""
    return _hosting(lambda: _host.receive(text))


def host_act(action: str) -> str:
    """The host's own action (``give``, ``turn`` or ``keep``)."""
    return _hosting(lambda: _host.act(action))


def host_next_deal() -> str:
    """Deal the next deal (the host commits to a new seed)."""
    return _hosting(lambda: _host.next_deal())


def host_disconnect() -> str:
    """The data channel closed: the host keeps the match and can invite again."""
    return _hosting(lambda: (_host.disconnect(), Outcome([], []))[1])


def host_current() -> str:
    """The host's table as it is now (nothing changes)."""
    return _hosting(lambda: Outcome([], []))


def guest_open(token: Optional[str] = None, saved: Optional[str] = None) -> str:
    """Join as guest: resume from ``saved`` (sessionStorage) or ``token`` if given; sends hello."""
    global _guest
    _guest = None
    if saved:
        try:
            _guest = Guest.restore(saved)
        except CorruptSaveError:
            _guest = None           # a damaged save: join with the token alone
    if _guest is None:
        try:
            _guest = Guest(token)
        except PisheError:
            _guest = Guest()
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


def qr_matrix(text: str) -> str:
    """The QR code of ``text`` as rows of "0"/"1" (quiet zone included), made by segno."""
    import segno                     # only the host's invite needs it: not loaded at start-up

    if not isinstance(text, str) or not text or len(text) > 1000:
        return _error(PisheError("Nothing to encode."))
    code = segno.make(text, error="m", micro=False)
    return json.dumps({"rows": ["".join("1" if dark else "0" for dark in row)
                                for row in code.matrix_iter(scale=1, border=4)]})
