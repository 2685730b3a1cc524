"""What the host's and the guests' sides of a friends' table both say and decide: the seats'
names at a friends' table, the note when computers sit with friends, and the move the table
makes for a person whose clock ran out (marked so in the deal's log)."""

from __future__ import annotations

from typing import Optional

from ..lang import TABLE, _
from ..said import say

__all__ = ["COMPUTER", "TIMEOUT", "computers_note", "friend_names", "no_cause", "timeout_action"]

#: How the deal's log marks a move the table made for a person's seat (``np-act``'s
#: ``mark``: every page words such a move as the table's).
TIMEOUT, COMPUTER = "timeout", "computer"


def friend_names(game, seat: int) -> Optional[list]:
    """The seats' names from ``seat``'s side at a friends' table: in a two-seat game "You"
    and "Friend"; in a larger one ``None``, the game's own (where each seat sits)."""
    if game.seats != 2:
        return None
    return [say(TABLE, "You") if s == seat else say(TABLE, "Friend") for s in range(2)]


def computers_note() -> str:
    """What a no-peek table says when computers sit with friends."""
    return _("The computers' cards are known to the host's page: it plays them. "
             "No page knows a card of a person's seat before that seat may show it.")


def no_cause(seat: int):
    """The finding that page ``seat`` stopped a deal with an ``np-unfair`` that does not hold (a
    :class:`~pishe.table.nopeek.NotFairError` naming it)."""
    from ..nopeek import NotFairError

    return NotFairError(_("A page stopped the deal with no cause that the deal shows."), seat)


def timeout_action(view: Optional[dict]) -> Optional[str]:
    """The move the table makes for a person whose clock ran out: the first of the legal
    actions in that seat's own view, so that the seat's page can redo it and check it."""
    legal = view.get("legal") if isinstance(view, dict) else None
    return legal[0] if isinstance(legal, list) and legal and isinstance(legal[0], str) else None
