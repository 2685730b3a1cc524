"""A no-peek page's messages as its record holds them: their form, the one text every page
hashes and signs, and each seat's chain of hashes (``docs/PROTOCOL.md``, "No-peek dealing").

Every message carries ``heard``, how many messages of each dealing seat (in seat order, its
own included) its page held when it sent it, ``prev``, the transcript hash of that record
(:func:`transcript`), and ``sig``, its page's ed25519 signature of the rest. A page takes a
message only when its signature is its seat's, it is that seat's next, and ``prev`` is the
hash of the same record as this page holds it (:meth:`Chains.take`).
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Callable, Optional, Sequence

from .group import Group
from .lang import _
from .nopeek import POSITIONS, NotFairError

__all__ = ["EMPTY", "HOST", "MARKS", "Chains", "canonical", "chained", "checked", "transcript"]

#: The marks of a move the table made for a person: their clock ran out, or a computer plays
#: their seat (``np-act``'s optional ``mark``).
MARKS = ("timeout", "computer")
#: The host's page's seat of the deal.
HOST = 0
#: The hash of a seat's messages before its first.
EMPTY = "00" * 32


def canonical(message: dict) -> bytes:
    """``message`` as the one JSON text every page hashes and signs (keys sorted, no spaces)."""
    return json.dumps(message, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def chained(digest: str, message: dict) -> str:
    """The hash of a seat's messages after ``message``, from ``digest`` before it."""
    return hashlib.sha256(bytes.fromhex(digest) + canonical(message)).hexdigest()


def transcript(digests: Sequence[str]) -> str:
    """The transcript hash of a record: SHA-256 of every seat's messages' hash, in seat order."""
    return hashlib.sha256(b"".join(bytes.fromhex(d) for d in digests)).hexdigest()


class Chains:
    """Each dealing seat's messages (``seats``, in seat order) as page ``seat`` holds them, its
    own included: in :attr:`hashes`, the hash after each, the first :data:`EMPTY`."""

    def __init__(self, group: Group, seats: tuple, seat: int):
        self.group, self.seats, self.seat = group, seats, seat
        self.hashes: dict = {s: [EMPTY] for s in seats}

    def heard(self, seat: int) -> int:
        """How many of page ``seat``'s messages this page holds (took in, or sent)."""
        return len(self.hashes[seat]) - 1

    def blame(self, seat) -> dict:
        """Who a bad message from ``seat`` names: on the host's page, that seat alone (its page
        sent it straight here); on a guest's page, the host for its own messages, else "the host
        or that seat" (the host relayed it: either may have made it so)."""
        if type(seat) is not int or seat not in self.seats or seat == self.seat:
            return {"host": self.seat != HOST}
        if self.seat == HOST:
            return {"seat": seat}
        return {"host": True} if seat == HOST else {"seat": seat, "host": True}

    def message(self, kind: str, signer: Callable[[bytes], str], /, **fields) -> dict:
        """This page's message, sent on the record it holds (``heard``, ``prev``) and signed by
        ``signer`` (bytes to the signature's hex)."""
        heard = [self.heard(s) for s in self.seats]
        body = {"type": kind, "seat": self.seat, **fields, "heard": heard,
                "prev": transcript([self.hashes[s][-1] for s in self.seats])}
        message = {**body, "sig": signer(canonical(body))}
        self.hashes[self.seat].append(chained(self.hashes[self.seat][-1], message))
        return message

    def signed(self, message: dict, sign: Optional[str]) -> bool:
        """Whether ``message`` is signed by the key ``sign`` (hex; ``None``: no key, so not)."""
        if sign is None:
            return False
        body = {k: v for k, v in message.items() if k != "sig"}
        return self.group.verify(bytes.fromhex(sign), canonical(body), bytes.fromhex(message["sig"]))

    def take(self, message: dict, sign: Optional[str]) -> None:
        """That ``message`` (:func:`checked`) is signed by its seat's key ``sign`` (``None``: the
        seat has none yet), is that seat's next, and was sent on the record this page holds;
        then it is added to that record. Raises :class:`NotFairError` naming whoever may have
        made it otherwise (:meth:`blame`)."""
        seat = message["seat"]
        blame = self.blame(seat)
        if sign is None:
            raise NotFairError(_("A message came from a seat before its commitment."), **blame)
        if not self.signed(message, sign):
            raise NotFairError(_("A message's signature is not its seat's: the host changed it on the way, or "
                                 "its seat signed it wrong."), **blame)
        heard = message["heard"]
        if heard[self.seats.index(seat)] != self.heard(seat):
            raise NotFairError(_("A seat's message came out of its order, or twice."), **blame)
        if any(count > self.heard(s) for s, count in zip(self.seats, heard)) or message["prev"] != transcript(
                [self.hashes[s][count] for s, count in zip(self.seats, heard)]):
            raise NotFairError(_("This page and a seat's page were shown different records of the deal."), **blame)
        self.hashes[seat].append(chained(self.hashes[seat][-1], message))


_HEX64 = re.compile("[0-9a-f]{64}")
_HEX128 = re.compile("[0-9a-f]{128}")
#: Each message's fields besides ``type`` and ``seat``, and how to check them.
_FIELDS = {
    "np-commit": {"commitment": "hex", "public": "hex", "sign": "hex"},
    "np-shuffle": {"deck": "deck"}, "np-lock": {"deck": "deck"},
    "np-keys": {"shares": "shares"}, "np-act": {"action": "text", "shares": "shares"},
    "np-reveal": {"secret": "hex"}, "np-unfair": {"named": "seat", "host": "bool"},
}
#: What every message carries besides: the record it was sent on, and its signature.
_SIGNED = {"heard": "heard", "prev": "hex", "sig": "signature"}


def checked(message, seats: tuple, blame) -> dict:
    """``message`` if it has exactly the fields of its type and :data:`_SIGNED`'s, each of its
    kind (hex of 64 digits, a deck of 52 such, key shares ``[position, sender, receiver or
    null, hex, moves or null]`` of seats in the deal, a count of messages per seat, a
    signature); else :class:`NotFairError`, naming whom ``blame`` names for its seat."""
    seat = message.get("seat") if isinstance(message, dict) else None
    kind = message.get("type") if isinstance(message, dict) else None
    fields = _FIELDS.get(kind) if isinstance(kind, str) else None
    optional = {"mark"} if kind == "np-act" and message.get("mark") in MARKS else set()
    if fields is None or type(seat) is not int or set(message) != {"type", "seat", *fields, *_SIGNED, *optional}:
        raise NotFairError(_("A seat sent a message the deal cannot read."), **blame(seat))

    def good(value, kind) -> bool:
        if kind == "hex":
            return isinstance(value, str) and bool(_HEX64.fullmatch(value))
        if kind == "signature":
            return isinstance(value, str) and bool(_HEX128.fullmatch(value))
        if kind == "seat":
            return value is None or type(value) is int and value in seats
        if kind == "bool":
            return type(value) is bool
        if kind == "heard":
            return isinstance(value, list) and len(value) == len(seats) and all(
                type(c) is int and 0 <= c for c in value)
        if kind == "text":
            return isinstance(value, str) and 0 < len(value) <= 16
        if kind == "deck":
            return isinstance(value, list) and len(value) == POSITIONS and all(good(v, "hex") for v in value)
        return isinstance(value, list) and len(value) <= POSITIONS * len(seats) and all(
            isinstance(e, list) and len(e) == 5 and type(e[0]) is int and 0 <= e[0] < POSITIONS
            and e[1] in seats and (e[2] is None or e[2] in seats) and good(e[3], "hex")
            and (e[4] is None or type(e[4]) is int) for e in value)

    if not all(good(message[name], kind) for name, kind in {**fields, **_SIGNED}.items()):
        raise NotFairError(_("A seat sent a message the deal cannot read."), **blame(seat))
    return message
