"""One page's own record of a try of a no-peek deal: what it sent, and what it took in.

The host's page relays every page's message and keeps the deal's log; it sends the log
again to a page coming back (``np-deal``). A host page whose code was changed could send
a log rewritten: a move of its own taken back, a move made in the friend's name, a key
asked for by a forged move. So every guest page keeps its own record, append-only
(docs/PROTOCOL.md, "One record"):

- every message it **sent**, each with how many of the others' messages it had taken in
  before (so that it makes its seat again in its own order after a reload);
- the others' messages it **took in**, as their count and a hash chain over them (a
  transcript hash: SHA-256 of the previous hash and the message's canonical JSON).

A log sent again for the try in play must hold that record as its prefix: its first
others' messages hash to the page's chain, and its entries in the page's own seat are
the messages the page sent, in order (the last few may be missing: lost on the way, the
page sends them again). Anything else is the host's doing: :class:`RecordRewrittenError`.
The record is in the page's ledger, so it holds across a reload.
"""

from __future__ import annotations

from typing import Optional

from ...errors import PisheError
from ..lang import TABLE
from ..nopeek_messages import EMPTY, chained
from ..said import say
from . import wire
from .common import COMPUTER, TIMEOUT

__all__ = ["Record", "RecordRewrittenError", "EMPTY"]


class RecordRewrittenError(PisheError):
    """The host sent a page a deal's log that does not extend the record the page holds."""


class Record:
    """Page ``seat``'s record of one try: ``mine``, ``[others taken in before, message]`` for
    each message it sent, and ``count`` and ``digest``, the others' messages taken in."""

    def __init__(self, seat: int, mine: Optional[list] = None, count: int = 0, digest: str = EMPTY):
        self.seat = seat
        self.mine: list = mine if mine is not None else []
        self.count = count
        self.digest = digest

    def sent(self, message: dict) -> None:
        """This page sent ``message``."""
        self.mine.append([self.count, message])

    def took(self, message: dict) -> None:
        """This page took in another page's ``message`` (relayed by the host)."""
        self.count += 1
        self.digest = chained(self.digest, message)

    @property
    def messages(self) -> list:
        """The messages this page sent, in order."""
        return [message for _before, message in self.mine]

    def extends(self, log: list) -> tuple[list, list]:
        """Check that ``log`` (the host's, sent again) holds this record as its prefix:
        ``(others, missing)``, the others' messages of the log in order and this page's own
        messages missing from its end (to send again). Raises :class:`RecordRewrittenError`
        naming what the host changed."""
        others = [m for m in log if m.get("seat") != self.seat]
        own = [m for m in log if m.get("seat") == self.seat]
        if len(others) < self.count:
            raise RecordRewrittenError(say(TABLE, "the host sent its log again with messages missing that this page "
                                         "had taken in."))
        digest = EMPTY
        for message in others[:self.count]:
            digest = chained(digest, message)
        if digest != self.digest:
            raise RecordRewrittenError(say(TABLE, "the host sent its log again with messages changed that this page "
                                         "had taken in."))
        mine = self.messages
        if own != mine[:len(own)]:
            raise RecordRewrittenError(say(TABLE, "the host sent its log again with messages in this page's name that "
                                         "it never sent."))
        return others, mine[len(own):]

    def data(self) -> dict:
        """The record as JSON data, for the page's ledger."""
        return {"seat": self.seat, "mine": self.mine, "count": self.count, "digest": self.digest}

    @classmethod
    def of(cls, data) -> Record:
        """The record :meth:`data` made (raises a :class:`~.wire.ProtocolError` for data it did not)."""
        data = wire.obj(data, "record")
        mine: list = []
        for before, message in wire.items(data["mine"], "mine"):
            mine.append([wire.whole(before, "before"), wire.obj(message, "message")])
        digest = data["digest"]
        wire.check(isinstance(digest, str) and len(digest) == 64 and all(c in "0123456789abcdef" for c in digest),
                   "the record's hash")
        count, seat = wire.whole(data["count"], "count"), wire.whole(data["seat"], "seat")
        wire.check(all(before <= count for before, _message in mine), "the record's order")
        wire.check(all(m.get("seat") == seat and type(m.get("seat")) is int and isinstance(m.get("type"), str)
                       and (m["type"] != "np-act" or isinstance(m.get("action"), str)
                            and m.get("mark") in (None, TIMEOUT, COMPUTER)) for _b, m in mine),
                   "the record's messages must be this page's own")
        return cls(seat, mine, count, digest)
