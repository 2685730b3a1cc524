"""What the host's and the guests' pages share of a no-peek deal at a friends' table.

Each page holds a :class:`~pishe.table.nopeek_seat.NoPeekSeat` per try of a deal. A page
that comes back (a reload, a restored save, a new channel) rebuilds it from its own secret
and the deal's log, every page's message in the order the host relayed them
(:func:`replay_seat`): the deal is deterministic in its secrets and messages, so the page
is where it was, and sends only what the others never got.
"""

from __future__ import annotations

__all__ = ["dealer_of", "np_match_id", "rebuild", "replay_seat", "unsent"]


def dealer_of(game, number: int) -> int:
    """The seat that deals deal ``number`` of a match (one seat on each deal)."""
    return (game.first_dealer + number - 1) % game.seats


def np_match_id(match_id: str, tries: int) -> str:
    """What a try of a deal binds its secrets to: the match, and which try (a deal aborted by
    a page gone with its keys is dealt again, with fresh secrets bound to the new try)."""
    return match_id if tries == 0 else f"{match_id}.{tries}"


def replay_seat(seat, log: list) -> list:
    """Bring ``seat`` (a NoPeekSeat just made from its page's kept secret) through ``log``, the
    deal's log as its page kept it: its own moves are played again, its own other messages
    made again, the others' taken in. Returns what it says that is not in the log (lost on
    the way: to send now)."""
    others: list = []
    mine: list = []
    for message in log:
        if message.get("seat") == seat.seat:
            mine.append([len(others), message])
        else:
            others.append(message)
    return rebuild(seat, others, mine)


def rebuild(seat, others: list, mine: list) -> list:
    """Bring ``seat`` (a NoPeekSeat just made from its page's kept secret) through the others'
    messages ``others``, in the order its page took them in, and its page's own ``mine``
    (``[others taken in before, message]``, :class:`~.record.Record`), each where its page
    made it: its own moves are played again, its own other messages made again. Returns what
    it says that is not among ``mine`` (never sent: to send now)."""
    said = seat.start()
    at = 0

    def own_until(count: int) -> None:
        nonlocal said, at
        while at < len(mine) and mine[at][0] <= count:
            message = mine[at][1]
            if message.get("type") == "np-act" and seat.outcome is None:
                said += seat.act(message["action"], message.get("mark"))
            at += 1

    for taken, message in enumerate(others):
        own_until(taken)
        said += seat.receive(message)
    own_until(len(others))
    return unsent(said, [message for _before, message in mine])


def unsent(said: list, sent: list) -> list:
    """The messages of ``said`` that are not among ``sent`` (a page makes its messages again
    byte for byte: the same secret, the same record, a deterministic signature)."""
    return [message for message in said if message not in sent]
