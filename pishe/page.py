"""What the page's two Python sides share: the computer table's (:mod:`pishe.web`) and the
friend's table's (:mod:`pishe.web_friends`). Both import this module, neither the other's
names: :mod:`pishe.web` only hands the friend's calls on, by name.
"""

from __future__ import annotations

import json

from .errors import PisheError
from .lang import _
from .table.said import of_error

__all__ = ["CLOCKS", "check_clock", "outbox", "error", "run"]

#: The clocks a table may run, in seconds per card.
CLOCKS = (60, 30, 15)


def check_clock(clock) -> None:
    """Raise :class:`PisheError` unless ``clock`` is one of :data:`CLOCKS` or ``None``."""
    if clock is not None and clock not in CLOCKS:
        raise PisheError(_("no such clock: {clock} seconds (choose one of {clocks})").format(
            clock=repr(clock), clocks=", ".join(map(str, CLOCKS))))

#: Set by the page's worker: ``outbox(to, text)`` puts a friend's table's message on its
#: data channel at once (``to``: the host's connection; 0 on a guest's page, its one
#: channel). A peer's answer then waits on the move alone, not on this page's own view
#: and save. ``None`` (here, in tests): the messages wait in the answer's ``send``.
outbox = None


def error(e: Exception) -> str:
    """The answer ``{"error": …}`` for ``e``, in the player's words (a technical error's
    sentence by its cause: :func:`pishe.table.said.of_error`), and ``"detail"``, its own text."""
    return json.dumps({"error": of_error(e), "detail": str(e)})


def run(party, missing: str, answer, call) -> str:
    """``answer(call())`` if ``party`` exists; any PisheError becomes ``{"error"}``, changing nothing."""
    if party is None:
        return error(PisheError(missing))
    try:
        return answer(call())
    except PisheError as e:
        return error(e)
