"""What the page's two Python sides share: the computer table's (:mod:`pishe.web`) and the
friend's table's (:mod:`pishe.web_friends`). Both import this module, neither the other's
names: :mod:`pishe.web` only hands the friend's calls on, by name.
"""

from __future__ import annotations

import json

from .errors import PisheError

__all__ = ["CLOCKS", "outbox", "error", "run"]

#: The clocks a table may run, in seconds per card.
CLOCKS = (60, 30, 15)

#: Set by the page's worker: ``outbox(to, text)`` puts a friend's table's message on its
#: data channel at once (``to``: the host's connection; 0 on a guest's page, its one
#: channel). A peer's answer then waits on the move alone, not on this page's own view
#: and save. ``None`` (here, in tests): the messages wait in the answer's ``send``.
outbox = None


def error(e: Exception) -> str:
    """The answer ``{"error": …}`` for ``e``."""
    return json.dumps({"error": str(e)})


def run(party, missing: str, answer, call) -> str:
    """``answer(call())`` if ``party`` exists; any PisheError becomes ``{"error"}``, changing nothing."""
    if party is None:
        return error(PisheError(missing))
    try:
        return answer(call())
    except PisheError as e:
        return error(e)
