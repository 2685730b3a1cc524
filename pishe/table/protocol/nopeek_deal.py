"""What the host's and the guests' pages share of a no-peek deal at a friends' table.

Each page holds a :class:`~pishe.table.nopeek_seat.NoPeekSeat` per try of a deal. A page
that comes back (a reload, a restored save, a new channel) rebuilds it from its own secret
and the deal's log, every page's message in the order the host relayed them
(:func:`replay_seat`): the deal is deterministic in its secrets and messages, so the page
is where it was, and sends only what the others never got.
"""

from __future__ import annotations

import json

__all__ = ["dealer_of", "np_match_id", "replay_seat"]


def dealer_of(game, number: int) -> int:
    """The seat that deals deal ``number`` of a match (one seat on each deal)."""
    return (game.first_dealer + number - 1) % game.seats


def np_match_id(match_id: str, tries: int) -> str:
    """What a try of a deal binds its secrets to: the match, and which try (a deal aborted by
    a page gone with its keys is dealt again, with fresh secrets bound to the new try)."""
    return match_id if tries == 0 else f"{match_id}.{tries}"


def replay_seat(seat, log: list) -> list:
    """Bring ``seat`` (a NoPeekSeat just made from its page's kept secret) through ``log``:
    its own moves are played again, its own other messages made again, the others' taken in.
    Returns what it says that is not in the log (lost on the way: to send now)."""
    said = seat.start()
    for message in log:
        if message.get("seat") != seat.seat:
            said += seat.receive(message)
        elif message.get("type") == "np-act" and seat.outcome is None:
            said += seat.act(message["action"], message.get("mark"))
    # Key shares may have gone in several messages (a guest's parts): each share counts once.
    logged = {json.dumps(e) for m in log if m.get("seat") == seat.seat and m.get("type") == "np-keys"
              for e in m["shares"]}
    out = []
    for message in said:
        if message["type"] == "np-keys":
            shares = [e for e in message["shares"] if json.dumps(e) not in logged]
            if shares:
                out.append({**message, "shares": shares})
        elif message not in log:
            out.append(message)
    return out
